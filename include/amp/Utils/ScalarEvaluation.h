//===- ScalarEvaluation.h - Evaluate scalar arith/math ops ------*- C++ -*-===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Ahead-of-time evaluation of the scalar ops a payload is made of (arith and
// math on f32, f64, integers and index), with the rounding of each op's own
// type: a float result is computed in double and rounded to its type, so
// that +, -, *, / and sqrt give exactly what FP32 gives at run time, and the
// transcendental functions what a correctly rounded library gives. The ops
// are a table keyed by op, not a chain of casts.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_UTILS_SCALAREVALUATION_H
#define AMP_UTILS_SCALAREVALUATION_H

#include "mlir/IR/Operation.h"

#include <cstdint>
#include <optional>

namespace mlir {
namespace amp {

/// A scalar value: a float (in `f`, already rounded to its type) or an
/// integer (in `i`, sign-extended from its width; i1 true is -1).
struct ScalarValue {
  double f = 0;
  int64_t i = 0;
};

/// True for the scalar types the evaluator computes in: f32, f64, signless
/// integers up to 64 bits and index.
bool isEvaluableScalarType(Type type);

/// True if evaluateScalarOp can evaluate `op`: an op of the table (arith,
/// math, or a scalar arith.constant) with one result and operands of
/// evaluable types.
bool isEvaluableScalarOp(Operation *op);

/// The value of the scalar constant `op` (arith.constant of a float or
/// integer attribute), if it is one of an evaluable type.
std::optional<ScalarValue> getScalarConstant(Operation *op);

/// The result of `op` (isEvaluableScalarOp) for these operand values;
/// nullopt where it is undefined (an integer division by zero, a float to
/// integer conversion out of range): left to run time.
std::optional<ScalarValue> evaluateScalarOp(Operation *op,
                                            ArrayRef<ScalarValue> operands);

/// `value` rounded to the float type `type` (f32 or f64).
double roundToFloatType(Type type, double value);

} // namespace amp
} // namespace mlir

#endif // AMP_UTILS_SCALAREVALUATION_H
