//===- WeightQuantization.cpp - Weight-only formats and their rounding ---===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Parsing of the weight-only format names and round-to-nearest
// quantization into them (see WeightQuantization.h for the formulas).
//
//===----------------------------------------------------------------------===//

#include "amp/Utils/WeightQuantization.h"
#include "amp/Utils/FloatConversion.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <cmath>

using namespace mlir;
using namespace mlir::amp;

static constexpr int64_t kGroupSizes[] = {32, 64, 128};

std::string WeightQuantSpec::str() const {
  switch (format) {
  case WeightFormat::Int8:
    return "int8";
  case WeightFormat::E4M3:
    return "e4m3";
  case WeightFormat::Int4:
    return llvm::formatv("int4-g{0}{1}", group, asymmetric ? "-asym" : "")
        .str();
  }
  return "";
}

std::optional<WeightQuantSpec>
mlir::amp::parseWeightQuantSpec(StringRef text, std::string &error) {
  WeightQuantSpec spec;
  if (text == "int8")
    return spec;
  if (text == "e4m3") {
    spec.format = WeightFormat::E4M3;
    return spec;
  }
  StringRef rest = text;
  if (rest.consume_front("int4-g")) {
    spec.format = WeightFormat::Int4;
    spec.asymmetric = rest.consume_back("-asym");
    if (!rest.getAsInteger(10, spec.group) &&
        llvm::is_contained(kGroupSizes, spec.group))
      return spec;
  }
  error = llvm::formatv("'{0}' is not a weight-only format (int8, "
                        "int4-g32, int4-g64, int4-g128, int4-gN-asym, e4m3)",
                        text)
              .str();
  return std::nullopt;
}

float mlir::amp::roundToF16(float value) {
  llvm::APFloat f(value);
  bool losesInfo;
  (void)f.convert(llvm::APFloat::IEEEhalf(), llvm::APFloat::rmNearestTiesToEven,
                  &losesInfo);
  (void)f.convert(llvm::APFloat::IEEEsingle(),
                  llvm::APFloat::rmNearestTiesToEven, &losesInfo);
  return f.convertToFloat();
}

int32_t QuantizedWeight::getStored(int64_t row, int64_t col) const {
  int64_t index = row * cols + col;
  if (spec.format != WeightFormat::Int4)
    return spec.format == WeightFormat::Int8
               ? static_cast<int32_t>(static_cast<int8_t>(data[index]))
               : data[index];
  uint8_t nibble = (data[index / 2] >> ((index % 2) * 4)) & 0xf;
  if (spec.asymmetric)
    return nibble;
  return nibble >= 8 ? static_cast<int32_t>(nibble) - 16 : nibble;
}

float QuantizedWeight::dequantize(int64_t row, int64_t col) const {
  if (spec.format == WeightFormat::Int4) {
    int64_t g = row * getGroupsPerRow() + col / spec.group;
    int32_t q = getStored(row, col) - (spec.asymmetric ? zeros[g] : 0);
    return static_cast<float>(q) * scales[g];
  }
  float scale = scales[row / (rows / channels)];
  if (spec.format == WeightFormat::E4M3)
    return convertFP8ToF32(data[row * cols + col], FP8Format::E4M3FN) * scale;
  return static_cast<float>(getStored(row, col)) * scale;
}

int64_t QuantizedWeight::getByteSize() const {
  return static_cast<int64_t>(data.size() + zeros.size() +
                              scales.size() * (f16Scales ? 2 : 4));
}

std::string mlir::amp::checkWeightShape(const WeightQuantSpec &spec,
                                        int64_t rows, int64_t cols,
                                        int64_t channels) {
  if (rows <= 0 || cols <= 0 || channels <= 0 || rows % channels)
    return llvm::formatv("its weight ({0} x {1}, {2} channels) has no "
                         "weight-only layout",
                         rows, cols, channels)
        .str();
  if (spec.format == WeightFormat::Int4 && cols % spec.group)
    return llvm::formatv("its reduction dimension ({0}) is not a multiple of "
                         "the group size {1}",
                         cols, spec.group)
        .str();
  return "";
}

namespace {
/// Quantizes one group (or channel) of `count` values starting at
/// `values`, writing the stored integers to `out`; returns the scale (and
/// the zero point in `zero`).
float quantizeInt4Group(const float *values, int64_t count, bool asymmetric,
                        bool f16, uint8_t &zero, int32_t *out) {
  float lo = 0, hi = 0;
  for (int64_t i = 0; i < count; ++i) {
    lo = std::min(lo, values[i]);
    hi = std::max(hi, values[i]);
  }
  float scale = asymmetric ? (hi - lo) / 15.0f
                           : std::max(std::fabs(lo), std::fabs(hi)) / 7.0f;
  if (f16)
    scale = roundToF16(scale);
  if (scale == 0)
    scale = 1;
  zero = 0;
  if (asymmetric)
    zero = static_cast<uint8_t>(
        std::clamp(std::nearbyint(-lo / scale), 0.0f, 15.0f));
  float qlo = asymmetric ? 0 : -8, qhi = asymmetric ? 15 : 7;
  for (int64_t i = 0; i < count; ++i)
    out[i] = static_cast<int32_t>(
        std::clamp(std::nearbyint(values[i] / scale) + zero, qlo, qhi));
  return scale;
}

/// True if every int4 scale of `values` (rows x cols, groups of `group`) is
/// a normal f16 once rounded, so that f16 can store them.
bool int4ScalesFitF16(ArrayRef<float> values, int64_t group, bool asymmetric) {
  for (size_t start = 0; start < values.size(); start += group) {
    float lo = 0, hi = 0;
    for (int64_t i = 0; i < group; ++i) {
      lo = std::min(lo, values[start + i]);
      hi = std::max(hi, values[start + i]);
    }
    float scale = asymmetric ? (hi - lo) / 15.0f
                             : std::max(std::fabs(lo), std::fabs(hi)) / 7.0f;
    if (scale != 0 && (scale < 0x1p-14f || scale > 65504.0f))
      return false;
  }
  return true;
}
} // namespace

std::optional<QuantizedWeight>
mlir::amp::quantizeWeight(ArrayRef<float> values, int64_t rows, int64_t cols,
                          int64_t channels, const WeightQuantSpec &spec,
                          std::string &error) {
  error = checkWeightShape(spec, rows, cols, channels);
  if (!error.empty())
    return std::nullopt;
  if (static_cast<int64_t>(values.size()) != rows * cols) {
    error = "its constant does not have the weight's shape";
    return std::nullopt;
  }
  if (!llvm::all_of(values, [](float v) { return std::isfinite(v); })) {
    error = "its weight has values that are not finite";
    return std::nullopt;
  }
  QuantizedWeight q;
  q.spec = spec;
  q.rows = rows;
  q.cols = cols;
  q.channels = channels;

  if (spec.format == WeightFormat::Int4) {
    q.f16Scales = int4ScalesFitF16(values, spec.group, spec.asymmetric);
    int64_t groups = rows * cols / spec.group;
    q.scales.resize(groups);
    if (spec.asymmetric)
      q.zeros.resize(groups);
    q.data.assign((rows * cols + 1) / 2, 0);
    std::vector<int32_t> stored(spec.group);
    for (int64_t g = 0; g < groups; ++g) {
      uint8_t zero;
      q.scales[g] =
          quantizeInt4Group(values.data() + g * spec.group, spec.group,
                            spec.asymmetric, q.f16Scales, zero, stored.data());
      if (spec.asymmetric)
        q.zeros[g] = zero;
      for (int64_t i = 0; i < spec.group; ++i) {
        int64_t index = g * spec.group + i;
        q.data[index / 2] |= (static_cast<uint8_t>(stored[i]) & 0xf)
                             << ((index % 2) * 4);
      }
    }
    return q;
  }

  // Per channel: the largest magnitude of rows / channels rows.
  double max = spec.format == WeightFormat::Int8 ? 127.0 : 448.0;
  int64_t perChannel = rows * cols / channels;
  q.scales.resize(channels);
  q.data.resize(rows * cols);
  for (int64_t c = 0; c < channels; ++c) {
    const float *begin = values.data() + c * perChannel;
    float amax = 0;
    for (int64_t i = 0; i < perChannel; ++i)
      amax = std::max(amax, std::fabs(begin[i]));
    float scale = amax > 0 ? static_cast<float>(amax / max) : 1.0f;
    q.scales[c] = scale;
    for (int64_t i = 0; i < perChannel; ++i) {
      float scaled = begin[i] / scale;
      q.data[c * perChannel + i] =
          spec.format == WeightFormat::Int8
              ? static_cast<uint8_t>(static_cast<int8_t>(
                    std::clamp(std::nearbyint(scaled), -127.0f, 127.0f)))
              : convertF32ToFP8(scaled, FP8Format::E4M3FN);
    }
  }
  return q;
}
