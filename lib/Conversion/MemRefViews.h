//===- MemRefViews.h - Buffers seen through reshapes ------------*- C++ -*-===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Internal to lib/Conversion: what the fusions and kernel passes ask of
// bufferized code: the buffer behind a chain of views (or of reshapes
// only), every reshape of it, its layout, the buffers an op touches and
// writes (or whether it writes at all), the indices an indexing map gives
// and the loop indices at an operand's element, and the erasure of a
// buffer nothing reads any more.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_LIB_CONVERSION_MEMREFVIEWS_H
#define AMP_LIB_CONVERSION_MEMREFVIEWS_H

#include "mlir/Dialect/Affine/Utils.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir {
namespace amp {
namespace detail {

/// `v` through any view ops to the buffer they view.
Value bufferRoot(Value v);

/// The buffers `op` (and the ops nested in it) may touch: the roots of the
/// memref values it uses that are defined outside it.
SmallVector<Value> touchedBuffers(Operation *op);

/// The buffers `op` may write: a linalg op's inits, a copy's target, a
/// store's memref; for other ops that may write memory, everything they
/// touch; none for ops without write effects.
SmallVector<Value> writtenBuffers(Operation *op);

/// Whether `op` may write memory (no effect interface: assume it does);
/// allocations and deallocations do not count.
bool mayWriteMemory(Operation *op);

/// `v` through memref.collapse_shape / expand_shape ops: the value the
/// chain starts from (an allocation, a block argument, or another op's
/// result; callers say which they accept).
inline Value throughReshapes(Value v) {
  while (Operation *def = v.getDefiningOp()) {
    if (auto c = dyn_cast<memref::CollapseShapeOp>(def))
      v = c.getSrc();
    else if (auto e = dyn_cast<memref::ExpandShapeOp>(def))
      v = e.getSrc();
    else
      break;
  }
  return v;
}

/// The buffers reshapeRoot accepts at the start of a chain of reshapes.
enum class ReshapeRoot {
  /// Only a memref.alloc: a buffer of the function's own, which nothing
  /// outside it writes (a producer whose output is a block argument writes
  /// what the caller reads).
  Allocation,
  /// A memref.alloc or memref.alloca, or a block argument (a buffer the
  /// caller passes).
  AnyBuffer,
};

/// The buffer `v` views through reshapes when `accept` allows it; null
/// otherwise (another view op in the way, or a root `accept` excludes).
inline Value reshapeRoot(Value v, ReshapeRoot accept) {
  Value root = throughReshapes(v);
  Operation *def = root.getDefiningOp();
  if (accept == ReshapeRoot::Allocation)
    return isa_and_nonnull<memref::AllocOp>(def) ? root : Value();
  return !def || isa<memref::AllocOp, memref::AllocaOp>(def) ? root : Value();
}

/// The values viewing `root` through reshapes (`root` included).
inline SmallVector<Value> reshapesOf(Value root) {
  SmallVector<Value> views{root};
  for (size_t i = 0; i < views.size(); ++i)
    for (Operation *user : views[i].getUsers())
      if (isa<memref::CollapseShapeOp, memref::ExpandShapeOp>(user))
        views.push_back(user->getResult(0));
  return views;
}

/// Whether `v` is a memref with the identity (row-major) layout.
inline bool isRowMajor(Value v) {
  auto type = dyn_cast<MemRefType>(v.getType());
  return type && type.getLayout().isIdentity();
}

/// `map` applied to `dims` (a plain dimension is the value itself; other
/// results are arith ops).
inline SmallVector<Value> applyMap(OpBuilder &b, Location loc, AffineMap map,
                                   ArrayRef<Value> dims) {
  return *affine::expandAffineMap(b, loc, map, dims);
}

/// Whether `operand` of `op` covers the op's loops one to one: each
/// result of its indexing map is a distinct loop dimension, or the constant
/// 0 for a unit dimension of the operand, and every loop that no result
/// names has one iteration (the `(0, d1, d2, d3)` maps of batch-1 models).
bool isPermutationUpToUnitDims(linalg::LinalgOp op, OpOperand *operand);

/// The loop indices of `op` at `operandIndices` of `operand` (for which
/// isPermutationUpToUnitDims holds); loops no result names are 0.
SmallVector<Value> loopIndicesAt(OpBuilder &b, Location loc,
                                 linalg::LinalgOp op, OpOperand *operand,
                                 ArrayRef<Value> operandIndices);

/// Erases the allocation `root` with its reshapes and deallocations when
/// nothing else uses them (its last reader and writer are gone); leaves
/// anything else alone.
void eraseIfUnused(RewriterBase &rewriter, Value root);

} // namespace detail
} // namespace amp
} // namespace mlir

#endif // AMP_LIB_CONVERSION_MEMREFVIEWS_H
