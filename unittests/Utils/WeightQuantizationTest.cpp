//===- WeightQuantizationTest.cpp - Weight-only formats, value by value ---===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The round-to-nearest quantizer of docs/weight-only.md:
//  - names parse and print back, and bad names are refused;
//  - values on the grid come back exactly, and the error is at most half a
//    step elsewhere;
//  - the packing: column 2j in the low nibble;
//  - zero groups, the asymmetric zero point, f32 scales where f16 cannot
//    hold them, shapes that do not divide and values that are not finite.
//
//===----------------------------------------------------------------------===//

#include "amp/Utils/WeightQuantization.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

using namespace mlir::amp;

namespace {

WeightQuantSpec parse(const char *name) {
  std::string error;
  std::optional<WeightQuantSpec> spec = parseWeightQuantSpec(name, error);
  EXPECT_TRUE(spec.has_value()) << name << ": " << error;
  return spec.value_or(WeightQuantSpec());
}

QuantizedWeight quantize(const std::vector<float> &values, int64_t rows,
                         int64_t cols, const char *name) {
  std::string error;
  std::optional<QuantizedWeight> q =
      quantizeWeight(values, rows, cols, rows, parse(name), error);
  EXPECT_TRUE(q.has_value()) << error;
  return q.value_or(QuantizedWeight());
}

TEST(WeightQuantization, NamesRoundTrip) {
  for (const char *name : {"int8", "e4m3", "int4-g32", "int4-g64",
                           "int4-g128", "int4-g32-asym", "int4-g128-asym"})
    EXPECT_EQ(parse(name).str(), name);
  EXPECT_EQ(parse("int4-g64").getBits(), 4u);
  EXPECT_EQ(parse("int8").getBits(), 8u);
  for (const char *bad : {"", "int4", "int4-g48", "int4-g0", "int4-g128-sym",
                          "int3", "INT8", "e5m2", "int4-g-asym"}) {
    std::string error;
    EXPECT_FALSE(parseWeightQuantSpec(bad, error).has_value()) << bad;
    EXPECT_NE(error.find("is not a weight-only format"), std::string::npos);
  }
}

// Random weights: every format's error is at most half a step (plus the
// f16 rounding of the result, which the dequantization does not do here).
TEST(WeightQuantization, ErrorWithinHalfAStep) {
  std::mt19937 rng(46);
  std::normal_distribution<float> normal(0.0f, 0.02f);
  const int64_t rows = 6, cols = 256;
  std::vector<float> w(rows * cols);
  for (float &v : w)
    v = normal(rng);
  for (const char *name : {"int8", "int4-g32", "int4-g128", "int4-g64-asym"}) {
    QuantizedWeight q = quantize(w, rows, cols, name);
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t c = 0; c < cols; ++c) {
        float scale = q.spec.format == WeightFormat::Int4
                          ? q.scales[r * q.getGroupsPerRow() + c / q.spec.group]
                          : q.scales[r];
        EXPECT_LE(std::fabs(q.dequantize(r, c) - w[r * cols + c]),
                  0.5f * scale * 1.0001f)
            << name << " at " << r << ", " << c;
      }
  }
  // E4M3: relative error at most 2^-4 for normal FP8 values.
  QuantizedWeight q = quantize(w, rows, cols, "e4m3");
  for (int64_t i = 0; i < rows * cols; ++i) {
    float back = q.dequantize(i / cols, i % cols);
    if (std::fabs(w[i]) / q.scales[i / cols] >= 0x1p-6f)
      EXPECT_LE(std::fabs(back - w[i]), std::fabs(w[i]) * 0x1p-4f) << i;
  }
}

TEST(WeightQuantization, GridValuesAreExact) {
  // int8: multiples of max/127 come back exactly.
  std::vector<float> w;
  for (int i = -127; i <= 127; i += 2)
    w.push_back(i * 0.5f);
  // 128 values, max 63.5
  QuantizedWeight q = quantize(w, 1, 128, "int8");
  EXPECT_FLOAT_EQ(q.scales[0], 63.5f / 127.0f);
  for (int64_t c = 0; c < 128; ++c)
    EXPECT_FLOAT_EQ(q.dequantize(0, c), w[c]);
  EXPECT_EQ(q.getByteSize(), 128 + 4);
}

TEST(WeightQuantization, Int4Packing) {
  // Channel 0 of a group of 32: c % 8 - 4, scale 4/7 (f16 0.5713).
  std::vector<float> w(64);
  for (int c = 0; c < 32; ++c) {
    w[c] = c % 8 - 4.0f;
    w[32 + c] = c == 5 ? -3.5f : 0.0f;
  }
  QuantizedWeight q = quantize(w, 2, 32, "int4-g32");
  ASSERT_EQ(q.data.size(), 32u);
  EXPECT_TRUE(q.f16Scales);
  // -4 -> -7 (0x9), -3 -> -5 (0xB): byte 0 is 0xB9.
  EXPECT_EQ(q.data[0], 0xB9);
  // -2 / (4/7) = -3.5 rounds to even: -4 (0xC); -1 -> -2 (0xE).
  EXPECT_EQ(q.data[1], 0xEC);
  EXPECT_EQ(q.getStored(0, 0), -7);
  EXPECT_EQ(q.getStored(0, 1), -5);
  // Row 1: one value, the largest in magnitude: -7 in column 5 (high
  // nibble of byte 2 of the row).
  EXPECT_EQ(q.getStored(1, 5), -7);
  EXPECT_EQ(q.data[16 + 2], 0x90);
  EXPECT_EQ(q.getByteSize(), 32 + 2 * 2);
}

TEST(WeightQuantization, AsymmetricZeroPoint) {
  // Values in [-1, 3] (0 is in every range): scale 4/15, zero point
  // round(1 / (4/15)) = 4 (3.75 rounds up).
  std::vector<float> w(32);
  for (int c = 0; c < 32; ++c)
    w[c] = -1.0f + 4.0f * c / 31.0f;
  QuantizedWeight q = quantize(w, 1, 32, "int4-g32-asym");
  ASSERT_EQ(q.zeros.size(), 1u);
  EXPECT_EQ(q.zeros[0], 4);
  for (int c = 0; c < 32; ++c) {
    EXPECT_GE(q.getStored(0, c), 0);
    EXPECT_LE(q.getStored(0, c), 15);
  }
  EXPECT_EQ(q.getStored(0, 31), 15);
  // Zero is exact: a value of 0 reads back as 0.
  std::vector<float> withZero(w);
  withZero[7] = 0.0f;
  EXPECT_EQ(quantize(withZero, 1, 32, "int4-g32-asym").dequantize(0, 7), 0.0f);
  // One byte of zero point per group.
  EXPECT_EQ(q.getByteSize(), 16 + 2 + 1);
}

TEST(WeightQuantization, ZeroGroupsAndWideScales) {
  std::vector<float> zeros(64, 0.0f);
  for (const char *name : {"int8", "int4-g32", "int4-g32-asym", "e4m3"}) {
    QuantizedWeight q = quantize(zeros, 2, 32, name);
    for (int64_t i = 0; i < 64; ++i)
      EXPECT_EQ(q.dequantize(i / 32, i % 32), 0.0f) << name;
  }
  // A scale above f16's range (max 1e6 / 7): every scale of the weight is
  // f32, and the values still come back within half a step.
  std::vector<float> big(64, 1.0f);
  big[3] = 1.0e6f;
  QuantizedWeight q = quantize(big, 2, 32, "int4-g32");
  EXPECT_FALSE(q.f16Scales);
  EXPECT_FLOAT_EQ(q.scales[0], 1.0e6f / 7.0f);
  EXPECT_EQ(q.getByteSize(), 32 + 2 * 4);
  EXPECT_NEAR(q.dequantize(0, 3), 1.0e6f, 0.5f * q.scales[0]);
  // And below f16's normal range.
  std::vector<float> tiny(32, 1.0e-9f);
  EXPECT_FALSE(quantize(tiny, 1, 32, "int4-g32").f16Scales);
}

TEST(WeightQuantization, BadShapesAndValues) {
  std::string error;
  std::vector<float> w(96, 1.0f);
  EXPECT_FALSE(
      quantizeWeight(w, 2, 48, 2, parse("int4-g32"), error).has_value());
  EXPECT_NE(error.find("is not a multiple of the group size 32"),
            std::string::npos);
  EXPECT_FALSE(quantizeWeight(w, 3, 32, 2, parse("int8"), error).has_value());
  EXPECT_FALSE(quantizeWeight(w, 2, 32, 2, parse("int8"), error).has_value());
  EXPECT_NE(error.find("does not have the weight's shape"), std::string::npos);
  w[5] = std::numeric_limits<float>::quiet_NaN();
  EXPECT_FALSE(quantizeWeight(w, 2, 48, 2, parse("int8"), error).has_value());
  EXPECT_NE(error.find("not finite"), std::string::npos);
}

} // namespace
