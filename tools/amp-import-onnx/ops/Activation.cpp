//===- Activation.cpp - Unary math and activation functions ---------------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// One TOSA op where TOSA has the function (exp, log, erf, tanh, sigmoid,
// abs, negate, reciprocal, floor, ceil, sin, cos, clamp); math.sqrt in a
// linalg.generic otherwise (TOSA only has rsqrt). The piecewise activations
// are built from TOSA compares, selects and clamps.
//
//===----------------------------------------------------------------------===//

#include "Converters.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace amp::onnximport;

/// The float input of a unary op, or an error.
static FailureOr<Value> getFloatInput(NodeContext &ctx, unsigned i = 0) {
  Value x = ctx.input(i);
  if (!isa<FloatType>(getElementType(x))) {
    (void)ctx.error("the input must be a float tensor");
    return failure();
  }
  return x;
}

template <typename OpTy>
static LogicalResult convertTosaUnary(NodeContext &ctx) {
  FailureOr<Value> x = getFloatInput(ctx);
  if (failed(x))
    return failure();
  ctx.setOutput(0, OpTy::create(ctx.b, ctx.loc, x->getType(), *x));
  return success();
}

LogicalResult amp::onnximport::convertExp(NodeContext &ctx) {
  return convertTosaUnary<tosa::ExpOp>(ctx);
}
LogicalResult amp::onnximport::convertLog(NodeContext &ctx) {
  return convertTosaUnary<tosa::LogOp>(ctx);
}
LogicalResult amp::onnximport::convertErf(NodeContext &ctx) {
  return convertTosaUnary<tosa::ErfOp>(ctx);
}
LogicalResult amp::onnximport::convertTanh(NodeContext &ctx) {
  return convertTosaUnary<tosa::TanhOp>(ctx);
}
LogicalResult amp::onnximport::convertSigmoid(NodeContext &ctx) {
  return convertTosaUnary<tosa::SigmoidOp>(ctx);
}
LogicalResult amp::onnximport::convertReciprocal(NodeContext &ctx) {
  return convertTosaUnary<tosa::ReciprocalOp>(ctx);
}
LogicalResult amp::onnximport::convertFloor(NodeContext &ctx) {
  return convertTosaUnary<tosa::FloorOp>(ctx);
}
LogicalResult amp::onnximport::convertCeil(NodeContext &ctx) {
  return convertTosaUnary<tosa::CeilOp>(ctx);
}
LogicalResult amp::onnximport::convertSin(NodeContext &ctx) {
  return convertTosaUnary<tosa::SinOp>(ctx);
}
LogicalResult amp::onnximport::convertCos(NodeContext &ctx) {
  return convertTosaUnary<tosa::CosOp>(ctx);
}

LogicalResult amp::onnximport::convertAbs(NodeContext &ctx) {
  Value x = ctx.input(0);
  if (getElementType(x).isInteger(1))
    return ctx.error("Abs of bool is undefined");
  ctx.setOutput(0, tosa::AbsOp::create(ctx.b, ctx.loc, x.getType(), x));
  return success();
}

LogicalResult amp::onnximport::convertNeg(NodeContext &ctx) {
  if (const Tensor *c = ctx.constInput(0)) {
    auto folded = foldElementwise(
        {c}, c->dtype, [](ArrayRef<double> a) { return -a[0]; },
        [](ArrayRef<int64_t> a) { return -a[0]; });
    if (folded) {
      ctx.setConstOutput(0, std::move(*folded));
      return success();
    }
  }
  Value x = ctx.input(0);
  Type elementType = getElementType(x);
  if (elementType.isInteger(1))
    return ctx.error("Neg of bool is undefined");
  Value zp = splatConst(ctx.b, ctx.loc, RankedTensorType::get({1}, elementType),
                        0.0);
  ctx.setOutput(0,
                tosa::NegateOp::create(ctx.b, ctx.loc, x.getType(), x, zp, zp));
  return success();
}

LogicalResult amp::onnximport::convertSqrt(NodeContext &ctx) {
  FailureOr<Value> x = getFloatInput(ctx);
  if (failed(x))
    return failure();
  ctx.setOutput(0, elementwise(ctx.b, ctx.loc, {*x}, getElementType(*x),
                               [](OpBuilder &b, Location loc, ValueRange args) {
                                 return math::SqrtOp::create(b, loc, args[0])
                                     .getResult();
                               }));
  return success();
}

LogicalResult amp::onnximport::convertRelu(NodeContext &ctx) {
  Value x = ctx.input(0);
  ctx.setOutput(0, clamp(ctx.b, ctx.loc, x, 0.0,
                         std::numeric_limits<double>::infinity()));
  return success();
}

/// select(x >= 0, x, negative(x)).
static Value selectNonNegative(NodeContext &ctx, Value x, Value negative) {
  int64_t rank = getTensorType(x).getRank();
  Value zero = scalarConst(ctx.b, ctx.loc, getElementType(x), 0.0, rank);
  Value cond = binary<tosa::GreaterEqualOp>(ctx.b, ctx.loc, x, zero,
                                            ctx.b.getI1Type());
  return tosa::SelectOp::create(ctx.b, ctx.loc, x.getType(), cond, x, negative);
}

LogicalResult amp::onnximport::convertLeakyRelu(NodeContext &ctx) {
  FailureOr<Value> x = getFloatInput(ctx);
  if (failed(x))
    return failure();
  double alpha = ctx.getFloat("alpha", 0.01f);
  int64_t rank = getTensorType(*x).getRank();
  Value scaled = mul(ctx.b, ctx.loc, *x,
                     scalarConst(ctx.b, ctx.loc, getElementType(*x), alpha,
                                 rank));
  ctx.setOutput(0, selectNonNegative(ctx, *x, scaled));
  return success();
}

LogicalResult amp::onnximport::convertPRelu(NodeContext &ctx) {
  FailureOr<Value> x = getFloatInput(ctx);
  if (failed(x))
    return failure();
  Value slope = ctx.input(1);
  // Opset 6 applies a 1-D slope per channel (dimension 1); from opset 7 it
  // broadcasts like NumPy (to the last dimension).
  int64_t rank = getTensorType(*x).getRank();
  if (ctx.opset < 7 && rank >= 2 && getTensorType(slope).getRank() == 1 &&
      getShape(slope)[0] == getShape(*x)[1] && getShape(slope)[0] != 1) {
    SmallVector<int64_t> perChannel(rank, 1);
    perChannel[1] = getShape(slope)[0];
    slope = reshape(ctx.b, ctx.loc, slope, perChannel);
  }
  auto shape = broadcastShape({*x, slope});
  if (failed(shape) || ArrayRef<int64_t>(*shape) != getShape(*x))
    return ctx.error("the slope does not broadcast to the input");
  Value scaled = mul(ctx.b, ctx.loc, *x, slope);
  ctx.setOutput(0, selectNonNegative(ctx, *x, scaled));
  return success();
}

LogicalResult amp::onnximport::convertElu(NodeContext &ctx) {
  FailureOr<Value> x = getFloatInput(ctx);
  if (failed(x))
    return failure();
  double alpha = ctx.getFloat("alpha", 1.0f);
  int64_t rank = getTensorType(*x).getRank();
  Type elementType = getElementType(*x);
  Value expm1 = sub(ctx.b, ctx.loc,
                    tosa::ExpOp::create(ctx.b, ctx.loc, x->getType(), *x),
                    scalarConst(ctx.b, ctx.loc, elementType, 1.0, rank));
  Value scaled = mul(ctx.b, ctx.loc, expm1,
                     scalarConst(ctx.b, ctx.loc, elementType, alpha, rank));
  ctx.setOutput(0, selectNonNegative(ctx, *x, scaled));
  return success();
}

/// clamp(alpha * x + beta, 0, 1).
static Value hardSigmoid(NodeContext &ctx, Value x, double alpha,
                         double beta) {
  int64_t rank = getTensorType(x).getRank();
  Type elementType = getElementType(x);
  Value scaled =
      mul(ctx.b, ctx.loc, x, scalarConst(ctx.b, ctx.loc, elementType, alpha, rank));
  Value shifted = add(ctx.b, ctx.loc, scaled,
                      scalarConst(ctx.b, ctx.loc, elementType, beta, rank));
  return clamp(ctx.b, ctx.loc, shifted, 0.0, 1.0);
}

LogicalResult amp::onnximport::convertHardSigmoid(NodeContext &ctx) {
  FailureOr<Value> x = getFloatInput(ctx);
  if (failed(x))
    return failure();
  ctx.setOutput(0, hardSigmoid(ctx, *x, ctx.getFloat("alpha", 0.2f),
                               ctx.getFloat("beta", 0.5f)));
  return success();
}

LogicalResult amp::onnximport::convertHardSwish(NodeContext &ctx) {
  FailureOr<Value> x = getFloatInput(ctx);
  if (failed(x))
    return failure();
  ctx.setOutput(0, mul(ctx.b, ctx.loc, *x, hardSigmoid(ctx, *x, 1.0 / 6, 0.5)));
  return success();
}

LogicalResult amp::onnximport::convertSoftplus(NodeContext &ctx) {
  FailureOr<Value> x = getFloatInput(ctx);
  if (failed(x))
    return failure();
  // log(exp(x) + 1), computed as max(x, 0) + log(1 + exp(-|x|)) so that
  // large inputs do not overflow.
  ctx.setOutput(
      0, elementwise(ctx.b, ctx.loc, {*x}, getElementType(*x),
                     [](OpBuilder &b, Location loc, ValueRange args) {
                       Value v = args[0];
                       Type t = v.getType();
                       Value zero = arith::ConstantOp::create(
                           b, loc, b.getFloatAttr(t, 0.0));
                       Value absV = math::AbsFOp::create(b, loc, v);
                       Value negAbs = arith::NegFOp::create(b, loc, absV);
                       Value e = math::ExpOp::create(b, loc, negAbs);
                       Value l = math::Log1pOp::create(b, loc, e);
                       Value m = arith::MaximumFOp::create(b, loc, v, zero);
                       return arith::AddFOp::create(b, loc, m, l).getResult();
                     }));
  return success();
}

LogicalResult amp::onnximport::convertClip(NodeContext &ctx) {
  Value x = ctx.input(0);
  Type elementType = getElementType(x);
  double inf = std::numeric_limits<double>::infinity();
  double lo = -inf, hi = inf;
  if (ctx.opset < 11) {
    lo = ctx.getFloat("min", -std::numeric_limits<float>::max());
    hi = ctx.getFloat("max", std::numeric_limits<float>::max());
    ctx.setOutput(0, clamp(ctx.b, ctx.loc, x, lo, hi));
    return success();
  }
  // Opset 11+: optional scalar inputs. Known bounds make one clamp; others
  // a maximum/minimum.
  Value result = x;
  bool haveLo = false, haveHi = false;
  Value loValue, hiValue;
  if (ctx.hasInput(1)) {
    if (const Tensor *t = ctx.constInput(1)) {
      if (t->getNumElements() != 1)
        return ctx.error("'min' must be a scalar");
      lo = getDouble(*t, 0);
      haveLo = true;
    } else {
      loValue = ctx.input(1);
    }
  }
  if (ctx.hasInput(2)) {
    if (const Tensor *t = ctx.constInput(2)) {
      if (t->getNumElements() != 1)
        return ctx.error("'max' must be a scalar");
      hi = getDouble(*t, 0);
      haveHi = true;
    } else {
      hiValue = ctx.input(2);
    }
  }
  if (haveLo || haveHi || (!loValue && !hiValue))
    result = clamp(ctx.b, ctx.loc, result, lo, hi);
  int64_t rank = getTensorType(x).getRank();
  if (loValue) {
    if (getElementType(loValue) != elementType)
      return ctx.error("'min' has another element type than the input");
    result = binary<tosa::MaximumOp>(ctx.b, ctx.loc, result,
                                     reshape(ctx.b, ctx.loc, loValue,
                                             SmallVector<int64_t>(rank, 1)));
  }
  if (hiValue) {
    if (getElementType(hiValue) != elementType)
      return ctx.error("'max' has another element type than the input");
    result = binary<tosa::MinimumOp>(ctx.b, ctx.loc, result,
                                     reshape(ctx.b, ctx.loc, hiValue,
                                             SmallVector<int64_t>(rank, 1)));
  }
  ctx.setOutput(0, result);
  return success();
}

LogicalResult amp::onnximport::convertSelu(NodeContext &ctx) {
  FailureOr<Value> x = getFloatInput(ctx);
  if (failed(x))
    return failure();
  double alpha = ctx.getFloat("alpha", 1.67326319217681884765625f);
  double gamma = ctx.getFloat("gamma", 1.05070102214813232421875f);
  int64_t rank = getTensorType(*x).getRank();
  Type elementType = getElementType(*x);
  Value expm1 = sub(ctx.b, ctx.loc,
                    tosa::ExpOp::create(ctx.b, ctx.loc, x->getType(), *x),
                    scalarConst(ctx.b, ctx.loc, elementType, 1.0, rank));
  Value negative = mul(ctx.b, ctx.loc, expm1,
                       scalarConst(ctx.b, ctx.loc, elementType, alpha, rank));
  Value result = selectNonNegative(ctx, *x, negative);
  ctx.setOutput(0, mul(ctx.b, ctx.loc, result,
                       scalarConst(ctx.b, ctx.loc, elementType, gamma, rank)));
  return success();
}
