//===- FloatConversion.h - Convert float constants to 16 bits ---*- C++ -*-===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Converts float constants (scalars, dense and dense_resource tensors) to a
// narrower float type with round-to-nearest-even, and reports the values that
// do not fit: those that overflow to infinity and those that flush to zero.
//
// One rule is not a range check: the exact largest finite FP32 value (+-FLT_MAX,
// which frontends use as "lowest"/"highest" sentinels, e.g. the init of a max
// pooling) converts to the target's largest finite value and counts as
// fitting; it is reported as a sentinel.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_UTILS_FLOATCONVERSION_H
#define AMP_UTILS_FLOATCONVERSION_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"

namespace mlir {
namespace amp {

/// What converting a set of values to a narrower type does to them.
struct RangeSummary {
  /// Finite values whose magnitude exceeds the target's largest finite value.
  int64_t numOverflow = 0;
  /// Non-zero values that become zero in the target type.
  int64_t numUnderflow = 0;
  /// +-FLT_MAX values mapped to the target's largest finite value.
  int64_t numSentinel = 0;
  /// Total number of values looked at.
  int64_t numValues = 0;

  /// True if every value converts without overflow or flush to zero.
  bool fits() const { return numOverflow == 0 && numUnderflow == 0; }
  void merge(const RangeSummary &other) {
    numOverflow += other.numOverflow;
    numUnderflow += other.numUnderflow;
    numSentinel += other.numSentinel;
    numValues += other.numValues;
  }
};

/// Returns true if `attr` holds float values this utility can read: a
/// FloatAttr, a DenseElementsAttr of floats, or a DenseResourceElementsAttr of
/// f32 whose blob is available.
bool isConvertibleFloatConstant(Attribute attr);

/// Checks how the float values of `attr` convert to `target`, without
/// building anything. `attr` must satisfy isConvertibleFloatConstant.
RangeSummary checkFloatRange(Attribute attr, FloatType target);

/// Converts the float values of `attr` to `target`. Values that overflow or
/// flush to zero are clamped to the largest finite / smallest non-zero value
/// of `target` (callers that must not clamp check the range first). A
/// dense_resource input produces a dense_resource output. Returns a null
/// attribute if `attr` is not a convertible float constant.
TypedAttr convertFloatConstant(Attribute attr, FloatType target,
                               RangeSummary *summary = nullptr);

/// How a float becomes an integer.
enum class IntegerRounding {
  /// Like arith.fptosi.
  TowardZero,
  /// Like tosa.cast: to nearest, ties to even.
  NearestEven,
};

/// Converts the float values of `attr` (a FloatAttr or a DenseElementsAttr of
/// floats) to the signless integer type `target`: rounded as `rounding` says
/// and saturated to the signed range of `target`; NaN becomes 0. Returns a
/// null attribute for other attributes.
TypedAttr convertFloatConstantToInteger(Attribute attr, IntegerType target,
                                        IntegerRounding rounding);

/// Number of bytes the payload of a constant attribute occupies (0 for
/// attributes that are not element or scalar constants).
int64_t getConstantByteSize(Attribute attr);

} // namespace amp
} // namespace mlir

#endif // AMP_UTILS_FLOATCONVERSION_H
