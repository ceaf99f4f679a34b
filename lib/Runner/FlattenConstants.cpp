//===- FlattenConstants.cpp - Store tensor constants as 1-D ---------------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The --amp-flatten-constants pass: a multi-dimensional dense constant
// becomes a 1-D constant (the same data, DenseElementsAttr::reshape shares
// it) and a tensor.expand_shape back to its type.
//
//===----------------------------------------------------------------------===//

#include "amp/Runner/Passes.h"

#include "mlir/IR/Builders.h"

namespace mlir {
namespace amp {
#define GEN_PASS_DEF_AMPFLATTENCONSTANTSPASS
#include "amp/Runner/Passes.h.inc"
} // namespace amp
} // namespace mlir

using namespace mlir;

namespace {

struct AmpFlattenConstantsPass
    : public amp::impl::AmpFlattenConstantsPassBase<AmpFlattenConstantsPass> {
  void runOnOperation() override {
    SmallVector<arith::ConstantOp> constants;
    getOperation()->walk([&](arith::ConstantOp op) {
      auto value = dyn_cast<DenseElementsAttr>(op.getValue());
      if (value && value.getType().getRank() >= 2 &&
          value.getType().hasStaticShape())
        constants.push_back(op);
    });
    for (arith::ConstantOp op : constants) {
      auto value = cast<DenseElementsAttr>(op.getValue());
      auto type = cast<RankedTensorType>(value.getType());
      auto flatType =
          RankedTensorType::get({type.getNumElements()}, type.getElementType());
      OpBuilder builder(op);
      auto flat = arith::ConstantOp::create(builder, op.getLoc(),
                                            value.reshape(flatType));
      SmallVector<ReassociationIndices> reassociation(1);
      for (int64_t dim = 0; dim < type.getRank(); ++dim)
        reassociation.front().push_back(dim);
      auto expanded = tensor::ExpandShapeOp::create(builder, op.getLoc(), type,
                                                    flat, reassociation);
      op.replaceAllUsesWith(expanded.getResult());
      op.erase();
    }
  }
};

} // namespace
