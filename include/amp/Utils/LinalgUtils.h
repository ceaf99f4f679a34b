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
// the answer from the operand and result counts.
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

} // namespace amp
} // namespace mlir

#endif // AMP_UTILS_LINALGUTILS_H
