//===- FP8ContractionsTest.cpp - The FP8 stage and the plan after it ------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// What the FP8 stage hands to the 16-bit plan that follows it: the range
// observed for a contraction's result still holds for the epilogue that
// replaces it (a reader that would overflow f16 stays FP32), and the
// records say which ops ran in FP8 and which did not, and why.
//
//===----------------------------------------------------------------------===//

#include "amp/IR/AmpAttrs.h"
#include "amp/IR/AmpDialect.h"
#include "amp/InitAmp.h"
#include "amp/Transforms/MixedPrecision.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace mlir::amp;

namespace {

// %m: an FP8 matmul (both arguments have observed ranges) whose result is
// observed at 1e6; %s adds %c to it; %r: a matmul of %s, which has no
// range, so it runs in f16.
const char *kModel = R"mlir(
func.func @f(%a: tensor<4x8xf32>, %b: tensor<8x8xf32>, %c: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %zero = arith.constant 0.0 : f32
  %w = arith.constant dense<0.5> : tensor<8x8xf32>
  %e = tensor.empty() : tensor<4x8xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %m = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x8xf32>)
                     outs(%init : tensor<4x8xf32>) -> tensor<4x8xf32>
  %s = linalg.add ins(%m, %c : tensor<4x8xf32>, tensor<4x8xf32>)
                  outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %r = linalg.matmul ins(%s, %w : tensor<4x8xf32>, tensor<8x8xf32>)
                     outs(%init : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}
)mlir";

struct Conversion {
  MLIRContext ctx;
  OwningOpRef<ModuleOp> module;
  FunctionConversion result;
  std::string printed;

  explicit Conversion(double observedMatmul) {
    DialectRegistry registry;
    registerAmpDialects(registry);
    registry.insert<arith::ArithDialect, func::FuncDialect,
                    linalg::LinalgDialect, tensor::TensorDialect>();
    ctx.appendDialectRegistry(registry);
    ctx.loadAllAvailableDialects();
    module = parseSourceString<ModuleOp>(kModel, &ctx);
    MixedPrecisionOptions options;
    options.fp8Type = Float8E4M3FNType::get(&ctx);
    options.target = Float16Type::get(&ctx);
    options.policy = cast<PrecisionPolicyAttrInterface>(DefaultPolicyAttr::get(
        &ctx, Float32Type::get(&ctx), options.target, 0));
    options.observedMargin = 2.0;
    // The arguments %a and %b were observed, %c and %s were not.
    options.observedArgumentMaxAbs =
        [](BlockArgument arg) -> std::optional<double> {
      if (arg.getArgNumber() < 2)
        return 1.0;
      return std::nullopt;
    };
    options.observedMaxAbs =
        [observedMatmul](OpResult value) -> std::optional<double> {
      auto matmul = dyn_cast<linalg::MatmulOp>(value.getOwner());
      if (matmul && isa<BlockArgument>(matmul.getInputs()[0]))
        return observedMatmul;
      return std::nullopt;
    };
    auto func = *module->getOps<func::FuncOp>().begin();
    ScopedDiagnosticHandler quiet(&ctx, [](Diagnostic &) { return success(); });
    EXPECT_TRUE(succeeded(convertToMixedPrecision(func, options, &result)));
    llvm::raw_string_ostream os(printed);
    module->print(os);
  }

  const OpRecord *find(StringRef opName, unsigned nth = 0) const {
    for (const OpRecord &record : result.records)
      if (record.opName.getStringRef() == opName && nth-- == 0)
        return &record;
    return nullptr;
  }
};

TEST(FP8Contractions, RecordsSayWhatRanInFP8AndWhy) {
  Conversion c(/*observedMatmul=*/10.0);
  EXPECT_EQ(c.result.stats.fp8, 1);
  const OpRecord *fp8 = c.find("linalg.matmul", 0);
  ASSERT_TRUE(fp8 && fp8->fp8);
  EXPECT_TRUE(fp8->fp8->converted);
  EXPECT_TRUE(isa<Float8E4M3FNType>(fp8->decision.computeType));
  ASSERT_EQ(fp8->fp8->scales.size(), 2u);
  EXPECT_EQ(fp8->fp8->scales[0].source, FP8ScaleSource::ObservedRange);
  EXPECT_EQ(fp8->fp8->scales[0].maxAbs, 2.0); // observed 1, margin 2
  EXPECT_EQ(fp8->fp8->scales[0].scale, 224.0);
  const OpRecord *fallback = c.find("linalg.matmul", 1);
  ASSERT_TRUE(fallback && fallback->fp8);
  EXPECT_FALSE(fallback->fp8->converted);
  EXPECT_EQ(fallback->decision.reason, Reason::NoFP8Scale);
  EXPECT_TRUE(fallback->decision.computeType.isF16());
  EXPECT_NE(fallback->fp8->why.find("operand 0 has no scale"),
            std::string::npos);
}

TEST(FP8Contractions, ObservedRangeOfAReplacedResultStillHolds) {
  // Observed at 1e6 (x2 margin, beyond f16), the FP8 matmul's result must
  // not be read in f16: the add stays FP32 and its result is narrowed.
  Conversion large(/*observedMatmul=*/1e6);
  const OpRecord *add = large.find("linalg.add");
  ASSERT_TRUE(add);
  EXPECT_FALSE(add->decision.lowPrecision);
  EXPECT_EQ(add->decision.reason, Reason::ObservedRange);
  // Observed small, nothing keeps it out of f16.
  Conversion small(/*observedMatmul=*/10.0);
  const OpRecord *add16 = small.find("linalg.add");
  ASSERT_TRUE(add16);
  EXPECT_NE(add16->decision.reason, Reason::ObservedRange);
}

} // namespace
