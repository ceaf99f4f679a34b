//===- ParallelParts.h - Run a kernel on parts of its range -----*- C++ -*-===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Private to lib/Runner/JIT (the kernel cache). A kernel outlined with a
// range (OutlineOptions::rangeArguments) takes, once lowered to the LLVM
// dialect, the bounds of one scf.parallel dimension as its first two i64
// arguments. To run it on the threads:
//
//  - its own module gets `<kernel>.part(ptr args, i64 lo, i64 hi)`, which
//    loads the kernel's other arguments from a struct and calls it on
//    [lo, hi);
//  - in the model, each call of the kernel stores those arguments into a
//    struct on the stack and calls amp_parallel_for(context, part, args,
//    lo, hi), which this process defines (ampParallelFor): it splits the
//    range and calls the part wrapper on every piece, at once on the
//    threads of `context`.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_LIB_RUNNER_JIT_PARALLELPARTS_H
#define AMP_LIB_RUNNER_JIT_PARALLELPARTS_H

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"

#include <cstdint>

namespace llvm {
class ThreadPoolInterface;
} // namespace llvm

namespace mlir {
namespace amp {
namespace runner {

/// The names compiled code calls a kernel in parts by.
inline constexpr llvm::StringLiteral kParallelFor = "amp_parallel_for";
inline constexpr llvm::StringLiteral kParallelContext = "amp_parallel_context";

/// What amp_parallel_for runs on.
struct ParallelContext {
  llvm::ThreadPoolInterface *pool;
  unsigned threads;
};

/// True if `function`, lowered from a kernel with a range, can run in parts:
/// it returns nothing and its first two parameters are the i64 bounds.
bool takesRange(LLVM::LLVMFuncOp function);

/// Adds `@<partName>(ptr arguments, i64 lo, i64 hi)` after `kernel`: it
/// calls `kernel` on [lo, hi) with the arguments the struct holds.
void addPartWrapper(LLVM::LLVMFuncOp kernel, StringRef partName);

/// Replaces every call of `kernel` in `module` by a call of
/// amp_parallel_for with `<partName>` and the kernel's arguments after its
/// range in a struct on the stack of the caller.
void callInParts(ModuleOp module, LLVM::LLVMFuncOp kernel, StringRef partName);

} // namespace runner
} // namespace amp
} // namespace mlir

/// amp_parallel_for: calls `part(arguments, lo, hi)` on pieces of
/// [begin, end) that cover it, at once on the threads of `context` and the
/// calling thread.
extern "C" void ampParallelFor(mlir::amp::runner::ParallelContext *context,
                               void (*part)(void *, int64_t, int64_t),
                               void *arguments, int64_t begin, int64_t end);

#endif // AMP_LIB_RUNNER_JIT_PARALLELPARTS_H
