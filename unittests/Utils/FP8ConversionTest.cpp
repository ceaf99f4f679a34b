//===- FP8ConversionTest.cpp - FP8 rounding against llvm::APFloat ---------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// FP8 conversions are checked twice against llvm::APFloat (IEEE arithmetic
// with the exact semantics of f8E4M3FN and f8E5M2):
//  - the host conversion that folds weights (amp::convertF32ToFP8,
//    convertFP8ToF32, convertFloatConstantToFP8);
//  - the IR expansion of arith.truncf / arith.extf (--amp-expand-fp8), as
//    amp-run compiles it: a function lowered by the CPU pipeline and run by
//    the JIT.
// The inputs are every FP8 encoding (256 per format), every rounding
// boundary (the midpoints between neighbouring FP8 values, subnormals and
// the overflow threshold included, with the f32 values on either side),
// special values and random f32 bit patterns. APFloat rounds an E4M3FN
// overflow to NaN (the type has no infinity); amp saturates to +-448, as
// PTX's cvt.rn.satfinite does, and that is the only difference allowed.
//
//===----------------------------------------------------------------------===//

#include "amp/InitAmp.h"
#include "amp/Runner/CpuLowering.h"
#include "amp/Runner/JitFunction.h"
#include "amp/Utils/FloatConversion.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/bit.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/TargetSelect.h"

#include "gtest/gtest.h"

#include <cmath>
#include <cstring>
#include <random>

using namespace mlir;
using namespace mlir::amp;
using llvm::APFloat;
using llvm::APInt;

namespace {

const llvm::fltSemantics &getSemantics(FP8Format format) {
  return format == FP8Format::E4M3FN ? APFloat::Float8E4M3FN()
                                     : APFloat::Float8E5M2();
}

const char *getName(FP8Format format) {
  return format == FP8Format::E4M3FN ? "f8E4M3FN" : "f8E5M2";
}

/// The FP8 value with bits `bits`, as a double (APFloat's reading).
double fp8Value(uint8_t bits, FP8Format format) {
  APFloat v(getSemantics(format), APInt(8, bits));
  bool losesInfo;
  v.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven, &losesInfo);
  return v.convertToDouble();
}

/// The reference rounding: APFloat, to nearest even; an E4M3FN overflow
/// (NaN from a number) saturates.
uint8_t referenceTruncate(float value, FP8Format format) {
  APFloat v(value);
  bool losesInfo;
  v.convert(getSemantics(format), APFloat::rmNearestTiesToEven, &losesInfo);
  auto bits = static_cast<uint8_t>(v.bitcastToAPInt().getZExtValue());
  if (format == FP8Format::E4M3FN && v.isNaN() && !std::isnan(value))
    return (std::signbit(value) ? 0x80 : 0x00) | 0x7e;
  return bits;
}

/// Whether `bits` is a NaN of `format`.
bool isFP8NaN(uint8_t bits, FP8Format format) {
  return APFloat(getSemantics(format), APInt(8, bits)).isNaN();
}

/// Inputs that exercise FP8 rounding in `format`: every FP8 value, the
/// midpoints between neighbours and the f32 values next to them, values
/// around the overflow threshold, specials, f32 subnormals and random bit
/// patterns.
std::vector<float> hardInputs(FP8Format format) {
  std::vector<float> inputs;
  std::vector<double> positive; // finite FP8 values, ascending
  for (unsigned b = 0; b < 0x80; ++b)
    if (!isFP8NaN(b, format) && std::isfinite(fp8Value(b, format)))
      positive.push_back(fp8Value(b, format));
  auto addAround = [&](double x) {
    auto f = static_cast<float>(x);
    inputs.push_back(f);
    inputs.push_back(std::nextafter(f, INFINITY));
    inputs.push_back(std::nextafter(f, -INFINITY));
  };
  for (size_t i = 0; i < positive.size(); ++i) {
    addAround(positive[i]);
    if (i + 1 < positive.size())
      addAround((positive[i] + positive[i + 1]) / 2); // exact in f32
  }
  // Beyond the largest finite value: the midpoint to the next binade's
  // first value, the next binade, and far beyond.
  double max = getFP8Max(format);
  double step = max - positive[positive.size() - 2];
  addAround(max + step / 2);
  addAround(max + step);
  addAround(2 * max);
  addAround(1e30);
  // Half the smallest subnormal (a tie to zero) and its neighbours.
  addAround(positive[1] / 2);
  addAround(positive[1] / 4);
  for (float f : {0.0f, INFINITY, NAN, 1e-40f, 1e-45f, FLT_MIN,
                  std::numeric_limits<float>::max()})
    inputs.push_back(f);
  size_t n = inputs.size();
  for (size_t i = 0; i < n; ++i)
    inputs.push_back(-inputs[i]);
  std::mt19937 rng(42);
  for (int i = 0; i < 20000; ++i)
    inputs.push_back(llvm::bit_cast<float>(static_cast<uint32_t>(rng())));
  // Random values in the FP8 range, where the rounding is not trivial.
  std::uniform_real_distribution<float> uniform(-1.1f * static_cast<float>(max),
                                                1.1f * static_cast<float>(max));
  for (int i = 0; i < 20000; ++i)
    inputs.push_back(uniform(rng));
  return inputs;
}

/// `actual` is the rounding of `input` if it equals the reference bit for
/// bit, or both are NaNs (E5M2 NaNs with any payload).
::testing::AssertionResult sameRounding(float input, uint8_t actual,
                                        FP8Format format) {
  uint8_t expected = referenceTruncate(input, format);
  if (actual == expected ||
      (isFP8NaN(actual, format) && isFP8NaN(expected, format) &&
       (actual & 0x80) == (expected & 0x80)))
    return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << getName(format) << ": " << input << " (0x" << std::hex
         << llvm::bit_cast<uint32_t>(input) << ") rounds to 0x"
         << static_cast<int>(actual) << ", expected 0x"
         << static_cast<int>(expected);
}

/// `actual` is the f32 value of FP8 `bits`.
::testing::AssertionResult sameExtension(uint8_t bits, float actual,
                                         FP8Format format) {
  double expected = fp8Value(bits, format);
  if ((std::isnan(expected) && std::isnan(actual) &&
       std::signbit(expected) == std::signbit(actual)) ||
      llvm::bit_cast<uint32_t>(actual) ==
          llvm::bit_cast<uint32_t>(static_cast<float>(expected)))
    return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << getName(format) << ": 0x" << std::hex << static_cast<int>(bits)
         << " extends to " << actual << ", expected " << expected;
}

const FP8Format kFormats[] = {FP8Format::E4M3FN, FP8Format::E5M2};

//===----------------------------------------------------------------------===//
// Host conversion
//===----------------------------------------------------------------------===//

TEST(FP8ConversionTest, ExtendsEveryEncoding) {
  for (FP8Format format : kFormats)
    for (unsigned b = 0; b < 256; ++b)
      EXPECT_TRUE(sameExtension(b, convertFP8ToF32(b, format), format));
}

TEST(FP8ConversionTest, EveryEncodingRoundTrips) {
  for (FP8Format format : kFormats)
    for (unsigned b = 0; b < 256; ++b) {
      float value = convertFP8ToF32(b, format);
      if (!std::isnan(value)) {
        EXPECT_EQ(convertF32ToFP8(value, format), b) << getName(format);
      }
    }
}

TEST(FP8ConversionTest, RoundsLikeAPFloat) {
  for (FP8Format format : kFormats)
    for (float input : hardInputs(format))
      EXPECT_TRUE(sameRounding(input, convertF32ToFP8(input, format), format));
}

TEST(FP8ConversionTest, LimitsAndOverflow) {
  bool overflow;
  // E4M3FN: 464 ties to 448 (even), above it saturates; infinity too.
  EXPECT_EQ(convertF32ToFP8(464.0f, FP8Format::E4M3FN, &overflow), 0x7e);
  EXPECT_FALSE(overflow);
  EXPECT_EQ(convertF32ToFP8(465.0f, FP8Format::E4M3FN, &overflow), 0x7e);
  EXPECT_TRUE(overflow);
  EXPECT_EQ(convertF32ToFP8(-INFINITY, FP8Format::E4M3FN), 0xfe);
  EXPECT_EQ(convertF32ToFP8(NAN, FP8Format::E4M3FN), 0x7f);
  // E5M2: 61440 ties to infinity (57344's mantissa is odd).
  EXPECT_EQ(convertF32ToFP8(61439.0f, FP8Format::E5M2, &overflow), 0x7b);
  EXPECT_FALSE(overflow);
  EXPECT_EQ(convertF32ToFP8(61440.0f, FP8Format::E5M2, &overflow), 0x7c);
  EXPECT_TRUE(overflow);
  EXPECT_EQ(convertF32ToFP8(INFINITY, FP8Format::E5M2), 0x7c);
  // Smallest subnormals: 2^-9 and 2^-16; half of them ties to zero.
  EXPECT_EQ(convertF32ToFP8(std::ldexp(1.0f, -9), FP8Format::E4M3FN), 0x01);
  EXPECT_EQ(convertF32ToFP8(std::ldexp(1.0f, -10), FP8Format::E4M3FN), 0x00);
  // 1.5 and 2.5 units of 2^-9 tie to the even 2.
  EXPECT_EQ(convertF32ToFP8(std::ldexp(3.0f, -10), FP8Format::E4M3FN), 0x02);
  EXPECT_EQ(convertF32ToFP8(std::ldexp(5.0f, -10), FP8Format::E4M3FN), 0x02);
  EXPECT_EQ(convertF32ToFP8(std::ldexp(1.0f, -16), FP8Format::E5M2), 0x01);
  EXPECT_EQ(getFP8Max(FP8Format::E4M3FN), 448.0);
  EXPECT_EQ(getFP8Max(FP8Format::E5M2), 57344.0);
}

class FP8ConstantTest : public ::testing::Test {
protected:
  MLIRContext ctx;
  Builder b{&ctx};
  FloatType e4m3() { return Float8E4M3FNType::get(&ctx); }

  DenseElementsAttr tensor(ArrayRef<int64_t> shape, ArrayRef<float> values) {
    return DenseElementsAttr::get(RankedTensorType::get(shape, b.getF32Type()),
                                  values);
  }
  static std::vector<uint8_t> bitsOf(TypedAttr attr) {
    std::vector<uint8_t> bits;
    for (APFloat v : cast<DenseElementsAttr>(attr).getValues<APFloat>())
      bits.push_back(v.bitcastToAPInt().getZExtValue());
    return bits;
  }
};

TEST_F(FP8ConstantTest, MaxAbsPerTensorAndPerChannel) {
  auto w = tensor({2, 3}, {1, -5, 2, 0.5, 3, -0.25});
  EXPECT_EQ(getFloatMaxAbs(w), SmallVector<double>({5.0}));
  EXPECT_EQ(getFloatMaxAbs(w, 0u), SmallVector<double>({5.0, 3.0}));
  EXPECT_EQ(getFloatMaxAbs(w, 1u), SmallVector<double>({1.0, 5.0, 2.0}));
  auto splat = DenseElementsAttr::get(
      RankedTensorType::get({4, 2}, b.getF32Type()), -3.0f);
  EXPECT_EQ(getFloatMaxAbs(splat, 1u), SmallVector<double>({3.0, 3.0}));
}

TEST_F(FP8ConstantTest, ScalesTransposesAndRounds) {
  // A 2x3 weight stored as its 3x2 transpose, one scale per row of the
  // result (per column of the weight).
  SmallVector<float> values = {1, -5, 2, 0.5f, 3, -0.25f};
  auto w = tensor({2, 3}, values);
  SmallVector<float> scales = {448.0f / 1, 448.0f / 5, 448.0f / 2};
  RangeSummary summary;
  TypedAttr result =
      convertFloatConstantToFP8(w, e4m3(), scales, 0u, {1, 0}, &summary);
  ASSERT_TRUE(result);
  EXPECT_EQ(cast<ShapedType>(result.getType()).getShape(),
            ArrayRef<int64_t>({3, 2}));
  std::vector<uint8_t> bits = bitsOf(result);
  for (int64_t n = 0; n < 3; ++n)
    for (int64_t k = 0; k < 2; ++k)
      EXPECT_EQ(bits[n * 2 + k], convertF32ToFP8(values[k * 3 + n] * scales[n],
                                                 FP8Format::E4M3FN));
  // Each column's largest magnitude maps to 448.
  EXPECT_EQ(convertFP8ToF32(bits[0 * 2 + 0], FP8Format::E4M3FN), 448.0f);
  EXPECT_EQ(convertFP8ToF32(bits[1 * 2 + 0], FP8Format::E4M3FN), -448.0f);
  EXPECT_TRUE(summary.fits());
  EXPECT_EQ(summary.numValues, 6);
}

TEST_F(FP8ConstantTest, ReportsOverflowAndFlushes) {
  // Scale 1: 1000 overflows (saturates), 1e-4 flushes to zero but is
  // negligible next to 1000 (below 1000 * 2^-4), 1e-3 is a subnormal.
  auto w = tensor({4}, {1000, 1e-4f, 1e-3f, 1});
  RangeSummary summary;
  TypedAttr result =
      convertFloatConstantToFP8(w, e4m3(), {1.0f}, {}, {}, &summary);
  std::vector<uint8_t> bits = bitsOf(result);
  EXPECT_EQ(bits[0], 0x7e);
  EXPECT_EQ(bits[1], 0x00);
  EXPECT_EQ(bits[2], convertF32ToFP8(1e-3f, FP8Format::E4M3FN));
  EXPECT_EQ(summary.numOverflow, 1);
  EXPECT_EQ(summary.numNegligible, 1);
  EXPECT_EQ(summary.numUnderflow, 0);
  // A splat keeps its form; a lone small value is not negligible.
  auto splat =
      DenseElementsAttr::get(RankedTensorType::get({8}, b.getF32Type()), 1e-4f);
  RangeSummary splatSummary;
  TypedAttr splatResult =
      convertFloatConstantToFP8(splat, e4m3(), {1.0f}, {}, {}, &splatSummary);
  EXPECT_TRUE(cast<DenseElementsAttr>(splatResult).isSplat());
  EXPECT_EQ(splatSummary.numUnderflow, 8);
}

TEST_F(FP8ConstantTest, PerChannelKeepsSmallChannels) {
  // Column 0 is 10^6 times smaller than column 1: with one scale per tensor
  // it flushes to zero (1e-3 * 448 / 1e3 is below E4M3FN's smallest
  // subnormal, 2^-9); with one scale per column it keeps 448 for its
  // largest value.
  auto w = tensor({2, 2}, {1e-3f, 1e3f, -5e-4f, 2e2f});
  SmallVector<double> perTensor = getFloatMaxAbs(w);
  SmallVector<double> perColumn = getFloatMaxAbs(w, 1u);
  ASSERT_EQ(perColumn.size(), 2u);
  TypedAttr tensorScaled = convertFloatConstantToFP8(
      w, e4m3(), {static_cast<float>(448.0 / perTensor[0])});
  TypedAttr columnScaled =
      convertFloatConstantToFP8(w, e4m3(),
                                {static_cast<float>(448.0 / perColumn[0]),
                                 static_cast<float>(448.0 / perColumn[1])},
                                1u);
  std::vector<uint8_t> a = bitsOf(tensorScaled), b = bitsOf(columnScaled);
  EXPECT_EQ(a[0] & 0x7f, 0);
  EXPECT_EQ(a[2] & 0x7f, 0);
  EXPECT_EQ(convertFP8ToF32(b[0], FP8Format::E4M3FN), 448.0f);
  EXPECT_EQ(convertFP8ToF32(b[2], FP8Format::E4M3FN), -224.0f);
  EXPECT_EQ(convertFP8ToF32(b[1], FP8Format::E4M3FN), 448.0f);
}

//===----------------------------------------------------------------------===//
// The IR expansion, compiled and run
//===----------------------------------------------------------------------===//

/// Compiles `source` (one function @f) with amp-run's CPU lowering, runs it
/// on `input` and returns its output.
runner::HostTensor runCompiled(MLIRContext &ctx, StringRef source,
                               const runner::HostTensor &input) {
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(source, &ctx);
  EXPECT_TRUE(module);
  auto fn = module->lookupSymbol<func::FuncOp>("f");
  runner::FunctionSignature signature = runner::getFunctionSignature(fn);
  PassManager pm(&ctx);
  runner::buildCpuLoweringPipeline(pm);
  EXPECT_TRUE(succeeded(pm.run(*module)));
  EXPECT_TRUE(succeeded(runner::verifyLoweredForCpu(*module)));
  auto jit = runner::JitFunction::create(*module, "f", signature,
                                         {AMP_MLIR_C_RUNNER_UTILS}, 2);
  if (!jit) {
    ADD_FAILURE() << llvm::toString(jit.takeError());
    return runner::HostTensor(runner::ElementKind::I8, {0});
  }
  std::vector<runner::HostTensor> inputs;
  inputs.push_back(input.clone());
  auto result = (*jit)->run(inputs);
  if (!result) {
    ADD_FAILURE() << llvm::toString(result.takeError());
    return runner::HostTensor(runner::ElementKind::I8, {0});
  }
  return std::move(result->outputs.front());
}

class ExpandFP8Test : public ::testing::Test {
protected:
  static void SetUpTestSuite() {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
  }
  ExpandFP8Test() {
    DialectRegistry registry;
    runner::registerCpuLoweringDependencies(registry);
    registerAmpDialects(registry);
    ctx.appendDialectRegistry(registry);
    ctx.loadAllAvailableDialects();
  }
  MLIRContext ctx;
};

TEST_F(ExpandFP8Test, TruncFRoundsLikeAPFloat) {
  for (FP8Format format : kFormats) {
    std::vector<float> inputs = hardInputs(format);
    auto n = static_cast<int64_t>(inputs.size());
    std::string source = llvm::formatv(R"mlir(
      func.func @f(%x: tensor<{0}xf32>) -> tensor<{0}xi8> {{
        %t = arith.truncf %x : tensor<{0}xf32> to tensor<{0}x{1}>
        %b = arith.bitcast %t : tensor<{0}x{1}> to tensor<{0}xi8>
        return %b : tensor<{0}xi8>
      })mlir",
                                       n, getName(format));
    runner::HostTensor input(runner::ElementKind::F32, {n});
    std::memcpy(input.getData(), inputs.data(), n * sizeof(float));
    runner::HostTensor output = runCompiled(ctx, source, input);
    ASSERT_EQ(output.getNumElements(), n);
    auto *bits = static_cast<const uint8_t *>(output.getData());
    int failures = 0;
    for (int64_t i = 0; i < n && failures < 10; ++i) {
      ::testing::AssertionResult same =
          sameRounding(inputs[i], bits[i], format);
      failures += !same;
      EXPECT_TRUE(same);
    }
  }
}

TEST_F(ExpandFP8Test, ExtFIsExactOnEveryEncoding) {
  for (FP8Format format : kFormats) {
    std::string source = llvm::formatv(R"mlir(
      func.func @f(%x: tensor<256xi8>) -> tensor<256xf32> {{
        %b = arith.bitcast %x : tensor<256xi8> to tensor<256x{0}>
        %e = arith.extf %b : tensor<256x{0}> to tensor<256xf32>
        return %e : tensor<256xf32>
      })mlir",
                                       getName(format));
    runner::HostTensor input(runner::ElementKind::I8, {256});
    auto *in = static_cast<uint8_t *>(input.getData());
    for (unsigned b = 0; b < 256; ++b)
      in[b] = static_cast<uint8_t>(b);
    runner::HostTensor output = runCompiled(ctx, source, input);
    ASSERT_EQ(output.getNumElements(), 256);
    auto *values = static_cast<const float *>(output.getData());
    for (unsigned b = 0; b < 256; ++b)
      EXPECT_TRUE(sameExtension(b, values[b], format));
  }
}

} // namespace
