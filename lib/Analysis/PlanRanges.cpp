//===- PlanRanges.cpp - Ops that value ranges keep out of a type ----------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The range phase of a PrecisionPlan (PlanState.h): an op whose values
// provably leave the target's finite range (a bound some element attains,
// or a range observed on sample inputs), whose float attributes do not fit,
// or that converts integers beyond the target's exact-integer limit runs in
// the overflow type if one is set and it fits there, otherwise in FP32. A
// green op whose inputs fit but whose output does not keeps low inputs with
// an FP32 (or overflow-type) output. The range analysis (FloatRange.h) is
// this phase's own, freed when it returns.
//
//===----------------------------------------------------------------------===//

#include "PlanState.h"

#include "amp/IR/AmpDialect.h"
#include "amp/Utils/CastUtils.h"
#include "amp/Utils/ConversionMemo.h"
#include "amp/Utils/TypeUtils.h"


#include "mlir/Analysis/DataFlowFramework.h"
#include "llvm/Support/Format.h"

using namespace mlir;
using namespace mlir::amp;
using namespace mlir::amp::plan;

namespace {
class RangePhase : PlanPhase {
public:
  RangePhase(PlanState &state, const PlanInputs &in)
      : PlanPhase(state, in), hasAnnotations(state.hasAnnotations) {}

  void apply();

private:
  /// Why an op cannot use a type, from ranges or attributes.
  struct RangeProblem {
    Reason reason;
    FloatRange range;
    /// Only the op's own output does not fit (its inputs do).
    bool outputOnly = false;
  };
  /// The range of a value, and the integers an op converts to floats.
  FloatRange getRange(Value value) const;
  std::optional<double> getConvertedIntegers(Operation *op) const;
  std::optional<RangeProblem> checkRanges(size_t i, FloatType type);
  std::optional<RangeProblem> checkValue(Value value, FloatType type);

  bool hasAnnotations;
  /// The range analysis (null without it).
  std::unique_ptr<FloatRangeMap> rangeMap;
  std::unique_ptr<DataFlowSolver> solver;
  FloatRangeAnalysis *rangeAnalysis = nullptr;
};
} // namespace

FloatRange RangePhase::getRange(Value value) const {
  if (rangeMap)
    return rangeMap->lookup(value);
  if (rangeAnalysis)
    return getFloatRange(*solver, value);
  return FloatRange::unbounded();
}

std::optional<double> RangePhase::getConvertedIntegers(Operation *op) const {
  if (rangeMap)
    return rangeMap->getConvertedIntegerMaxAbs(op);
  if (rangeAnalysis)
    return rangeAnalysis->getConvertedIntegerMaxAbs(op);
  return std::nullopt;
}

std::optional<RangePhase::RangeProblem>
RangePhase::checkValue(Value value, FloatType type) {
  double largest = getLargestFinite(type);
  if (rangeMap || rangeAnalysis) {
    // +-FLT_MAX is the sentinel of "lowest"/"highest" (a max-reduction's
    // init), which maps to the type's own largest value, as in constants.
    constexpr double sentinel = std::numeric_limits<float>::max();
    auto exceeds = [&](double bound) {
      return std::abs(bound) > largest && std::abs(bound) != sentinel;
    };
    FloatRange range = getRange(value);
    if ((range.isLoAttained() && exceeds(range.getLo())) ||
        (range.isHiAttained() && exceeds(range.getHi())))
      return RangeProblem{Reason::ValueOutOfRange, range};
  }
  if (options.observedMaxAbs)
    if (auto result = dyn_cast<OpResult>(value))
      if (std::optional<double> m = options.observedMaxAbs(result);
          m && *m * options.observedMargin > largest)
        return RangeProblem{Reason::ObservedRange,
                            FloatRange::get(-*m, *m, false, false)};
  return std::nullopt;
}

std::optional<RangePhase::RangeProblem>
RangePhase::checkRanges(size_t i, FloatType type) {
  Operation *op = ops[i];
  if (std::optional<double> m = getConvertedIntegers(op);
      m && *m > getExactIntegerLimit(type))
    return RangeProblem{Reason::IntegerNotExact, FloatRange::point(*m)};
  // (The attributes are read again only when one does not fit.)
  if (!options.clampConstants &&
      infos[i].largestBound > getLargestFinite(type)) {
    SmallVector<double, 2> bounds;
    getBoundAttributes(op, bounds);
    for (double bound : bounds)
      if (std::abs(bound) > getLargestFinite(type))
        return RangeProblem{Reason::ConstantOutOfRange,
                            FloatRange::point(bound)};
  }
  // Values: none can leave the type when no range attains a bound beyond it
  // and nothing was observed (most functions): no lookups per op.
  if (!options.observedMaxAbs && !rangeAnalysis &&
      (!rangeMap || !rangeMap->attainsBeyond(getLargestFinite(type))))
    return std::nullopt;
  // Inputs: constants and init tensors are checked as constants (and may be
  // clamped with clamp-constants); the output of an op whose precision an
  // annotation fixed is the user's word (a second run sees it in the target
  // type already).
  for (Value input : getDataInputs(i)) {
    Operation *def = input.getDefiningOp();
    if (isRematerializable(def))
      continue;
    // (Looked up only when the function has annotations: a hash lookup
    // per input, most of them cache misses in a big function.)
    if (std::optional<unsigned> producer =
            def && hasAnnotations ? findIndex(def, i) : std::nullopt;
        producer && infos[*producer].pinned &&
        infos[*producer].decision.reason == Reason::Annotation)
      continue;
    if (std::optional<RangeProblem> problem = checkValue(input, type))
      return problem;
  }
  for (Value result : op->getResults()) {
    if (!isConvertible(result))
      continue;
    if (std::optional<RangeProblem> problem = checkValue(result, type)) {
      problem->outputOnly = true;
      return problem;
    }
  }
  return std::nullopt;
}

void RangePhase::apply() {
  // With clamp-constants, constants beyond the target are clamped: their
  // values prove nothing.
  double constantLimit = options.clampConstants
                             ? getLargestFinite(options.target)
                             : std::numeric_limits<double>::infinity();
  switch (options.rangeAnalysis) {
  case RangeAnalysisKind::Off:
    break;
  case RangeAnalysisKind::Walk:
    // Most stored ranges are those of the results of the ops of the plan.
    rangeMap = std::make_unique<FloatRangeMap>(root, constantLimit,
                                               ops.size());
    break;
  case RangeAnalysisKind::Dataflow:
    solver = std::make_unique<DataFlowSolver>();
    solver->load<FloatRangeLiveness>();
    rangeAnalysis = solver->load<FloatRangeAnalysis>(constantLimit);
    if (failed(solver->initializeAndRun(root))) {
      rangeAnalysis = nullptr;
      solver.reset();
    }
    break;
  }
  FloatType target = options.target, overflow = options.overflowType;
  auto f32 = Float32Type::get(root->getContext());
  for (auto [i, op] : llvm::enumerate(ops)) {
    OpInfo &info = infos[i];
    OpDecision &d = info.decision;
    // Annotations that fix a color or a precision are the user's word.
    if (d.reason == Reason::UnsupportedTypes || d.color == Color::red ||
        (d.reason == Reason::Annotation && info.pinned))
      continue;
    std::optional<RangeProblem> problem = checkRanges(i, target);
    if (!problem)
      continue;
    d.reason = problem->reason;
    d.range = problem->range;
    d.rangeType = target;
    if (d.reason == Reason::ObservedRange)
      d.rangeMargin = options.observedMargin;
    auto iface = getMixedPrecisionInterface(op);
    bool separateOutput =
        d.color == Color::green && iface &&
        iface.getConvertedResultElementType(target, f32) != target;
    std::optional<RangeProblem> inOverflow;
    if (overflow)
      inOverflow = checkRanges(i, overflow);
    std::string text;
    llvm::raw_string_ostream remark(text);
    remark << "'" << op->getName() << "' ";
    if (problem->outputOnly && separateOutput) {
      // Low inputs, FP32 accumulation, and an output that holds the values.
      d.accumulateType = f32;
      d.outputType = overflow && !inOverflow ? overflow : f32;
      remark << "keeps " << target << " inputs with an " << d.outputType
             << " output: " << describeRangeReason(d);
      if (options.diagnostics)
        mlir::emitRemark(op->getLoc(), text);
      continue;
    }
    if (overflow && !inOverflow) {
      info.overflowType = true;
      d.computeType = overflow;
      if (d.color != Color::green || d.accumulateType == target)
        d.accumulateType = overflow;
      if (d.color != Color::green || d.outputType == target)
        d.outputType = overflow;
      remark << "runs in " << overflow << " (overflow-type): ";
    } else {
      info.keptHigh = true;
      remark << "stays in FP32: ";
      if (inOverflow)
        d.rangeType = overflow;
    }
    if (options.diagnostics)
      mlir::emitRemark(op->getLoc(), text + describeRangeReason(d));
    info.pinned = true;
  }
}

std::string mlir::amp::describeRangeReason(const OpDecision &d) {
  std::string text;
  llvm::raw_string_ostream os(text);
  if (d.reason == Reason::NarrowedAfterNormalization) {
    os << "its input grows to " << llvm::format("%g", d.inputGrowth)
       << "x the function's inputs and it brings it back to "
       << llvm::format("%g", d.resultGrowth)
       << "x: the value is narrowed after it";
    return text;
  }
  if (!d.range.isInterval() || !d.rangeType)
    return text;
  switch (d.reason) {
  case Reason::IntegerNotExact:
    os << "it converts integers up to " << llvm::format("%g", d.range.getHi())
       << " to floats, beyond the exact-integer limit of " << d.rangeType
       << " (" << llvm::format("%g", getExactIntegerLimit(d.rangeType)) << ")";
    return text;
  case Reason::ConstantOutOfRange:
    os << "its float attribute " << llvm::format("%g", d.range.getHi())
       << " does not fit " << d.rangeType << " (largest finite "
       << llvm::format("%g", getLargestFinite(d.rangeType)) << ")";
    return text;
  case Reason::ObservedRange:
    os << "observed range " << d.range << " leaves " << d.rangeType;
    if (d.rangeMargin != 1.0)
      os << " with the safety margin x" << llvm::format("%g", d.rangeMargin)
         << " (largest finite "
         << llvm::format("%g", getLargestFinite(d.rangeType)) << ", "
         << llvm::format("%g", getLargestFinite(d.rangeType) / d.rangeMargin)
         << " with the margin)";
    else
      os << " (largest finite "
         << llvm::format("%g", getLargestFinite(d.rangeType)) << ")";
    return text;
  default:
    os << "value range " << d.range << " leaves " << d.rangeType
       << " (largest finite "
       << llvm::format("%g", getLargestFinite(d.rangeType)) << ")";
    return text;
  }
}


void plan::applyRanges(PlanState &state, const PlanInputs &inputs) {
  RangePhase(state, inputs).apply();
}
