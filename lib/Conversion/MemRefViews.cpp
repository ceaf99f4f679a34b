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
