//===- ObservedRangeTest.cpp - Observed ranges decide like proofs ---------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// MixedPrecisionOptions::observedMaxAbs: an observed magnitude beyond the
// target's range decides exactly like a provable overflow.
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

const char *kModel = R"mlir(
func.func @f(%a: tensor<4x8xf32>, %b: tensor<8x8xf32>) -> tensor<4x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x8xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %m = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x8xf32>)
                     outs(%init : tensor<4x8xf32>) -> tensor<4x8xf32>
  %r = linalg.matmul ins(%m, %b : tensor<4x8xf32>, tensor<8x8xf32>)
                     outs(%init : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}
)mlir";

struct Conversion {
  MLIRContext ctx;
  OwningOpRef<ModuleOp> module;
  FunctionConversion result;

  Conversion(std::function<std::optional<double>(OpResult)> observed,
             bool overflowBF16 = false) {
    DialectRegistry registry;
    registerAmpDialects(registry);
    registry.insert<arith::ArithDialect, func::FuncDialect,
                    linalg::LinalgDialect, tensor::TensorDialect>();
    ctx.appendDialectRegistry(registry);
    ctx.loadAllAvailableDialects();
    module = parseSourceString<ModuleOp>(kModel, &ctx);
    MixedPrecisionOptions options;
    options.target = Float16Type::get(&ctx);
    options.policy = cast<PrecisionPolicyAttrInterface>(DefaultPolicyAttr::get(
        &ctx, Float32Type::get(&ctx), options.target, 0));
    options.observedMaxAbs = std::move(observed);
    if (overflowBF16)
      options.overflowType = BFloat16Type::get(&ctx);
    auto func = *module->getOps<func::FuncOp>().begin();
    ScopedDiagnosticHandler quiet(&ctx, [](Diagnostic &) { return success(); });
    EXPECT_TRUE(succeeded(convertToMixedPrecision(func, options, &result)));
  }
};

/// Observed: the first matmul's result reaches 1e6 (the callback gets the
/// value; the caller applies its margin).
std::optional<double> firstMatmulLarge(OpResult result) {
  auto func = result.getOwner()->getParentOfType<func::FuncOp>();
  Operation *first = nullptr;
  func.walk([&](Operation *op) {
    if (!first && op->getName().getStringRef() == "linalg.matmul")
      first = op;
  });
  if (result.getOwner() == first)
    return 1e6;
  return std::nullopt;
}

TEST(ObservedRange, GreenOutputOverflowKeepsFP32Output) {
  Conversion c(firstMatmulLarge);
  ASSERT_EQ(c.result.records.size(), 2u);
  const OpDecision &first = c.result.records[0].decision;
  EXPECT_TRUE(first.lowPrecision);
  EXPECT_EQ(first.reason, Reason::ObservedRange);
  EXPECT_TRUE(first.outputType.isF32());
  // The second matmul reads a value observed beyond f16: it stays in FP32.
  const OpDecision &second = c.result.records[1].decision;
  EXPECT_FALSE(second.lowPrecision);
  EXPECT_EQ(second.reason, Reason::ObservedRange);
  EXPECT_NE(describeRangeReason(second).find("observed range"),
            std::string::npos);
}

TEST(ObservedRange, OverflowTypeTakesTheReader) {
  Conversion c(firstMatmulLarge, /*overflowBF16=*/true);
  const OpDecision &second = c.result.records[1].decision;
  EXPECT_TRUE(second.lowPrecision);
  EXPECT_TRUE(second.computeType.isBF16());
}

TEST(ObservedRange, NothingObservedChangesNothing) {
  Conversion c([](OpResult) -> std::optional<double> { return 10.0; });
  for (const OpRecord &record : c.result.records) {
    EXPECT_TRUE(record.decision.lowPrecision);
    EXPECT_EQ(record.decision.reason, Reason::DefaultList);
  }
}

} // namespace
