//===- FloatConversionSupport.h - Shared by the float conversions -*- C++ -*-===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// What FloatConversion.cpp (16-bit types) and FP8Conversion.cpp share: the
// outcome of one value's conversion, the tally of an attribute's outcomes,
// and the visit of a constant's float values.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_LIB_UTILS_FLOATCONVERSIONSUPPORT_H
#define AMP_LIB_UTILS_FLOATCONVERSIONSUPPORT_H

#include "amp/Utils/FloatConversion.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/bit.h"

#include <cmath>

namespace mlir {
namespace amp {
namespace conversion_detail {
using llvm::APFloat;

/// How one value converted.
enum class Outcome { Fits, Sentinel, Overflow, Underflow };

constexpr uint32_t kF32AbsMask = 0x7fffffffu;
constexpr uint32_t kF32Inf = 0x7f800000u;
constexpr uint32_t kF32Max = 0x7f7fffffu;

/// Tallies the outcomes of one attribute's values. Flushes to zero are kept
/// aside with their magnitude and position until the largest magnitude of the
/// attribute is known; finish() then tells negligible flushes from real ones.
class Tally {
public:
  Tally(int64_t weight, FloatType target, bool mayHaveNegligible)
      : weight(weight), mayHaveNegligible(mayHaveNegligible),
        precision(llvm::APFloat::semanticsPrecision(
            target.getFloatSemantics())) {}

  /// Records the outcome of the next value, whose magnitude is `abs`.
  void record(Outcome outcome, double abs) {
    summary.numValues += weight;
    switch (outcome) {
    case Outcome::Fits:
      if (std::isfinite(abs))
        maxAbs = std::max(maxAbs, abs);
      break;
    case Outcome::Sentinel:
      summary.numSentinel += weight;
      break;
    case Outcome::Overflow:
      summary.numOverflow += weight;
      break;
    case Outcome::Underflow:
      flushed.push_back({position, abs});
      break;
    }
    ++position;
  }

  /// Classifies the flushes and adds everything to `out`; calls
  /// `makeZero(position)` for each negligible one.
  template <typename MakeZeroFn>
  void finish(RangeSummary &out, MakeZeroFn makeZero) {
    double bound = mayHaveNegligible ? std::ldexp(maxAbs, -int(precision)) : 0;
    for (auto [pos, abs] : flushed) {
      if (abs < bound) {
        summary.numNegligible += weight;
        makeZero(pos);
      } else {
        summary.numUnderflow += weight;
      }
    }
    out.merge(summary);
  }

private:
  RangeSummary summary;
  int64_t weight;
  bool mayHaveNegligible;
  unsigned precision;
  double maxAbs = 0;
  int64_t position = 0;
  SmallVector<std::pair<int64_t, double>> flushed;
};

/// Whether `attr` is a tensor of several stored values (not a scalar, not a
/// splat): only those can hold values negligible next to others.
inline bool hasSeveralValues(Attribute attr) {
  if (isa<FloatAttr>(attr))
    return false;
  if (auto dense = dyn_cast<DenseElementsAttr>(attr))
    return !dense.isSplat() && dense.getNumElements() > 1;
  return true; // dense_resource
}

/// The magnitude of an APFloat as a double.
inline double getAbs(const APFloat &value) {
  APFloat copy = abs(value);
  bool losesInfo;
  (void)copy.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven,
                     &losesInfo);
  return copy.convertToDouble();
}

/// The magnitude of f32 bits as a double.
inline double getAbs(uint32_t bits) {
  return llvm::bit_cast<float>(bits & kF32AbsMask);
}

/// How many elements each visited value stands for.
inline int64_t getWeight(Attribute attr) {
  auto dense = dyn_cast<DenseElementsAttr>(attr);
  return dense && dense.isSplat() ? dense.getNumElements() : 1;
}

/// The f32 payload of a dense_resource attribute, if available.
inline std::optional<ArrayRef<float>> getResourceData(Attribute attr) {
  auto resource = dyn_cast<DenseF32ResourceElementsAttr>(attr);
  if (!resource)
    return std::nullopt;
  return resource.tryGetAsArrayRef();
}

/// Visits the float values of `attr` as (f32 bits) for f32 sources, or as
/// APFloats otherwise. Splat dense attributes are visited once.
template <typename F32Fn, typename APFloatFn>
inline void forEachValue(Attribute attr, F32Fn onF32, APFloatFn onAPFloat) {
  if (auto floatAttr = dyn_cast<FloatAttr>(attr)) {
    if (floatAttr.getType().isF32())
      onF32(llvm::bit_cast<uint32_t>(floatAttr.getValue().convertToFloat()));
    else
      onAPFloat(floatAttr.getValue());
    return;
  }
  if (auto dense = dyn_cast<DenseElementsAttr>(attr)) {
    if (dense.getElementType().isF32()) {
      if (dense.isSplat()) {
        onF32(llvm::bit_cast<uint32_t>(dense.getSplatValue<float>()));
        return;
      }
      for (float v : dense.getValues<float>())
        onF32(llvm::bit_cast<uint32_t>(v));
      return;
    }
    if (dense.isSplat()) {
      onAPFloat(dense.getSplatValue<APFloat>());
      return;
    }
    for (APFloat v : dense.getValues<APFloat>())
      onAPFloat(v);
    return;
  }
  if (std::optional<ArrayRef<float>> data = getResourceData(attr))
    for (float v : *data)
      onF32(llvm::bit_cast<uint32_t>(v));
}

} // namespace conversion_detail
} // namespace amp
} // namespace mlir

#endif // AMP_LIB_UTILS_FLOATCONVERSIONSUPPORT_H
