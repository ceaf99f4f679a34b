//===- RangeEvaluator.h - Transfer functions of ranges ----------*- C++ -*-===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// RangeEvaluator computes the ranges of an op's results from those of its
// operands; both drivers of FloatRange.h (FloatRangeAnalysis on a
// DataFlowSolver, FloatRangeMap on one walk) call it. Its transfer
// functions are grouped by what they compute, one family each, a table of
// ops per family:
//
//   RangeEvaluator.cpp     the dispatch, and constants
//   ElementwiseRanges.cpp  arithmetic, conversions, math functions, clamps
//   TensorRanges.cpp       data movement and reductions of tensor and tosa
//   StructuredRanges.cpp   the payloads of structured (linalg) ops
//
// Ops in no family are unbounded, which never keeps anything in FP32.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_LIB_ANALYSIS_RANGEEVALUATOR_H
#define AMP_LIB_ANALYSIS_RANGEEVALUATOR_H

#include "RangeArithmetic.h"

#include "amp/Utils/TypeUtils.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/Operation.h"

#include <optional>

namespace mlir {
namespace amp {
namespace floatrange {

/// The range of the values of a constant attribute.
FloatRange getAttributeRange(Attribute attr);

/// The entry of `op` in a driver's table of converted integers
/// (getConvertedIntegerMaxAbs), if it has one.
template <typename MapT>
std::optional<double> findConvertedInteger(const MapT &convertedIntegers,
                                           Operation *op) {
  auto it = convertedIntegers.find(op);
  if (it == convertedIntegers.end())
    return std::nullopt;
  return it->second;
}

/// Evaluates ranges, of top-level ops for the solver and of the ops of a
/// payload for its structured op.
class RangeEvaluator {
public:
  using Lookup = function_ref<FloatRange(Value)>;

  RangeEvaluator(Lookup lookup, double &convertedIntegers, double constantLimit)
      : lookup(lookup), convertedIntegers(convertedIntegers),
        constantLimit(constantLimit) {}

  /// The ranges of the results of `op`.
  void evaluate(Operation *op, SmallVectorImpl<FloatRange> &results);

private:
  /// The transfer function of one family of ops: the range of the result of
  /// `op`, or nullopt if `op` is not of the family.
  using FamilyFn = std::optional<FloatRange> (RangeEvaluator::*)(Operation *);

  FloatRange operand(Operation *op, unsigned i) {
    return lookup(op->getOperand(i));
  }
  /// `f` of the first operand of `op`.
  FloatRange unary(Operation *op, FloatRange (*f)(const FloatRange &)) {
    return f(operand(op, 0));
  }
  /// `f` of the first two operands of `op`.
  FloatRange binary(Operation *op,
                    FloatRange (*f)(const FloatRange &, const FloatRange &)) {
    return f(operand(op, 0), operand(op, 1));
  }
  /// The monotone `f` applied to the elements of the first operand of `op`.
  FloatRange monotone(Operation *op, double (*f)(double)) {
    return applyMonotone(operand(op, 0), f);
  }

  /// The range of the one result of `op`.
  FloatRange evaluateSingle(Operation *op);
  /// Scalar, splat and dense constants (RangeEvaluator.cpp).
  std::optional<FloatRange> evaluateConstant(Operation *op);
  /// Elementwise arithmetic (ElementwiseRanges.cpp).
  std::optional<FloatRange> evaluateArithmetic(Operation *op);
  /// Conversions: the values stay (ElementwiseRanges.cpp).
  std::optional<FloatRange> evaluateConversion(Operation *op);
  /// Monotone math functions and clamps (ElementwiseRanges.cpp).
  std::optional<FloatRange> evaluateMath(Operation *op);
  /// Data movement: the elements stay (TensorRanges.cpp).
  std::optional<FloatRange> evaluateDataMovement(Operation *op);
  /// Reductions and contractions of tosa (TensorRanges.cpp).
  std::optional<FloatRange> evaluateReduction(Operation *op);
  /// The payload of a structured op (StructuredRanges.cpp).
  void evaluateStructured(linalg::LinalgOp op,
                          SmallVectorImpl<FloatRange> &results);

  /// Records an integer converted to a float.
  FloatRange noteConversion(Value source, const FloatRange &range) {
    if (getScalarType(source.getType()).isIntOrIndex())
      if (std::optional<double> m = getBoundedMaxAbs(range))
        convertedIntegers = std::max(convertedIntegers, *m);
    return range;
  }
  static std::optional<double> getBoundedMaxAbs(const FloatRange &r) {
    if (!r.isBounded())
      return std::nullopt;
    return std::max(std::abs(r.getLo()), std::abs(r.getHi()));
  }

  Lookup lookup;
  double &convertedIntegers;
  /// Float constant bounds beyond this magnitude are not attained (they are
  /// clamped by the conversion).
  double constantLimit;
};

} // namespace floatrange
} // namespace amp
} // namespace mlir

#endif // AMP_LIB_ANALYSIS_RANGEEVALUATOR_H
