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
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include <cstring>

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
  // What the data movement in between would stop: slices, reshapes next to
  // broadcasts, insert_slices (a RoPE's rotate-half), read where used.
  populateAmpGPUIndexedReadFusionPatterns(patterns);
  // Concatenations as insert_slices: their pieces are then read where the
  // result is used (or assembled by one generic) instead of copied.
  tensor::populateDecomposeTensorConcatPatterns(patterns);
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

/// Whether `op` only copies its one input to its output in another order (a
/// transpose, once generalized): parallel loops, permutation maps, a body
/// that yields the input element.
static bool isPermutationCopy(linalg::GenericOp op) {
  if (op.getNumDpsInputs() != 1 || op.getNumDpsInits() != 1 ||
      op.getNumReductionLoops() != 0 || !op.hasPureTensorSemantics())
    return false;
  for (AffineMap map : op.getIndexingMapsArray())
    if (!map.isPermutation())
      return false;
  auto yield = cast<linalg::YieldOp>(op.getBody()->getTerminator());
  return yield.getNumOperands() == 1 &&
         yield.getOperand(0) == op.getBody()->getArgument(0);
}

/// Replaces permutation copies of dense constants (a classifier's weights,
/// transposed for `x * W^T`) by constants that hold the permuted data: the
/// GPU would otherwise transpose the weights on every call (VGG-16: 2 x 205
/// MB of DRAM traffic per call, half of its bound). The bytes are moved
/// directly, not through APFloat values (upstream's constant folding of
/// linalg ops takes gigabytes for a 100M-element weight).
static void foldConstantPermutations(Operation *root) {
  SmallVector<linalg::GenericOp> copies;
  root->walk([&](linalg::GenericOp op) {
    if (isPermutationCopy(op) &&
        op.getDpsInputs()[0].getDefiningOp<arith::ConstantOp>())
      copies.push_back(op);
  });
  for (linalg::GenericOp op : copies) {
    auto constant = op.getDpsInputs()[0].getDefiningOp<arith::ConstantOp>();
    auto value = dyn_cast<DenseElementsAttr>(constant.getValue());
    auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
    auto inputType = cast<RankedTensorType>(constant.getType());
    if (!value || !resultType.hasStaticShape() ||
        !inputType.hasStaticShape() ||
        inputType.getElementTypeBitWidth() % 8 != 0)
      continue;
    DenseElementsAttr folded;
    if (value.isSplat()) {
      folded = value.resizeSplat(resultType);
    } else {
      // out[outMap(i)] = in[inMap(i)] over the loop indices i: walk the
      // output in order and find each element's input position.
      AffineMap inMap = op.getIndexingMapsArray()[0];
      AffineMap outMap = op.getIndexingMapsArray()[1];
      int64_t rank = resultType.getRank();
      SmallVector<int64_t> inStrides(rank, 1);
      for (int64_t r = rank - 2; r >= 0; --r)
        inStrides[r] = inStrides[r + 1] * inputType.getDimSize(r + 1);
      // Input stride of each output dimension.
      SmallVector<int64_t> strideOfOutputDim(rank);
      for (int64_t r = 0; r < rank; ++r) {
        // The loop that indexes the output's dimension r, and the input
        // dimension that loop indexes.
        unsigned loop = outMap.getDimPosition(r);
        unsigned inDim = *inMap.getResultPosition(
            getAffineDimExpr(loop, op.getContext()));
        strideOfOutputDim[r] = inStrides[inDim];
      }
      size_t bytes = inputType.getElementTypeBitWidth() / 8;
      ArrayRef<char> in = value.getRawData();
      std::vector<char> out(in.size());
      SmallVector<int64_t> index(rank, 0);
      int64_t offset = 0;
      for (size_t o = 0, e = resultType.getNumElements(); o < e; ++o) {
        std::memcpy(out.data() + o * bytes, in.data() + offset * bytes,
                    bytes);
        // Next output index (row-major), keeping the input offset.
        for (int64_t r = rank - 1; r >= 0; --r) {
          offset += strideOfOutputDim[r];
          if (++index[r] < resultType.getDimSize(r))
            break;
          offset -= strideOfOutputDim[r] * index[r];
          index[r] = 0;
        }
      }
      folded = DenseElementsAttr::getFromRawBuffer(resultType, out);
    }
    OpBuilder b(op);
    auto replacement = arith::ConstantOp::create(b, op.getLoc(), folded);
    op->getResult(0).replaceAllUsesWith(replacement.getResult());
    op->erase();
    if (constant->use_empty())
      constant->erase();
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
    foldConstantPermutations(getOperation());
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
