//===- ElideHostSyncs.cpp - No stream split around host-only calls --------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Undoes the stream splits that upstream's gpu-async-region puts around host
// calls that never touch device data: a blocking `gpu.wait [%tokens]`, then
// only pure ops and calls to `amp.host_only` functions, then
// `%n = gpu.wait async` becomes one chain continued from %tokens. See the
// pass description in Passes.td.
//
//===----------------------------------------------------------------------===//

#include "amp/Conversion/Passes.h"

#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"

namespace mlir {
namespace amp {
#define GEN_PASS_DEF_AMPGPUELIDEHOSTSYNCSPASS
#include "amp/Conversion/Passes.h.inc"
} // namespace amp
} // namespace mlir

using namespace mlir;
using namespace mlir::amp;

/// Whether `op` may run between two parts of one stream without a stream
/// synchronization: it touches no memory at all, or it calls a function that
/// reads only host memory and descriptors (`amp.host_only`).
static bool needsNoStreamSync(Operation *op) {
  if (isa<gpu::WaitOp, gpu::AsyncOpInterface>(op))
    return false;
  if (auto call = dyn_cast<CallOpInterface>(op)) {
    Operation *callee = call.resolveCallable();
    return callee && callee->hasAttr(kHostOnlyAttrName);
  }
  return isMemoryEffectFree(op);
}

namespace {
/// Anchored on the `gpu.wait async` (no operands) that starts a new stream:
/// walks back over ops that need no synchronization to the blocking
/// `gpu.wait` that ended the previous one, and joins the two.
struct JoinStreamsAroundHostOnlyCalls : public OpRewritePattern<gpu::WaitOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(gpu::WaitOp start,
                                PatternRewriter &rewriter) const override {
    if (!start.getAsyncToken() || !start.getAsyncDependencies().empty())
      return rewriter.notifyMatchFailure(start, "not a new stream");
    gpu::WaitOp end;
    for (Operation *op = start->getPrevNode(); op; op = op->getPrevNode()) {
      auto wait = dyn_cast<gpu::WaitOp>(op);
      if (wait && !wait.getAsyncToken()) {
        end = wait;
        break;
      }
      if (!needsNoStreamSync(op))
        return rewriter.notifyMatchFailure(start, "host work needs the sync");
    }
    // A wait without tokens synchronizes the whole device: keep it.
    if (!end || end.getAsyncDependencies().empty())
      return rewriter.notifyMatchFailure(start, "no blocking wait on tokens");
    SmallVector<Value> tokens(end.getAsyncDependencies());
    rewriter.eraseOp(end);
    if (tokens.size() == 1) {
      rewriter.replaceOp(start, tokens.front());
      return success();
    }
    // Several streams joined: the new work waits for all of them, without
    // the host.
    rewriter.modifyOpInPlace(
        start, [&] { start.getAsyncDependenciesMutable().assign(tokens); });
    return success();
  }
};

struct AmpGPUElideHostSyncsPass
    : public amp::impl::AmpGPUElideHostSyncsPassBase<AmpGPUElideHostSyncsPass> {
  using Base::Base;

  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateGPUElideHostSyncsPatterns(patterns);
    // Counts the blocking waits erased (one per join).
    struct Counter : public RewriterBase::Listener {
      uint64_t erased = 0;
      void notifyOperationErased(Operation *op) override {
        if (auto wait = dyn_cast<gpu::WaitOp>(op))
          erased += !wait.getAsyncToken();
      }
    } counter;
    walkAndApplyPatterns(getOperation(), std::move(patterns), &counter);
    numElided += counter.erased;
  }
};
} // namespace

void mlir::amp::populateGPUElideHostSyncsPatterns(RewritePatternSet &patterns) {
  patterns.add<JoinStreamsAroundHostOnlyCalls>(patterns.getContext());
}
