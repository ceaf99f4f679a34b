//===- FloatConversion.cpp - Convert float constants to 16 bits -----------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// F32 -> F16 and F32 -> BF16 use bit-level round-to-nearest-even (the F16
// subnormal case uses the FPU's own rounding through the "add 0.5" trick);
// every other pair of types goes through llvm::APFloat. Both paths agree with
// APFloat's rmNearestTiesToEven; the unit tests compare them on many values.
//
// FP8 is in FP8Conversion.cpp.
//
//===----------------------------------------------------------------------===//

#include "amp/Utils/FloatConversion.h"
#include "FloatConversionSupport.h"

#include "amp/Utils/ConversionMemo.h"
#include "amp/Utils/TypeUtils.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/APSInt.h"
#include "llvm/ADT/bit.h"

#include <cmath>
#include <cstring>

using namespace mlir;
using namespace mlir::amp;
using namespace mlir::amp::conversion_detail;

namespace {

/// F32 -> F16 with round-to-nearest-even. Overflow and flush-to-zero are
/// clamped (to 0x7bff and 0x0001) and reported through `outcome`.
uint16_t convertF32ToF16(uint32_t bits, Outcome &outcome) {
  uint16_t sign = static_cast<uint16_t>((bits >> 16) & 0x8000u);
  uint32_t abs = bits & kF32AbsMask;
  outcome = Outcome::Fits;
  if (abs > kF32Inf) // NaN: keep it quiet.
    return sign | 0x7e00u | static_cast<uint16_t>((abs >> 13) & 0x1ffu);
  if (abs == kF32Inf)
    return sign | 0x7c00u;
  if (abs == kF32Max) {
    outcome = Outcome::Sentinel;
    return sign | 0x7bffu;
  }
  uint16_t result;
  if (abs < 0x38800000u) {
    // Below the smallest normal F16 (2^-14): adding 0.5 aligns the value so
    // that the FPU rounds it to a multiple of 2^-24, the F16 subnormal step.
    float tmp = llvm::bit_cast<float>(abs) + 0.5f;
    result = static_cast<uint16_t>(llvm::bit_cast<uint32_t>(tmp) - 0x3f000000u);
    if (result == 0 && abs != 0) {
      outcome = Outcome::Underflow;
      return sign | 0x0001u;
    }
    return sign | result;
  }
  if (abs >= 0x47800000u) { // >= 65536: certainly out of range.
    outcome = Outcome::Overflow;
    return sign | 0x7bffu;
  }
  uint32_t mantOdd = (abs >> 13) & 1u;
  abs += 0xc8000fffu + mantOdd; // Rebias the exponent and round.
  result = static_cast<uint16_t>(abs >> 13);
  if (result >= 0x7c00u) { // Rounded up to infinity.
    outcome = Outcome::Overflow;
    return sign | 0x7bffu;
  }
  return sign | result;
}

/// F32 -> BF16 with round-to-nearest-even, same conventions.
uint16_t convertF32ToBF16(uint32_t bits, Outcome &outcome) {
  uint32_t abs = bits & kF32AbsMask;
  uint16_t sign = static_cast<uint16_t>((bits >> 16) & 0x8000u);
  outcome = Outcome::Fits;
  if (abs > kF32Inf)
    return static_cast<uint16_t>((bits >> 16) | 0x40u);
  if (abs == kF32Inf)
    return static_cast<uint16_t>(bits >> 16);
  if (abs == kF32Max) {
    outcome = Outcome::Sentinel;
    return sign | 0x7f7fu;
  }
  uint32_t lsb = (abs >> 16) & 1u;
  uint32_t rounded = (abs + 0x7fffu + lsb) >> 16;
  if (rounded >= 0x7f80u) {
    outcome = Outcome::Overflow;
    return sign | 0x7f7fu;
  }
  if (rounded == 0 && abs != 0) {
    outcome = Outcome::Underflow;
    return sign | 0x0001u;
  }
  return sign | static_cast<uint16_t>(rounded);
}

/// Any float -> any float through APFloat, same conventions.
APFloat convertGeneric(const APFloat &value, FloatType target,
                       Outcome &outcome) {
  const llvm::fltSemantics &sem = target.getFloatSemantics();
  outcome = Outcome::Fits;
  if (value.isNaN() || value.isInfinity() || value.isZero()) {
    APFloat copy = value;
    bool losesInfo;
    (void)copy.convert(sem, APFloat::rmNearestTiesToEven, &losesInfo);
    return copy;
  }
  bool negative = value.isNegative();
  APFloat largest = APFloat::getLargest(value.getSemantics(), negative);
  if (value.bitwiseIsEqual(largest) &&
      &value.getSemantics() == &APFloat::IEEEsingle()) {
    outcome = Outcome::Sentinel;
    return APFloat::getLargest(sem, negative);
  }
  APFloat copy = value;
  bool losesInfo;
  (void)copy.convert(sem, APFloat::rmNearestTiesToEven, &losesInfo);
  if (copy.isInfinity() || copy.isNaN()) {
    outcome = Outcome::Overflow;
    return APFloat::getLargest(sem, negative);
  }
  if (copy.isZero()) {
    outcome = Outcome::Underflow;
    return APFloat::getSmallest(sem, negative);
  }
  return copy;
}




/// The fast paths: f32 source and an f16 or bf16 target.
using FastConverter = uint16_t (*)(uint32_t, Outcome &);
FastConverter getFastConverter(Type source, FloatType target) {
  if (!source.isF32())
    return nullptr;
  if (target.isF16())
    return convertF32ToF16;
  if (target.isBF16())
    return convertF32ToBF16;
  return nullptr;
}

} // namespace

bool mlir::amp::isConvertibleFloatConstant(Attribute attr) {
  if (isa_and_nonnull<FloatAttr>(attr))
    return true;
  // Dense tensors first, without the ShapedType interface call.
  if (auto dense = dyn_cast_or_null<DenseIntOrFPElementsAttr>(attr))
    if (auto tensor = dyn_cast<RankedTensorType>(dense.getType()))
      return isFloatType(tensor.getElementType());
  if (auto dense = dyn_cast_or_null<DenseElementsAttr>(attr))
    return isFloatType(dense.getElementType());
  return getResourceData(attr).has_value();
}

static Type getSourceElementType(Attribute attr) {
  // The concrete attributes first: a cast to TypedAttr is an interface
  // lookup.
  if (auto floatAttr = dyn_cast<FloatAttr>(attr))
    return floatAttr.getType();
  if (auto dense = dyn_cast<DenseElementsAttr>(attr))
    return dense.getElementType();
  if (auto typed = dyn_cast<TypedAttr>(attr))
    return getScalarType(typed.getType());
  return {};
}

static RangeSummary computeFloatRange(Attribute attr, FloatType target) {
  Tally tally(getWeight(attr), target, hasSeveralValues(attr));
  FastConverter fast = getFastConverter(getSourceElementType(attr), target);
  forEachValue(
      attr,
      [&](uint32_t bits) {
        Outcome outcome;
        if (fast)
          (void)fast(bits, outcome);
        else
          (void)convertGeneric(APFloat(llvm::bit_cast<float>(bits)), target,
                               outcome);
        tally.record(outcome, getAbs(bits));
      },
      [&](const APFloat &value) {
        Outcome outcome;
        (void)convertGeneric(value, target, outcome);
        tally.record(outcome, getAbs(value));
      });
  RangeSummary summary;
  tally.finish(summary, [](int64_t) {});
  return summary;
}

RangeSummary mlir::amp::checkFloatRange(Attribute attr, FloatType target) {
  ConversionMemo *memo = ConversionMemo::getActive();
  if (!memo)
    return computeFloatRange(attr, target);
  return ConversionMemo::getOrCompute(
      memo->ranges, std::make_pair(attr, Type(target)),
      [&] { return computeFloatRange(attr, target); });
}

static TypedAttr computeFloatConstant(Attribute attr, FloatType target,
                                      RangeSummary &sum) {
  Tally tally(getWeight(attr), target, hasSeveralValues(attr));
  Type sourceElt = getSourceElementType(attr);
  FastConverter fast = getFastConverter(sourceElt, target);
  const llvm::fltSemantics &sem = target.getFloatSemantics();

  // Convert every value; 16-bit targets keep raw bits, others APFloats.
  SmallVector<uint16_t> bits16;
  SmallVector<APFloat> values;
  forEachValue(
      attr,
      [&](uint32_t bits) {
        Outcome outcome;
        if (fast) {
          bits16.push_back(fast(bits, outcome));
        } else {
          values.push_back(convertGeneric(APFloat(llvm::bit_cast<float>(bits)),
                                          target, outcome));
        }
        tally.record(outcome, getAbs(bits));
      },
      [&](const APFloat &value) {
        Outcome outcome;
        values.push_back(convertGeneric(value, target, outcome));
        tally.record(outcome, getAbs(value));
      });
  // Negligible flushes become (signed) zero, as rounding gives them.
  tally.finish(sum, [&](int64_t pos) {
    if (fast)
      bits16[pos] &= 0x8000u;
    else
      values[pos] = APFloat::getZero(values[pos].getSemantics(),
                                     values[pos].isNegative());
  });
  auto toAPFloat = [&](uint16_t raw) {
    return APFloat(sem, APInt(16, raw));
  };

  if (isa<FloatAttr>(attr)) {
    APFloat v = fast ? toAPFloat(bits16.front()) : values.front();
    return FloatAttr::get(target, v);
  }
  auto dense = dyn_cast<DenseElementsAttr>(attr);
  auto shaped = dense ? dense.getType()
                      : cast<ShapedType>(cast<TypedAttr>(attr).getType());
  auto newType = cast<ShapedType>(cloneWithElementType(shaped, target));
  if (isa<DenseResourceElementsAttr>(attr)) {
    auto resource = cast<DenseResourceElementsAttr>(attr);
    std::string name = (resource.getRawHandle().getKey() + "_" +
                        llvm::Twine(fast ? (target.isF16() ? "f16" : "bf16")
                                         : "converted"))
                           .str();
    if (fast)
      return DenseResourceElementsAttr::get(
          newType, name,
          HeapAsmResourceBlob::allocateAndCopyInferAlign(
              ArrayRef<uint16_t>(bits16)));
    // Other targets: fall back to a dense attribute.
    return DenseElementsAttr::get(newType, values);
  }
  if (fast) {
    // One element is a splat to getFromRawBuffer.
    ArrayRef<char> raw(reinterpret_cast<const char *>(bits16.data()),
                       bits16.size() * sizeof(uint16_t));
    return DenseElementsAttr::getFromRawBuffer(newType, raw);
  }
  if (values.size() == 1)
    return DenseElementsAttr::get(newType, values.front());
  return DenseElementsAttr::get(newType, values);
}

TypedAttr mlir::amp::convertFloatConstant(Attribute attr, FloatType target,
                                          RangeSummary *summary) {
  ConversionMemo *memo = ConversionMemo::getActive();
  // The constants of a model's layers repeat a few attributes: those
  // converted last are found before any test (only a convertible attribute
  // that is not a dense_resource is entered).
  ConversionMemo::RecentConstant *recent = nullptr;
  if (memo) {
    recent = &memo->recentConstants[(reinterpret_cast<uintptr_t>(
                                         attr.getAsOpaquePointer()) >>
                                     4) %
                                    std::size(memo->recentConstants)];
    if (recent->attr == attr && recent->target == target) {
      if (summary)
        summary->merge(recent->converted.summary);
      return recent->converted.value;
    }
  }
  if (!isConvertibleFloatConstant(attr))
    return {};
  RangeSummary local;
  RangeSummary &sum = summary ? *summary : local;
  // A dense_resource result is a new blob each time (under its own name):
  // not shared.
  if (!memo || isa<DenseResourceElementsAttr>(attr))
    return computeFloatConstant(attr, target, sum);
  const ConversionMemo::Constant &entry = ConversionMemo::getOrCompute(
      memo->constants, std::make_pair(attr, Type(target)), [&] {
        ConversionMemo::Constant made;
        made.value = computeFloatConstant(attr, target, made.summary);
        return made;
      });
  *recent = {attr, target, entry};
  sum.merge(entry.summary);
  return entry.value;
}

/// `value` as a signed integer of `width` bits: rounded, saturated, NaN 0.
static APInt toSaturatedInteger(const APFloat &value, unsigned width,
                                IntegerRounding rounding) {
  if (value.isNaN())
    return APInt(width, 0);
  llvm::APSInt result(width, /*isUnsigned=*/false);
  bool isExact;
  // convertToInteger saturates out-of-range values (and infinities).
  (void)value.convertToInteger(result,
                               rounding == IntegerRounding::TowardZero
                                   ? APFloat::rmTowardZero
                                   : APFloat::rmNearestTiesToEven,
                               &isExact);
  return result;
}

TypedAttr mlir::amp::convertFloatConstantToInteger(Attribute attr,
                                                   IntegerType target,
                                                   IntegerRounding rounding) {
  unsigned width = target.getWidth();
  if (auto floatAttr = dyn_cast_or_null<FloatAttr>(attr))
    return IntegerAttr::get(
        target, toSaturatedInteger(floatAttr.getValue(), width, rounding));
  auto dense = dyn_cast_or_null<DenseElementsAttr>(attr);
  if (!dense || !isFloatType(dense.getElementType()))
    return {};
  ShapedType newType = dense.getType().clone(target);
  if (dense.isSplat())
    return DenseElementsAttr::get(
        newType,
        toSaturatedInteger(dense.getSplatValue<APFloat>(), width, rounding));
  SmallVector<APInt> values;
  values.reserve(dense.getNumElements());
  for (APFloat v : dense.getValues<APFloat>())
    values.push_back(toSaturatedInteger(v, width, rounding));
  return DenseElementsAttr::get(newType, values);
}

//===----------------------------------------------------------------------===//
// Reading dense float constants
//===----------------------------------------------------------------------===//

namespace {
/// F16 bits -> F32 (exact).
float extendF16(uint16_t bits) {
  uint32_t sign = static_cast<uint32_t>(bits & 0x8000u) << 16;
  uint32_t exponent = (bits >> 10) & 0x1fu;
  uint32_t mantissa = bits & 0x3ffu;
  if (exponent == 0x1fu) // Infinity or NaN (the payload kept).
    return llvm::bit_cast<float>(sign | kF32Inf | (mantissa << 13));
  if (exponent == 0) { // Zero or subnormal: mantissa * 2^-24.
    float magnitude = std::ldexp(static_cast<float>(mantissa), -24);
    return sign ? -magnitude : magnitude;
  }
  return llvm::bit_cast<float>(sign | ((exponent + 112u) << 23) |
                               (mantissa << 13));
}
} // namespace

/// Calls `fn(float or double)` on each element of `dense` (float elements,
/// not a splat); inlined into each caller's loop.
template <typename Fn>
void visitDenseFloat(DenseElementsAttr dense, Fn fn) {
  Type elt = dense.getElementType();
  auto raw = dyn_cast<DenseIntOrFPElementsAttr>(dense);
  if (raw && !dense.isSplat() && (elt.isF32() || elt.isF16() || elt.isBF16())) {
    ArrayRef<char> data = raw.getRawData();
    if (elt.isF32()) {
      for (size_t k = 0, n = data.size() / sizeof(float); k < n; ++k) {
        float v;
        std::memcpy(&v, data.data() + k * sizeof(float), sizeof(float));
        fn(v);
      }
      return;
    }
    bool isF16 = elt.isF16();
    for (size_t k = 0, n = data.size() / sizeof(uint16_t); k < n; ++k) {
      uint16_t bits;
      std::memcpy(&bits, data.data() + k * sizeof(uint16_t), sizeof(uint16_t));
      fn(isF16 ? extendF16(bits)
               : llvm::bit_cast<float>(static_cast<uint32_t>(bits) << 16));
    }
    return;
  }
  for (const APFloat &v : dense.getValues<APFloat>())
    fn(v.convertToDouble());
}

void mlir::amp::forEachDenseFloat(DenseElementsAttr dense,
                                  llvm::function_ref<void(double)> fn) {
  visitDenseFloat(dense, [&](double v) { fn(v); });
}

DenseFloatStats mlir::amp::getDenseFloatStats(DenseElementsAttr dense) {
  DenseFloatStats stats;
  if (dense.isSplat()) {
    double v = dense.getSplatValue<APFloat>().convertToDouble();
    if (!std::isnan(v))
      stats = {v, v, std::fabs(v), std::fabs(v)};
    return stats;
  }
  // Comparisons with a NaN are false: NaNs change nothing.
  float lo = INFINITY, hi = -INFINITY, minAbs = INFINITY, maxAbs = 0;
  double wideLo = INFINITY, wideHi = -INFINITY, wideMinAbs = INFINITY,
         wideMaxAbs = 0;
  visitDenseFloat(dense, [&](auto v) {
    if constexpr (std::is_same_v<decltype(v), float>) {
      float a = std::fabs(v);
      lo = v < lo ? v : lo;
      hi = v > hi ? v : hi;
      minAbs = a < minAbs ? a : minAbs;
      maxAbs = a > maxAbs ? a : maxAbs;
    } else {
      double a = std::fabs(v);
      wideLo = v < wideLo ? v : wideLo;
      wideHi = v > wideHi ? v : wideHi;
      wideMinAbs = a < wideMinAbs ? a : wideMinAbs;
      wideMaxAbs = a > wideMaxAbs ? a : wideMaxAbs;
    }
  });
  stats.lo = std::min<double>(lo, wideLo);
  stats.hi = std::max<double>(hi, wideHi);
  stats.minAbs = std::min<double>(minAbs, wideMinAbs);
  stats.maxAbs = std::max<double>(maxAbs, wideMaxAbs);
  return stats;
}

int64_t mlir::amp::getConstantByteSize(Attribute attr) {
  auto typed = dyn_cast_or_null<TypedAttr>(attr);
  if (!typed)
    return 0;
  Type type = typed.getType();
  Type elt = getScalarType(type);
  if (!elt.isIntOrFloat())
    return 0;
  int64_t bytes = (elt.getIntOrFloatBitWidth() + 7) / 8;
  if (auto shaped = dyn_cast<ShapedType>(type)) {
    if (!shaped.hasStaticShape())
      return 0;
    return bytes * shaped.getNumElements();
  }
  return bytes;
}
