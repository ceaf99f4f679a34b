//===- Recast.cpp - Force layers to given element types -------------------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "amp/Transforms/Recast.h"

#include "amp/IR/AmpInterfaces.h"
#include "amp/Utils/CastUtils.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::amp;

LogicalResult mlir::amp::recastLayer(RewriterBase &rewriter, Operation *op,
                                     Type inputType, Type accumulateType) {
  auto layer = dyn_cast<LayerOpInterface>(op);
  if (!layer || !layer.getLayerKind())
    return op->emitError() << "'" << op->getName()
                           << "' is not a layer and cannot be recast";
  // The producers of the old operands (weights, fills) may lose their last
  // user.
  llvm::SetVector<Operation *> producers;
  for (Value operand : op->getOperands())
    if (Operation *def = operand.getDefiningOp())
      producers.insert(def);
  SmallVector<Type> oldTypes(op->getResultTypes());
  FailureOr<Operation *> newOp =
      layer.recast(rewriter, inputType, accumulateType);
  if (failed(newOp))
    return failure();

  // Results go back to the types the users expect: tosa.cast for TOSA ops,
  // arith conversions otherwise.
  bool preferTosa = isa_and_nonnull<tosa::TosaDialect>(op->getDialect());
  // The layer may have been recast in place (its results retyped): then its
  // users read the casts of its own results.
  rewriter.setInsertionPointAfter(*newOp);
  SmallVector<Value> replacements;
  for (auto [oldType, newResult] :
       llvm::zip(oldTypes, (*newOp)->getResults()))
    replacements.push_back(createElementTypeCast(
        rewriter, op->getLoc(), newResult, getElementTypeOrSelf(oldType),
        preferTosa));
  if (*newOp != op) {
    rewriter.replaceOp(op, replacements);
  } else {
    for (auto [result, replacement] :
         llvm::zip(op->getResults(), replacements))
      if (replacement != result)
        rewriter.replaceAllUsesExcept(result, replacement,
                                      replacement.getDefiningOp());
  }

  while (!producers.empty()) {
    Operation *producer = producers.pop_back_val();
    if (!isOpTriviallyDead(producer))
      continue;
    for (Value operand : producer->getOperands())
      if (Operation *def = operand.getDefiningOp())
        producers.insert(def);
    rewriter.eraseOp(producer);
  }
  return success();
}
