//===- ParallelLoopsToLaunch.cpp - scf.parallel to flat gpu.launch --------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The generic (SIMT) path of the GPU pipeline: every outermost host
// scf.parallel becomes a 1-D gpu.launch with one thread per iteration point.
// Flattening the whole iteration space keeps every loop, whatever its rank
// and extents, at full occupancy without per-rank tile sizes.
//
//===----------------------------------------------------------------------===//

#include "amp/Conversion/Passes.h"

#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir {
namespace amp {
#define GEN_PASS_DEF_AMPGPUPARALLELLOOPSTOLAUNCHPASS
#include "amp/Conversion/Passes.h.inc"
} // namespace amp
} // namespace mlir

using namespace mlir;
using namespace mlir::amp;

LogicalResult mlir::amp::convertParallelLoopToLaunch(RewriterBase &rewriter,
                                                     scf::ParallelOp loop,
                                                     int64_t blockSize) {
  if (loop.getNumResults() != 0)
    return rewriter.notifyMatchFailure(loop, "parallel loop with results");
  Location loc = loop.getLoc();
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(loop);
  auto cst = [&](int64_t v) {
    return arith::ConstantIndexOp::create(rewriter, loc, v);
  };

  // Trip count of each dimension and their product.
  SmallVector<Value> trips;
  Value total = cst(1);
  for (auto [lb, ub, step] :
       llvm::zip(loop.getLowerBound(), loop.getUpperBound(), loop.getStep())) {
    Value span = rewriter.createOrFold<arith::SubIOp>(loc, ub, lb);
    // Empty (or negative) ranges run nothing.
    Value pos = rewriter.createOrFold<arith::MaxSIOp>(loc, span, cst(0));
    Value trip = rewriter.createOrFold<arith::CeilDivUIOp>(loc, pos, step);
    trips.push_back(trip);
    total = rewriter.createOrFold<arith::MulIOp>(loc, total, trip);
  }

  Value nonEmpty = rewriter.createOrFold<arith::CmpIOp>(
      loc, arith::CmpIPredicate::ugt, total, cst(0));
  if (!matchPattern(nonEmpty, m_One())) {
    auto ifOp = scf::IfOp::create(rewriter, loc, nonEmpty, false);
    rewriter.setInsertionPointToStart(&ifOp.getThenRegion().front());
  }
  Value grid =
      rewriter.createOrFold<arith::CeilDivUIOp>(loc, total, cst(blockSize));
  Value one = cst(1);
  auto launch = gpu::LaunchOp::create(rewriter, loc, grid, one, one,
                                      cst(blockSize), one, one);
  if (Attribute what = loop->getAttr(kKernelNameAttrName))
    launch->setAttr(kKernelNameAttrName, what);
  rewriter.setInsertionPointToStart(&launch.getBody().front());
  Value id = arith::AddIOp::create(rewriter, loc,
                                   arith::MulIOp::create(rewriter, loc,
                                                         launch.getBlockIds().x,
                                                         cst(blockSize)),
                                   launch.getThreadIds().x);
  Value inRange = arith::CmpIOp::create(rewriter, loc,
                                        arith::CmpIPredicate::ult, id, total);
  auto guardIf = scf::IfOp::create(rewriter, loc, inRange, false);
  gpu::TerminatorOp::create(rewriter, loc);

  // Delinearize, innermost dimension fastest (coalesced accesses).
  rewriter.setInsertionPointToStart(&guardIf.getThenRegion().front());
  IRMapping mapping;
  Value rest = id;
  for (int64_t d = static_cast<int64_t>(trips.size()) - 1; d >= 0; --d) {
    Value pos =
        d == 0
            ? rest
            : arith::RemUIOp::create(rewriter, loc, rest, trips[d]).getResult();
    if (d != 0)
      rest = arith::DivUIOp::create(rewriter, loc, rest, trips[d]);
    Value iv = arith::AddIOp::create(
        rewriter, loc, loop.getLowerBound()[d],
        arith::MulIOp::create(rewriter, loc, pos, loop.getStep()[d]));
    mapping.map(loop.getInductionVars()[d], iv);
  }
  for (Operation &op : loop.getBody()->without_terminator())
    rewriter.clone(op, mapping);
  rewriter.eraseOp(loop);
  return success();
}

namespace {
struct AmpGPUParallelLoopsToLaunchPass
    : public amp::impl::AmpGPUParallelLoopsToLaunchPassBase<
          AmpGPUParallelLoopsToLaunchPass> {
  using Base::Base;

  void runOnOperation() override {
    if (blockSize <= 0 || blockSize > 1024) {
      getOperation()->emitError()
          << "amp-gpu-parallel-loops-to-launch: block-size must be in "
             "[1, 1024], got "
          << static_cast<int64_t>(blockSize.getValue());
      return signalPassFailure();
    }
    SmallVector<scf::ParallelOp> loops;
    getOperation()->walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (isa<gpu::LaunchOp, gpu::GPUModuleOp>(op))
        return WalkResult::skip();
      if (auto loop = dyn_cast<scf::ParallelOp>(op)) {
        loops.push_back(loop);
        return WalkResult::skip();
      }
      return WalkResult::advance();
    });
    IRRewriter rewriter(&getContext());
    for (scf::ParallelOp loop : loops) {
      if (failed(convertParallelLoopToLaunch(rewriter, loop, blockSize))) {
        loop->emitRemark("amp-gpu-parallel-loops-to-launch: parallel loop "
                         "with reductions left on the host");
        continue;
      }
      ++numKernels;
    }
  }
};
} // namespace
