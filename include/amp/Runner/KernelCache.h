//===- KernelCache.h - Compile each kernel of many models once --*- C++ -*-===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// amp-tune compiles many versions of one model, each differing from the last
// in a few ops. The kernel cache compiles what is new only:
//
//  - a model is lowered for the CPU (CpuLowering.h) to loops, and every loop
//    nest is outlined into a function of its own (KernelOutlining.h), so
//    that a version is mostly functions identical to those of others;
//  - each such kernel is found by its text (its loops, the function under
//    a fixed name): one seen before becomes a declaration before the rest
//    of the lowering; new ones are lowered with the model, then compiled
//    on a thread pool at the cache's optimization level (-O0 when the
//    estimated work is small, compiling would cost more than it saves,
//    and the kernel calls no math function);
//  - weights (constant globals of at least 4 KiB) are copied once into
//    memory the cache owns, found again by their initializer (attributes are
//    unique in the context), and leave the module;
//  - what is left of a model (its entry, glue code that allocates and calls
//    kernels, small globals) is compiled per model, linked to the kernels and
//    weights by name;
//  - a large kernel over an `scf.parallel` range runs on the threads: its
//    call becomes a call of amp_parallel_for, which splits the range and
//    calls the kernel on each part (through a wrapper compiled with it that
//    unpacks its arguments).
//
// A kernel computes the same operations as the loop nest it came from (the
// iterations of an scf.parallel are independent: each element is computed
// by the same operations whichever part it falls in), and LLVM does not
// reassociate or contract floating-point operations without fast-math flags
// (the lowering sets none), so a model compiled this way gives the same
// bits as the model compiled whole after runCpuLowering (CpuLowering.h),
// whose kernels are not inlined, up to the sign and payload of NaNs, which
// LLVM does not preserve.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_RUNNER_KERNELCACHE_H
#define AMP_RUNNER_KERNELCACHE_H

#include "amp/Runner/JitFunction.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace llvm {
class ThreadPoolInterface;
} // namespace llvm

namespace mlir {
namespace amp {
namespace runner {

/// A model to compile.
struct CompileRequest {
  /// The model at the tensor level, such as amp-run compiles.
  OwningOpRef<ModuleOp> module;
  /// The function to call.
  std::string entry;
  /// What errors call it ("converted").
  std::string what;
};

/// How the cache compiles.
struct KernelCacheOptions {
  /// LLVM optimization level (0-3) of kernels, and of a model's remaining
  /// code when it does much work itself.
  unsigned optLevel = 2;
  /// Code estimated to execute fewer operations is compiled at -O0, unless
  /// it computes math functions (LLVM rewrites some when optimizing).
  int64_t smallWork = 1 << 16;
  /// A kernel that takes a range (KernelModule::ranged) and executes at
  /// least this many operations runs in parts on the threads.
  int64_t parallelWork = 1 << 20;
  /// Threads that compile (and that callers may run models on); 0: one per
  /// core.
  unsigned threads = 0;
  /// Libraries the code calls into (the MLIR C runner utilities).
  std::vector<std::string> sharedLibs;
  /// Functions of this process the code calls (amp-run's probes), by name.
  std::vector<std::pair<std::string, void *>> symbols;
};

/// What a cache has done so far.
struct KernelCacheStatistics {
  unsigned kernelsCompiled = 0, kernelsReused = 0;
  /// Kernels that run in parts on the threads (counted once).
  unsigned kernelsInParts = 0;
  unsigned modelsCompiled = 0;
  unsigned weightsStored = 0, weightsReused = 0;
  uint64_t weightBytes = 0;
  /// Wall time spent compiling (translation, optimization, code generation
  /// and linking).
  double compileSeconds = 0;
};

/// Kernels and weights shared by the models it compiles. The functions it
/// returns run code it owns: it must outlive them.
class KernelCache {
public:
  static llvm::Expected<std::unique_ptr<KernelCache>>
  create(const KernelCacheOptions &options);
  ~KernelCache();

  /// Lowers and compiles the models and returns a function for each. The
  /// kernels no model compiled before are compiled in parallel, with what
  /// is left of each model. The modules are lowered in place. Lowering
  /// errors are reported as diagnostics first.
  llvm::Expected<std::vector<std::unique_ptr<JitFunction>>>
  compile(MutableArrayRef<CompileRequest> requests);

  /// The threads the cache compiles on (idle between calls of compile).
  llvm::ThreadPoolInterface &getThreadPool();
  unsigned getNumThreads() const;

  const KernelCacheStatistics &getStatistics() const;

  struct State;

private:
  explicit KernelCache(std::unique_ptr<State> state);
  std::unique_ptr<State> state;
};

} // namespace runner
} // namespace amp
} // namespace mlir

#endif // AMP_RUNNER_KERNELCACHE_H
