//===- FP8Conversion.cpp - FP8 values and constants, float reads ---------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// F32 -> FP8 (weights, scaled) uses integer round-to-nearest-even, the same
// arithmetic as the IR expansion of arith.truncf (lib/Conversion/
// ExpandFP8.cpp), with saturation for E4M3FN; the unit tests compare both
// with APFloat over every FP8 value, every rounding boundary and random
// inputs. The float constants are read here too (readPermutedFloats, the
// per-channel maxima), for FP8 and the weight-only formats.
//
//===----------------------------------------------------------------------===//

#include "amp/Utils/FloatConversion.h"
#include "FloatConversionSupport.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/bit.h"

#include <cmath>
#include <cstring>

using namespace mlir;
using namespace mlir::amp;
using namespace mlir::amp::conversion_detail;
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

