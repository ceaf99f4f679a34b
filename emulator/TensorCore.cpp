//===- TensorCore.cpp - ldmatrix, mma.sync and wgmma ----------------------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The warp-collective matrix instructions, with the fragment layouts of the
// PTX ISA:
//
//  - ldmatrix / stmatrix .m8n8 (.x1/.x2/.x4, .trans): lane i supplies the
//    address of row i % 8 of matrix i / 8; lane l receives elements
//    (l / 4, 2 * (l % 4) + {0, 1}) of each matrix (transposed with .trans).
//  - mma.sync.aligned.m16n8k16 / m16n8k8 .row.col with f16/bf16 inputs and
//    f32 (or f16) accumulators: groupID g = lane / 4, t = lane % 4;
//    A element a_i at row g + 8 * ((i / 2) % 2), column 2t + i % 2 +
//    8 * (i / 4); B element b_i at row 2t + i % 2 + 8 * (i / 2), column g;
//    C/D element c_i at row g + 8 * (i / 2), column 2t + i % 2.
//  - wgmma.mma_async.m64nNk16 (sm_90a), and m64nNk32 with .e4m3/.e5m2
//    inputs (either type for A and for B; no transposes: A and B K-major
//    in shared memory): the warpgroup computes a 64xN tile,
//    warp w of the warpgroup rows 16w..16w+15 with the C/D layout of
//    m16n8 repeated over N / 8 column blocks; A and B come from shared
//    memory through matrix descriptors (start address, leading and stride
//    byte offsets, swizzle mode) in the canonical K-major and MN-major
//    layouts, with 32/64/128-byte swizzling applied to address bits
//    [4, 4 + log2(swizzle / 16)) from bits [7, ...). A may come from
//    registers instead (the mma.sync A layout per warp).
//
// Products of 16-bit and of 8-bit inputs are exact in f32; sums are
// accumulated in f32 in K order. Hardware adds in an unspecified order and
// internal precision (for FP8, DeepGEMM reports it imprecise enough to
// promote partial sums to f32 every few MMAs).
//
//===----------------------------------------------------------------------===//

#include "Executor.h"

#include <algorithm>
#include <cstring>

namespace amp {
namespace emu {

namespace {

float inputValue(uint16_t bits, Type t) {
  return t == Type::BF16 ? bfloatToFloat(bits) : halfToFloat(bits);
}

/// Every value of an FP8 format as a float (exact), filled on first use.
struct Fp8Table {
  float values[2][256];
  Fp8Table() {
    for (int b = 0; b < 256; ++b) {
      values[0][b] = static_cast<float>(
          fp8ToDouble(static_cast<uint8_t>(b), Fp8Format::E4M3));
      values[1][b] = static_cast<float>(
          fp8ToDouble(static_cast<uint8_t>(b), Fp8Format::E5M2));
    }
  }
};

/// The value of an .e4m3 or .e5m2 element.
float fp8Value(uint8_t bits, Type t) {
  static const Fp8Table table;
  return table.values[t == Type::E5M2][bits];
}

/// The profile's class of a Tensor Core input type.
MmaKind mmaKind(Type t) {
  switch (t) {
  case Type::BF16:
    return MmaKind::BF16;
  case Type::TF32:
    return MmaKind::TF32;
  case Type::E4M3:
  case Type::E5M2:
    return MmaKind::F8;
  case Type::S8:
  case Type::U8:
    return MmaKind::Int8;
  default:
    return MmaKind::F16;
  }
}

/// Element i (16 bits) of a fragment held in 32-bit registers `regs`.
uint16_t half(const uint64_t *const *regs, int i, int lane) {
  return static_cast<uint16_t>(regs[i / 2][lane] >> (16 * (i % 2)));
}

} // namespace

/// The byte offset of element (mn, k) of a shared-memory matrix operand of
/// wgmma, described by a matrix descriptor, before the address swizzle.
uint32_t wgmmaElementOffset(uint64_t desc, bool mnMajor, uint32_t elemBytes,
                            uint32_t mn, uint32_t k) {
  uint32_t lbo = static_cast<uint32_t>((desc >> 16) & 0x3fff) << 4;
  uint32_t sbo = static_cast<uint32_t>((desc >> 32) & 0x3fff) << 4;
  uint32_t mode = static_cast<uint32_t>(desc >> 62) & 3;
  uint32_t swizzleBytes = mode == 1 ? 128 : mode == 2 ? 64 : mode == 3 ? 32 : 0;
  uint32_t t = 16 / elemBytes; // elements per 16 bytes
  if (!mnMajor) {
    if (!swizzleBytes)
      return (mn % 8) * 16 + (mn / 8) * sbo + (k % t) * elemBytes +
             (k / t) * lbo;
    return (mn % 8) * swizzleBytes + (mn / 8) * sbo + k * elemBytes;
  }
  if (!swizzleBytes)
    return (mn % t) * elemBytes + (mn / t) * sbo + (k % 8) * 16 +
           (k / 8) * lbo;
  uint32_t atom = swizzleBytes / elemBytes; // elements along MN per row
  return (mn % atom) * elemBytes + (mn / atom) * lbo + (k % 8) * swizzleBytes +
         (k / 8) * sbo;
}

/// Applies the swizzle of a descriptor (or a TMA map) to a shared address.
uint32_t swizzleAddress(uint32_t address, uint32_t swizzleBytes) {
  switch (swizzleBytes) {
  case 128:
    return address ^ (((address >> 7) & 7) << 4);
  case 64:
    return address ^ (((address >> 7) & 3) << 4);
  case 32:
    return address ^ (((address >> 7) & 1) << 4);
  default:
    return address;
  }
}

void Launch::executeTensorCore(Warp &w, const Instruction &in, uint32_t mask) {
  int leader = __builtin_ctz(mask);
  if (in.op == Op::WgmmaFence) {
    w.fenced = true;
    return;
  }
  if (in.op == Op::WgmmaCommit) {
    w.wgmmaGroups.push_back(std::move(w.wgmmaOpen));
    w.wgmmaOpen = WgmmaGroup();
    w.wgmmaOpenUsed = false;
    return;
  }
  if (in.op == Op::WgmmaWait) {
    uint32_t keep = static_cast<uint32_t>(read(w, in.ops[0], leader));
    retireWgmma(w, keep);
    w.fenced = false;
    return;
  }
  if (mask != 0xffffffffu) {
    fail(LaunchError::LaunchFailed, w, leader,
         "a warp-collective matrix instruction executed by " +
             std::to_string(__builtin_popcount(mask)) +
             " lanes (.sync.aligned needs all 32)");
    return;
  }

  if (in.op == Op::Ldmatrix || in.op == Op::Stmatrix) {
    bool load = in.op == Op::Ldmatrix;
    int count = in.m;
    bool trans = in.flags & kTrans;
    const Operand &addrOp = in.ops[load ? 1 : 0];
    const Operand &regs = in.ops[load ? 0 : 1];
    if (regs.kind != OperandKind::Vector || regs.count != count) {
      fail(LaunchError::IllegalInstruction, w, leader,
           "ldmatrix/stmatrix register count does not match .x" +
               std::to_string(count));
      return;
    }
    for (int mi = 0; mi < count; ++mi) {
      uint16_t matrix[8][8];
      uint8_t *rows[8];
      for (int r = 0; r < 8; ++r) {
        int lane = mi * 8 + r;
        uint64_t a = address(w, addrOp, lane);
        Space space = in.space;
        rows[r] = access(w, lane, space, a, 16,
                         load ? Access::Read : Access::Write, 16);
        if (!rows[r])
          return;
        if (load)
          std::memcpy(matrix[r], rows[r], 16);
      }
      const Operand &reg = kernel.pool[regs.first + mi];
      uint64_t sink[kWarpSize];
      uint64_t *out =
          reg.kind == OperandKind::Reg ? &w.regs[reg.reg * kWarpSize] : sink;
      for (int l = 0; l < kWarpSize; ++l) {
        int g = l / 4, q = l % 4;
        if (load) {
          uint16_t lo = trans ? matrix[2 * q][g] : matrix[g][2 * q];
          uint16_t hi = trans ? matrix[2 * q + 1][g] : matrix[g][2 * q + 1];
          out[l] = static_cast<uint64_t>(lo) | (uint64_t(hi) << 16);
        } else {
          uint64_t v = read(w, reg, l);
          uint16_t lo = static_cast<uint16_t>(v), hi = static_cast<uint16_t>(v >> 16);
          if (trans) {
            matrix[2 * q][g] = lo;
            matrix[2 * q + 1][g] = hi;
          } else {
            matrix[g][2 * q] = lo;
            matrix[g][2 * q + 1] = hi;
          }
        }
      }
      if (!load)
        for (int r = 0; r < 8; ++r)
          std::memcpy(rows[r], matrix[r], 16);
    }
    return;
  }

  if (in.op == Op::Mma) {
    if (profile)
      profile->mmaMacs[static_cast<int>(mmaKind(in.type2))] +=
          uint64_t(in.m) * in.n * in.k;
    const Operand &dOp = in.ops[0], &aOp = in.ops[1], &bOp = in.ops[2],
                  &cOp = in.ops[3];
    int kDim = in.k;
    bool f16Acc = in.type == Type::F16, f16C = in.type3 == Type::F16;
    int aRegs = kDim == 16 ? 4 : 2, bRegs = kDim == 16 ? 2 : 1;
    int cRegs = f16C ? 2 : 4, dRegs = f16Acc ? 2 : 4;
    if (aOp.count != aRegs || bOp.count != bRegs || cOp.count != cRegs ||
        dOp.count != dRegs) {
      fail(LaunchError::IllegalInstruction, w, leader,
           "mma operand vectors have the wrong number of registers");
      return;
    }
    const uint64_t *a[4], *b[2], *c[4];
    uint64_t abuf[4][kWarpSize], bbuf[2][kWarpSize], cbuf[4][kWarpSize];
    for (int i = 0; i < aRegs; ++i)
      a[i] = lanes(w, kernel.pool[aOp.first + i], abuf[i], mask);
    for (int i = 0; i < bRegs; ++i)
      b[i] = lanes(w, kernel.pool[bOp.first + i], bbuf[i], mask);
    for (int i = 0; i < cRegs; ++i)
      c[i] = lanes(w, kernel.pool[cOp.first + i], cbuf[i], mask);
    float A[16][16], B[16][8], C[16][8];
    Type t = in.type2;
    for (int l = 0; l < kWarpSize; ++l) {
      int g = l / 4, q = l % 4;
      for (int i = 0; i < 2 * aRegs; ++i) {
        int row = g + 8 * ((i / 2) % 2), col = 2 * q + i % 2 + 8 * (i / 4);
        A[row][col] = inputValue(half(a, i, l), t);
      }
      for (int i = 0; i < 2 * bRegs; ++i) {
        int row = 2 * q + i % 2 + 8 * (i / 2);
        B[row][g] = inputValue(half(b, i, l), t);
      }
      for (int i = 0; i < 4; ++i) {
        int row = g + 8 * (i / 2), col = 2 * q + i % 2;
        C[row][col] = f16C ? halfToFloat(half(c, i, l))
                           : floatOf(static_cast<uint32_t>(c[i][l]));
      }
    }
    // D = C + A * B, each element summed in K order. Products of 16-bit
    // values are exact in f32, so acc + a * b is the correctly rounded fma.
    float D[16][8];
    for (int r = 0; r < 16; ++r) {
      for (int col = 0; col < 8; ++col)
        D[r][col] = C[r][col];
      for (int k = 0; k < kDim; ++k)
        for (int col = 0; col < 8; ++col)
          D[r][col] += A[r][k] * B[k][col];
    }
    uint64_t *d[4];
    uint64_t sink[kWarpSize];
    for (int i = 0; i < dRegs; ++i) {
      const Operand &reg = kernel.pool[dOp.first + i];
      d[i] = reg.kind == OperandKind::Reg ? &w.regs[reg.reg * kWarpSize] : sink;
    }
    for (int l = 0; l < kWarpSize; ++l) {
      int g = l / 4, q = l % 4;
      if (f16Acc) {
        for (int i = 0; i < 2; ++i) {
          int row = g + 8 * i;
          d[i][l] = uint64_t(toHalf(D[row][2 * q])) |
                    (uint64_t(toHalf(D[row][2 * q + 1])) << 16);
        }
        continue;
      }
      for (int i = 0; i < 4; ++i)
        d[i][l] = bitsOf(D[g + 8 * (i / 2)][2 * q + i % 2]);
    }
    return;
  }

  // wgmma.mma_async.
  if (!module.archSpecific || module.smVersion != 90) {
    fail(LaunchError::IllegalInstruction, w, leader,
         "wgmma.mma_async needs a module for sm_90a (this one targets " +
             module.target + ")",
         /*fatal=*/true);
    return;
  }
  if (!w.fenced) {
    fail(LaunchError::LaunchFailed, w, leader,
         "wgmma.mma_async without a wgmma.fence since the warp last waited "
         "for (or started) wgmma operations");
    return;
  }
  const Operand &dOp = in.ops[0];
  bool aFromRegs = in.ops[1].kind == OperandKind::Vector;
  int n = in.n;
  bool f16Acc = in.type == Type::F16;
  int dCount = f16Acc ? n / 4 : n / 2;
  if (dOp.kind != OperandKind::Vector || dOp.count != dCount) {
    fail(LaunchError::IllegalInstruction, w, leader,
         "wgmma accumulator vector has " + std::to_string(dOp.count) +
             " registers, m64n" + std::to_string(n) + " needs " +
             std::to_string(dCount));
    return;
  }
  // Operand order: d, a, b, scale-d, imm-scale-a, imm-scale-b
  //                [, imm-trans-a], imm-trans-b
  // The FP8 forms (k32) have no imm-trans operands: A and B are K-major.
  int kDim = in.k;
  bool fp8 = kDim == 32;
  uint32_t elemBytes = fp8 ? 1 : 2;
  int next = 2;
  uint64_t bDesc = read(w, in.ops[next++], leader);
  bool scaleD = read(w, in.ops[next++], leader) & 1;
  int64_t scaleA = signExtend(read(w, in.ops[next++], leader), 32);
  int64_t scaleB = signExtend(read(w, in.ops[next++], leader), 32);
  bool transA = false, transB = false;
  if (!fp8) {
    if (!aFromRegs)
      transA = read(w, in.ops[next++], leader) & 1;
    transB =
        next < in.numOperands ? (read(w, in.ops[next], leader) & 1) : false;
  }
  if (fp8 && aFromRegs) {
    fail(LaunchError::IllegalInstruction, w, leader,
         "wgmma with FP8 inputs and A in registers is not implemented by the "
         "emulator",
         /*fatal=*/true);
    return;
  }
  Type t = in.type2, tB = fp8 ? in.type3 : in.type2;
  uint32_t wgWarp = w.index % 4;
  // Each warp computes 16 of the 64 rows.
  if (profile)
    profile->mmaMacs[static_cast<int>(mmaKind(t))] +=
        uint64_t(16) * in.n * in.k;
  float A[16][32];
  float B[32][256];
  WgmmaGroup &group = w.wgmmaOpen;
  w.wgmmaOpenUsed = true;
  group.line = in.line;
  // Shared-memory operands: the address of every element (the canonical
  // layouts are made of whole 16-byte rows, so the checks and the in-flight
  // marks work on the 16-byte chunks the elements fall in), then the values.
  std::vector<uint32_t> chunks;
  auto addresses = [&](uint64_t desc, bool mnMajor, uint32_t mn0,
                       uint32_t mnCount, uint32_t *out) {
    if ((desc >> 49) & 7) {
      fail(LaunchError::IllegalInstruction, w, leader,
           "wgmma matrix descriptors with a nonzero base offset are not "
           "supported",
           /*fatal=*/true);
      return false;
    }
    uint32_t start = static_cast<uint32_t>(desc & 0x3fff) << 4;
    uint32_t mode = static_cast<uint32_t>(desc >> 62) & 3;
    uint32_t swz = mode == 1 ? 128 : mode == 2 ? 64 : mode == 3 ? 32 : 0;
    for (uint32_t k = 0; k < static_cast<uint32_t>(kDim); ++k)
      for (uint32_t i = 0; i < mnCount; ++i) {
        uint32_t a = swizzleAddress(
            start + wgmmaElementOffset(desc, mnMajor, elemBytes, mn0 + i, k),
            swz);
        out[k * mnCount + i] = a;
        chunks.push_back(a & ~15u);
      }
    return true;
  };
  uint32_t aAddr[16 * 32], bAddr[32 * 256];
  uint64_t aDesc = 0;
  if (!aFromRegs) {
    aDesc = read(w, in.ops[1], leader);
    if (!addresses(aDesc, transA, 16 * wgWarp, 16, aAddr))
      return;
  }
  if (!addresses(bDesc, transB, 0, static_cast<uint32_t>(n), bAddr))
    return;
  std::sort(chunks.begin(), chunks.end());
  chunks.erase(std::unique(chunks.begin(), chunks.end()), chunks.end());
  for (uint32_t c : chunks) {
    // In flight until wgmma.wait_group: writes to it are errors.
    if (!access(w, 0, Space::Shared, c, 16, Access::Read))
      return;
    updateSpecial(*w.cta, c, 16, [](SpecialByte &b) { b.asyncReads++; });
    if (!group.reads.empty() && group.reads.back().second == c)
      group.reads.back().second = c + 16;
    else
      group.reads.push_back({c, c + 16});
  }
  const uint8_t *smem = w.cta->shared.data();
  auto value = [&](uint32_t a, Type type) {
    if (fp8)
      return fp8Value(smem[a], type);
    uint16_t bits;
    std::memcpy(&bits, smem + a, 2);
    return inputValue(bits, type);
  };
  if (aFromRegs) {
    const Operand &aOp = in.ops[1];
    if (aOp.count != 4) {
      fail(LaunchError::IllegalInstruction, w, leader,
           "wgmma A registers: 4 expected");
      return;
    }
    for (int l = 0; l < kWarpSize; ++l) {
      int g = l / 4, q = l % 4;
      for (int i = 0; i < 8; ++i) {
        uint64_t v = read(w, kernel.pool[aOp.first + i / 2], l);
        int row = g + 8 * ((i / 2) % 2), col = 2 * q + i % 2 + 8 * (i / 4);
        A[row][col] = inputValue(static_cast<uint16_t>(v >> (16 * (i % 2))), t);
      }
    }
  } else {
    for (int k = 0; k < kDim; ++k)
      for (uint32_t r = 0; r < 16; ++r)
        A[r][k] = value(aAddr[k * 16 + r], t);
  }
  for (int k = 0; k < kDim; ++k)
    for (int col = 0; col < n; ++col)
      B[k][col] = value(bAddr[k * n + col], tB);
  if (scaleA < 0)
    for (auto &row : A)
      for (float &v : row)
        v = -v;
  if (scaleB < 0)
    for (int k = 0; k < kDim; ++k)
      for (int col = 0; col < n; ++col)
        B[k][col] = -B[k][col];
  // D = (scale-d ? C : 0) + A * B for this warp's 16 rows: gather C from
  // the registers, accumulate in K order (vectorized over the columns),
  // scatter back. The registers are written now and readable after the
  // wait; until then they are in flight.
  static thread_local float D[16][256];
  int per = f16Acc ? 2 : 1;
  uint64_t *regs[128];
  uint64_t sink[kWarpSize];
  for (int j = 0; j < dCount; ++j) {
    const Operand &reg = kernel.pool[dOp.first + j];
    regs[j] = reg.kind == OperandKind::Reg ? &w.regs[reg.reg * kWarpSize] : sink;
    if (reg.kind == OperandKind::Reg) {
      if (!w.inflight[reg.reg]) {
        w.inflight[reg.reg] = 1;
        ++w.inflightCount;
      }
      group.registers.push_back(reg.reg);
    }
  }
  for (int l = 0; l < kWarpSize; ++l) {
    int g = l / 4, q = l % 4;
    for (int j = 0; j < dCount; ++j) {
      uint64_t old = regs[j][l];
      for (int h = 0; h < per; ++h) {
        int i = j * per + h;
        int row = g + 8 * ((i % 4) / 2), col = 8 * (i / 4) + 2 * q + i % 2;
        D[row][col] =
            !scaleD ? 0.0f
            : f16Acc ? halfToFloat(static_cast<uint16_t>(old >> (16 * h)))
                     : floatOf(static_cast<uint32_t>(old));
      }
    }
  }
  for (int r = 0; r < 16; ++r)
    for (int k = 0; k < kDim; ++k) {
      float a = A[r][k];
      for (int col = 0; col < n; ++col)
        D[r][col] += a * B[k][col]; // exact products, as above
    }
  for (int l = 0; l < kWarpSize; ++l) {
    int g = l / 4, q = l % 4;
    for (int j = 0; j < dCount; ++j) {
      uint64_t out = 0;
      for (int h = 0; h < per; ++h) {
        int i = j * per + h;
        int row = g + 8 * ((i % 4) / 2), col = 8 * (i / 4) + 2 * q + i % 2;
        if (f16Acc)
          out |= uint64_t(toHalf(D[row][col])) << (16 * h);
        else
          out = bitsOf(D[row][col]);
      }
      regs[j][l] = out;
    }
  }
}

void Launch::retireWgmma(Warp &w, uint32_t keep) {
  while (w.wgmmaGroups.size() > keep) {
    WgmmaGroup &g = w.wgmmaGroups.front();
    for (int32_t slot : g.registers)
      if (w.inflight[slot]) {
        w.inflight[slot] = 0;
        --w.inflightCount;
      }
    for (const auto &range : g.reads)
      updateSpecial(*w.cta, range.first, range.second - range.first,
                    [](SpecialByte &b) {
                      if (b.asyncReads)
                        b.asyncReads--;
                    });
    w.wgmmaGroups.erase(w.wgmmaGroups.begin());
  }
  // Registers of groups still pending stay in flight; re-mark them (a
  // register can be in several groups).
  for (const WgmmaGroup &g : w.wgmmaGroups)
    for (int32_t slot : g.registers)
      if (!w.inflight[slot]) {
        w.inflight[slot] = 1;
        ++w.inflightCount;
      }
  for (int32_t slot : w.wgmmaOpen.registers)
    if (!w.inflight[slot]) {
      w.inflight[slot] = 1;
      ++w.inflightCount;
    }
}

bool Launch::checkInflight(Warp &w, const Instruction &in, uint32_t mask) {
  if (in.op == Op::Wgmma || in.op == Op::WgmmaWait ||
      in.op == Op::WgmmaCommit || in.op == Op::WgmmaFence || !mask)
    return true;
  auto check = [&](const Operand &op) -> bool {
    if (op.kind == OperandKind::Reg && w.inflight[op.reg])
      return false;
    if (op.kind == OperandKind::Address && op.reg >= 0 && w.inflight[op.reg])
      return false;
    if (op.kind == OperandKind::Vector)
      for (int i = 0; i < op.count; ++i) {
        const Operand &e = kernel.pool[op.first + i];
        if (e.kind == OperandKind::Reg && w.inflight[e.reg])
          return false;
      }
    return true;
  };
  for (int i = 0; i < in.numOperands; ++i)
    if (!check(in.ops[i])) {
      fail(LaunchError::LaunchFailed, w, __builtin_ctz(mask),
           "an instruction accesses a wgmma accumulator register before the "
           "wgmma.wait_group that covers it");
      return !aborted();
    }
  return true;
}

} // namespace emu
} // namespace amp
