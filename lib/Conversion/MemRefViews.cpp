//===- MemRefViews.cpp - The buffers ops read and write -------------------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// See MemRefViews.h.
//
//===----------------------------------------------------------------------===//

#include "MemRefViews.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/SmallBitVector.h"

using namespace mlir;

/// `v` through any view ops to the buffer they view.
Value mlir::amp::detail::bufferRoot(Value v) {
  while (Operation *def = v.getDefiningOp()) {
    auto view = dyn_cast<ViewLikeOpInterface>(def);
    if (!view)
      break;
    v = view.getViewSource();
  }
  return v;
}

/// The buffers `op` (and the ops nested in it) may touch: the roots of the
/// memref values it uses that are defined outside it.
SmallVector<Value> mlir::amp::detail::touchedBuffers(Operation *op) {
  SmallVector<Value> roots;
  op->walk([&](Operation *nested) {
    for (Value v : nested->getOperands()) {
      if (!isa<BaseMemRefType>(v.getType()))
        continue;
      if (Operation *def = v.getDefiningOp();
          def && op->isAncestor(def))
        continue;
      if (auto arg = dyn_cast<BlockArgument>(v);
          arg && op->isAncestor(arg.getOwner()->getParentOp()))
        continue;
      roots.push_back(bufferRoot(v));
    }
  });
  return roots;
}

SmallVector<Value> mlir::amp::detail::writtenBuffers(Operation *op) {
  SmallVector<Value> roots;
  if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op)) {
    for (Value init : linalgOp.getDpsInits())
      roots.push_back(bufferRoot(init));
    // A payload that stores elsewhere is not expected; be conservative.
    linalgOp->walk([&](memref::StoreOp store) {
      roots.push_back(bufferRoot(store.getMemRef()));
    });
    return roots;
  }
  if (auto copy = dyn_cast<memref::CopyOp>(op))
    return {bufferRoot(copy.getTarget())};
  if (auto store = dyn_cast<memref::StoreOp>(op))
    return {bufferRoot(store.getMemRef())};
  if (isa<memref::AllocOp, memref::AllocaOp, memref::DeallocOp>(op))
    return {};
  if (isa<gpu::LaunchOp>(op)) {
    // A kernel amp built: what its ops write (stores, copies) outside it.
    // Ops without a memory-effect interface (NVVM barriers, waits) write
    // only what they are given.
    auto outside = [&](Value v) {
      if (Operation *def = v.getDefiningOp())
        return !op->isAncestor(def);
      return !op->isAncestor(
          cast<BlockArgument>(v).getOwner()->getParentOp());
    };
    op->walk([&](Operation *nested) {
      if (nested == op)
        return;
      auto iface = dyn_cast<MemoryEffectOpInterface>(nested);
      if (!iface) {
        for (Value v : nested->getOperands())
          if (isa<BaseMemRefType>(v.getType()) && outside(v))
            roots.push_back(bufferRoot(v));
        return;
      }
      SmallVector<MemoryEffects::EffectInstance> effects;
      iface.getEffects(effects);
      for (const MemoryEffects::EffectInstance &e : effects)
        if (isa<MemoryEffects::Write, MemoryEffects::Free>(e.getEffect()) &&
            e.getValue() && outside(e.getValue()))
          roots.push_back(bufferRoot(e.getValue()));
    });
    return roots;
  }
  std::optional<SmallVector<MemoryEffects::EffectInstance>> effects =
      getEffectsRecursively(op);
  if (!effects)
    return touchedBuffers(op);
  // The buffers the writes name; a write that names no value could be
  // anywhere.
  for (const MemoryEffects::EffectInstance &e : *effects) {
    if (!isa<MemoryEffects::Write, MemoryEffects::Free>(e.getEffect()))
      continue;
    Value v = e.getValue();
    if (!v)
      return touchedBuffers(op);
    if (Operation *def = v.getDefiningOp(); def && op->isAncestor(def))
      continue; // shared memory or a buffer of its own
    if (auto arg = dyn_cast<BlockArgument>(v);
        arg && op->isAncestor(arg.getOwner()->getParentOp()))
      continue;
    roots.push_back(bufferRoot(v));
  }
  return roots;
}

bool mlir::amp::detail::mayWriteMemory(Operation *op) {
  if (isa<memref::AllocOp, memref::AllocaOp, memref::DeallocOp>(op))
    return false;
  std::optional<SmallVector<MemoryEffects::EffectInstance>> effects =
      getEffectsRecursively(op);
  if (!effects)
    return true;
  return llvm::any_of(*effects, [](const MemoryEffects::EffectInstance &e) {
    return isa<MemoryEffects::Write, MemoryEffects::Free>(e.getEffect());
  });
}

bool mlir::amp::detail::isPermutationUpToUnitDims(linalg::LinalgOp op,
                                                  OpOperand *operand) {
  AffineMap map = op.getMatchingIndexingMap(operand);
  auto type = dyn_cast<ShapedType>(operand->get().getType());
  if (!type || type.getRank() != map.getNumResults())
    return false;
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  llvm::SmallBitVector named(map.getNumDims());
  for (auto [i, expr] : llvm::enumerate(map.getResults())) {
    if (auto dim = dyn_cast<AffineDimExpr>(expr)) {
      if (named.test(dim.getPosition()))
        return false;
      named.set(dim.getPosition());
      continue;
    }
    auto cst = dyn_cast<AffineConstantExpr>(expr);
    if (!cst || cst.getValue() != 0 || type.getDimSize(i) != 1)
      return false;
  }
  for (unsigned d = 0; d < map.getNumDims(); ++d)
    if (!named.test(d) && ranges[d] != 1)
      return false;
  return true;
}

SmallVector<Value> mlir::amp::detail::loopIndicesAt(
    OpBuilder &b, Location loc, linalg::LinalgOp op, OpOperand *operand,
    ArrayRef<Value> operandIndices) {
  AffineMap map = op.getMatchingIndexingMap(operand);
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  SmallVector<Value> loops(map.getNumDims(), zero);
  for (auto [i, expr] : llvm::enumerate(map.getResults()))
    if (auto dim = dyn_cast<AffineDimExpr>(expr))
      loops[dim.getPosition()] = operandIndices[i];
  return loops;
}

void mlir::amp::detail::eraseIfUnused(RewriterBase &rewriter, Value root) {
  auto alloc = root.getDefiningOp<memref::AllocOp>();
  if (!alloc)
    return;
  SmallVector<Value> views = reshapesOf(root);
  for (Value view : views)
    for (Operation *user : view.getUsers())
      if (!isa<memref::CollapseShapeOp, memref::ExpandShapeOp,
               memref::DeallocOp>(user))
        return;
  for (Value view : llvm::reverse(views))
    for (Operation *user : llvm::make_early_inc_range(view.getUsers()))
      if (isa<memref::DeallocOp>(user))
        rewriter.eraseOp(user);
  for (Value view : llvm::reverse(views))
    if (view != root && view.use_empty())
      rewriter.eraseOp(view.getDefiningOp());
  if (root.use_empty())
    rewriter.eraseOp(alloc);
}
