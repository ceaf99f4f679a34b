//===- CastUtils.cpp - Create float casts, constants and empties ----------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "amp/Utils/CastUtils.h"
#include "amp/Utils/FloatConversion.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace mlir::amp;

static Type withElement(Type type, Type elementType) {
  if (auto shaped = dyn_cast<ShapedType>(type))
    return shaped.clone(elementType);
  return elementType;
}

bool mlir::amp::isCastableFloatType(Type type) {
  if (isa<FloatType>(type))
    return true;
  // arith and tosa casts need ranked tensors.
  if (isa<RankedTensorType, VectorType>(type))
    return isa<FloatType>(cast<ShapedType>(type).getElementType());
  return false;
}

bool mlir::amp::isFloatCast(Operation *op) {
  return static_cast<bool>(getFloatCastSource(op));
}

Value mlir::amp::getFloatCastSource(Operation *op) {
  if (!op || op->getNumOperands() != 1 || op->getNumResults() != 1)
    return {};
  if (!isa<arith::ExtFOp, arith::TruncFOp, tosa::CastOp>(op))
    return {};
  Value source = op->getOperand(0);
  if (!isa<FloatType>(getElementTypeOrSelf(source.getType())) ||
      !isa<FloatType>(getElementTypeOrSelf(op->getResult(0).getType())))
    return {};
  return source;
}

bool mlir::amp::isFloatConstant(Operation *op) {
  if (!op || op->getNumResults() != 1 || !op->hasTrait<OpTrait::ConstantLike>())
    return false;
  if (!isa<arith::ConstantOp, tosa::ConstOp>(op))
    return false;
  Attribute value;
  if (!matchPattern(op->getResult(0), m_Constant(&value)))
    return false;
  return isConvertibleFloatConstant(value);
}

bool mlir::amp::isRematerializable(Operation *op) {
  return isFloatConstant(op) || isa_and_nonnull<tensor::EmptyOp>(op);
}

Value mlir::amp::createFloatCast(OpBuilder &b, Location loc, Value value,
                                 Type elementType, bool preferTosa) {
  Type sourceElt = getElementTypeOrSelf(value.getType());
  Type resultType = withElement(value.getType(), elementType);
  if (sourceElt == elementType)
    return value;
  if (preferTosa && isa<RankedTensorType>(value.getType()))
    return tosa::CastOp::create(b, loc, resultType, value);
  unsigned from = sourceElt.getIntOrFloatBitWidth();
  unsigned to = elementType.getIntOrFloatBitWidth();
  if (from == to) { // f16 <-> bf16: through f32.
    Value wide = createFloatCast(b, loc, value, b.getF32Type(), false);
    return createFloatCast(b, loc, wide, elementType, false);
  }
  if (to > from)
    return arith::ExtFOp::create(b, loc, resultType, value);
  return arith::TruncFOp::create(b, loc, resultType, value);
}

Value mlir::amp::createConstantLike(OpBuilder &b, Operation *constOp,
                                    TypedAttr value) {
  Location loc = constOp->getLoc();
  if (isa<tosa::ConstOp>(constOp))
    return tosa::ConstOp::create(b, loc, value.getType(),
                                 cast<ElementsAttr>(value));
  return arith::ConstantOp::create(b, loc, value);
}

Value mlir::amp::createEmptyLike(OpBuilder &b, Location loc, Value like,
                                 Type elementType) {
  auto type = cast<RankedTensorType>(like.getType());
  if (auto empty = like.getDefiningOp<tensor::EmptyOp>())
    return tensor::EmptyOp::create(b, loc, empty.getMixedSizes(), elementType,
                                   type.getEncoding());
  SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(b, loc, like);
  return tensor::EmptyOp::create(b, loc, sizes, elementType,
                                 type.getEncoding());
}

Value mlir::amp::materializeElementType(OpBuilder &b, Location loc,
                                        Value value, Type elementType,
                                        bool preferTosa) {
  if (getElementTypeOrSelf(value.getType()) == elementType)
    return value;
  Operation *def = value.getDefiningOp();
  // Narrowing an exact widening back gives its source: no round trip.
  if (Value source = getFloatCastSource(def)) {
    Type sourceElt = getElementTypeOrSelf(source.getType());
    if (sourceElt == elementType &&
        sourceElt.getIntOrFloatBitWidth() <
            getElementTypeOrSelf(value.getType()).getIntOrFloatBitWidth())
      return source;
  }
  if (isFloatConstant(def) && isa<FloatType>(elementType)) {
    Attribute attr;
    (void)matchPattern(value, m_Constant(&attr));
    if (TypedAttr converted =
            convertFloatConstant(attr, cast<FloatType>(elementType)))
      return createConstantLike(b, def, converted);
  }
  if (auto empty = dyn_cast_or_null<tensor::EmptyOp>(def))
    return tensor::EmptyOp::create(b, loc, empty.getMixedSizes(), elementType,
                                   empty.getType().getEncoding());
  return createFloatCast(b, loc, value, elementType, preferTosa);
}
