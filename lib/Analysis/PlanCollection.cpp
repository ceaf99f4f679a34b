//===- PlanCollection.cpp - The ops a precision plan decides --------------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The first phase of a PrecisionPlan (PlanState.h): one walk of the function
// collects the ops that take part, in program order, with their data and
// accumulator operands, the FP32 values each op reads (its operands and
// what its payload captures) and the float constants of its payload. Each
// op is colored as it is collected, while it is in the cache. Constants and
// init tensors take no part (they are rebuilt in the type each reader
// reads them in); casts, and the ops that the FP8 stage made, only read.
//
//===----------------------------------------------------------------------===//

#include "PlanState.h"

#include "amp/IR/AmpDialect.h"
#include "amp/Utils/CastUtils.h"
#include "amp/Utils/ConversionMemo.h"
#include "amp/Utils/TypeUtils.h"


#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace mlir;
using namespace mlir::amp;
using namespace mlir::amp::plan;

/// Ops that only route values (control flow, calls, terminators): they keep
/// their types, and need no color.
static bool isStructural(Operation *op) {
  return op->hasTrait<OpTrait::IsTerminator>() ||
         op->hasTrait<OpTrait::ReturnLike>() ||
         isa<RegionBranchOpInterface, CallOpInterface, BranchOpInterface,
             FunctionOpInterface>(op);
}

void plan::getBoundAttributes(Operation *op, SmallVectorImpl<double> &bounds,
                              int64_t *sentinels) {
  // The op's model says which attributes are floats (reading each inherent
  // attribute by name is most of the cost); an op without one is read in
  // full.
  SmallVector<FloatAttr, 4> attrs;
  if (auto iface = getMixedPrecisionInterface(op))
    iface.getFloatAttributes(attrs);
  else
    amp::detail::getFloatAttributes(op, attrs);
  double flt = getLargestFinite(Float32Type::get(op->getContext()));
  for (FloatAttr value : attrs) {
    if (!value.getType().isF32())
      continue;
    double v = getFloatAttrValue(value);
    if (std::isfinite(v) && std::abs(v) != flt)
      bounds.push_back(v);
    else if (sentinels && std::abs(v) == flt)
      ++*sentinels;
  }
}

namespace {
/// One walk of the function, appending to the plan's tables.
class Collector {
public:
  Collector(PlanState &state, PlanInputs &in, ColorTally &tally,
            bool withInputs)
      : withInputs(withInputs), state(state), tally(tally), options(state.options), ops(state.ops),
        infos(state.infos), operandNumbers(state.operandNumbers),
        constantSummary(state.constantSummary), inputs(in.inputs),
        inputValues(in.inputValues), readValues(in.readValues),
        payloadConstants(in.payloadConstants), readers(in.readers),
        colored(tally.colored) {}

  void collect(Region &region);

private:
  /// The sizes of the flat arrays before an op's entries are appended.
  struct Marks {
    size_t values, constants, reads;
  };
  void collectOp(Operation *op);
  /// An op without the interface: remembered for the lists or the
  /// unknown-op policy when it touches FP32; its regions are walked.
  void collectUncolored(Operation *op, const Marks &start);
  /// An op with the interface, which owns its regions (payloads).
  void collectColored(Operation *op, MixedPrecisionOpInterface iface,
                      const Marks &start);
  /// The FP32 values `op`'s payload captures from above (in order of first
  /// use), appended to the inputs, and its float constants; whether any.
  bool collectCaptures(Operation *op);
  Marks mark() const {
    return {inputValues.size(), payloadConstants.size(), readValues.size()};
  }
  /// Adds a reader of the values appended to `readValues` since `start`.
  void addReader(Operation *op, const Marks &start);
  /// Adds `op`, the last reader, with these operand numbers and the inputs
  /// appended since `start`.
  void addOp(Operation *op, OpInfo &&info, const Marks &start,
             ArrayRef<unsigned> data, ArrayRef<unsigned> accumulators);

  /// The inputs are read (PlanInputs): false for colors alone, where the
  /// payload of an op known to touch FP32 is not walked.
  bool withInputs;
  PlanState &state;
  ColorTally &tally;
  const MixedPrecisionOptions &options;
  SmallVector<Operation *> &ops;
  SmallVector<OpInfo> &infos;
  std::vector<unsigned> &operandNumbers;
  RangeSummary &constantSummary;
  std::vector<PlanInputs::OpInputs> &inputs;
  std::vector<Value> &inputValues, &readValues;
  std::vector<Operation *> &payloadConstants;
  std::vector<PlanInputs::Reader> &readers;
  LogicalResult &colored;
};
} // namespace

void Collector::collect(Region &region) {
  for (Block &block : region)
    for (Operation &op : block)
      collectOp(&op);
}

void Collector::addReader(Operation *op, const Marks &start) {
  readers.push_back({op, static_cast<uint32_t>(start.reads),
                     static_cast<uint32_t>(readValues.size() - start.reads)});
}

void Collector::addOp(Operation *op, OpInfo &&info, const Marks &start,
                          ArrayRef<unsigned> data,
                          ArrayRef<unsigned> accumulators) {
  readers.back().info = ops.size();
  info.operandsBegin = operandNumbers.size();
  info.numData = data.size();
  info.numAccumulators = accumulators.size();
  operandNumbers.insert(operandNumbers.end(), data.begin(), data.end());
  operandNumbers.insert(operandNumbers.end(), accumulators.begin(),
                        accumulators.end());
  ops.push_back(op);
  infos.push_back(std::move(info));
  inputs.push_back(
      {static_cast<uint32_t>(start.values),
       static_cast<uint32_t>(inputValues.size() - start.values),
       static_cast<uint32_t>(start.constants),
       static_cast<uint32_t>(payloadConstants.size() - start.constants)});
  // (After an error, as if coloring had stopped there: no more remarks.)
  if (succeeded(colored))
    colored = colorOp(state, tally, op, infos.back());
  // The largest float attribute, as checkRanges reads them; +-FLT_MAX
  // bounds count as sentinels (the conversion writes them as the target's
  // largest value: see convertToMixedPrecision).
  SmallVector<double, 2> bounds;
  getBoundAttributes(op, bounds, &constantSummary.numSentinel);
  if (!options.clampConstants)
    for (double bound : bounds)
      infos.back().largestBound =
          std::max(infos.back().largestBound, std::abs(bound));
}

void Collector::collectOp(Operation *op) {
  // Constants and init tensors are rebuilt in the type each consumer reads
  // them in: they take no part.
  if (isRematerializable(op))
    return;
  Marks start = mark();
  for (Value operand : op->getOperands())
    if (isConvertible(operand))
      readValues.push_back(operand);

  // Casts, and the ops that the FP8 stage made, keep their types: they only
  // read FP32 values.
  if (isFloatCast(op) || (options.fixedOps && options.fixedOps->contains(op))) {
    addReader(op, start);
    return;
  }
  if (auto iface = getMixedPrecisionInterface(op))
    collectColored(op, iface, start);
  else
    collectUncolored(op, start);
}

void Collector::collectUncolored(Operation *op, const Marks &start) {
  bool touches = readValues.size() != start.reads ||
                 llvm::any_of(op->getResults(), isConvertible);
  addReader(op, start);
  if (touches && !isStructural(op)) {
    // An op without a color: remembered, colored later by the lists or the
    // unknown-op policy. All its float operands count as data.
    OpInfo info;
    info.decision.unknown = true;
    SmallVector<unsigned, 4> data;
    for (OpOperand &operand : op->getOpOperands())
      if (isConvertible(operand.get())) {
        data.push_back(operand.getOperandNumber());
        inputValues.push_back(operand.get());
      }
    bool supported = llvm::all_of(op->getOperandTypes(), [&](Type t) {
      return !hasFloatElementType(t) ||
             (isCastableFloatType(t) && isSourceElementType(t));
    });
    if (!supported || op->getNumRegions() != 0)
      info.pinned = true;
    // Float operands it cannot retype (a memref.store into an FP32
    // memref): whatever its color, it stays in FP32, and the sweeps must
    // know it, or they count on 16-bit inputs the rewrite never gives it.
    if (!supported)
      info.keptHigh = true;
    addOp(op, std::move(info), start, data, {});
  }
  for (Region &region : op->getRegions())
    collect(region);
}

bool Collector::collectCaptures(Operation *op) {
  bool any = false;
  llvm::SmallPtrSet<Value, 4> captured;
  for (Region &region : op->getRegions())
    region.walk([&](Operation *inner) {
      if (isFloatConstant(inner))
        payloadConstants.push_back(inner);
      for (Value value : inner->getOperands()) {
        if (!isConvertible(value) ||
            op->isAncestor(value.getParentRegion()->getParentOp()) ||
            !captured.insert(value).second)
          continue;
        any = true;
        inputValues.push_back(value);
        readValues.push_back(value);
      }
    });
  return any;
}

void Collector::collectColored(Operation *op, MixedPrecisionOpInterface iface,
                               const Marks &start) {
  // Values its payloads capture from above are data inputs of the op.
  OpInfo info;
  SmallVector<unsigned, 4> data;
  SmallVector<unsigned, 1> accumulators;
  bool touchesSource = false, supported = true;
  auto checkType = [&](Type type) {
    if (!isCastableFloatType(type)) {
      supported = false;
      return;
    }
    Type elt = getScalarType(type);
    if (elt.isF32())
      touchesSource = true;
    else if (elt != options.target)
      supported = false;
  };
  for (OpOperand &operand : op->getOpOperands()) {
    // An FP32 value (most operands) is castable and of the source type: the
    // type tests are needed only for other floats.
    Type type = operand.get().getType();
    bool convertible = isConvertible(operand.get());
    if (!convertible && !hasFloatElementType(type))
      continue;
    bool isAccumulator = iface.isAccumulatorOperand(operand);
    if (!isAccumulator && !iface.isDataOperand(operand))
      continue;
    if (!convertible) {
      checkType(type);
      continue;
    }
    touchesSource = true;
    if (isAccumulator) {
      accumulators.push_back(operand.getOperandNumber());
    } else {
      inputValues.push_back(operand.get());
      data.push_back(operand.getOperandNumber());
    }
  }
  for (Value result : op->getResults()) {
    if (isConvertible(result))
      touchesSource = true;
    else if (hasFloatElementType(result.getType()))
      checkType(result.getType());
  }
  // One walk of the payload (skipped for colors alone once the op is known
  // to touch FP32).
  if (op->getNumRegions() != 0 && (withInputs || !touchesSource))
    touchesSource |= collectCaptures(op);
  addReader(op, start);
  if (!touchesSource) {
    inputValues.resize(start.values);
    payloadConstants.resize(start.constants);
    return;
  }
  if (!supported) {
    info.decision.reason = Reason::UnsupportedTypes;
    info.decision.color = Color::red;
    info.pinned = true;
  }
  addOp(op, std::move(info), start, data, accumulators);
}

void plan::collectOps(PlanState &state, PlanInputs &inputs, ColorTally &tally,
                      bool withInputs) {
  // (The tables grow as the ops are collected: counting the ops first to
  // size them would walk the list of a big function's ops once more, a
  // cache miss per op.)
  Collector collector(state, inputs, tally, withInputs);
  for (Region &region : state.root->getRegions())
    collector.collect(region);
}
