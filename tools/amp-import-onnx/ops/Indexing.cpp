//===- Indexing.cpp - Trilu, CumSum and TopK ------------------------------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Ops whose result depends on the position of each element, written as
// linalg.generic ops that read their loop indices (linalg.index):
//
// - Trilu keeps the elements on one side of a diagonal (a select, gray).
// - CumSum is a reduction over a second loop along the axis whose payload
//   adds only the elements before (or after) the current one: an
//   arithmetic reduction, which amp keeps in FP32 (red).
// - TopK ranks each element by counting those that come before it in the
//   order (greater, or equal at a lower index; NaN the greatest, as torch
//   does), then selects the elements of rank 0..K-1: exact, stable (ties in
//   index order), O(n^2) comparisons per row.
//
// The scalar operands (Trilu's k, CumSum's axis, TopK's K) must be known at
// import time; all shapes are static. GatherElements, GatherND and
// ScatterND are in GatherScatter.cpp.
//
//===----------------------------------------------------------------------===//

#include "Converters.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/AffineMap.h"

using namespace mlir;
using namespace amp::onnximport;

/// Input `i` as one integer known at import time; failure is reported.
static FailureOr<int64_t> getConstScalar(NodeContext &ctx, unsigned i,
                                         const char *name) {
  std::optional<std::vector<int64_t>> values = ctx.constInts(i);
  if (!values || values->size() != 1) {
    (void)ctx.error(Twine("'") + name +
                    "' must be one integer known at import time");
    return failure();
  }
  return values->front();
}

/// The identity map of `rank` loops with loop `from` replaced by `to`, out
/// of `numLoops` loops.
static AffineMap replaceDim(MLIRContext *context, int64_t rank,
                            int64_t numLoops, int64_t from, int64_t to) {
  SmallVector<AffineExpr> exprs;
  for (int64_t d = 0; d < rank; ++d)
    exprs.push_back(getAffineDimExpr(d == from ? to : d, context));
  return AffineMap::get(numLoops, 0, exprs, context);
}

/// The first `rank` loops of `numLoops`.
static AffineMap leadingDims(MLIRContext *context, int64_t rank,
                             int64_t numLoops) {
  return replaceDim(context, rank, numLoops, -1, -1);
}

static Value indexConst(OpBuilder &b, Location loc, int64_t value) {
  return arith::ConstantIndexOp::create(b, loc, value);
}

/// A float or integer addition.
static Value addScalars(OpBuilder &b, Location loc, Value lhs, Value rhs) {
  if (isa<FloatType>(lhs.getType()))
    return arith::AddFOp::create(b, loc, lhs, rhs);
  return arith::AddIOp::create(b, loc, lhs, rhs);
}

/// Element types the index-reading ops take: floats and integers but bool.
static LogicalResult checkNumeric(NodeContext &ctx, Value value) {
  Type type = getElementType(value);
  if (type.isInteger(1) || (!isa<FloatType>(type) && !isa<IntegerType>(type)))
    return ctx.error("bool tensors are unsupported");
  return success();
}

//===----------------------------------------------------------------------===//
// Trilu
//===----------------------------------------------------------------------===//

LogicalResult amp::onnximport::convertTrilu(NodeContext &ctx) {
  OpBuilder &b = ctx.b;
  Location loc = ctx.loc;
  Value x = ctx.input(0);
  int64_t rank = getTensorType(x).getRank();
  if (rank < 2)
    return ctx.error("the input must have rank >= 2");
  int64_t k = 0;
  if (ctx.hasInput(1)) {
    FailureOr<int64_t> value = getConstScalar(ctx, 1, "k");
    if (failed(value))
      return failure();
    k = *value;
  }
  // Beyond the matrix, every k keeps all or nothing: clamp it.
  ArrayRef<int64_t> shape = getShape(x);
  int64_t bound = shape[rank - 2] + shape[rank - 1];
  k = std::clamp(k, -bound, bound);
  bool upper = ctx.getInt("upper", 1) != 0;
  Type elementType = getElementType(x);
  MLIRContext *context = b.getContext();
  AffineMap identity = AffineMap::getMultiDimIdentityMap(rank, context);
  Value init = tensor::EmptyOp::create(b, loc, shape, elementType);
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      b, loc, init.getType(), ValueRange{x}, ValueRange{init},
      ArrayRef<AffineMap>{identity, identity}, iterators,
      [&](OpBuilder &nb, Location nl, ValueRange args) {
        Value row = linalg::IndexOp::create(nb, nl, rank - 2);
        Value col = linalg::IndexOp::create(nb, nl, rank - 1);
        // Upper keeps col - row >= k, lower col - row <= k.
        Value diff = arith::SubIOp::create(nb, nl, col, row);
        Value keep = arith::CmpIOp::create(nb, nl,
                                           upper ? arith::CmpIPredicate::sge
                                                 : arith::CmpIPredicate::sle,
                                           diff, indexConst(nb, nl, k));
        Value zero =
            arith::ConstantOp::create(nb, nl, nb.getZeroAttr(elementType));
        linalg::YieldOp::create(
            nb, nl,
            arith::SelectOp::create(nb, nl, keep, args[0], zero).getResult());
      });
  ctx.setOutput(0, generic.getResult(0));
  return success();
}

//===----------------------------------------------------------------------===//
// CumSum
//===----------------------------------------------------------------------===//

LogicalResult amp::onnximport::convertCumSum(NodeContext &ctx) {
  OpBuilder &b = ctx.b;
  Location loc = ctx.loc;
  Value x = ctx.input(0);
  if (failed(checkNumeric(ctx, x)))
    return failure();
  int64_t rank = getTensorType(x).getRank();
  if (rank < 1)
    return ctx.error("the input must have rank >= 1");
  FailureOr<int64_t> rawAxis = getConstScalar(ctx, 1, "axis");
  if (failed(rawAxis))
    return failure();
  FailureOr<int64_t> axis = ctx.normalizeAxis(*rawAxis, rank);
  if (failed(axis))
    return failure();
  bool exclusive = ctx.getInt("exclusive", 0) != 0;
  bool reverse = ctx.getInt("reverse", 0) != 0;
  // Loop `rank` runs over the source elements along the axis; the payload
  // adds those before the output's (after it, with `reverse`).
  MLIRContext *context = b.getContext();
  SmallVector<AffineMap> maps{replaceDim(context, rank, rank + 1, *axis, rank),
                              leadingDims(context, rank, rank + 1)};
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  iterators.push_back(utils::IteratorType::reduction);
  arith::CmpIPredicate predicate =
      reverse
          ? (exclusive ? arith::CmpIPredicate::sgt : arith::CmpIPredicate::sge)
          : (exclusive ? arith::CmpIPredicate::slt : arith::CmpIPredicate::sle);
  Value init = zeroTensor(b, loc, getShape(x), getElementType(x));
  auto generic = linalg::GenericOp::create(
      b, loc, init.getType(), ValueRange{x}, ValueRange{init}, maps, iterators,
      [&](OpBuilder &nb, Location nl, ValueRange args) {
        Value source = linalg::IndexOp::create(nb, nl, rank);
        Value target = linalg::IndexOp::create(nb, nl, *axis);
        Value take = arith::CmpIOp::create(nb, nl, predicate, source, target);
        Value sum = addScalars(nb, nl, args[1], args[0]);
        linalg::YieldOp::create(
            nb, nl,
            arith::SelectOp::create(nb, nl, take, sum, args[1]).getResult());
      });
  ctx.setOutput(0, generic.getResult(0));
  return success();
}

//===----------------------------------------------------------------------===//
// TopK
//===----------------------------------------------------------------------===//

/// Whether `a` comes before `b` in TopK's order (`largest`: a > b), NaN
/// counting as the greatest value.
static Value comesBefore(OpBuilder &b, Location loc, Value a, Value c,
                         bool largest) {
  if (!isa<FloatType>(a.getType()))
    return arith::CmpIOp::create(
        b, loc, largest ? arith::CmpIPredicate::sgt : arith::CmpIPredicate::slt,
        a, c);
  Value nanA = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, a, a);
  Value nanC = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, c, c);
  Value ordered = arith::CmpFOp::create(
      b, loc, largest ? arith::CmpFPredicate::OGT : arith::CmpFPredicate::OLT,
      a, c);
  Value trueValue = arith::ConstantOp::create(b, loc, b.getBoolAttr(true));
  // largest: a is NaN and c is not; smallest: c is NaN and a is not.
  Value nanFirst = largest ? nanA : nanC;
  Value nanSecond = largest ? nanC : nanA;
  Value notSecond = arith::XOrIOp::create(b, loc, nanSecond, trueValue);
  Value byNaN = arith::AndIOp::create(b, loc, nanFirst, notSecond);
  return arith::OrIOp::create(b, loc, ordered, byNaN);
}

/// Whether `a` and `c` are equal in TopK's order (NaNs equal each other).
static Value sameValue(OpBuilder &b, Location loc, Value a, Value c) {
  if (!isa<FloatType>(a.getType()))
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, a, c);
  Value eq = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, a, c);
  Value nanA = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, a, a);
  Value nanC = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, c, c);
  Value bothNaN = arith::AndIOp::create(b, loc, nanA, nanC);
  return arith::OrIOp::create(b, loc, eq, bothNaN);
}

/// The rank (i64) of each element of `x` along its last dimension: how
/// many elements come before it in TopK's order.
static Value rankElements(OpBuilder &b, Location loc, Value x, bool largest) {
  ArrayRef<int64_t> shape = getShape(x);
  int64_t rank = shape.size();
  MLIRContext *context = b.getContext();
  // Loops: the rows, i (the ranked element), j (the one compared with it).
  SmallVector<AffineMap> maps{
      leadingDims(context, rank, rank + 1),
      replaceDim(context, rank, rank + 1, rank - 1, rank),
      leadingDims(context, rank, rank + 1)};
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  iterators.push_back(utils::IteratorType::reduction);
  Type i64 = b.getI64Type();
  Value init = zeroTensor(b, loc, shape, i64);
  auto generic = linalg::GenericOp::create(
      b, loc, init.getType(), ValueRange{x, x}, ValueRange{init}, maps,
      iterators, [&](OpBuilder &nb, Location nl, ValueRange args) {
        Value i = linalg::IndexOp::create(nb, nl, rank - 1);
        Value j = linalg::IndexOp::create(nb, nl, rank);
        Value before = comesBefore(nb, nl, args[1], args[0], largest);
        Value lower =
            arith::CmpIOp::create(nb, nl, arith::CmpIPredicate::slt, j, i);
        Value tie = arith::AndIOp::create(
            nb, nl, sameValue(nb, nl, args[1], args[0]), lower);
        Value counts = arith::OrIOp::create(nb, nl, before, tie);
        Value one = arith::ExtUIOp::create(nb, nl, i64, counts);
        linalg::YieldOp::create(
            nb, nl, arith::AddIOp::create(nb, nl, args[2], one).getResult());
      });
  return generic.getResult(0);
}

/// The values and indices of the elements of rank 0..k-1 along the last
/// dimension of `x`.
static std::pair<Value, Value> selectRanks(OpBuilder &b, Location loc, Value x,
                                           Value ranks, int64_t k) {
  SmallVector<int64_t> shape(getShape(x));
  int64_t rank = shape.size();
  shape.back() = k;
  MLIRContext *context = b.getContext();
  // Loops: the rows, r (the output position), i (the source element).
  AffineMap source = replaceDim(context, rank, rank + 1, rank - 1, rank);
  AffineMap out = leadingDims(context, rank, rank + 1);
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  iterators.push_back(utils::IteratorType::reduction);
  Type i64 = b.getI64Type();
  Value values = zeroTensor(b, loc, shape, getElementType(x));
  Value indices = zeroTensor(b, loc, shape, i64);
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{values.getType(), indices.getType()},
      ValueRange{x, ranks}, ValueRange{values, indices},
      ArrayRef<AffineMap>{source, source, out, out}, iterators,
      [&](OpBuilder &nb, Location nl, ValueRange args) {
        Value r = arith::IndexCastOp::create(
            nb, nl, i64, linalg::IndexOp::create(nb, nl, rank - 1));
        Value i = arith::IndexCastOp::create(
            nb, nl, i64, linalg::IndexOp::create(nb, nl, rank));
        Value hit =
            arith::CmpIOp::create(nb, nl, arith::CmpIPredicate::eq, args[1], r);
        Value v = arith::SelectOp::create(nb, nl, hit, args[0], args[2]);
        Value idx = arith::SelectOp::create(nb, nl, hit, i, args[3]);
        linalg::YieldOp::create(nb, nl, ValueRange{v, idx});
      });
  return {generic.getResult(0), generic.getResult(1)};
}

LogicalResult amp::onnximport::convertTopK(NodeContext &ctx) {
  OpBuilder &b = ctx.b;
  Location loc = ctx.loc;
  Value x = ctx.input(0);
  if (failed(checkNumeric(ctx, x)))
    return failure();
  int64_t rank = getTensorType(x).getRank();
  FailureOr<int64_t> axis = ctx.normalizeAxis(ctx.getInt("axis", -1), rank);
  if (failed(axis))
    return failure();
  if (rank < 1)
    return ctx.error("the input must have rank >= 1");
  FailureOr<int64_t> k = getConstScalar(ctx, 1, "K");
  if (failed(k))
    return failure();
  int64_t n = getShape(x)[*axis];
  if (*k < 1 || *k > n)
    return ctx.error("K (" + Twine(*k) + ") must be in [1, " + Twine(n) +
                     "], the size of axis " + Twine(*axis));
  // `sorted` 0 allows any order: the sorted one is as good.
  bool largest = ctx.getInt("largest", 1) != 0;
  SmallVector<int32_t> perm;
  for (int64_t d = 0; d < rank; ++d)
    if (d != *axis)
      perm.push_back(d);
  perm.push_back(*axis);
  Value moved = transpose(b, loc, x, perm);
  Value ranks = rankElements(b, loc, moved, largest);
  auto [values, indices] = selectRanks(b, loc, moved, ranks, *k);
  SmallVector<int32_t> back(rank);
  for (int64_t d = 0; d < rank; ++d)
    back[perm[d]] = d;
  ctx.setOutput(0, transpose(b, loc, values, back));
  if (ctx.hasOutput(1))
    ctx.setOutput(1, transpose(b, loc, indices, back));
  return success();
}
