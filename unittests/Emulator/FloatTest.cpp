//===- FloatTest.cpp - The emulator's rounding against llvm::APFloat ------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The PTX emulator rounds to f16 and bf16 in five modes, from integers in
// four, and computes 16-bit adds, multiplies and fmas through a double
// rounded to odd. llvm::APFloat is the oracle (IEEE 754 arithmetic in every
// rounding mode), on the values where rounding is hard: halfway cases,
// subnormals, overflow, and random bit patterns.
//
//===----------------------------------------------------------------------===//

#include "Float.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/APInt.h"

#include "gtest/gtest.h"

#include <cmath>
#include <random>

using namespace amp::emu;
using llvm::APFloat;
using llvm::APInt;
using RM = llvm::RoundingMode;

namespace {

const std::pair<Rounding, RM> kModes[] = {
    {Rounding::NearestEven, RM::NearestTiesToEven},
    {Rounding::Zero, RM::TowardZero},
    {Rounding::Down, RM::TowardNegative},
    {Rounding::Up, RM::TowardPositive},
    {Rounding::NearestAway, RM::NearestTiesToAway},
};

uint16_t apfloatBits(double x, const llvm::fltSemantics &sem, RM mode) {
  APFloat f(x);
  bool lost;
  f.convert(sem, mode, &lost);
  return static_cast<uint16_t>(f.bitcastToAPInt().getZExtValue());
}

/// Doubles that exercise 16-bit rounding: around ties, limits, subnormals.
std::vector<double> hardValues() {
  std::vector<double> v = {0.0,      -0.0,       1.0,     -1.0,    0.1,
                           65504.0,  65519.99,   65520.0, 65536.0, 1e10,
                           -65520.0, 3.0e-8,     6.0e-8,  5.96e-8, 2.98e-8,
                           1.0e-40,  3.3895e38,  3.4e38,  INFINITY,
                           -INFINITY};
  for (int e = -30; e <= 16; ++e)
    for (double m : {1.0, 1.0009765625, 1.00048828125, 1.000732421875,
                     1.5, 1.99951171875, 1.999755859375, 1.0078125,
                     1.00390625, 1.005859375})
      for (double s : {1.0, -1.0})
        v.push_back(s * std::ldexp(m, e));
  std::mt19937_64 rng(7);
  for (int i = 0; i < 20000; ++i) {
    uint64_t bits = rng();
    double d = doubleOf(bits);
    int e;
    if (std::isfinite(d))
      v.push_back(std::ldexp(std::frexp(d, &e) * 2, int(rng() % 60) - 30));
  }
  return v;
}

} // namespace

TEST(EmulatorFloat, RoundToHalfMatchesAPFloatInEveryMode) {
  for (double x : hardValues())
    for (const auto &[mode, rm] : kModes)
      ASSERT_EQ(toHalf(x, mode), apfloatBits(x, APFloat::IEEEhalf(), rm))
          << "x = " << x << " mode " << int(mode);
}

TEST(EmulatorFloat, RoundToBFloatMatchesAPFloatInEveryMode) {
  for (double x : hardValues())
    for (const auto &[mode, rm] : kModes)
      ASSERT_EQ(toBFloat(x, mode), apfloatBits(x, APFloat::BFloat(), rm))
          << "x = " << x << " mode " << int(mode);
}

TEST(EmulatorFloat, HalfTableIsExact) {
  for (uint32_t h = 0; h < 65536; ++h) {
    APFloat f(APFloat::IEEEhalf(), APInt(16, h));
    if (f.isNaN()) {
      EXPECT_TRUE(std::isnan(halfToFloat(static_cast<uint16_t>(h))));
      continue;
    }
    EXPECT_EQ(halfToFloat(static_cast<uint16_t>(h)), f.convertToDouble()) << h;
  }
}

TEST(EmulatorFloat, NaNBecomesTheCanonicalNaN) {
  EXPECT_EQ(toHalf(NAN), 0x7fff);
  EXPECT_EQ(toBFloat(-NAN), 0x7fff);
}

TEST(EmulatorFloat, SatFiniteClampsInsteadOfInfinity) {
  EXPECT_EQ(roundDoubleTo16(1e6, 10, 5, Rounding::NearestEven, true), 0x7bff);
  EXPECT_EQ(roundDoubleTo16(-INFINITY, 10, 5, Rounding::NearestEven, true),
            0xfbff);
}

// 16-bit fma through round-to-odd: one rounding, as the hardware does.
TEST(EmulatorFloat, HalfFmaRoundsOnce) {
  std::mt19937 rng(11);
  for (int i = 0; i < 200000; ++i) {
    auto randomHalf = [&]() {
      uint16_t h;
      do
        h = static_cast<uint16_t>(rng());
      while (((h >> 10) & 0x1f) == 0x1f);
      return h;
    };
    uint16_t a = randomHalf(), b = randomHalf(), c = randomHalf();
    double x = halfToFloat(a), y = halfToFloat(b), z = halfToFloat(c);
    uint16_t got = toHalf(roundToOdd(exactFmaNarrow(x, y, z)));
    APFloat fa(APFloat::IEEEhalf(), APInt(16, a));
    APFloat fb(APFloat::IEEEhalf(), APInt(16, b));
    APFloat fc(APFloat::IEEEhalf(), APInt(16, c));
    fa.fusedMultiplyAdd(fb, fc, RM::NearestTiesToEven);
    uint16_t want = static_cast<uint16_t>(fa.bitcastToAPInt().getZExtValue());
    if (fa.isNaN())
      continue;
    if (fa.isZero() && want != got && (got & 0x7fff) == 0)
      continue; // the sign of an exact zero sum follows IEEE; both valid
    ASSERT_EQ(got, want) << a << " * " << b << " + " << c;
  }
}

TEST(EmulatorFloat, BFloatAddRoundsOnce) {
  std::mt19937 rng(13);
  for (int i = 0; i < 200000; ++i) {
    uint16_t a = static_cast<uint16_t>(rng()), b = static_cast<uint16_t>(rng());
    if (((a >> 7) & 0xff) == 0xff || ((b >> 7) & 0xff) == 0xff)
      continue;
    uint16_t got = toBFloat(
        roundToOdd(twoSum(bfloatToFloat(a), bfloatToFloat(b))));
    APFloat fa(APFloat::BFloat(), APInt(16, a));
    fa.add(APFloat(APFloat::BFloat(), APInt(16, b)), RM::NearestTiesToEven);
    uint16_t want = static_cast<uint16_t>(fa.bitcastToAPInt().getZExtValue());
    if (fa.isZero() && (got & 0x7fff) == 0)
      continue;
    ASSERT_EQ(got, want) << a << " + " << b;
  }
}

TEST(EmulatorFloat, IntegerToFloatInEveryMode) {
  std::vector<uint64_t> values = {0, 1, 16777215, 16777216, 16777217,
                                  16777218, 16777219, 33554435,
                                  (uint64_t(1) << 53) + 1, ~uint64_t(0),
                                  0x8000000000000001ull, 2049, 2051};
  std::mt19937_64 rng(5);
  for (int i = 0; i < 2000; ++i)
    values.push_back(rng() >> (rng() % 64));
  for (uint64_t u : values)
    for (bool negative : {false, true})
      for (const auto &[mode, rm] : kModes) {
        APFloat f(APFloat::IEEEsingle());
        APInt i(65, u);
        if (negative)
          i = -i;
        f.convertFromAPInt(i, /*isSigned=*/true, rm);
        double got = roundIntegerToFloat(u, negative, 24, mode);
        ASSERT_EQ(static_cast<float>(got), f.convertToFloat())
            << (negative ? "-" : "") << u << " mode " << int(mode);
      }
}

TEST(EmulatorFloat, FloatToIntegerSaturates) {
  EXPECT_EQ(floatToSigned(3e9, 32, Rounding::Zero), 2147483647);
  EXPECT_EQ(floatToSigned(-3e9, 32, Rounding::Zero), -2147483647 - 1);
  EXPECT_EQ(floatToSigned(NAN, 32, Rounding::Zero), 0);
  EXPECT_EQ(floatToUnsigned(-1.5, 32, Rounding::Zero), 0u);
  EXPECT_EQ(floatToSigned(2.5, 32, Rounding::NearestEven), 2);
  EXPECT_EQ(floatToSigned(-2.5, 32, Rounding::Down), -3);
  EXPECT_EQ(floatToSigned(2.1, 32, Rounding::Up), 3);
}

TEST(EmulatorFloat, AdjustedFloatRoundingMatchesAPFloat) {
  std::mt19937 rng(3);
  for (int i = 0; i < 100000; ++i) {
    float a = floatOf((rng() & 0x7f7fffffu) | (rng() & 0x80000000u));
    float b = floatOf((rng() & 0x7f7fffffu) | (rng() & 0x80000000u));
    Exact e = twoSum(a, b);
    float rn = static_cast<float>(roundToOdd(e));
    for (const auto &[mode, rm] : kModes) {
      if (mode == Rounding::NearestAway)
        continue;
      APFloat fa(a);
      fa.add(APFloat(b), rm);
      ASSERT_EQ(bitsOf(adjustRounding(rn, e, mode)),
                bitsOf(fa.convertToFloat()))
          << a << " + " << b << " mode " << int(mode);
    }
  }
}
