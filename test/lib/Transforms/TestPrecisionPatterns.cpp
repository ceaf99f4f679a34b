//===- TestPrecisionPatterns.cpp - Drive amp's patterns with own decisions ===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// --amp-test-precision-patterns: applies populateAmpMixedPrecisionPatterns
// with the greedy driver and a decision source of the test's choosing, as
// another pipeline would:
//   decisions=matmul-bf16   every matmul (linalg, TOSA) takes bf16 inputs and
//                           accumulates in f32; nothing else changes;
//   decisions=annotations   the annotations of --amp-plan-precision
//                           (removed afterwards).
//
//===----------------------------------------------------------------------===//

#include "TestPasses.h"

#include "amp/IR/AmpDialect.h"
#include "amp/Transforms/PrecisionPatterns.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

using namespace mlir;
using namespace mlir::amp;

namespace {

struct TestPrecisionPatternsPass
    : public PassWrapper<TestPrecisionPatternsPass, OperationPass<>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestPrecisionPatternsPass)

  TestPrecisionPatternsPass() = default;
  TestPrecisionPatternsPass(const TestPrecisionPatternsPass &other)
      : PassWrapper(other) {}

  StringRef getArgument() const final { return "amp-test-precision-patterns"; }
  StringRef getDescription() const final {
    return "Apply amp's precision patterns with a test decision source";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<AmpDialect, arith::ArithDialect, tensor::TensorDialect,
                    tosa::TosaDialect>();
  }

  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    PrecisionDecisionFn decide;
    if (decisions == "matmul-bf16") {
      FloatType bf16 = BFloat16Type::get(ctx), f32 = Float32Type::get(ctx);
      decide = [=](Operation *op) -> std::optional<OpDecision> {
        if (!isa<linalg::MatmulOp, linalg::BatchMatmulOp, tosa::MatMulOp>(op))
          return std::nullopt;
        OpDecision decision;
        decision.lowPrecision = true;
        decision.computeType = bf16;
        decision.accumulateType = decision.outputType = f32;
        return decision;
      };
    } else if (decisions == "annotations") {
      decide = getAnnotatedDecisions();
    } else {
      emitError(getOperation()->getLoc())
          << "amp-test-precision-patterns: unknown decisions '" << decisions
          << "'; expected matmul-bf16 or annotations";
      return signalPassFailure();
    }
    RewritePatternSet patterns(ctx);
    populateAmpMixedPrecisionPatterns(patterns, decide);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
    if (decisions == "annotations")
      getOperation()->walk([](Operation *op) {
        op->removeAttr(AmpDialect::PrecisionAttrHelper::getNameStr());
        op->removeAttr(AmpDialect::ColorAttrHelper::getNameStr());
      });
  }

  Option<std::string> decisions{*this, "decisions",
                                llvm::cl::desc("matmul-bf16 or annotations"),
                                llvm::cl::init("matmul-bf16")};
};

} // namespace

void mlir::amp::test::registerTestPrecisionPatternsPass() {
  PassRegistration<TestPrecisionPatternsPass>();
}
