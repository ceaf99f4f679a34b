//===- LayerModels.cpp - LayerOpInterface for linalg and tosa ops ---------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Which upstream ops are layers, and how --amp-recast rebuilds them:
//  - every linalg structured op (GET_OP_LIST): a layer when linalg's own
//    ConvolutionOpInterface / ContractionOpInterface checks say so (a
//    convolution without a multiplication is a pooling). Named ops are
//    rebuilt with any int/float types through their region builder; other
//    structured ops (linalg.generic) through their MixedPrecisionOpInterface
//    rewrite, which only knows float types;
//  - TOSA convolutions and tosa.matmul: rebuilt when TOSA 1.0 defines the
//    requested combination of input and accumulation types (a table taken
//    from the specification), with a clear error otherwise;
//  - TOSA poolings: layers that cannot be recast.
//
//===----------------------------------------------------------------------===//

#include "ModelUtils.h"

#include "amp/ExternalModels/ExternalModels.h"
#include "amp/Utils/CastUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace mlir::amp;

namespace {

//===----------------------------------------------------------------------===//
// linalg
//===----------------------------------------------------------------------===//

bool hasMultiplication(linalg::LinalgOp op) {
  bool found = false;
  op->getRegion(0).walk([&](Operation *inner) {
    if (isa<arith::MulFOp, arith::MulIOp>(inner))
      found = true;
  });
  return found;
}

std::optional<LayerKind> classifyLinalgLayer(linalg::LinalgOp op) {
  if (linalg::isaConvolutionOpInterface(op))
    return hasMultiplication(op) ? LayerKind::convolution : LayerKind::pooling;
  if (linalg::isaContractionOpInterface(op))
    return LayerKind::matmul;
  return std::nullopt;
}

bool isIntOrFloatShaped(Type type) {
  return getElementTypeOrSelf(type).isIntOrFloat();
}

/// Recasts a structured op without a region builder (linalg.generic, ...)
/// through its mixed-precision rewrite: float types only, accumulating in
/// the payload's own type.
FailureOr<Operation *> recastThroughMixedPrecision(Operation *op,
                                                   RewriterBase &rewriter,
                                                   Type inputType,
                                                   Type accumulateType) {
  auto linalgOp = cast<linalg::LinalgOp>(op);
  auto inputFloat = dyn_cast<FloatType>(inputType);
  auto accumulateFloat = dyn_cast<FloatType>(accumulateType);
  auto iface = dyn_cast<MixedPrecisionOpInterface>(op);
  if (!inputFloat || !accumulateFloat || !iface)
    return op->emitError()
           << "cannot recast '" << op->getName() << "' to " << inputType
           << ": only linalg named ops can compute in integer types";
  for (OpOperand &init : linalgOp.getDpsInitsMutable())
    if (getElementTypeOrSelf(init.get().getType()) != accumulateType ||
        !iface.hasSeparateAccumulator())
      return op->emitError()
             << "cannot recast '" << op->getName() << "' with accumulation "
             << accumulateType
             << ": a payload that is not a linalg named op only accumulates "
                "in the element type of its inits";

  rewriter.setInsertionPoint(op);
  SmallVector<Value> operands(op->getOperands());
  for (OpOperand *input : linalgOp.getDpsInputOperands())
    if (iface.isDataOperand(*input))
      operands[input->getOperandNumber()] = convertElementType(
          rewriter, op->getLoc(), input->get(), inputType, false);
  FailureOr<Operation *> newOp =
      iface.rewriteInPrecision(rewriter, operands, inputFloat, accumulateFloat);
  if (failed(newOp))
    return op->emitError() << "cannot recast '" << op->getName() << "'";
  return newOp;
}

template <typename OpTy>
struct LinalgLayerModel
    : public LayerOpInterface::ExternalModel<LinalgLayerModel<OpTy>, OpTy> {
  std::optional<LayerKind> getLayerKind(Operation *op) const {
    return classifyLinalgLayer(cast<linalg::LinalgOp>(op));
  }

  FailureOr<Operation *> recast(Operation *op, RewriterBase &rewriter,
                                Type inputType, Type accumulateType) const {
    auto linalgOp = cast<linalg::LinalgOp>(op);
    if (!linalgOp.hasPureTensorSemantics())
      return op->emitError() << "cannot recast '" << op->getName()
                             << "': it works on buffers, not on tensors";
    if (!llvm::all_of(op->getOperandTypes(), isIntOrFloatShaped))
      return op->emitError() << "cannot recast '" << op->getName()
                             << "': its operands are not int or float data";

    bool named = false;
    if constexpr (llvm::is_detected<models::RegionBuilderOf, OpTy>::value)
      named = static_cast<bool>(OpTy::getRegionBuilder());
    if (!named)
      return recastThroughMixedPrecision(op, rewriter, inputType,
                                         accumulateType);

    // Inputs the payload reads take the input type (a pooling window is
    // only a shape); inits take the accumulation type.
    Location loc = op->getLoc();
    rewriter.setInsertionPoint(op);
    SmallVector<Value> operands(op->getOperands());
    for (OpOperand *input : linalgOp.getDpsInputOperands())
      if (linalgOp.payloadUsesValueFromOperand(input))
        operands[input->getOperandNumber()] =
            convertElementType(rewriter, loc, input->get(), inputType, false);
    for (OpOperand &init : linalgOp.getDpsInitsMutable())
      operands[init.getOperandNumber()] =
          convertElementType(rewriter, loc, init.get(), accumulateType, false);

    Operation *newOp = rewriter.clone(*op);
    auto newLinalg = cast<linalg::LinalgOp>(newOp);
    rewriter.modifyOpInPlace(newOp, [&] {
      newOp->setOperands(operands);
      for (auto [result, init] :
           llvm::zip(newOp->getResults(), newLinalg.getDpsInits()))
        result.setType(init.getType());
    });
    if constexpr (llvm::is_detected<models::RegionBuilderOf, OpTy>::value)
      models::rebuildNamedPayload<OpTy>(rewriter, op, newOp);
    return newOp;
  }
};

template <typename... OpTys> void attachLinalgLayerModels(MLIRContext *ctx) {
  (OpTys::template attachInterface<LinalgLayerModel<OpTys>>(*ctx), ...);
}

//===----------------------------------------------------------------------===//
// tosa
//===----------------------------------------------------------------------===//

/// One combination of types TOSA 1.0 defines for a convolution or a matmul:
/// input (and weight) type, accumulation type, output type.
struct TosaTypeRule {
  StringLiteral input, accumulate, output;
};

// From the TOSA 1.0 specification (profiles PRO-INT and PRO-FP, extensions
// EXT-BF16, EXT-FP8E4M3, EXT-FP8E5M2); f32 is the source type and not listed.
// A convolution's bias has the output type.
constexpr TosaTypeRule kTosaConvRules[] = {
    {"i8", "i32", "i32"},       {"f16", "f16", "f16"},
    {"f16", "f32", "f16"},      {"bf16", "f32", "bf16"},
    {"f8E4M3FN", "f16", "f16"}, {"f8E5M2", "f16", "f16"},
};
constexpr TosaTypeRule kTosaMatMulRules[] = {
    {"i8", "i32", "i32"},       {"f16", "f16", "f16"},
    {"f16", "f32", "f32"},      {"bf16", "f32", "f32"},
    {"f8E4M3FN", "f16", "f16"}, {"f8E5M2", "f16", "f16"},
};

std::string typeName(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  type.print(os);
  return text;
}

/// The output type TOSA 1.0 gives `op` with these types, or an error that
/// lists the combinations it defines.
FailureOr<Type> lookupTosaOutputType(Operation *op,
                                     ArrayRef<TosaTypeRule> rules,
                                     Type inputType, Type accumulateType) {
  std::string input = typeName(inputType);
  std::string accumulate = typeName(accumulateType);
  for (const TosaTypeRule &rule : rules) {
    if (rule.input != input || rule.accumulate != accumulate)
      continue;
    for (Type candidate : {inputType, accumulateType})
      if (typeName(candidate) == rule.output)
        return candidate;
  }
  InFlightDiagnostic diag =
      op->emitError() << "TOSA 1.0 defines no '" << op->getName() << "' with "
                      << input << " inputs and " << accumulate
                      << " accumulation; it defines (inputs/accumulation): ";
  llvm::interleaveComma(rules, diag, [&](const TosaTypeRule &rule) {
    diag << rule.input << "/" << rule.accumulate;
  });
  return diag;
}

/// A zero-point operand of element type `type`: tensor<1xT> holding 0.
Value createZeroPoint(RewriterBase &rewriter, Location loc, Type type) {
  auto zpType = RankedTensorType::get({1}, type);
  return tosa::ConstOp::create(
      rewriter, loc, zpType,
      DenseElementsAttr::get(zpType, rewriter.getZeroAttr(type)));
}

/// Convolutions: input, weight, bias, input zero point, weight zero point.
template <typename OpTy>
struct TosaConvLayerModel
    : public LayerOpInterface::ExternalModel<TosaConvLayerModel<OpTy>, OpTy> {
  std::optional<LayerKind> getLayerKind(Operation *) const {
    return LayerKind::convolution;
  }

  FailureOr<Operation *> recast(Operation *op, RewriterBase &rewriter,
                                Type inputType, Type accumulateType) const {
    FailureOr<Type> outputType =
        lookupTosaOutputType(op, kTosaConvRules, inputType, accumulateType);
    if (failed(outputType))
      return failure();
    auto conv = cast<OpTy>(op);
    Location loc = op->getLoc();
    rewriter.setInsertionPoint(op);
    Value input = convertElementType(rewriter, loc, conv.getInput(), inputType,
                                     /*preferTosa=*/true);
    Value weight = convertElementType(rewriter, loc, conv.getWeight(),
                                      inputType, /*preferTosa=*/true);
    Value bias = convertElementType(rewriter, loc, conv.getBias(), *outputType,
                                    /*preferTosa=*/true);
    Value zeroPoint = createZeroPoint(rewriter, loc, inputType);
    auto newConv = cast<OpTy>(rewriter.clone(*op));
    rewriter.modifyOpInPlace(newConv, [&] {
      newConv->setOperands({input, weight, bias, zeroPoint, zeroPoint});
      newConv.setAccType(accumulateType);
      OpResult result = newConv->getResult(0);
      result.setType(withElementType(result.getType(), *outputType));
    });
    return newConv.getOperation();
  }
};

/// tosa.matmul: A, B, A zero point, B zero point.
struct TosaMatMulLayerModel
    : public LayerOpInterface::ExternalModel<TosaMatMulLayerModel,
                                             tosa::MatMulOp> {
  std::optional<LayerKind> getLayerKind(Operation *) const {
    return LayerKind::matmul;
  }

  FailureOr<Operation *> recast(Operation *op, RewriterBase &rewriter,
                                Type inputType, Type accumulateType) const {
    FailureOr<Type> outputType =
        lookupTosaOutputType(op, kTosaMatMulRules, inputType, accumulateType);
    if (failed(outputType))
      return failure();
    auto matmul = cast<tosa::MatMulOp>(op);
    Location loc = op->getLoc();
    rewriter.setInsertionPoint(op);
    Value a = convertElementType(rewriter, loc, matmul.getA(), inputType,
                                 /*preferTosa=*/true);
    Value b = convertElementType(rewriter, loc, matmul.getB(), inputType,
                                 /*preferTosa=*/true);
    Value zeroPoint = createZeroPoint(rewriter, loc, inputType);
    Operation *newOp = rewriter.clone(*op);
    rewriter.modifyOpInPlace(newOp, [&] {
      newOp->setOperands({a, b, zeroPoint, zeroPoint});
      OpResult result = newOp->getResult(0);
      result.setType(withElementType(result.getType(), *outputType));
    });
    return newOp;
  }
};

/// Poolings count as layers; recasting them is not supported.
template <typename OpTy>
struct TosaPoolLayerModel
    : public LayerOpInterface::ExternalModel<TosaPoolLayerModel<OpTy>, OpTy> {
  std::optional<LayerKind> getLayerKind(Operation *) const {
    return LayerKind::pooling;
  }
};

} // namespace

void mlir::amp::registerLayerExternalModels(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, linalg::LinalgDialect *) {
    attachLinalgLayerModels<
#define GET_OP_LIST
#include "mlir/Dialect/Linalg/IR/LinalgStructuredOps.cpp.inc"
        >(ctx);
  });
  registry.addExtension(+[](MLIRContext *ctx, tosa::TosaDialect *) {
    tosa::Conv2DOp::attachInterface<TosaConvLayerModel<tosa::Conv2DOp>>(*ctx);
    tosa::Conv3DOp::attachInterface<TosaConvLayerModel<tosa::Conv3DOp>>(*ctx);
    tosa::DepthwiseConv2DOp::attachInterface<
        TosaConvLayerModel<tosa::DepthwiseConv2DOp>>(*ctx);
    tosa::TransposeConv2DOp::attachInterface<
        TosaConvLayerModel<tosa::TransposeConv2DOp>>(*ctx);
    tosa::MatMulOp::attachInterface<TosaMatMulLayerModel>(*ctx);
    tosa::AvgPool2dOp::attachInterface<TosaPoolLayerModel<tosa::AvgPool2dOp>>(
        *ctx);
    tosa::MaxPool2dOp::attachInterface<TosaPoolLayerModel<tosa::MaxPool2dOp>>(
        *ctx);
  });
}
