//===- Reduction.cpp - ReduceMean, ReduceSum, ReduceMax, ReduceMin, ... ---===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// One TOSA reduction per reduced axis (each keeps its dimension), a division
// for the mean, and a reshape when keepdims = 0. ReduceSum takes its axes as
// an input from opset 13, the others from opset 18 (beyond the supported
// range), so they read the 'axes' attribute.
//
//===----------------------------------------------------------------------===//

#include "Converters.h"

using namespace mlir;
using namespace amp::onnximport;

static LogicalResult convertReduce(NodeContext &ctx, ReduceKind kind,
                                   bool mean, bool axesAreInput) {
  Value x = ctx.input(0);
  Type elementType = getElementType(x);
  if (elementType.isInteger(1))
    return ctx.error("bool reductions are unsupported");
  if (mean && !isa<FloatType>(elementType))
    return ctx.error("ReduceMean needs a float input");
  int64_t rank = getTensorType(x).getRank();
  std::optional<std::vector<int64_t>> axes;
  if (axesAreInput) {
    if (ctx.hasInput(1)) {
      axes = ctx.constInts(1);
      if (!axes)
        return ctx.error("'axes' must be known at import time");
    }
  } else {
    axes = ctx.getInts("axes");
  }
  bool keepDims = ctx.getInt("keepdims", 1) != 0;
  if ((!axes || axes->empty()) && ctx.getInt("noop_with_empty_axes", 0)) {
    ctx.setOutput(0, x);
    return success();
  }
  SmallVector<int64_t> reduced;
  std::vector<bool> isReduced(rank, false);
  if (!axes || axes->empty()) {
    for (int64_t d = 0; d < rank; ++d)
      isReduced[d] = true;
  } else {
    for (int64_t axis : *axes) {
      FailureOr<int64_t> a = ctx.normalizeAxis(axis, rank);
      if (failed(a))
        return failure();
      isReduced[*a] = true;
    }
  }
  int64_t count = 1;
  SmallVector<int64_t> outShape;
  for (int64_t d = 0; d < rank; ++d) {
    if (isReduced[d]) {
      if (failed(ctx.requireStatic(x, {d}, "reduced dimension " + Twine(d))))
        return failure();
      reduced.push_back(d);
      count *= getShape(x)[d];
      if (keepDims)
        outShape.push_back(1);
    } else {
      outShape.push_back(getShape(x)[d]);
    }
  }
  Value result = reduce(ctx.b, ctx.loc, kind, x, reduced);
  if (mean)
    result = div(ctx.b, ctx.loc, result,
                 scalarConst(ctx.b, ctx.loc, elementType, double(count), rank));
  ctx.setOutput(0, reshape(ctx.b, ctx.loc, result, outShape));
  return success();
}

LogicalResult amp::onnximport::convertReduceMean(NodeContext &ctx) {
  return convertReduce(ctx, ReduceKind::Sum, /*mean=*/true, false);
}

LogicalResult amp::onnximport::convertReduceSum(NodeContext &ctx) {
  return convertReduce(ctx, ReduceKind::Sum, false, ctx.opset >= 13);
}

LogicalResult amp::onnximport::convertReduceMax(NodeContext &ctx) {
  return convertReduce(ctx, ReduceKind::Max, false, false);
}

LogicalResult amp::onnximport::convertReduceMin(NodeContext &ctx) {
  return convertReduce(ctx, ReduceKind::Min, false, false);
}

LogicalResult amp::onnximport::convertReduceProd(NodeContext &ctx) {
  return convertReduce(ctx, ReduceKind::Prod, false, false);
}
