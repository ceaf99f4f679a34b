//===- FuseElementwise.cpp - Elementwise fusion before the GPU lowering ---===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The --amp-gpu-fuse-elementwise pass, on tensors: named elementwise and
// data-movement ops (linalg.add, linalg.broadcast, linalg.transpose, ...)
// become linalg.generic ops, reshapes are moved out of the way of fusion
// (upstream's fusion by expansion), and producers fuse into their generic
// consumers (upstream's elementwise fusion). Named contractions and
// convolutions are never fused into: they keep their form and their 16-bit
// operands for the Tensor Core kernels, which take the chains before and
// after them into their operand loads and their epilogue instead
// (--amp-gpu-matmul-to-mma).
//
//===----------------------------------------------------------------------===//

#include "amp/Conversion/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir {
namespace amp {
#define GEN_PASS_DEF_AMPGPUFUSEELEMENTWISEPASS
#include "amp/Conversion/Passes.h.inc"
} // namespace amp
} // namespace mlir

using namespace mlir;
using namespace mlir::amp;

/// Whether `op` is a named linalg op that is only an elementwise computation,
/// a data movement or a reduction (a generic in disguise): everything but
/// contractions, convolutions, pooling, fills and copies of whole buffers.
static bool isGeneralizable(linalg::LinalgOp op) {
  if (isa<linalg::GenericOp, linalg::FillOp, linalg::CopyOp>(op.getOperation()))
    return false;
  // Reductions: their elementwise producers fuse into them (x * x into an
  // RMS norm's sum), and --amp-gpu-row-reductions groups them as generics.
  if (isa<linalg::ReduceOp>(op.getOperation()))
    return op.hasPureTensorSemantics();
  if (linalg::isaContractionOpInterface(op) ||
      linalg::isaConvolutionOpInterface(op))
    return false;
  // Pooling and other ops with reductions keep their names (they are
  // lowered as reductions later); elementwise ops and maps have none.
  return op.getNumReductionLoops() == 0 && op.hasPureTensorSemantics();
}

void mlir::amp::populateAmpGPUFusionPatterns(RewritePatternSet &patterns) {
  MLIRContext *context = patterns.getContext();
  // Only generic producers into generic consumers: named contractions stay
  // named (with their 16-bit operands).
  // Not into a generic that says what kernel it is (a depthwise
  // convolution): fusion would rebuild it without that name, and its
  // kernel evaluates such producers where it reads them anyway.
  linalg::ControlFusionFn intoGenerics = [](OpOperand *fused) {
    return isa<linalg::GenericOp>(fused->getOwner()) &&
           !fused->getOwner()->hasAttr(kKernelNameAttrName) &&
           isa_and_nonnull<linalg::GenericOp>(fused->get().getDefiningOp());
  };
  linalg::populateElementwiseOpsFusionPatterns(patterns, intoGenerics);
  // Reshapes between generics stop fusion: fold them into the generics,
  // which then iterate over the expanded shape (and read a named op's
  // result through a reshaped view of it).
  // Upstream's patterns would generalize a named consumer or producer:
  // only generics on both sides.
  linalg::ControlFusionFn reshapes = [](OpOperand *fused) {
    Operation *owner = fused->getOwner();
    if (isa<tensor::ExpandShapeOp, tensor::CollapseShapeOp>(owner))
      return isa_and_nonnull<linalg::GenericOp>(fused->get().getDefiningOp());
    return isa<linalg::GenericOp>(owner);
  };
  linalg::populateFoldReshapeOpsByExpansionPatterns(patterns, reshapes);
  affine::AffineApplyOp::getCanonicalizationPatterns(patterns, context);
  linalg::GenericOp::getCanonicalizationPatterns(patterns, context);
  tensor::ExpandShapeOp::getCanonicalizationPatterns(patterns, context);
  tensor::CollapseShapeOp::getCanonicalizationPatterns(patterns, context);
  tensor::populateFoldTensorEmptyPatterns(patterns);
}

/// Gives every use of a tensor.empty its own: one-shot bufferization turns
/// a shared one into one buffer that successive ops write in turn (the
/// MLP's three layers all write one buffer, which is also the next layer's
/// matmul input), and a matmul kernel that computes its consumer in the
/// epilogue must not write the buffer it reads A from.
///
/// Likewise a linalg.fill of a tensor.empty that several ops take as their
/// init (the MLP's zero accumulator): one fill each, which the matmul
/// kernels fold, instead of one fill and a copy kernel per use.
static void splitEmptyTensors(Operation *root) {
  SmallVector<linalg::FillOp> fills;
  root->walk([&](linalg::FillOp op) {
    if (op.hasPureTensorSemantics() && !op->getResult(0).hasOneUse() &&
        !op->getResult(0).use_empty() &&
        op.getDpsInits()[0].getDefiningOp<tensor::EmptyOp>())
      fills.push_back(op);
  });
  for (linalg::FillOp op : fills) {
    // Each copy right before its user, where the kernels look for it.
    for (OpOperand &use : llvm::make_early_inc_range(
             llvm::drop_begin(op->getResult(0).getUses()))) {
      OpBuilder b(use.getOwner());
      use.set(b.clone(*op)->getResult(0));
    }
  }
  SmallVector<tensor::EmptyOp> empties;
  root->walk([&](tensor::EmptyOp op) {
    if (!op->hasOneUse() && !op->use_empty())
      empties.push_back(op);
  });
  for (tensor::EmptyOp op : empties) {
    OpBuilder b(op);
    for (OpOperand &use : llvm::make_early_inc_range(
             llvm::drop_begin(op->getUses())))
      use.set(b.clone(*op)->getResult(0));
  }
}

namespace {
struct AmpGPUFuseElementwisePass
    : public amp::impl::AmpGPUFuseElementwisePassBase<
          AmpGPUFuseElementwisePass> {
  using Base::Base;

  void runOnOperation() override {
    // Named elementwise and data-movement ops become generics first.
    SmallVector<linalg::LinalgOp> named;
    getOperation()->walk([&](linalg::LinalgOp op) {
      if (isGeneralizable(op))
        named.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (linalg::LinalgOp op : named) {
      rewriter.setInsertionPoint(op);
      (void)linalg::generalizeNamedOp(rewriter, op);
    }
    RewritePatternSet patterns(&getContext());
    populateAmpGPUFusionPatterns(patterns);
    GreedyRewriteConfig config;
    config.setUseTopDownTraversal(true);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns),
                                     config)))
      return signalPassFailure();
    splitEmptyTensors(getOperation());
  }
};
} // namespace
