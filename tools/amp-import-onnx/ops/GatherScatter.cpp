//===- GatherScatter.cpp - GatherElements, GatherND and ScatterND ---------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The element and tuple forms of gather and scatter, on top of tosa.gather
// as Gather (Shape.cpp) uses it:
//
// - GatherElements and GatherND compute flat indices (i32) into the data
//   in a linalg.generic and read them with tosa.gather.
// - ScatterND folds when its operands are known and small (the constant
//   masks of exported models); at run time its index tuples become flat
//   rows of the data: reduction none gathers every row from the updates or
//   the data (tosa.gather), add and mul accumulate the updates in a
//   linalg.generic (O(rows x updates) per element of a row).
//
// Negative indices wrap; indices still out of range (an error in ONNX) are
// clamped at run time, so that no access is out of bounds. All shapes are
// static.
//
//===----------------------------------------------------------------------===//

#include "Converters.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/AffineMap.h"

#include <limits>

using namespace mlir;
using namespace amp::onnximport;


/// The first `rank` loops of `numLoops`.
static AffineMap leadingDims(MLIRContext *context, int64_t rank,
                             int64_t numLoops) {
  SmallVector<AffineExpr> exprs;
  for (int64_t d = 0; d < rank; ++d)
    exprs.push_back(getAffineDimExpr(d, context));
  return AffineMap::get(numLoops, 0, exprs, context);
}

/// A float or integer addition.
static Value addScalars(OpBuilder &b, Location loc, Value lhs, Value rhs) {
  if (isa<FloatType>(lhs.getType()))
    return arith::AddFOp::create(b, loc, lhs, rhs);
  return arith::AddIOp::create(b, loc, lhs, rhs);
}

//===----------------------------------------------------------------------===//
// GatherElements and GatherND
//===----------------------------------------------------------------------===//

/// `index` (an integer scalar) as i64, with a negative one wrapped by
/// `size` (i64). One still out of range (an error in ONNX, not checked at
/// run time) is clamped into [0, size): no access is out of bounds.
static Value wrapIndex(OpBuilder &b, Location loc, Value index, Value size) {
  Type i64 = b.getI64Type();
  if (index.getType() != i64)
    index = arith::ExtSIOp::create(b, loc, i64, index);
  Value zero = arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(0));
  Value one = arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(1));
  Value negative =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, index, zero);
  Value wrapped = arith::AddIOp::create(b, loc, index, size);
  Value inRange = arith::SelectOp::create(b, loc, negative, wrapped, index);
  Value last = arith::SubIOp::create(b, loc, size, one);
  Value low = arith::MaxSIOp::create(b, loc, inRange, zero);
  return arith::MinSIOp::create(b, loc, low, last);
}

/// Checks that `indices` are i32/i64 and the data small enough for the i32
/// flat indices of tosa.gather.
static LogicalResult checkGatherOperands(NodeContext &ctx, Value data,
                                         Value indices) {
  Type type = getElementType(indices);
  if (!type.isInteger(32) && !type.isInteger(64))
    return ctx.error("the indices must be int32 or int64");
  if (product(getShape(data)) >= (int64_t(1) << 31))
    return ctx.error("the data has 2^31 elements or more");
  return success();
}

/// tosa.gather of rows of `data` as [n, rows, rowSize] at `flat` ([n, w],
/// i32), reshaped to `shape`.
static Value gatherRows(OpBuilder &b, Location loc, Value data, Value flat,
                        int64_t n, int64_t rows, int64_t rowSize,
                        ArrayRef<int64_t> shape) {
  int64_t w = getShape(flat)[1];
  Value values = reshape(b, loc, data, {n, rows, rowSize});
  auto type = RankedTensorType::get({n, w, rowSize}, getElementType(data));
  Value gathered = tosa::GatherOp::create(b, loc, type, values, flat);
  return reshape(b, loc, gathered, shape);
}

LogicalResult amp::onnximport::convertGatherElements(NodeContext &ctx) {
  OpBuilder &b = ctx.b;
  Location loc = ctx.loc;
  Value data = ctx.input(0), indices = ctx.input(1);
  if (failed(checkGatherOperands(ctx, data, indices)))
    return failure();
  ArrayRef<int64_t> dataShape = getShape(data), idxShape = getShape(indices);
  int64_t rank = dataShape.size();
  if (rank < 1 || static_cast<int64_t>(idxShape.size()) != rank)
    return ctx.error("the data and the indices must have the same rank >= 1");
  FailureOr<int64_t> axis = ctx.normalizeAxis(ctx.getInt("axis", 0), rank);
  if (failed(axis))
    return failure();
  for (int64_t d = 0; d < rank; ++d)
    if (d != *axis && idxShape[d] > dataShape[d])
      return ctx.error("the indices are larger than the data in dimension " +
                       Twine(d));
  // The flat index into the data of each output element: its own position,
  // with the axis coordinate read from the indices.
  SmallVector<int64_t> strides(rank, 1);
  for (int64_t d = rank - 1; d > 0; --d)
    strides[d - 1] = strides[d] * dataShape[d];
  MLIRContext *context = b.getContext();
  AffineMap identity = AffineMap::getMultiDimIdentityMap(rank, context);
  Type i32 = b.getI32Type(), i64 = b.getI64Type();
  Value init = tensor::EmptyOp::create(b, loc, idxShape, i32);
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      b, loc, init.getType(), ValueRange{indices}, ValueRange{init},
      ArrayRef<AffineMap>{identity, identity}, iterators,
      [&](OpBuilder &nb, Location nl, ValueRange args) {
        Value size = arith::ConstantOp::create(
            nb, nl, nb.getI64IntegerAttr(dataShape[*axis]));
        Value flat = arith::ConstantOp::create(nb, nl, nb.getI64IntegerAttr(0));
        for (int64_t d = 0; d < rank; ++d) {
          Value coord =
              d == *axis ? wrapIndex(nb, nl, args[0], size)
                         : arith::IndexCastOp::create(
                               nb, nl, i64, linalg::IndexOp::create(nb, nl, d))
                               .getResult();
          Value stride = arith::ConstantOp::create(
              nb, nl, nb.getI64IntegerAttr(strides[d]));
          flat = arith::AddIOp::create(
              nb, nl, flat, arith::MulIOp::create(nb, nl, coord, stride));
        }
        linalg::YieldOp::create(
            nb, nl, arith::TruncIOp::create(nb, nl, i32, flat).getResult());
      });
  int64_t w = product(idxShape);
  Value flat = reshape(b, loc, generic.getResult(0), {1, w});
  ctx.setOutput(
      0, gatherRows(b, loc, data, flat, 1, product(dataShape), 1, idxShape));
  return success();
}

/// GatherND's flat row index ([prefix...] i64) of each index tuple (the
/// last dimension of `indices`) into `dims` (their sizes).
static Value flattenTuples(OpBuilder &b, Location loc, Value indices,
                           ArrayRef<int64_t> dims) {
  ArrayRef<int64_t> idxShape = getShape(indices);
  int64_t q = idxShape.size(), k = dims.size();
  SmallVector<int64_t> strides(k, 1);
  for (int64_t j = k - 1; j > 0; --j)
    strides[j - 1] = strides[j] * dims[j];
  Type i64 = b.getI64Type();
  Value dimsConst = intConst(b, loc, i64, {k}, dims);
  Value stridesConst = intConst(b, loc, i64, {k}, strides);
  MLIRContext *context = b.getContext();
  // Loops: the tuples (q - 1), then j over each tuple's components.
  AffineMap component = AffineMap::get(q, 0, getAffineDimExpr(q - 1, context));
  SmallVector<AffineMap> maps{AffineMap::getMultiDimIdentityMap(q, context),
                              component, component,
                              leadingDims(context, q - 1, q)};
  SmallVector<utils::IteratorType> iterators(q - 1,
                                             utils::IteratorType::parallel);
  iterators.push_back(utils::IteratorType::reduction);
  Value init = zeroTensor(b, loc, idxShape.drop_back(), i64);
  auto generic = linalg::GenericOp::create(
      b, loc, init.getType(), ValueRange{indices, dimsConst, stridesConst},
      ValueRange{init}, maps, iterators,
      [&](OpBuilder &nb, Location nl, ValueRange args) {
        Value coord = wrapIndex(nb, nl, args[0], args[1]);
        Value term = arith::MulIOp::create(nb, nl, coord, args[2]);
        linalg::YieldOp::create(
            nb, nl, arith::AddIOp::create(nb, nl, args[3], term).getResult());
      });
  return generic.getResult(0);
}

LogicalResult amp::onnximport::convertGatherND(NodeContext &ctx) {
  OpBuilder &b = ctx.b;
  Location loc = ctx.loc;
  Value data = ctx.input(0), indices = ctx.input(1);
  if (failed(checkGatherOperands(ctx, data, indices)))
    return failure();
  ArrayRef<int64_t> dataShape = getShape(data), idxShape = getShape(indices);
  int64_t r = dataShape.size(), q = idxShape.size();
  int64_t batchDims = ctx.getInt("batch_dims", 0);
  if (r < 1 || q < 1)
    return ctx.error("the data and the indices must have rank >= 1");
  if (batchDims < 0 || batchDims >= std::min(r, q))
    return ctx.unsupported("batch_dims", Twine(batchDims) +
                                             " (must be at least 0 and less "
                                             "than the ranks of the data "
                                             "and the indices)");
  int64_t k = idxShape.back();
  if (k < 1 || batchDims + k > r)
    return ctx.error("index tuples of length " + Twine(k) +
                     " do not fit data of rank " + Twine(r) + " with " +
                     Twine(batchDims) + " batch dimensions");
  if (dataShape.take_front(batchDims) != idxShape.take_front(batchDims))
    return ctx.error("the batch dimensions of the data and the indices "
                     "differ");
  ArrayRef<int64_t> tupleDims = dataShape.slice(batchDims, k);
  ArrayRef<int64_t> rowDims = dataShape.drop_front(batchDims + k);
  SmallVector<int64_t> outShape(idxShape.drop_back());
  outShape.append(rowDims.begin(), rowDims.end());
  Value rows = flattenTuples(b, loc, indices, tupleDims);
  rows = castTensor(b, loc, rows, b.getI32Type());
  int64_t n = product(dataShape.take_front(batchDims));
  int64_t w = product(idxShape.drop_back()) / n;
  rows = reshape(b, loc, rows, {n, w});
  ctx.setOutput(0, gatherRows(b, loc, data, rows, n, product(tupleDims),
                              product(rowDims), outShape));
  return success();
}

//===----------------------------------------------------------------------===//
// ScatterND
//===----------------------------------------------------------------------===//

/// ScatterND on small tensors known at import time (the constant masks of
/// exported models, e.g. Swin's shifted windows): folded, never emitted.
static LogicalResult foldScatterND(NodeContext &ctx, const Tensor &data,
                                   ArrayRef<int64_t> indices,
                                   const Tensor &updates, StringRef reduction) {
  if (updates.dtype != data.dtype)
    return ctx.error("the updates have another element type than the data");
  const std::vector<int64_t> &idxShape = ctx.constInput(1)->shape;
  if (idxShape.empty())
    return ctx.error("the indices must have rank >= 1");
  int64_t k = idxShape.back();
  int64_t rank = data.shape.size();
  if (k > rank)
    return ctx.error("index tuples are longer than the data's rank");
  int64_t numTuples = product(ArrayRef<int64_t>(idxShape).drop_back());
  int64_t sliceSize = product(ArrayRef<int64_t>(data.shape).drop_front(k));
  if (updates.getNumElements() != numTuples * sliceSize)
    return ctx.error("the updates do not match the indices");
  std::vector<int64_t> strides = getStrides(data.shape);
  Tensor result = data;
  int64_t size = getDTypeSize(data.dtype);
  bool add = reduction == "add";
  for (int64_t t = 0; t < numTuples; ++t) {
    int64_t offset = 0;
    for (int64_t j = 0; j < k; ++j) {
      int64_t i = indices[t * k + j], dim = data.shape[j];
      if (i < -dim || i >= dim)
        return ctx.error("index " + Twine(i) + " is out of range");
      offset += (i < 0 ? i + dim : i) * strides[j];
    }
    if (reduction == "none") {
      std::copy(updates.data.begin() + t * sliceSize * size,
                updates.data.begin() + (t + 1) * sliceSize * size,
                result.data.begin() + offset * size);
      continue;
    }
    for (int64_t e = 0; e < sliceSize; ++e) {
      Tensor lhs = selectElements(result, {1}, {offset + e});
      Tensor rhs = selectElements(updates, {1}, {t * sliceSize + e});
      const Tensor *pair[] = {&lhs, &rhs};
      std::optional<Tensor> combined = foldElementwise(
          pair, data.dtype,
          [add](ArrayRef<double> a) { return add ? a[0] + a[1] : a[0] * a[1]; },
          [add](ArrayRef<int64_t> a) {
            return add ? a[0] + a[1] : a[0] * a[1];
          });
      std::copy(combined->data.begin(), combined->data.end(),
                result.data.begin() + (offset + e) * size);
    }
  }
  ctx.setConstOutput(0, std::move(result));
  return success();
}

/// For each of the `numRows` rows of the data, the row of the updates that
/// replaces it (the last tuple naming it), or numUpdates + its own index
/// (rows kept): indices into concat(updates, data) for tosa.gather.
static Value selectSourceRows(OpBuilder &b, Location loc, Value rows,
                              int64_t numRows) {
  int64_t numUpdates = getShape(rows)[0];
  MLIRContext *context = b.getContext();
  Type i32 = b.getI32Type(), i64 = b.getI64Type();
  // Loops: the data row, then the tuples (a max: order-independent).
  SmallVector<AffineMap> maps{
      AffineMap::get(2, 0, getAffineDimExpr(1, context)),
      AffineMap::get(2, 0, getAffineDimExpr(0, context))};
  Value minusOne =
      splatConst(b, loc, RankedTensorType::get({numRows}, i64), -1.0);
  auto last = linalg::GenericOp::create(
      b, loc, minusOne.getType(), ValueRange{rows}, ValueRange{minusOne}, maps,
      {utils::IteratorType::parallel, utils::IteratorType::reduction},
      [&](OpBuilder &nb, Location nl, ValueRange args) {
        Value row = arith::IndexCastOp::create(
            nb, nl, i64, linalg::IndexOp::create(nb, nl, 0));
        Value tuple = arith::IndexCastOp::create(
            nb, nl, i64, linalg::IndexOp::create(nb, nl, 1));
        Value hit = arith::CmpIOp::create(nb, nl, arith::CmpIPredicate::eq,
                                          args[0], row);
        Value candidate = arith::SelectOp::create(nb, nl, hit, tuple, args[1]);
        linalg::YieldOp::create(
            nb, nl,
            arith::MaxSIOp::create(nb, nl, candidate, args[1]).getResult());
      });
  return elementwise(
      b, loc, {last.getResult(0)}, i32,
      [&](OpBuilder &nb, Location nl, ValueRange args) {
        Value row = arith::IndexCastOp::create(
            nb, nl, i64, linalg::IndexOp::create(nb, nl, 0));
        Value offset =
            arith::ConstantOp::create(nb, nl, nb.getI64IntegerAttr(numUpdates));
        Value zero = arith::ConstantOp::create(nb, nl, nb.getI64IntegerAttr(0));
        Value kept = arith::AddIOp::create(nb, nl, row, offset);
        Value replaced = arith::CmpIOp::create(
            nb, nl, arith::CmpIPredicate::sge, args[0], zero);
        Value source = arith::SelectOp::create(nb, nl, replaced, args[0], kept);
        return arith::TruncIOp::create(nb, nl, i32, source).getResult();
      });
}

/// Accumulates (adds or multiplies) the update rows into the data rows
/// ([numRows, rowSize]) they name; duplicates accumulate.
static Value accumulateRows(OpBuilder &b, Location loc, Value data, Value rows,
                            Value updates, bool add) {
  MLIRContext *context = b.getContext();
  Type i64 = b.getI64Type();
  // Loops: the data row, the element in the row, then the tuples.
  AffineExpr row = getAffineDimExpr(0, context),
             element = getAffineDimExpr(1, context),
             tuple = getAffineDimExpr(2, context);
  SmallVector<AffineMap> maps{AffineMap::get(3, 0, tuple),
                              AffineMap::get(3, 0, {tuple, element}, context),
                              AffineMap::get(3, 0, {row, element}, context)};
  auto generic = linalg::GenericOp::create(
      b, loc, data.getType(), ValueRange{rows, updates}, ValueRange{data}, maps,
      {utils::IteratorType::parallel, utils::IteratorType::parallel,
       utils::IteratorType::reduction},
      [&](OpBuilder &nb, Location nl, ValueRange args) {
        Value index = arith::IndexCastOp::create(
            nb, nl, i64, linalg::IndexOp::create(nb, nl, 0));
        Value hit = arith::CmpIOp::create(nb, nl, arith::CmpIPredicate::eq,
                                          args[0], index);
        bool isFloat = isa<FloatType>(args[1].getType());
        Value combined =
            add ? addScalars(nb, nl, args[2], args[1])
            : isFloat
                ? arith::MulFOp::create(nb, nl, args[2], args[1]).getResult()
                : arith::MulIOp::create(nb, nl, args[2], args[1]).getResult();
        linalg::YieldOp::create(
            nb, nl,
            arith::SelectOp::create(nb, nl, hit, combined, args[2])
                .getResult());
      });
  return generic.getResult(0);
}

/// ScatterND on run-time tensors: each index tuple becomes a flat row of
/// the data; `none` gathers every row from concat(updates, data) (the last
/// update of a row wins), `add` and `mul` accumulate in a linalg.generic
/// over (row, element, tuple).
static LogicalResult scatterNDAtRunTime(NodeContext &ctx, StringRef reduction) {
  OpBuilder &b = ctx.b;
  Location loc = ctx.loc;
  Value data = ctx.input(0), indices = ctx.input(1), updates = ctx.input(2);
  if (failed(checkGatherOperands(ctx, data, indices)))
    return failure();
  if (getElementType(updates) != getElementType(data))
    return ctx.error("the updates have another element type than the data");
  ArrayRef<int64_t> dataShape = getShape(data), idxShape = getShape(indices);
  if (dataShape.empty() || idxShape.empty())
    return ctx.error("the data and the indices must have rank >= 1");
  int64_t k = idxShape.back();
  if (k < 1 || k > static_cast<int64_t>(dataShape.size()))
    return ctx.error("index tuples of length " + Twine(k) +
                     " do not fit data of rank " + Twine(dataShape.size()));
  SmallVector<int64_t> updShape(idxShape.drop_back());
  updShape.append(dataShape.begin() + k, dataShape.end());
  if (getShape(updates) != ArrayRef<int64_t>(updShape))
    return ctx.error("the updates do not match the indices");
  int64_t numRows = product(dataShape.take_front(k));
  int64_t rowSize = product(dataShape.drop_front(k));
  int64_t numUpdates = product(idxShape.drop_back());
  Value rows = flattenTuples(b, loc, indices, dataShape.take_front(k));
  rows = reshape(b, loc, rows, {numUpdates});
  Value dataRows = reshape(b, loc, data, {numRows, rowSize});
  Value updRows = reshape(b, loc, updates, {numUpdates, rowSize});
  Value result;
  if (reduction == "none") {
    Value source = selectSourceRows(b, loc, rows, numRows);
    Value both = concat(b, loc, {updRows, dataRows}, 0);
    result = gatherRows(b, loc, both, reshape(b, loc, source, {1, numRows}), 1,
                        numUpdates + numRows, rowSize, dataShape);
  } else {
    result = reshape(
        b, loc,
        accumulateRows(b, loc, dataRows, rows, updRows, reduction == "add"),
        dataShape);
  }
  ctx.setOutput(0, result);
  return success();
}

LogicalResult amp::onnximport::convertScatterND(NodeContext &ctx) {
  std::string reduction = ctx.getString("reduction", "none");
  if (reduction != "none" && reduction != "add" && reduction != "mul")
    return ctx.unsupported("reduction",
                           "'" + reduction + "' (none, add or mul)");
  const Tensor *data = ctx.constInput(0);
  std::optional<std::vector<int64_t>> indices = ctx.constInts(1);
  const Tensor *updates = ctx.constInput(2);
  if (data && indices && updates &&
      data->getNumElements() <= kMaxFoldElements &&
      updates->getNumElements() <= kMaxFoldElements)
    return foldScatterND(ctx, *data, *indices, *updates, reduction);
  return scatterNDAtRunTime(ctx, reduction);
}
