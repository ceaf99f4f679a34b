//===- PlanCastPlacement.cpp - Gray ops by a minimum cut in bytes ---------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The min-bytes phase of a PrecisionPlan (PlanState.h): the gray ops still
// free to run in either type are decided by the IR-free problem of
// CastPlacement.h, built here from the function:
//
//  1. the free ops, and where each value is made: a free op, or a fixed side
//     (an FP32 op, an op in the target type, or Any: a constant, an init
//     tensor, a widened low value, given to each reader in its own type);
//  2. a gray op whose neighbours are all fixed low ops or made anew for each
//     reader is a group of its own that touches nothing in FP32: it runs low
//     if it touches anything low, decided here without the problem (most
//     gray ops of a network: a clamp between two convolutions);
//  3. the values the other free ops read or make, with their readers, the
//     green ops' outputs (anchors), and the values of large growth
//     (Magnitude.h) that a free op brings back down (penalties);
//  4. the solution, and the reason of the ops that bring a large value down
//     in FP32 and whose result is narrowed after them.
//
//===----------------------------------------------------------------------===//

#include "PlanState.h"

#include "amp/IR/AmpDialect.h"
#include "amp/Utils/CastUtils.h"
#include "amp/Utils/ConversionMemo.h"
#include "amp/Utils/TypeUtils.h"

#include "amp/Analysis/CastPlacement.h"
#include "amp/Analysis/Magnitude.h"

using namespace mlir;
using namespace mlir::amp;
using namespace mlir::amp::plan;

namespace {

using Problem = CastPlacementProblem;
constexpr int kHigh = Problem::High, kLow = Problem::Low, kAny = Problem::Any;

/// The elements a value moves, as the problem counts them.
int64_t getElements(Value value) {
  return getStaticElementCount(value.getType());
}

class CastPlacer : PlanPhase {
public:
  CastPlacer(PlanState &state, const PlanInputs &in) : PlanPhase(state, in) {}

  void run();

private:
  /// Where `value` is made: a free op's plan index, or a side. `near`: the
  /// index of an op that reads or makes the value.
  int producerOf(Value value, size_t near);
  /// The output of a green op that runs in the target type.
  bool isGreenOutput(Value value, size_t near);
  /// A use by a fixed op that reads the value in the target type (as the
  /// problem counts it: a Low reader).
  bool isFixedLowRead(OpOperand &use, size_t near);
  /// Whether a free op that reads `value` brings its large growth back
  /// down: such a value is decided by the problem, where the penalty is,
  /// whatever its neighbours, so that the rule does not depend on how the
  /// ops around it happen to be grouped (a second run, which sees the
  /// first run's casts, groups them differently).
  bool isShrunkLater(Value value, size_t near);
  /// Whether a fixed op reads `value` in the target type, for values made
  /// anew for each reader.
  bool hasFixedLowReader(Value value, size_t near);
  /// False if `user` certainly does not bring `value`'s growth down by the
  /// large-growth factor (it only adds or moves it): no growth is computed
  /// for it. (Exact only for a factor above 1.)
  bool mayShrink(Operation *user, Value value) const {
    return options.largeGrowth <= 1 || MagnitudeMap::mayShrink(user, value);
  }
  /// Step 2 for free op `i`: true if it was decided.
  bool decideAlone(size_t i);
  /// Step 3.
  void buildProblem();
  void addReaders();
  void addPenalties();
  /// Step 4.
  void applySolution();

  /// The gray ops free to run in either type (before and after step 2).
  SmallVector<bool> isFree, isFreeAtStart;
  /// Growths, computed on the first question.
  MagnitudeMap magnitudes;
  /// Answers remembered for values of many readers (a scalar constant that
  /// every layer reads is scanned once, not once per reader).
  DenseMap<Value, bool> shrunkLater, readLowByFixed;

  Problem problem;
  /// A free op's id in the problem, by plan index, and back.
  std::vector<unsigned> problemOp, planOp;
  /// The problem's values.
  DenseMap<Value, unsigned> valueOf;
  std::vector<Value> values;
  /// The free ops that bring a value of large growth back down.
  struct Shrinking {
    unsigned op;
    double inputGrowth, resultGrowth;
  };
  SmallVector<Shrinking, 4> shrinking;
};

/// Values with more readers than this are scanned once (their answers are
/// remembered), and make their readers go to the problem rather than be
/// decided alone.
constexpr unsigned kManyUses = 8;

int CastPlacer::producerOf(Value value, size_t near) {
  Operation *def = value.getDefiningOp();
  if (!def) {
    auto arg = cast<BlockArgument>(value);
    return !options.keepIOTypes && arg.getOwner()->isEntryBlock() &&
                   arg.getOwner()->getParentOp() == root &&
                   isPublicFunction(root)
               ? kAny
               : kHigh;
  }
  if (isRematerializable(def))
    return kAny;
  if (Value source = getFloatCastSource(def))
    return getScalarType(source.getType()) == options.target ? kAny : kHigh;
  std::optional<unsigned> i = findIndex(def, near);
  if (!i)
    return kHigh;
  if (isFree[*i])
    return *i;
  const OpInfo &info = infos[*i];
  if (!info.decision.lowPrecision || info.overflowType)
    return kHigh;
  Type native = options.target;
  if (auto iface = getMixedPrecisionInterface(def))
    native = iface.getConvertedResultElementType(options.target,
                                                 info.decision.accumulateType);
  return native == options.target ? kLow : kHigh;
}

bool CastPlacer::isGreenOutput(Value value, size_t near) {
  Operation *def = value.getDefiningOp();
  std::optional<unsigned> i = def ? findIndex(def, near) : std::nullopt;
  return i && infos[*i].decision.color == Color::green &&
         infos[*i].decision.lowPrecision;
}

bool CastPlacer::isFixedLowRead(OpOperand &use, size_t near) {
  std::optional<unsigned> j = findIndex(use.getOwner(), near);
  if (!j || isFree[*j])
    return false;
  const OpInfo &reader = infos[*j];
  if (!reader.decision.lowPrecision || reader.overflowType)
    return false;
  unsigned number = use.getOperandNumber();
  if (llvm::is_contained(state.getDataOperands(*j), number))
    return true;
  return reader.decision.accumulateType == options.target &&
         llvm::is_contained(state.getAccumulatorOperands(*j), number);
}

bool CastPlacer::isShrunkLater(Value value, size_t near) {
  double large = options.largeGrowth;
  if (large <= 0 || !isConvertible(value))
    return false;
  bool remember = value.hasNUsesOrMore(kManyUses + 1);
  if (remember)
    if (auto it = shrunkLater.find(value); it != shrunkLater.end())
      return it->second;
  auto scan = [&] {
    std::optional<double> growth;
    for (Operation *user : value.getUsers()) {
      std::optional<unsigned> j = findIndex(user, near);
      if (!j || !isFreeAtStart[*j] || !mayShrink(user, value))
        continue;
      if (!growth)
        growth = magnitudes.lookup(value).growth;
      if (*growth < large)
        return false;
      if (magnitudes.getResultGrowth(user) * large <= *growth)
        return true;
    }
    return false;
  };
  bool shrunk = scan();
  if (remember)
    shrunkLater[value] = shrunk;
  return shrunk;
}

bool CastPlacer::hasFixedLowReader(Value value, size_t near) {
  auto [it, inserted] = readLowByFixed.try_emplace(value, false);
  if (inserted)
    it->second = llvm::any_of(value.getUses(), [&](OpOperand &use) {
      return isFixedLowRead(use, near);
    });
  return it->second;
}

bool CastPlacer::decideAlone(size_t i) {
  Operation *op = ops[i];
  if (llvm::any_of(getDataInputs(i),
                   [&](Value input) { return isShrunkLater(input, i); }) ||
      llvm::any_of(op->getResults(),
                   [&](Value result) { return isShrunkLater(result, i); }))
    return false;
  // Every other reader of its inputs and results must be a fixed op that
  // reads them low; whatever else the op touches makes it low.
  bool touchesLow = false;
  auto othersReadLow = [&](Value value) {
    if (value.hasNUsesOrMore(kManyUses + 1))
      return false;
    for (OpOperand &use : value.getUses()) {
      if (use.getOwner() == op)
        continue;
      touchesLow = true;
      if (!isFixedLowRead(use, i))
        return false;
    }
    return true;
  };
  for (Value input : getDataInputs(i)) {
    int producer = producerOf(input, i);
    if (producer != kLow && producer != kAny)
      return false;
    touchesLow |= producer == kLow || isGreenOutput(input, i);
    // A value made anew for each reader (a constant, an init tensor) joins
    // no group: its other readers do not matter, but one that reads it low
    // makes it low for this op too (as the problem counts it).
    if (producer == kAny) {
      touchesLow |= hasFixedLowReader(input, i);
      continue;
    }
    if (!othersReadLow(input))
      return false;
  }
  for (Value result : op->getResults())
    if (isConvertible(result) && !othersReadLow(result))
      return false;
  infos[i].decision.lowPrecision = touchesLow;
  isFree[i] = false;
  return true;
}

void CastPlacer::buildProblem() {
  problemOp.assign(ops.size(), ~0u);
  for (auto [i, free] : llvm::enumerate(isFree)) {
    if (!free)
      continue;
    int64_t elements = 0;
    for (Value input : getDataInputs(i))
      elements += getElements(input);
    for (Value result : ops[i]->getResults())
      if (isConvertible(result))
        elements += getElements(result);
    problemOp[i] = problem.addOp(elements);
    planOp.push_back(i);
  }
  // Every value a free op reads or makes, in first-seen order. Other values
  // (a green op's weights, values only fixed ops touch) are no part of it.
  auto addValue = [&](Value value, size_t near) {
    if (!valueOf.try_emplace(value, values.size()).second)
      return;
    int producer = producerOf(value, near);
    unsigned id = problem.addValue(
        getElements(value), producer >= 0 ? problemOp[producer] : producer);
    values.push_back(value);
    if (producer == kAny && isShrunkLater(value, near))
      problem.joinReaders(id);
    if (producer == kHigh && isGreenOutput(value, near))
      problem.anchor(id);
  };
  for (auto [i, free] : llvm::enumerate(isFree)) {
    if (!free)
      continue;
    for (Value input : getDataInputs(i))
      addValue(input, i);
    for (Value result : ops[i]->getResults())
      if (isConvertible(result))
        addValue(result, i);
  }
  addReaders();
  addPenalties();
}

void CastPlacer::addReaders() {
  auto addReader = [&](Value value, int reader) {
    auto it = valueOf.find(value);
    if (it != valueOf.end())
      problem.addReader(it->second, reader);
  };
  bool lowReturns = !options.keepIOTypes && isPublicFunction(root);
  for (const PlanInputs::Reader &entry : in.readers) {
    if (entry.info >= 0 && isFree[entry.info]) {
      for (Value input : getDataInputs(entry.info))
        addReader(input, problemOp[entry.info]);
      continue;
    }
    if (entry.info >= 0) {
      const OpInfo &info = infos[entry.info];
      if (info.decision.lowPrecision && !info.overflowType) {
        for (Value input : getDataInputs(entry.info))
          addReader(input, kLow);
        bool accumulateLow = info.decision.accumulateType == options.target;
        for (unsigned index : state.getAccumulatorOperands(entry.info))
          addReader(entry.op->getOperand(index),
                    accumulateLow ? kLow : kHigh);
        continue;
      }
    }
    bool isReturn = lowReturns && entry.op->hasTrait<OpTrait::ReturnLike>() &&
                    entry.op->getParentOp() == root;
    for (Value value : in.getReads(entry))
      addReader(value, isReturn ? kAny : kHigh);
  }
}

void CastPlacer::addPenalties() {
  // A value of large growth that a free reader brings back down (a division
  // by the count a sum added up, a normalization): handling it in 16 bits
  // costs more, so that it is narrowed after that reader where this costs
  // no more. (Penalized, it joins its readers' group even when it is made
  // anew for each, so that the rule does not depend on whether an FP32
  // neighbour happens to be there.)
  double large = options.largeGrowth;
  if (large <= 0)
    return;
  for (auto [id, value] : llvm::enumerate(values)) {
    ArrayRef<unsigned> readers = problem.getReaders(id);
    if (!problem.joinsGroup(id) ||
        llvm::none_of(readers, [&, value = value](unsigned reader) {
          return mayShrink(ops[planOp[reader]], value);
        }))
      continue;
    double growth = magnitudes.lookup(value).growth;
    if (growth < large)
      continue;
    bool penalized = false;
    for (unsigned reader : readers) {
      unsigned i = planOp[reader];
      if (!mayShrink(ops[i], value))
        continue;
      double result = magnitudes.getResultGrowth(ops[i]);
      if (result * large > growth)
        continue;
      shrinking.push_back({i, growth, result});
      penalized = true;
    }
    if (penalized)
      problem.penalize(id);
  }
}

void CastPlacer::applySolution() {
  for (auto [id, i] : llvm::enumerate(planOp))
    infos[i].decision.lowPrecision = problem.runsLow(id);
  // The ops that brought a large value down in FP32 and whose result is
  // narrowed after them: the rule decided them.
  for (const Shrinking &s : shrinking) {
    OpDecision &d = infos[s.op].decision;
    if (d.lowPrecision)
      continue;
    bool narrowedAfter = llvm::any_of(ops[s.op]->getResults(), [&](Value r) {
      auto it = valueOf.find(r);
      return it != valueOf.end() && problem.isReadLow(it->second);
    });
    if (!narrowedAfter)
      continue;
    d.reason = Reason::NarrowedAfterNormalization;
    d.inputGrowth = s.inputGrowth;
    d.resultGrowth = s.resultGrowth;
  }
}

void CastPlacer::run() {
  // The variables: gray ops free to run in either type.
  isFree.assign(ops.size(), false);
  for (auto [i, info] : llvm::enumerate(infos)) {
    const OpDecision &d = info.decision;
    isFree[i] = d.color == Color::gray && !info.pinned && !info.keptHigh &&
                !info.overflowType && d.reason != Reason::ConstantOutOfRange &&
                d.reason != Reason::UnsupportedTypes;
  }
  isFreeAtStart = isFree;
  bool anyLeft = false;
  for (size_t i = 0; i < ops.size(); ++i)
    if (isFree[i] && !decideAlone(i))
      anyLeft = true;
  // (Then nothing is left for the problem in most networks.)
  if (!anyLeft)
    return;
  buildProblem();
  problem.solve();
  applySolution();
}

} // namespace

void plan::placeCasts(PlanState &state, const PlanInputs &inputs) {
  CastPlacer(state, inputs).run();
}
