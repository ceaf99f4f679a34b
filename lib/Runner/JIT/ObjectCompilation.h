//===- ObjectCompilation.h - LLVM IR to object files, in parallel -*- C++ -*-=//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The kernel cache's compiler (private to lib/Runner/JIT): an LLVM module,
// each in its own LLVMContext, is optimized at its level (the pipelines
// MLIR's ExecutionEngine uses) and turned into an ELF object in memory by
// a TargetMachine of its own, so that modules compile on several threads.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_LIB_RUNNER_JIT_OBJECTCOMPILATION_H
#define AMP_LIB_RUNNER_JIT_OBJECTCOMPILATION_H

#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/MemoryBuffer.h"

#include <memory>
#include <string>

namespace llvm {
class ThreadPoolInterface;
} // namespace llvm

namespace mlir {
namespace amp {
namespace runner {

/// One module to compile.
struct CompileJob {
  std::unique_ptr<llvm::LLVMContext> context;
  std::unique_ptr<llvm::Module> module;
  unsigned optLevel = 0;
  /// Results: the object, or an error message.
  std::unique_ptr<llvm::MemoryBuffer> object;
  std::string error;
};

/// Compiles every job on `pool` (the largest first) for the target of
/// `target`, and waits for all of them.
void runCompileJobs(llvm::MutableArrayRef<CompileJob *> jobs,
                    const llvm::orc::JITTargetMachineBuilder &target,
                    llvm::ThreadPoolInterface &pool);

/// Adds `_mlir_<name>(void **)` to `module`: it calls `function` with the
/// arguments that the array holds pointers to and stores the result
/// through the pointer after them (the convention of MLIR's ExecutionEngine
/// that JitFunction calls).
void addPackedWrapper(llvm::Module &module, llvm::Function &function);

} // namespace runner
} // namespace amp
} // namespace mlir

#endif // AMP_LIB_RUNNER_JIT_OBJECTCOMPILATION_H
