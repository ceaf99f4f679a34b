//===- FloatRangeAnalysis.cpp - Value ranges on a DataFlowSolver ----------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// See FloatRange.h. FloatRangeAnalysis runs the transfer functions of
// RangeEvaluator.h as a sparse forward analysis of MLIR's dataflow
// framework, one lattice per value; FloatRangeLiveness is the cheap
// liveness it runs after (every block live but structured ops' payloads,
// which the evaluator reads itself).
//
//===----------------------------------------------------------------------===//

#include "RangeEvaluator.h"

#include "amp/Analysis/FloatRange.h"

#include "mlir/Analysis/DataFlow/DeadCodeAnalysis.h"
#include "mlir/Analysis/DataFlowFramework.h"

using namespace mlir;
using namespace mlir::amp;
using namespace mlir::amp::floatrange;

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
  return findConvertedInteger(convertedIntegers, op);
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
