//===- TrialBuilder.h - Build and run the versions amp-tune tries -*- C++ -*-=//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A trial is a set of per-op annotations (`amp.color = red` on the ops kept
// in FP32, or any other attribute a conversion reads) on the prepared
// model. The builder turns it into a running model:
//
//  1. convert: a copy of the prepared model, annotated, through the
//     conversion pipeline;
//  2. compile: the CPU lowering with every loop nest a kernel, then the
//     kernel cache (amp/Runner/KernelCache.h), which compiles only the
//     kernels no earlier trial had, several at once, and keeps the weights;
//  3. run: the samples (and the models of one step, such as the FP32 and
//     converted models of the sensitivity run) on the cache's threads, as
//     many at once as there are cores.
//
// With --check-rebuild every trial is also compiled whole, as amp-run
// compiles a model, and must give the same bits.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_TOOLS_AMP_TUNE_TRIALBUILDER_H
#define AMP_TOOLS_AMP_TUNE_TRIALBUILDER_H

#include "amp/Runner/KernelCache.h"
#include "amp/Runner/ToolSupport.h"

#include "mlir/IR/BuiltinOps.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mlir {
namespace amp {
namespace tune {

/// How trials are built.
struct TrialOptions {
  std::string pipeline = "amp-mixed-precision";
  std::vector<std::string> sharedLibs;
  /// LLVM optimization level of the kernels that do much work.
  unsigned optLevel = 2;
  /// Threads that compile and run; 0: one per core.
  unsigned threads = 0;
  /// Compile every trial whole too and compare the outputs bit for bit.
  bool checkRebuild = false;
};

/// An attribute a trial puts on one op of the prepared model, found by the
/// op's tag (Tuner.h, tagOps).
struct OpAnnotation {
  unsigned tag;
  StringAttr name;
  Attribute value;
};

/// One call to make: `function` on sample `sample` of the model.
struct RunRequest {
  runner::JitFunction *function;
  size_t sample;
};

/// Builds and runs the versions of one prepared model.
class TrialBuilder {
public:
  TrialBuilder(ModuleOp prepared, const runner::PreparedModel &model,
               const TrialOptions &options, llvm::raw_ostream &errs);
  ~TrialBuilder();

  /// Creates the kernel cache; `symbols` are the functions of this process
  /// the code may call (probes). Fails after an error message.
  LogicalResult initialize(std::vector<std::pair<std::string, void *>> symbols);

  /// A copy of the prepared model with `annotations` on its ops, through
  /// the conversion pipeline; `what` names the trial in errors.
  FailureOr<OwningOpRef<ModuleOp>> convert(ArrayRef<OpAnnotation> annotations,
                                           StringRef what);

  /// Compiles `modules` (at the tensor level, with the model's entry) and
  /// returns a function for each; `what` names them in errors. The modules
  /// are consumed.
  FailureOr<std::vector<std::unique_ptr<runner::JitFunction>>>
  compile(MutableArrayRef<OwningOpRef<ModuleOp>> modules,
          ArrayRef<std::string> what);

  /// Makes the calls, as many at once as there are threads (one at a time
  /// if a function is not reentrant), and returns their outputs in order.
  /// Each sample's inputs are converted to the function's argument types.
  FailureOr<std::vector<std::vector<runner::HostTensor>>>
  run(ArrayRef<RunRequest> requests, const char *what);

  /// `function` on every sample.
  FailureOr<std::vector<std::vector<runner::HostTensor>>>
  runSamples(runner::JitFunction &function, const char *what);

  /// Compiles `converted` whole, without the cache, as amp-run does, runs it
  /// on every sample and fails with an error unless it gives `outputs` bit
  /// for bit.
  LogicalResult checkRebuild(OwningOpRef<ModuleOp> converted,
                             ArrayRef<std::vector<runner::HostTensor>> outputs,
                             StringRef what);

  bool checksRebuilds() const { return options.checkRebuild; }
  unsigned getNumThreads() const;
  const runner::KernelCacheStatistics &getStatistics() const;

private:
  ModuleOp prepared;
  const runner::PreparedModel &model;
  const TrialOptions &options;
  llvm::raw_ostream &errs;
  std::vector<std::pair<std::string, void *>> symbols;
  std::unique_ptr<runner::KernelCache> cache;
};

} // namespace tune
} // namespace amp
} // namespace mlir

#endif // AMP_TOOLS_AMP_TUNE_TRIALBUILDER_H
