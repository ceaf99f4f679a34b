//===- FloatConversion.h - Convert float constants to 16 and 8 bits -*- C++
//-*-===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Converts float constants (scalars, dense and dense_resource tensors) to a
// narrower float type with round-to-nearest-even, and reports the values that
// do not fit: those that overflow to infinity and those that flush to zero.
// FP8 weights are scaled first (convertFloatConstantToFP8): w8 =
// RNE(clamp(w * s, -max, max)), one scale per tensor or per channel.
//
// Two rules are not plain range checks:
//  - The exact largest finite FP32 value (+-FLT_MAX, which frontends use as
//    "lowest"/"highest" sentinels, e.g. the init of a max pooling) converts to
//    the target's largest finite value and counts as fitting; it is reported
//    as a sentinel.
//  - In a tensor of several distinct values, a value that flushes to zero but
//    is smaller than the tensor's largest finite magnitude times 2^-p (p the
//    target's precision in bits: 11 for f16, 8 for bf16) is negligible: its
//    contribution is below the rounding error of the tensor's largest element
//    in the target type, so it becomes zero (round to nearest) and counts as
//    fitting. Typical case: a trained weight that happens to be 1e-9. Scalars
//    and splats never have negligible values: a lone 1e-12 is an epsilon.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_UTILS_FLOATCONVERSION_H
#define AMP_UTILS_FLOATCONVERSION_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <limits>
#include <optional>

namespace mlir {
namespace amp {

/// What converting a set of values to a narrower type does to them.
struct RangeSummary {
  /// Finite values whose magnitude exceeds the target's largest finite value.
  int64_t numOverflow = 0;
  /// Non-zero values that become zero in the target type and are not
  /// negligible (see the file comment).
  int64_t numUnderflow = 0;
  /// Non-zero values that become zero and are negligible next to the largest
  /// magnitude of their tensor; they do not stop the constant from fitting.
  int64_t numNegligible = 0;
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
    numNegligible += other.numNegligible;
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
/// of `target` (callers that must not clamp check the range first);
/// negligible values become zero. A
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

//===----------------------------------------------------------------------===//
// FP8
//===----------------------------------------------------------------------===//

/// The FP8 formats amp converts to, and their limits.
enum class FP8Format {
  /// 1-4-3, bias 7, no infinities, NaN = S.1111.111, largest finite 448.
  E4M3FN,
  /// 1-5-2, bias 15, IEEE-like (infinities, NaNs), largest finite 57344.
  E5M2,
};

/// The format of `type` (f8E4M3FN or f8E5M2), if it is one of them.
std::optional<FP8Format> getFP8Format(Type type);
/// True for f8E4M3FN and f8E5M2.
inline bool isFP8Type(Type type) { return getFP8Format(type).has_value(); }
/// The largest finite value of `format`: 448 or 57344.
double getFP8Max(FP8Format format);

/// F32 -> FP8 bits, round to nearest even. E4M3FN saturates: finite values
/// beyond the largest finite value and infinities become +-448 (the type has
/// no infinity); NaN becomes 0x7f with its sign. E5M2 is IEEE: values from
/// the midpoint above 57344 on become +-infinity (0x7c), NaN a quiet NaN
/// (0x7e) with its sign. `overflow`, if given, is set when a finite value
/// rounds beyond the largest finite value.
uint8_t convertF32ToFP8(float value, FP8Format format,
                        bool *overflow = nullptr);
/// FP8 bits -> F32 (exact).
float convertFP8ToF32(uint8_t bits, FP8Format format);

/// The largest magnitude of the finite float values of `attr` (a
/// convertible float constant): one number for the whole constant, or with
/// `axis` one per index along that dimension of its type. Non-finite values
/// are skipped. Returns an empty vector if `attr` cannot be read.
SmallVector<double> getFloatMaxAbs(Attribute attr,
                                   std::optional<unsigned> axis = {});

/// Converts the float values of `attr` to the FP8 type `target` as FP8
/// weights are stored: each value times its scale (in f32), clamped to the
/// largest finite value and rounded to nearest even. `scales` holds one
/// scale, or one per index along dimension `axis` of the result. The result
/// is laid out by `permutation` (dimension i of the result is dimension
/// permutation[i] of `attr`; empty: as `attr` is), which transposes a weight
/// at compile time. `summary` counts the values that overflow (clamped), the
/// non-zero values that flush to zero (negligible ones apart, as for 16-bit
/// types) and the NaNs (as overflows: they stay NaN). Returns a dense
/// constant, or null if `attr` is not a convertible float constant with a
/// static shape.
TypedAttr convertFloatConstantToFP8(Attribute attr, FloatType target,
                                    ArrayRef<float> scales,
                                    std::optional<unsigned> axis = {},
                                    ArrayRef<int64_t> permutation = {},
                                    RangeSummary *summary = nullptr);

/// The float values of `attr` (a convertible float constant with a static
/// shape) as f32, row-major in the layout `permutation` gives (dimension i
/// of the result is dimension permutation[i] of `attr`; empty: as it is),
/// a splat expanded. Null if `attr` cannot be read.
std::optional<SmallVector<float>>
readPermutedFloats(Attribute attr, ArrayRef<int64_t> permutation = {});

/// Calls `fn` on each element of `dense` (float elements, not a splat) as a
/// double, in order. f32, f16 and bf16 are decoded from the raw bytes (a
/// weight has millions of elements; APFloat costs hundreds of instructions
/// each); other float types go through APFloat.
void forEachDenseFloat(DenseElementsAttr dense,
                       llvm::function_ref<void(double)> fn);

/// The extremes of the non-NaN elements of a dense float constant.
struct DenseFloatStats {
  double lo = std::numeric_limits<double>::infinity();
  double hi = -std::numeric_limits<double>::infinity();
  double minAbs = std::numeric_limits<double>::infinity();
  double maxAbs = 0;
};
/// The extremes of `dense` (float elements, splat or not), read as
/// forEachDenseFloat reads them but in one tight loop: the range analysis
/// and the magnitudes read every weight of a model on every run of the
/// pass (amp-tune runs it once a trial).
DenseFloatStats getDenseFloatStats(DenseElementsAttr dense);

/// Number of bytes the payload of a constant attribute occupies (0 for
/// attributes that are not element or scalar constants).
int64_t getConstantByteSize(Attribute attr);

} // namespace amp
} // namespace mlir

#endif // AMP_UTILS_FLOATCONVERSION_H
