//===- LinalgUtils.h - Cheap queries on linalg ops --------------*- C++ -*-===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Which operands of a linalg op are its inits, without the
// DestinationStyleOpInterface accessors: linalg's generated
// getDpsInitsMutable() builds the op's operand-segment-size attribute (a
// uniqued DenseI32ArrayAttr) on every call, and isDpsInit, isDpsInput,
// getDpsInits and getNumDpsInits all go through it. Asked for every operand
// of every linalg op, that was the costliest call of --amp-mixed-precision
// on an MLP. On tensors a linalg op has one result per init, which gives
// the answer from the operand and result counts. The loop extents likewise
// come from the operand shapes without composing the indexing maps.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_UTILS_LINALGUTILS_H
#define AMP_UTILS_LINALGUTILS_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"

namespace mlir {
namespace amp {

/// The operand number of the first init of `op` (linalg ops list their
/// inputs, then their inits).
inline unsigned getFirstInitNumber(linalg::LinalgOp op) {
  // On tensors, one result per init (the linalg verifier checks it).
  if (op->getNumResults() != 0)
    return op->getNumOperands() - op->getNumResults();
  return op.getNumDpsInputs();
}

/// `op.isDpsInit(&operand)`.
inline bool isInitOperand(linalg::LinalgOp op, OpOperand &operand) {
  return operand.getOperandNumber() >= getFirstInitNumber(op);
}

/// `op.getDpsInitsMutable()` as a range of operands.
inline MutableArrayRef<OpOperand> getInitOperands(linalg::LinalgOp op) {
  return op->getOpOperands().drop_front(getFirstInitNumber(op));
}

/// `op.getDpsInits()`.
inline OperandRange getInits(linalg::LinalgOp op) {
  return op->getOperands().drop_front(getFirstInitNumber(op));
}

/// `op.getStaticLoopRanges()` (a dynamic extent is ShapedType::kDynamic),
/// read from the operand dimensions that a loop indexes directly: the
/// interface's version composes and inverts the indexing maps on every
/// call, which is most of its cost for an elementwise op. Falls back to it
/// when some loop is indexed only through an expression.
inline SmallVector<int64_t> getStaticLoopExtents(linalg::LinalgOp op) {
  unsigned numLoops = op.getNumLoops();
  SmallVector<int64_t> extents(numLoops, ShapedType::kDynamic);
  SmallVector<bool> found(numLoops, false);
  unsigned numFound = 0;
  for (auto [operand, map] :
       llvm::zip(op->getOperands(), op.getIndexingMapsArray())) {
    auto shaped = dyn_cast<ShapedType>(operand.getType());
    if (!shaped || !shaped.hasRank() ||
        shaped.getRank() != static_cast<int64_t>(map.getNumResults()))
      continue;
    for (auto [position, expr] : llvm::enumerate(map.getResults())) {
      auto dim = dyn_cast<AffineDimExpr>(expr);
      if (!dim || dim.getPosition() >= numLoops || found[dim.getPosition()] ||
          shaped.isDynamicDim(position))
        continue;
      found[dim.getPosition()] = true;
      extents[dim.getPosition()] = shaped.getDimSize(position);
      ++numFound;
    }
  }
  if (numFound != numLoops)
    return op.getStaticLoopRanges();
  return extents;
}

/// Calls `fn` on every op nested in `root` (not `root`), in pre-order, but
/// not on the ops of linalg payloads (scalar arithmetic, about half the ops
/// of a model, which no annotation and no structured op is on). `fn` may
/// interrupt the walk.
inline WalkResult walkTensorOps(Operation *root,
                                function_ref<WalkResult(Operation *)> fn) {
  return root->walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (op == root)
      return WalkResult::advance();
    WalkResult result = fn(op);
    if (result.wasInterrupted() || op->getNumRegions() == 0 ||
        !isa_and_nonnull<linalg::LinalgDialect>(op->getDialect()))
      return result;
    return WalkResult::skip();
  });
}

} // namespace amp
} // namespace mlir

#endif // AMP_UTILS_LINALGUTILS_H
