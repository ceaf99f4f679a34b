//===- WarpCollectives.cpp - Warp and cluster collectives -----------------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Data exchange within a warp (shfl.sync, vote.sync, activemask,
// redux.sync, elect.sync) and cluster addressing (mapa, getctarank) (PTX
// ISA, "Parallel Synchronization and Communication Instructions").
//
//===----------------------------------------------------------------------===//

#include "ScalarOps.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>

namespace amp {
namespace emu {

void Launch::executeWarpCollective(Warp &w, const Instruction &in,
                                   uint32_t mask) {
  uint64_t bufA[kWarpSize], bufB[kWarpSize], bufC[kWarpSize];
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
  case Op::Shfl: {
    const uint64_t *a = src(1, bufA), *b = src(2, bufB), *c = src(3, bufC);
    uint64_t *d = dst(in.ops[0]);
    uint64_t *p =
        in.ops[0].reg2 >= 0 ? &w.regs[in.ops[0].reg2 * kWarpSize] : nullptr;
    uint64_t result[kWarpSize];
    bool valid[kWarpSize];
    FOR_LANES {
      uint32_t bval = static_cast<uint32_t>(b[l]) & 31;
      uint32_t cval = static_cast<uint32_t>(c[l]) & 31;
      uint32_t segmask = (static_cast<uint32_t>(c[l]) >> 8) & 31;
      uint32_t lane = static_cast<uint32_t>(l);
      uint32_t maxLane = (lane & segmask) | (cval & ~segmask);
      uint32_t minLane = lane & segmask;
      int32_t j = 0;
      bool pval = false;
      switch (in.subOp) {
      case 0:
        j = static_cast<int32_t>(lane) - static_cast<int32_t>(bval);
        pval = j >= static_cast<int32_t>(maxLane);
        break;
      case 1:
        j = static_cast<int32_t>(lane + bval);
        pval = j <= static_cast<int32_t>(maxLane);
        break;
      case 2:
        j = static_cast<int32_t>(lane ^ bval);
        pval = j <= static_cast<int32_t>(maxLane);
        break;
      default:
        j = static_cast<int32_t>(minLane | (bval & ~segmask));
        pval = j <= static_cast<int32_t>(maxLane);
        break;
      }
      if (!pval)
        j = l;
      if (!(mask >> j & 1)) {
        fail(LaunchError::LaunchFailed, w, l,
             "shfl.sync reads lane " + std::to_string(j) +
                 ", which does not take part");
        return;
      }
      result[l] = a[j];
      valid[l] = pval;
    }
    FOR_LANES {
      d[l] = maskBits(result[l], 32);
      if (p)
        p[l] = valid[l];
    }
    return;
  }
  case Op::Vote: {
    const uint64_t *a = src(1, bufA);
    uint64_t *d = dst(in.ops[0]);
    uint32_t ballot = 0;
    FOR_LANES ballot |= (a[l] & 1 ? 1u : 0u) << l;
    FOR_LANES {
      switch (in.subOp) {
      case 0:
        d[l] = ballot == mask;
        break;
      case 1:
        d[l] = ballot != 0;
        break;
      case 2:
        d[l] = ballot == mask || ballot == 0;
        break;
      default:
        d[l] = ballot;
        break;
      }
    }
    return;
  }
  case Op::Activemask: {
    uint64_t *d = dst(in.ops[0]);
    FOR_LANES d[l] = w.active;
    return;
  }
  case Op::Redux: {
    const uint64_t *a = src(1, bufA);
    uint64_t *d = dst(in.ops[0]);
    bool first = true;
    uint64_t acc = 0;
    FOR_LANES {
      uint64_t v = maskBits(a[l], bits);
      if (first) {
        acc = v;
        first = false;
        continue;
      }
      switch (in.subOp) {
      case 0:
        acc += v;
        break;
      case 1:
        acc = isSigned ? static_cast<uint64_t>(std::min(signExtend(acc, bits),
                                                        signExtend(v, bits)))
                       : std::min(acc, v);
        break;
      case 2:
        acc = isSigned ? static_cast<uint64_t>(std::max(signExtend(acc, bits),
                                                        signExtend(v, bits)))
                       : std::max(acc, v);
        break;
      case 3:
        acc &= v;
        break;
      case 4:
        acc |= v;
        break;
      default:
        acc ^= v;
        break;
      }
    }
    FOR_LANES d[l] = maskBits(acc, bits);
    return;
  }
  case Op::ElectSync: {
    uint64_t *d = dst(in.ops[0]);
    uint64_t *p =
        in.ops[0].reg2 >= 0 ? &w.regs[in.ops[0].reg2 * kWarpSize] : nullptr;
    int leader = __builtin_ctz(mask);
    FOR_LANES {
      d[l] = static_cast<uint64_t>(leader);
      if (p)
        p[l] = l == leader;
    }
    return;
  }
  case Op::Mapa: {
    const uint64_t *a = src(1, bufA), *b = src(2, bufB);
    uint64_t *d = dst(in.ops[0]);
    FOR_LANES {
      uint64_t x = a[l];
      uint32_t rank = static_cast<uint32_t>(b[l]);
      if (rank >= clusterSize) {
        fail(LaunchError::IllegalAddress, w, l,
             "mapa to CTA rank " + std::to_string(rank) +
                 " outside the cluster of " + std::to_string(clusterSize));
        return;
      }
      bool generic = in.space == Space::Generic;
      uint64_t off = generic ? x - kSharedWindow : x;
      off &= 0xffffff;
      uint64_t r = (uint64_t(rank + 1) << 24) | off;
      d[l] = maskBits(generic ? r + kSharedWindow : r, bits);
    }
    return;
  }
  case Op::Getctarank: {
    const uint64_t *a = src(1, bufA);
    uint64_t *d = dst(in.ops[0]);
    FOR_LANES {
      uint64_t x = a[l];
      if (in.space == Space::Generic)
        x -= kSharedWindow;
      uint32_t field = static_cast<uint32_t>(x >> 24) & 0xff;
      d[l] = field ? field - 1 : w.cta->rank;
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
