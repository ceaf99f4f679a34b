//===- KernelOutlining.h - Loop nests into functions of their own -*- C++ -*-=//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// What --amp-outline-kernels does, callable without the pass: every loop
// nest directly in a function's body becomes a private function (a kernel)
// and a call of it, so that a lowered model is mostly functions that other
// versions of the model share (amp-tune's kernel cache). And an estimate of
// the operations a function executes, which decides how hard the cache
// optimizes a kernel.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_RUNNER_KERNELOUTLINING_H
#define AMP_RUNNER_KERNELOUTLINING_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir {
namespace amp {
namespace runner {

/// What outlineLoopNests did.
struct OutlineCounts {
  unsigned outlined = 0;
  /// Nests left in place: they have results or reference a symbol.
  unsigned keptInline = 0;
};

/// How to outline.
struct OutlineOptions {
  /// A nest that is an `scf.parallel` without reductions gets two leading
  /// index arguments, the lower and upper bound of one of its dimensions
  /// (the one with the most iterations, at least 2, of constant bounds and
  /// step 1), which the call passes: a caller may then run the kernel on
  /// parts of that range at once.
  bool rangeArguments = false;
};

/// A kernel outlineLoopNests made.
struct OutlinedKernel {
  func::FuncOp kernel;
  /// It takes a range (OutlineOptions::rangeArguments).
  bool hasRange = false;
};

/// Moves every loop nest directly in the body of `function` into a new
/// private function inserted into `symbols` after `function`, called in its
/// place. The values the nest uses from outside become the kernel's
/// arguments (constants are copied in instead); a nest with results or a
/// symbol reference stays. The kernels are appended to `kernels` if given.
OutlineCounts
outlineLoopNests(func::FuncOp function, SymbolTable &symbols,
                 const OutlineOptions &options = {},
                 SmallVectorImpl<OutlinedKernel> *kernels = nullptr);

/// An estimate of the operations `op` executes: a loop with static bounds
/// counts its body once per iteration (1024 iterations when a bound is not
/// a constant), every other op counts 1 plus what its regions hold.
/// Saturates at INT64_MAX.
int64_t estimateExecutedOps(Operation *op);

} // namespace runner
} // namespace amp
} // namespace mlir

#endif // AMP_RUNNER_KERNELOUTLINING_H
