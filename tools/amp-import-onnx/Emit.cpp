//===- Emit.cpp - Building TOSA and linalg ops for the converters ---------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "Emit.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/Dialect/Tosa/Utils/ConversionUtils.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace amp::onnximport;

RankedTensorType amp::onnximport::getTensorType(Value value) {
  return cast<RankedTensorType>(value.getType());
}

ArrayRef<int64_t> amp::onnximport::getShape(Value value) {
  return getTensorType(value).getShape();
}

Type amp::onnximport::getElementType(Value value) {
  return getTensorType(value).getElementType();
}

static Attribute getScalarAttr(Type type, double value) {
  if (auto floatType = dyn_cast<FloatType>(type))
    return FloatAttr::get(floatType, value);
  auto intType = cast<IntegerType>(type);
  if (intType.getWidth() == 1)
    return IntegerAttr::get(type, value != 0);
  return IntegerAttr::get(type, static_cast<int64_t>(value));
}

Value amp::onnximport::splatConst(OpBuilder &b, Location loc,
                                  RankedTensorType type, double value) {
  auto attr = DenseElementsAttr::get(
      type, getScalarAttr(type.getElementType(), value));
  return tosa::ConstOp::create(b, loc, type, attr);
}

Value amp::onnximport::scalarConst(OpBuilder &b, Location loc,
                                   Type elementType, double value,
                                   int64_t rank) {
  SmallVector<int64_t> shape(rank, 1);
  return splatConst(b, loc, RankedTensorType::get(shape, elementType), value);
}

Value amp::onnximport::intConst(OpBuilder &b, Location loc, Type elementType,
                                ArrayRef<int64_t> shape,
                                ArrayRef<int64_t> values) {
  auto type = RankedTensorType::get(shape, elementType);
  SmallVector<APInt> ints;
  unsigned width = elementType.getIntOrFloatBitWidth();
  for (int64_t v : values)
    ints.push_back(APInt(width, v, /*isSigned=*/true));
  return tosa::ConstOp::create(b, loc, type, DenseElementsAttr::get(type, ints));
}

static Value shapeConst(OpBuilder &b, Location loc, ArrayRef<int64_t> values) {
  ImplicitLocOpBuilder ib(loc, b);
  return tosa::getTosaConstShape(ib, values);
}

/// The shape operand of tosa.reshape and the sizes of tosa.slice: -1 stands
/// for the (at most one) dynamic dimension, inferred by TOSA.
static Value sizesConst(OpBuilder &b, Location loc, ArrayRef<int64_t> values) {
  SmallVector<int64_t> sizes;
  for (int64_t v : values)
    sizes.push_back(ShapedType::isDynamic(v) ? -1 : v);
  return shapeConst(b, loc, sizes);
}

bool amp::onnximport::hasDynamicDims(ArrayRef<int64_t> shape) {
  return llvm::any_of(shape, ShapedType::isDynamic);
}

int64_t amp::onnximport::getNumDynamicDims(ArrayRef<int64_t> shape) {
  return llvm::count_if(shape, ShapedType::isDynamic);
}

int64_t amp::onnximport::mergeSizes(ArrayRef<int64_t> sizes) {
  int64_t result = 1;
  for (int64_t v : sizes) {
    if (ShapedType::isDynamic(v))
      return ShapedType::kDynamic;
    if (__builtin_mul_overflow(result, v, &result))
      return std::numeric_limits<int64_t>::max();
  }
  return result;
}

Value amp::onnximport::reshape(OpBuilder &b, Location loc, Value value,
                               ArrayRef<int64_t> shape) {
  if (getShape(value) == shape)
    return value;
  assert(getNumDynamicDims(shape) <= 1 && "one dynamic dimension at most");
  auto type = RankedTensorType::get(shape, getElementType(value));
  return tosa::ReshapeOp::create(b, loc, type, value,
                                 sizesConst(b, loc, shape));
}

Value amp::onnximport::transpose(OpBuilder &b, Location loc, Value value,
                                 ArrayRef<int32_t> perm) {
  bool identity = true;
  for (size_t i = 0; i < perm.size(); ++i)
    identity &= perm[i] == static_cast<int32_t>(i);
  if (identity)
    return value;
  ArrayRef<int64_t> shape = getShape(value);
  SmallVector<int64_t> result;
  for (int32_t p : perm)
    result.push_back(shape[p]);
  auto type = RankedTensorType::get(result, getElementType(value));
  return tosa::TransposeOp::create(b, loc, type, value,
                                   b.getDenseI32ArrayAttr(perm));
}

Value amp::onnximport::slice(OpBuilder &b, Location loc, Value value,
                             ArrayRef<int64_t> starts, ArrayRef<int64_t> sizes) {
  if (getShape(value) == sizes)
    return value;
  auto type = RankedTensorType::get(sizes, getElementType(value));
  assert(llvm::all_of(llvm::zip(sizes, getShape(value)),
                      [](auto pair) {
                        return ShapedType::isDynamic(std::get<0>(pair)) ==
                               ShapedType::isDynamic(std::get<1>(pair));
                      }) &&
         "a dynamic dimension is sliced whole");
  return tosa::SliceOp::create(b, loc, type, value, shapeConst(b, loc, starts),
                               sizesConst(b, loc, sizes));
}

Value amp::onnximport::pad(OpBuilder &b, Location loc, Value value,
                           ArrayRef<int64_t> lows, ArrayRef<int64_t> highs,
                           double padValue) {
  ArrayRef<int64_t> shape = getShape(value);
  SmallVector<int64_t> padding, result;
  bool any = false;
  for (size_t i = 0; i < shape.size(); ++i) {
    padding.push_back(lows[i]);
    padding.push_back(highs[i]);
    any |= lows[i] != 0 || highs[i] != 0;
    result.push_back(ShapedType::isDynamic(shape[i])
                         ? ShapedType::kDynamic
                         : shape[i] + lows[i] + highs[i]);
  }
  if (!any)
    return value;
  Type elementType = getElementType(value);
  Value padConst = scalarConst(b, loc, elementType, padValue, 1);
  auto type = RankedTensorType::get(result, elementType);
  return tosa::PadOp::create(b, loc, type, value, shapeConst(b, loc, padding),
                             padConst);
}

Value amp::onnximport::concat(OpBuilder &b, Location loc,
                              ArrayRef<Value> values, int64_t axis) {
  if (values.size() == 1)
    return values.front();
  SmallVector<int64_t> shape(getShape(values.front()));
  shape[axis] = 0;
  for (Value v : values) {
    assert(!ShapedType::isDynamic(getShape(v)[axis]) &&
           "converters check that the axis is static");
    shape[axis] += getShape(v)[axis];
  }
  auto type = RankedTensorType::get(shape, getElementType(values.front()));
  return tosa::ConcatOp::create(b, loc, type, values,
                                b.getI32IntegerAttr(axis));
}

Value amp::onnximport::expandRank(OpBuilder &b, Location loc, Value value,
                                  int64_t rank) {
  ArrayRef<int64_t> shape = getShape(value);
  if (static_cast<int64_t>(shape.size()) >= rank)
    return value;
  SmallVector<int64_t> result(rank - shape.size(), 1);
  result.append(shape.begin(), shape.end());
  return reshape(b, loc, value, result);
}

Value amp::onnximport::broadcastTo(OpBuilder &b, Location loc, Value value,
                                   ArrayRef<int64_t> shape) {
  value = expandRank(b, loc, value, shape.size());
  ArrayRef<int64_t> have = getShape(value);
  if (have == shape)
    return value;
  SmallVector<int64_t> multiples;
  for (size_t i = 0; i < shape.size(); ++i) {
    assert((have[i] == shape[i] || !ShapedType::isDynamic(shape[i])) &&
           "converters never tile to a dynamic size");
    multiples.push_back(have[i] == shape[i] ? 1 : shape[i]);
  }
  auto type = RankedTensorType::get(shape, getElementType(value));
  return tosa::TileOp::create(b, loc, type, value,
                              shapeConst(b, loc, multiples));
}

FailureOr<SmallVector<int64_t>>
amp::onnximport::broadcastShape(ArrayRef<Value> values) {
  SmallVector<int64_t> result;
  for (Value v : values) {
    ArrayRef<int64_t> shape = getShape(v);
    size_t rank = std::max(result.size(), shape.size());
    SmallVector<int64_t> merged(rank);
    for (size_t i = 0; i < rank; ++i) {
      int64_t a = i < rank - result.size() ? 1 : result[i - (rank - result.size())];
      int64_t c = i < rank - shape.size() ? 1 : shape[i - (rank - shape.size())];
      // A dynamic dimension broadcasts with 1 (staying dynamic) and with a
      // static size (which it must have at run time).
      bool aDynamic = ShapedType::isDynamic(a),
           cDynamic = ShapedType::isDynamic(c);
      if (a != c && a != 1 && c != 1 && !aDynamic && !cDynamic)
        return failure();
      if (a == 1)
        merged[i] = c;
      else if (c == 1 || cDynamic)
        merged[i] = a;
      else
        merged[i] = c;
    }
    result = merged;
  }
  return result;
}

template <typename OpTy>
Value amp::onnximport::binary(OpBuilder &b, Location loc, Value lhs, Value rhs,
                              Type resultElementType) {
  auto shape = broadcastShape({lhs, rhs});
  assert(succeeded(shape) && "converters check broadcasting first");
  int64_t rank = shape->size();
  lhs = expandRank(b, loc, lhs, rank);
  rhs = expandRank(b, loc, rhs, rank);
  if (!resultElementType)
    resultElementType = getElementType(lhs);
  auto type = RankedTensorType::get(*shape, resultElementType);
  if constexpr (std::is_same_v<OpTy, tosa::MaximumOp> ||
                std::is_same_v<OpTy, tosa::MinimumOp>)
    return OpTy::create(b, loc, type, lhs, rhs,
                        tosa::NanPropagationModeAttr::get(
                            b.getContext(), tosa::NanPropagationMode::PROPAGATE));
  else
    return OpTy::create(b, loc, type, lhs, rhs);
}

template Value amp::onnximport::binary<tosa::AddOp>(OpBuilder &, Location,
                                                    Value, Value, Type);
template Value amp::onnximport::binary<tosa::SubOp>(OpBuilder &, Location,
                                                    Value, Value, Type);
template Value amp::onnximport::binary<tosa::PowOp>(OpBuilder &, Location,
                                                    Value, Value, Type);
template Value amp::onnximport::binary<tosa::MaximumOp>(OpBuilder &, Location,
                                                        Value, Value, Type);
template Value amp::onnximport::binary<tosa::MinimumOp>(OpBuilder &, Location,
                                                        Value, Value, Type);
template Value amp::onnximport::binary<tosa::EqualOp>(OpBuilder &, Location,
                                                      Value, Value, Type);
template Value amp::onnximport::binary<tosa::GreaterOp>(OpBuilder &, Location,
                                                        Value, Value, Type);
template Value
amp::onnximport::binary<tosa::GreaterEqualOp>(OpBuilder &, Location, Value,
                                              Value, Type);
template Value amp::onnximport::binary<tosa::IntDivOp>(OpBuilder &, Location,
                                                       Value, Value, Type);
template Value
amp::onnximport::binary<tosa::LogicalAndOp>(OpBuilder &, Location, Value,
                                            Value, Type);
template Value amp::onnximport::binary<tosa::LogicalOrOp>(OpBuilder &,
                                                          Location, Value,
                                                          Value, Type);
template Value
amp::onnximport::binary<tosa::LogicalXorOp>(OpBuilder &, Location, Value,
                                            Value, Type);

Value amp::onnximport::add(OpBuilder &b, Location loc, Value lhs, Value rhs) {
  return binary<tosa::AddOp>(b, loc, lhs, rhs);
}

Value amp::onnximport::sub(OpBuilder &b, Location loc, Value lhs, Value rhs) {
  return binary<tosa::SubOp>(b, loc, lhs, rhs);
}

Value amp::onnximport::mul(OpBuilder &b, Location loc, Value lhs, Value rhs) {
  auto shape = broadcastShape({lhs, rhs});
  assert(succeeded(shape) && "converters check broadcasting first");
  int64_t rank = shape->size();
  lhs = expandRank(b, loc, lhs, rank);
  rhs = expandRank(b, loc, rhs, rank);
  auto type = RankedTensorType::get(*shape, getElementType(lhs));
  Value shift = intConst(b, loc, b.getI8Type(), {1}, {0});
  return tosa::MulOp::create(b, loc, type, lhs, rhs, shift);
}

Value amp::onnximport::elementwise(OpBuilder &b, Location loc,
                                   ArrayRef<Value> inputs,
                                   Type resultElementType, ScalarFn fn) {
  auto shape = broadcastShape(inputs);
  assert(succeeded(shape) && "converters check broadcasting first");
  int64_t rank = shape->size();
  MLIRContext *ctx = b.getContext();
  SmallVector<AffineMap> maps;
  for (Value input : inputs) {
    ArrayRef<int64_t> inShape = getShape(input);
    SmallVector<AffineExpr> exprs;
    int64_t offset = rank - inShape.size();
    for (size_t d = 0; d < inShape.size(); ++d)
      exprs.push_back(inShape[d] == 1 && (*shape)[offset + d] != 1
                          ? getAffineConstantExpr(0, ctx)
                          : getAffineDimExpr(offset + d, ctx));
    maps.push_back(AffineMap::get(rank, 0, exprs, ctx));
  }
  maps.push_back(AffineMap::getMultiDimIdentityMap(rank, ctx));
  // A dynamic result dimension takes its size from an input that has it
  // (dynamic dimensions are never broadcast at run time: the importer only
  // lets the one symbolic input dimension be dynamic).
  SmallVector<Value> dynamicSizes;
  for (int64_t d = 0; d < rank; ++d) {
    if (!ShapedType::isDynamic((*shape)[d]))
      continue;
    for (Value input : inputs) {
      ArrayRef<int64_t> inShape = getShape(input);
      int64_t inDim = d - (rank - static_cast<int64_t>(inShape.size()));
      if (inDim >= 0 && ShapedType::isDynamic(inShape[inDim])) {
        dynamicSizes.push_back(tensor::DimOp::create(b, loc, input, inDim));
        break;
      }
    }
  }
  Value init =
      tensor::EmptyOp::create(b, loc, *shape, resultElementType, dynamicSizes);
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      b, loc, init.getType(), inputs, ValueRange{init}, maps, iterators,
      [&](OpBuilder &nested, Location nestedLoc, ValueRange args) {
        Value result = fn(nested, nestedLoc, args.drop_back());
        linalg::YieldOp::create(nested, nestedLoc, result);
      });
  return generic.getResult(0);
}

Value amp::onnximport::div(OpBuilder &b, Location loc, Value lhs, Value rhs) {
  return elementwise(b, loc, {lhs, rhs}, getElementType(lhs),
                     [](OpBuilder &nb, Location nl, ValueRange args) {
                       return arith::DivFOp::create(nb, nl, args[0], args[1])
                           .getResult();
                     });
}

Value amp::onnximport::castScalar(OpBuilder &b, Location loc, Value value,
                                  Type to) {
  Type from = value.getType();
  if (from == to)
    return value;
  auto fromFloat = dyn_cast<FloatType>(from);
  auto toFloat = dyn_cast<FloatType>(to);
  if (to.isInteger(1)) {
    if (fromFloat) {
      Value zero = arith::ConstantOp::create(b, loc, b.getFloatAttr(from, 0.0));
      return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNE, value,
                                   zero);
    }
    Value zero = arith::ConstantOp::create(b, loc, b.getIntegerAttr(from, 0));
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, value, zero);
  }
  if (fromFloat && toFloat) {
    if (fromFloat.getWidth() < toFloat.getWidth())
      return arith::ExtFOp::create(b, loc, to, value);
    if (fromFloat.getWidth() > toFloat.getWidth())
      return arith::TruncFOp::create(b, loc, to, value);
    // f16 <-> bf16: through f32.
    Value wide = arith::ExtFOp::create(b, loc, b.getF32Type(), value);
    return arith::TruncFOp::create(b, loc, to, wide);
  }
  if (fromFloat)
    return arith::FPToSIOp::create(b, loc, to, value);
  bool fromBool = from.isInteger(1);
  if (toFloat)
    return fromBool ? arith::UIToFPOp::create(b, loc, to, value).getResult()
                    : arith::SIToFPOp::create(b, loc, to, value).getResult();
  unsigned fromWidth = from.getIntOrFloatBitWidth();
  unsigned toWidth = to.getIntOrFloatBitWidth();
  if (fromWidth < toWidth)
    return fromBool ? arith::ExtUIOp::create(b, loc, to, value).getResult()
                    : arith::ExtSIOp::create(b, loc, to, value).getResult();
  return arith::TruncIOp::create(b, loc, to, value);
}

Value amp::onnximport::castTensor(OpBuilder &b, Location loc, Value value,
                            Type elementType) {
  if (getElementType(value) == elementType)
    return value;
  return elementwise(b, loc, {value}, elementType,
                     [&](OpBuilder &nb, Location nl, ValueRange args) {
                       return castScalar(nb, nl, args[0], elementType);
                     });
}

Value amp::onnximport::reduce(OpBuilder &b, Location loc, ReduceKind kind,
                              Value value, ArrayRef<int64_t> axes) {
  for (int64_t axis : axes) {
    SmallVector<int64_t> shape(getShape(value));
    shape[axis] = 1;
    auto type = RankedTensorType::get(shape, getElementType(value));
    IntegerAttr axisAttr = b.getI32IntegerAttr(axis);
    switch (kind) {
    case ReduceKind::Sum:
      value = tosa::ReduceSumOp::create(b, loc, type, value, axisAttr);
      break;
    case ReduceKind::Max:
      value = tosa::ReduceMaxOp::create(b, loc, type, value, axisAttr);
      break;
    case ReduceKind::Min:
      value = tosa::ReduceMinOp::create(b, loc, type, value, axisAttr);
      break;
    case ReduceKind::Prod:
      value = tosa::ReduceProductOp::create(b, loc, type, value, axisAttr);
      break;
    }
  }
  return value;
}

Value amp::onnximport::clamp(OpBuilder &b, Location loc, Value value,
                             double lo, double hi) {
  Type elementType = getElementType(value);
  Attribute loAttr, hiAttr;
  if (auto floatType = dyn_cast<FloatType>(elementType)) {
    loAttr = FloatAttr::get(floatType, lo);
    hiAttr = FloatAttr::get(floatType, hi);
  } else {
    auto intType = cast<IntegerType>(elementType);
    APInt minInt = APInt::getSignedMinValue(intType.getWidth());
    APInt maxInt = APInt::getSignedMaxValue(intType.getWidth());
    auto toInt = [&](double v) {
      if (v <= static_cast<double>(minInt.getSExtValue()))
        return minInt.getSExtValue();
      if (v >= static_cast<double>(maxInt.getSExtValue()))
        return maxInt.getSExtValue();
      return static_cast<int64_t>(v);
    };
    loAttr = IntegerAttr::get(intType, toInt(std::ceil(lo)));
    hiAttr = IntegerAttr::get(intType, toInt(std::floor(hi)));
  }
  return tosa::ClampOp::create(
      b, loc, value.getType(), value, loAttr, hiAttr,
      tosa::NanPropagationModeAttr::get(b.getContext(),
                                        tosa::NanPropagationMode::PROPAGATE));
}

Value amp::onnximport::zeroTensor(OpBuilder &b, Location loc,
                                  ArrayRef<int64_t> shape, Type elementType) {
  Value empty = tensor::EmptyOp::create(b, loc, shape, elementType);
  Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(elementType));
  return linalg::FillOp::create(b, loc, ValueRange{zero}, ValueRange{empty})
      .getResult(0);
}

Value amp::onnximport::matmul3d(OpBuilder &b, Location loc, Value lhs,
                                Value rhs) {
  ArrayRef<int64_t> a = getShape(lhs), c = getShape(rhs);
  Type elementType = getElementType(lhs);
  auto type = RankedTensorType::get({a[0], a[1], c[2]}, elementType);
  Value zp = splatConst(b, loc, RankedTensorType::get({1}, elementType), 0.0);
  return tosa::MatMulOp::create(b, loc, type, lhs, rhs, zp, zp);
}
