//===- Elementwise.cpp - Arithmetic, comparisons, logic, Where, Cast ------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// ONNX's multidirectional (NumPy) broadcasting maps onto TOSA's element-wise
// ops once the operands have the same rank. Float arithmetic uses TOSA;
// integer arithmetic (mostly shape computations that could not be folded)
// and float division use a broadcasting linalg.generic with arith ops, which
// have exactly ONNX's semantics. Operands known at import time are folded.
//
//===----------------------------------------------------------------------===//

#include "Converters.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"

#include <cmath>

using namespace mlir;
using namespace amp::onnximport;

namespace {

using FoldFloat = double (*)(double, double);
using FoldInt = int64_t (*)(int64_t, int64_t);
using EmitFloat = Value (*)(OpBuilder &, Location, Value, Value);
using EmitScalar = Value (*)(OpBuilder &, Location, Value, Value);

/// How one binary op is folded and emitted.
struct BinarySpec {
  FoldFloat foldFloat;
  FoldInt foldInt;
  /// Float tensors (null: use floatScalar in a linalg.generic).
  EmitFloat emitFloat;
  EmitScalar floatScalar;
  /// Integer scalars in a linalg.generic (null: floats only).
  EmitScalar intScalar;
  /// The result is bool (comparisons).
  bool predicate = false;
  /// The operands are bool (logic).
  bool logical = false;
};

} // namespace

/// Checks that the inputs broadcast; reports an error otherwise.
static LogicalResult checkBroadcast(NodeContext &ctx,
                                    ArrayRef<Value> operands) {
  if (succeeded(broadcastShape(operands)))
    return success();
  return ctx.error("the input shapes do not broadcast");
}

/// Folds a node whose inputs are all known and small.
static bool tryFoldBinary(NodeContext &ctx, const BinarySpec &spec) {
  const Tensor *lhs = ctx.constInput(0), *rhs = ctx.constInput(1);
  if (!lhs || !rhs || lhs->getNumElements() > kMaxFoldElements ||
      rhs->getNumElements() > kMaxFoldElements)
    return false;
  if (isFloatDType(lhs->dtype) && !spec.foldFloat)
    return false;
  int32_t dtype = spec.predicate ? kBool : lhs->dtype;
  FoldFloat ff = spec.foldFloat;
  FoldInt fi = spec.foldInt;
  std::optional<Tensor> folded = foldElementwise(
      {lhs, rhs}, dtype,
      [ff](ArrayRef<double> a) { return ff ? ff(a[0], a[1]) : 0.0; },
      [fi](ArrayRef<int64_t> a) { return fi(a[0], a[1]); });
  if (!folded)
    return false;
  ctx.setConstOutput(0, std::move(*folded));
  return true;
}

static LogicalResult convertBinary(NodeContext &ctx, const BinarySpec &spec) {
  if (tryFoldBinary(ctx, spec))
    return success();
  Value lhs = ctx.input(0), rhs = ctx.input(1);
  if (getElementType(lhs) != getElementType(rhs))
    return ctx.error("the operands have different element types");
  if (failed(checkBroadcast(ctx, {lhs, rhs})))
    return failure();
  Type elementType = getElementType(lhs);
  Type resultType = spec.predicate ? ctx.b.getI1Type() : elementType;
  if (spec.logical) {
    if (!elementType.isInteger(1))
      return ctx.error("the operands must be bool");
    ctx.setOutput(0, spec.emitFloat(ctx.b, ctx.loc, lhs, rhs));
    return success();
  }
  if (isa<FloatType>(elementType)) {
    if (spec.emitFloat) {
      ctx.setOutput(0, spec.emitFloat(ctx.b, ctx.loc, lhs, rhs));
      return success();
    }
    EmitScalar fn = spec.floatScalar;
    ctx.setOutput(0, elementwise(ctx.b, ctx.loc, {lhs, rhs}, resultType,
                                 [fn](OpBuilder &b, Location loc,
                                      ValueRange args) {
                                   return fn(b, loc, args[0], args[1]);
                                 }));
    return success();
  }
  if (!spec.intScalar || elementType.isInteger(1))
    return ctx.error("unsupported element type for this op");
  EmitScalar fn = spec.intScalar;
  ctx.setOutput(0, elementwise(ctx.b, ctx.loc, {lhs, rhs}, resultType,
                               [fn](OpBuilder &b, Location loc,
                                    ValueRange args) {
                                 return fn(b, loc, args[0], args[1]);
                               }));
  return success();
}

template <typename OpTy>
static Value emitArith(OpBuilder &b, Location loc, Value x, Value y) {
  return OpTy::create(b, loc, x, y);
}

template <arith::CmpFPredicate P>
static Value emitCmpF(OpBuilder &b, Location loc, Value x, Value y) {
  return arith::CmpFOp::create(b, loc, P, x, y);
}

template <arith::CmpIPredicate P>
static Value emitCmpI(OpBuilder &b, Location loc, Value x, Value y) {
  return arith::CmpIOp::create(b, loc, P, x, y);
}

template <typename OpTy>
static Value emitTosa(OpBuilder &b, Location loc, Value x, Value y) {
  return binary<OpTy>(b, loc, x, y);
}

template <typename OpTy>
static Value emitTosaPredicate(OpBuilder &b, Location loc, Value x, Value y) {
  return binary<OpTy>(b, loc, x, y, b.getI1Type());
}

static Value emitMul(OpBuilder &b, Location loc, Value x, Value y) {
  return mul(b, loc, x, y);
}

static Value emitDiv(OpBuilder &b, Location loc, Value x, Value y) {
  return div(b, loc, x, y);
}

/// x < y as y > x.
static Value emitLess(OpBuilder &b, Location loc, Value x, Value y) {
  return binary<tosa::GreaterOp>(b, loc, y, x, b.getI1Type());
}

static Value emitLessEqual(OpBuilder &b, Location loc, Value x, Value y) {
  return binary<tosa::GreaterEqualOp>(b, loc, y, x, b.getI1Type());
}

LogicalResult amp::onnximport::convertAdd(NodeContext &ctx) {
  return convertBinary(
      ctx, {[](double a, double c) { return a + c; },
            [](int64_t a, int64_t c) { return a + c; }, emitTosa<tosa::AddOp>,
            nullptr, emitArith<arith::AddIOp>});
}

LogicalResult amp::onnximport::convertSub(NodeContext &ctx) {
  return convertBinary(
      ctx, {[](double a, double c) { return a - c; },
            [](int64_t a, int64_t c) { return a - c; }, emitTosa<tosa::SubOp>,
            nullptr, emitArith<arith::SubIOp>});
}

LogicalResult amp::onnximport::convertMul(NodeContext &ctx) {
  return convertBinary(ctx, {[](double a, double c) { return a * c; },
                             [](int64_t a, int64_t c) { return a * c; },
                             emitMul, nullptr, emitArith<arith::MulIOp>});
}

LogicalResult amp::onnximport::convertDiv(NodeContext &ctx) {
  return convertBinary(
      ctx, {[](double a, double c) { return a / c; },
            [](int64_t a, int64_t c) { return c == 0 ? int64_t(0) : a / c; },
            emitDiv, nullptr, emitArith<arith::DivSIOp>});
}

LogicalResult amp::onnximport::convertEqual(NodeContext &ctx) {
  // Bools (opset 11+) compare as i1; the other comparisons do not take them.
  if (!ctx.constInput(0) && !ctx.constInput(1) &&
      ctx.inputType(0).getElementType().isInteger(1) &&
      ctx.inputType(1).getElementType().isInteger(1)) {
    Value lhs = ctx.input(0), rhs = ctx.input(1);
    if (failed(checkBroadcast(ctx, {lhs, rhs})))
      return failure();
    ctx.setOutput(0, elementwise(ctx.b, ctx.loc, {lhs, rhs}, ctx.b.getI1Type(),
                                 [](OpBuilder &b, Location loc, ValueRange args) {
                                   return emitCmpI<arith::CmpIPredicate::eq>(
                                       b, loc, args[0], args[1]);
                                 }));
    return success();
  }
  return convertBinary(
      ctx, {[](double a, double c) { return double(a == c); },
            [](int64_t a, int64_t c) { return int64_t(a == c); },
            emitTosaPredicate<tosa::EqualOp>, nullptr,
            emitCmpI<arith::CmpIPredicate::eq>, true});
}

LogicalResult amp::onnximport::convertLess(NodeContext &ctx) {
  return convertBinary(
      ctx, {[](double a, double c) { return double(a < c); },
            [](int64_t a, int64_t c) { return int64_t(a < c); }, emitLess,
            nullptr, emitCmpI<arith::CmpIPredicate::slt>, true});
}

LogicalResult amp::onnximport::convertLessOrEqual(NodeContext &ctx) {
  return convertBinary(
      ctx, {[](double a, double c) { return double(a <= c); },
            [](int64_t a, int64_t c) { return int64_t(a <= c); },
            emitLessEqual, nullptr, emitCmpI<arith::CmpIPredicate::sle>, true});
}

LogicalResult amp::onnximport::convertGreater(NodeContext &ctx) {
  return convertBinary(
      ctx, {[](double a, double c) { return double(a > c); },
            [](int64_t a, int64_t c) { return int64_t(a > c); },
            emitTosaPredicate<tosa::GreaterOp>, nullptr,
            emitCmpI<arith::CmpIPredicate::sgt>, true});
}

LogicalResult amp::onnximport::convertGreaterOrEqual(NodeContext &ctx) {
  return convertBinary(
      ctx, {[](double a, double c) { return double(a >= c); },
            [](int64_t a, int64_t c) { return int64_t(a >= c); },
            emitTosaPredicate<tosa::GreaterEqualOp>, nullptr,
            emitCmpI<arith::CmpIPredicate::sge>, true});
}

LogicalResult amp::onnximport::convertAnd(NodeContext &ctx) {
  return convertBinary(ctx, {nullptr,
                             [](int64_t a, int64_t c) { return int64_t(a && c); },
                             emitTosa<tosa::LogicalAndOp>, nullptr, nullptr,
                             true, true});
}

LogicalResult amp::onnximport::convertOr(NodeContext &ctx) {
  return convertBinary(ctx, {nullptr,
                             [](int64_t a, int64_t c) { return int64_t(a || c); },
                             emitTosa<tosa::LogicalOrOp>, nullptr, nullptr,
                             true, true});
}

LogicalResult amp::onnximport::convertXor(NodeContext &ctx) {
  return convertBinary(ctx, {nullptr,
                             [](int64_t a, int64_t c) { return int64_t(!a != !c); },
                             emitTosa<tosa::LogicalXorOp>, nullptr, nullptr,
                             true, true});
}

LogicalResult amp::onnximport::convertNot(NodeContext &ctx) {
  if (const Tensor *x = ctx.constInput(0)) {
    std::optional<Tensor> folded = foldElementwise(
        {x}, kBool, [](ArrayRef<double> a) { return double(a[0] == 0); },
        [](ArrayRef<int64_t> a) { return int64_t(a[0] == 0); });
    if (folded) {
      ctx.setConstOutput(0, std::move(*folded));
      return success();
    }
  }
  Value x = ctx.input(0);
  if (!getElementType(x).isInteger(1))
    return ctx.error("the input must be bool");
  ctx.setOutput(0, tosa::LogicalNotOp::create(ctx.b, ctx.loc, x.getType(), x));
  return success();
}

LogicalResult amp::onnximport::convertPow(NodeContext &ctx) {
  Value x = ctx.input(0);
  if (!isa<FloatType>(getElementType(x)))
    return ctx.error("integer Pow is unsupported (the base must be a float)");
  // Small integer exponents known at import time become multiplications:
  // exact, and correct for negative bases.
  if (const Tensor *y = ctx.constInput(1)) {
    if (y->getNumElements() == 1) {
      double e = getDouble(*y, 0);
      if (e == 1.0) {
        ctx.setOutput(0, x);
        return success();
      }
      if (e == 2.0 || e == 3.0) {
        Value result = mul(ctx.b, ctx.loc, x, x);
        if (e == 3.0)
          result = mul(ctx.b, ctx.loc, result, x);
        ctx.setOutput(0, expandRank(ctx.b, ctx.loc, result,
                                    std::max<int64_t>(getTensorType(x).getRank(),
                                                      y->shape.size())));
        return success();
      }
    }
  }
  Value y = castTensor(ctx.b, ctx.loc, ctx.input(1), getElementType(x));
  if (failed(checkBroadcast(ctx, {x, y})))
    return failure();
  ctx.setOutput(0, binary<tosa::PowOp>(ctx.b, ctx.loc, x, y));
  return success();
}

LogicalResult amp::onnximport::convertWhere(NodeContext &ctx) {
  const Tensor *c = ctx.constInput(0), *x = ctx.constInput(1),
               *y = ctx.constInput(2);
  if (c && x && y) {
    std::optional<Tensor> folded = foldElementwise(
        {c, x, y}, x->dtype,
        [](ArrayRef<double> a) { return a[0] != 0 ? a[1] : a[2]; },
        [](ArrayRef<int64_t> a) { return a[0] != 0 ? a[1] : a[2]; });
    if (folded) {
      ctx.setConstOutput(0, std::move(*folded));
      return success();
    }
  }
  Value cond = ctx.input(0), lhs = ctx.input(1), rhs = ctx.input(2);
  if (!getElementType(cond).isInteger(1))
    return ctx.error("the condition must be bool");
  if (getElementType(lhs) != getElementType(rhs))
    return ctx.error("the operands have different element types");
  auto shape = broadcastShape({cond, lhs, rhs});
  if (failed(shape))
    return ctx.error("the input shapes do not broadcast");
  int64_t rank = shape->size();
  cond = expandRank(ctx.b, ctx.loc, cond, rank);
  lhs = expandRank(ctx.b, ctx.loc, lhs, rank);
  rhs = expandRank(ctx.b, ctx.loc, rhs, rank);
  auto type = RankedTensorType::get(*shape, getElementType(lhs));
  ctx.setOutput(0,
                tosa::SelectOp::create(ctx.b, ctx.loc, type, cond, lhs, rhs));
  return success();
}

/// Max, Min, Sum, Mean: a left fold of a binary op over all inputs.
static LogicalResult
convertVariadic(NodeContext &ctx, const BinarySpec &spec, bool mean) {
  unsigned n = ctx.getNumInputs();
  if (n == 0)
    return ctx.error("needs at least one input");
  // Fold when every input is known.
  bool allConst = true;
  for (unsigned i = 0; i < n; ++i)
    allConst &= ctx.constInput(i) != nullptr;
  if (allConst && !mean) {
    Tensor acc = *ctx.constInput(0);
    for (unsigned i = 1; i < n && allConst; ++i) {
      FoldFloat ff = spec.foldFloat;
      FoldInt fi = spec.foldInt;
      auto folded = foldElementwise(
          {&acc, ctx.constInput(i)}, acc.dtype,
          [ff](ArrayRef<double> a) { return ff(a[0], a[1]); },
          [fi](ArrayRef<int64_t> a) { return fi(a[0], a[1]); });
      if (!folded)
        allConst = false;
      else
        acc = std::move(*folded);
    }
    if (allConst) {
      ctx.setConstOutput(0, std::move(acc));
      return success();
    }
  }
  Value acc = ctx.input(0);
  Type elementType = getElementType(acc);
  for (unsigned i = 1; i < n; ++i) {
    Value next = ctx.input(i);
    if (getElementType(next) != elementType)
      return ctx.error("the operands have different element types");
    if (failed(checkBroadcast(ctx, {acc, next})))
      return failure();
    if (isa<FloatType>(elementType)) {
      acc = spec.emitFloat(ctx.b, ctx.loc, acc, next);
    } else {
      if (!spec.intScalar)
        return ctx.error("unsupported element type for this op");
      EmitScalar fn = spec.intScalar;
      acc = elementwise(ctx.b, ctx.loc, {acc, next}, elementType,
                        [fn](OpBuilder &b, Location loc, ValueRange args) {
                          return fn(b, loc, args[0], args[1]);
                        });
    }
  }
  if (mean) {
    if (!isa<FloatType>(elementType))
      return ctx.error("Mean needs float inputs");
    Value scale = scalarConst(ctx.b, ctx.loc, elementType, double(n),
                              getTensorType(acc).getRank());
    acc = div(ctx.b, ctx.loc, acc, scale);
  }
  ctx.setOutput(0, acc);
  return success();
}

LogicalResult amp::onnximport::convertMax(NodeContext &ctx) {
  return convertVariadic(
      ctx, {[](double a, double c) { return std::isnan(a) || a > c ? a : c; },
            [](int64_t a, int64_t c) { return std::max(a, c); },
            emitTosa<tosa::MaximumOp>, nullptr, emitArith<arith::MaxSIOp>},
      false);
}

LogicalResult amp::onnximport::convertMin(NodeContext &ctx) {
  return convertVariadic(
      ctx, {[](double a, double c) { return std::isnan(a) || a < c ? a : c; },
            [](int64_t a, int64_t c) { return std::min(a, c); },
            emitTosa<tosa::MinimumOp>, nullptr, emitArith<arith::MinSIOp>},
      false);
}

LogicalResult amp::onnximport::convertSum(NodeContext &ctx) {
  return convertVariadic(ctx,
                         {[](double a, double c) { return a + c; },
                          [](int64_t a, int64_t c) { return a + c; },
                          emitTosa<tosa::AddOp>, nullptr,
                          emitArith<arith::AddIOp>},
                         false);
}

LogicalResult amp::onnximport::convertMean(NodeContext &ctx) {
  return convertVariadic(ctx,
                         {[](double a, double c) { return a + c; },
                          [](int64_t a, int64_t c) { return a + c; },
                          emitTosa<tosa::AddOp>, nullptr, nullptr},
                         true);
}

LogicalResult amp::onnximport::convertCast(NodeContext &ctx) {
  const Attribute *to = ctx.attr("to");
  if (!to || to->kind != Attribute::Int)
    return ctx.error("missing attribute 'to'");
  int32_t dtype = static_cast<int32_t>(to->i);
  Type elementType = ctx.convertDType(dtype);
  if (!elementType)
    return ctx.unsupported("to", getDTypeName(dtype));
  if (const Tensor *x = ctx.constInput(0)) {
    if (x->getNumElements() <= kMaxFoldElements) {
      std::optional<Tensor> folded;
      if (isFloatDType(x->dtype) && !isFloatDType(dtype) && dtype != kBool) {
        // Float -> integer truncates toward zero.
        folded = foldElementwise(
            {x}, dtype, [](ArrayRef<double> a) { return std::trunc(a[0]); },
            [](ArrayRef<int64_t> a) { return a[0]; });
      } else if (dtype == kBool) {
        folded = foldElementwise(
            {x}, dtype, [](ArrayRef<double> a) { return double(a[0] != 0); },
            [](ArrayRef<int64_t> a) { return int64_t(a[0] != 0); });
      } else {
        folded = foldElementwise(
            {x}, dtype, [](ArrayRef<double> a) { return a[0]; },
            [](ArrayRef<int64_t> a) { return a[0]; });
      }
      if (folded) {
        ctx.setConstOutput(0, std::move(*folded));
        return success();
      }
    }
  }
  ctx.setOutput(0, castTensor(ctx.b, ctx.loc, ctx.input(0), elementType));
  return success();
}

/// ONNX Mod: with fmod = 0 (integers only) the sign of the result follows
/// the divisor (Python's %), with fmod = 1 the dividend (C's fmod).
static int64_t modInt(int64_t a, int64_t c) {
  if (c == 0)
    return 0;
  int64_t r = a % c;
  return (r != 0 && ((r < 0) != (c < 0))) ? r + c : r;
}

static Value emitModInt(OpBuilder &b, Location loc, Value x, Value y) {
  // r = x rem y; r + y if r != 0 and sign(r) != sign(y).
  Value r = arith::RemSIOp::create(b, loc, x, y);
  Value zero = arith::ConstantOp::create(b, loc, b.getIntegerAttr(x.getType(), 0));
  Value rNeg = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, r, zero);
  Value yNeg = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, y, zero);
  Value rNonZero =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, r, zero);
  Value differ = arith::XOrIOp::create(b, loc, rNeg, yNeg);
  Value fix = arith::AndIOp::create(b, loc, rNonZero, differ);
  Value adjusted = arith::AddIOp::create(b, loc, r, y);
  return arith::SelectOp::create(b, loc, fix, adjusted, r);
}

static Value emitFmodInt(OpBuilder &b, Location loc, Value x, Value y) {
  return arith::RemSIOp::create(b, loc, x, y);
}

static Value emitFmodFloat(OpBuilder &b, Location loc, Value x, Value y) {
  return arith::RemFOp::create(b, loc, x, y);
}

LogicalResult amp::onnximport::convertMod(NodeContext &ctx) {
  bool fmod = ctx.getInt("fmod", 0) != 0;
  BinarySpec spec{[](double a, double c) { return std::fmod(a, c); },
                  fmod ? [](int64_t a, int64_t c) {
                    return c == 0 ? int64_t(0) : a % c;
                  } : modInt,
                  nullptr, emitFmodFloat, fmod ? emitFmodInt : emitModInt};
  const Tensor *lhs = ctx.constInput(0);
  Type elementType =
      lhs ? ctx.convertDType(lhs->dtype) : ctx.inputType(0).getElementType();
  if (elementType && isa<FloatType>(elementType) && !fmod)
    return ctx.unsupported("fmod", "0 with float inputs (must be 1)");
  return convertBinary(ctx, spec);
}

LogicalResult amp::onnximport::convertCastLike(NodeContext &ctx) {
  // Cast to the element type of the second input.
  int32_t dtype = ctx.constInput(1) ? ctx.constInput(1)->dtype
                                    : ctx.getDType(ctx.inputType(1).getElementType());
  Type elementType = ctx.convertDType(dtype);
  if (!elementType)
    return ctx.error(Twine("unsupported target type '") + getDTypeName(dtype) +
                     "'");
  if (const Tensor *x = ctx.constInput(0)) {
    std::optional<Tensor> folded;
    if (x->getNumElements() <= kMaxFoldElements && dtype != kBool &&
        !(isFloatDType(x->dtype) && !isFloatDType(dtype)))
      folded = foldElementwise(
          {x}, dtype, [](ArrayRef<double> a) { return a[0]; },
          [](ArrayRef<int64_t> a) { return a[0]; });
    if (folded) {
      ctx.setConstOutput(0, std::move(*folded));
      return success();
    }
  }
  ctx.setOutput(0, castTensor(ctx.b, ctx.loc, ctx.input(0), elementType));
  return success();
}
