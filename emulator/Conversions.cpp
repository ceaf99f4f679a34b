//===- Conversions.cpp - cvt ----------------------------------------------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// cvt between integers and floats of every width and rounding mode, with
// .ftz, .sat, .satfinite and .relu, the packed f16x2/bf16x2 forms, and the
// FP8 pairs .e4m3x2/.e5m2x2 from f32 and f16x2 and to f16x2 (PTX ISA,
// "cvt"; the formats in Float.h).
//
//===----------------------------------------------------------------------===//

#include "ScalarOps.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>

namespace amp {
namespace emu {

namespace {

bool isFp8Pair(Type t) { return t == Type::E4M3x2 || t == Type::E5M2x2; }

Fp8Format fp8FormatOf(Type t) {
  return t == Type::E4M3x2 ? Fp8Format::E4M3 : Fp8Format::E5M2;
}

/// The f16 bits of an FP8 value (exact: every e4m3 and e5m2 value is an
/// f16 value); NaNs become the canonical f16 NaN.
uint16_t fp8ToHalf(uint8_t bits, Fp8Format format, bool relu) {
  if (isFp8NaN(bits, format))
    return kCanonicalNaN16;
  double v = fp8ToDouble(bits, format);
  if (relu && v < 0)
    v = 0;
  return toHalf(v);
}

/// The FP8 forms of cvt on the lanes of `mask` (PTX ISA, "cvt"): two f32
/// (a to the upper byte) or an f16x2 (upper half to the upper byte) to an
/// .e4m3x2/.e5m2x2 pair, rounded to nearest even with .satfinite; or a pair
/// to f16x2 (upper byte to the upper half), exactly.
void convertFp8(const Instruction &in, uint32_t mask, const uint64_t *a,
                const uint64_t *b, uint64_t *d) {
  bool relu = in.flags & kRelu;
  if (isFp8Pair(in.type)) {
    Fp8Format format = fp8FormatOf(in.type);
    auto one = [&](double x) -> uint64_t {
      return roundDoubleToFp8(x, format, /*satFinite=*/true, relu);
    };
    if (in.type2 == Type::F32) {
      FOR_LANES d[l] = (one(floatOf(static_cast<uint32_t>(a[l]))) << 8) |
                       one(floatOf(static_cast<uint32_t>(b[l])));
      return;
    }
    FOR_LANES d[l] =
        (one(halfToFloat(static_cast<uint16_t>(a[l] >> 16))) << 8) |
        one(halfToFloat(static_cast<uint16_t>(a[l])));
    return;
  }
  Fp8Format format = fp8FormatOf(in.type2);
  FOR_LANES d[l] =
      (uint64_t(fp8ToHalf(static_cast<uint8_t>(a[l] >> 8), format, relu))
       << 16) |
      fp8ToHalf(static_cast<uint8_t>(a[l]), format, relu);
}

/// Converts one value for cvt.
uint64_t convert(const Instruction &in, uint64_t v) {
  Type dt = in.type, st = in.type2;
  int db = typeBits(dt), sb = typeBits(st);
  bool dstFloat = isFloatType(dt), srcFloat = isFloatType(st);
  Rounding mode = in.rounding;
  if (srcFloat && (in.flags & kFtz))
    v = flush(v, st);
  if (!dstFloat) {
    if (srcFloat) {
      double x = floatValue(v, st);
      Rounding r = mode == Rounding::Default ? Rounding::Zero : mode;
      if (isSignedInt(dt))
        return maskBits(static_cast<uint64_t>(floatToSigned(x, db, r)), db);
      return floatToUnsigned(x, db, r);
    }
    // Integer to integer: extend or truncate; .sat clamps.
    if (in.flags & kSat) {
      if (isSignedInt(st)) {
        int64_t x = signExtend(v, sb);
        if (isSignedInt(dt))
          return maskBits(static_cast<uint64_t>(saturate(x, db)), db);
        if (x < 0)
          return 0;
        uint64_t hi = db >= 64 ? ~uint64_t(0) : (uint64_t(1) << db) - 1;
        return std::min(static_cast<uint64_t>(x), hi);
      }
      uint64_t x = maskBits(v, sb);
      if (isSignedInt(dt)) {
        uint64_t hi = (uint64_t(1) << (db - 1)) - 1;
        return std::min(x, hi);
      }
      uint64_t hi = db >= 64 ? ~uint64_t(0) : (uint64_t(1) << db) - 1;
      return std::min(x, hi);
    }
    uint64_t x = isSignedInt(st) ? static_cast<uint64_t>(signExtend(v, sb))
                                 : maskBits(v, sb);
    return maskBits(x, db);
  }
  // Float destination.
  double x;
  if (srcFloat) {
    x = floatValue(v, st);
  } else {
    bool negative = isSignedInt(st) && signExtend(v, sb) < 0;
    uint64_t magnitude =
        negative ? uint64_t(0) - static_cast<uint64_t>(signExtend(v, sb))
                 : maskBits(v, sb);
    int mant = dt == Type::F64   ? 53
               : dt == Type::F32 ? 24
               : dt == Type::F16 ? 11
                                 : 8;
    Rounding r = mode == Rounding::Default ? Rounding::NearestEven : mode;
    x = roundIntegerToFloat(magnitude, negative, mant, r);
    mode = Rounding::NearestEven; // exact from here
  }
  if (in.flags & kHi) {
    // cvt.rni.f32.f32 and friends: round to an integral value.
    if (!std::isnan(x) && !std::isinf(x))
      x = std::copysign(roundToIntegral(x, mode), x);
    mode = Rounding::NearestEven;
  }
  if (std::isnan(x))
    return (in.flags & kSat) ? encodeFloat(0.0, dt) : canonicalNaN(dt);
  if ((in.flags & kRelu) && x < 0)
    x = 0;
  if ((in.flags & kSat) && (dt == Type::F32 || dt == Type::F64 ||
                            (srcFloat && dt != Type::F16 && dt != Type::BF16)))
    x = std::min(std::max(x, 0.0), 1.0);
  Rounding r = mode == Rounding::Default ? Rounding::NearestEven : mode;
  uint64_t out;
  switch (dt) {
  case Type::F16:
    out = roundDoubleTo16(x, 10, 5, r, (in.flags & kSat) != 0 && srcFloat);
    break;
  case Type::BF16:
    out = roundDoubleTo16(x, 7, 8, r, (in.flags & kSat) != 0 && srcFloat);
    break;
  case Type::F32: {
    float f = static_cast<float>(x);
    out = bitsOf(adjustRounding(f, Exact{x, 0.0}, r));
    break;
  }
  case Type::F64:
    out = bitsOf(x);
    break;
  case Type::TF32: {
    // 10 explicit fraction bits, in an f32 container (.rna).
    float f = static_cast<float>(x);
    uint32_t b = bitsOf(f);
    if (std::isfinite(f)) {
      b += 0x1000; // round half away on the 13 dropped bits
      b &= ~0x1fffu;
    }
    out = b;
    break;
  }
  default:
    out = 0;
    break;
  }
  if (in.flags & kFtz)
    out = flush(out, dt);
  return out;
}

} // namespace

void Launch::executeConversion(Warp &w, const Instruction &in, uint32_t mask) {
  uint64_t bufA[kWarpSize], bufB[kWarpSize];
  uint64_t sink[kWarpSize];
  auto dst = [&](const Operand &op) -> uint64_t * {
    return op.kind == OperandKind::Reg ? &w.regs[op.reg * kWarpSize] : sink;
  };
  auto src = [&](int i, uint64_t *buffer) {
    return lanes(w, in.ops[i], buffer, mask);
  };
  switch (in.op) {
  case Op::Cvt: {
    if (isFp8Pair(in.type) || isFp8Pair(in.type2)) {
      convertFp8(in, mask, src(1, bufA),
                 in.numOperands > 2 ? src(2, bufB) : nullptr, dst(in.ops[0]));
      return;
    }
    if (in.type == Type::F16x2 || in.type == Type::BF16x2) {
      Instruction one = in;
      one.type = in.type == Type::F16x2 ? Type::F16 : Type::BF16;
      const uint64_t *a = src(1, bufA), *b = src(2, bufB);
      uint64_t *d = dst(in.ops[0]);
      FOR_LANES d[l] = (convert(one, a[l]) << 16) | convert(one, b[l]);
      return;
    }
    const uint64_t *a = src(1, bufA);
    uint64_t *d = dst(in.ops[0]);
    if (in.type == Type::F32 && in.type2 == Type::F16 && !in.flags) {
      FOR_LANES d[l] = bitsOf(halfToFloat(static_cast<uint16_t>(a[l])));
      return;
    }
    FOR_LANES {
      uint64_t r = convert(in, a[l]);
      if (isSignedInt(in.type))
        r = maskBits(r, typeBits(in.type));
      d[l] = r;
    }
    return;
  }
  default:
    fail(LaunchError::IllegalInstruction, w, __builtin_ctz(mask),
         "internal error: instruction not dispatched", /*fatal=*/true);
    return;
  }
}

} // namespace emu
} // namespace amp
