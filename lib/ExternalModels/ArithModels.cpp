//===- ArithModels.cpp - amp external models for arith ops ----------------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Colors of arith ops. arith.constant, arith.extf and arith.truncf have no
// model: constants are folded and casts are recognized by the pass itself.
//
//===----------------------------------------------------------------------===//

#include "ModelUtils.h"

#include "amp/ExternalModels/ExternalModels.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/DialectRegistry.h"

using namespace mlir;
using namespace mlir::amp;

void mlir::amp::registerArithExternalModels(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, arith::ArithDialect *) {
    // Gray: elementwise arithmetic, comparisons, selects, int <-> float.
    models::attachElementwiseModels<
        Color::gray, arith::AddFOp, arith::SubFOp, arith::MulFOp,
        arith::DivFOp, arith::RemFOp, arith::NegFOp, arith::MaximumFOp,
        arith::MinimumFOp, arith::MaxNumFOp, arith::MinNumFOp, arith::CmpFOp,
        arith::SelectOp, arith::SIToFPOp, arith::UIToFPOp, arith::FPToSIOp,
        arith::FPToUIOp>(ctx);
    // Red: ops that reinterpret or rescale bits.
    models::attachElementwiseModels<Color::red, arith::BitcastOp,
                                    arith::ScalingExtFOp,
                                    arith::ScalingTruncFOp>(ctx);
  });
}
