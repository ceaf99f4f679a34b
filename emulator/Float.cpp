//===- Float.cpp - PTX floating-point formats and rounding ----------------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Rounding to the 16-bit formats and from integers, in every PTX rounding
// mode, by integer arithmetic on the significand (no dependence on the host's
// floating-point environment), and the FP8 formats (e4m3, e5m2).
//
//===----------------------------------------------------------------------===//

#include "Float.h"

#include <cmath>
#include <limits>

namespace amp {
namespace emu {

/// Whether a value with integral part `n` and fraction `frac` (in units of
/// the last place, 0 <= frac < 1) rounds its magnitude up in `mode`.
static bool roundsUp(uint64_t n, double frac, bool negative, Rounding mode) {
  if (frac == 0.0)
    return false;
  switch (mode) {
  case Rounding::Zero:
    return false;
  case Rounding::Down:
    return negative;
  case Rounding::Up:
    return !negative;
  case Rounding::NearestAway:
    return frac >= 0.5;
  default: // nearest even
    return frac > 0.5 || (frac == 0.5 && (n & 1));
  }
}

alignas(64) float halfTable[65536];

namespace {
struct FillHalfTable {
  FillHalfTable() {
    for (uint32_t h = 0; h < 65536; ++h)
      halfTable[h] = halfToFloatExact(static_cast<uint16_t>(h));
  }
} fillHalfTable;
} // namespace

uint16_t roundDoubleTo16(double x, int mantBits, int expBits, Rounding mode,
                         bool satFinite) {
  uint16_t sign = std::signbit(x) ? uint16_t(1u << 15) : uint16_t(0);
  uint16_t expMask = uint16_t(((1u << expBits) - 1) << mantBits);
  uint16_t maxFinite = uint16_t(expMask - (1u << mantBits) + ((1u << mantBits) - 1));
  if (std::isnan(x))
    return uint16_t(0x7fff);
  bool negative = sign != 0;
  auto overflow = [&]() -> uint16_t {
    bool toInf = !satFinite && (mode == Rounding::Default ||
                                mode == Rounding::NearestEven ||
                                mode == Rounding::NearestAway ||
                                (mode == Rounding::Up && !negative) ||
                                (mode == Rounding::Down && negative));
    return sign | (toInf ? expMask : maxFinite);
  };
  double a = std::fabs(x);
  if (a == 0.0)
    return sign;
  if (std::isinf(a))
    return satFinite ? uint16_t(sign | maxFinite) : uint16_t(sign | expMask);
  int bias = (1 << (expBits - 1)) - 1;
  int emin = 1 - bias;
  int ex;
  std::frexp(a, &ex); // a = m * 2^ex, m in [0.5, 1)
  int e = ex - 1;
  if (e > bias)
    return overflow();
  int quantumExp = (e < emin ? emin : e) - mantBits;
  double scaled = std::ldexp(a, -quantumExp); // < 2^(mantBits+1): exact
  double intPart = std::floor(scaled);
  uint64_t n = static_cast<uint64_t>(intPart);
  if (roundsUp(n, scaled - intPart, negative, mode))
    ++n;
  uint64_t bits;
  if (e < emin) {
    bits = n; // subnormal; n == 2^mantBits is the smallest normal
  } else {
    bits = (uint64_t(e + bias) << mantBits) + (n - (uint64_t(1) << mantBits));
  }
  if (bits >= expMask)
    return overflow();
  return uint16_t(sign | bits);
}

double roundIntegerToFloat(uint64_t u, bool negative, int mantBits,
                           Rounding mode) {
  if (u == 0)
    return negative ? -0.0 : 0.0;
  int length = 64 - __builtin_clzll(u);
  double magnitude;
  if (length <= mantBits) {
    magnitude = static_cast<double>(u);
  } else {
    int shift = length - mantBits;
    uint64_t n = u >> shift;
    uint64_t rem = u & ((uint64_t(1) << shift) - 1);
    uint64_t half = uint64_t(1) << (shift - 1);
    bool up;
    switch (mode) {
    case Rounding::Zero:
      up = false;
      break;
    case Rounding::Down:
      up = negative && rem != 0;
      break;
    case Rounding::Up:
      up = !negative && rem != 0;
      break;
    case Rounding::NearestAway:
      up = rem >= half;
      break;
    default:
      up = rem > half || (rem == half && (n & 1));
      break;
    }
    if (up)
      ++n;
    magnitude = std::ldexp(static_cast<double>(n), shift);
  }
  return negative ? -magnitude : magnitude;
}

//===----------------------------------------------------------------------===//
// FP8
//===----------------------------------------------------------------------===//

namespace {
/// A format's fraction bits, exponent bias and largest finite value.
struct Fp8Params {
  int mantBits;
  int bias;
  double maxFinite;
};
Fp8Params fp8Params(Fp8Format format) {
  return format == Fp8Format::E4M3 ? Fp8Params{3, 7, 448.0}
                                   : Fp8Params{2, 15, 57344.0};
}
} // namespace

double fp8ToDouble(uint8_t bits, Fp8Format format) {
  Fp8Params p = fp8Params(format);
  int expBits = 7 - p.mantBits;
  bool negative = bits & 0x80;
  int exp = (bits >> p.mantBits) & ((1 << expBits) - 1);
  int mant = bits & ((1 << p.mantBits) - 1);
  double v;
  if (isFp8NaN(bits, format))
    return std::numeric_limits<double>::quiet_NaN();
  if (format == Fp8Format::E5M2 && exp == 31)
    v = std::numeric_limits<double>::infinity();
  else if (exp == 0) // subnormal: 0.m * 2^(1 - bias)
    v = std::ldexp(static_cast<double>(mant), 1 - p.bias - p.mantBits);
  else
    v = std::ldexp(static_cast<double>(mant | (1 << p.mantBits)),
                   exp - p.bias - p.mantBits);
  return negative ? -v : v;
}

uint8_t roundDoubleToFp8(double x, Fp8Format format, bool satFinite,
                         bool relu) {
  Fp8Params p = fp8Params(format);
  const uint8_t nan = 0x7f;
  if (std::isnan(x))
    return nan;
  if (relu && x < 0)
    x = 0;
  uint8_t sign = std::signbit(x) ? 0x80 : 0;
  double a = std::fabs(x);
  uint8_t maxBits = format == Fp8Format::E4M3 ? 0x7e : 0x7b;
  uint8_t overflow = satFinite                   ? maxBits
                     : format == Fp8Format::E4M3 ? nan
                                                 : uint8_t(0x7c); // infinity
  if (std::isinf(a))
    return overflow == nan ? nan : uint8_t(sign | overflow);
  // The quantum at a's binade (or the subnormal quantum), and a rounded to
  // a multiple of it, ties to even: exact in a double (a / q is a power-of-
  // two scaling, and the quotient has at most 53 bits).
  int minExp = 1 - p.bias;
  int e = a == 0 ? minExp : std::ilogb(a);
  if (e < minExp)
    e = minExp;
  double q = std::ldexp(1.0, e - p.mantBits);
  double n = a / q;
  double fl = std::floor(n), frac = n - fl;
  uint64_t units = static_cast<uint64_t>(fl);
  if (frac > 0.5 || (frac == 0.5 && (units & 1)))
    ++units;
  double r = static_cast<double>(units) * q;
  if (r > p.maxFinite)
    return overflow == nan ? nan : uint8_t(sign | overflow);
  if (r == 0)
    return sign;
  int re = std::ilogb(r);
  if (re < minExp) // subnormal
    return uint8_t(
        sign | static_cast<uint8_t>(std::ldexp(r, p.bias - 1 + p.mantBits)));
  uint8_t mant = static_cast<uint8_t>(std::ldexp(r, p.mantBits - re)) &
                 ((1 << p.mantBits) - 1);
  return uint8_t(sign | ((re + p.bias) << p.mantBits) | mant);
}

} // namespace emu
} // namespace amp
