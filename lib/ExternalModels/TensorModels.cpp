//===- TensorModels.cpp - amp external models for tensor ops --------------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Tensor ops move data: they are gray and follow their inputs. tensor.dim and
// tensor.rank read only the shape; tensor.bitcast reinterprets bits (red).
// tensor.pad and tensor.generate carry a payload that is retyped.
//
//===----------------------------------------------------------------------===//

#include "ModelUtils.h"

#include "amp/ExternalModels/ExternalModels.h"
#include "amp/Utils/TypeUtils.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace mlir::amp;

namespace {

/// Ops with a payload region that yields the element values (tensor.pad,
/// tensor.generate): gray unless the payload holds red math; the payload is
/// retyped with the result.
template <typename OpTy>
struct PayloadModel
    : public MixedPrecisionOpInterface::ExternalModel<PayloadModel<OpTy>,
                                                      OpTy> {
  Color getDefaultColor(Operation *op) const {
    return models::classifyPayload(op->getRegion(0));
  }

  FailureOr<Operation *> rewriteInPrecision(Operation *op,
                                            RewriterBase &rewriter,
                                            ValueRange operands,
                                            FloatType computeType,
                                            FloatType) const {
    auto sourceType =
        dyn_cast<FloatType>(getScalarType(op->getResult(0).getType()));
    if (!sourceType)
      return failure();
    rewriter.setInsertionPoint(op);
    Operation *newOp = rewriter.clone(*op);
    rewriter.modifyOpInPlace(newOp, [&] {
      newOp->setOperands(operands);
      OpResult result = newOp->getResult(0);
      result.setType(withElementType(result.getType(), computeType));
    });
    if (failed(models::retypePayload(rewriter, newOp, newOp->getRegion(0),
                                     sourceType, computeType,
                                     [](BlockArgument) { return true; }))) {
      rewriter.eraseOp(newOp);
      return failure();
    }
    return newOp;
  }
};

} // namespace

void mlir::amp::registerTensorExternalModels(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, tensor::TensorDialect *) {
    models::attachElementwiseModels<
        Color::gray, tensor::CastOp, tensor::CollapseShapeOp, tensor::ConcatOp,
        tensor::EmptyOp, tensor::ExpandShapeOp, tensor::ExtractOp,
        tensor::ExtractSliceOp, tensor::FromElementsOp, tensor::GatherOp,
        tensor::InsertOp, tensor::InsertSliceOp, tensor::ReshapeOp,
        tensor::ScatterOp, tensor::SplatOp>(ctx);
    models::attachElementwiseModels<Color::red, tensor::BitcastOp>(ctx);
    tensor::DimOp::attachInterface<models::ShapeOnlyModel<tensor::DimOp>>(
        *ctx);
    tensor::RankOp::attachInterface<models::ShapeOnlyModel<tensor::RankOp>>(
        *ctx);
    tensor::PadOp::attachInterface<PayloadModel<tensor::PadOp>>(*ctx);
    tensor::GenerateOp::attachInterface<PayloadModel<tensor::GenerateOp>>(
        *ctx);
  });
}
