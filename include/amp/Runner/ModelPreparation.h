//===- ModelPreparation.h - Make a model runnable by amp-run ----*- C++ -*-===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// What amp-run does to a model before it converts and compiles it, all on
// the original module so that the FP32 and the converted version see the same
// function:
//
//  - pick the entry function and check that its signature can be called;
//  - give dynamic argument dimensions the shapes the user asked for;
//  - isolate the entry from the harness code models are often shipped with
//    (printing and timing calls, a @main that builds inputs), turning
//    printed tensors into outputs;
//  - optionally replace the weights by seeded random values.
//
// Every function reports problems as MLIR diagnostics and returns failure.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_RUNNER_MODELPREPARATION_H
#define AMP_RUNNER_MODELPREPARATION_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/SmallVector.h"

#include <string>

namespace mlir {
namespace amp {
namespace runner {

/// Returns the entry function: the function named `name` if it is not empty,
/// otherwise the only public function with a body that takes a ranked
/// tensor. Emits an error listing the candidates when there is no such
/// function or more than one.
FailureOr<func::FuncOp> findEntry(ModuleOp module, StringRef name);

/// A static shape for one argument of the entry.
struct ArgumentShape {
  unsigned argIndex;
  SmallVector<int64_t> shape;
};

/// Gives the arguments named in `shapes` these static shapes: the argument
/// type becomes static and a tensor.cast back to the old type feeds its
/// uses. The shape must have the argument's rank and agree with its static
/// dimensions.
LogicalResult specializeArgumentShapes(func::FuncOp entry,
                                       ArrayRef<ArgumentShape> shapes);

/// Checks that amp-run can call `entry`: arguments are ranked tensors of a
/// supported element type (f32, f16, bf16, f64, i1, i8, i32, i64) with
/// static shapes; results are ranked tensors of a supported element type
/// (dynamic dimensions are read at run time); there is at least one result.
LogicalResult verifyRunnableSignature(func::FuncOp entry);

/// What isolateEntry did.
struct IsolationResult {
  /// A name per result of the entry: "result<i>" for the returned values,
  /// "<callee>#<k>" for tensors the entry passed to a printing call.
  SmallVector<std::string> outputNames;
  /// Number of harness ops removed (calls and vector.print).
  unsigned numRemovedOps = 0;
};

/// Isolates `entry` from harness code:
///  - a call to an external function that returns nothing (printMemrefF32,
///    record_timing, ...) and `vector.print` are removed; a ranked tensor the
///    entry passes to such a call (directly or through a tensor.cast) and
///    that is available at its returns becomes an extra result;
///  - ops left without a use (the timing arithmetic, calls to external
///    functions whose results are unused, like rtclock) are removed;
///  - every other function becomes private and the symbols the entry does
///    not reach are removed.
FailureOr<IsolationResult> isolateEntry(ModuleOp module, func::FuncOp entry);

/// Returns the fan-in of `value` if it is a weight: a float tensor of rank
/// >= 2 that reaches a data operand of a green op (a contraction or
/// convolution, by amp's default colors) directly or through shape-only ops
/// (reshape, transpose, collapse/expand, unary elementwise ops). With
/// `notFirstOperand` (for function arguments, which may be activations),
/// only a data input after the first one counts: the first is the
/// activation of a matmul or convolution, the second its weight. The fan-in
/// is the product of the reduction dimensions the green op reads the weight
/// with, or the size of all but its first dimension when that is unknown.
std::optional<int64_t> getWeightFanIn(Value value, bool notFirstOperand);

/// The bound b of the He-uniform distribution [-b, b] for `fanIn`:
/// sqrt(6 / fanIn).
double getHeUniformBound(int64_t fanIn);

/// What randomizeWeights did.
struct WeightRandomization {
  unsigned numConstants = 0;
  int64_t numValues = 0;
};

/// Replaces the weights of `module` by random values: every float constant
/// (arith.constant, tosa.const or any other ConstantLike op holding a dense
/// or dense_resource tensor, splats included) that getWeightFanIn accepts.
/// All-zero splats (accumulator inits) and constants that only reach gray or
/// red ops (masks, scales, broadcast helpers) are kept, so the model
/// computes the same function with other weights.
///
/// Values are uniform in [-b, b] with b = getHeUniformBound(fan_in) (He
/// initialization). Constant k (in walk order) draws from stream k of
/// `seed`.
WeightRandomization randomizeWeights(ModuleOp module, uint64_t seed);

} // namespace runner
} // namespace amp
} // namespace mlir

#endif // AMP_RUNNER_MODELPREPARATION_H
