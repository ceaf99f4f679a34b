//===- CastUtils.cpp - Create float casts, constants and empties ----------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "amp/Utils/CastUtils.h"
#include "amp/Utils/ConversionMemo.h"
#include "amp/Utils/FloatConversion.h"
#include "amp/Utils/TypeUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace mlir::amp;

bool mlir::amp::isCastableFloatType(Type type) {
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return isFloatType(tensor.getElementType());
  if (isFloatType(type))
    return true;
  // arith and tosa casts need ranked tensors.
  if (isa<RankedTensorType, VectorType>(type))
    return isFloatType(getScalarType(type));
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
  if (!isFloatType(getScalarType(source.getType())) ||
      !isFloatType(getScalarType(op->getResult(0).getType())))
    return {};
  return source;
}

Value mlir::amp::getWideningSource(Value value, Type elementType) {
  Value source = getFloatCastSource(value.getDefiningOp());
  if (!source)
    return Value();
  Type sourceElt = getScalarType(source.getType());
  if (sourceElt != elementType ||
      sourceElt.getIntOrFloatBitWidth() >=
          getScalarType(value.getType()).getIntOrFloatBitWidth())
    return Value();
  return source;
}

bool mlir::amp::isFloatConstant(Operation *op) {
  // Asked for most ops of a function, several times: the value is read
  // directly, not through the fold hook that m_Constant calls.
  if (!isa_and_nonnull<arith::ConstantOp, tosa::ConstOp>(op))
    return false;
  return isConvertibleFloatConstant(getConstantAttr(op));
}

Operation *mlir::amp::getConstantFillValue(Operation *op) {
  auto fill = dyn_cast_or_null<linalg::FillOp>(op);
  if (!fill || !fill.hasPureTensorSemantics() || fill->getNumResults() != 1)
    return nullptr;
  Operation *scalar = fill.getInputs()[0].getDefiningOp();
  if (!scalar || !isFloatConstant(scalar) ||
      !fill.getOutputs()[0].getDefiningOp<tensor::EmptyOp>())
    return nullptr;
  return scalar;
}

bool mlir::amp::isRematerializable(Operation *op) {
  return isFloatConstant(op) || isa_and_nonnull<tensor::EmptyOp>(op) ||
         getConstantFillValue(op);
}

Value mlir::amp::createFloatCast(OpBuilder &b, Location loc, Value value,
                                 Type elementType, bool preferTosa) {
  Type sourceElt = getScalarType(value.getType());
  Type resultType = cloneWithElementType(value.getType(), elementType);
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

void mlir::amp::setConstantValue(RewriterBase &rewriter, Operation *constOp,
                                 TypedAttr value) {
  rewriter.modifyOpInPlace(constOp, [&] {
    if (auto constant = dyn_cast<tosa::ConstOp>(constOp))
      constant.setValuesAttr(cast<ElementsAttr>(value));
    else
      cast<arith::ConstantOp>(constOp).setValueAttr(value);
    constOp->getResult(0).setType(value.getType());
  });
}

TypedAttr mlir::amp::getConstantValue(Operation *constOp) {
  return cast<TypedAttr>(getConstantAttr(constOp));
}

Attribute mlir::amp::getConstantAttr(Operation *constOp) {
  // From the properties as stored: the accessors cast to the attribute
  // interfaces (ElementsAttr, TypedAttr), each a lookup.
  if (auto constant = dyn_cast<tosa::ConstOp>(constOp))
    return constant.getProperties().values;
  return cast<arith::ConstantOp>(constOp).getProperties().value;
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

bool mlir::amp::isTosaOp(Operation *op) {
  return op && isa_and_nonnull<tosa::TosaDialect>(op->getDialect());
}

bool mlir::amp::isOnlyReadBy(Value value, Operation *user) {
  return llvm::all_of(value.getUsers(),
                      [&](Operation *other) { return other == user; });
}

void mlir::amp::setElementTypeInPlace(RewriterBase &rewriter, Value value,
                                      FloatType elementType) {
  Operation *def = value.getDefiningOp();
  if (isa<tensor::EmptyOp>(def)) {
    rewriter.modifyOpInPlace(def, [&] {
      value.setType(cast<RankedTensorType>(value.getType()).clone(elementType));
    });
    return;
  }
  setConstantValue(rewriter, def,
                   convertFloatConstant(getConstantAttr(def), elementType));
}

Value mlir::amp::getEmptyFor(RewriterBase &rewriter, Operation *user,
                             Value like, Type elementType) {
  auto floatType = dyn_cast<FloatType>(elementType);
  if (!floatType || !like.getDefiningOp<tensor::EmptyOp>() ||
      !isOnlyReadBy(like, user))
    return createEmptyLike(rewriter, user->getLoc(), like, elementType);
  setElementTypeInPlace(rewriter, like, floatType);
  return like;
}

Value mlir::amp::materializeElementType(OpBuilder &b, Location loc, Value value,
                                        Type elementType, bool preferTosa) {
  if (getScalarType(value.getType()) == elementType)
    return value;
  Operation *def = value.getDefiningOp();
  // Narrowing an exact widening back gives its source: no round trip.
  if (Value source = getWideningSource(value, elementType))
    return source;
  if (isFloatConstant(def) && isFloatType(elementType)) {
    Attribute attr = getConstantAttr(def);
    if (TypedAttr converted =
            convertFloatConstant(attr, cast<FloatType>(elementType)))
      return createConstantLike(b, def, converted);
  }
  if (auto empty = dyn_cast_or_null<tensor::EmptyOp>(def))
    return tensor::EmptyOp::create(b, loc, empty.getMixedSizes(), elementType,
                                   empty.getType().getEncoding());
  if (Operation *scalar = getConstantFillValue(def);
      scalar && isFloatType(elementType)) {
    // A new fill of the converted constant into a new empty tensor.
    auto fill = cast<linalg::FillOp>(def);
    Value newScalar = materializeElementType(b, loc, scalar->getResult(0),
                                             elementType, preferTosa);
    Value init = materializeElementType(b, loc, fill.getOutputs()[0],
                                        elementType, preferTosa);
    return linalg::FillOp::create(b, loc, ValueRange{newScalar},
                                  ValueRange{init})
        .getResult(0);
  }
  return createFloatCast(b, loc, value, elementType, preferTosa);
}

//===----------------------------------------------------------------------===//
// Conversions between float and integer types
//===----------------------------------------------------------------------===//

/// A value of the type of `like` (a scalar or a shaped type) whose elements
/// all equal `element`.
static Value createSplatLike(OpBuilder &b, Location loc, Value like,
                             TypedAttr element) {
  Type type = like.getType();
  auto shaped = dyn_cast<ShapedType>(type);
  if (!shaped)
    return arith::ConstantOp::create(b, loc, element);
  if (shaped.hasStaticShape())
    return arith::ConstantOp::create(b, loc,
                                     DenseElementsAttr::get(shaped, element));
  // A dynamically shaped tensor: splat a scalar to its sizes.
  Value scalar = arith::ConstantOp::create(b, loc, element);
  SmallVector<Value> dynamicSizes;
  for (int64_t dim = 0, rank = shaped.getRank(); dim < rank; ++dim)
    if (shaped.isDynamicDim(dim))
      dynamicSizes.push_back(tensor::DimOp::create(b, loc, like, dim));
  return tensor::SplatOp::create(b, loc, scalar, shaped, dynamicSizes);
}

/// The bound of the signed range of `target` (its minimum if `lower`) as a
/// float of `type`, rounded toward zero so that it converts back in range.
static FloatAttr getIntegerBound(FloatType type, IntegerType target,
                                 bool lower) {
  unsigned width = target.getWidth();
  APInt bound =
      lower ? APInt::getSignedMinValue(width) : APInt::getSignedMaxValue(width);
  APFloat value(type.getFloatSemantics());
  (void)value.convertFromAPInt(bound, /*IsSigned=*/true, APFloat::rmTowardZero);
  return FloatAttr::get(type, value);
}

Value mlir::amp::createElementTypeCast(OpBuilder &b, Location loc, Value value,
                                       Type elementType, bool preferTosa) {
  Type sourceElt = getScalarType(value.getType());
  if (sourceElt == elementType)
    return value;
  Type resultType = cloneWithElementType(value.getType(), elementType);
  if (preferTosa && isa<RankedTensorType>(value.getType()))
    return tosa::CastOp::create(b, loc, resultType, value);
  auto sourceFloat = dyn_cast<FloatType>(sourceElt);
  auto targetFloat = dyn_cast<FloatType>(elementType);
  if (sourceFloat && targetFloat)
    return createFloatCast(b, loc, value, elementType, /*preferTosa=*/false);
  if (targetFloat)
    return arith::SIToFPOp::create(b, loc, resultType, value);
  auto targetInt = cast<IntegerType>(elementType);
  if (sourceFloat) {
    Value low = createSplatLike(b, loc, value,
                                getIntegerBound(sourceFloat, targetInt, true));
    Value high = createSplatLike(
        b, loc, value, getIntegerBound(sourceFloat, targetInt, false));
    Value clamped = arith::MaxNumFOp::create(b, loc, value, low);
    clamped = arith::MinNumFOp::create(b, loc, clamped, high);
    return arith::FPToSIOp::create(b, loc, resultType, clamped);
  }
  if (targetInt.getWidth() > sourceElt.getIntOrFloatBitWidth())
    return arith::ExtSIOp::create(b, loc, resultType, value);
  return arith::TruncIOp::create(b, loc, resultType, value);
}

/// Returns `attr` (a float constant) converted to `elementType`, or null.
static TypedAttr convertConstant(Attribute attr, Type elementType,
                                 bool preferTosa) {
  if (auto floatType = dyn_cast<FloatType>(elementType))
    return convertFloatConstant(attr, floatType);
  if (auto intType = dyn_cast<IntegerType>(elementType))
    return convertFloatConstantToInteger(attr, intType,
                                         preferTosa
                                             ? IntegerRounding::NearestEven
                                             : IntegerRounding::TowardZero);
  return {};
}

Value mlir::amp::convertElementType(OpBuilder &b, Location loc, Value value,
                                    Type elementType, bool preferTosa) {
  if (getScalarType(value.getType()) == elementType)
    return value;
  Operation *def = value.getDefiningOp();
  if (isFloatConstant(def)) {
    Attribute attr = getConstantAttr(def);
    if (TypedAttr converted = convertConstant(attr, elementType, preferTosa))
      return createConstantLike(b, def, converted);
  }
  if (auto empty = dyn_cast_or_null<tensor::EmptyOp>(def))
    return tensor::EmptyOp::create(b, loc, empty.getMixedSizes(), elementType,
                                   empty.getType().getEncoding());
  if (auto fill = dyn_cast_or_null<linalg::FillOp>(def)) {
    Attribute scalar;
    if (fill.hasPureTensorSemantics() &&
        matchPattern(fill.getInputs()[0], m_Constant(&scalar)))
      if (TypedAttr converted =
              convertConstant(scalar, elementType, /*preferTosa=*/false)) {
        Value init = convertElementType(b, loc, fill.getOutputs()[0],
                                        elementType, preferTosa);
        Value newScalar = arith::ConstantOp::create(b, loc, converted);
        return linalg::FillOp::create(b, loc, ValueRange{newScalar},
                                      ValueRange{init})
            .getResult(0);
      }
  }
  return createElementTypeCast(b, loc, value, elementType, preferTosa);
}
