//===- PlanSweeps.cpp - The forward and backward sweeps -------------------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The sweeps of a PrecisionPlan (PlanState.h). Forward, in program order:
// green ops run in the target type; a gray op is a candidate for it when
// every float data input is available in it (a low-precision result, a
// green op's output, a constant that fits, an exact widening of a low
// value). With fewest-casts, backward, in reverse order: a candidate whose
// results are all consumed in FP32 stays in FP32 when that needs no more
// casts than running it low and casting its results up. The value states
// are this phase's own, freed when it returns.
//
//===----------------------------------------------------------------------===//

#include "PlanState.h"

#include "amp/IR/AmpDialect.h"
#include "amp/Utils/CastUtils.h"
#include "amp/Utils/ConversionMemo.h"
#include "amp/Utils/TypeUtils.h"


#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace mlir;
using namespace mlir::amp;
using namespace mlir::amp::plan;

namespace {
class Sweeps : PlanPhase {
public:
  Sweeps(PlanState &state, const PlanInputs &in)
      : PlanPhase(state, in), readers(in.readers),
        constantSummary(state.constantSummary) {}

  void forwardSweep();
  void countUses();
  void backwardSweep();

private:
  struct ValueState {
    /// A low-precision consumer can read the value in the target type
    /// without a runtime cast (other than a green op's own output cast).
    bool lowAvailable = false;
    /// The value exists in the target type after conversion.
    bool nativeLow = false;
    /// Uses that read the value in the target type / in FP32.
    unsigned lowUses = 0, highUses = 0;
  };
  /// `near`, in these: the index of an op close to the value's producer
  /// (see PrecisionPlan::findIndex).
  bool isLowAvailable(Value value, std::optional<size_t> near);
  bool constantFits(Operation *constOp);
  bool isFreeInFP32(Value value, std::optional<size_t> near);
  /// The index of the op of `ops` whose first result is `value`, if any: its
  /// state is in `resultStates`.
  std::optional<unsigned> findResultIndex(Value value,
                                          std::optional<size_t> near) const;
  /// The state of `value` (made if absent) / null if it has none yet.
  ValueState &valueState(Value value, std::optional<size_t> near);
  const ValueState *findState(Value value, std::optional<size_t> near);

  ArrayRef<Operation *> getPayloadConstants(size_t i) const {
    return in.getPayloadConstants(i);
  }
  ArrayRef<Value> getReads(const PlanInputs::Reader &reader) const {
    return in.getReads(reader);
  }
  ArrayRef<unsigned> getAccumulatorOperands(size_t i) const {
    return state.getAccumulatorOperands(i);
  }

  const std::vector<PlanInputs::Reader> &readers;
  RangeSummary &constantSummary;
  /// The states of the values the sweeps look at: that of the first result
  /// of ops[i] in resultStates[i] (most values: no hashing), the others in
  /// `values`.
  std::vector<ValueState> resultStates;
  llvm::DenseMap<Value, ValueState, ValueKeyInfo> values;
  llvm::DenseMap<Operation *, bool, OpKeyInfo> constantFitCache;
  /// The op forwardSweep is deciding, and the constants only it reads that
  /// constantFits was asked about during its step.
  Operation *sweeping = nullptr;
  SmallVector<std::pair<Operation *, bool>, 4> sweepConstants;
};
} // namespace

bool Sweeps::constantFits(Operation *constOp) {
  // A constant that only the op being swept reads (an operand it alone
  // reads once, or a constant of its payload) is asked about during that
  // op's step only: it is remembered for the step, not in the table (one
  // insertion per constant of the function, most of them cache misses).
  bool isPrivate = false;
  if (sweeping) {
    Value result = constOp->getResult(0);
    isPrivate = (result.hasOneUse() &&
                 result.use_begin()->getOwner() == sweeping) ||
                (sweeping->getNumRegions() != 0 &&
                 sweeping->isProperAncestor(constOp));
  }
  if (isPrivate) {
    for (auto [known, fits] : sweepConstants)
      if (known == constOp)
        return fits;
  } else if (auto it = constantFitCache.find(constOp);
             it != constantFitCache.end()) {
    return it->second;
  }
  Attribute value = getConstantAttr(constOp);
  RangeSummary summary = checkFloatRange(value, options.target);
  constantSummary.merge(summary);
  bool fits = summary.fits() || options.clampConstants;
  if (!summary.fits() && options.diagnostics)
    mlir::emitRemark(constOp->getLoc()) << "constant does not fit " << options.target << " ("
                          << summary.numOverflow << " overflow, "
                          << summary.numUnderflow << " flush to zero)"
                          << (options.clampConstants
                                  ? ": clamped (clamp-constants)"
                                  : ": its consumers stay in FP32");
  if (isPrivate)
    sweepConstants.push_back({constOp, fits});
  else
    constantFitCache[constOp] = fits;
  return fits;
}


std::optional<unsigned>
Sweeps::findResultIndex(Value value, std::optional<size_t> near) const {
  auto result = dyn_cast<OpResult>(value);
  if (!result || result.getResultNumber() != 0)
    return std::nullopt;
  Operation *def = result.getOwner();
  if (near)
    if (std::optional<unsigned> i = findNear(def, *near))
      return i;
  // (Constants, init tensors and casts take no part: not looked up.)
  if (isRematerializable(def) || isFloatCast(def))
    return std::nullopt;
  return findIndex(def);
}

Sweeps::ValueState &Sweeps::valueState(Value value, std::optional<size_t> near) {
  if (std::optional<unsigned> i = findResultIndex(value, near))
    return resultStates[*i];
  return values[value];
}

const Sweeps::ValueState *
Sweeps::findState(Value value, std::optional<size_t> near) {
  if (std::optional<unsigned> i = findResultIndex(value, near))
    return &resultStates[*i];
  auto it = values.find(value);
  return it == values.end() ? nullptr : &it->second;
}

bool Sweeps::isLowAvailable(Value value, std::optional<size_t> near) {
  Type elt = getScalarType(value.getType());
  if (elt == options.target)
    return true;
  if (!elt.isF32())
    return false;
  if (const ValueState *s = findState(value, near); s && s->lowAvailable)
    return true;
  Operation *def = value.getDefiningOp();
  if (!def) {
    // With keep-io-types=false, the arguments of a public function may take
    // the target type.
    auto arg = cast<BlockArgument>(value);
    return !options.keepIOTypes && arg.getOwner()->isEntryBlock() &&
           arg.getOwner()->getParentOp() == root && isPublicFunction(root);
  }
  if (isFloatConstant(def))
    return constantFits(def);
  if (Operation *scalar = getConstantFillValue(def))
    return constantFits(scalar);
  if (isa<tensor::EmptyOp>(def))
    return true;
  if (Value source = getFloatCastSource(def))
    return getScalarType(source.getType()) == options.target;
  return false;
}

bool Sweeps::isFreeInFP32(Value value, std::optional<size_t> near) {
  if (!isSourceElementType(value.getType()))
    return false;
  if (isRematerializable(value.getDefiningOp()))
    return true;
  const ValueState *s = findState(value, near);
  return !s || !s->nativeLow;
}

void Sweeps::forwardSweep() {
  FloatType target = options.target;
  resultStates.assign(ops.size(), ValueState());
  for (auto [i, op] : llvm::enumerate(ops)) {
    sweeping = op;
    sweepConstants.clear();
    OpInfo &info = infos[i];
    OpDecision &d = info.decision;
    ArrayRef<Value> dataInputs = getDataInputs(i);
    if (d.reason == Reason::UnsupportedTypes || d.color == Color::red ||
        info.keptHigh) {
      d.lowPrecision = false;
      continue;
    }
    if (info.overflowType) {
      // Runs in the overflow type: nothing is available in the target type.
      d.lowPrecision = true;
      continue;
    }
    if (info.exact) {
      // As annotated; its results are in the target type if its output is.
      d.lowPrecision = true;
      for (Value result : op->getResults())
        if (isConvertible(result)) {
          ValueState &s = valueState(result, i);
          s.nativeLow = s.lowAvailable = d.outputType == target;
        }
      continue;
    }

    bool constantsFit = true;
    auto checkConstant = [&](Operation *def) {
      if (Operation *scalar = getConstantFillValue(def))
        def = scalar;
      if (isFloatConstant(def) &&
          isSourceElementType(def->getResultTypes()[0]) && !constantFits(def))
        constantsFit = false;
    };
    for (Value input : dataInputs)
      checkConstant(input.getDefiningOp());
    for (Operation *inner : getPayloadConstants(i))
      checkConstant(inner);

    if (d.color == Color::green) {
      d.lowPrecision = constantsFit;
      if (!constantsFit) {
        d.reason = Reason::ConstantOutOfRange;
        continue;
      }
      Type native = target;
      if (auto iface = getMixedPrecisionInterface(op))
        native = iface.getConvertedResultElementType(target, d.accumulateType);
      for (Value result : op->getResults()) {
        if (!isConvertible(result))
          continue;
        ValueState &s = valueState(result, i);
        s.nativeLow = native == target;
        s.lowAvailable = s.nativeLow || d.outputType == target;
      }
      continue;
    }

    // Gray: a candidate when every float data input is available low. An op
    // without float data inputs (values made from integers) follows nothing:
    // under follow it stays in FP32; under fewest-casts its consumers decide.
    bool inputsLow = (!dataInputs.empty() ||
                      options.grayStrategy != GrayStrategy::Follow) &&
                     llvm::all_of(dataInputs, [&, i = i](Value input) {
                       return isLowAvailable(input, i);
                     });
    d.lowPrecision = inputsLow && constantsFit;
    if (!constantsFit)
      d.reason = Reason::ConstantOutOfRange;
    else if (d.reason == Reason::DefaultList)
      d.reason = Reason::FollowsInputs;
    if (!d.lowPrecision)
      continue;
    for (Value result : op->getResults()) {
      if (!isConvertible(result))
        continue;
      ValueState &s = valueState(result, i);
      s.nativeLow = s.lowAvailable = true;
    }
  }
  sweeping = nullptr;
}

void Sweeps::countUses() {
  bool lowReturns = !options.keepIOTypes && isPublicFunction(root);
  for (const PlanInputs::Reader &entry : readers) {
    Operation *reader = entry.op;
    ArrayRef<Value> reads = getReads(entry);
    // An op in the overflow type reads its inputs in neither the target
    // type nor FP32: like an FP32 reader, it needs them other than low.
    if (entry.info < 0 || !infos[entry.info].decision.lowPrecision ||
        infos[entry.info].overflowType) {
      bool isReturn = lowReturns && reader->hasTrait<OpTrait::ReturnLike>() &&
                      reader->getParentOp() == root;
      std::optional<size_t> near;
      if (entry.info >= 0)
        near = entry.info;
      for (Value value : reads) {
        ValueState &s = valueState(value, near);
        if (isReturn && isLowAvailable(value, near))
          ++s.lowUses;
        else
          ++s.highUses;
      }
      continue;
    }
    OpInfo &info = infos[entry.info];
    for (Value input : getDataInputs(entry.info))
      ++valueState(input, entry.info).lowUses;
    bool accumulateLow = info.decision.accumulateType == options.target;
    for (unsigned index : getAccumulatorOperands(entry.info)) {
      ValueState &s = valueState(reader->getOperand(index), entry.info);
      if (accumulateLow)
        ++s.lowUses;
      else
        ++s.highUses;
    }
  }
}

void Sweeps::backwardSweep() {
  for (size_t i = ops.size(); i-- > 0;) {
    Operation *op = ops[i];
    OpInfo &info = infos[i];
    ArrayRef<Value> dataInputs = getDataInputs(i);
    OpDecision &d = info.decision;
    if (d.color != Color::gray || !d.lowPrecision || info.pinned)
      continue;
    bool anyLowUse = false;
    unsigned costLow = 0;
    for (Value result : op->getResults()) {
      if (!isConvertible(result))
        continue;
      const ValueState &s = valueState(result, i);
      anyLowUse |= s.lowUses != 0;
      costLow += s.highUses != 0;
    }
    if (anyLowUse)
      continue;
    unsigned costHigh = 0;
    llvm::SmallPtrSet<Value, 4> seen;
    for (Value input : dataInputs)
      if (seen.insert(input).second && !isFreeInFP32(input, i) &&
          valueState(input, i).highUses == 0)
        ++costHigh;
    if (costHigh > costLow)
      continue;
    // Stay in FP32: the inputs are now read in FP32.
    d.lowPrecision = false;
    for (Value input : dataInputs) {
      ValueState &s = valueState(input, i);
      --s.lowUses;
      ++s.highUses;
    }
    for (Value result : op->getResults()) {
      if (!isConvertible(result))
        continue;
      ValueState &s = valueState(result, i);
      s.nativeLow = s.lowAvailable = false;
    }
  }
}


void plan::runSweeps(PlanState &state, const PlanInputs &inputs) {
  Sweeps sweeps(state, inputs);
  sweeps.forwardSweep();
  if (state.options.grayStrategy == GrayStrategy::FewestCasts) {
    sweeps.countUses();
    sweeps.backwardSweep();
  }
}
