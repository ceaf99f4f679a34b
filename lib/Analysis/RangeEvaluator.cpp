//===- RangeEvaluator.cpp - Dispatch of the range transfer functions ------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// See RangeEvaluator.h. This file holds the dispatch: a structured op is
// evaluated from its payload, an op with one result by the first family of
// transfer functions that lists it (a table, tried in order). It also holds
// the family of constants: the ranges of scalar, splat and dense
// attributes.
//
//===----------------------------------------------------------------------===//

#include "RangeEvaluator.h"

#include "amp/Utils/CastUtils.h"
#include "amp/Utils/ConversionMemo.h"
#include "amp/Utils/FloatConversion.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/Matchers.h"

#include <cstring>

using namespace mlir;
using namespace mlir::amp;
using namespace mlir::amp::floatrange;

//===----------------------------------------------------------------------===//
// Constants
//===----------------------------------------------------------------------===//

/// The range of the one element of a splat constant.
static FloatRange getSplatRange(DenseElementsAttr dense) {
  Type elt = dense.getElementType();
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
    return FloatRange::point(dense.getSplatValue<APFloat>().convertToDouble());
  if (elt.isInteger(1))
    return FloatRange::point(dense.getSplatValue<APInt>().getZExtValue());
  if (elt.isIntOrIndex())
    return FloatRange::point(
        static_cast<double>(dense.getSplatValue<APInt>().getSExtValue()));
  return FloatRange::unbounded();
}

/// The range of the elements of a dense constant that is not a splat.
static FloatRange getDenseRange(DenseElementsAttr dense) {
  Type elt = dense.getElementType();
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

FloatRange mlir::amp::floatrange::getAttributeRange(Attribute attr) {
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
  if (dense.isSplat())
    return getSplatRange(dense);
  return getDenseRange(dense);
}

std::optional<FloatRange> RangeEvaluator::evaluateConstant(Operation *op) {
  // Constants (arith.constant, tosa.const and any ConstantLike op, which
  // has no operands: a cheap test before the trait lookup).
  if (!(isa<arith::ConstantOp, tosa::ConstOp>(op) ||
        (op->getNumOperands() == 0 &&
         op->hasTrait<OpTrait::ConstantLike>())))
    return std::nullopt;
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

//===----------------------------------------------------------------------===//
// Dispatch
//===----------------------------------------------------------------------===//

FloatRange RangeEvaluator::evaluateSingle(Operation *op) {
  // The families after constants, in the order they are tried (elementwise
  // arithmetic first: most of the ops of payloads).
  static constexpr FamilyFn kFamilies[] = {
      &RangeEvaluator::evaluateArithmetic,
      &RangeEvaluator::evaluateConversion,
      &RangeEvaluator::evaluateDataMovement,
      &RangeEvaluator::evaluateMath,
      &RangeEvaluator::evaluateReduction,
  };
  if (std::optional<FloatRange> range = evaluateConstant(op))
    return *range;
  for (FamilyFn family : kFamilies)
    if (std::optional<FloatRange> range = (this->*family)(op))
      return *range;
  return FloatRange::unbounded();
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
