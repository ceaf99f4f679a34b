//===- Normalization.cpp - Batch, instance and layer norms, softmax -------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Inference-mode batch normalization with known statistics folds into one
// scale and one shift per channel at import time; otherwise it is computed
// from its inputs. Instance and layer normalization and softmax are
// decomposed into TOSA reductions and element-wise ops (the form amp's
// coloring recognizes: the reductions and exp stay FP32).
//
//===----------------------------------------------------------------------===//

#include "Converters.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"

#include <cmath>

using namespace mlir;
using namespace amp::onnximport;

LogicalResult amp::onnximport::convertBatchNormalization(NodeContext &ctx) {
  OpBuilder &b = ctx.b;
  Location loc = ctx.loc;
  if (ctx.getInt("training_mode", 0) != 0)
    return ctx.unsupported("training_mode", "1 (inference only)");
  if (ctx.opset < 7 && ctx.getInt("is_test", 0) == 0 && ctx.hasOutput(1))
    return ctx.unsupported("is_test", "0 (training mode)");
  for (unsigned i = 1; i < ctx.getNumOutputs(); ++i)
    if (ctx.hasOutput(i))
      return ctx.error("the training outputs (running mean and variance) are "
                       "unsupported");
  Value x = ctx.input(0);
  Type elementType = getElementType(x);
  if (!isa<FloatType>(elementType))
    return ctx.error("the input must be a float tensor");
  int64_t rank = getTensorType(x).getRank();
  if (rank < 2)
    return ctx.error("the input needs a channel dimension");
  if (failed(ctx.requireStatic(x, {1}, "the channel dimension")))
    return failure();
  int64_t c = getShape(x)[1];
  double epsilon = ctx.getFloat("epsilon", 1e-5f);
  SmallVector<int64_t> paramShape(rank, 1);
  paramShape[1] = c;
  for (unsigned i = 1; i <= 4; ++i) {
    if (!ctx.hasInput(i))
      return ctx.error("scale, bias, mean and variance are required");
    int64_t size = 1;
    if (const Tensor *t = ctx.constInput(i))
      size = t->getNumElements();
    else if (hasDynamicDims(getShape(ctx.input(i))))
      return ctx.dynamicUnsupported("input " + Twine(i));
    else
      size = getTensorType(ctx.input(i)).getNumElements();
    if (size != c)
      return ctx.error("input " + Twine(i) + " must have one value per channel");
  }
  const Tensor *scale = ctx.constInput(1), *bias = ctx.constInput(2),
               *mean = ctx.constInput(3), *var = ctx.constInput(4);
  if (scale && bias && mean && var) {
    // y = x * a + s, a = scale / sqrt(var + eps), s = bias - mean * a.
    std::vector<double> a(c), s(c);
    for (int64_t i = 0; i < c; ++i) {
      a[i] = getDouble(*scale, i) / std::sqrt(getDouble(*var, i) + epsilon);
      s[i] = getDouble(*bias, i) - getDouble(*mean, i) * a[i];
    }
    int32_t dtype = ctx.getDType(elementType);
    Tensor aTensor = makeTensor(dtype, paramShape, ArrayRef<double>(a));
    Tensor sTensor = makeTensor(dtype, paramShape, ArrayRef<double>(s));
    aTensor.name = ctx.node.inputs[1] + "_folded_scale";
    sTensor.name = ctx.node.inputs[2] + "_folded_shift";
    auto type = RankedTensorType::get(paramShape, elementType);
    auto constant = [&](const Tensor &t) -> Value {
      auto attr = DenseElementsAttr::getFromRawBuffer(type, t.data);
      return tosa::ConstOp::create(b, loc, type, attr);
    };
    Value result = mul(b, loc, x, constant(aTensor));
    ctx.setOutput(0, add(b, loc, result, constant(sTensor)));
    return success();
  }
  auto param = [&](unsigned i) {
    return reshape(b, loc, ctx.input(i), paramShape);
  };
  Value centered = sub(b, loc, x, param(3));
  Value varEps = add(b, loc, param(4), scalarConst(b, loc, elementType,
                                                   epsilon, rank));
  Value inv = tosa::RsqrtOp::create(b, loc, varEps.getType(), varEps);
  Value normalized = mul(b, loc, centered, inv);
  Value result = add(b, loc, mul(b, loc, normalized, param(1)), param(2));
  ctx.setOutput(0, result);
  return success();
}

namespace {
/// (x - mean) * rsqrt(var + epsilon) over some axes, with its statistics.
struct Normalized {
  Value value, mean, invStd;
};
} // namespace

/// Normalizes `x` over `axes` (static dimensions): the statistics are TOSA
/// reductions, which amp's coloring keeps in FP32.
static FailureOr<Normalized> normalize(NodeContext &ctx, Value x,
                                       ArrayRef<int64_t> axes, double epsilon) {
  OpBuilder &b = ctx.b;
  Location loc = ctx.loc;
  Type elementType = getElementType(x);
  int64_t rank = getTensorType(x).getRank();
  int64_t count = 1;
  for (int64_t d : axes) {
    if (failed(ctx.requireStatic(x, {d}, "normalized dimension " + Twine(d))))
      return failure();
    count *= getShape(x)[d];
  }
  Value countConst = scalarConst(b, loc, elementType, double(count), rank);
  Value mean = div(b, loc, reduce(b, loc, ReduceKind::Sum, x, axes), countConst);
  Value centered = sub(b, loc, x, mean);
  Value variance = div(
      b, loc, reduce(b, loc, ReduceKind::Sum, mul(b, loc, centered, centered), axes),
      countConst);
  Value varEps =
      add(b, loc, variance, scalarConst(b, loc, elementType, epsilon, rank));
  Value invStd = tosa::RsqrtOp::create(b, loc, varEps.getType(), varEps);
  return Normalized{mul(b, loc, centered, invStd), mean, invStd};
}

LogicalResult
amp::onnximport::convertInstanceNormalization(NodeContext &ctx) {
  OpBuilder &b = ctx.b;
  Location loc = ctx.loc;
  Value x = ctx.input(0);
  if (!isa<FloatType>(getElementType(x)))
    return ctx.error("the input must be a float tensor");
  int64_t rank = getTensorType(x).getRank();
  if (rank < 3)
    return ctx.error("the input needs a batch, a channel and a spatial "
                     "dimension");
  if (failed(ctx.requireStatic(x, {1}, "the channel dimension")))
    return failure();
  SmallVector<int64_t> axes;
  for (int64_t d = 2; d < rank; ++d)
    axes.push_back(d);
  FailureOr<Normalized> normalized =
      normalize(ctx, x, axes, ctx.getFloat("epsilon", 1e-5f));
  if (failed(normalized))
    return failure();
  // Scale and bias have one value per channel: [C] -> [1, C, 1, ...].
  SmallVector<int64_t> paramShape(rank, 1);
  paramShape[1] = getShape(x)[1];
  Value result = normalized->value;
  for (unsigned i = 1; i <= 2; ++i) {
    Value param = ctx.input(i);
    if (getTensorType(param).getRank() != 1 ||
        getShape(param)[0] != paramShape[1])
      return ctx.error("input " + Twine(i) + " must have one value per channel");
    param = reshape(b, loc, param, paramShape);
    result = i == 1 ? mul(b, loc, result, param) : add(b, loc, result, param);
  }
  ctx.setOutput(0, result);
  return success();
}

LogicalResult amp::onnximport::convertLayerNormalization(NodeContext &ctx) {
  OpBuilder &b = ctx.b;
  Location loc = ctx.loc;
  Value x = ctx.input(0);
  Type elementType = getElementType(x);
  if (!isa<FloatType>(elementType))
    return ctx.error("the input must be a float tensor");
  int64_t rank = getTensorType(x).getRank();
  FailureOr<int64_t> axis = ctx.normalizeAxis(ctx.getInt("axis", -1), rank);
  if (failed(axis))
    return failure();
  double epsilon = ctx.getFloat("epsilon", 1e-5f);
  SmallVector<int64_t> axes;
  for (int64_t d = *axis; d < rank; ++d)
    axes.push_back(d);
  FailureOr<Normalized> normalized = normalize(ctx, x, axes, epsilon);
  if (failed(normalized))
    return failure();
  Value result = normalized->value, mean = normalized->mean,
        invStd = normalized->invStd;
  Value scale = ctx.input(1);
  if (failed(broadcastShape({result, scale})))
    return ctx.error("the scale does not broadcast to the input");
  result = mul(b, loc, result, scale);
  if (ctx.hasInput(2)) {
    Value bias = ctx.input(2);
    if (failed(broadcastShape({result, bias})))
      return ctx.error("the bias does not broadcast to the input");
    result = add(b, loc, result, bias);
  }
  ctx.setOutput(0, result);
  ctx.setOutput(1, mean);
  ctx.setOutput(2, invStd);
  return success();
}

/// Softmax (or log-softmax) of `x` over `axis`.
static Value softmax(OpBuilder &b, Location loc, Value x, int64_t axis,
                     bool log) {
  Value max = reduce(b, loc, ReduceKind::Max, x, {axis});
  Value shifted = sub(b, loc, x, max);
  Value e = tosa::ExpOp::create(b, loc, shifted.getType(), shifted);
  Value sum = reduce(b, loc, ReduceKind::Sum, e, {axis});
  if (log)
    return sub(b, loc, shifted, tosa::LogOp::create(b, loc, sum.getType(), sum));
  return div(b, loc, e, sum);
}

static LogicalResult convertSoftmaxLike(NodeContext &ctx, bool log) {
  OpBuilder &b = ctx.b;
  Location loc = ctx.loc;
  Value x = ctx.input(0);
  if (!isa<FloatType>(getElementType(x)))
    return ctx.error("the input must be a float tensor");
  int64_t rank = getTensorType(x).getRank();
  if (rank == 0)
    return ctx.error("the input must have rank >= 1");
  FailureOr<int64_t> axis =
      ctx.normalizeAxis(ctx.getInt("axis", ctx.opset < 13 ? 1 : -1), rank);
  if (failed(axis))
    return failure();
  if (ctx.opset >= 13) {
    ctx.setOutput(0, softmax(b, loc, x, *axis, log));
    return success();
  }
  // Before opset 13: the input is flattened to 2-D at `axis`.
  ArrayRef<int64_t> shape = getShape(x);
  SmallVector<int64_t> innerDims;
  for (int64_t d = *axis; d < rank; ++d)
    innerDims.push_back(d);
  if (failed(ctx.requireStatic(x, innerDims, "a dimension from 'axis'")))
    return failure();
  int64_t outer = mergeSizes(shape.take_front(*axis));
  int64_t inner = mergeSizes(shape.drop_front(*axis));
  Value flat = reshape(b, loc, x, {outer, inner});
  Value result = softmax(b, loc, flat, 1, log);
  ctx.setOutput(0, reshape(b, loc, result, shape));
  return success();
}

LogicalResult amp::onnximport::convertSoftmax(NodeContext &ctx) {
  return convertSoftmaxLike(ctx, /*log=*/false);
}

LogicalResult amp::onnximport::convertLogSoftmax(NodeContext &ctx) {
  return convertSoftmaxLike(ctx, /*log=*/true);
}
