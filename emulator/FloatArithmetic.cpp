//===- FloatArithmetic.cpp - Floating-point instructions ------------------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Floating-point arithmetic on f16, f16x2, bf16, bf16x2, f32 and f64, and
// the float functions and tests (PTX ISA, "Floating-Point Instructions",
// "Half Precision Floating-Point Instructions"): exact results rounded once
// in every rounding modifier, .ftz, .sat, .relu, .NaN, canonical NaNs.
//
//===----------------------------------------------------------------------===//

#include "ScalarOps.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>

namespace amp {
namespace emu {

bool compareFloat(CmpOp c, double x, double y) {
  bool unordered = std::isnan(x) || std::isnan(y);
  switch (c) {
  case CmpOp::Eq:
    return !unordered && x == y;
  case CmpOp::Ne:
    return !unordered && x != y;
  case CmpOp::Lt:
    return !unordered && x < y;
  case CmpOp::Le:
    return !unordered && x <= y;
  case CmpOp::Gt:
    return !unordered && x > y;
  case CmpOp::Ge:
    return !unordered && x >= y;
  case CmpOp::Equ:
    return unordered || x == y;
  case CmpOp::Neu:
    return unordered || x != y;
  case CmpOp::Ltu:
    return unordered || x < y;
  case CmpOp::Leu:
    return unordered || x <= y;
  case CmpOp::Gtu:
    return unordered || x > y;
  case CmpOp::Geu:
    return unordered || x >= y;
  case CmpOp::Num:
    return !unordered;
  case CmpOp::Nan:
    return unordered;
  default:
    return false;
  }
}

/// The value of a float of type `t` held in `bits`.
double floatValue(uint64_t bits, Type t) {
  switch (t) {
  case Type::F16:
    return halfToFloat(static_cast<uint16_t>(bits));
  case Type::BF16:
    return bfloatToFloat(static_cast<uint16_t>(bits));
  case Type::F32:
    return floatOf(static_cast<uint32_t>(bits));
  case Type::F64:
    return doubleOf(bits);
  default:
    return 0;
  }
}

bool isSubnormalBits(uint64_t bits, Type t) {
  switch (t) {
  case Type::F16:
    return isHalfSubnormal(static_cast<uint16_t>(bits));
  case Type::BF16:
    return isBFloatSubnormal(static_cast<uint16_t>(bits));
  case Type::F32:
    return std::fpclassify(floatOf(static_cast<uint32_t>(bits))) ==
           FP_SUBNORMAL;
  default:
    return false;
  }
}

/// Bits of `t` for the exact value `e`, rounded in `mode`.
uint64_t roundExact(const Exact &e, Type t, Rounding mode) {
  switch (t) {
  case Type::F16:
    return toHalf(roundToOdd(e),
                  mode == Rounding::Default ? Rounding::NearestEven : mode);
  case Type::BF16:
    return toBFloat(roundToOdd(e),
                    mode == Rounding::Default ? Rounding::NearestEven : mode);
  case Type::F32: {
    // Round to odd in a double, then to nearest float: one rounding.
    float r = static_cast<float>(roundToOdd(e));
    return bitsOf(adjustRounding(r, e, mode));
  }
  case Type::F64: {
    double r = e.hi; // hi is the nearest double to the exact value
    return bitsOf(adjustRounding(r, e.lo, mode));
  }
  default:
    return 0;
  }
}

uint64_t canonicalNaN(Type t) {
  switch (t) {
  case Type::F16:
    return kCanonicalNaN16;
  case Type::BF16:
    return kCanonicalNaNBF16;
  case Type::F32:
    return kCanonicalNaN32;
  default:
    return bitsOf(std::numeric_limits<double>::quiet_NaN());
  }
}

uint64_t encodeFloat(double v, Type t) {
  switch (t) {
  case Type::F16:
    return toHalf(v);
  case Type::BF16:
    return toBFloat(v);
  case Type::F32:
    return bitsOf(static_cast<float>(v));
  default:
    return bitsOf(v);
  }
}

/// Flushes subnormal inputs or results of `t` (.ftz).
uint64_t flush(uint64_t bits, Type t) {
  if (!isSubnormalBits(bits, t))
    return bits;
  int b = typeBits(t);
  return bits & (uint64_t(1) << (b - 1)); // keep the sign
}

/// One scalar float operation on `t` (not a pair), on raw bits.
uint64_t floatOp(Op op, Type t, uint32_t flags, Rounding mode, uint64_t ab,
                 uint64_t bb, uint64_t cb) {
  bool ftz = flags & kFtz;
  if (ftz) {
    ab = flush(ab, t);
    bb = flush(bb, t);
    cb = flush(cb, t);
  }
  double a = floatValue(ab, t), b = floatValue(bb, t), c = floatValue(cb, t);
  uint64_t r;
  switch (op) {
  case Op::FAdd:
  case Op::FSub:
  case Op::FMul:
  case Op::FFma: {
    Exact e;
    if (t == Type::F64) {
      if (op == Op::FAdd)
        e = twoSum(a, b);
      else if (op == Op::FSub)
        e = twoSum(a, -b);
      else if (op == Op::FMul)
        e = twoProduct(a, b);
      else {
        double r64 = std::fma(a, b, c);
        // The error of an f64 fma is not computed: only .rn is exact.
        e = {r64, 0.0};
      }
    } else {
      if (op == Op::FAdd)
        e = twoSum(a, b);
      else if (op == Op::FSub)
        e = twoSum(a, -b);
      else if (op == Op::FMul)
        e = {a * b, 0.0}; // exact for inputs of <= 26 bits
      else
        e = exactFmaNarrow(a, b, c);
    }
    if (std::isnan(e.hi))
      return canonicalNaN(t);
    r = roundExact(e, t, mode);
    break;
  }
  case Op::FDiv: {
    if (t == Type::F64) {
      double q = a / b;
      double rem = std::fma(-q, b, a); // exact remainder
      double err = (b > 0) == (rem > 0) ? (rem == 0 ? 0 : 1) : -1;
      if (rem == 0)
        err = 0;
      r = bitsOf(adjustRounding(q, err, mode));
    } else {
      double q = a / b; // a/b in double, rounded once more below
      if (std::isnan(q))
        return canonicalNaN(t);
      double rem = std::fma(-q, b, a);
      Exact e{q, std::isfinite(q) && b != 0 ? rem / b : 0.0};
      r = roundExact(e, t, mode);
    }
    break;
  }
  case Op::FMin:
  case Op::FMax: {
    bool isMax = op == Op::FMax;
    if (std::isnan(a) || std::isnan(b)) {
      if ((flags & kNaN) || (std::isnan(a) && std::isnan(b)))
        return canonicalNaN(t);
      r = std::isnan(a) ? bb : ab;
      break;
    }
    double x = a, y = b;
    uint64_t pick;
    if (x == y && x == 0) {
      bool aNeg = std::signbit(x);
      pick = isMax ? (aNeg ? bb : ab) : (aNeg ? ab : bb);
    } else {
      pick = (isMax ? x > y : x < y) ? ab : bb;
    }
    if (flags & kXorsignAbs) {
      double m = isMax ? std::max(std::fabs(a), std::fabs(b))
                       : std::min(std::fabs(a), std::fabs(b));
      bool sign = std::signbit(a) != std::signbit(b);
      return encodeFloat(sign ? -m : m, t);
    }
    r = pick;
    break;
  }
  case Op::FAbs:
    r = ab & ~(uint64_t(1) << (typeBits(t) - 1));
    return r; // abs/neg never flush the result nor canonicalize
  case Op::FNeg:
    return ab ^ (uint64_t(1) << (typeBits(t) - 1));
  case Op::FRcp:
    r = t == Type::F64 ? bitsOf(1.0 / a)
                       : roundExact({1.0 / a, 0.0}, t, Rounding::NearestEven);
    if (t == Type::F32 && mode != Rounding::Default &&
        mode != Rounding::NearestEven) {
      double q = 1.0 / a;
      double rem = std::fma(-q, a, 1.0);
      r = roundExact({q, std::isfinite(q) && a != 0 ? rem / a : 0.0}, t, mode);
    }
    break;
  case Op::FSqrt: {
    double s = std::sqrt(a);
    if (t == Type::F64) {
      r = bitsOf(s);
    } else {
      double rem = std::fma(-s, s, a);
      r = roundExact({s, s > 0 && std::isfinite(s) ? rem / (2 * s) : 0.0}, t,
                     mode == Rounding::Default ? Rounding::NearestEven : mode);
    }
    break;
  }
  case Op::FRsqrt:
    r = encodeFloat(1.0 / std::sqrt(a), t);
    break;
  case Op::FSin:
    r = encodeFloat(std::sin(a), t);
    break;
  case Op::FCos:
    r = encodeFloat(std::cos(a), t);
    break;
  case Op::FLg2:
    r = encodeFloat(std::log2(a), t);
    break;
  case Op::FEx2:
    r = encodeFloat(std::exp2(a), t);
    break;
  case Op::FTanh:
    r = encodeFloat(std::tanh(a), t);
    break;
  case Op::FCopysign:
    // copysign.type d, a, b: d = b with the sign of a.
    r = (bb & ~(uint64_t(1) << (typeBits(t) - 1))) |
        (ab & (uint64_t(1) << (typeBits(t) - 1)));
    return r;
  default:
    r = 0;
    break;
  }
  double v = floatValue(r, t);
  if (std::isnan(v) && op != Op::FMin && op != Op::FMax)
    return canonicalNaN(t);
  if (flags & kRelu && (v < 0 || std::isnan(v)))
    return std::isnan(v) ? canonicalNaN(t) : 0;
  if (flags & kSat) {
    if (std::isnan(v) || v <= 0)
      return encodeFloat(0.0, t);
    if (v >= 1)
      return encodeFloat(1.0, t);
  }
  if (ftz)
    r = flush(r, t);
  return r;
}

/// The same on a .f16x2 / .bf16x2 pair (lower and upper halves).
uint64_t floatOpAnyWidth(Op op, Type t, uint32_t flags, Rounding mode,
                         uint64_t a, uint64_t b, uint64_t c) {
  if (t == Type::F16x2 || t == Type::BF16x2) {
    Type e = t == Type::F16x2 ? Type::F16 : Type::BF16;
    uint64_t lo =
        floatOp(op, e, flags, mode, a & 0xffff, b & 0xffff, c & 0xffff);
    uint64_t hi = floatOp(op, e, flags, mode, (a >> 16) & 0xffff,
                          (b >> 16) & 0xffff, (c >> 16) & 0xffff);
    return (lo & 0xffff) | ((hi & 0xffff) << 16);
  }
  return floatOp(op, t, flags, mode, a, b, c);
}

namespace {

/// fmaf with the host's FMA instruction where it has one (libm's fmaf is a
/// call, and the emulator runs a great many of them).
[[gnu::target("fma")]] float fmaHardware(float a, float b, float c) {
  return __builtin_fmaf(a, b, c);
}
float fusedMultiplyAdd(float a, float b, float c) {
  static const bool hasFma = __builtin_cpu_supports("fma");
  return hasFma ? fmaHardware(a, b, c) : std::fma(a, b, c);
}

} // namespace

void Launch::executeFloat(Warp &w, const Instruction &in, uint32_t mask) {
  uint64_t bufA[kWarpSize], bufB[kWarpSize], bufC[kWarpSize];
  uint64_t sink[kWarpSize];
  auto dst = [&](const Operand &op) -> uint64_t * {
    return op.kind == OperandKind::Reg ? &w.regs[op.reg * kWarpSize] : sink;
  };
  auto src = [&](int i, uint64_t *buffer) {
    return lanes(w, in.ops[i], buffer, mask);
  };
  Type t = in.type;
  switch (in.op) {
  case Op::FAdd:
  case Op::FSub:
  case Op::FMul:
  case Op::FFma:
  case Op::FDiv:
  case Op::FMin:
  case Op::FMax:
  case Op::FCopysign: {
    if (profile && in.op != Op::FCopysign)
      countFlops(in, mask);
    const uint64_t *a = src(1, bufA), *b = src(2, bufB);
    const uint64_t *c = in.op == Op::FFma ? src(3, bufC) : nullptr;
    uint64_t *d = dst(in.ops[0]);
    if (t == Type::F32 && in.flags == 0 &&
        (in.rounding == Rounding::Default ||
         in.rounding == Rounding::NearestEven) &&
        in.op != Op::FDiv && in.op != Op::FMin && in.op != Op::FMax &&
        in.op != Op::FCopysign) {
      // The common case, on the host's own IEEE arithmetic.
      FOR_LANES {
        float x = floatOf(static_cast<uint32_t>(a[l])),
              y = floatOf(static_cast<uint32_t>(b[l]));
        float r =
            in.op == Op::FAdd   ? x + y
            : in.op == Op::FSub ? x - y
            : in.op == Op::FMul
                ? x * y
                : fusedMultiplyAdd(x, y, floatOf(static_cast<uint32_t>(c[l])));
        d[l] = std::isnan(r) ? kCanonicalNaN32 : bitsOf(r);
      }
      return;
    }
    FOR_LANES d[l] = floatOpAnyWidth(in.op, t, in.flags, in.rounding, a[l],
                                     b[l], c ? c[l] : 0);
    return;
  }
  case Op::FAbs:
  case Op::FNeg:
  case Op::FRcp:
  case Op::FSqrt:
  case Op::FRsqrt:
  case Op::FSin:
  case Op::FCos:
  case Op::FLg2:
  case Op::FEx2:
  case Op::FTanh: {
    if (profile && in.op != Op::FAbs && in.op != Op::FNeg)
      countFlops(in, mask);
    const uint64_t *a = src(1, bufA);
    uint64_t *d = dst(in.ops[0]);
    FOR_LANES d[l] =
        floatOpAnyWidth(in.op, t, in.flags, in.rounding, a[l], 0, 0);
    return;
  }
  case Op::Testp: {
    const uint64_t *a = src(1, bufA);
    uint64_t *d = dst(in.ops[0]);
    FOR_LANES {
      double x = floatValue(a[l], t);
      bool r = false;
      switch (in.subOp) {
      case 0:
        r = std::isfinite(x);
        break;
      case 1:
        r = std::isinf(x);
        break;
      case 2:
        r = !std::isnan(x);
        break;
      case 3:
        r = std::isnan(x);
        break;
      case 4:
        r = std::isnormal(x) && !isSubnormalBits(a[l], t);
        break;
      case 5:
        r = isSubnormalBits(a[l], t);
        break;
      }
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
