//===- FloatConversionTest.cpp - Tests of the 16-bit constant conversion --===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The bit-level F32 -> F16/BF16 paths must agree with llvm::APFloat's
// round-to-nearest-even on every class of value, and report overflow,
// flush-to-zero and the FLT_MAX sentinel.
//
//===----------------------------------------------------------------------===//

#include "amp/Utils/FloatConversion.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/bit.h"

#include "gtest/gtest.h"

#include <cfloat>
#include <cmath>
#include <random>

using namespace mlir;
using namespace mlir::amp;

namespace {

class FloatConversionTest : public ::testing::Test {
protected:
  MLIRContext ctx;
  Builder b{&ctx};

  /// Converts `values` as one dense constant and returns the raw 16-bit
  /// results.
  std::vector<uint16_t> convert(ArrayRef<float> values, FloatType target,
                                RangeSummary *summary = nullptr) {
    auto type = RankedTensorType::get({(int64_t)values.size()}, b.getF32Type());
    auto attr = DenseElementsAttr::get(type, values);
    auto result = cast<DenseElementsAttr>(
        convertFloatConstant(attr, target, summary));
    std::vector<uint16_t> bits;
    for (APFloat v : result.getValues<APFloat>())
      bits.push_back(v.bitcastToAPInt().getZExtValue());
    return bits;
  }

  /// The reference: APFloat, round to nearest even.
  static uint16_t reference(float value, FloatType target) {
    APFloat v(value);
    bool losesInfo;
    v.convert(target.getFloatSemantics(), APFloat::rmNearestTiesToEven,
              &losesInfo);
    return v.bitcastToAPInt().getZExtValue();
  }

  /// Values that round to a finite non-zero value agree with APFloat.
  void expectAgreesWithAPFloat(FloatType target) {
    std::mt19937 rng(1234);
    std::vector<float> values;
    // Every exponent, random mantissas, both signs.
    for (int e = -149; e <= 127; ++e)
      for (int i = 0; i < 40; ++i) {
        float m = 1.0f + std::uniform_real_distribution<float>(0, 1)(rng);
        values.push_back(std::ldexp(i % 2 ? m : -m, e));
      }
    // Exact ties and their neighbours around every f16/bf16 step.
    for (uint32_t bits = 0x38000000u; bits < 0x47800000u; bits += 0x1000u) {
      values.push_back(llvm::bit_cast<float>(bits));
      values.push_back(llvm::bit_cast<float>(bits + 0x0fffu));
      values.push_back(llvm::bit_cast<float>(bits + 0x1001u));
    }
    RangeSummary summary;
    std::vector<uint16_t> got = convert(values, target, &summary);
    ASSERT_EQ(got.size(), values.size());
    int64_t compared = 0;
    for (size_t i = 0; i < values.size(); ++i) {
      uint16_t want = reference(values[i], target);
      APFloat wantValue(target.getFloatSemantics(), APInt(16, want));
      bool special = wantValue.isInfinity() || wantValue.isZero() ||
                     std::fabs(values[i]) == FLT_MAX;
      if (special)
        continue; // Clamped by design; covered by the range tests below.
      ++compared;
      EXPECT_EQ(got[i], want) << "value " << values[i];
    }
    EXPECT_GT(compared, 5000);
  }
};

TEST_F(FloatConversionTest, F16AgreesWithAPFloat) {
  expectAgreesWithAPFloat(b.getF16Type());
}

TEST_F(FloatConversionTest, BF16AgreesWithAPFloat) {
  expectAgreesWithAPFloat(b.getBF16Type());
}

TEST_F(FloatConversionTest, F16RangeIsReported) {
  RangeSummary summary;
  std::vector<uint16_t> got =
      convert({1.0f, 70000.0f, -1.0e-12f, 65504.0f, 65520.0f, 0.0f,
               std::ldexp(1.0f, -24), FLT_MAX, -FLT_MAX, INFINITY},
              b.getF16Type(), &summary);
  EXPECT_EQ(summary.numValues, 10);
  EXPECT_EQ(summary.numOverflow, 2);   // 70000 and 65520 (rounds to inf)
  EXPECT_EQ(summary.numUnderflow, 0);  // -1e-12 is negligible next to 65504
  EXPECT_EQ(summary.numNegligible, 1); // ... so it is not a real underflow
  EXPECT_EQ(summary.numSentinel, 2);   // +-FLT_MAX
  EXPECT_FALSE(summary.fits());
  EXPECT_EQ(got[1], 0x7bffu);  // clamped to the largest finite value
  EXPECT_EQ(got[2], 0x8000u);  // negligible: rounds to -0
  EXPECT_EQ(got[3], 0x7bffu);  // 65504 is exact
  EXPECT_EQ(got[6], 0x0001u);  // 2^-24, the smallest subnormal, is exact
  EXPECT_EQ(got[7], 0x7bffu);  // FLT_MAX sentinel
  EXPECT_EQ(got[8], 0xfbffu);  // -FLT_MAX sentinel
  EXPECT_EQ(got[9], 0x7c00u);  // infinity stays infinity
}

TEST_F(FloatConversionTest, BF16Range) {
  RangeSummary summary;
  convert({1.0e30f, 1.0e-30f, FLT_MAX, 1.0e-45f}, b.getBF16Type(), &summary);
  EXPECT_EQ(summary.numOverflow, 0);
  EXPECT_EQ(summary.numUnderflow, 0);  // the f32 subnormal 1e-45 ...
  EXPECT_EQ(summary.numNegligible, 1); // ... is negligible next to 1e30
  EXPECT_EQ(summary.numSentinel, 1);
  EXPECT_TRUE(summary.fits());
}

TEST_F(FloatConversionTest, FlushIsNegligibleOnlyNextToLargerValues) {
  // f16 keeps 11 bits: next to 1.0, anything below 2^-11 is negligible, and
  // everything below 2^-25 flushes to zero.
  RangeSummary summary;
  std::vector<uint16_t> got =
      convert({1.0f, 1.0e-9f, -1.0e-12f, 0.5f}, b.getF16Type(), &summary);
  EXPECT_EQ(summary.numNegligible, 2);
  EXPECT_EQ(summary.numUnderflow, 0);
  EXPECT_TRUE(summary.fits());
  EXPECT_EQ(got[1], 0x0000u);
  EXPECT_EQ(got[2], 0x8000u);

  // The same flushes among values that are all small matter: clamped to the
  // smallest subnormal and reported.
  summary = RangeSummary();
  got = convert({1.0e-9f, -2.0e-9f, 3.0e-12f}, b.getF16Type(), &summary);
  EXPECT_EQ(summary.numNegligible, 0);
  EXPECT_EQ(summary.numUnderflow, 3);
  EXPECT_FALSE(summary.fits());
  EXPECT_EQ(got[0], 0x0001u);
  EXPECT_EQ(got[1], 0x8001u);

  // The bound is strict: 2^-26 (which flushes) next to 2^-14 is below the
  // bound 2^-25 and negligible; next to 2^-15 it equals the bound 2^-26 and
  // is not.
  summary = RangeSummary();
  convert({std::ldexp(1.0f, -14), std::ldexp(1.0f, -26)}, b.getF16Type(),
          &summary);
  EXPECT_EQ(summary.numNegligible, 1);
  summary = RangeSummary();
  convert({std::ldexp(1.0f, -15), std::ldexp(1.0f, -26)}, b.getF16Type(),
          &summary);
  EXPECT_EQ(summary.numUnderflow, 1);

  // Scalars and splats are never negligible: a lone 1e-12 is an epsilon.
  EXPECT_EQ(checkFloatRange(b.getF32FloatAttr(1.0e-12f), b.getF16Type())
                .numUnderflow,
            1);
  auto type = RankedTensorType::get({8}, b.getF32Type());
  EXPECT_EQ(checkFloatRange(DenseElementsAttr::get(type, 1.0e-12f),
                            b.getF16Type())
                .numUnderflow,
            8);

  // An infinity does not make everything else negligible.
  summary = checkFloatRange(
      DenseElementsAttr::get(RankedTensorType::get({2}, b.getF32Type()),
                             ArrayRef<float>{INFINITY, 1.0e-12f}),
      b.getF16Type());
  EXPECT_EQ(summary.numUnderflow, 1);
}

TEST_F(FloatConversionTest, SplatsCountEveryElement) {
  auto type = RankedTensorType::get({4, 8}, b.getF32Type());
  auto splat = DenseElementsAttr::get(type, 1.0e6f);
  RangeSummary summary = checkFloatRange(splat, b.getF16Type());
  EXPECT_EQ(summary.numValues, 32);
  EXPECT_EQ(summary.numOverflow, 32);
  auto converted =
      cast<DenseElementsAttr>(convertFloatConstant(splat, b.getF16Type()));
  EXPECT_TRUE(converted.isSplat());
  EXPECT_TRUE(converted.getElementType().isF16());
}

TEST_F(FloatConversionTest, ScalarsAndOtherTypes) {
  auto f32 = b.getF32FloatAttr(0.1f);
  auto f16 = dyn_cast<FloatAttr>(convertFloatConstant(f32, b.getF16Type()));
  ASSERT_TRUE(f16);
  EXPECT_EQ(f16.getValue().bitcastToAPInt().getZExtValue(),
            reference(0.1f, b.getF16Type()));
  // A target without a fast path goes through APFloat.
  auto f8 = Float8E4M3FNType::get(&ctx);
  RangeSummary summary;
  auto converted =
      dyn_cast<FloatAttr>(convertFloatConstant(b.getF32FloatAttr(1000.0f), f8,
                                               &summary));
  ASSERT_TRUE(converted);
  EXPECT_EQ(summary.numOverflow, 1); // f8E4M3FN tops out at 448
  EXPECT_EQ(converted.getValueAsDouble(), 448.0);
}

TEST_F(FloatConversionTest, ByteSizes) {
  auto type = RankedTensorType::get({3, 5}, b.getF32Type());
  EXPECT_EQ(getConstantByteSize(DenseElementsAttr::get(type, 1.0f)), 60);
  EXPECT_EQ(getConstantByteSize(b.getF16FloatAttr(1.0f)), 2);
  EXPECT_EQ(getConstantByteSize(b.getStringAttr("x")), 0);
}

} // namespace

namespace {
/// forEachDenseFloat reads f16 and bf16 raw bytes; every one of the 65,536
/// encodings must give APFloat's value (NaNs: a NaN).
void expectReadsEveryEncoding(FloatType type) {
  std::vector<APFloat> values;
  for (uint32_t bits = 0; bits < 0x10000u; ++bits)
    values.emplace_back(type.getFloatSemantics(), APInt(16, bits));
  auto attr = DenseElementsAttr::get(
      RankedTensorType::get({(int64_t)values.size()}, type), values);
  size_t i = 0;
  forEachDenseFloat(attr, [&](double got) {
    ASSERT_LT(i, values.size());
    double want = values[i].convertToDouble();
    if (std::isnan(want))
      EXPECT_TRUE(std::isnan(got)) << "encoding " << i;
    else
      EXPECT_EQ(llvm::bit_cast<uint64_t>(got), llvm::bit_cast<uint64_t>(want))
          << "encoding " << i;
    ++i;
  });
  EXPECT_EQ(i, values.size());
}
} // namespace

TEST_F(FloatConversionTest, ReadsEveryF16Encoding) {
  expectReadsEveryEncoding(b.getF16Type());
}

TEST_F(FloatConversionTest, ReadsEveryBF16Encoding) {
  expectReadsEveryEncoding(b.getBF16Type());
}

TEST_F(FloatConversionTest, ReadsF32AndOtherTypes) {
  std::vector<float> f32 = {1.5f, -0.0f, FLT_MAX, std::ldexp(1.0f, -149)};
  auto attr = DenseElementsAttr::get(
      RankedTensorType::get({4}, b.getF32Type()), ArrayRef<float>(f32));
  std::vector<double> got;
  forEachDenseFloat(attr, [&](double v) { got.push_back(v); });
  ASSERT_EQ(got.size(), 4u);
  for (size_t i = 0; i < 4; ++i)
    EXPECT_EQ(got[i], static_cast<double>(f32[i]));
  // f64 goes through APFloat.
  std::vector<double> f64 = {0.1, -3.0};
  auto wide = DenseElementsAttr::get(
      RankedTensorType::get({2}, b.getF64Type()), ArrayRef<double>(f64));
  got.clear();
  forEachDenseFloat(wide, [&](double v) { got.push_back(v); });
  EXPECT_EQ(got, f64);
}

TEST_F(FloatConversionTest, DenseStatsSkipNaNs) {
  for (FloatType type : {FloatType(b.getF32Type()), FloatType(b.getF16Type()),
                         FloatType(b.getBF16Type()), FloatType(b.getF64Type())}) {
    std::vector<APFloat> values;
    for (double v : {0.25, -3.0, double(NAN), 2.0, -0.125}) {
      APFloat x(v);
      bool losesInfo;
      x.convert(type.getFloatSemantics(), APFloat::rmNearestTiesToEven,
                &losesInfo);
      values.push_back(x);
    }
    auto attr = DenseElementsAttr::get(RankedTensorType::get({5}, type),
                                       ArrayRef<APFloat>(values));
    DenseFloatStats stats = getDenseFloatStats(attr);
    EXPECT_EQ(stats.lo, -3.0);
    EXPECT_EQ(stats.hi, 2.0);
    EXPECT_EQ(stats.minAbs, 0.125);
    EXPECT_EQ(stats.maxAbs, 3.0);
  }
  auto splat = DenseElementsAttr::get(RankedTensorType::get({8}, b.getF16Type()),
                                      APFloat(APFloat::IEEEhalf(), "-1.5"));
  DenseFloatStats stats = getDenseFloatStats(splat);
  EXPECT_EQ(stats.lo, -1.5);
  EXPECT_EQ(stats.maxAbs, 1.5);
}
