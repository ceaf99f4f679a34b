//===- Arithmetic.cpp - Integer arithmetic, comparisons, moves ------------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Integer and bitwise instructions (add ... lop3), comparisons and
// selection (setp, set, selp, slct) and mov (PTX ISA, "Integer Arithmetic
// Instructions", "Logic and Shift Instructions", "Comparison and Selection
// Instructions").
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

/// Integer comparison.
bool compareInt(CmpOp c, uint64_t a, uint64_t b, Type t) {
  int bits = typeBits(t);
  if (isSignedInt(t)) {
    int64_t x = signExtend(a, bits), y = signExtend(b, bits);
    switch (c) {
    case CmpOp::Eq:
      return x == y;
    case CmpOp::Ne:
      return x != y;
    case CmpOp::Lt:
      return x < y;
    case CmpOp::Le:
      return x <= y;
    case CmpOp::Gt:
      return x > y;
    case CmpOp::Ge:
      return x >= y;
    default:
      break;
    }
  }
  uint64_t x = maskBits(a, bits), y = maskBits(b, bits);
  switch (c) {
  case CmpOp::Eq:
    return x == y;
  case CmpOp::Ne:
    return x != y;
  case CmpOp::Lt:
  case CmpOp::Lo:
    return x < y;
  case CmpOp::Le:
  case CmpOp::Ls:
    return x <= y;
  case CmpOp::Gt:
  case CmpOp::Hi:
    return x > y;
  case CmpOp::Ge:
  case CmpOp::Hs:
    return x >= y;
  default:
    return false;
  }
}

uint64_t popcount64(uint64_t v) {
  return static_cast<uint64_t>(__builtin_popcountll(v));
}

} // namespace

void Launch::executeArithmetic(Warp &w, const Instruction &in, uint32_t mask) {
  uint64_t bufA[kWarpSize], bufB[kWarpSize], bufC[kWarpSize], bufD[kWarpSize];
  uint64_t sink[kWarpSize];
  auto dst = [&](const Operand &op) -> uint64_t * {
    return op.kind == OperandKind::Reg ? &w.regs[op.reg * kWarpSize] : sink;
  };
  auto src = [&](int i, uint64_t *buffer) {
    return lanes(w, in.ops[i], buffer, mask);
  };
  Type t = in.type;
  int bits = typeBits(t);
  bool isSigned = isSignedInt(t);
  switch (in.op) {
  case Op::Add:
  case Op::Sub: {
    const uint64_t *a = src(1, bufA), *b = src(2, bufB);
    uint64_t *d = dst(in.ops[0]);
    bool sub = in.op == Op::Sub;
    if (in.flags & kSat) {
      FOR_LANES {
        int64_t x = signExtend(a[l], bits), y = signExtend(b[l], bits);
        int64_t r = sub ? x - y : x + y;
        d[l] = maskBits(static_cast<uint64_t>(saturate(r, bits)), bits);
      }
      return;
    }
    FOR_LANES d[l] = maskBits(sub ? a[l] - b[l] : a[l] + b[l], bits);
    return;
  }
  case Op::Mul:
  case Op::Mad: {
    const uint64_t *a = src(1, bufA), *b = src(2, bufB);
    const uint64_t *c = in.op == Op::Mad ? src(3, bufC) : nullptr;
    uint64_t *d = dst(in.ops[0]);
    FOR_LANES {
      uint64_t r;
      if (in.flags & kWide) {
        uint64_t p = isSigned ? static_cast<uint64_t>(signExtend(a[l], bits) *
                                                      signExtend(b[l], bits))
                              : maskBits(a[l], bits) * maskBits(b[l], bits);
        r = maskBits(p + (c ? c[l] : 0), 2 * bits);
      } else if (in.flags & kHi) {
        __int128 p;
        if (isSigned)
          p = static_cast<__int128>(signExtend(a[l], bits)) *
              signExtend(b[l], bits);
        else
          p = static_cast<__int128>(
              static_cast<unsigned __int128>(maskBits(a[l], bits)) *
              maskBits(b[l], bits));
        r = static_cast<uint64_t>(p >> bits);
        if (c)
          r += c[l];
        r = maskBits(r, bits);
      } else {
        r = maskBits(a[l] * b[l] + (c ? c[l] : 0), bits);
      }
      if ((in.flags & kSat) && c && isSigned && !(in.flags & kWide)) {
        __int128 full = static_cast<__int128>(signExtend(a[l], bits)) *
                            signExtend(b[l], bits) +
                        signExtend(c[l], bits);
        if (in.flags & kHi)
          full = (static_cast<__int128>(signExtend(a[l], bits)) *
                      signExtend(b[l], bits) >>
                  bits) +
                 signExtend(c[l], bits);
        int64_t lo = -(int64_t(1) << (bits - 1)),
                hi = (int64_t(1) << (bits - 1)) - 1;
        int64_t s = full < lo   ? lo
                    : full > hi ? hi
                                : static_cast<int64_t>(full);
        r = maskBits(static_cast<uint64_t>(s), bits);
      }
      d[l] = r;
    }
    return;
  }
  case Op::Div:
  case Op::Rem: {
    const uint64_t *a = src(1, bufA), *b = src(2, bufB);
    uint64_t *d = dst(in.ops[0]);
    bool div = in.op == Op::Div;
    FOR_LANES {
      uint64_t r;
      if (isSigned) {
        int64_t x = signExtend(a[l], bits), y = signExtend(b[l], bits);
        if (y == 0)
          r = div ? ~uint64_t(0) : static_cast<uint64_t>(x);
        else if (y == -1)
          r = div ? static_cast<uint64_t>(-static_cast<uint64_t>(x)) : 0;
        else
          r = static_cast<uint64_t>(div ? x / y : x % y);
      } else {
        uint64_t x = maskBits(a[l], bits), y = maskBits(b[l], bits);
        r = y == 0 ? (div ? ~uint64_t(0) : x) : (div ? x / y : x % y);
      }
      d[l] = maskBits(r, bits);
    }
    return;
  }
  case Op::Abs:
  case Op::Neg: {
    const uint64_t *a = src(1, bufA);
    uint64_t *d = dst(in.ops[0]);
    FOR_LANES {
      int64_t x = signExtend(a[l], bits);
      uint64_t r = in.op == Op::Neg ? uint64_t(0) - static_cast<uint64_t>(x)
                   : x < 0          ? uint64_t(0) - static_cast<uint64_t>(x)
                                    : static_cast<uint64_t>(x);
      d[l] = maskBits(r, bits);
    }
    return;
  }
  case Op::Min:
  case Op::Max: {
    const uint64_t *a = src(1, bufA), *b = src(2, bufB);
    uint64_t *d = dst(in.ops[0]);
    bool isMax = in.op == Op::Max;
    FOR_LANES {
      uint64_t r;
      if (isSigned) {
        int64_t x = signExtend(a[l], bits), y = signExtend(b[l], bits);
        int64_t v = isMax ? std::max(x, y) : std::min(x, y);
        if ((in.flags & kRelu) && v < 0)
          v = 0;
        r = static_cast<uint64_t>(v);
      } else {
        uint64_t x = maskBits(a[l], bits), y = maskBits(b[l], bits);
        r = isMax ? std::max(x, y) : std::min(x, y);
      }
      d[l] = maskBits(r, bits);
    }
    return;
  }
  case Op::Popc:
  case Op::Clz:
  case Op::Bfind:
  case Op::Brev: {
    const uint64_t *a = src(1, bufA);
    uint64_t *d = dst(in.ops[0]);
    FOR_LANES {
      uint64_t x = maskBits(a[l], bits);
      uint64_t r = 0;
      if (in.op == Op::Popc) {
        r = popcount64(x);
      } else if (in.op == Op::Clz) {
        r = x ? static_cast<uint64_t>(__builtin_clzll(x) - (64 - bits))
              : static_cast<uint64_t>(bits);
      } else if (in.op == Op::Brev) {
        for (int i = 0; i < bits; ++i)
          if (x >> i & 1)
            r |= uint64_t(1) << (bits - 1 - i);
      } else {
        // bfind: the position of the most significant non-sign bit.
        uint64_t y = x;
        if (isSigned && (x >> (bits - 1) & 1))
          y = maskBits(~x, bits);
        if (!y) {
          r = 0xffffffffu;
        } else {
          r = static_cast<uint64_t>(63 - __builtin_clzll(y));
          if (in.flags & kHi)
            r = static_cast<uint64_t>(bits - 1) - r;
        }
      }
      d[l] = maskBits(r, in.op == Op::Brev ? bits : 32);
    }
    return;
  }
  case Op::Bfe: {
    const uint64_t *a = src(1, bufA), *b = src(2, bufB), *c = src(3, bufC);
    uint64_t *d = dst(in.ops[0]);
    FOR_LANES {
      uint32_t pos = static_cast<uint32_t>(b[l] & 0xff),
               len = static_cast<uint32_t>(c[l] & 0xff);
      uint64_t x = maskBits(a[l], bits);
      uint64_t r = 0;
      if (len) {
        int msb = bits - 1;
        uint32_t top =
            std::min<uint32_t>(pos + len - 1, static_cast<uint32_t>(msb));
        uint64_t sbit = isSigned ? (x >> top & 1) : 0;
        for (int i = 0; i < bits; ++i) {
          uint64_t bit =
              (static_cast<uint32_t>(i) < len &&
               pos + static_cast<uint32_t>(i) <= static_cast<uint32_t>(msb))
                  ? (x >> (pos + i) & 1)
                  : sbit;
          r |= bit << i;
        }
      }
      d[l] = r;
    }
    return;
  }
  case Op::Bfi: {
    const uint64_t *a = src(1, bufA), *b = src(2, bufB), *c = src(3, bufC),
                   *e = src(4, bufD);
    uint64_t *d = dst(in.ops[0]);
    FOR_LANES {
      uint32_t pos = static_cast<uint32_t>(c[l] & 0xff),
               len = static_cast<uint32_t>(e[l] & 0xff);
      uint64_t r = maskBits(b[l], bits);
      for (uint32_t i = 0; i < len && pos + i < static_cast<uint32_t>(bits);
           ++i) {
        uint64_t bit = a[l] >> i & 1;
        r = (r & ~(uint64_t(1) << (pos + i))) | (bit << (pos + i));
      }
      d[l] = r;
    }
    return;
  }
  case Op::Prmt: {
    const uint64_t *a = src(1, bufA), *b = src(2, bufB), *c = src(3, bufC);
    uint64_t *d = dst(in.ops[0]);
    if (in.subOp) {
      fail(LaunchError::IllegalInstruction, w, __builtin_ctz(mask),
           "prmt modes other than the default are not supported");
      return;
    }
    FOR_LANES {
      uint64_t bytes = (maskBits(a[l], 32)) | (maskBits(b[l], 32) << 32);
      uint32_t sel = static_cast<uint32_t>(c[l]);
      uint32_t r = 0;
      for (int i = 0; i < 4; ++i) {
        uint32_t s = sel >> (4 * i) & 0xf;
        uint32_t byte = static_cast<uint32_t>(bytes >> (8 * (s & 7)) & 0xff);
        if (s & 8)
          byte = (byte & 0x80) ? 0xff : 0;
        r |= byte << (8 * i);
      }
      d[l] = r;
    }
    return;
  }
  case Op::Shf: {
    const uint64_t *a = src(1, bufA), *b = src(2, bufB), *c = src(3, bufC);
    uint64_t *d = dst(in.ops[0]);
    FOR_LANES {
      uint32_t n = static_cast<uint32_t>(c[l]);
      n = (in.flags & kWrap) ? n & 31 : std::min<uint32_t>(n, 32);
      uint64_t pair = maskBits(a[l], 32) | (maskBits(b[l], 32) << 32);
      uint64_t r = (in.flags & kLeft) ? (pair << n) >> 32 : (pair >> n);
      d[l] = maskBits(r, 32);
    }
    return;
  }
  case Op::And:
  case Op::Or:
  case Op::Xor: {
    const uint64_t *a = src(1, bufA), *b = src(2, bufB);
    uint64_t *d = dst(in.ops[0]);
    int w2 = t == Type::Pred ? 1 : bits;
    FOR_LANES {
      uint64_t x = a[l], y = b[l];
      uint64_t r = in.op == Op::And ? x & y : in.op == Op::Or ? x | y : x ^ y;
      d[l] = maskBits(r, w2);
    }
    return;
  }
  case Op::Not:
  case Op::Cnot: {
    const uint64_t *a = src(1, bufA);
    uint64_t *d = dst(in.ops[0]);
    int w2 = t == Type::Pred ? 1 : bits;
    FOR_LANES {
      uint64_t x = maskBits(a[l], w2);
      d[l] = in.op == Op::Not ? maskBits(~x, w2) : (x == 0 ? 1 : 0);
    }
    return;
  }
  case Op::Shl:
  case Op::Shr: {
    const uint64_t *a = src(1, bufA), *b = src(2, bufB);
    uint64_t *d = dst(in.ops[0]);
    FOR_LANES {
      uint64_t n = maskBits(b[l], 32);
      uint64_t r;
      if (in.op == Op::Shl) {
        r = n >= static_cast<uint64_t>(bits) ? 0 : a[l] << n;
      } else if (isSigned) {
        int64_t x = signExtend(a[l], bits);
        r = static_cast<uint64_t>(
            n >= static_cast<uint64_t>(bits) ? (x < 0 ? -1 : 0) : x >> n);
      } else {
        uint64_t x = maskBits(a[l], bits);
        r = n >= static_cast<uint64_t>(bits) ? 0 : x >> n;
      }
      d[l] = maskBits(r, bits);
    }
    return;
  }
  case Op::Lop3: {
    const uint64_t *a = src(1, bufA), *b = src(2, bufB), *c = src(3, bufC);
    uint64_t *d = dst(in.ops[0]);
    uint32_t lut = static_cast<uint32_t>(read(w, in.ops[4], 0));
    FOR_LANES {
      uint64_t r = 0;
      for (int i = 0; i < 8; ++i)
        if (lut >> i & 1)
          r |= ((i & 4) ? a[l] : ~a[l]) & ((i & 2) ? b[l] : ~b[l]) &
               ((i & 1) ? c[l] : ~c[l]);
      d[l] = maskBits(r, bits);
    }
    return;
  }
  case Op::Setp:
  case Op::Set: {
    Type ct = in.op == Op::Setp ? t : in.type2;
    const uint64_t *a = src(1, bufA), *b = src(2, bufB);
    const uint64_t *c = in.numOperands > 3 ? src(3, bufC) : nullptr;
    uint64_t *d = dst(in.ops[0]);
    uint64_t *q =
        in.ops[0].reg2 >= 0 ? &w.regs[in.ops[0].reg2 * kWarpSize] : nullptr;
    bool isFloat = isFloatType(ct);
    bool ftz = in.flags & kFtz;
    FOR_LANES {
      bool r;
      if (isFloat) {
        if (ct == Type::F16x2 || ct == Type::BF16x2) {
          // Not used by setp into one predicate here.
          r = false;
        } else {
          uint64_t x = ftz ? flush(a[l], ct) : a[l];
          uint64_t y = ftz ? flush(b[l], ct) : b[l];
          r = compareFloat(in.cmp, floatValue(x, ct), floatValue(y, ct));
        }
      } else {
        r = compareInt(in.cmp, a[l], b[l], ct);
      }
      bool nr = !r;
      if (c) {
        bool cv = c[l] & 1;
        switch (in.boolOp) {
        case BoolOp::And:
          r = r && cv;
          nr = nr && cv;
          break;
        case BoolOp::Or:
          r = r || cv;
          nr = nr || cv;
          break;
        case BoolOp::Xor:
          r = r != cv;
          nr = nr != cv;
          break;
        default:
          break;
        }
      }
      if (in.op == Op::Setp) {
        d[l] = r;
        if (q)
          q[l] = nr;
      } else {
        Type dt = in.type;
        d[l] = isFloatType(dt) ? (r ? encodeFloat(1.0, dt) : 0)
                               : (r ? maskBits(~uint64_t(0), typeBits(dt)) : 0);
      }
    }
    return;
  }
  case Op::Selp: {
    const uint64_t *a = src(1, bufA), *b = src(2, bufB), *c = src(3, bufC);
    uint64_t *d = dst(in.ops[0]);
    FOR_LANES d[l] = maskBits((c[l] & 1) ? a[l] : b[l], bits);
    return;
  }
  case Op::Slct: {
    const uint64_t *a = src(1, bufA), *b = src(2, bufB), *c = src(3, bufC);
    uint64_t *d = dst(in.ops[0]);
    FOR_LANES {
      bool pick = in.type2 == Type::F32
                      ? floatOf(static_cast<uint32_t>(c[l])) >= 0.0f
                      : signExtend(c[l], 32) >= 0;
      d[l] = maskBits(pick ? a[l] : b[l], bits);
    }
    return;
  }
  case Op::Mov: {
    const Operand &to = in.ops[0], &from = in.ops[1];
    if (from.kind == OperandKind::Vector) {
      // Pack: element 0 in the low bits.
      int n = from.count, width = bits / n;
      uint64_t *d = dst(to);
      FOR_LANES {
        uint64_t v = 0;
        for (int i = 0; i < n; ++i)
          v |= maskBits(read(w, kernel.pool[from.first + i], l), width)
               << (i * width);
        d[l] = v;
      }
      return;
    }
    if (to.kind == OperandKind::Vector) {
      int n = to.count, width = bits / n;
      FOR_LANES {
        uint64_t v = read(w, from, l);
        for (int i = 0; i < n; ++i)
          write(w, kernel.pool[to.first + i], l,
                maskBits(v >> (i * width), width));
      }
      return;
    }
    const uint64_t *a = src(1, bufA);
    uint64_t *d = dst(to);
    int b = t == Type::Pred ? 1 : bits;
    FOR_LANES d[l] = maskBits(a[l], b);
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
