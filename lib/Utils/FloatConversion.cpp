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
// F32 -> FP8 (weights, scaled) uses integer round-to-nearest-even, the same
// arithmetic as the IR expansion of arith.truncf (lib/Conversion/
// ExpandFP8.cpp), with saturation for E4M3FN; the unit tests compare both
// with APFloat over every FP8 value, every rounding boundary and random
// inputs.
//
//===----------------------------------------------------------------------===//

#include "amp/Utils/FloatConversion.h"

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

namespace {
/// How one value converted.
enum class Outcome { Fits, Sentinel, Overflow, Underflow };

constexpr uint32_t kF32AbsMask = 0x7fffffffu;
constexpr uint32_t kF32Inf = 0x7f800000u;
constexpr uint32_t kF32Max = 0x7f7fffffu;

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
bool hasSeveralValues(Attribute attr) {
  if (isa<FloatAttr>(attr))
    return false;
  if (auto dense = dyn_cast<DenseElementsAttr>(attr))
    return !dense.isSplat() && dense.getNumElements() > 1;
  return true; // dense_resource
}

/// The magnitude of an APFloat as a double.
double getAbs(const APFloat &value) {
  APFloat copy = abs(value);
  bool losesInfo;
  (void)copy.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven,
                     &losesInfo);
  return copy.convertToDouble();
}

/// The magnitude of f32 bits as a double.
double getAbs(uint32_t bits) {
  return llvm::bit_cast<float>(bits & kF32AbsMask);
}

/// How many elements each visited value stands for.
int64_t getWeight(Attribute attr) {
  auto dense = dyn_cast<DenseElementsAttr>(attr);
  return dense && dense.isSplat() ? dense.getNumElements() : 1;
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

/// The f32 payload of a dense_resource attribute, if available.
std::optional<ArrayRef<float>> getResourceData(Attribute attr) {
  auto resource = dyn_cast<DenseF32ResourceElementsAttr>(attr);
  if (!resource)
    return std::nullopt;
  return resource.tryGetAsArrayRef();
}

/// Visits the float values of `attr` as (f32 bits) for f32 sources, or as
/// APFloats otherwise. Splat dense attributes are visited once.
template <typename F32Fn, typename APFloatFn>
void forEachValue(Attribute attr, F32Fn onF32, APFloatFn onAPFloat) {
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
// FP8
//===----------------------------------------------------------------------===//

namespace {
/// The parameters of an FP8 format.
struct FP8Params {
  unsigned mantissaBits;
  int bias;
  /// The encoding of the largest finite value (sign clear).
  uint32_t maxFinite;
  /// IEEE-like: infinities and NaNs with an all-ones exponent (E5M2).
  bool ieee;
};

FP8Params getParams(FP8Format format) {
  if (format == FP8Format::E4M3FN)
    return {3, 7, 0x7e, false};
  return {2, 15, 0x7b, true};
}

/// The integer round-to-nearest-even of ExpandFP8.cpp, on the host.
uint8_t truncateToFP8(uint32_t bits, FP8Params p, bool &overflow) {
  uint32_t sign = (bits >> 24) & 0x80u;
  uint32_t abs = bits & kF32AbsMask;
  overflow = false;
  if (abs > kF32Inf) // NaN
    return sign | (p.ieee ? 0x7eu : 0x7fu);
  if (abs == kF32Inf) // E4M3FN has no infinity: saturate.
    return sign | (p.ieee ? 0x7cu : p.maxFinite);
  int minExponent = 1 - p.bias; // of the smallest normal
  uint32_t minNormal = static_cast<uint32_t>(127 + minExponent) << 23;
  uint32_t result;
  if (abs >= minNormal) {
    // Rebias the exponent and round the mantissa: carries ripple into the
    // exponent.
    unsigned shift = 23 - p.mantissaBits;
    uint32_t lsb = (abs >> shift) & 1u;
    result = (abs - (static_cast<uint32_t>(127 - p.bias) << 23) +
              ((1u << (shift - 1)) - 1) + lsb) >>
             shift;
  } else {
    // A subnormal (or zero) result: the significand, in units of the
    // smallest subnormal 2^(minExponent - mantissaBits), rounded.
    uint32_t exponent = abs >> 23;
    uint32_t significand = (abs & 0x7fffffu) | (exponent ? 0x800000u : 0u);
    int shift = 150 + minExponent - static_cast<int>(p.mantissaBits) -
                static_cast<int>(std::max(exponent, 1u));
    shift = std::min(shift, 31);
    uint32_t lsb = (significand >> shift) & 1u;
    result = (significand + (1u << (shift - 1)) - 1 + lsb) >> shift;
  }
  if (result > p.maxFinite) {
    overflow = true;
    result = p.ieee ? 0x7cu : p.maxFinite;
  }
  return static_cast<uint8_t>(sign | result);
}

float extendFromFP8(uint8_t bits, FP8Params p) {
  uint32_t sign = static_cast<uint32_t>(bits & 0x80u) << 24;
  unsigned exponentBits = 7 - p.mantissaBits;
  uint32_t exponent = (bits >> p.mantissaBits) & ((1u << exponentBits) - 1);
  uint32_t mantissa = bits & ((1u << p.mantissaBits) - 1);
  uint32_t out;
  if (!p.ieee && (bits & 0x7fu) == 0x7fu) {
    out = sign | 0x7fc00000u;
  } else if (p.ieee && exponent == (1u << exponentBits) - 1) {
    out = mantissa ? sign | 0x7fc00000u | (mantissa << (23 - p.mantissaBits))
                   : sign | kF32Inf;
  } else if (exponent == 0) {
    if (mantissa == 0) {
      out = sign;
    } else {
      // m * 2^(1 - bias - mantissaBits), normalized.
      int top = 31 - llvm::countl_zero(mantissa);
      uint32_t biased = static_cast<uint32_t>(
          top + 1 - p.bias - static_cast<int>(p.mantissaBits) + 127);
      out = sign | (biased << 23) | ((mantissa << (23 - top)) & 0x7fffffu);
    }
  } else {
    out = sign | ((exponent + 127 - p.bias) << 23) |
          (mantissa << (23 - p.mantissaBits));
  }
  return llvm::bit_cast<float>(out);
}

/// The values of `attr` as floats (f32 bits read as they are, other types
/// converted), in row-major order; a splat gives one value.
std::optional<SmallVector<float>> readFloats(Attribute attr) {
  if (!isConvertibleFloatConstant(attr))
    return std::nullopt;
  SmallVector<float> values;
  forEachValue(
      attr,
      [&](uint32_t bits) { values.push_back(llvm::bit_cast<float>(bits)); },
      [&](const APFloat &value) {
        APFloat copy = value;
        bool losesInfo;
        (void)copy.convert(APFloat::IEEEsingle(), APFloat::rmNearestTiesToEven,
                           &losesInfo);
        values.push_back(copy.convertToFloat());
      });
  return values;
}

/// The static shape of `attr`'s type (empty for scalars), or nullopt.
std::optional<SmallVector<int64_t>> getStaticShape(Attribute attr) {
  auto typed = dyn_cast<TypedAttr>(attr);
  if (!typed)
    return std::nullopt;
  auto shaped = dyn_cast<ShapedType>(typed.getType());
  if (!shaped)
    return SmallVector<int64_t>();
  if (!shaped.hasStaticShape())
    return std::nullopt;
  return llvm::to_vector(shaped.getShape());
}

/// Row-major strides of `shape`.
SmallVector<int64_t> getStrides(ArrayRef<int64_t> shape) {
  SmallVector<int64_t> strides(shape.size(), 1);
  for (int64_t i = static_cast<int64_t>(shape.size()) - 2; i >= 0; --i)
    strides[i] = strides[i + 1] * shape[i + 1];
  return strides;
}
} // namespace

std::optional<FP8Format> mlir::amp::getFP8Format(Type type) {
  if (isa<Float8E4M3FNType>(type))
    return FP8Format::E4M3FN;
  if (isa<Float8E5M2Type>(type))
    return FP8Format::E5M2;
  return std::nullopt;
}

double mlir::amp::getFP8Max(FP8Format format) {
  return format == FP8Format::E4M3FN ? 448.0 : 57344.0;
}

uint8_t mlir::amp::convertF32ToFP8(float value, FP8Format format,
                                   bool *overflow) {
  bool over;
  uint8_t bits =
      truncateToFP8(llvm::bit_cast<uint32_t>(value), getParams(format), over);
  if (overflow)
    *overflow = over;
  return bits;
}

float mlir::amp::convertFP8ToF32(uint8_t bits, FP8Format format) {
  return extendFromFP8(bits, getParams(format));
}

SmallVector<double> mlir::amp::getFloatMaxAbs(Attribute attr,
                                              std::optional<unsigned> axis) {
  std::optional<SmallVector<int64_t>> shape = getStaticShape(attr);
  std::optional<SmallVector<float>> values = readFloats(attr);
  if (!shape || !values || (axis && *axis >= shape->size()))
    return {};
  int64_t channels = axis ? (*shape)[*axis] : 1;
  SmallVector<double> maxAbs(channels, 0.0);
  if (values->size() == 1) { // A scalar or a splat.
    float v = values->front();
    if (std::isfinite(v))
      std::fill(maxAbs.begin(), maxAbs.end(), std::fabs(v));
    return maxAbs;
  }
  int64_t stride = axis ? getStrides(*shape)[*axis] : 1;
  for (auto [i, v] : llvm::enumerate(*values)) {
    if (!std::isfinite(v))
      continue;
    int64_t c = axis ? (static_cast<int64_t>(i) / stride) % channels : 0;
    maxAbs[c] = std::max(maxAbs[c], static_cast<double>(std::fabs(v)));
  }
  return maxAbs;
}

std::optional<SmallVector<float>>
mlir::amp::readPermutedFloats(Attribute attr, ArrayRef<int64_t> permutation) {
  std::optional<SmallVector<int64_t>> shape = getStaticShape(attr);
  std::optional<SmallVector<float>> values = readFloats(attr);
  if (!shape || !values)
    return std::nullopt;
  size_t rank = shape->size();
  SmallVector<int64_t> perm(permutation);
  if (perm.empty())
    perm = llvm::to_vector(llvm::seq<int64_t>(0, rank));
  if (perm.size() != rank)
    return std::nullopt;
  int64_t total = 1;
  for (int64_t dim : *shape)
    total *= dim;
  if (values->size() == 1)
    return SmallVector<float>(total, values->front());
  if (llvm::equal(perm, llvm::seq<int64_t>(0, rank)))
    return values;
  SmallVector<int64_t> newShape(rank);
  for (size_t i = 0; i < rank; ++i)
    newShape[i] = (*shape)[perm[i]];
  SmallVector<int64_t> sourceStrides = getStrides(*shape);
  SmallVector<float> result(total);
  SmallVector<int64_t> index(rank, 0); // over the result
  for (int64_t out = 0; out < total; ++out) {
    int64_t source = 0;
    for (size_t d = 0; d < rank; ++d)
      source += index[d] * sourceStrides[perm[d]];
    result[out] = (*values)[source];
    for (int64_t d = rank - 1; d >= 0; --d) {
      if (++index[d] < newShape[d])
        break;
      index[d] = 0;
    }
  }
  return result;
}

TypedAttr mlir::amp::convertFloatConstantToFP8(Attribute attr, FloatType target,
                                               ArrayRef<float> scales,
                                               std::optional<unsigned> axis,
                                               ArrayRef<int64_t> permutation,
                                               RangeSummary *summary) {
  std::optional<FP8Format> format = getFP8Format(target);
  std::optional<SmallVector<int64_t>> shape = getStaticShape(attr);
  if (!format || !shape || scales.empty())
    return {};
  size_t rank = shape->size();
  SmallVector<int64_t> perm(permutation);
  if (perm.empty())
    perm = llvm::to_vector(llvm::seq<int64_t>(0, rank));
  if (perm.size() != rank || (axis && *axis >= rank) ||
      (!axis && scales.size() != 1) ||
      (axis && static_cast<int64_t>(scales.size()) != (*shape)[perm[*axis]]))
    return {};
  std::optional<SmallVector<float>> values = readFloats(attr);
  if (!values)
    return {};

  // The result's shape and, for each dimension of `attr`, the stride of the
  // result dimension it becomes.
  SmallVector<int64_t> newShape(rank);
  for (size_t i = 0; i < rank; ++i)
    newShape[i] = (*shape)[perm[i]];
  SmallVector<int64_t> newStrides = getStrides(newShape);
  SmallVector<int64_t> strideOfSource(rank, 0);
  for (size_t i = 0; i < rank; ++i)
    strideOfSource[perm[i]] = newStrides[i];
  int64_t channelDim = axis ? perm[*axis] : -1;
  SmallVector<int64_t> sourceStrides = getStrides(*shape);
  bool identity = llvm::equal(perm, llvm::seq<int64_t>(0, rank));
  // Where the value at `source` goes, and its channel.
  auto position = [&](int64_t source, int64_t &channel) {
    if (identity) {
      channel = channelDim < 0 ? 0
                               : (source / sourceStrides[channelDim]) %
                                     (*shape)[channelDim];
      return source;
    }
    int64_t out = 0;
    channel = 0;
    for (size_t d = 0; d < rank; ++d) {
      int64_t coord = (source / sourceStrides[d]) % (*shape)[d];
      out += coord * strideOfSource[d];
      if (static_cast<int64_t>(d) == channelDim)
        channel = coord;
    }
    return out;
  };

  FP8Params params = getParams(*format);
  int64_t total = 1;
  for (int64_t dim : *shape)
    total *= dim;
  bool splat = values->size() == 1;
  // A splat (or scalar) with one scale is one value, and stays a splat.
  bool single = splat && scales.size() == 1;
  int64_t count = single ? 1 : total;
  SmallVector<uint8_t> bits(count);
  Tally tally(single ? total : 1, target,
              /*mayHaveNegligible=*/!splat && total > 1);
  for (int64_t source = 0; source < count; ++source) {
    int64_t channel = 0;
    int64_t out = single ? 0 : position(source, channel);
    float value = (*values)[splat ? 0 : source] * scales[channel];
    bool overflow;
    bits[out] =
        truncateToFP8(llvm::bit_cast<uint32_t>(value), params, overflow);
    Outcome outcome = Outcome::Fits;
    if (overflow)
      outcome = Outcome::Overflow;
    else if ((bits[out] & 0x7fu) == 0 && value != 0)
      outcome = Outcome::Underflow;
    tally.record(outcome, std::fabs(static_cast<double>(value)));
  }
  RangeSummary local;
  tally.finish(summary ? *summary : local, [&](int64_t pos) {
    int64_t channel;
    bits[single ? 0 : position(pos, channel)] &= 0x80u;
  });
  auto type = RankedTensorType::get(newShape, target);
  if (rank == 0 && isa<FloatAttr>(attr))
    return FloatAttr::get(
        target, APFloat(target.getFloatSemantics(), APInt(8, bits.front())));
  ArrayRef<char> raw(reinterpret_cast<const char *>(bits.data()), bits.size());
  return DenseElementsAttr::getFromRawBuffer(type, raw);
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
