//===- EmulatorTest.cpp - PTX emulator semantics against the PTX ISA -------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Hand-written PTX kernels run on the emulator, checked against the tables
// of the PTX ISA: the ldmatrix and mma.m16n8k16 fragment layouts (section
// "Matrix Fragments for mma.m16n8k16"), the wgmma accumulator layout and
// shared-memory matrix descriptors in the canonical K-major and MN-major
// layouts with 128-byte swizzling ("Shared Memory Matrix Layout",
// "Matrix Descriptor Format"), TMA tile loads with zero fill, mbarrier
// phases, cp.async groups, conversions; and the checks: each misuse must
// fail with a message naming what went wrong.
//
//===----------------------------------------------------------------------===//

#include "EmulatorFixture.h"
#include "TensorMap.h"

#include "gtest/gtest.h"

#include <cstring>
#include <random>

using namespace amp::emu;
using namespace amp::emu::unittest;

namespace {

//===----------------------------------------------------------------------===//
// Parsing
//===----------------------------------------------------------------------===//

TEST_F(Emulator, ParsesParamsSharedLayoutAndScopedLabels) {
  auto m = load(R"(
.extern .shared .align 16 .b8 dyn[];
.visible .entry k(.param .u32 a, .param .u64 .ptr .align 1 b, .param .align 8 .b8 c[24])
.maxntid 64, 1, 1
{
  .reg .pred %p<2>;
  .reg .b32 %r<4>;
  .shared .align 8 .b8 bar[24];
  .shared .align 4 .b8 small[3];
  { .reg .pred P; L: setp.eq.b32 P, 1, 1; @P bra D; bra L; D: }
  { .reg .pred P; L: setp.eq.b32 P, 1, 1; @P bra D; bra L; D: }
  mov.b32 %r1, dyn;
  mov.b32 %r2, small;
  ret;
}
)");
  ASSERT_TRUE(m);
  const Kernel &k = *m->kernels[0];
  ASSERT_EQ(k.params.size(), 3u);
  EXPECT_EQ(k.params[0].offset, 0u);
  EXPECT_EQ(k.params[1].offset, 8u); // u64 aligned to 8
  EXPECT_EQ(k.params[2].offset, 16u);
  EXPECT_EQ(k.paramBytes, 40u);
  EXPECT_EQ(k.maxntid[0], 64u);
  // Static variables first (bar at 0, small at 24), then the dynamic
  // shared memory at the next 16-byte boundary.
  EXPECT_EQ(k.staticSharedBytes, 27u);
  EXPECT_EQ(k.dynamicSharedAlign, 16u);
  // Each inline-asm copy branches to its own label D.
  EXPECT_EQ(k.code[1].target, 3u);
  EXPECT_EQ(k.code[4].target, 6u);
  EXPECT_EQ(k.code[6].ops[1].imm, 32); // dyn
  EXPECT_EQ(k.code[7].ops[1].imm, 24); // small
}

TEST_F(Emulator, SyntaxErrorsNameTheLine) {
  std::string error;
  auto m = device.loadModule(std::string(kHeader) +
                                 ".visible .entry k()\n{\n  add.s32 %r1, %r2, 1;\n}\n",
                             error);
  EXPECT_FALSE(m);
  EXPECT_NE(error.find("line 6"), std::string::npos) << error;
  EXPECT_NE(error.find("undeclared register %r1"), std::string::npos) << error;
}

TEST_F(Emulator, UnsupportedInstructionFailsWhenExecuted) {
  auto m = load(R"(
.visible .entry k(.param .u64 out)
{
  .reg .b32 %r<4>;
  .reg .pred %p<2>;
  mov.u32 %r1, %tid.x;
  setp.eq.u32 %p1, %r1, 99;
  @%p1 sad.u32 %r2, %r1, %r1, %r1;
  ret;
}
)");
  ASSERT_TRUE(m);
  // Never executed (no thread 99): fine.
  EXPECT_TRUE(run(*m, "k", {1, 1, 1}, {32, 1, 1}, {0}).ok());
  auto m2 = load(R"(
.visible .entry k2()
{
  .reg .b32 %r<4>;
  sad.u32 %r2, %r1, %r1, %r1;
  ret;
}
)");
  LaunchResult r = run(*m2, "k2", {1, 1, 1}, {32, 1, 1}, {});
  EXPECT_EQ(r.error, LaunchError::IllegalInstruction);
  EXPECT_NE(r.message.find("does not implement"), std::string::npos);
  EXPECT_NE(r.message.find("kernel k2, line 8: sad.u32"), std::string::npos)
      << r.message;
}

//===----------------------------------------------------------------------===//
// Control flow
//===----------------------------------------------------------------------===//

// Diverged threads meet again at the immediate post-dominator of the
// branch, also when the loop latch is laid out before the header (as LLVM
// does): a warp-collective after the loop sees all 32 lanes.
TEST_F(Emulator, DivergedThreadsReconvergeAtThePostDominator) {
  auto m = load(R"(
.visible .entry k(.param .u64 out)
{
  .reg .pred %p<4>;
  .reg .b32 %r<10>;
  .reg .b64 %rd<4>;
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, 0;
  bra.uni HEAD;
LATCH:
  add.s32 %r2, %r2, 1;
HEAD:
  setp.lt.u32 %p1, %r2, %r1;
  @%p1 bra LATCH;
  setp.eq.u32 %p2, %r1, 0;
  @%p2 bra ELSE;
  add.s32 %r3, %r2, 100;
  bra.uni JOIN;
ELSE:
  mov.u32 %r3, 7;
JOIN:
  setp.ne.u32 %p3, %r3, 0;
  vote.sync.ballot.b32 %r4, %p3, 0xffffffff;
  add.s32 %r5, %r3, %r4;
  ld.param.u64 %rd1, [out];
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r5;
  ret;
}
)");
  uint64_t out = zeros(32 * 4);
  ASSERT_TRUE(run(*m, "k", {1, 1, 1}, {32, 1, 1}, {out}).ok());
  auto v = download<uint32_t>(out, 32);
  EXPECT_EQ(v[0], 7u + 0xffffffffu);
  for (uint32_t t = 1; t < 32; ++t)
    EXPECT_EQ(v[t], t + 100u + 0xffffffffu) << t;
}

TEST_F(Emulator, ShflButterflyReduction) {
  auto m = load(R"(
.visible .entry k(.param .u64 out)
{
  .reg .b32 %r<10>;
  .reg .b64 %rd<4>;
  mov.u32 %r1, %tid.x;
  shfl.sync.bfly.b32 %r2, %r1, 16, 31, 0xffffffff;
  add.s32 %r3, %r1, %r2;
  shfl.sync.bfly.b32 %r2, %r3, 8, 31, 0xffffffff;
  add.s32 %r3, %r3, %r2;
  shfl.sync.bfly.b32 %r2, %r3, 4, 31, 0xffffffff;
  add.s32 %r3, %r3, %r2;
  shfl.sync.bfly.b32 %r2, %r3, 2, 31, 0xffffffff;
  add.s32 %r3, %r3, %r2;
  shfl.sync.bfly.b32 %r2, %r3, 1, 31, 0xffffffff;
  add.s32 %r3, %r3, %r2;
  ld.param.u64 %rd1, [out];
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r3;
  ret;
}
)");
  uint64_t out = zeros(32 * 4);
  ASSERT_TRUE(run(*m, "k", {1, 1, 1}, {32, 1, 1}, {out}).ok());
  for (uint32_t v : download<uint32_t>(out, 32))
    EXPECT_EQ(v, 496u); // 0 + 1 + ... + 31
}

//===----------------------------------------------------------------------===//
// Conversions
//===----------------------------------------------------------------------===//

TEST_F(Emulator, ConversionsRoundAndPack) {
  auto m = load(R"(
.visible .entry k(.param .u64 out)
{
  .reg .b32 %r<10>;
  .reg .b16 %rs<4>;
  .reg .f32 %f<4>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  mov.f32 %f1, 0f3F800001;
  cvt.rn.f16.f32 %rs1, %f1;
  cvt.rp.f16.f32 %rs2, %f1;
  mov.b32 %r1, {%rs1, %rs2};
  st.global.u32 [%rd1], %r1;
  mov.f32 %f2, 0fC0200000;
  cvt.rni.s32.f32 %r2, %f2;
  cvt.rmi.s32.f32 %r3, %f2;
  st.global.u32 [%rd1+4], %r2;
  st.global.u32 [%rd1+8], %r3;
  mov.f32 %f3, 0f4F800000;
  cvt.rzi.sat.s32.f32 %r4, %f3;
  st.global.u32 [%rd1+12], %r4;
  mov.f32 %f1, 0f3F800000;
  mov.f32 %f2, 0f40000000;
  cvt.rn.f16x2.f32 %r5, %f1, %f2;
  st.global.u32 [%rd1+16], %r5;
  cvt.sat.f32.f32 %f3, %f2;
  st.global.f32 [%rd1+20], %f3;
  ret;
}
)");
  uint64_t out = zeros(6 * 4);
  ASSERT_TRUE(run(*m, "k", {1, 1, 1}, {1, 1, 1}, {out}).ok());
  auto v = download<uint32_t>(out, 6);
  EXPECT_EQ(v[0], 0x3c013c00u); // rn -> 1.0 (low half), rp -> next f16
  EXPECT_EQ(v[1], uint32_t(-2)); // -2.5 to nearest even
  EXPECT_EQ(v[2], uint32_t(-3)); // -2.5 down
  EXPECT_EQ(v[3], 0x7fffffffu); // 2^32 saturates
  // cvt.f16x2.f32 d, a, b: a in the upper half.
  EXPECT_EQ(v[4], (uint32_t(f16(1.0f)) << 16) | f16(2.0f));
  EXPECT_EQ(floatOf(v[5]), 1.0f);
}

//===----------------------------------------------------------------------===//
// ldmatrix and mma.sync
//===----------------------------------------------------------------------===//

/// Element (matrix m, row r, column c) of the ldmatrix test: its index.
uint16_t ldmElement(int m, int r, int c) {
  return static_cast<uint16_t>((m * 8 + r) * 8 + c);
}

void checkLdmatrix(const std::vector<uint32_t> &v, bool trans) {
  // PTX ISA, ldmatrix: lane l holds, of each matrix, row l / 4, columns
  // 2 * (l % 4) and 2 * (l % 4) + 1 (transposed with .trans).
  for (int l = 0; l < 32; ++l)
    for (int mi = 0; mi < 4; ++mi) {
      int row = l / 4, col = 2 * (l % 4);
      uint16_t lo = trans ? ldmElement(mi, col, row) : ldmElement(mi, row, col);
      uint16_t hi =
          trans ? ldmElement(mi, col + 1, row) : ldmElement(mi, row, col + 1);
      EXPECT_EQ(v[l * 4 + mi], lo | (uint32_t(hi) << 16))
          << "lane " << l << " matrix " << mi << (trans ? " trans" : "");
    }
}

TEST_F(Emulator, LdmatrixFragmentLayout) {
  for (bool trans : {false, true}) {
    std::string op = trans ? "ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16"
                           : "ldmatrix.sync.aligned.m8n8.x4.shared.b16";
    auto m = load(R"(
.visible .entry k(.param .u64 out)
{
  .reg .pred %p<2>;
  .reg .b16 %rs<2>;
  .reg .b32 %r<12>;
  .reg .b64 %rd<10>;
  .shared .align 16 .b8 sm[512];
  mov.u32 %r1, %tid.x;
  mov.u64 %rd1, sm;
  mul.wide.u32 %rd2, %r1, 16;
  add.s64 %rd3, %rd1, %rd2;
  shl.b32 %r2, %r1, 3;
  mov.u32 %r3, 0;
LOOP:
  add.s32 %r4, %r2, %r3;
  cvt.u16.u32 %rs1, %r4;
  mul.wide.u32 %rd4, %r3, 2;
  add.s64 %rd5, %rd3, %rd4;
  st.shared.b16 [%rd5], %rs1;
  add.s32 %r3, %r3, 1;
  setp.lt.u32 %p1, %r3, 8;
  @%p1 bra LOOP;
  bar.sync 0;
  )" + op + R"( {%r5, %r6, %r7, %r8}, [%rd3];
  ld.param.u64 %rd6, [out];
  add.s64 %rd8, %rd6, %rd2;
  st.global.v4.b32 [%rd8], {%r5, %r6, %r7, %r8};
  ret;
}
)");
    uint64_t out = zeros(32 * 16);
    ASSERT_TRUE(run(*m, "k", {1, 1, 1}, {32, 1, 1}, {out}).ok());
    checkLdmatrix(download<uint32_t>(out, 128), trans);
  }
}

// A (16x16, row-major) through ldmatrix.x4, B (16x8, row-major K x N)
// through ldmatrix.x2.trans, mma.m16n8k16, and D stored with the C/D
// layout of the ISA (row g + 8 * (i / 2), column 2t + i % 2): D = A * B.
TEST_F(Emulator, MmaSyncM16n8k16WithLdmatrixOperands) {
  for (const char *type : {"f16", "bf16"}) {
    bool bf = std::string(type) == "bf16";
    auto m = load(std::string(R"(
.visible .entry k(.param .u64 pa, .param .u64 pb, .param .u64 pd)
{
  .reg .b32 %r<40>;
  .reg .b64 %rd<20>;
  .reg .f32 %f<8>;
  .shared .align 16 .b8 sm[768];
  mov.u32 %r1, %tid.x;
  ld.param.u64 %rd1, [pa];
  ld.param.u64 %rd2, [pb];
  ld.param.u64 %rd3, [pd];
  mov.u64 %rd4, sm;
  mul.wide.u32 %rd5, %r1, 16;
  add.s64 %rd6, %rd1, %rd5;
  ld.global.v4.b32 {%r2, %r3, %r4, %r5}, [%rd6];
  add.s64 %rd7, %rd4, %rd5;
  st.shared.v4.b32 [%rd7], {%r2, %r3, %r4, %r5};
  mul.wide.u32 %rd8, %r1, 8;
  add.s64 %rd9, %rd2, %rd8;
  ld.global.v2.b32 {%r6, %r7}, [%rd9];
  add.s64 %rd10, %rd4, %rd8;
  st.shared.v2.b32 [%rd10+512], {%r6, %r7};
  bar.sync 0;
  and.b32 %r8, %r1, 7;
  shr.u32 %r9, %r1, 3;
  and.b32 %r9, %r9, 1;
  shl.b32 %r10, %r9, 3;
  add.s32 %r11, %r8, %r10;
  shr.u32 %r12, %r1, 4;
  mul.lo.u32 %r13, %r11, 32;
  shl.b32 %r14, %r12, 4;
  add.s32 %r15, %r13, %r14;
  cvt.u64.u32 %rd11, %r15;
  add.s64 %rd12, %rd4, %rd11;
  ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%r16, %r17, %r18, %r19}, [%rd12];
  and.b32 %r20, %r1, 15;
  mul.wide.u32 %rd13, %r20, 16;
  add.s64 %rd14, %rd4, %rd13;
  ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%r21, %r22}, [%rd14+512];
  mov.f32 %f1, 0f00000000;
  mma.sync.aligned.m16n8k16.row.col.f32.)") + type + "." + type + R"(.f32 {%f2, %f3, %f4, %f5}, {%r16, %r17, %r18, %r19}, {%r21, %r22}, {%f1, %f1, %f1, %f1};
  shr.u32 %r23, %r1, 2;
  and.b32 %r24, %r1, 3;
  mul.lo.u32 %r25, %r23, 8;
  shl.b32 %r26, %r24, 1;
  add.s32 %r27, %r25, %r26;
  mul.wide.u32 %rd15, %r27, 4;
  add.s64 %rd16, %rd3, %rd15;
  st.global.v2.f32 [%rd16], {%f2, %f3};
  st.global.v2.f32 [%rd16+256], {%f4, %f5};
  ret;
}
)");
    std::mt19937 rng(1);
    std::vector<float> a(256), b(128);
    std::vector<uint16_t> ah(256), bh(128);
    for (int i = 0; i < 256; ++i) {
      a[i] = float(int(rng() % 9) - 4);
      ah[i] = bf ? toBFloat(a[i]) : f16(a[i]);
    }
    for (int i = 0; i < 128; ++i) {
      b[i] = float(int(rng() % 9) - 4) * 0.5f;
      bh[i] = bf ? toBFloat(b[i]) : f16(b[i]);
    }
    uint64_t d = zeros(128 * 4);
    ASSERT_TRUE(run(*m, "k", {1, 1, 1}, {32, 1, 1}, {upload(ah), upload(bh), d})
                    .ok());
    auto out = download<float>(d, 128);
    for (int r = 0; r < 16; ++r)
      for (int c = 0; c < 8; ++c) {
        float want = 0;
        for (int k = 0; k < 16; ++k)
          want += a[r * 16 + k] * b[k * 8 + c];
        EXPECT_EQ(out[r * 8 + c], want) << type << " D[" << r << "][" << c << "]";
      }
  }
}

// stmatrix is the inverse of ldmatrix: lane l's registers go to row l / 4,
// columns 2 * (l % 4) and + 1 of each matrix.
TEST_F(Emulator, StmatrixFragmentLayout) {
  auto m = load(R"(
.visible .entry k(.param .u64 out)
{
  .reg .b32 %r<12>;
  .reg .b64 %rd<10>;
  .shared .align 16 .b8 sm[512];
  mov.u32 %r1, %tid.x;
  shl.b32 %r2, %r1, 16;
  or.b32 %r3, %r2, %r1;
  add.s32 %r4, %r3, 0x01000100;
  add.s32 %r5, %r3, 0x02000200;
  add.s32 %r6, %r3, 0x03000300;
  mov.u64 %rd1, sm;
  mul.wide.u32 %rd2, %r1, 16;
  add.s64 %rd3, %rd1, %rd2;
  stmatrix.sync.aligned.m8n8.x4.shared.b16 [%rd3], {%r3, %r4, %r5, %r6};
  bar.sync 0;
  ld.shared.v4.b32 {%r7, %r8, %r9, %r10}, [%rd3];
  ld.param.u64 %rd4, [out];
  add.s64 %rd5, %rd4, %rd2;
  st.global.v4.b32 [%rd5], {%r7, %r8, %r9, %r10};
  ret;
}
)");
  uint64_t out = zeros(512);
  LaunchResult r = run(*m, "k", {1, 1, 1}, {32, 1, 1}, {out});
  ASSERT_TRUE(r.ok()) << r.message;
  auto v = download<uint16_t>(out, 256);
  // Lane l stored (l + 256 * i) in both halves of register i (matrix i);
  // element (row, col) of matrix i comes from lane 4 * row + col / 2.
  for (int mi = 0; mi < 4; ++mi)
    for (int row = 0; row < 8; ++row)
      for (int col = 0; col < 8; ++col)
        EXPECT_EQ(v[(mi * 8 + row) * 8 + col], 4 * row + col / 2 + 256 * mi)
            << "matrix " << mi << " (" << row << ", " << col << ")";
}

TEST_F(Emulator, SharedMemoryOutOfBoundsIsAnError) {
  auto m = load(R"(
.extern .shared .align 16 .b8 dyn[];
.visible .entry k()
{
  .reg .b32 %r<4>;
  mov.u32 %r1, 7;
  st.shared.u32 [dyn+1024], %r1;
  ret;
}
)");
  LaunchResult r = run(*m, "k", {1, 1, 1}, {1, 1, 1}, {}, 1024);
  EXPECT_EQ(r.error, LaunchError::IllegalAddress);
  EXPECT_NE(r.message.find("out-of-bounds shared memory store of 4 bytes at "
                           "offset 1024: the CTA has 1024 bytes (0 static + "
                           "1024 dynamic)"),
            std::string::npos)
      << r.message;
}

// Two CTAs of a cluster exchange values through distributed shared memory
// (mapa + ld.shared::cluster) between cluster barriers.
TEST_F(Emulator, ClusterDistributedSharedMemory) {
  auto m = load(R"(
.visible .entry k(.param .u64 out)
.reqnctapercluster 2, 1, 1
{
  .reg .b32 %r<10>;
  .reg .b64 %rd<8>;
  .shared .align 4 .b8 sm[4];
  mov.u32 %r1, %cluster_ctarank;
  mov.u32 %r2, %ctaid.x;
  add.s32 %r3, %r2, 100;
  st.shared.u32 [sm], %r3;
  barrier.cluster.arrive.aligned;
  barrier.cluster.wait.aligned;
  xor.b32 %r4, %r1, 1;
  mov.u32 %r5, sm;
  mapa.shared::cluster.u32 %r6, %r5, %r4;
  ld.shared::cluster.u32 %r7, [%r6];
  mov.u32 %r8, %cluster_nctarank;
  mul.lo.u32 %r9, %r8, 1000;
  add.s32 %r7, %r7, %r9;
  ld.param.u64 %rd1, [out];
  mul.wide.u32 %rd2, %r2, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r7;
  barrier.cluster.arrive.aligned;
  barrier.cluster.wait.aligned;
  ret;
}
)");
  uint64_t out = zeros(4 * 4);
  LaunchResult r = run(*m, "k", {4, 1, 1}, {1, 1, 1}, {out});
  ASSERT_TRUE(r.ok()) << r.message;
  auto v = download<uint32_t>(out, 4);
  // CTA i reads its partner's ctaid + 100 (partner: i ^ 1), plus 2000.
  for (uint32_t i = 0; i < 4; ++i)
    EXPECT_EQ(v[i], (i ^ 1) + 100 + 2000) << i;
}

//===----------------------------------------------------------------------===//
// wgmma
//===----------------------------------------------------------------------===//

void runWgmma(Emulator *t, bool transB) {
  const int n = transB ? 128 : 8;
  const uint32_t aBytes = 64 * 128, bBase = aBytes; // A: 64 rows x 128 B
  const uint32_t lbo = 8192, sbo = 1024;
  std::vector<uint8_t> image(aBytes + (transB ? 16384 : 1024), 0);
  std::mt19937 rng(9);
  std::vector<float> a(64 * 16), b(16 * n);
  for (int r = 0; r < 64; ++r)
    for (int k = 0; k < 16; ++k) {
      a[r * 16 + k] = float(int(rng() % 7) - 3);
      uint16_t h = f16(a[r * 16 + k]);
      std::memcpy(&image[swizzle128(canonical128(false, r, k, 0, sbo))], &h, 2);
    }
  for (int k = 0; k < 16; ++k)
    for (int c = 0; c < n; ++c) {
      b[k * n + c] = float(int(rng() % 5) - 2) * 0.25f;
      uint16_t h = f16(b[k * n + c]);
      uint32_t off = bBase + canonical128(transB, c, k, lbo, sbo);
      std::memcpy(&image[swizzle128(off)], &h, 2);
    }
  int count = n / 2;
  std::string regs = floatRegisterList(count);
  std::string stores = floatRegisterStores(count);
  auto m = t->load(wgmmaKernelPrologue(count, image.size()) + R"(  wgmma.fence.sync.aligned;
  wgmma.mma_async.sync.aligned.m64n)" + std::to_string(n) +
                   R"(k16.f32.f16.f16 {)" + regs + R"(}, %rd9, %rd10, %p2, 1, 1, 0, )" +
                   (transB ? "1" : "0") + R"(;
  wgmma.commit_group.sync.aligned;
  wgmma.wait_group.sync.aligned 0;
  ld.param.u64 %rd4, [out];
  mul.wide.u32 %rd11, %r1, )" + std::to_string(count * 4) + R"(;
  add.s64 %rd5, %rd4, %rd11;
)" + stores + R"(  ret;
}
)");
  ASSERT_TRUE(m);
  uint64_t out = t->zeros(128 * count * 4);
  LaunchResult r = t->run(
      *m, "k", {1, 1, 1}, {128, 1, 1},
      {t->upload(image), image.size(), descriptor(0, 16, sbo),
       descriptor(bBase, lbo, sbo), out});
  ASSERT_TRUE(r.ok()) << r.message;
  auto d = t->download<float>(out, 128 * count);
  // wgmma accumulator layout: warp w of the warpgroup holds rows 16w..;
  // register i of lane l: row 16w + l/4 + 8 * ((i % 4) / 2), column
  // 8 * (i / 4) + 2 * (l % 4) + i % 2.
  for (int tid = 0; tid < 128; ++tid)
    for (int i = 0; i < count; ++i) {
      int w = tid / 32, l = tid % 32;
      int row = 16 * w + l / 4 + 8 * ((i % 4) / 2);
      int col = 8 * (i / 4) + 2 * (l % 4) + i % 2;
      float want = 0;
      for (int k = 0; k < 16; ++k)
        want += a[row * 16 + k] * b[k * n + col];
      ASSERT_EQ(d[tid * count + i], want)
          << "D[" << row << "][" << col << "] (thread " << tid << ", d" << i
          << ")";
    }
}

TEST_F(Emulator, WgmmaKMajorSwizzled128) { runWgmma(this, false); }
TEST_F(Emulator, WgmmaMNMajorBSwizzled128) { runWgmma(this, true); }

//===----------------------------------------------------------------------===//
// TMA and mbarriers
//===----------------------------------------------------------------------===//

// A 2-D tile load of an f16 tensor (100 x 40) at coordinates that run past
// both edges: out-of-bounds elements are zero, the box lands with the
// 128-byte swizzle, and the mbarrier phase completes with its transaction
// bytes.
TEST_F(Emulator, TmaTileLoadZeroFillAndSwizzle) {
  const int rows = 100, cols = 40, boxCols = 64, boxRows = 8;
  std::vector<uint16_t> g(rows * cols);
  for (int i = 0; i < rows * cols; ++i)
    g[i] = static_cast<uint16_t>(i + 1);
  uint64_t ga = upload(g);
  TensorMap map;
  uint64_t dims[2] = {cols, rows}, strides[1] = {cols * 2};
  uint32_t box[2] = {boxCols, boxRows}, es[2] = {1, 1};
  std::string why;
  ASSERT_TRUE(encodeTensorMap(map, kTmFloat16, 2, ga, dims, strides, box, es,
                              0, 3, 0, 0, why))
      << why;
  std::vector<uint8_t> raw(128, 0);
  std::memcpy(raw.data(), &map, sizeof(map));
  uint64_t tmap = upload(raw);
  auto m = load(R"(
.visible .entry k(.param .u64 tmap, .param .u64 out)
{
  .reg .pred %p<4>;
  .reg .b32 %r<8>;
  .reg .b64 %rd<12>;
  .shared .align 1024 .b8 sm[1024];
  .shared .align 8 .b8 bar[8];
  mov.u32 %r1, %tid.x;
  setp.ne.u32 %p1, %r1, 0;
  @%p1 bra WAIT;
  ld.param.u64 %rd1, [tmap];
  mbarrier.init.shared.b64 [bar], 1;
  mbarrier.arrive.expect_tx.shared.b64 %rd2, [bar], 1024;
  mov.b32 %r2, 16;
  mov.b32 %r3, 96;
  cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [sm], [%rd1, {%r2, %r3}], [bar];
WAIT:
  bar.sync 0;
  mov.b32 %r4, 0;
  { .reg .pred P; W: mbarrier.try_wait.parity.shared.b64 P, [bar], %r4; @!P bra W; }
  ld.param.u64 %rd3, [out];
  mul.wide.u32 %rd4, %r1, 8;
  mov.u64 %rd5, sm;
  add.s64 %rd6, %rd5, %rd4;
  ld.shared.u64 %rd7, [%rd6];
  add.s64 %rd8, %rd3, %rd4;
  st.global.u64 [%rd8], %rd7;
  ret;
}
)");
  uint64_t out = zeros(1024);
  LaunchResult r = run(*m, "k", {1, 1, 1}, {128, 1, 1}, {tmap, out});
  ASSERT_TRUE(r.ok()) << r.message;
  auto bytes = download<uint8_t>(out, 1024);
  for (int br = 0; br < boxRows; ++br)
    for (int bc = 0; bc < boxCols; ++bc) {
      int gr = 96 + br, gc = 16 + bc;
      uint16_t want = (gr < rows && gc < cols) ? g[gr * cols + gc] : 0;
      uint32_t at = swizzle128(static_cast<uint32_t>(br * 128 + bc * 2));
      uint16_t got;
      std::memcpy(&got, &bytes[at], 2);
      ASSERT_EQ(got, want) << "box (" << br << ", " << bc << ")";
    }
}

TEST_F(Emulator, TensorMapArgumentsAreValidated) {
  TensorMap map;
  uint64_t dims[2] = {40, 100}, strides[1] = {81};
  uint32_t box[2] = {64, 8}, es[2] = {1, 1};
  std::string why;
  EXPECT_FALSE(encodeTensorMap(map, kTmFloat16, 2, 256, dims, strides, box, es,
                               0, 3, 0, 0, why));
  EXPECT_NE(why.find("multiple of 16"), std::string::npos) << why;
  strides[0] = 80;
  box[0] = 128; // 256 bytes > the 128-byte swizzle span
  EXPECT_FALSE(encodeTensorMap(map, kTmFloat16, 2, 256, dims, strides, box, es,
                               0, 3, 0, 0, why));
  EXPECT_NE(why.find("swizzle span"), std::string::npos) << why;
}

// Each of 64 threads arrives; the phase completes on the last arrival and
// a parity wait then succeeds; the returned state tokens name phase 0.
TEST_F(Emulator, MbarrierPhasesAndParity) {
  auto m = load(R"(
.visible .entry k(.param .u64 out)
{
  .reg .pred %p<4>;
  .reg .b32 %r<8>;
  .reg .b64 %rd<8>;
  .shared .align 8 .b8 bar[8];
  mov.u32 %r1, %tid.x;
  setp.ne.u32 %p1, %r1, 0;
  @%p1 bra ARRIVE;
  mbarrier.init.shared.b64 [bar], 64;
ARRIVE:
  bar.sync 0;
  mbarrier.arrive.shared.b64 %rd1, [bar];
  mov.b32 %r2, 0;
  { .reg .pred P; W: mbarrier.try_wait.parity.shared.b64 P, [bar], %r2; @!P bra W; }
  mov.b32 %r3, 1;
  mbarrier.test_wait.parity.shared.b64 %p2, [bar], %r3;
  selp.u32 %r4, 1, 0, %p2;
  ld.param.u64 %rd2, [out];
  mul.wide.u32 %rd3, %r1, 16;
  add.s64 %rd4, %rd2, %rd3;
  st.global.u64 [%rd4], %rd1;
  st.global.u32 [%rd4+8], %r4;
  ret;
}
)");
  uint64_t out = zeros(64 * 16);
  LaunchResult r = run(*m, "k", {1, 1, 1}, {64, 1, 1}, {out});
  ASSERT_TRUE(r.ok()) << r.message;
  auto v = download<uint32_t>(out, 64 * 4);
  for (int t = 0; t < 64; ++t) {
    EXPECT_EQ(v[t * 4], 0u);     // the token of phase 0
    EXPECT_EQ(v[t * 4 + 2], 0u); // phase 1 (parity 1) not complete
  }
}

//===----------------------------------------------------------------------===//
// Checks
//===----------------------------------------------------------------------===//

TEST_F(Emulator, OutOfBoundsStoreIsAnError) {
  auto m = load(R"(
.visible .entry k(.param .u64 out)
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<4>;
  mov.u32 %r1, %tid.x;
  ld.param.u64 %rd1, [out];
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r1;
  ret;
}
)");
  uint64_t out = zeros(31 * 4);
  LaunchResult r = run(*m, "k", {1, 1, 1}, {32, 1, 1}, {out});
  EXPECT_EQ(r.error, LaunchError::IllegalAddress);
  EXPECT_NE(r.message.find("store of 4 bytes"), std::string::npos) << r.message;
  EXPECT_NE(r.message.find("0 bytes past the end of the 124-byte allocation"),
            std::string::npos)
      << r.message;
  EXPECT_NE(r.message.find("thread (31,0,0)"), std::string::npos) << r.message;
}

TEST_F(Emulator, MisalignedLoadIsAnError) {
  auto m = load(R"(
.visible .entry k(.param .u64 p)
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [p];
  ld.global.u32 %r1, [%rd1+2];
  ret;
}
)");
  LaunchResult r = run(*m, "k", {1, 1, 1}, {1, 1, 1}, {zeros(64)});
  EXPECT_EQ(r.error, LaunchError::MisalignedAddress);
  EXPECT_NE(r.message.find("misaligned load"), std::string::npos) << r.message;
}

// Thread t writes sm[t] and reads sm[t + 1] (written by thread t + 1) with
// no barrier in between: a race.
TEST_F(Emulator, SharedMemoryRaceWithoutBarrier) {
  for (bool withBarrier : {false, true}) {
    auto m = load(std::string(R"(
.visible .entry k(.param .u64 out)
{
  .reg .b32 %r<6>;
  .reg .b64 %rd<8>;
  .shared .align 4 .b8 sm[260];
  mov.u32 %r1, %tid.x;
  mov.u64 %rd1, sm;
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.shared.u32 [%rd3], %r1;
  st.shared.u32 [%rd3+4], %r1;
  )") + (withBarrier ? "bar.sync 0;" : "") + R"(
  ld.shared.u32 %r2, [%rd3+4];
  ret;
}
)");
    LaunchResult r = run(*m, "k", {1, 1, 1}, {64, 1, 1}, {0});
    if (withBarrier) {
      // Still a write-write race (t and t+1 both write sm[t+1]).
      EXPECT_FALSE(r.ok());
      continue;
    }
    EXPECT_EQ(r.error, LaunchError::LaunchFailed);
    EXPECT_NE(r.message.find("shared memory race"), std::string::npos)
        << r.message;
  }
}

TEST_F(Emulator, UninitializedSharedReadIsAnError) {
  auto m = load(R"(
.visible .entry k()
{
  .reg .b32 %r<4>;
  .shared .align 4 .b8 sm[128];
  ld.shared.u32 %r1, [sm+8];
  ret;
}
)");
  LaunchResult r = run(*m, "k", {1, 1, 1}, {32, 1, 1}, {});
  EXPECT_NE(r.message.find("no thread of this CTA has written"),
            std::string::npos)
      << r.message;
}

// cp.async groups land at the wait that covers them: after wait_group 1
// the first group is there and the second is not.
TEST_F(Emulator, CpAsyncDataLandsAtItsWait) {
  auto m = load(R"(
.visible .entry k(.param .u64 src, .param .u64 out)
{
  .reg .b32 %r<6>;
  .reg .b64 %rd<8>;
  .shared .align 16 .b8 sm[32];
  ld.param.u64 %rd1, [src];
  ld.param.u64 %rd2, [out];
  cp.async.cg.shared.global [sm], [%rd1], 16;
  cp.async.commit_group;
  cp.async.cg.shared.global [sm+16], [%rd1+16], 16;
  cp.async.commit_group;
  cp.async.wait_group 1;
  ld.shared.u32 %r1, [sm];
  st.global.u32 [%rd2], %r1;
  ld.shared.u32 %r2, [sm+16];
  st.global.u32 [%rd2+4], %r2;
  ret;
}
)");
  std::vector<uint32_t> src = {11, 12, 13, 14, 21, 22, 23, 24};
  uint64_t out = zeros(8);
  LaunchResult r = run(*m, "k", {1, 1, 1}, {1, 1, 1}, {upload(src), out});
  EXPECT_EQ(r.error, LaunchError::LaunchFailed);
  EXPECT_NE(r.message.find("asynchronous copy into it has not completed"),
            std::string::npos)
      << r.message;
  EXPECT_NE(r.message.find("line 19: ld.shared.u32 %r2, [sm+16];"),
            std::string::npos)
      << r.message;
  EXPECT_EQ(download<uint32_t>(out, 1)[0], 11u); // the first group landed
}

TEST_F(Emulator, TmaOverwritingAnMbarrierIsAnError) {
  std::vector<uint16_t> g(64 * 8, 1);
  TensorMap map;
  uint64_t dims[2] = {64, 8}, strides[1] = {128};
  uint32_t box[2] = {64, 8}, es[2] = {1, 1};
  std::string why;
  ASSERT_TRUE(encodeTensorMap(map, kTmFloat16, 2, upload(g), dims, strides,
                              box, es, 0, 3, 0, 0, why));
  std::vector<uint8_t> raw(128, 0);
  std::memcpy(raw.data(), &map, sizeof(map));
  // The box lands at offset 0 where the mbarrier also lives.
  auto m = load(R"(
.visible .entry k(.param .u64 tmap)
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<4>;
  .shared .align 1024 .b8 sm[1024];
  ld.param.u64 %rd1, [tmap];
  mbarrier.init.shared.b64 [sm+8], 1;
  mov.b32 %r1, 0;
  cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [sm], [%rd1, {%r1, %r1}], [sm+8];
  ret;
}
)");
  LaunchResult r = run(*m, "k", {1, 1, 1}, {1, 1, 1}, {upload(raw)});
  EXPECT_NE(r.message.find("overwrites a live mbarrier object at offset 8"),
            std::string::npos)
      << r.message;
}

// Warp 0 waits at barrier 0, warp 1 at barrier 1: neither can complete.
TEST_F(Emulator, BarrierDeadlockIsReported) {
  auto m = load(R"(
.visible .entry k()
{
  .reg .pred %p<2>;
  .reg .b32 %r<4>;
  mov.u32 %r1, %tid.x;
  setp.lt.u32 %p1, %r1, 32;
  @%p1 bra FIRST;
  bar.sync 1;
  ret;
FIRST:
  bar.sync 0;
  ret;
}
)");
  LaunchResult r = run(*m, "k", {1, 1, 1}, {64, 1, 1}, {});
  EXPECT_EQ(r.error, LaunchError::LaunchFailed);
  EXPECT_NE(r.message.find("deadlock"), std::string::npos) << r.message;
}

TEST_F(Emulator, DynamicSharedMemoryLimitIsChecked) {
  auto m = load(R"(
.extern .shared .align 16 .b8 dyn[];
.visible .entry k()
{
  ret;
}
)");
  const Kernel *k = m->findKernel("k");
  LaunchConfig c;
  c.dynamicSharedBytes = 64 * 1024; // above the default 48 KiB
  LaunchResult r = device.launch(*m, *k, c, nullptr);
  EXPECT_EQ(r.error, LaunchError::InvalidValue);
  EXPECT_NE(r.message.find("cuFuncSetAttribute"), std::string::npos)
      << r.message;
}

Options warnOnly() {
  Options o;
  o.checks = CheckMode::Warn;
  o.maxReports = 0;
  return o;
}

class EmulatorWarn : public Emulator {
public:
  EmulatorWarn() : Emulator(warnOnly()) {}
};

// With checks that only warn, a read before the wait sees stale bytes
// (the wrong result that a comparison of outputs then catches).
TEST_F(EmulatorWarn, EarlyReadSeesStaleData) {
  auto m = load(R"(
.visible .entry k(.param .u64 src, .param .u64 out)
{
  .reg .b32 %r<6>;
  .reg .b64 %rd<8>;
  .shared .align 16 .b8 sm[32];
  ld.param.u64 %rd1, [src];
  ld.param.u64 %rd2, [out];
  cp.async.cg.shared.global [sm], [%rd1], 16;
  cp.async.commit_group;
  ld.shared.u32 %r1, [sm];
  st.global.u32 [%rd2], %r1;
  cp.async.wait_all;
  ld.shared.u32 %r2, [sm];
  st.global.u32 [%rd2+4], %r2;
  ret;
}
)");
  std::vector<uint32_t> src = {11, 12, 13, 14};
  uint64_t out = zeros(8);
  LaunchResult r = run(*m, "k", {1, 1, 1}, {1, 1, 1}, {upload(src), out});
  EXPECT_TRUE(r.ok());
  EXPECT_NE(r.message.find("has not completed"), std::string::npos);
  auto v = download<uint32_t>(out, 2);
  EXPECT_EQ(v[0], 0xa5a5a5a5u); // garbage: the copy had not landed
  EXPECT_EQ(v[1], 11u);
}

} // namespace
