//===- RowReductions.cpp - Softmax, norms, pooling as one kernel per row --===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The --amp-gpu-row-reductions pass. After elementwise fusion, a softmax is
// a reduction (max over a row), a second reduction that reads the first
// (sum of exp(x - max)) and an elementwise op that reads both (the
// division); a layer norm, an RMS norm and a global average pool have the
// same shape: ops over one row space whose reductions run along the row and
// whose later ops read the reductions' results broadcast over the row.
// The generic path runs each as a kernel of its own with one thread per
// output (a reduction over 4096 columns is one thread's loop).
//
// Here such a run of linalg.generic ops ("members") becomes one kernel: a
// row of the row space is handled by T threads (T a power of two, the
// columns rounded up, at most 256), 256 / T rows per block. Each member in
// turn:
//
//  - a reduction: each thread combines its columns (lane, lane + T, ...)
//    from the combiner's identity, the T partial results are combined with
//    warp shuffles (and, for T > 32, through shared memory), and every
//    thread of the row then has the row's result, combined last with the
//    output's initial value (the folded fill, or the value in memory);
//  - an elementwise op over the row: each thread computes its columns,
//    reading the row's reduction results from registers;
//  - an op over the rows alone (a mean's division): computed once per row.
//
// Results are stored when something outside the group reads them. Inside
// the group, an elementwise member's output may be read by a later member
// at the same element only (it is the same thread's).
//
// Float sums are combined in a tree, not in column order: they differ from
// a sequential sum by rounding (within the tests' bounds).
//
//===----------------------------------------------------------------------===//

#include "RowReductions.h"

#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/ScopeExit.h"

namespace mlir {
namespace amp {
#define GEN_PASS_DEF_AMPGPUROWREDUCTIONSPASS
#include "amp/Conversion/Passes.h.inc"
} // namespace amp
} // namespace mlir

using namespace mlir;
using namespace mlir::amp;
using namespace mlir::amp::detail;

/// Whether a group gets a row kernel: any group with a reduction (a lone
/// small-window reduction too: its kernel folds the fill of its output and
/// the ops over its rows that follow).
static bool worthIt(const RowGroup &g) { return g.hasReduction(); }

namespace {
/// Remembers the ops a rewrite erased (a group's kernel erases buffers and
/// deallocations further down the block).
struct ErasedOps : public RewriterBase::Listener {
  DenseSet<Operation *> erased;
  void notifyOperationErased(Operation *op) override { erased.insert(op); }
};
} // namespace

/// Finds the groups of `block` and rewrites them; returns how many kernels
/// it built.
static unsigned rewriteBlock(RewriterBase &rewriter, Block &block) {
  unsigned kernels = 0;
  SmallVector<Operation *> ops;
  for (Operation &op : block)
    ops.push_back(&op);
  ErasedOps erasedOps;
  OpBuilder::Listener *previous = rewriter.getListener();
  rewriter.setListener(&erasedOps);
  auto restore = llvm::make_scope_exit([&] { rewriter.setListener(previous); });
  std::optional<RowGroup> current;
  // Buffers the current group reads and writes (roots), for the ops in
  // between members.
  auto flush = [&]() {
    if (current && worthIt(*current)) {
      foldFills(*current);
      emitRowKernel(rewriter, *current);
      ++kernels;
    }
    current.reset();
  };
  for (Operation *op : ops) {
    if (erasedOps.erased.contains(op))
      continue;
    auto generic = dyn_cast<linalg::GenericOp>(op);
    std::optional<std::pair<RowMember, RowSpace>> classified;
    if (generic)
      classified = classify(generic);
    if (classified) {
      RowMember m = classified->first;
      RowSpace space = classified->second;
      // Join the current group if it fits; else it may start one.
      if (current) {
        bool fits = m.kind == RowMemberKind::Reduction
                        ? space == current->space
                        : matchSpace(m, current->space);
        if (fits) {
          RowGroup trial = *current;
          if (tryJoin(trial, m)) {
            current = std::move(trial);
            continue;
          }
        }
        flush();
      }
      if (m.kind == RowMemberKind::Reduction) {
        current = RowGroup();
        current->space = space;
        if (!tryJoin(*current, m))
          current.reset();
      }
      continue;
    }
    if (!current)
      continue;
    // An op between members: harmless unless it touches the group's
    // buffers (fills of the next reduction's output are folded later).
    // Deallocations of the group's buffers move after its kernel.
    if (isMemoryEffectFree(op) ||
        isa<memref::AllocOp, memref::CollapseShapeOp, memref::ExpandShapeOp,
            memref::DeallocOp>(op))
      continue;
    bool touches = false;
    bool writes = mayWriteMemory(op);
    for (Value root : touchedBuffers(op)) {
      for (const RowGroup::Write &w : current->writes)
        touches |= w.root == root;
      if (writes)
        for (const RowMember &m : current->members)
          for (OpOperand *input : m.op.getDpsInputOperands())
            touches |= bufferRoot(input->get()) == root;
    }
    if (touches)
      flush();
  }
  flush();
  return kernels;
}

namespace {
struct AmpGPURowReductionsPass
    : public amp::impl::AmpGPURowReductionsPassBase<AmpGPURowReductionsPass> {
  using Base::Base;

  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    // Named reductions and pooling ops (reductions with a window) take
    // part as generics.
    SmallVector<linalg::LinalgOp> pooling;
    getOperation()->walk([&](linalg::LinalgOp op) {
      if (op.hasPureBufferSemantics() &&
          !op->getParentOfType<gpu::LaunchOp>() &&
          (isa<linalg::ReduceOp>(op.getOperation()) ||
           op->getName().getStringRef().starts_with("linalg.pooling_")))
        pooling.push_back(op);
    });
    for (linalg::LinalgOp op : pooling) {
      rewriter.setInsertionPoint(op);
      (void)linalg::generalizeNamedOp(rewriter, op);
    }
    SmallVector<Block *> blocks;
    getOperation()->walk([&](Block *block) {
      if (!block->getParentOp()->getParentOfType<gpu::LaunchOp>() &&
          !isa<gpu::LaunchOp>(block->getParentOp()))
        blocks.push_back(block);
    });
    for (Block *block : blocks)
      numKernels += rewriteBlock(rewriter, *block);
  }
};
} // namespace
