//===- Slice.cpp - Split and Slice ----------------------------------------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Split and Slice take static windows of their input (tensor.extract_slice,
// or folded on a small known input). Their starts, ends, axes, steps and
// split sizes are attributes before opsets 10/13 and inputs after; they must
// be known at import time.
//
//===----------------------------------------------------------------------===//

#include "Converters.h"
#include "DataMovement.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/Dialect/Tosa/Utils/ConversionUtils.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"

#include <limits>
#include <numeric>

using namespace mlir;
using namespace amp::onnximport;

/// Output `out` of a slice of input 0: `starts` and `sizes` per dimension.
static void setSlice(NodeContext &ctx, unsigned out, ArrayRef<int64_t> starts,
                     ArrayRef<int64_t> sizes) {
  if (const Tensor *t = foldableData(ctx)) {
    std::vector<int64_t> strides = getStrides(t->shape);
    Tensor result = selectElements(
        *t, sizes, mapIndices(sizes, [&](ArrayRef<int64_t> idx) {
          int64_t flat = 0;
          for (size_t d = 0; d < idx.size(); ++d)
            flat += (starts[d] + idx[d]) * strides[d];
          return flat;
        }));
    ctx.setConstOutput(out, std::move(result));
    return;
  }
  ctx.setOutput(out, slice(ctx.b, ctx.loc, ctx.input(0), starts, sizes));
}

LogicalResult amp::onnximport::convertSplit(NodeContext &ctx) {
  std::vector<int64_t> in = inputShape(ctx, 0);
  int64_t rank = in.size();
  FailureOr<int64_t> axis = ctx.normalizeAxis(ctx.getInt("axis", 0), rank);
  if (failed(axis))
    return failure();
  std::optional<std::vector<int64_t>> split;
  if (ctx.opset < 13) {
    split = ctx.getInts("split");
  } else if (ctx.hasInput(1)) {
    split = ctx.constInts(1);
    if (!split)
      return ctx.error("'split' must be known at import time");
  }
  unsigned n = ctx.getNumOutputs();
  if (!split) {
    if (n == 0 || in[*axis] % n != 0)
      return ctx.error("dimension " + Twine(*axis) + " (" + Twine(in[*axis]) +
                       ") does not split evenly into " + Twine(n) + " outputs");
    split = std::vector<int64_t>(n, in[*axis] / n);
  }
  if (failed(ctx.checkSizes(*split, "split")))
    return failure();
  if (split->size() != n)
    return ctx.error("'split' has " + Twine(split->size()) + " sizes for " +
                     Twine(n) + " outputs");
  int64_t offset = 0;
  for (unsigned i = 0; i < n; ++i) {
    if ((*split)[i] < 0)
      return ctx.error("negative split size");
    std::vector<int64_t> starts(rank, 0), sizes = in;
    starts[*axis] = offset;
    sizes[*axis] = (*split)[i];
    offset += (*split)[i];
    if (offset > in[*axis])
      return ctx.error("the split sizes exceed the dimension");
    setSlice(ctx, i, starts, sizes);
  }
  if (offset != in[*axis])
    return ctx.error("the split sizes do not add up to the dimension");
  return success();
}

LogicalResult amp::onnximport::convertSlice(NodeContext &ctx) {
  std::optional<std::vector<int64_t>> starts, ends, axes, steps;
  if (ctx.opset < 10) {
    starts = ctx.getInts("starts");
    ends = ctx.getInts("ends");
    axes = ctx.getInts("axes");
  } else {
    starts = ctx.constInts(1);
    ends = ctx.constInts(2);
    if (ctx.hasInput(3) && !(axes = ctx.constInts(3)))
      return ctx.error("'axes' must be known at import time");
    if (ctx.hasInput(4) && !(steps = ctx.constInts(4)))
      return ctx.error("'steps' must be known at import time");
  }
  if (!starts || !ends)
    return ctx.error("'starts' and 'ends' must be known at import time");
  std::vector<int64_t> in = inputShape(ctx, 0);
  int64_t rank = in.size();
  size_t n = starts->size();
  if (ends->size() != n || (axes && axes->size() != n) ||
      (steps && steps->size() != n))
    return ctx.error("starts, ends, axes and steps differ in length");
  std::vector<int64_t> offset(rank, 0), size = in, stride(rank, 1);
  std::vector<bool> reversed(rank, false), seen(rank, false);
  for (size_t i = 0; i < n; ++i) {
    int64_t axis = axes ? (*axes)[i] : static_cast<int64_t>(i);
    FailureOr<int64_t> a = ctx.normalizeAxis(axis, rank);
    if (failed(a))
      return failure();
    if (seen[*a])
      return ctx.error("repeated axis");
    seen[*a] = true;
    int64_t dim = in[*a], step = steps ? (*steps)[i] : 1;
    if (step == 0)
      return ctx.error("step 0");
    int64_t start = (*starts)[i], end = (*ends)[i];
    if (start < 0)
      start += dim;
    if (end < 0)
      end += dim;
    int64_t count;
    if (step > 0) {
      start = std::clamp<int64_t>(start, 0, dim);
      end = std::clamp<int64_t>(end, 0, dim);
      count = end > start ? (end - start + step - 1) / step : 0;
      offset[*a] = start;
    } else {
      start = std::clamp<int64_t>(start, 0, dim - 1);
      end = std::clamp<int64_t>(end, -1, dim - 1);
      count = start > end ? (start - end - step - 1) / -step : 0;
      // On the reversed dimension, element `start` is at dim - 1 - start.
      reversed[*a] = true;
      offset[*a] = dim - 1 - start;
    }
    size[*a] = count;
    stride[*a] = step > 0 ? step : -step;
  }
  if (const Tensor *t = foldableData(ctx)) {
    std::vector<int64_t> strides = getStrides(in);
    ctx.setConstOutput(0, selectElements(*t, size,
                                         mapIndices(size, [&](ArrayRef<int64_t> idx) {
                                           int64_t flat = 0;
                                           for (int64_t d = 0; d < rank; ++d) {
                                             int64_t c = offset[d] + idx[d] * stride[d];
                                             if (reversed[d])
                                               c = in[d] - 1 - c;
                                             flat += c * strides[d];
                                           }
                                           return flat;
                                         })));
    return success();
  }
  Value value = ctx.input(0);
  for (int64_t d = 0; d < rank; ++d)
    if (reversed[d] && in[d] > 1)
      value = tosa::ReverseOp::create(ctx.b, ctx.loc, value.getType(), value,
                                      ctx.b.getI32IntegerAttr(d));
  bool unitStrides = llvm::all_of(stride, [](int64_t s) { return s == 1; });
  if (unitStrides) {
    ctx.setOutput(0, slice(ctx.b, ctx.loc, value, offset, size));
    return success();
  }
  auto type = RankedTensorType::get(size, getElementType(value));
  ctx.setOutput(0, tensor::ExtractSliceOp::create(ctx.b, ctx.loc, type, value,
                                                  ValueRange{}, ValueRange{},
                                                  ValueRange{}, offset, size,
                                                  stride));
  return success();
}

