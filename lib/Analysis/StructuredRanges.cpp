//===- StructuredRanges.cpp - Ranges of structured op payloads ------------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The transfer function of structured (linalg) ops (RangeEvaluator.h): the
// payload is evaluated op by op, its block arguments bound by the ranges of
// the operands they read and linalg.index by the loop extents. A result of
// an op without reduction loops is the range of what the payload yields; a
// reduction's combines the init with the yielded term, a sum by the number
// of elements each result element sums, a maximum or minimum by a join.
//
//===----------------------------------------------------------------------===//

#include "RangeEvaluator.h"

#include "amp/Utils/LinalgUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace mlir::amp;
using namespace mlir::amp::floatrange;

namespace {

/// The ranges of the values of one structured op's payload: its block
/// arguments bound by the operands they read, the rest as evaluated; values
/// from above through the evaluator's lookup.
class PayloadScope {
public:
  PayloadScope(linalg::LinalgOp op, RangeEvaluator::Lookup outer)
      : op(op), outer(outer) {
    for (OpOperand &operand : op->getOpOperands())
      if (BlockArgument arg = op.getMatchingBlockArgument(&operand))
        local[arg] = outer(operand.get());
  }

  /// The range of `v`, a payload value or one from above.
  FloatRange lookup(Value v) const {
    auto it = local.find(v);
    return it != local.end() ? it->second : outer(v);
  }
  /// The range of a value from above.
  FloatRange lookupOuter(Value v) const { return outer(v); }
  void set(Value v, const FloatRange &range) { local[v] = range; }

  /// The loop extents, computed only for a payload that asks (linalg.index,
  /// a sum of bounded terms): most payloads of a model do not.
  ArrayRef<int64_t> getExtents() {
    if (!extents)
      extents = getStaticLoopExtents(op);
    return *extents;
  }

  linalg::LinalgOp getOp() const { return op; }

private:
  linalg::LinalgOp op;
  RangeEvaluator::Lookup outer;
  llvm::SmallDenseMap<Value, FloatRange, 16> local;
  std::optional<SmallVector<int64_t>> extents;
};

} // namespace

/// The range of linalg.index of a loop of this extent.
static FloatRange getIndexRange(int64_t extent) {
  return ShapedType::isDynamic(extent) ? FloatRange::get(0, kInf, true, false)
         : extent > 0 ? FloatRange::get(0, extent - 1, true, true)
                      : FloatRange::noElements();
}

/// The number of elements each result element of `op` sums (-1: unknown).
static int64_t getReducedCount(PayloadScope &scope) {
  int64_t reduced = 1;
  for (auto [extent, type] : llvm::zip(
           scope.getExtents(), scope.getOp().getIteratorTypesArray())) {
    if (type != utils::IteratorType::reduction)
      continue;
    if (ShapedType::isDynamic(extent) || reduced < 0)
      reduced = -1;
    else
      reduced *= extent;
  }
  return reduced;
}

/// True if a sum of `term` is the same over any count of elements but zero
/// and no operand of `op` is without elements.
static bool hasSumOverAnyCount(linalg::LinalgOp op, const FloatRange &term) {
  // A term whose bounds are each 0 or infinite (the common case:
  // activations, unbounded or on one side of 0) has the same sum over
  // any count but zero, which only an operand without elements gives:
  // the loop extents are not needed.
  auto zeroOrInf = [](double bound) {
    return bound == 0 || std::isinf(bound);
  };
  return isKnown(term) && !term.isPoint() && zeroOrInf(term.getLo()) &&
         zeroOrInf(term.getHi()) &&
         llvm::none_of(op->getOperandTypes(), [](Type type) {
           auto shaped = dyn_cast<ShapedType>(type);
           return shaped && shaped.hasStaticShape() &&
                  shaped.getNumElements() == 0;
         });
}

/// The range of result `i` of a reduction: the yielded value combines the
/// running value (the init argument) with a term of each iteration.
static FloatRange evaluateReductionResult(PayloadScope &scope, Block &body,
                                          unsigned i, Value yielded) {
  linalg::LinalgOp op = scope.getOp();
  OpOperand &initOperand = getInitOperands(op)[i];
  BlockArgument acc = op.getMatchingBlockArgument(&initOperand);
  FloatRange init = scope.lookupOuter(initOperand.get());
  Operation *combiner = yielded.getDefiningOp();
  if (!combiner || combiner->getNumOperands() != 2 ||
      combiner->getBlock() != &body ||
      !llvm::is_contained(combiner->getOperands(), acc))
    return FloatRange::unbounded();
  Value termValue = combiner->getOperand(0) == acc ? combiner->getOperand(1)
                                                   : combiner->getOperand(0);
  FloatRange term = scope.lookup(termValue);
  bool dependsOnAcc = termValue == acc;
  if (dependsOnAcc)
    return FloatRange::unbounded();
  if (isa<arith::AddFOp, arith::AddIOp>(combiner)) {
    if (!isKnown(term))
      return FloatRange::unbounded();
    if (hasSumOverAnyCount(op, term))
      return add(init,
                 FloatRange::get(term.getLo(), term.getHi(), false, false));
    return add(init, sumOf(term, getReducedCount(scope)));
  }
  if (isa<arith::MaximumFOp, arith::MaxNumFOp, arith::MinimumFOp,
          arith::MinNumFOp>(combiner))
    return FloatRange::join(
        init, FloatRange::get(term.getLo(), term.getHi(), false, false));
  return FloatRange::unbounded();
}

void RangeEvaluator::evaluateStructured(linalg::LinalgOp op,
                                        SmallVectorImpl<FloatRange> &results) {
  Block &body = op->getRegion(0).front();
  PayloadScope scope(op, lookup);
  auto inner = [&](Value v) { return scope.lookup(v); };
  RangeEvaluator payload(inner, convertedIntegers, constantLimit);
  SmallVector<FloatRange> ranges;
  for (Operation &nested : body.without_terminator()) {
    ranges.clear();
    if (auto index = dyn_cast<linalg::IndexOp>(nested)) {
      ArrayRef<int64_t> loops = scope.getExtents();
      ranges.push_back(getIndexRange(index.getDim() < loops.size()
                                         ? loops[index.getDim()]
                                         : ShapedType::kDynamic));
    } else if (nested.getNumRegions() != 0) {
      ranges.assign(nested.getNumResults(), FloatRange::unbounded());
    } else {
      payload.evaluate(&nested, ranges);
    }
    for (auto [result, range] : llvm::zip(nested.getResults(), ranges))
      scope.set(result, range);
  }

  Operation *yield = body.getTerminator();
  bool reduces = op.getNumReductionLoops() != 0;
  for (OpResult result : op->getResults()) {
    Value yielded = yield->getOperand(result.getResultNumber());
    FloatRange value = scope.lookup(yielded);
    results.push_back(reduces ? evaluateReductionResult(
                                    scope, body, result.getResultNumber(),
                                    yielded)
                              : value);
  }
}
