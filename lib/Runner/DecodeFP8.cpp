//===- DecodeFP8.cpp - Decode FP8 inputs of generics once -----------------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// --amp-cpu-decode-fp8: an FP8 input of a linalg.generic whose payload only
// widens it to f32 is widened once, by an elementwise generic before the op,
// and the payload reads the f32 value. Exact: the same f32 values reach the
// same arithmetic.
//
//===----------------------------------------------------------------------===//

#include "amp/Runner/Passes.h"

#include "amp/Utils/FloatConversion.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir {
namespace amp {
#define GEN_PASS_DEF_AMPCPUDECODEFP8PASS
#include "amp/Runner/Passes.h.inc"
} // namespace amp
} // namespace mlir

using namespace mlir;
using namespace mlir::amp;

namespace {

/// The FP8 inputs of `op` whose payload argument is only read by
/// arith.extf to f32.
SmallVector<OpOperand *> getDecodableInputs(linalg::GenericOp op) {
  SmallVector<OpOperand *> inputs;
  for (OpOperand *input : op.getDpsInputOperands()) {
    auto type = dyn_cast<RankedTensorType>(input->get().getType());
    if (!type || !isFP8Type(type.getElementType()))
      continue;
    BlockArgument arg = op.getMatchingBlockArgument(input);
    if (llvm::all_of(arg.getUsers(), [](Operation *user) {
          auto ext = dyn_cast<arith::ExtFOp>(user);
          return ext && ext.getType().isF32();
        }))
      inputs.push_back(input);
  }
  return inputs;
}

/// `value` (an FP8 tensor) widened to f32 by an elementwise generic, with
/// its dimensions permuted (dimension i of the result is dimension
/// permutation[i] of `value`).
Value decode(RewriterBase &rewriter, Location loc, Value value,
             ArrayRef<int64_t> permutation) {
  auto type = cast<RankedTensorType>(value.getType());
  SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(rewriter, loc, value);
  SmallVector<OpFoldResult> newSizes;
  for (int64_t p : permutation)
    newSizes.push_back(sizes[p]);
  Value empty =
      tensor::EmptyOp::create(rewriter, loc, newSizes, rewriter.getF32Type());
  MLIRContext *ctx = rewriter.getContext();
  int64_t rank = type.getRank();
  SmallVector<AffineExpr> reads(rank);
  for (auto [i, p] : llvm::enumerate(permutation))
    reads[p] = getAffineDimExpr(i, ctx);
  AffineMap read = AffineMap::get(rank, 0, reads, ctx);
  AffineMap identity = AffineMap::getMultiDimIdentityMap(rank, ctx);
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  return linalg::GenericOp::create(
             rewriter, loc, TypeRange{empty.getType()}, ValueRange{value},
             ValueRange{empty}, ArrayRef<AffineMap>{read, identity}, iterators,
             [&](OpBuilder &b, Location loc, ValueRange args) {
               Value ext =
                   arith::ExtFOp::create(b, loc, b.getF32Type(), args[0]);
               linalg::YieldOp::create(b, loc, ext);
             })
      .getResult(0);
}

/// The layout the decoded copy of `input` gets: the loop that indexes the
/// last dimension of the op's first init last (C[m, n] += A[m, k] * B[n, k]
/// stores B as [k, n]), so that naive loops walk it along the output; the
/// identity if that loop is not one of its dimensions.
SmallVector<int64_t> getDecodedLayout(linalg::GenericOp op, OpOperand *input) {
  AffineMap map = op.getMatchingIndexingMap(input);
  SmallVector<int64_t> permutation =
      llvm::to_vector(llvm::seq<int64_t>(0, map.getNumResults()));
  AffineMap init = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  if (init.getNumResults() == 0 || !map.isProjectedPermutation())
    return permutation;
  auto last = dyn_cast<AffineDimExpr>(init.getResults().back());
  if (!last)
    return permutation;
  for (auto [i, expr] : llvm::enumerate(map.getResults()))
    if (expr == last) {
      permutation.erase(permutation.begin() + i);
      permutation.push_back(i);
      break;
    }
  return permutation;
}

struct AmpCpuDecodeFP8Pass
    : public amp::impl::AmpCpuDecodeFP8PassBase<AmpCpuDecodeFP8Pass> {
  void runOnOperation() override {
    SmallVector<linalg::GenericOp> generics;
    getOperation()->walk([&](linalg::GenericOp op) {
      if (op.hasPureTensorSemantics() && op.getNumReductionLoops() > 0)
        generics.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (linalg::GenericOp op : generics) {
      for (OpOperand *input : getDecodableInputs(op)) {
        rewriter.setInsertionPoint(op);
        SmallVector<int64_t> layout = getDecodedLayout(op, input);
        Value wide = decode(rewriter, op.getLoc(), input->get(), layout);
        BlockArgument arg = op.getMatchingBlockArgument(input);
        // The op reads the copy in its layout: its map's results permuted.
        SmallVector<AffineMap> maps = op.getIndexingMapsArray();
        AffineMap &map = maps[input->getOperandNumber()];
        SmallVector<AffineExpr> results;
        for (int64_t p : layout)
          results.push_back(map.getResult(p));
        map = AffineMap::get(map.getNumDims(), map.getNumSymbols(), results,
                             rewriter.getContext());
        rewriter.modifyOpInPlace(op, [&] {
          input->set(wide);
          arg.setType(rewriter.getF32Type());
          op.setIndexingMapsAttr(rewriter.getAffineMapArrayAttr(maps));
        });
        for (Operation *user : llvm::make_early_inc_range(arg.getUsers()))
          rewriter.replaceOp(user, arg);
      }
    }
  }
};

} // namespace
