//===- FloatRangeMap.cpp - Value ranges by one walk -----------------------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// See FloatRange.h. FloatRangeMap runs the transfer functions of
// RangeEvaluator.h in one walk in program order, storing only the bounded
// ranges; those of scalar and splat constants and of empty tensors are
// recomputed on lookup instead, and recent constants and ranges are looked
// at before the table.
//
//===----------------------------------------------------------------------===//

#include "RangeEvaluator.h"

#include "amp/Analysis/FloatRange.h"
#include "amp/Utils/CastUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"

using namespace mlir;
using namespace mlir::amp;
using namespace mlir::amp::floatrange;

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
  return findConvertedInteger(convertedIntegers, op);
}
