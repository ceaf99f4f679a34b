//===- Shape.cpp - Reshapes, transposes, concat, expand, tile, pad, gather ===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Data movement. Shape operands (Reshape's shape, Slice's starts, Pad's
// pads, ...) must be known at import time: the importer folds exported shape
// arithmetic, and TOSA takes static shapes. Ops whose data input is known
// and small are folded too (the Shape -> Gather -> Unsqueeze -> Concat
// chains of exported models). Opset differences: axes/split/pads/starts are
// attributes before opset 13/13/11/10 and inputs after.
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



/// A reshape may merge a dynamic dimension only with dimensions of size 1:
/// the result is then the same dynamic size, never a new one (the importer
/// keeps every dynamic dimension equal to the one symbolic input dimension).
static LogicalResult checkMergedDynamic(NodeContext &ctx,
                                        ArrayRef<int64_t> merged,
                                        const Twine &what) {
  bool othersAreOne = llvm::all_of(
      merged, [](int64_t d) { return d == 1 || ShapedType::isDynamic(d); });
  if (!hasDynamicDims(merged) ||
      (othersAreOne && getNumDynamicDims(merged) == 1))
    return success();
  return ctx.dynamicUnsupported("a dimension merged with others (" + what +
                                ")");
}



/// Same data, another shape.
static void setReshaped(NodeContext &ctx, ArrayRef<int64_t> shape) {
  if (const Tensor *t = ctx.constInput(0)) {
    Tensor result = *t;
    result.shape.assign(shape.begin(), shape.end());
    ctx.setConstOutput(0, std::move(result));
    return;
  }
  ctx.setOutput(0, reshape(ctx.b, ctx.loc, ctx.input(0), shape));
}

/// Axes from the attribute (before `inputOpset`) or input 1 (from it).
static FailureOr<std::optional<std::vector<int64_t>>>
getAxes(NodeContext &ctx, int64_t inputOpset, unsigned inputIndex = 1) {
  if (ctx.opset < inputOpset)
    return ctx.getInts("axes");
  if (!ctx.hasInput(inputIndex))
    return std::optional<std::vector<int64_t>>();
  std::optional<std::vector<int64_t>> axes = ctx.constInts(inputIndex);
  if (!axes) {
    (void)ctx.error("'axes' must be known at import time");
    return failure();
  }
  return axes;
}

LogicalResult amp::onnximport::convertReshape(NodeContext &ctx) {
  std::optional<std::vector<int64_t>> target = ctx.constInts(1);
  if (!target)
    return ctx.error("the target shape must be known at import time");
  if (failed(ctx.checkSizes(*target, "shape")))
    return failure();
  std::vector<int64_t> in = inputShape(ctx, 0);
  bool allowZero = ctx.getInt("allowzero", 0) != 0;
  std::vector<int64_t> shape;
  int64_t inferred = -1, known = 1;
  for (size_t i = 0; i < target->size(); ++i) {
    int64_t d = (*target)[i];
    if (d == 0 && !allowZero) {
      if (i >= in.size())
        return ctx.error("shape copies dimension " + Twine(i) +
                         " that the input does not have");
      d = in[i];
    }
    if (d == -1) {
      if (inferred >= 0)
        return ctx.error("more than one -1 in the target shape");
      inferred = i;
      shape.push_back(1);
      continue;
    }
    if (d < 0)
      return ctx.error("negative dimension " + Twine(d) + " in the target shape");
    shape.push_back(d);
    if (__builtin_mul_overflow(known, d, &known))
      return ctx.error("the target shape is too large");
  }
  int64_t total = product(in);
  if (inferred >= 0) {
    if (known == 0 || total % known != 0)
      return ctx.error("cannot infer the -1 dimension");
    shape[inferred] = total / known;
  } else if (known != total) {
    return ctx.error("the target shape has another number of elements");
  }
  setReshaped(ctx, shape);
  return success();
}

LogicalResult amp::onnximport::convertFlatten(NodeContext &ctx) {
  std::vector<int64_t> in = inputShape(ctx, 0);
  int64_t rank = in.size();
  int64_t axis = ctx.getInt("axis", 1);
  if (axis < 0)
    axis += rank;
  if (axis < 0 || axis > rank)
    return ctx.error("axis out of range");
  ArrayRef<int64_t> outerDims = ArrayRef<int64_t>(in).take_front(axis);
  ArrayRef<int64_t> innerDims = ArrayRef<int64_t>(in).drop_front(axis);
  if (failed(
          checkMergedDynamic(ctx, outerDims, "the dimensions before 'axis'")) ||
      failed(checkMergedDynamic(ctx, innerDims, "the dimensions from 'axis'")))
    return failure();
  setReshaped(ctx, {mergeSizes(outerDims), mergeSizes(innerDims)});
  return success();
}

LogicalResult amp::onnximport::convertSqueeze(NodeContext &ctx) {
  auto axes = getAxes(ctx, 13);
  if (failed(axes))
    return failure();
  std::vector<int64_t> in = inputShape(ctx, 0);
  int64_t rank = in.size();
  std::vector<bool> drop(rank, false);
  if (*axes) {
    for (int64_t axis : **axes) {
      FailureOr<int64_t> a = ctx.normalizeAxis(axis, rank);
      if (failed(a))
        return failure();
      if (ShapedType::isDynamic(in[*a]))
        return ctx.dynamicUnsupported("squeezed dimension " + Twine(*a));
      if (in[*a] != 1)
        return ctx.error("cannot squeeze dimension " + Twine(*a) + " of size " +
                         Twine(in[*a]));
      drop[*a] = true;
    }
  } else {
    for (int64_t d = 0; d < rank; ++d)
      drop[d] = in[d] == 1;
  }
  std::vector<int64_t> shape;
  for (int64_t d = 0; d < rank; ++d)
    if (!drop[d])
      shape.push_back(in[d]);
  setReshaped(ctx, shape);
  return success();
}

LogicalResult amp::onnximport::convertUnsqueeze(NodeContext &ctx) {
  auto axes = getAxes(ctx, 13);
  if (failed(axes))
    return failure();
  if (!*axes)
    return ctx.error("'axes' is required");
  std::vector<int64_t> in = inputShape(ctx, 0);
  int64_t outRank = in.size() + (*axes)->size();
  std::vector<bool> inserted(outRank, false);
  for (int64_t axis : **axes) {
    FailureOr<int64_t> a = ctx.normalizeAxis(axis, outRank);
    if (failed(a))
      return failure();
    if (inserted[*a])
      return ctx.error("repeated axis " + Twine(axis));
    inserted[*a] = true;
  }
  std::vector<int64_t> shape;
  size_t next = 0;
  for (int64_t d = 0; d < outRank; ++d)
    shape.push_back(inserted[d] ? 1 : in[next++]);
  setReshaped(ctx, shape);
  return success();
}

LogicalResult amp::onnximport::convertTranspose(NodeContext &ctx) {
  std::vector<int64_t> in = inputShape(ctx, 0);
  int64_t rank = in.size();
  std::vector<int64_t> perm;
  if (std::optional<std::vector<int64_t>> attr = ctx.getInts("perm")) {
    perm = *attr;
  } else {
    for (int64_t d = rank - 1; d >= 0; --d)
      perm.push_back(d);
  }
  if (static_cast<int64_t>(perm.size()) != rank)
    return ctx.error("'perm' has " + Twine(perm.size()) +
                     " entries for a rank-" + Twine(rank) + " input");
  std::vector<bool> seen(rank, false);
  for (int64_t p : perm) {
    if (p < 0 || p >= rank || seen[p])
      return ctx.error("'perm' is not a permutation");
    seen[p] = true;
  }
  if (const Tensor *t = foldableData(ctx)) {
    std::vector<int64_t> shape, strides = getStrides(in);
    for (int64_t p : perm)
      shape.push_back(in[p]);
    ctx.setConstOutput(0, selectElements(*t, shape,
                                         mapIndices(shape, [&](ArrayRef<int64_t> idx) {
                                           int64_t flat = 0;
                                           for (int64_t d = 0; d < rank; ++d)
                                             flat += idx[d] * strides[perm[d]];
                                           return flat;
                                         })));
    return success();
  }
  SmallVector<int32_t> perm32(perm.begin(), perm.end());
  ctx.setOutput(0, transpose(ctx.b, ctx.loc, ctx.input(0), perm32));
  return success();
}

LogicalResult amp::onnximport::convertConcat(NodeContext &ctx) {
  unsigned n = ctx.getNumInputs();
  if (n == 0)
    return ctx.error("needs at least one input");
  std::vector<int64_t> first = inputShape(ctx, 0);
  int64_t rank = first.size();
  FailureOr<int64_t> axis = ctx.normalizeAxis(ctx.getInt("axis", 0), rank);
  if (failed(axis))
    return failure();
  std::vector<int64_t> shape = first;
  shape[*axis] = 0;
  bool allConst = true;
  for (unsigned i = 0; i < n; ++i) {
    std::vector<int64_t> s = inputShape(ctx, i);
    if (static_cast<int64_t>(s.size()) != rank)
      return ctx.error("the inputs have different ranks");
    if (ShapedType::isDynamic(s[*axis]))
      return ctx.dynamicUnsupported("the concatenated dimension of input " +
                                    Twine(i));
    for (int64_t d = 0; d < rank; ++d)
      if (d != *axis && s[d] != first[d])
        return ctx.error("the inputs differ in dimension " + Twine(d));
    shape[*axis] += s[*axis];
    const Tensor *t = ctx.constInput(i);
    allConst &= t && t->getNumElements() <= kMaxFoldElements &&
                t->dtype == ctx.constInput(0)->dtype;
  }
  if (allConst && product(shape) <= kMaxFoldElements) {
    Tensor result;
    result.dtype = ctx.constInput(0)->dtype;
    result.shape = shape;
    int64_t outer = product(ArrayRef<int64_t>(shape).take_front(*axis));
    int64_t size = getDTypeSize(result.dtype);
    for (int64_t o = 0; o < outer; ++o) {
      for (unsigned i = 0; i < n; ++i) {
        const Tensor *t = ctx.constInput(i);
        int64_t chunk = product(ArrayRef<int64_t>(t->shape).drop_front(*axis)) *
                        size;
        result.data.insert(result.data.end(), t->data.begin() + o * chunk,
                           t->data.begin() + (o + 1) * chunk);
      }
    }
    ctx.setConstOutput(0, std::move(result));
    return success();
  }
  SmallVector<Value> values;
  for (unsigned i = 0; i < n; ++i) {
    Value v = ctx.input(i);
    if (getElementType(v) != getElementType(ctx.input(0)))
      return ctx.error("the inputs have different element types");
    if (getShape(v)[*axis] != 0)
      values.push_back(v);
  }
  if (values.empty())
    values.push_back(ctx.input(0));
  ctx.setOutput(0, concat(ctx.b, ctx.loc, values, *axis));
  return success();
}

LogicalResult amp::onnximport::convertExpand(NodeContext &ctx) {
  std::optional<std::vector<int64_t>> target = ctx.constInts(1);
  if (!target)
    return ctx.error("the shape must be known at import time");
  if (failed(ctx.checkSizes(*target, "shape")))
    return failure();
  std::vector<int64_t> in = inputShape(ctx, 0);
  std::optional<std::vector<int64_t>> shape = broadcastShapes(in, *target);
  if (!shape)
    return ctx.error("the input does not broadcast to the shape");
  if (const Tensor *t = foldableData(ctx)) {
    if (product(*shape) <= kMaxFoldElements) {
      ctx.setConstOutput(0, selectElements(*t, *shape,
                                           broadcastIndices(in, *shape)));
      return success();
    }
  }
  ctx.setOutput(0, broadcastTo(ctx.b, ctx.loc, ctx.input(0), *shape));
  return success();
}

LogicalResult amp::onnximport::convertTile(NodeContext &ctx) {
  std::optional<std::vector<int64_t>> repeats = ctx.constInts(1);
  if (!repeats)
    return ctx.error("'repeats' must be known at import time");
  if (failed(ctx.checkSizes(*repeats, "repeats")))
    return failure();
  std::vector<int64_t> in = inputShape(ctx, 0);
  if (repeats->size() != in.size())
    return ctx.error("'repeats' must have one entry per dimension");
  std::vector<int64_t> shape;
  for (size_t d = 0; d < in.size(); ++d) {
    if ((*repeats)[d] < 0)
      return ctx.error("negative repeat");
    shape.push_back(in[d] * (*repeats)[d]);
  }
  if (const Tensor *t = foldableData(ctx)) {
    if (product(shape) <= kMaxFoldElements) {
      std::vector<int64_t> strides = getStrides(in);
      ctx.setConstOutput(0, selectElements(*t, shape,
                                           mapIndices(shape, [&](ArrayRef<int64_t> idx) {
                                             int64_t flat = 0;
                                             for (size_t d = 0; d < idx.size(); ++d)
                                               flat += (idx[d] % in[d]) * strides[d];
                                             return flat;
                                           })));
      return success();
    }
  }
  Value x = ctx.input(0);
  auto type = RankedTensorType::get(shape, getElementType(x));
  ImplicitLocOpBuilder ib(ctx.loc, ctx.b);
  ctx.setOutput(0, tosa::TileOp::create(ctx.b, ctx.loc, type, x,
                                        tosa::getTosaConstShape(ib, *repeats)));
  return success();
}

LogicalResult amp::onnximport::convertPad(NodeContext &ctx) {
  std::string mode = ctx.getString("mode", "constant");
  if (mode != "constant" && mode != "reflect" && mode != "edge")
    return ctx.unsupported("mode", "'" + mode +
                                       "' (constant, reflect or edge)");
  std::optional<std::vector<int64_t>> pads;
  double value = 0;
  if (ctx.opset < 11) {
    pads = ctx.getInts(ctx.opset < 2 ? "paddings" : "pads");
    value = ctx.getFloat("value", 0.0f);
  } else {
    pads = ctx.constInts(1);
    if (ctx.hasInput(2)) {
      const Tensor *v = ctx.constInput(2);
      if (!v || v->getNumElements() != 1)
        return ctx.error("'constant_value' must be a scalar known at import "
                         "time");
      value = getDouble(*v, 0);
    }
  }
  if (!pads)
    return ctx.error("'pads' must be known at import time");
  if (failed(ctx.checkSizes(*pads, "pads")))
    return failure();
  Value x = ctx.input(0);
  int64_t rank = getTensorType(x).getRank();
  if (static_cast<int64_t>(pads->size()) != 2 * rank)
    return ctx.error("'pads' must have 2 * rank entries");
  // Negative pads crop: a slice first, then the positive padding.
  ArrayRef<int64_t> shape = getShape(x);
  std::vector<int64_t> starts(rank), sizes(rank), lows(rank), highs(rank);
  for (int64_t d = 0; d < rank; ++d) {
    int64_t lo = (*pads)[d], hi = (*pads)[d + rank];
    starts[d] = lo < 0 ? -lo : 0;
    sizes[d] = shape[d] + std::min<int64_t>(lo, 0) + std::min<int64_t>(hi, 0);
    if (sizes[d] < 0)
      return ctx.error("negative pads remove more than the dimension");
    lows[d] = std::max<int64_t>(lo, 0);
    highs[d] = std::max<int64_t>(hi, 0);
  }
  x = slice(ctx.b, ctx.loc, x, starts, sizes);
  if (mode == "constant") {
    ctx.setOutput(0, pad(ctx.b, ctx.loc, x, lows, highs, value));
    return success();
  }
  // reflect / edge: per dimension, concat the mirrored (or repeated
  // border) slices on both sides.
  OpBuilder &b = ctx.b;
  Location loc = ctx.loc;
  for (int64_t d = 0; d < rank; ++d) {
    if (lows[d] == 0 && highs[d] == 0)
      continue;
    SmallVector<int64_t> cur(getShape(x));
    int64_t n = cur[d];
    if (mode == "reflect" && (lows[d] >= n || highs[d] >= n))
      return ctx.error("reflect padding of " + Twine(std::max(lows[d], highs[d])) +
                       " needs a dimension larger than " + Twine(n));
    if (n == 0)
      return ctx.error("cannot pad an empty dimension in mode '" + mode + "'");
    auto part = [&](int64_t start, int64_t count, bool mirror) {
      SmallVector<int64_t> offsets(rank, 0), sizes(cur);
      offsets[d] = start;
      sizes[d] = count;
      Value v = slice(b, loc, x, offsets, sizes);
      if (mirror && count > 1)
        v = tosa::ReverseOp::create(b, loc, v.getType(), v,
                                    b.getI32IntegerAttr(d));
      return v;
    };
    auto repeat = [&](Value v, int64_t times) {
      SmallVector<int64_t> shape(getShape(v));
      shape[d] = times;
      return broadcastTo(b, loc, v, shape);
    };
    SmallVector<Value> pieces;
    if (lows[d] > 0)
      pieces.push_back(mode == "reflect" ? part(1, lows[d], true)
                                         : repeat(part(0, 1, false), lows[d]));
    pieces.push_back(x);
    if (highs[d] > 0)
      pieces.push_back(mode == "reflect"
                           ? part(n - 1 - highs[d], highs[d], true)
                           : repeat(part(n - 1, 1, false), highs[d]));
    x = concat(b, loc, pieces, d);
  }
  ctx.setOutput(0, x);
  return success();
}

LogicalResult amp::onnximport::convertGather(NodeContext &ctx) {
  std::vector<int64_t> in = inputShape(ctx, 0);
  int64_t rank = in.size();
  FailureOr<int64_t> axis = ctx.normalizeAxis(ctx.getInt("axis", 0), rank);
  if (failed(axis))
    return failure();
  int64_t dim = in[*axis];
  std::vector<int64_t> idxShape = inputShape(ctx, 1);
  std::vector<int64_t> outShape(in.begin(), in.begin() + *axis);
  outShape.insert(outShape.end(), idxShape.begin(), idxShape.end());
  outShape.insert(outShape.end(), in.begin() + *axis + 1, in.end());

  std::optional<std::vector<int64_t>> indices = ctx.constInts(1);
  if (indices) {
    for (int64_t &i : *indices) {
      if (i < -dim || i >= dim)
        return ctx.error("index " + Twine(i) + " is out of range for dimension " +
                         Twine(*axis) + " of size " + Twine(dim));
      if (i < 0)
        i += dim;
    }
  }
  if (const Tensor *t = foldableData(ctx)) {
    if (indices && product(outShape) <= kMaxFoldElements) {
      std::vector<int64_t> strides = getStrides(in);
      int64_t q = idxShape.size();
      std::vector<int64_t> idxStrides = getStrides(idxShape);
      ctx.setConstOutput(0, selectElements(*t, outShape,
                                           mapIndices(outShape, [&](ArrayRef<int64_t> idx) {
                                             int64_t flat = 0, k = 0;
                                             for (int64_t j = 0; j < q; ++j)
                                               k += idx[*axis + j] * idxStrides[j];
                                             for (int64_t d = 0; d < rank; ++d) {
                                               int64_t c = d < *axis ? idx[d]
                                                           : d == *axis ? (*indices)[k]
                                                                        : idx[d - 1 + q];
                                               flat += c * strides[d];
                                             }
                                             return flat;
                                           })));
      return success();
    }
  }

  // Run time: move the axis to the front, gather rows of [1, K, C] with
  // tosa.gather, and move the gathered dimensions back.
  OpBuilder &b = ctx.b;
  Location loc = ctx.loc;
  Value data = ctx.input(0);
  int64_t numIndices = product(idxShape);
  Value idx;
  if (indices) {
    idx = intConst(b, loc, b.getI32Type(), {1, numIndices}, *indices);
  } else {
    Value raw = ctx.input(1);
    if (!isa<IntegerType>(getElementType(raw)) ||
        getElementType(raw).isInteger(1))
      return ctx.error("the indices must be integers");
    Type i32 = b.getI32Type();
    idx = elementwise(b, loc, {raw}, i32,
                      [&](OpBuilder &nb, Location nl, ValueRange args) {
                        Value v = args[0];
                        Type t = v.getType();
                        Value zero = arith::ConstantOp::create(
                            nb, nl, nb.getIntegerAttr(t, 0));
                        Value size = arith::ConstantOp::create(
                            nb, nl, nb.getIntegerAttr(t, dim));
                        Value neg = arith::CmpIOp::create(
                            nb, nl, arith::CmpIPredicate::slt, v, zero);
                        Value wrapped = arith::AddIOp::create(nb, nl, v, size);
                        Value sel =
                            arith::SelectOp::create(nb, nl, neg, wrapped, v);
                        return castScalar(nb, nl, sel, i32);
                      });
    idx = reshape(b, loc, idx, {1, numIndices});
  }
  SmallVector<int32_t> perm{static_cast<int32_t>(*axis)};
  for (int64_t d = 0; d < rank; ++d)
    if (d != *axis)
      perm.push_back(d);
  Value moved = transpose(b, loc, data, perm);
  int64_t rest = product(in) / std::max<int64_t>(dim, 1);
  if (dim == 0)
    rest = 0;
  Value values = reshape(b, loc, moved, {1, dim, rest});
  auto gatheredType =
      RankedTensorType::get({1, numIndices, rest}, getElementType(data));
  Value gathered = tosa::GatherOp::create(b, loc, gatheredType, values, idx);
  // [W..., pre..., post...] -> [pre..., W..., post...]
  SmallVector<int64_t> unflat(idxShape.begin(), idxShape.end());
  for (int64_t d = 0; d < rank; ++d)
    if (d != *axis)
      unflat.push_back(in[d]);
  Value result = reshape(b, loc, gathered, unflat);
  int64_t q = idxShape.size();
  SmallVector<int32_t> back;
  for (int64_t d = 0; d < *axis; ++d)
    back.push_back(q + d);
  for (int64_t j = 0; j < q; ++j)
    back.push_back(j);
  for (int64_t d = *axis + 1; d < rank; ++d)
    back.push_back(q + d - 1);
  ctx.setOutput(0, transpose(b, loc, result, back));
  return success();
}
