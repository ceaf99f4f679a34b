//===- Float.h - PTX floating-point formats and rounding ---------*- C++ -*-===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The number formats of the PTX ISA (f16, bf16, f32, f64) and the rounding
// modes of its arithmetic and conversions (.rn, .rz, .rm, .rp, .rna), on a
// host whose own float arithmetic is IEEE 754 binary32/binary64 rounding to
// nearest even.
//
// Results in a rounding mode other than the host's come from the exact
// result, known as an unevaluated sum `hi + lo` of two doubles (an
// error-free transformation): the host result rounded to nearest is moved by
// one unit in the last place when the mode asks for the other neighbour.
// 16-bit results are rounded once from such an exact value by rounding the
// double to odd first, which is exact for any target with at least two bits
// fewer than a double.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_EMULATOR_FLOAT_H
#define AMP_EMULATOR_FLOAT_H

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

namespace amp {
namespace emu {

/// PTX rounding modifiers. `Default` is the instruction's default (round to
/// nearest even for arithmetic, truncation for float-to-int conversions).
enum class Rounding : uint8_t {
  Default,
  NearestEven, // .rn  (.rni for integer results)
  Zero,        // .rz  (.rzi)
  Down,        // .rm  (.rmi)
  Up,          // .rp  (.rpi)
  NearestAway, // .rna (tf32 conversion)
};

inline uint32_t bitsOf(float f) {
  uint32_t b;
  std::memcpy(&b, &f, 4);
  return b;
}
inline float floatOf(uint32_t b) {
  float f;
  std::memcpy(&f, &b, 4);
  return f;
}
inline uint64_t bitsOf(double d) {
  uint64_t b;
  std::memcpy(&b, &d, 8);
  return b;
}
inline double doubleOf(uint64_t b) {
  double d;
  std::memcpy(&d, &b, 8);
  return d;
}

//===----------------------------------------------------------------------===//
// Exact values as double-double
//===----------------------------------------------------------------------===//

/// An exact real number as the unevaluated sum hi + lo, |lo| <= ulp(hi)/2.
struct Exact {
  double hi;
  double lo;
};

/// a + b exactly (Knuth's TwoSum; exact unless the sum overflows).
inline Exact twoSum(double a, double b) {
  double s = a + b;
  double bb = s - a;
  double err = (a - (s - bb)) + (b - bb);
  return {s, std::isfinite(s) ? err : 0.0};
}

/// a * b exactly (fma-based TwoProduct).
inline Exact twoProduct(double a, double b) {
  double p = a * b;
  double err = std::isfinite(p) ? std::fma(a, b, -p) : 0.0;
  return {p, err};
}

/// a * b + c exactly when a * b is exact in a double (inputs of at most 26
/// significant bits: f32, f16, bf16 values).
inline Exact exactFmaNarrow(double a, double b, double c) {
  return twoSum(a * b, c);
}

/// The sign of (x - r) where x = e.hi + e.lo: -1, 0 or 1.
inline int compareExact(const Exact &e, double r) {
  if (std::isnan(e.hi) || std::isnan(r))
    return 0;
  if (std::isinf(e.hi) || std::isinf(r))
    return e.hi < r ? -1 : e.hi > r ? 1 : 0;
  // e.hi and r are within an ulp or so of each other, so hi - r is exact
  // (Sterbenz) for the cases that matter.
  double d = (e.hi - r) + e.lo;
  return d < 0 ? -1 : d > 0 ? 1 : 0;
}

/// The double nearest to `e` in round-to-odd: exact when e is, else the
/// neighbour of e whose last significand bit is 1. Rounding this value to a
/// format with at most 51 significand bits gives the correctly rounded
/// result of e.
inline double roundToOdd(const Exact &e) {
  if (e.lo == 0.0 || !std::isfinite(e.hi))
    return e.hi;
  double r = e.hi;
  if ((bitsOf(r) & 1) == 0)
    r = std::nextafter(r, e.lo > 0 ? INFINITY : -INFINITY);
  return r;
}

//===----------------------------------------------------------------------===//
// Moving a nearest-even result to another rounding mode
//===----------------------------------------------------------------------===//

/// `r` is the float nearest (even) to the exact value `e`; returns the float
/// that `mode` selects.
inline float adjustRounding(float r, const Exact &e, Rounding mode) {
  if (mode == Rounding::Default || mode == Rounding::NearestEven ||
      std::isnan(r))
    return r;
  int c = compareExact(e, r); // sign of exact - r
  if (c == 0)
    return r;
  switch (mode) {
  case Rounding::Zero:
    if ((r > 0 && c < 0) || (r < 0 && c > 0) || std::isinf(r))
      return std::isinf(r) ? std::copysign(std::numeric_limits<float>::max(), r)
                           : std::nextafter(r, 0.0f);
    return r;
  case Rounding::Down:
    if (c < 0)
      return std::nextafter(r, -INFINITY);
    return r;
  case Rounding::Up:
    if (c > 0)
      return std::nextafter(r, INFINITY);
    return r;
  case Rounding::NearestAway: {
    // Nearest, ties away: differs from nearest-even only on exact ties.
    float other = std::nextafter(r, c > 0 ? INFINITY : -INFINITY);
    Exact toOther = twoSum(static_cast<double>(other), -e.hi);
    double distOther = std::fabs(toOther.hi - e.lo);
    double distR = std::fabs((e.hi - r) + e.lo);
    if (distOther == distR && std::fabs(other) > std::fabs(r))
      return other;
    return r;
  }
  default:
    return r;
  }
}

/// The same for a double result (f64 arithmetic: the exact value is only
/// known from an error term computed by the caller).
inline double adjustRounding(double r, double err, Rounding mode) {
  // err = exact - r.
  if (mode == Rounding::Default || mode == Rounding::NearestEven ||
      std::isnan(r) || err == 0.0)
    return r;
  switch (mode) {
  case Rounding::Zero:
    if ((r > 0 && err < 0) || (r < 0 && err > 0))
      return std::nextafter(r, 0.0);
    return r;
  case Rounding::Down:
    return err < 0 ? std::nextafter(r, -INFINITY) : r;
  case Rounding::Up:
    return err > 0 ? std::nextafter(r, INFINITY) : r;
  default:
    return r;
  }
}

//===----------------------------------------------------------------------===//
// 16-bit formats
//===----------------------------------------------------------------------===//

/// Rounds a double to a binary format with `mantBits` explicit fraction
/// bits and exponent bias `bias` (f16: 10, 15; bf16: 7, 127), returning its
/// bits. `mode` is one of the IEEE modes; .rna rounds ties away.
uint16_t roundDoubleTo16(double x, int mantBits, int expBits, Rounding mode,
                         bool satFinite = false);

inline uint16_t toHalf(double x, Rounding mode = Rounding::NearestEven) {
  return roundDoubleTo16(x, 10, 5, mode);
}
inline uint16_t toBFloat(double x, Rounding mode = Rounding::NearestEven) {
  return roundDoubleTo16(x, 7, 8, mode);
}

/// The value of f16 bits (exact in a float), computed.
inline float halfToFloatExact(uint16_t h) {
  uint32_t sign = (h >> 15) & 1, exp = (h >> 10) & 0x1f, mant = h & 0x3ff;
  float v;
  if (exp == 0)
    v = std::ldexp(static_cast<float>(mant), -24);
  else if (exp == 31)
    v = mant ? std::numeric_limits<float>::quiet_NaN() : INFINITY;
  else
    v = std::ldexp(static_cast<float>(mant | 0x400), static_cast<int>(exp) - 25);
  if (exp == 31 && mant) // keep the payload's sign
    return floatOf(0x7fc00000u | (sign << 31) | (mant << 13));
  return sign ? -v : v;
}

/// Every f16 value as a float, filled before main (the Tensor Core paths
/// convert hundreds of elements per instruction).
extern float halfTable[65536];

/// The value of f16 bits.
inline float halfToFloat(uint16_t h) { return halfTable[h]; }

/// The value of bf16 bits.
inline float bfloatToFloat(uint16_t b) {
  return floatOf(static_cast<uint32_t>(b) << 16);
}

inline bool isHalfSubnormal(uint16_t h) {
  return ((h >> 10) & 0x1f) == 0 && (h & 0x3ff) != 0;
}
inline bool isBFloatSubnormal(uint16_t b) {
  return ((b >> 7) & 0xff) == 0 && (b & 0x7f) != 0;
}

//===----------------------------------------------------------------------===//
// 8-bit formats
//===----------------------------------------------------------------------===//

/// The FP8 formats of the PTX ISA (section "Alternate Floating-Point Data
/// Formats"; the OCP 8-bit formats): .e4m3 has 1 sign, 4 exponent (bias 7)
/// and 3 fraction bits, no infinities and one NaN per sign (S.1111.111), so
/// its largest value is 1.75 * 2^8 = 448; .e5m2 is laid out like IEEE 754
/// (1, 5 with bias 15, 2), with infinities and NaNs, largest 1.75 * 2^15 =
/// 57344. Both have subnormals.
enum class Fp8Format : uint8_t { E4M3, E5M2 };

/// The value of FP8 bits (exact in a double, and in f16 and f32).
double fp8ToDouble(uint8_t bits, Fp8Format format);

/// `x` rounded to nearest even in `format`. With `satFinite` (cvt's
/// .satfinite, mandatory for FP8 destinations): a NaN gives NaN (0x7f), a
/// magnitude beyond the largest finite value after rounding (infinities
/// included) gives that value with x's sign. Without it, such a magnitude
/// gives infinity (.e5m2) or NaN (.e4m3, which has no infinity), as IEEE 754
/// rounding to nearest does. With `relu` (.relu), a negative result is +0.
uint8_t roundDoubleToFp8(double x, Fp8Format format, bool satFinite,
                         bool relu = false);

/// Whether FP8 bits are a NaN.
inline bool isFp8NaN(uint8_t bits, Fp8Format format) {
  return format == Fp8Format::E4M3 ? (bits & 0x7f) == 0x7f
                                   : (bits & 0x7c) == 0x7c && (bits & 3);
}

/// Flushes a subnormal float to a zero of the same sign (.ftz).
inline float flushSubnormal(float f) {
  if (std::fpclassify(f) == FP_SUBNORMAL)
    return std::copysign(0.0f, f);
  return f;
}

/// Canonical NaNs that PTX arithmetic returns.
constexpr uint32_t kCanonicalNaN32 = 0x7fffffffu;
constexpr uint16_t kCanonicalNaN16 = 0x7fffu;
constexpr uint16_t kCanonicalNaNBF16 = 0x7fffu;

//===----------------------------------------------------------------------===//
// Conversions to integers
//===----------------------------------------------------------------------===//

/// Rounds `x` to an integral double in `mode` (Default and Zero truncate).
inline double roundToIntegral(double x, Rounding mode) {
  switch (mode) {
  case Rounding::NearestEven:
    return std::nearbyint(x);
  case Rounding::Down:
    return std::floor(x);
  case Rounding::Up:
    return std::ceil(x);
  case Rounding::NearestAway:
    return std::round(x);
  default:
    return std::trunc(x);
  }
}

/// A float converted to a signed integer of `bits` bits, saturating, NaN to
/// zero (PTX float-to-integer conversions always saturate).
inline int64_t floatToSigned(double x, int bits, Rounding mode) {
  if (std::isnan(x))
    return 0;
  double r = roundToIntegral(x, mode);
  double lo = -std::ldexp(1.0, bits - 1), hi = std::ldexp(1.0, bits - 1);
  if (r < lo)
    return bits == 64 ? std::numeric_limits<int64_t>::min()
                      : -(int64_t(1) << (bits - 1));
  if (r >= hi)
    return bits == 64 ? std::numeric_limits<int64_t>::max()
                      : (int64_t(1) << (bits - 1)) - 1;
  return static_cast<int64_t>(r);
}

/// Unsigned counterpart of floatToSigned.
inline uint64_t floatToUnsigned(double x, int bits, Rounding mode) {
  if (std::isnan(x))
    return 0;
  double r = roundToIntegral(x, mode);
  if (r <= 0)
    return 0;
  double hi = std::ldexp(1.0, bits);
  if (r >= hi)
    return bits == 64 ? std::numeric_limits<uint64_t>::max()
                      : (uint64_t(1) << bits) - 1;
  return static_cast<uint64_t>(r);
}

/// An integer (magnitude `u`, sign `negative`) rounded to a float format of
/// `mantBits` significand bits (24 for f32, 53 for f64), as a double.
double roundIntegerToFloat(uint64_t u, bool negative, int mantBits,
                           Rounding mode);

} // namespace emu
} // namespace amp

#endif // AMP_EMULATOR_FLOAT_H
