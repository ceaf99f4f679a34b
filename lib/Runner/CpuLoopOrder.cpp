//===- CpuLoopOrder.cpp - Order linalg.generic loops for a CPU ------------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The --amp-cpu-loop-order pass: scores every loop of a linalg.generic by the
// number of operands it walks contiguously and moves the best one innermost
// with linalg::interchangeGenericOp.
//
//===----------------------------------------------------------------------===//

#include "amp/Runner/Passes.h"

#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir {
namespace amp {
#define GEN_PASS_DEF_AMPCPULOOPORDERPASS
#include "amp/Runner/Passes.h.inc"
} // namespace amp
} // namespace mlir

using namespace mlir;

namespace {

/// Adds 1 to `scores[d]` for every dim d that `expr` (the last index of an
/// operand) contains with coefficient 1: a plain dim, or a term of a sum.
void scoreContiguousDims(AffineExpr expr, MutableArrayRef<int> scores) {
  if (auto dim = dyn_cast<AffineDimExpr>(expr)) {
    ++scores[dim.getPosition()];
    return;
  }
  auto binary = dyn_cast<AffineBinaryOpExpr>(expr);
  if (binary && binary.getKind() == AffineExprKind::Add) {
    scoreContiguousDims(binary.getLHS(), scores);
    scoreContiguousDims(binary.getRHS(), scores);
  }
}

/// Returns the loop that should be innermost in `op`.
unsigned chooseInnermostLoop(linalg::GenericOp op) {
  unsigned numLoops = op.getNumLoops();
  SmallVector<int> scores(numLoops, 0);
  for (OpOperand &operand : op->getOpOperands()) {
    if (op.isDpsInput(&operand) && !op.payloadUsesValueFromOperand(&operand))
      continue;
    AffineMap map = op.getMatchingIndexingMap(&operand);
    if (map.getNumResults() > 0)
      scoreContiguousDims(map.getResults().back(), scores);
  }
  // Ties go to the longer loop (more iterations to vectorize or to keep in
  // cache), then to the loop that is already innermost.
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  unsigned best = numLoops - 1;
  auto better = [&](unsigned a, unsigned b) {
    if (scores[a] != scores[b])
      return scores[a] > scores[b];
    return !ShapedType::isDynamic(ranges[a]) &&
           !ShapedType::isDynamic(ranges[b]) && ranges[a] > ranges[b];
  };
  for (unsigned loop = 0; loop + 1 < numLoops; ++loop)
    if (better(loop, best))
      best = loop;
  return best;
}

struct AmpCpuLoopOrderPass
    : public amp::impl::AmpCpuLoopOrderPassBase<AmpCpuLoopOrderPass> {
  void runOnOperation() override {
    SmallVector<linalg::GenericOp> generics;
    getOperation()->walk([&](linalg::GenericOp op) { generics.push_back(op); });
    IRRewriter rewriter(&getContext());
    for (linalg::GenericOp op : generics) {
      unsigned numLoops = op.getNumLoops();
      if (numLoops < 2)
        continue;
      unsigned innermost = chooseInnermostLoop(op);
      if (innermost == numLoops - 1)
        continue;
      SmallVector<unsigned> order;
      for (unsigned loop = 0; loop < numLoops; ++loop)
        if (loop != innermost)
          order.push_back(loop);
      order.push_back(innermost);
      rewriter.setInsertionPoint(op);
      if (failed(linalg::interchangeGenericOp(rewriter, op, order))) {
        op.emitError("amp-cpu-loop-order: cannot interchange the loops");
        return signalPassFailure();
      }
    }
  }
};

} // namespace
