//===- FloatRange.cpp - Value ranges of float and integer data ------------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// See FloatRange.h. The transfer functions are grouped by what they compute
// (a monotone function of one operand, a binary arithmetic op, data movement,
// a reduction) so that one table per group lists the ops; ops not listed are
// unbounded, which never keeps anything in FP32.
//
//===----------------------------------------------------------------------===//

#include "amp/Analysis/FloatRange.h"

#include "amp/Utils/CastUtils.h"
#include "amp/Utils/ConversionMemo.h"
#include "amp/Utils/FloatConversion.h"
#include "amp/Utils/LinalgUtils.h"
#include "amp/Utils/TypeUtils.h"

#include "mlir/Analysis/DataFlow/DeadCodeAnalysis.h"
#include "mlir/Analysis/DataFlowFramework.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/Format.h"

#include <cmath>
#include <cstring>
#include <limits>

using namespace mlir;
using namespace mlir::amp;

static constexpr double kInf = std::numeric_limits<double>::infinity();

//===----------------------------------------------------------------------===//
// FloatRange
//===----------------------------------------------------------------------===//

FloatRange FloatRange::unbounded() { return get(-kInf, kInf, false, false); }

FloatRange FloatRange::noElements() {
  FloatRange r;
  r.kind = Kind::NoElements;
  return r;
}

FloatRange FloatRange::point(double value) {
  return get(value, value, true, true);
}

FloatRange FloatRange::get(double lo, double hi, bool loAttained,
                           bool hiAttained) {
  FloatRange r;
  r.kind = Kind::Interval;
  if (std::isnan(lo) || std::isnan(hi) || lo > hi) {
    lo = -kInf;
    hi = kInf;
    loAttained = hiAttained = false;
  }
  r.lo = lo;
  r.hi = hi;
  // An infinite bound is never a proof of anything.
  r.loAttained = loAttained && std::isfinite(lo);
  r.hiAttained = hiAttained && std::isfinite(hi);
  return r;
}

bool FloatRange::isBounded() const {
  return isInterval() && std::isfinite(lo) && std::isfinite(hi);
}

bool FloatRange::isPoint() const {
  return isInterval() && lo == hi && loAttained && hiAttained;
}

std::optional<double> FloatRange::getAttainedMaxAbs() const {
  if (!isInterval())
    return std::nullopt;
  std::optional<double> result;
  if (loAttained)
    result = std::abs(lo);
  if (hiAttained)
    result = std::max(result.value_or(0.0), std::abs(hi));
  return result;
}

FloatRange FloatRange::join(const FloatRange &lhs, const FloatRange &rhs) {
  if (lhs.isUninitialized() || lhs.hasNoElements())
    return rhs.isUninitialized() ? lhs : rhs;
  if (rhs.isUninitialized() || rhs.hasNoElements())
    return lhs;
  return get(std::min(lhs.lo, rhs.lo), std::max(lhs.hi, rhs.hi),
             lhs.lo == rhs.lo && lhs.loAttained && rhs.loAttained,
             lhs.hi == rhs.hi && lhs.hiAttained && rhs.hiAttained);
}

FloatRange FloatRange::unite(const FloatRange &lhs, const FloatRange &rhs) {
  if (!lhs.isInterval())
    return rhs.isUninitialized() ? lhs : rhs;
  if (!rhs.isInterval())
    return lhs;
  double lo = std::min(lhs.lo, rhs.lo), hi = std::max(lhs.hi, rhs.hi);
  return get(
      lo, hi,
      (lhs.lo == lo && lhs.loAttained) || (rhs.lo == lo && rhs.loAttained),
      (lhs.hi == hi && lhs.hiAttained) || (rhs.hi == hi && rhs.hiAttained));
}

bool FloatRange::operator==(const FloatRange &other) const {
  if (kind != other.kind)
    return false;
  if (!isInterval())
    return true;
  return lo == other.lo && hi == other.hi && loAttained == other.loAttained &&
         hiAttained == other.hiAttained;
}

void FloatRange::print(raw_ostream &os) const {
  switch (kind) {
  case Kind::Uninitialized:
    os << "<uninitialized>";
    return;
  case Kind::NoElements:
    os << "<no elements>";
    return;
  case Kind::Interval:
    break;
  }
  auto bound = [&](double value) {
    if (std::isinf(value))
      os << (value < 0 ? "-inf" : "inf");
    else
      os << llvm::format("%g", value);
  };
  os << (loAttained ? "[" : "(");
  bound(lo);
  os << ", ";
  bound(hi);
  os << (hiAttained ? "]" : ")");
}

raw_ostream &mlir::amp::operator<<(raw_ostream &os, const FloatRange &range) {
  range.print(os);
  return os;
}

double mlir::amp::getExactIntegerLimit(FloatType type) {
  return std::ldexp(1.0, type.getFPMantissaWidth());
}

double mlir::amp::getLargestFinite(FloatType type) {
  // Asked per value checked: the common types without building an APFloat.
  if (type.isF16())
    return 65504.0;
  if (type.isF32())
    return static_cast<double>(std::numeric_limits<float>::max());
  if (type.isBF16())
    return 0x1.fep127; // (2 - 2^-7) * 2^127
  return llvm::APFloat::getLargest(type.getFloatSemantics()).convertToDouble();
}

//===----------------------------------------------------------------------===//
// Interval arithmetic
//===----------------------------------------------------------------------===//

namespace {

/// x * y with 0 * inf = 0 (a zero factor bounds the product).
double mul(double x, double y) { return x == 0 || y == 0 ? 0 : x * y; }

/// A range is usable by a transfer function once it is an interval.
bool isKnown(const FloatRange &r) { return r.isInterval(); }

/// f applied to every element of `a`, f monotone: the bounds map to bounds,
/// and stay attained.
template <typename F> FloatRange applyMonotone(const FloatRange &a, F f) {
  if (!isKnown(a))
    return FloatRange::unbounded();
  double x = f(a.getLo()), y = f(a.getHi());
  if (x <= y)
    return FloatRange::get(x, y, a.isLoAttained(), a.isHiAttained());
  return FloatRange::get(y, x, a.isHiAttained(), a.isLoAttained());
}

/// f applied elementwise to `a` and `b`, f monotone in each argument (add,
/// sub, mul, max, min): the extremes are at corners. With one operand a
/// point, f is a monotone function of the other, whose attained bounds
/// carry over.
template <typename F>
FloatRange applyBinary(const FloatRange &a, const FloatRange &b, F f) {
  if (!isKnown(a) || !isKnown(b))
    return FloatRange::unbounded();
  if (b.isPoint())
    return applyMonotone(a, [&](double x) { return f(x, b.getLo()); });
  if (a.isPoint())
    return applyMonotone(b, [&](double y) { return f(a.getLo(), y); });
  double c[] = {f(a.getLo(), b.getLo()), f(a.getLo(), b.getHi()),
                f(a.getHi(), b.getLo()), f(a.getHi(), b.getHi())};
  for (double v : c)
    if (std::isnan(v))
      return FloatRange::unbounded();
  return FloatRange::get(*std::min_element(std::begin(c), std::end(c)),
                         *std::max_element(std::begin(c), std::end(c)), false,
                         false);
}

FloatRange add(const FloatRange &a, const FloatRange &b) {
  return applyBinary(a, b, [](double x, double y) { return x + y; });
}
FloatRange sub(const FloatRange &a, const FloatRange &b) {
  return applyBinary(a, b, [](double x, double y) { return x - y; });
}
FloatRange multiply(const FloatRange &a, const FloatRange &b) {
  return applyBinary(a, b, mul);
}
FloatRange maximum(const FloatRange &a, const FloatRange &b) {
  return applyBinary(a, b, [](double x, double y) { return std::max(x, y); });
}
FloatRange minimum(const FloatRange &a, const FloatRange &b) {
  return applyBinary(a, b, [](double x, double y) { return std::min(x, y); });
}
FloatRange divide(const FloatRange &a, const FloatRange &b) {
  if (!isKnown(a) || !isKnown(b) || (b.getLo() <= 0 && b.getHi() >= 0))
    return FloatRange::unbounded();
  return applyBinary(a, b, [](double x, double y) { return x / y; });
}
FloatRange negate(const FloatRange &a) {
  return applyMonotone(a, [](double x) { return -x; });
}
FloatRange absolute(const FloatRange &a) {
  if (!isKnown(a))
    return FloatRange::unbounded();
  if (a.getLo() >= 0)
    return a;
  if (a.getHi() <= 0)
    return negate(a);
  double hi = std::max(-a.getLo(), a.getHi());
  bool attained = (-a.getLo() == hi && a.isLoAttained()) ||
                  (a.getHi() == hi && a.isHiAttained());
  return FloatRange::get(0, hi, false, attained);
}
FloatRange clamp(const FloatRange &a, double lo, double hi) {
  return applyMonotone(a, [&](double x) { return std::clamp(x, lo, hi); });
}
/// The sum of `n` elements of `a` (n < 0: unknown count).
FloatRange sumOf(const FloatRange &a, int64_t n) {
  if (!isKnown(a))
    return FloatRange::unbounded();
  double count = n < 0 ? kInf : static_cast<double>(n);
  return FloatRange::get(mul(count, a.getLo()), mul(count, a.getHi()),
                         a.isPoint() && n >= 0, a.isPoint() && n >= 0);
}

/// `range` of a float constant whose bounds beyond `limit` are no proof.
FloatRange limitConstant(const FloatRange &range, double limit, bool isFloat) {
  if (!isFloat || !range.isInterval())
    return range;
  return FloatRange::get(
      range.getLo(), range.getHi(),
      range.isLoAttained() && std::abs(range.getLo()) <= limit,
      range.isHiAttained() && std::abs(range.getHi()) <= limit);
}

/// The range of the values of a constant attribute.
FloatRange getAttributeRange(Attribute attr) {
  if (auto f = dyn_cast<FloatAttr>(attr))
    return FloatRange::point(getFloatAttrValue(f));
  if (auto i = dyn_cast<IntegerAttr>(attr)) {
    if (i.getType().isInteger(1))
      return FloatRange::point(i.getValue().getZExtValue());
    return FloatRange::point(static_cast<double>(i.getValue().getSExtValue()));
  }
  auto dense = dyn_cast<DenseElementsAttr>(attr);
  if (!dense || dense.empty())
    return dense ? FloatRange::noElements() : FloatRange::unbounded();
  Type elt = dense.getElementType();
  if (dense.isSplat()) {
    // Read as a number: a splat's element as an Attribute would be uniqued
    // in the context on every call. An f32 splat stores its one element as
    // raw bytes (read directly: the typed accessor costs hundreds of
    // instructions, and a model has a splat constant per layer).
    if (elt.isF32()) {
      if (auto raw = dyn_cast<DenseIntOrFPElementsAttr>(dense);
          raw && raw.getRawData().size() == sizeof(float)) {
        float v;
        std::memcpy(&v, raw.getRawData().data(), sizeof(float));
        return FloatRange::point(v);
      }
      return FloatRange::point(dense.getSplatValue<float>());
    }
    if (isFloatType(elt))
      return FloatRange::point(
          dense.getSplatValue<APFloat>().convertToDouble());
    if (elt.isInteger(1))
      return FloatRange::point(dense.getSplatValue<APInt>().getZExtValue());
    if (elt.isIntOrIndex())
      return FloatRange::point(
          static_cast<double>(dense.getSplatValue<APInt>().getSExtValue()));
    return FloatRange::unbounded();
  }
  double lo = kInf, hi = -kInf;
  auto note = [&](double v) {
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  };
  if (isFloatType(elt)) {
    DenseFloatStats stats = getDenseFloatStats(dense);
    lo = stats.lo;
    hi = stats.hi;
  } else if (elt.isInteger(1)) {
    for (const APInt &v : dense.getValues<APInt>())
      note(v.getZExtValue());
  } else if (elt.isIntOrIndex()) {
    for (const APInt &v : dense.getValues<APInt>())
      note(static_cast<double>(v.getSExtValue()));
  } else {
    return FloatRange::unbounded();
  }
  return FloatRange::get(lo, hi, true, true);
}

/// The number of elements `op` reduces into each result element along
/// `axis` of its operand (negative if unknown).
int64_t getAxisExtent(Value operand, int64_t axis) {
  auto type = dyn_cast<ShapedType>(operand.getType());
  if (!type || !type.hasRank() || axis < 0 || axis >= type.getRank() ||
      type.isDynamicDim(axis))
    return -1;
  return type.getDimSize(axis);
}

//===----------------------------------------------------------------------===//
// Transfer functions
//===----------------------------------------------------------------------===//

/// Evaluates ranges, of top-level ops for the solver and of the ops of a
/// payload for its structured op.
class RangeEvaluator {
public:
  using Lookup = function_ref<FloatRange(Value)>;

  RangeEvaluator(Lookup lookup, double &convertedIntegers, double constantLimit)
      : lookup(lookup), convertedIntegers(convertedIntegers),
        constantLimit(constantLimit) {}

  /// The ranges of the results of `op`.
  void evaluate(Operation *op, SmallVectorImpl<FloatRange> &results);

private:
  FloatRange operand(Operation *op, unsigned i) {
    return lookup(op->getOperand(i));
  }
  FloatRange evaluateSingle(Operation *op);
  void evaluateStructured(linalg::LinalgOp op,
                          SmallVectorImpl<FloatRange> &results);
  /// Records an integer converted to a float.
  FloatRange noteConversion(Value source, const FloatRange &range) {
    if (getScalarType(source.getType()).isIntOrIndex())
      if (std::optional<double> m = getBoundedMaxAbs(range))
        convertedIntegers = std::max(convertedIntegers, *m);
    return range;
  }
  static std::optional<double> getBoundedMaxAbs(const FloatRange &r) {
    if (!r.isBounded())
      return std::nullopt;
    return std::max(std::abs(r.getLo()), std::abs(r.getHi()));
  }

  Lookup lookup;
  double &convertedIntegers;
  /// Float constant bounds beyond this magnitude are not attained (they are
  /// clamped by the conversion).
  double constantLimit;
};

FloatRange RangeEvaluator::evaluateSingle(Operation *op) {
  // Constants (arith.constant, tosa.const and any ConstantLike op, which
  // has no operands: a cheap test before the trait lookup).
  if (isa<arith::ConstantOp, tosa::ConstOp>(op) ||
      (op->getNumOperands() == 0 && op->hasTrait<OpTrait::ConstantLike>())) {
    // Shapes and other values without numbers (tosa.const_shape): nothing
    // to fold for.
    if (!getScalarType(op->getResult(0).getType()).isIntOrIndexOrFloat())
      return FloatRange::unbounded();
    Attribute value;
    if (isa<arith::ConstantOp, tosa::ConstOp>(op))
      value = getConstantAttr(op);
    if (value || matchPattern(op->getResult(0), m_Constant(&value)))
      return limitConstant(
          getAttributeRange(value), constantLimit,
          isFloatType(getScalarType(op->getResult(0).getType())));
    return FloatRange::unbounded();
  }
  auto unary = [&](FloatRange (*f)(const FloatRange &)) {
    return f(operand(op, 0));
  };
  auto binary = [&](FloatRange (*f)(const FloatRange &, const FloatRange &)) {
    return f(operand(op, 0), operand(op, 1));
  };
  auto monotone = [&](double (*f)(double)) {
    return applyMonotone(operand(op, 0), f);
  };
  auto same = [&]() { return operand(op, 0); };
  return llvm::TypeSwitch<Operation *, FloatRange>(op)
      // Elementwise arithmetic (first: most of the ops of payloads).
      .Case<arith::AddFOp, arith::AddIOp, tosa::AddOp>(
          [&](auto) { return binary(add); })
      .Case<arith::SubFOp, arith::SubIOp, tosa::SubOp>(
          [&](auto) { return binary(sub); })
      .Case<arith::MulFOp, arith::MulIOp, tosa::MulOp>(
          [&](auto) { return binary(multiply); })
      .Case<arith::DivFOp>([&](auto) { return binary(divide); })
      .Case<arith::MaximumFOp, arith::MaxNumFOp, arith::MaxSIOp,
            tosa::MaximumOp>([&](auto) { return binary(maximum); })
      .Case<arith::MinimumFOp, arith::MinNumFOp, arith::MinSIOp,
            tosa::MinimumOp>([&](auto) { return binary(minimum); })
      .Case<arith::NegFOp, tosa::NegateOp>([&](auto) { return unary(negate); })
      .Case<math::AbsFOp, tosa::AbsOp>([&](auto) { return unary(absolute); })
      // No elements to read.
      .Case<tensor::EmptyOp>([](auto) { return FloatRange::noElements(); })
      // Conversions: the values stay; integers converted to floats are
      // recorded for the exact-integer check.
      .Case<arith::SIToFPOp, arith::UIToFPOp, tosa::CastOp>(
          [&](Operation *cast) {
            return noteConversion(cast->getOperand(0), operand(cast, 0));
          })
      .Case<arith::ExtFOp, arith::TruncFOp, arith::FPToSIOp, arith::FPToUIOp,
            arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtSIOp,
            arith::ExtUIOp, arith::TruncIOp, arith::BitcastOp>(
          [&](auto) { return same(); })
      // Data movement: the elements stay.
      .Case<tensor::ExtractSliceOp, tensor::CollapseShapeOp,
            tensor::ExpandShapeOp, tensor::CastOp, tensor::ExtractOp,
            tensor::ReshapeOp, tensor::SplatOp, tosa::ReshapeOp,
            tosa::TransposeOp, tosa::SliceOp, tosa::TileOp, tosa::IdentityOp,
            tosa::ReverseOp, tosa::GatherOp>([&](auto) { return same(); })
      .Case<tensor::InsertSliceOp, tensor::InsertOp>([&](Operation *insert) {
        return FloatRange::unite(operand(insert, 0), operand(insert, 1));
      })
      .Case<tensor::FromElementsOp, tosa::ConcatOp>([&](Operation *collect) {
        FloatRange r = FloatRange::noElements();
        for (Value v : collect->getOperands())
          r = FloatRange::unite(r, lookup(v));
        return r;
      })
      .Case<tensor::PadOp>([&](tensor::PadOp pad) {
        auto yield = cast<tensor::YieldOp>(pad.getBody()->getTerminator());
        return FloatRange::unite(lookup(pad.getSource()),
                                 lookup(yield.getValue()));
      })
      .Case<arith::SelectOp>([&](auto) {
        return FloatRange::join(operand(op, 1), operand(op, 2));
      })
      .Case<math::ExpOp, tosa::ExpOp>(
          [&](auto) { return monotone([](double x) { return std::exp(x); }); })
      .Case<math::TanhOp, tosa::TanhOp>(
          [&](auto) { return monotone([](double x) { return std::tanh(x); }); })
      .Case<tosa::SigmoidOp>([&](auto) {
        return monotone([](double x) { return 1 / (1 + std::exp(-x)); });
      })
      .Case<math::SqrtOp>([&](auto) {
        FloatRange a = same();
        if (!isKnown(a) || a.getLo() < 0)
          return FloatRange::unbounded();
        return monotone([](double x) { return std::sqrt(x); });
      })
      // Clamps: the bounds are attributes.
      .Case<tosa::ClampOp>([&](tosa::ClampOp c) {
        auto lo = dyn_cast<FloatAttr>(c.getMinValAttr());
        auto hi = dyn_cast<FloatAttr>(c.getMaxValAttr());
        if (!lo || !hi)
          return FloatRange::unbounded();
        return clamp(same(), getFloatAttrValue(lo), getFloatAttrValue(hi));
      })
      // Reductions.
      .Case<tosa::ReduceMaxOp, tosa::ReduceMinOp>([&](auto) {
        FloatRange a = same();
        return FloatRange::get(a.getLo(), a.getHi(), false, false);
      })
      .Case<tosa::ReduceSumOp>([&](tosa::ReduceSumOp r) {
        return sumOf(same(), getAxisExtent(r.getInput(), r.getAxis()));
      })
      .Case<tosa::MatMulOp>([&](tosa::MatMulOp m) {
        return sumOf(multiply(lookup(m.getA()), lookup(m.getB())),
                     getAxisExtent(m.getA(), 2));
      })
      .Default([](Operation *) { return FloatRange::unbounded(); });
}


void RangeEvaluator::evaluateStructured(linalg::LinalgOp op,
                                        SmallVectorImpl<FloatRange> &results) {
  Block &body = op->getRegion(0).front();
  // The loop extents, computed only for a payload that asks (linalg.index,
  // a sum of bounded terms): most payloads of a model do not.
  std::optional<SmallVector<int64_t>> extents;
  auto getExtents = [&]() -> ArrayRef<int64_t> {
    if (!extents)
      extents = getStaticLoopExtents(op);
    return *extents;
  };
  llvm::SmallDenseMap<Value, FloatRange, 16> local;
  for (OpOperand &operand : op->getOpOperands())
    if (BlockArgument arg = op.getMatchingBlockArgument(&operand))
      local[arg] = lookup(operand.get());
  auto inner = [&](Value v) {
    auto it = local.find(v);
    return it != local.end() ? it->second : lookup(v);
  };
  RangeEvaluator payload(inner, convertedIntegers, constantLimit);
  SmallVector<FloatRange> ranges;
  for (Operation &nested : body.without_terminator()) {
    ranges.clear();
    if (auto index = dyn_cast<linalg::IndexOp>(nested)) {
      ArrayRef<int64_t> loops = getExtents();
      int64_t extent = index.getDim() < loops.size() ? loops[index.getDim()]
                                                     : ShapedType::kDynamic;
      ranges.push_back(ShapedType::isDynamic(extent)
                           ? FloatRange::get(0, kInf, true, false)
                       : extent > 0 ? FloatRange::get(0, extent - 1, true, true)
                                    : FloatRange::noElements());
    } else if (nested.getNumRegions() != 0) {
      ranges.assign(nested.getNumResults(), FloatRange::unbounded());
    } else {
      payload.evaluate(&nested, ranges);
    }
    for (auto [result, range] : llvm::zip(nested.getResults(), ranges))
      local[result] = range;
  }

  Operation *yield = body.getTerminator();
  // The number of elements each result element sums (-1: unknown).
  auto getReducedCount = [&]() {
    int64_t reduced = 1;
    for (auto [extent, type] :
         llvm::zip(getExtents(), op.getIteratorTypesArray())) {
      if (type != utils::IteratorType::reduction)
        continue;
      if (ShapedType::isDynamic(extent) || reduced < 0)
        reduced = -1;
      else
        reduced *= extent;
    }
    return reduced;
  };
  bool reduces = op.getNumReductionLoops() != 0;
  for (OpResult result : op->getResults()) {
    unsigned i = result.getResultNumber();
    Value yielded = yield->getOperand(i);
    FloatRange value = inner(yielded);
    if (!reduces) {
      results.push_back(value);
      continue;
    }
    // A reduction: the yielded value combines the running value (the init
    // argument) with a term of each iteration.
    OpOperand &initOperand = getInitOperands(op)[i];
    BlockArgument acc = op.getMatchingBlockArgument(&initOperand);
    FloatRange init = lookup(initOperand.get());
    Operation *combiner = yielded.getDefiningOp();
    FloatRange range = FloatRange::unbounded();
    if (combiner && combiner->getNumOperands() == 2 &&
        combiner->getBlock() == &body &&
        llvm::is_contained(combiner->getOperands(), acc)) {
      Value termValue = combiner->getOperand(0) == acc
                            ? combiner->getOperand(1)
                            : combiner->getOperand(0);
      FloatRange term = inner(termValue);
      bool dependsOnAcc = termValue == acc;
      // A term whose bounds are each 0 or infinite (the common case:
      // activations, unbounded or on one side of 0) has the same sum over
      // any count but zero, which only an operand without elements gives:
      // the loop extents are not needed.
      auto zeroOrInf = [](double bound) {
        return bound == 0 || std::isinf(bound);
      };
      bool anyCount = isKnown(term) && !term.isPoint() &&
                      zeroOrInf(term.getLo()) && zeroOrInf(term.getHi()) &&
                      llvm::none_of(op->getOperandTypes(), [](Type type) {
                        auto shaped = dyn_cast<ShapedType>(type);
                        return shaped && shaped.hasStaticShape() &&
                               shaped.getNumElements() == 0;
                      });
      if (!dependsOnAcc && isa<arith::AddFOp, arith::AddIOp>(combiner))
        range = !isKnown(term) ? FloatRange::unbounded()
                : anyCount
                    ? add(init, FloatRange::get(term.getLo(), term.getHi(),
                                                false, false))
                    : add(init, sumOf(term, getReducedCount()));
      else if (!dependsOnAcc &&
               isa<arith::MaximumFOp, arith::MaxNumFOp, arith::MinimumFOp,
                   arith::MinNumFOp>(combiner))
        range = FloatRange::join(
            init, FloatRange::get(term.getLo(), term.getHi(), false, false));
    }
    results.push_back(range);
  }
}

void RangeEvaluator::evaluate(Operation *op,
                              SmallVectorImpl<FloatRange> &results) {
  if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
      linalgOp && op->getNumRegions() == 1 && !op->getRegion(0).empty()) {
    evaluateStructured(linalgOp, results);
    return;
  }
  if (op->getNumResults() == 1) {
    results.push_back(evaluateSingle(op));
    return;
  }
  results.assign(op->getNumResults(), FloatRange::unbounded());
}

} // namespace

//===----------------------------------------------------------------------===//
// FloatRangeAnalysis
//===----------------------------------------------------------------------===//

void FloatRangeAnalysis::setToEntryState(FloatRangeLattice *lattice) {
  propagateIfChanged(lattice, lattice->join(FloatRange::unbounded()));
}

LogicalResult
FloatRangeAnalysis::visitOperation(Operation *op,
                                   ArrayRef<const FloatRangeLattice *> operands,
                                   ArrayRef<FloatRangeLattice *> results) {
  if (results.empty())
    return success();
  // Wait until every operand is known (the solver visits the op again).
  for (const FloatRangeLattice *operand : operands)
    if (operand->getValue().isUninitialized())
      return success();
  DenseMap<Value, const FloatRangeLattice *> known;
  for (auto [value, lattice] : llvm::zip(op->getOperands(), operands))
    known[value] = lattice;
  // Values captured by a payload are read through the solver (which then
  // visits the op again when they change).
  auto lookup = [&](Value value) -> FloatRange {
    auto it = known.find(value);
    const FloatRangeLattice *lattice =
        it != known.end()
            ? it->second
            : getLatticeElementFor(getProgramPointAfter(op), value);
    FloatRange range = lattice->getValue();
    return range.isUninitialized() ? FloatRange::unbounded() : range;
  };
  double converted = 0;
  SmallVector<FloatRange> ranges;
  RangeEvaluator(lookup, converted, constantLimit).evaluate(op, ranges);
  if (converted > 0) {
    double &noted = convertedIntegers[op];
    noted = std::max(noted, converted);
  }
  for (auto [lattice, range] : llvm::zip(results, ranges))
    propagateIfChanged(lattice, lattice->join(range));
  return success();
}

std::optional<double>
FloatRangeAnalysis::getConvertedIntegerMaxAbs(Operation *op) const {
  auto it = convertedIntegers.find(op);
  if (it == convertedIntegers.end())
    return std::nullopt;
  return it->second;
}

//===----------------------------------------------------------------------===//
// FloatRangeMap
//===----------------------------------------------------------------------===//

FloatRangeMap::FloatRangeMap(Operation *root, double constantLimit,
                             size_t expectedValues)
    : constantLimit(constantLimit) {
  ranges.reserve(expectedValues);
  for (Region &region : root->getRegions())
    for (Block &block : region)
      for (Operation &op : block)
        visit(&op);
}

void FloatRangeMap::noteAttained(const FloatRange &range) {
  if (!range.isInterval())
    return;
  constexpr double sentinel = std::numeric_limits<float>::max();
  auto note = [&](bool attained, double bound) {
    double magnitude = std::abs(bound);
    if (attained && magnitude != sentinel && magnitude > largestAttained)
      largestAttained = magnitude;
  };
  note(range.isLoAttained(), range.getLo());
  note(range.isHiAttained(), range.getHi());
}

void FloatRangeMap::visit(Operation *op) {
  bool structured = isa<linalg::LinalgOp>(op);
  if (op->getNumRegions() != 0 && !structured) {
    // Control flow and other ops with regions: their results are unbounded,
    // the values defined inside them are computed from what they capture.
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (Operation &nested : block)
          visit(&nested);
    return;
  }
  if (op->getNumResults() == 0)
    return;
  if (isa<tensor::EmptyOp>(op))
    return;
  // A recomputable range is not stored, but lookup can return it: its
  // bounds count for attainsBeyond, those of a payload's constants too. The
  // constants of a model's layers repeat a few attributes: one that was
  // noted is not read again.
  if (isa<arith::ConstantOp, tosa::ConstOp>(op)) {
    const void *attr = getConstantAttr(op).getAsOpaquePointer();
    RecentConstant &recent =
        recentConstants[(reinterpret_cast<uintptr_t>(attr) >> 4) %
                        std::size(recentConstants)];
    if (recent.attr == attr) {
      if (recent.recomputable)
        return;
    } else {
      std::optional<FloatRange> range = getRecomputableRange(op);
      recent = {attr, range.has_value()};
      if (range) {
        noteAttained(*range);
        return;
      }
    }
  }
  if (structured)
    for (Region &region : op->getRegions())
      region.walk([&](Operation *inner) {
        if (std::optional<FloatRange> range = getRecomputableRange(inner))
          noteAttained(*range);
      });
  double converted = 0;
  SmallVector<FloatRange, 1> results;
  auto lookupFn = [&](Value value) { return lookup(value); };
  RangeEvaluator(lookupFn, converted, constantLimit).evaluate(op, results);
  if (converted > 0)
    convertedIntegers[op] = converted;
  for (auto [result, range] : llvm::zip(op->getResults(), results)) {
    if (range == FloatRange::unbounded())
      continue;
    noteAttained(range);
    ranges[result] = range;
    recentRanges[nextRecent++ % std::size(recentRanges)] = {result, range};
  }
}

FloatRange FloatRangeMap::lookup(Value value) const {
  // A recomputable range is never stored; most other lookups are of values
  // stored a moment ago. The table (a cache miss in a big function) last.
  if (Operation *def = value.getDefiningOp())
    if (std::optional<FloatRange> range = getRecomputableRange(def))
      return *range;
  for (const RecentRange &recent : recentRanges)
    if (recent.value == value)
      return recent.range;
  auto it = ranges.find(value);
  if (it != ranges.end())
    return it->second;
  return FloatRange::unbounded();
}

/// The value of `op` if it is a scalar or splat constant, whose range is
/// recomputed on lookup instead of stored; null otherwise.
static Attribute getRecomputableValue(Operation *op) {
  if (!isa<arith::ConstantOp, tosa::ConstOp>(op))
    return {};
  Attribute value = getConstantAttr(op);
  if (isa<FloatAttr, IntegerAttr>(value))
    return value;
  auto dense = dyn_cast<DenseElementsAttr>(value);
  return dense && dense.isSplat() ? value : Attribute();
}

std::optional<FloatRange>
FloatRangeMap::getRecomputableRange(Operation *op) const {
  if (isa<tensor::EmptyOp>(op))
    return FloatRange::noElements();
  Attribute value = getRecomputableValue(op);
  if (!value)
    return std::nullopt;
  return limitConstant(getAttributeRange(value), constantLimit,
                       isFloatType(getScalarType(op->getResult(0))));
}

std::optional<double>
FloatRangeMap::getConvertedIntegerMaxAbs(Operation *op) const {
  auto it = convertedIntegers.find(op);
  if (it == convertedIntegers.end())
    return std::nullopt;
  return it->second;
}

//===----------------------------------------------------------------------===//
// FloatRangeLiveness
//===----------------------------------------------------------------------===//

LogicalResult FloatRangeLiveness::initialize(Operation *top) {
  top->walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (isa<linalg::LinalgOp>(op) && op != top)
      return WalkResult::skip();
    for (Region &region : op->getRegions())
      for (Block &block : region) {
        auto *state =
            getOrCreate<dataflow::Executable>(getProgramPointBefore(&block));
        propagateIfChanged(state, state->setToLive());
      }
    return WalkResult::advance();
  });
  return success();
}

FloatRange mlir::amp::getFloatRange(const DataFlowSolver &solver, Value value) {
  const auto *lattice = solver.lookupState<FloatRangeLattice>(value);
  if (!lattice || lattice->getValue().isUninitialized())
    return FloatRange::unbounded();
  return lattice->getValue();
}
