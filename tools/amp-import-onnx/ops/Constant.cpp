//===- Constant.cpp - Constant, ConstantOfShape, Shape, Identity, ... -----===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The ops whose results are known at import time once shapes are static:
// they define import-time tensors (ConstTensors.h), which the shape ops
// consume directly and which are materialized as tosa.const only when an op
// needs them at run time.
//
//===----------------------------------------------------------------------===//

#include "Converters.h"

#include <cmath>

using namespace mlir;
using namespace amp::onnximport;

LogicalResult amp::onnximport::convertConstant(NodeContext &ctx) {
  if (const Attribute *a = ctx.attr("value")) {
    if (a->kind != Attribute::TensorValue)
      return ctx.error("attribute 'value' is not a tensor");
    if (!ctx.convertDType(a->t.dtype))
      return ctx.unsupported("value", Twine("a tensor of ") +
                                          getDTypeName(a->t.dtype));
    ctx.setConstOutput(0, a->t);
    return success();
  }
  if (const Attribute *a = ctx.attr("value_float")) {
    ctx.setConstOutput(0, makeTensor(kFloat, {}, ArrayRef<double>{a->f}));
    return success();
  }
  if (const Attribute *a = ctx.attr("value_int")) {
    ctx.setConstOutput(0, makeTensor(kInt64, {}, ArrayRef<int64_t>{a->i}));
    return success();
  }
  if (const Attribute *a = ctx.attr("value_floats")) {
    std::vector<double> values(a->floats.begin(), a->floats.end());
    ctx.setConstOutput(0, makeTensor(kFloat, {int64_t(values.size())},
                                     ArrayRef<double>(values)));
    return success();
  }
  if (const Attribute *a = ctx.attr("value_ints")) {
    ctx.setConstOutput(0, makeTensor(kInt64, {int64_t(a->ints.size())},
                                     ArrayRef<int64_t>(a->ints)));
    return success();
  }
  if (ctx.attr("sparse_value"))
    return ctx.unsupported("sparse_value", "sparse tensors");
  return ctx.error("no supported value attribute (value, value_float, "
                   "value_floats, value_int, value_ints)");
}

LogicalResult amp::onnximport::convertConstantOfShape(NodeContext &ctx) {
  std::optional<std::vector<int64_t>> shape = ctx.constInts(0);
  if (!shape)
    return ctx.error("the shape must be known at import time");
  int64_t total = 1;
  for (int64_t d : *shape) {
    if (d < 0)
      return ctx.error("negative dimension in the shape");
    if (d > 0 && total > (int64_t(1) << 32) / d)
      return ctx.error("the shape is too large");
    total *= d;
  }
  Tensor value = makeTensor(kFloat, {1}, ArrayRef<double>{0.0});
  if (const Attribute *a = ctx.attr("value")) {
    if (a->kind != Attribute::TensorValue || a->t.getNumElements() != 1)
      return ctx.error("attribute 'value' must be a one-element tensor");
    if (!ctx.convertDType(a->t.dtype))
      return ctx.unsupported("value", Twine("a tensor of ") +
                                          getDTypeName(a->t.dtype));
    value = a->t;
  }
  Tensor result;
  result.dtype = value.dtype;
  result.shape = *shape;
  int64_t size = getDTypeSize(value.dtype);
  result.data.resize(total * size);
  for (int64_t i = 0; i < total; ++i)
    std::copy(value.data.begin(), value.data.begin() + size,
              result.data.begin() + i * size);
  ctx.setConstOutput(0, std::move(result));
  return success();
}

LogicalResult amp::onnximport::convertShape(NodeContext &ctx) {
  std::vector<int64_t> shape;
  if (const Tensor *t = ctx.constInput(0))
    shape = t->shape;
  else
    shape.assign(getShape(ctx.input(0)).begin(), getShape(ctx.input(0)).end());
  int64_t rank = shape.size();
  int64_t start = ctx.getInt("start", 0), end = ctx.getInt("end", rank);
  if (start < 0)
    start += rank;
  if (end < 0)
    end += rank;
  start = std::clamp<int64_t>(start, 0, rank);
  end = std::clamp<int64_t>(end, start, rank);
  std::vector<int64_t> dims(shape.begin() + start, shape.begin() + end);
  ctx.setConstOutput(0, makeTensor(kInt64, {int64_t(dims.size())},
                                   ArrayRef<int64_t>(dims)));
  return success();
}

LogicalResult amp::onnximport::convertIdentity(NodeContext &ctx) {
  if (const Tensor *t = ctx.constInput(0)) {
    ctx.setConstOutput(0, *t);
    return success();
  }
  ctx.setOutput(0, ctx.input(0));
  return success();
}

LogicalResult amp::onnximport::convertDropout(NodeContext &ctx) {
  if (ctx.opset < 7 && ctx.getInt("is_test", 0) == 0)
    return ctx.unsupported("is_test", "0 (training mode)");
  if (ctx.hasInput(2)) {
    std::optional<std::vector<int64_t>> training = ctx.constInts(2);
    if (!training || training->size() != 1)
      return ctx.error("'training_mode' must be known at import time");
    // Training mode with a ratio of 0 (which exporters write for
    // F.dropout(p=0, training=True)) is still the identity.
    const Tensor *ratioTensor = ctx.constInput(1);
    bool zeroRatio = ratioTensor && ratioTensor->getNumElements() == 1 &&
                     getDouble(*ratioTensor, 0) == 0.0;
    if ((*training)[0] != 0 && !zeroRatio)
      return ctx.error("training mode is unsupported (inference only)");
  }
  if (failed(convertIdentity(ctx)))
    return failure();
  if (ctx.hasOutput(1)) {
    std::vector<int64_t> shape;
    if (const Tensor *t = ctx.constInput(0))
      shape = t->shape;
    else
      shape.assign(getShape(ctx.input(0)).begin(),
                   getShape(ctx.input(0)).end());
    if (hasDynamicDims(shape))
      return ctx.dynamicUnsupported("the shape of the 'mask' output");
    int64_t total = 1;
    for (int64_t d : shape)
      total *= d;
    std::vector<int64_t> ones(total, 1);
    ctx.setConstOutput(1, makeTensor(kBool, shape, ArrayRef<int64_t>(ones)));
  }
  return success();
}

LogicalResult amp::onnximport::convertRange(NodeContext &ctx) {
  const Tensor *start = ctx.constInput(0), *limit = ctx.constInput(1),
               *delta = ctx.constInput(2);
  if (!start || !limit || !delta)
    return ctx.error("start, limit and delta must be known at import time");
  if (start->getNumElements() != 1 || limit->getNumElements() != 1 ||
      delta->getNumElements() != 1)
    return ctx.error("start, limit and delta must be scalars");
  double s = getDouble(*start, 0), l = getDouble(*limit, 0),
         d = getDouble(*delta, 0);
  if (d == 0)
    return ctx.error("delta is 0");
  double count = std::ceil((l - s) / d);
  if (!(count < kMaxFoldElements))
    return ctx.error("the range is too long to build at import time");
  int64_t n = std::max<int64_t>(0, static_cast<int64_t>(count));
  std::vector<double> values;
  std::vector<int64_t> ints;
  bool integer = isIntegerDType(start->dtype);
  for (int64_t i = 0; i < n; ++i) {
    values.push_back(s + i * d);
    ints.push_back(getInt(*start, 0) + i * getInt(*delta, 0));
  }
  ctx.setConstOutput(0, integer ? makeTensor(start->dtype, {n},
                                             ArrayRef<int64_t>(ints))
                                : makeTensor(start->dtype, {n},
                                             ArrayRef<double>(values)));
  return success();
}

LogicalResult amp::onnximport::convertSize(NodeContext &ctx) {
  int64_t n = 1;
  if (const Tensor *t = ctx.constInput(0))
    n = t->getNumElements();
  else
    n = ctx.inputType(0).getNumElements();
  ctx.setConstOutput(0, makeTensor(kInt64, {}, ArrayRef<int64_t>{n}));
  return success();
}
