//===- Fp8Test.cpp - The emulator's FP8 formats, cvt and wgmma forms ------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The FP8 forms of the emulator against the PTX ISA's definitions:
//
//  - the formats ("Alternate Floating-Point Data Formats"): .e4m3 is 1 sign,
//    4 exponent bits with bias 7 and 3 fraction bits, no infinities, NaN
//    S.1111.111 only; .e5m2 is 1-5-2 with bias 15 laid out like IEEE 754.
//    All 256 encodings of each, decoded from these definitions here, and by
//    llvm::APFloat (Float8E4M3FN, Float8E5M2);
//  - cvt ("cvt"): .e4m3x2/.e5m2x2 from two f32 (a to the upper byte) and
//    from f16x2, rounded to nearest even with .satfinite (NaN stays NaN, a
//    magnitude beyond the largest finite value gives it with the input's
//    sign), .relu; and from a pair to f16x2 (upper byte to the upper half),
//    for all 256 encodings;
//  - wgmma.mma_async.m64nNk32 with .e4m3/.e5m2 inputs ("wgmma.mma_async",
//    "Shared Memory Matrix Layout"): A and B K-major in shared memory with
//    128-byte swizzling, a K step of 32 bytes inside the swizzle atom, and
//    the FP8 forms' lack of transpose operands.
//
//===----------------------------------------------------------------------===//

#include "EmulatorFixture.h"

#include "llvm/ADT/APFloat.h"

#include <cmath>
#include <random>

using namespace amp::emu;
using namespace amp::emu::unittest;

namespace {

//===----------------------------------------------------------------------===//
// The formats
//===----------------------------------------------------------------------===//

/// The value of `bits` from the ISA's definition of the format.
double isaValue(uint8_t bits, bool e5m2) {
  int mantBits = e5m2 ? 2 : 3, bias = e5m2 ? 15 : 7;
  int exp = (bits >> mantBits) & (e5m2 ? 31 : 15);
  int mant = bits & ((1 << mantBits) - 1);
  double sign = (bits & 0x80) ? -1.0 : 1.0;
  if (!e5m2 && exp == 15 && mant == 7)
    return NAN;
  if (e5m2 && exp == 31)
    return mant ? NAN : sign * INFINITY;
  if (exp == 0)
    return sign * std::ldexp(mant / double(1 << mantBits), 1 - bias);
  return sign * std::ldexp(1.0 + mant / double(1 << mantBits), exp - bias);
}

const llvm::fltSemantics &semantics(bool e5m2) {
  return e5m2 ? llvm::APFloat::Float8E5M2() : llvm::APFloat::Float8E4M3FN();
}

/// The FP8 bits of `x` (exactly representable) from llvm::APFloat.
uint8_t fp8Bits(double x, bool e5m2) {
  llvm::APFloat v(x);
  bool lost;
  v.convert(semantics(e5m2), llvm::APFloat::rmNearestTiesToEven, &lost);
  return static_cast<uint8_t>(v.bitcastToAPInt().getZExtValue());
}

TEST(Fp8Formats, AllEncodingsMatchTheIsaAndAPFloat) {
  for (bool e5m2 : {false, true}) {
    Fp8Format format = e5m2 ? Fp8Format::E5M2 : Fp8Format::E4M3;
    for (int b = 0; b < 256; ++b) {
      uint8_t bits = static_cast<uint8_t>(b);
      double want = isaValue(bits, e5m2);
      double got = fp8ToDouble(bits, format);
      llvm::APFloat ap(semantics(e5m2), llvm::APInt(8, b));
      if (std::isnan(want)) {
        EXPECT_TRUE(std::isnan(got)) << b;
        EXPECT_TRUE(ap.isNaN()) << b;
        EXPECT_TRUE(isFp8NaN(bits, format)) << b;
        continue;
      }
      EXPECT_FALSE(isFp8NaN(bits, format)) << b;
      EXPECT_EQ(got, want) << "bits " << b << (e5m2 ? " e5m2" : " e4m3");
      EXPECT_EQ(std::signbit(got), std::signbit(want)) << b;
      EXPECT_EQ(ap.convertToDouble(), want) << b;
    }
  }
  EXPECT_EQ(fp8ToDouble(0x7e, Fp8Format::E4M3), 448.0);
  EXPECT_EQ(fp8ToDouble(0x7b, Fp8Format::E5M2), 57344.0);
  EXPECT_EQ(fp8ToDouble(0x01, Fp8Format::E4M3), std::ldexp(1.0, -9));
  EXPECT_EQ(fp8ToDouble(0x01, Fp8Format::E5M2), std::ldexp(1.0, -16));
}

/// The inputs the rounding tests use for a format: every finite value,
/// every midpoint between neighbours and the floats next to it (both
/// signs), values beyond the range, infinities, NaN and tiny values.
std::vector<float> roundingInputs(bool e5m2) {
  std::vector<double> finite;
  for (int b = 0; b < 128; ++b)
    if (!std::isnan(isaValue(uint8_t(b), e5m2)) &&
        !std::isinf(isaValue(uint8_t(b), e5m2)))
      finite.push_back(isaValue(uint8_t(b), e5m2));
  std::vector<float> in;
  for (size_t i = 0; i < finite.size(); ++i) {
    in.push_back(float(finite[i]));
    double next = i + 1 < finite.size()
                      ? finite[i + 1]
                      : finite[i] + (finite[i] - finite[i - 1]);
    float mid = float((finite[i] + next) / 2);
    in.push_back(mid);
    in.push_back(std::nextafter(mid, 0.0f));
    in.push_back(std::nextafter(mid, INFINITY));
  }
  size_t n = in.size();
  for (size_t i = 0; i < n; ++i)
    in.push_back(-in[i]);
  for (float x : {1e4f, 6e4f, 61439.0f, 61440.0f, 65536.0f, 1e30f, INFINITY,
                  -INFINITY, NAN, -NAN, 1e-30f, -1e-30f, 0.0f, -0.0f, 3e-3f})
    in.push_back(x);
  return in;
}

/// cvt.rn.satfinite{.relu} to the format, from the ISA's words: round to
/// nearest even; NaN stays NaN; a magnitude beyond the largest finite value
/// gives it with the input's sign; .relu: a negative result is +0.
/// Returns -1 for "some NaN".
int expectedSatfinite(float x, bool e5m2, bool relu) {
  if (std::isnan(x))
    return -1;
  double maxFinite = e5m2 ? 57344.0 : 448.0;
  if (relu && x < 0)
    return 0;
  uint8_t maxBits = e5m2 ? 0x7b : 0x7e;
  if (std::fabs(double(x)) > maxFinite)
    return (std::signbit(x) ? 0x80 : 0) | maxBits;
  return fp8Bits(double(x), e5m2);
}

//===----------------------------------------------------------------------===//
// cvt
//===----------------------------------------------------------------------===//

const char *kCvtToFp8 = R"(
.visible .entry to8(.param .u64 a, .param .u64 b, .param .u64 out, .param .u32 n)
{
  .reg .pred %p<2>;
  .reg .b32 %r<8>;
  .reg .b16 %rs<8>;
  .reg .f32 %f<4>;
  .reg .b64 %rd<12>;
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, %ctaid.x;
  mad.lo.u32 %r3, %r2, 256, %r1;
  ld.param.u32 %r4, [n];
  setp.ge.u32 %p1, %r3, %r4;
  @%p1 bra DONE;
  mul.wide.u32 %rd1, %r3, 4;
  ld.param.u64 %rd2, [a];
  add.s64 %rd3, %rd2, %rd1;
  ld.global.f32 %f1, [%rd3];
  ld.param.u64 %rd4, [b];
  add.s64 %rd5, %rd4, %rd1;
  ld.global.f32 %f2, [%rd5];
  cvt.rn.satfinite.e4m3x2.f32 %rs1, %f1, %f2;
  cvt.rn.satfinite.e5m2x2.f32 %rs2, %f1, %f2;
  cvt.rn.satfinite.relu.e4m3x2.f32 %rs3, %f1, %f2;
  cvt.rn.satfinite.relu.e5m2x2.f32 %rs4, %f1, %f2;
  mul.wide.u32 %rd6, %r3, 8;
  ld.param.u64 %rd7, [out];
  add.s64 %rd8, %rd7, %rd6;
  st.global.v4.b16 [%rd8], {%rs1, %rs2, %rs3, %rs4};
DONE:
  ret;
}
)";

TEST_F(Emulator, CvtToFp8PairRoundsToNearestEvenAndSaturates) {
  auto m = load(kCvtToFp8);
  ASSERT_TRUE(m);
  // Every input of both formats, paired with a reversed copy (so that each
  // value goes through both halves of the pair).
  std::vector<float> a = roundingInputs(false), more = roundingInputs(true);
  a.insert(a.end(), more.begin(), more.end());
  std::vector<float> b(a.rbegin(), a.rend());
  uint32_t n = static_cast<uint32_t>(a.size());
  uint64_t out = zeros(n * 8);
  LaunchResult r = run(*m, "to8", {(n + 255) / 256, 1, 1}, {256, 1, 1},
                       {upload(a), upload(b), out, n});
  ASSERT_TRUE(r.ok()) << r.message;
  auto v = download<uint16_t>(out, n * 4);
  int checked = 0;
  for (uint32_t i = 0; i < n; ++i)
    for (int form = 0; form < 4; ++form) {
      bool e5m2 = form % 2, relu = form >= 2;
      Fp8Format format = e5m2 ? Fp8Format::E5M2 : Fp8Format::E4M3;
      uint16_t pair = v[i * 4 + form];
      // d[15:8] = convert(a), d[7:0] = convert(b).
      for (int half = 0; half < 2; ++half) {
        float x = half ? a[i] : b[i];
        uint8_t got = static_cast<uint8_t>(pair >> (8 * half));
        int want = expectedSatfinite(x, e5m2, relu);
        if (want < 0)
          EXPECT_TRUE(isFp8NaN(got, format)) << x;
        else
          EXPECT_EQ(got, want) << "x = " << x << (e5m2 ? " e5m2" : " e4m3")
                               << (relu ? " relu" : "");
        ++checked;
      }
    }
  EXPECT_GT(checked, 4000);
}

TEST_F(Emulator, CvtFromFp8PairAllEncodings) {
  auto m = load(R"(
.visible .entry from8(.param .u64 in, .param .u64 out)
{
  .reg .b32 %r<6>;
  .reg .b16 %rs<2>;
  .reg .b64 %rd<8>;
  mov.u32 %r1, %tid.x;
  ld.param.u64 %rd1, [in];
  mul.wide.u32 %rd2, %r1, 2;
  add.s64 %rd3, %rd1, %rd2;
  ld.global.b16 %rs1, [%rd3];
  cvt.rn.f16x2.e4m3x2 %r2, %rs1;
  cvt.rn.f16x2.e5m2x2 %r3, %rs1;
  cvt.rn.relu.f16x2.e4m3x2 %r4, %rs1;
  ld.param.u64 %rd4, [out];
  mul.wide.u32 %rd5, %r1, 16;
  add.s64 %rd6, %rd4, %rd5;
  st.global.v4.b32 [%rd6], {%r2, %r3, %r4, %r4};
  ret;
}
)");
  ASSERT_TRUE(m);
  // Thread t: the pair (t, 255 - t): every encoding in both bytes.
  std::vector<uint16_t> in(256);
  for (int t = 0; t < 256; ++t)
    in[t] = static_cast<uint16_t>((t << 8) | (255 - t));
  uint64_t out = zeros(256 * 16);
  LaunchResult r = run(*m, "from8", {1, 1, 1}, {256, 1, 1}, {upload(in), out});
  ASSERT_TRUE(r.ok()) << r.message;
  auto v = download<uint32_t>(out, 256 * 4);
  for (int t = 0; t < 256; ++t)
    for (int form = 0; form < 3; ++form) {
      bool e5m2 = form == 1, relu = form == 2;
      uint32_t got = v[t * 4 + form];
      // d[31:16] from a[15:8], d[15:0] from a[7:0].
      for (int half = 0; half < 2; ++half) {
        uint8_t bits = static_cast<uint8_t>(half ? t : 255 - t);
        double want = isaValue(bits, e5m2);
        if (relu && want < 0)
          want = 0;
        float value = halfToFloat(static_cast<uint16_t>(got >> (16 * half)));
        if (std::isnan(want)) {
          EXPECT_TRUE(std::isnan(value)) << int(bits);
          continue;
        }
        EXPECT_EQ(double(value), want)
            << "bits " << int(bits) << " form " << form;
        EXPECT_EQ(std::signbit(value), std::signbit(want)) << int(bits);
      }
    }
}

TEST_F(Emulator, CvtToFp8PairFromF16x2) {
  auto m = load(R"(
.visible .entry k(.param .u64 out)
{
  .reg .b32 %r<4>;
  .reg .b16 %rs<4>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  mov.b32 %r1, 0x5c004b40;
  cvt.rn.satfinite.e4m3x2.f16x2 %rs1, %r1;
  cvt.rn.satfinite.e5m2x2.f16x2 %rs2, %r1;
  st.global.v2.b16 [%rd1], {%rs1, %rs2};
  ret;
}
)");
  ASSERT_TRUE(m);
  uint64_t out = zeros(4);
  ASSERT_TRUE(run(*m, "k", {1, 1, 1}, {1, 1, 1}, {out}).ok());
  auto v = download<uint16_t>(out, 2);
  // Upper half 0x5c00 = 256.0, lower 0x4b40 = 14.5: a tie between 14 and
  // 15 in e4m3 (to the even 14), nearer 14 than 16 in e5m2.
  EXPECT_EQ(v[0], (fp8Bits(256.0, false) << 8) | fp8Bits(14.0, false));
  EXPECT_EQ(v[1], (fp8Bits(256.0, true) << 8) | fp8Bits(14.0, true));
}

TEST_F(Emulator, CvtToFp8WithoutSatfiniteIsUnsupported) {
  auto m = load(R"(
.visible .entry k()
{
  .reg .b16 %rs<2>;
  .reg .f32 %f<2>;
  mov.f32 %f1, 0f3F800000;
  cvt.rn.e4m3x2.f32 %rs1, %f1, %f1;
  ret;
}
)");
  ASSERT_TRUE(m);
  LaunchResult r = run(*m, "k", {1, 1, 1}, {32, 1, 1}, {});
  EXPECT_EQ(r.error, LaunchError::IllegalInstruction);
  EXPECT_NE(r.message.find(".rn.satfinite"), std::string::npos) << r.message;
}

//===----------------------------------------------------------------------===//
// wgmma
//===----------------------------------------------------------------------===//

/// Byte offset of element (mn, k) of an 8-bit operand in the canonical
/// K-major layout with 128-byte swizzling (before the swizzle): 8 rows of
/// 128 bytes per 1024-byte atom, atoms SBO apart, k bytes into the row.
uint32_t kMajor128Fp8(uint32_t mn, uint32_t k, uint32_t sbo) {
  return (mn % 8) * 128 + (mn / 8) * sbo + k;
}

/// D (64 x n) = A (64 x 64) * B (64 x n) in two wgmma.m64nNk32 steps: the
/// second with both descriptors' start addresses 32 bytes further into the
/// 128-byte swizzle rows (how a kernel walks K inside a swizzle atom).
void runWgmmaFp8(Emulator *t, bool aE5m2, bool bE5m2) {
  const int n = 16, kTotal = 64;
  const uint32_t sbo = 1024, bBase = 64 * 128;
  std::vector<uint8_t> image(bBase + 16 * 128, 0);
  std::mt19937 rng(aE5m2 * 2 + bE5m2 + 5);
  std::vector<double> a(64 * kTotal), b(kTotal * n);
  for (int r = 0; r < 64; ++r)
    for (int k = 0; k < kTotal; ++k) {
      a[r * kTotal + k] = double(int(rng() % 15) - 7) * 0.5;
      image[swizzle128(kMajor128Fp8(r, k, sbo))] =
          fp8Bits(a[r * kTotal + k], aE5m2);
    }
  // B is K-major: row c of the shared-memory tile is column c of B.
  for (int k = 0; k < kTotal; ++k)
    for (int c = 0; c < n; ++c) {
      b[k * n + c] = double(int(rng() % 9) - 4) * 0.25;
      image[swizzle128(bBase + kMajor128Fp8(c, k, sbo))] =
          fp8Bits(b[k * n + c], bE5m2);
    }
  std::string types =
      std::string(aE5m2 ? "e5m2" : "e4m3") + "." + (bE5m2 ? "e5m2" : "e4m3");
  int count = n / 2;
  std::string regs = floatRegisterList(count);
  std::string stores = floatRegisterStores(count);
  std::string wgmma = "  wgmma.mma_async.sync.aligned.m64n16k32.f32." + types +
                      " {" + regs + "}, ";
  auto m = t->load(wgmmaKernelPrologue(count, image.size()) + R"(  setp.eq.b32 %p3, 0, 0;
  wgmma.fence.sync.aligned;
)" + wgmma + R"(%rd9, %rd10, %p2, 1, 1;
  add.s64 %rd9, %rd9, 2;
  add.s64 %rd10, %rd10, 2;
)" + wgmma + R"(%rd9, %rd10, %p3, 1, 1;
  wgmma.commit_group.sync.aligned;
  wgmma.wait_group.sync.aligned 0;
  ld.param.u64 %rd4, [out];
  mul.wide.u32 %rd11, %r1, )" +
                   std::to_string(count * 4) + R"(;
  add.s64 %rd5, %rd4, %rd11;
)" + stores + R"(  ret;
}
)");
  ASSERT_TRUE(m);
  uint64_t out = t->zeros(128 * count * 4);
  // The leading byte offset is unused by swizzled K-major layouts.
  LaunchResult r =
      t->run(*m, "k", {1, 1, 1}, {128, 1, 1},
             {t->upload(image), image.size(), descriptor(0, 16, sbo),
              descriptor(bBase, 16, sbo), out});
  ASSERT_TRUE(r.ok()) << r.message;
  auto d = t->download<float>(out, 128 * count);
  for (int tid = 0; tid < 128; ++tid)
    for (int i = 0; i < count; ++i) {
      int w = tid / 32, l = tid % 32;
      int row = 16 * w + l / 4 + 8 * ((i % 4) / 2);
      int col = 8 * (i / 4) + 2 * (l % 4) + i % 2;
      double want = 0;
      for (int k = 0; k < kTotal; ++k)
        want += a[row * kTotal + k] * b[k * n + col];
      ASSERT_EQ(d[tid * count + i], float(want))
          << "D[" << row << "][" << col << "] " << types;
    }
}

TEST_F(Emulator, WgmmaFp8E4m3KMajorSwizzled128) {
  runWgmmaFp8(this, false, false);
}
TEST_F(Emulator, WgmmaFp8MixedE5m2E4m3) { runWgmmaFp8(this, true, false); }
TEST_F(Emulator, WgmmaFp8E5m2) { runWgmmaFp8(this, true, true); }

TEST_F(Emulator, WgmmaFp8TransposeOperandsAreRejected) {
  std::string error;
  auto m = device.loadModule(std::string(kHeader) + R"(
.visible .entry k()
{
  .reg .pred %p<2>;
  .reg .b64 %rd<4>;
  .reg .f32 %f<8>;
  wgmma.mma_async.sync.aligned.m64n16k32.f32.e4m3.e4m3 {%f0, %f1, %f2, %f3, %f4, %f5, %f6, %f7}, %rd1, %rd2, %p1, 1, 1, 0, 1;
  ret;
}
)",
                             error);
  EXPECT_FALSE(m);
  EXPECT_NE(error.find("must be K-major"), std::string::npos) << error;
}

} // namespace
