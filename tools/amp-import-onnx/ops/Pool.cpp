//===- Pool.cpp - MaxPool, AveragePool, GlobalAveragePool, GlobalMaxPool --===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Windowed pools map to tosa.max_pool2d / tosa.avg_pool2d on NHWC, whose
// padding is -inf (max) or left out of the average (count_include_pad = 0).
// count_include_pad = 1 pads with zeros explicitly first. ceil_mode becomes
// extra end padding, which neither pool counts. Global pools are reductions.
//
//===----------------------------------------------------------------------===//

#include "Converters.h"
#include "SpatialAttrs.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"

using namespace mlir;
using namespace amp::onnximport;

static const int32_t kToNHWC[] = {0, 2, 3, 1};
static const int32_t kToNCHW[] = {0, 3, 1, 2};

static LogicalResult convertPool(NodeContext &ctx, bool isMax) {
  OpBuilder &b = ctx.b;
  Location loc = ctx.loc;
  Value x = ctx.input(0);
  Type elementType = getElementType(x);
  if (!isa<FloatType>(elementType) || elementType.isF64())
    return ctx.error("only f32, f16 and bf16 pooling is supported");
  int64_t rank = getTensorType(x).getRank();
  if (rank != 3 && rank != 4)
    return ctx.error("only 1-D and 2-D pooling is supported (input of rank " +
                     Twine(rank) + ")");
  if (ctx.hasOutput(1))
    return ctx.error("the 'Indices' output is unsupported");
  if (failed(ctx.requireStatic(x, {1, 2, 3}, "a channel or spatial dimension")))
    return failure();
  FailureOr<SpatialAttrs> attrs =
      getSpatialAttrs(ctx, getShape(x).drop_front(2), {}, /*isPool=*/true);
  if (failed(attrs))
    return failure();
  for (int64_t d : attrs->dilations)
    if (d != 1)
      return ctx.unsupported("dilations", "other than 1");
  ArrayRef<int64_t> xs0 = getShape(x);
  if (rank == 3)
    x = reshape(b, loc, x, {xs0[0], xs0[1], 1, xs0[2]});
  int64_t n = getShape(x)[0], c = getShape(x)[1];
  Value input = transpose(b, loc, x, kToNHWC);
  if (!isMax && ctx.getInt("count_include_pad", 0) != 0) {
    // Explicit zero padding, counted by the average.
    input = pad(b, loc, input, {0, attrs->padBegin[0], attrs->padBegin[1], 0},
                {0, attrs->padEnd[0], attrs->padEnd[1], 0}, 0.0);
    for (int64_t i = 0; i < 2; ++i) {
      attrs->inSize[i] += attrs->padBegin[i] + attrs->padEnd[i];
      attrs->padBegin[i] = attrs->padEnd[i] = 0;
    }
  }
  input = fitWindowsExactly(b, loc, input, *attrs, 1);
  for (int64_t i = 0; i < 2; ++i)
    if (attrs->padBegin[i] >= attrs->kernel[i] ||
        attrs->padEnd[i] >= attrs->kernel[i])
      return ctx.unsupported("pads", "as large as the kernel");
  auto type = RankedTensorType::get(
      {n, attrs->outSize[0], attrs->outSize[1], c}, elementType);
  auto kernel = b.getDenseI64ArrayAttr(attrs->kernel);
  auto stride = b.getDenseI64ArrayAttr(attrs->strides);
  auto padAttr = b.getDenseI64ArrayAttr({attrs->padBegin[0], attrs->padEnd[0],
                                         attrs->padBegin[1], attrs->padEnd[1]});
  Value result;
  if (isMax)
    result = tosa::MaxPool2dOp::create(b, loc, type, input, kernel, stride,
                                       padAttr);
  else
    result = tosa::AvgPool2dOp::create(b, loc, type, input, kernel, stride,
                                       padAttr, TypeAttr::get(b.getF32Type()));
  result = transpose(b, loc, result, kToNCHW);
  if (rank == 3)
    result = reshape(b, loc, result, {n, c, attrs->outSize[1]});
  ctx.setOutput(0, result);
  return success();
}

LogicalResult amp::onnximport::convertMaxPool(NodeContext &ctx) {
  if (ctx.getInt("storage_order", 0) != 0 && ctx.hasOutput(1))
    return ctx.unsupported("storage_order", "1");
  return convertPool(ctx, /*isMax=*/true);
}

LogicalResult amp::onnximport::convertAveragePool(NodeContext &ctx) {
  return convertPool(ctx, /*isMax=*/false);
}

static LogicalResult convertGlobalPool(NodeContext &ctx, bool isMax) {
  Value x = ctx.input(0);
  Type elementType = getElementType(x);
  if (!isa<FloatType>(elementType))
    return ctx.error("the input must be a float tensor");
  int64_t rank = getTensorType(x).getRank();
  if (rank < 3)
    return ctx.error("the input needs spatial dimensions");
  SmallVector<int64_t> axes;
  int64_t count = 1;
  for (int64_t d = 2; d < rank; ++d) {
    if (failed(ctx.requireStatic(x, {d}, "spatial dimension " + Twine(d))))
      return failure();
    axes.push_back(d);
    count *= getShape(x)[d];
  }
  Value result = reduce(ctx.b, ctx.loc, isMax ? ReduceKind::Max : ReduceKind::Sum,
                        x, axes);
  if (!isMax)
    result = div(ctx.b, ctx.loc, result,
                 scalarConst(ctx.b, ctx.loc, elementType, double(count), rank));
  ctx.setOutput(0, result);
  return success();
}

LogicalResult amp::onnximport::convertGlobalAveragePool(NodeContext &ctx) {
  return convertGlobalPool(ctx, /*isMax=*/false);
}

LogicalResult amp::onnximport::convertGlobalMaxPool(NodeContext &ctx) {
  return convertGlobalPool(ctx, /*isMax=*/true);
}
