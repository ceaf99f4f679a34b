//===- PrecisionPlan.cpp - Decide the precision of every op ---------------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// See PrecisionPlan.h for the algorithm. Only FP32 values are converted; ops
// whose float data are of other types (f64, f8, already 16-bit) are left
// alone.
//
//===----------------------------------------------------------------------===//

#include "amp/Analysis/PrecisionPlan.h"

#include "amp/Analysis/Magnitude.h"
#include "amp/Analysis/MinCut.h"
#include "amp/IR/AmpDialect.h"
#include "amp/Utils/CastUtils.h"
#include "amp/Utils/ConversionMemo.h"
#include "amp/Utils/TypeUtils.h"

#include "mlir/Analysis/DataFlowFramework.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Support/Format.h"

using namespace mlir;
using namespace mlir::amp;

/// The type amp converts from.
static bool isSourceElementType(Type type) {
  return getScalarType(type).isF32();
}

/// A value amp converts: an FP32 scalar, tensor or vector.
static bool isConvertible(Value value) {
  // isCastableFloatType and an f32 element, without interface lookups: asked
  // for every operand and result of every op.
  Type type = value.getType();
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return tensor.getElementType().isF32();
  if (auto vector = dyn_cast<VectorType>(type))
    return vector.getElementType().isF32();
  return type.isF32();
}

/// Ops that only route values (control flow, calls, terminators): they keep
/// their types, and need no color.
static bool isStructural(Operation *op) {
  return op->hasTrait<OpTrait::IsTerminator>() ||
         op->hasTrait<OpTrait::ReturnLike>() ||
         isa<RegionBranchOpInterface, CallOpInterface, BranchOpInterface,
             FunctionOpInterface>(op);
}

PrecisionPlan::PrecisionPlan(Operation *root,
                             const MixedPrecisionOptions &options)
    : root(root), options(options) {}

LogicalResult PrecisionPlan::runColors() {
  colorName = StringAttr::get(root->getContext(),
                              AmpDialect::ColorAttrHelper::getNameStr());
  precisionName = StringAttr::get(
      root->getContext(), AmpDialect::PrecisionAttrHelper::getNameStr());
  for (Region &region : root->getRegions())
    collect(region);
  if (failed(colored))
    return failure();
  applySkipLayers();
  return assignPrecisions();
}

LogicalResult PrecisionPlan::run() {
  // (The tables grow as the ops are collected: counting the ops first to
  // size them would walk the list of a big function's ops once more, a
  // cache miss per op.)
  // Each op is colored as it is collected (while it is in the cache).
  colorName = StringAttr::get(root->getContext(),
                              AmpDialect::ColorAttrHelper::getNameStr());
  precisionName = StringAttr::get(
      root->getContext(), AmpDialect::PrecisionAttrHelper::getNameStr());
  for (Region &region : root->getRegions())
    collect(region);
  if (failed(colored))
    return failure();
  summarizeUncolored();
  applySkipLayers();
  if (failed(assignPrecisions()))
    return failure();
  applyRanges();
  // Each table goes as soon as the steps that read it are done: the peak
  // memory of a big function is that of the largest step, not their sum.
  rangeAnalysis = nullptr;
  solver.reset();
  rangeMap.reset();
  forwardSweep();
  if (options.grayStrategy == GrayStrategy::FewestCasts) {
    countUses();
    backwardSweep();
  } else if (options.grayStrategy == GrayStrategy::MinBytes) {
    // The cut reads the decisions, not the value states or constants.
    values = decltype(values)();
    std::vector<ValueState>().swap(resultStates);
    constantFitCache = decltype(constantFitCache)();
    minBytesCut();
  }
  // What only planning needs is freed before the rewrite allocates (peak
  // memory on a big function).
  std::vector<Reader>().swap(readers);
  std::vector<OpInputs>().swap(inputs);
  std::vector<Value>().swap(inputValues);
  std::vector<Value>().swap(readValues);
  std::vector<Operation *>().swap(payloadConstants);
  values = decltype(values)();
  std::vector<ValueState>().swap(resultStates);
  constantFitCache = decltype(constantFitCache)();
  return success();
}

//===----------------------------------------------------------------------===//
// Collection
//===----------------------------------------------------------------------===//

void PrecisionPlan::collect(Region &region) {
  for (Block &block : region)
    for (Operation &op : block)
      collectOp(&op);
}

void PrecisionPlan::addReader(Operation *op, const Marks &start) {
  readers.push_back({op, static_cast<uint32_t>(start.reads),
                     static_cast<uint32_t>(readValues.size() - start.reads)});
}

/// The float attributes of `op` a type must hold (clamp bounds and the
/// like): FP32 values other than +-FLT_MAX and infinities, which stand for
/// "no bound" and map to the target's own largest value (counted in
/// `sentinels` when given).
static void getBoundAttributes(Operation *op, SmallVectorImpl<double> &bounds,
                               int64_t *sentinels = nullptr) {
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

void PrecisionPlan::addOp(Operation *op, OpInfo &&info, const Marks &start,
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
    colored = colorOp(op, infos.back());
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

void PrecisionPlan::collectOp(Operation *op) {
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

  auto iface = getMixedPrecisionInterface(op);
  SmallVector<unsigned, 4> data;
  if (!iface) {
    bool touches = readValues.size() != start.reads ||
                   llvm::any_of(op->getResults(), isConvertible);
    addReader(op, start);
    if (touches && !isStructural(op)) {
      // An op without a color: remembered, colored later by the lists or the
      // unknown-op policy. All its float operands count as data.
      OpInfo info;
      info.decision.unknown = true;
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
    return;
  }

  // An op with the interface owns its regions (payloads): values they capture
  // from above are data inputs of the op.
  OpInfo info;
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
  // One walk of the payload: the FP32 values it captures from above (in
  // order of first use) and its float constants.
  if (op->getNumRegions() != 0) {
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
          touchesSource = true;
          inputValues.push_back(value);
          readValues.push_back(value);
        }
      });
  }
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

//===----------------------------------------------------------------------===//
// Colors
//===----------------------------------------------------------------------===//

/// The discardable attribute `name` of `op` if it is an `AttrT` (amp's
/// annotations are discardable: read without the string compares of the
/// inherent attribute lookup, and not at all on an op without discardable
/// attributes, most of a function).
template <typename AttrT>
static AttrT getAnnotation(Operation *op, StringAttr name) {
  if (op->getRawDictionaryAttrs().empty())
    return {};
  return dyn_cast_or_null<AttrT>(op->getDiscardableAttr(name));
}

LogicalResult PrecisionPlan::colorOp(Operation *op, OpInfo &info) {
  OpDecision &d = info.decision;
  if (d.reason == Reason::UnsupportedTypes)
    return success();
  auto iface = getMixedPrecisionInterface(op);

  if (auto color = getAnnotation<ColorAttr>(op, colorName)) {
    d.color = color.getValue();
    d.reason = Reason::Annotation;
    info.pinned = d.color != Color::gray;
    hasAnnotations = true;
    return success();
  }
  if (auto precision = getAnnotation<PrecisionAttr>(op, precisionName)) {
    // A forced precision: green (runs with target inputs) unless it asks
    // an op without an accumulator to compute in another type. With a
    // compute type, exactly that: FP32 (red) or those types.
    bool separate = iface && iface.hasSeparateAccumulator();
    if (FloatType compute = precision.getComputeFloatType()) {
      d.color = compute.isF32() ? Color::red : Color::green;
      // An FP8 compute type is the FP8 stage's (FP8Contractions.h): an op
      // still here runs in the target type.
      info.exact = !compute.isF32() && !isFP8Type(compute);
    } else {
      d.color = separate || precision.getAccumulate() == options.target
                    ? Color::green
                    : Color::red;
    }
    d.reason = Reason::Annotation;
    info.pinned = true;
    hasAnnotations = true;
    return success();
  }
  if (!options.userColors.empty()) {
    auto listed = options.userColors.find(op->getName().getStringRef());
    if (listed != options.userColors.end()) {
      d.color = listed->second;
      d.reason = Reason::UserList;
      return success();
    }
  }
  if (!d.unknown) {
    if (std::optional<ColorDecision> decision = options.policy.getColor(op)) {
      d.color = decision->color;
      d.reason = decision->reason;
      return success();
    }
    d.unknown = true;
  }
  // A constant whose data is not in the file cannot be rebuilt in another
  // type, whatever the policy for unknown ops: it stays FP32 and its readers
  // convert it.
  if (isElidedConstant(op)) {
    d.color = Color::red;
    d.reason = Reason::UnknownOp;
    info.pinned = true;
    if (options.remarks)
      op->emitRemark() << "this constant's data is not in the file (an "
                          "elided dense_resource): it stays in FP32";
    else
      ++elidedConstants;
    return success();
  }
  switch (options.unknownOps) {
  case UnknownOpPolicy::Error:
    return op->emitError()
           << "'" << op->getName()
           << "' has no mixed-precision color (unknown-ops=error); give it "
              "one with green=, gray=, red= or an amp.color annotation";
  case UnknownOpPolicy::Gray:
    d.color = Color::gray;
    d.reason = Reason::UnknownOp;
    break;
  case UnknownOpPolicy::Red:
    d.color = Color::red;
    d.reason = Reason::UnknownOp;
    // With `remarks`, the op's decision remark says it ("red (unknown
    // op)"); otherwise one summary per function (summarizeUncolored).
    if (!options.remarks)
      ++uncoloredOps[op->getName()];
    break;
  }
  return success();
}

bool PrecisionPlan::isElidedConstant(Operation *op) {
  if (!isa<arith::ConstantOp, tosa::ConstOp>(op))
    return false;
  auto resource = dyn_cast<DenseResourceElementsAttr>(getConstantAttr(op));
  return resource && !resource.getRawHandle().getBlob();
}

void PrecisionPlan::summarizeUncolored() {
  if (!options.diagnostics)
    return;
  if (!uncoloredOps.empty()) {
    unsigned total = 0;
    for (auto &entry : uncoloredOps)
      total += entry.second;
    // At the function's location, without the function printed after it.
    InFlightDiagnostic remark = mlir::emitRemark(root->getLoc());
    remark << total << (total == 1 ? " op" : " ops") << " of "
           << uncoloredOps.size()
           << (uncoloredOps.size() == 1 ? " kind has" : " kinds have")
           << " no mixed-precision color and stay"
           << (total == 1 ? "s" : "") << " in FP32: ";
    llvm::interleaveComma(uncoloredOps, remark, [&](auto &entry) {
      remark << entry.first << " (" << entry.second << ")";
    });
    remark << "; remarks=true lists each, green=, gray=, red= or amp.color "
              "choose a color";
  }
  if (elidedConstants)
    mlir::emitRemark(root->getLoc()) << elidedConstants
                       << (elidedConstants == 1 ? " constant has" :
                                                  " constants have")
                       << " no data in the file (elided dense_resource): "
                          "kept in FP32 and converted where read";
}

void PrecisionPlan::applySkipLayers() {
  if (options.skippedOps) {
    for (auto [op, info] : llvm::zip(ops, infos)) {
      if (!options.skippedOps->contains(op))
        continue;
      info.decision.color = Color::red;
      info.decision.reason = Reason::SkipLayers;
      info.pinned = true;
    }
    return;
  }
  if (options.skipLayers.empty())
    return;
  SmallVector<size_t> green;
  for (auto [i, info] : llvm::enumerate(infos)) {
    const OpDecision &d = info.decision;
    if (d.color == Color::green && d.reason != Reason::Annotation &&
        d.reason != Reason::UnsupportedTypes)
      green.push_back(i);
  }
  int64_t count = green.size();
  for (int64_t index : options.skipLayers) {
    int64_t position = index < 0 ? count + index : index;
    if (position < 0 || position >= count) {
      if (options.diagnostics)
        root->emitWarning() << "skip-layers index " << index
                            << " is out of range: this function has " << count
                            << " green op" << (count == 1 ? "" : "s");
      continue;
    }
    OpInfo &info = infos[green[position]];
    info.decision.color = Color::red;
    info.decision.reason = Reason::SkipLayers;
    info.pinned = true;
  }
}

LogicalResult PrecisionPlan::assignPrecisions() {
  FloatType target = options.target;
  for (auto [op, info] : llvm::zip(ops, infos)) {
    OpDecision &d = info.decision;
    if (d.color != Color::green) {
      d.computeType = d.accumulateType = d.outputType = target;
      continue;
    }
    Precision precision{};
    auto attr = getAnnotation<PrecisionAttr>(op, precisionName);
    if (attr)
      precision = {attr.getAccumulateFloatType(), attr.getOutputFloatType()};
    else
      precision = options.policy.getPrecision(op, target);
    if (!precision.accumulate || !precision.output)
      return op->emitError() << "the precision policy gave no accumulation "
                                "or output type for this op";
    // The types amp computes and casts in: a wider or narrower one (f64,
    // f8) would be another conversion, not mixed precision.
    auto allowed = [](FloatType type) {
      return type.isF32() || type.isF16() || type.isBF16();
    };
    if (!allowed(precision.accumulate) || !allowed(precision.output))
      return op->emitError()
             << (attr ? "amp.precision" : "the precision policy")
             << " asks for accumulate " << precision.accumulate
             << " and output " << precision.output
             << "; each must be f32, f16 or bf16";
    auto iface = getMixedPrecisionInterface(op);
    FloatType compute = attr ? attr.getComputeFloatType() : FloatType();
    // An op annotated with an FP8 compute type that the FP8 stage did not
    // convert (no scale, no FP8 form) runs in the target type.
    if (compute && isFP8Type(compute))
      compute = FloatType();
    if (compute && !allowed(compute))
      return op->emitError() << "amp.precision asks for compute " << compute
                             << "; it must be f32, f16, bf16, f8E4M3FN or "
                                "f8E5M2";
    d.computeType = compute ? compute : target;
    d.accumulateType = precision.accumulate;
    d.outputType = precision.output;
    if (!iface || !iface.hasSeparateAccumulator()) {
      // No separate accumulator: the op computes in its compute type.
      d.accumulateType = d.computeType;
    }
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Ranges
//===----------------------------------------------------------------------===//

FloatRange PrecisionPlan::getRange(Value value) const {
  if (rangeMap)
    return rangeMap->lookup(value);
  if (rangeAnalysis)
    return getFloatRange(*solver, value);
  return FloatRange::unbounded();
}

std::optional<double> PrecisionPlan::getConvertedIntegers(Operation *op) const {
  if (rangeMap)
    return rangeMap->getConvertedIntegerMaxAbs(op);
  if (rangeAnalysis)
    return rangeAnalysis->getConvertedIntegerMaxAbs(op);
  return std::nullopt;
}

std::optional<PrecisionPlan::RangeProblem>
PrecisionPlan::checkValue(Value value, FloatType type) {
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

std::optional<PrecisionPlan::RangeProblem>
PrecisionPlan::checkRanges(size_t i, FloatType type) {
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

void PrecisionPlan::applyRanges() {
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
        op->emitRemark(text);
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
      op->emitRemark(text + describeRangeReason(d));
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

//===----------------------------------------------------------------------===//
// Sweeps
//===----------------------------------------------------------------------===//

bool PrecisionPlan::constantFits(Operation *constOp) {
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
    constOp->emitRemark() << "constant does not fit " << options.target << " ("
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

static bool isPublicFunction(Operation *op) {
  auto func = dyn_cast<FunctionOpInterface>(op);
  return func && !func.isExternal() &&
         SymbolTable::getSymbolVisibility(op) ==
             SymbolTable::Visibility::Public;
}

std::optional<unsigned>
PrecisionPlan::findResultIndex(Value value, std::optional<size_t> near) const {
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

PrecisionPlan::ValueState &PrecisionPlan::state(Value value,
                                                std::optional<size_t> near) {
  if (std::optional<unsigned> i = findResultIndex(value, near))
    return resultStates[*i];
  return values[value];
}

const PrecisionPlan::ValueState *
PrecisionPlan::findState(Value value, std::optional<size_t> near) {
  if (std::optional<unsigned> i = findResultIndex(value, near))
    return &resultStates[*i];
  auto it = values.find(value);
  return it == values.end() ? nullptr : &it->second;
}

bool PrecisionPlan::isLowAvailable(Value value, std::optional<size_t> near) {
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

bool PrecisionPlan::isFreeInFP32(Value value, std::optional<size_t> near) {
  if (!isSourceElementType(value.getType()))
    return false;
  if (isRematerializable(value.getDefiningOp()))
    return true;
  const ValueState *s = findState(value, near);
  return !s || !s->nativeLow;
}

void PrecisionPlan::forwardSweep() {
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
          ValueState &s = state(result, i);
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
        ValueState &s = state(result, i);
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
      ValueState &s = state(result, i);
      s.nativeLow = s.lowAvailable = true;
    }
  }
  sweeping = nullptr;
}

void PrecisionPlan::countUses() {
  bool lowReturns = !options.keepIOTypes && isPublicFunction(root);
  for (Reader &entry : readers) {
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
        ValueState &s = state(value, near);
        if (isReturn && isLowAvailable(value, near))
          ++s.lowUses;
        else
          ++s.highUses;
      }
      continue;
    }
    OpInfo &info = infos[entry.info];
    for (Value input : getDataInputs(entry.info))
      ++state(input, entry.info).lowUses;
    bool accumulateLow = info.decision.accumulateType == options.target;
    for (unsigned index : getAccumulatorOperands(entry.info)) {
      ValueState &s = state(reader->getOperand(index), entry.info);
      if (accumulateLow)
        ++s.lowUses;
      else
        ++s.highUses;
    }
  }
}

void PrecisionPlan::backwardSweep() {
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
      const ValueState &s = state(result, i);
      anyLowUse |= s.lowUses != 0;
      costLow += s.highUses != 0;
    }
    if (anyLowUse)
      continue;
    unsigned costHigh = 0;
    llvm::SmallPtrSet<Value, 4> seen;
    for (Value input : dataInputs)
      if (seen.insert(input).second && !isFreeInFP32(input, i) &&
          state(input, i).highUses == 0)
        ++costHigh;
    if (costHigh > costLow)
      continue;
    // Stay in FP32: the inputs are now read in FP32.
    d.lowPrecision = false;
    for (Value input : dataInputs) {
      ValueState &s = state(input, i);
      --s.lowUses;
      ++s.highUses;
    }
    for (Value result : op->getResults()) {
      if (!isConvertible(result))
        continue;
      ValueState &s = state(result, i);
      s.nativeLow = s.lowAvailable = false;
    }
  }
}

//===----------------------------------------------------------------------===//
// Minimum byte cost (gray-strategy=min-bytes)
//===----------------------------------------------------------------------===//

/// The number of elements of a value (a dynamic dimension counts as 1).
static int64_t getNumElements(Value value) {
  ArrayRef<int64_t> shape;
  if (auto tensor = dyn_cast<RankedTensorType>(value.getType()))
    shape = tensor.getShape();
  else if (auto vector = dyn_cast<VectorType>(value.getType()))
    shape = vector.getShape();
  else if (auto shaped = dyn_cast<ShapedType>(value.getType());
           shaped && shaped.hasRank())
    shape = shaped.getShape();
  int64_t n = 1;
  for (int64_t dim : shape)
    if (!ShapedType::isDynamic(dim))
      n = std::min<int64_t>(n * std::max<int64_t>(dim, 1),
                            MinCutGraph::kInfinite / 64);
  return n;
}

void PrecisionPlan::minBytesCut() {
  // The variables: gray ops free to run in either type.
  SmallVector<bool> isFree(ops.size(), false);
  for (auto [i, info] : llvm::enumerate(infos)) {
    const OpDecision &d = info.decision;
    isFree[i] = d.color == Color::gray && !info.pinned && !info.keptHigh &&
                !info.overflowType && d.reason != Reason::ConstantOutOfRange &&
                d.reason != Reason::UnsupportedTypes;
  }
  // Where a value is made and read: a free op (its index), or a fixed side.
  enum : int { kHigh = -1, kLow = -2, kAny = -3 };
  // (`near`: the index of an op that reads or makes the value.)
  auto producerOf = [&](Value value, size_t near) -> int {
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
      native = iface.getConvertedResultElementType(
          options.target, info.decision.accumulateType);
    return native == options.target ? kLow : kHigh;
  };
  auto isGreenOutput = [&](Value value, size_t near) {
    Operation *def = value.getDefiningOp();
    std::optional<unsigned> i = def ? findIndex(def, near) : std::nullopt;
    return i && infos[*i].decision.color == Color::green &&
           infos[*i].decision.lowPrecision;
  };
  // A use by a fixed op that reads the value in the target type (as the
  // tables below would count it: a kLow consumer).
  auto isFixedLowRead = [&](OpOperand &use, size_t near) {
    std::optional<unsigned> j = findIndex(use.getOwner(), near);
    if (!j || isFree[*j])
      return false;
    const OpInfo &reader = infos[*j];
    if (!reader.decision.lowPrecision || reader.overflowType)
      return false;
    unsigned number = use.getOperandNumber();
    if (llvm::is_contained(getDataOperands(*j), number))
      return true;
    return reader.decision.accumulateType == options.target &&
           llvm::is_contained(getAccumulatorOperands(*j), number);
  };
  // Most gray ops of a network (a clamp between two convolutions) read only
  // values that fixed ops make low or that are rematerialized, which no
  // other op reads but in the target type, and only fixed ops read their
  // results, in the target type: each is a group of its own that touches
  // nothing in FP32, whose cut is empty. It runs low if it touches anything
  // low (as below), decided here without the tables.
  // Growths are computed on the first question (Magnitude.h).
  MagnitudeMap magnitudes;
  // Whether a free op that reads `value` brings its large growth back down
  // (see the penalties below): such a value is decided by the tables, where
  // the penalty is, whatever its neighbours, so that the rule does not
  // depend on how the ops around it happen to be grouped (a second run,
  // which sees the first run's casts, groups them differently).
  const SmallVector<bool> isFreeAtStart = isFree;
  // (A value read by many ops, a scalar constant that every layer reads, is
  // scanned once, not once per reader: its answer is remembered.)
  constexpr unsigned kRememberedUsers = 8;
  DenseMap<Value, bool> shrunkLater;
  auto isShrunkLater = [&](Value value, size_t near) {
    double large = options.largeGrowth;
    if (large <= 0 || !isConvertible(value))
      return false;
    bool remember = value.hasNUsesOrMore(kRememberedUsers + 1);
    if (remember)
      if (auto it = shrunkLater.find(value); it != shrunkLater.end())
        return it->second;
    auto scan = [&] {
      std::optional<double> growth;
      for (Operation *user : value.getUsers()) {
        std::optional<unsigned> j = findIndex(user, near);
        if (!j || !isFreeAtStart[*j])
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
  };
  // Whether a fixed op reads `value` in the target type (as the tables below
  // count it: a kLow consumer), for values made anew for each reader.
  DenseMap<Value, bool> readLowByFixed;
  auto hasFixedLowReader = [&](Value value, size_t near) {
    auto [it, inserted] = readLowByFixed.try_emplace(value, false);
    if (inserted)
      it->second = llvm::any_of(value.getUses(), [&](OpOperand &use) {
        return isFixedLowRead(use, near);
      });
    return it->second;
  };
  for (size_t i = 0; i < ops.size(); ++i) {
    if (!isFree[i])
      continue;
    Operation *op = ops[i];
    bool alone = true, touchesLow = false;
    if (llvm::any_of(getDataInputs(i),
                     [&](Value input) { return isShrunkLater(input, i); }) ||
        llvm::any_of(op->getResults(),
                     [&](Value result) { return isShrunkLater(result, i); }))
      continue;
    for (Value input : getDataInputs(i)) {
      int producer = producerOf(input, i);
      alone = producer == kLow || producer == kAny;
      touchesLow |= producer == kLow || isGreenOutput(input, i);
      // A value made anew for each reader (a constant, an init tensor)
      // joins no group: its other readers do not matter, but one that reads
      // it low makes it low for this op too (as the tables count it).
      if (producer == kAny) {
        touchesLow |= hasFixedLowReader(input, i);
        continue;
      }
      for (OpOperand &use : input.getUses()) {
        if (use.getOwner() == op)
          continue;
        alone = alone && isFixedLowRead(use, i);
        touchesLow = true;
      }
      if (!alone)
        break;
    }
    for (Value result : op->getResults()) {
      if (!alone)
        break;
      if (!isConvertible(result))
        continue;
      for (OpOperand &use : result.getUses()) {
        alone = alone && isFixedLowRead(use, i);
        touchesLow = true;
      }
    }
    if (!alone)
      continue;
    infos[i].decision.lowPrecision = touchesLow;
    isFree[i] = false;
  }
  // (Then nothing is left for the tables in most networks.)
  if (llvm::none_of(isFree, [](bool free) { return free; }))
    return;

  // Every value a free op reads or makes, with where it is made and read
  // (each consumer once), in first-seen order. Other values (a green op's
  // weights, values only fixed ops touch) are no part of any cut.
  struct ValueUses {
    Value value;
    int producer;
    /// The free ops that read it, each once.
    SmallVector<int, 2> consumers;
    /// Fixed ops (or returns) read it in the target type / in FP32.
    bool readLow = false, readHigh = false;
    /// Its consumers join one group. A value made anew for each reader (a
    /// constant, an init tensor, a widened low value) costs nothing to
    /// give any reader in either type and joins none (a scalar constant
    /// that every layer reads would otherwise make the whole function one
    /// group), unless the growth rule penalizes it.
    bool joins = true;
  };
  std::vector<ValueUses> uses;
  DenseMap<Value, unsigned> useOf;
  auto addValue = [&](Value value, size_t near) {
    if (!useOf.try_emplace(value, uses.size()).second)
      return;
    int producer = producerOf(value, near);
    uses.push_back({value, producer, {}});
    uses.back().joins = producer != kAny || isShrunkLater(value, near);
  };
  size_t bound = 0;
  for (auto [i, free] : llvm::enumerate(isFree))
    if (free)
      bound += getDataInputs(i).size() + ops[i]->getNumResults();
  uses.reserve(bound);
  useOf.reserve(bound);
  for (auto [i, free] : llvm::enumerate(isFree)) {
    if (!free)
      continue;
    for (Value input : getDataInputs(i))
      addValue(input, i);
    for (Value result : ops[i]->getResults())
      if (isConvertible(result))
        addValue(result, i);
  }
  // (Readers come in program order, each once: a free op that reads a
  // value twice adds it twice in a row.)
  auto addUse = [&](Value value, int consumer) {
    auto it = useOf.find(value);
    if (it == useOf.end())
      return;
    ValueUses &use = uses[it->second];
    if (consumer >= 0) {
      if (use.consumers.empty() || use.consumers.back() != consumer)
        use.consumers.push_back(consumer);
    } else {
      use.readLow |= consumer == kLow;
      use.readHigh |= consumer == kHigh;
    }
  };
  bool lowReturns = !options.keepIOTypes && isPublicFunction(root);
  for (const Reader &entry : readers) {
    if (entry.info >= 0 && isFree[entry.info]) {
      for (Value input : getDataInputs(entry.info))
        addUse(input, entry.info);
      continue;
    }
    if (entry.info >= 0) {
      const OpInfo &info = infos[entry.info];
      if (info.decision.lowPrecision && !info.overflowType) {
        for (Value input : getDataInputs(entry.info))
          addUse(input, kLow);
        bool accumulateLow = info.decision.accumulateType == options.target;
        for (unsigned index : getAccumulatorOperands(entry.info))
          addUse(entry.op->getOperand(index), accumulateLow ? kLow : kHigh);
        continue;
      }
    }
    bool isReturn = lowReturns && entry.op->hasTrait<OpTrait::ReturnLike>() &&
                    entry.op->getParentOp() == root;
    for (Value value : getReads(entry))
      addUse(value, isReturn ? kAny : kHigh);
  }

  // Free ops joined by a value form a group (union-find over op indices);
  // each group is one small cut.
  std::vector<unsigned> parent(ops.size());
  for (unsigned i = 0; i < parent.size(); ++i)
    parent[i] = i;
  auto leaderOf = [&](unsigned i) {
    while (parent[i] != i)
      i = parent[i] = parent[parent[i]];
    return i;
  };
  // A member of the group a value belongs to, or -1.
  auto memberOf = [](const ValueUses &use) {
    if (use.producer >= 0)
      return use.producer;
    return use.consumers.empty() ? -1 : use.consumers.front();
  };
  for (const ValueUses &use : uses) {
    int first = memberOf(use);
    if (!use.joins || first < 0)
      continue;
    for (int consumer : use.consumers)
      parent[leaderOf(consumer)] = leaderOf(first);
  }

  // Bytes: an op in FP32 moves 4 bytes per element it reads or writes, in
  // 16 bits 2; a cast reads 4 and writes 2 (or the reverse) per element.
  // A group that touches nothing in the target type (no green op, no low
  // value) stays in FP32: gray ops run low to serve low-precision ops, never
  // on their own (a chain of gray ops over constants would move fewer bytes
  // in 16 bits, but that is a different conversion).
  std::vector<bool> anchored(ops.size(), false);
  // The members and the values of each group, grouped by leader (a stable
  // sort keeps program order within a group).
  SmallVector<std::pair<unsigned, unsigned>, 0> membersByLeader, valuesByLeader;
  for (auto [i, free] : llvm::enumerate(isFree))
    if (free)
      membersByLeader.push_back({leaderOf(i), static_cast<unsigned>(i)});
  for (auto [u, use] : llvm::enumerate(uses)) {
    // A value that joins nothing has no edges; read low by a fixed op, it
    // is low for each of its free readers.
    if (!use.joins) {
      for (int consumer : use.consumers)
        anchored[leaderOf(consumer)] =
            anchored[leaderOf(consumer)] || use.readLow;
      continue;
    }
    int member = memberOf(use);
    if (member < 0)
      continue;
    unsigned leader = leaderOf(member);
    valuesByLeader.push_back({leader, static_cast<unsigned>(u)});
    if (!anchored[leader] &&
        (use.producer == kLow || isGreenOutput(use.value, member) ||
         use.readLow))
      anchored[leader] = true;
  }
  // Leaders are op indices: a counting sort, stable and linear.
  auto sortByLeader = [&](SmallVectorImpl<std::pair<unsigned, unsigned>> &list) {
    SmallVector<unsigned, 0> start(ops.size() + 1, 0);
    for (const auto &entry : list)
      ++start[entry.first + 1];
    for (size_t i = 1; i < start.size(); ++i)
      start[i] += start[i - 1];
    SmallVector<std::pair<unsigned, unsigned>, 0> sorted(list.size());
    for (const auto &entry : list)
      sorted[start[entry.first]++] = entry;
    list = std::move(sorted);
  };
  sortByLeader(membersByLeader);
  sortByLeader(valuesByLeader);

  MinCutGraph graph;
  std::vector<unsigned> nodeOf(ops.size());
  struct Shrinking {
    int op;
    unsigned use;
    double inputGrowth, resultGrowth;
  };
  SmallVector<Shrinking, 4> shrinking;
  SmallVector<unsigned, 4> penalized;
  auto groupValues = ArrayRef(valuesByLeader);
  for (auto members = ArrayRef(membersByLeader); !members.empty();) {
    unsigned leader = members.front().first;
    size_t count = 1;
    while (count < members.size() && members[count].first == leader)
      ++count;
    ArrayRef<std::pair<unsigned, unsigned>> group = members.take_front(count);
    members = members.drop_front(count);
    while (!groupValues.empty() && groupValues.front().first < leader)
      groupValues = groupValues.drop_front();
    size_t numValues = 0;
    while (numValues < groupValues.size() &&
           groupValues[numValues].first == leader)
      ++numValues;
    ArrayRef<std::pair<unsigned, unsigned>> values =
        groupValues.take_front(numValues);
    groupValues = groupValues.drop_front(numValues);

    if (!anchored[leader]) {
      for (auto [_, member] : group)
        infos[member].decision.lowPrecision = false;
      continue;
    }
    // Values of large growth that a free op of the group brings back down
    // (a division by the count a sum added up, a normalization): handling
    // one in 16 bits (a free op making or reading it low) costs
    // kLargeGrowthBytesPerElement more per element, paid once, so the cut
    // narrows it after that op where this costs no more. The penalty is an
    // edge from the source like an FP32 neighbour, so a group with one is
    // cut even when nothing in FP32 touches it (otherwise the rule would
    // depend on whether an FP32 neighbour happens to be there, and a second
    // run, which sees the first run's casts, could decide differently).
    shrinking.clear();
    penalized.clear();
    double large = options.largeGrowth;
    for (auto [_, u] :
         large > 0 ? values : ArrayRef<std::pair<unsigned, unsigned>>()) {
      const ValueUses &use = uses[u];
      std::optional<double> growth;
      for (int consumer : use.consumers) {
        if (!growth)
          growth = magnitudes.lookup(use.value).growth;
        if (*growth < large)
          break;
        double result = magnitudes.getResultGrowth(ops[consumer]);
        if (result * large <= *growth)
          shrinking.push_back({consumer, u, *growth, result});
      }
      if (!shrinking.empty() && shrinking.back().use == u)
        penalized.push_back(u);
    }
    // A group that nothing in FP32 feeds or reads (a clamp between two
    // convolutions) has no edge from the source: its cut is empty and every
    // member runs low. Most groups of a network are of this kind.
    bool touchesHigh = llvm::any_of(values, [&](const auto &entry) {
      const ValueUses &use = uses[entry.second];
      return use.producer == kHigh || use.readHigh;
    });
    if (!touchesHigh && penalized.empty()) {
      for (auto [_, member] : group)
        infos[member].decision.lowPrecision = true;
      continue;
    }
    graph.clear();
    for (auto [_, member] : group)
      nodeOf[member] = graph.addNode();
    for (auto [_, member] : group) {
      int64_t elements = 0;
      for (Value input : getDataInputs(member))
        elements += getNumElements(input);
      for (Value result : ops[member]->getResults())
        if (isConvertible(result))
          elements += getNumElements(result);
      // Staying in FP32 costs the difference.
      graph.addEdge(nodeOf[member], MinCutGraph::kSink, 2 * elements);
    }
    auto toNode = [&](int side) -> std::optional<unsigned> {
      if (side >= 0)
        return nodeOf[side];
      if (side == kHigh)
        return MinCutGraph::kSource;
      if (side == kLow)
        return MinCutGraph::kSink;
      return std::nullopt;
    };
    for (auto [_, u] : values) {
      const ValueUses &use = uses[u];
      std::optional<unsigned> producer = toNode(use.producer);
      if (!producer)
        continue;
      int64_t castBytes = 6 * getNumElements(use.value);
      SmallVector<unsigned, 2> consumers;
      for (int consumer : use.consumers)
        consumers.push_back(nodeOf[consumer]);
      if (use.readLow)
        consumers.push_back(MinCutGraph::kSink);
      if (use.readHigh)
        consumers.push_back(MinCutGraph::kSource);
      // One cast down, shared by every consumer in the target type: paid
      // when the producer is in FP32 and some consumer is low.
      if (*producer != MinCutGraph::kSink &&
          llvm::any_of(consumers,
                       [](unsigned c) { return c != MinCutGraph::kSource; })) {
        unsigned down = graph.addNode();
        graph.addEdge(*producer, down, castBytes);
        for (unsigned c : consumers)
          graph.addEdge(down, c, MinCutGraph::kInfinite);
      }
      // One cast up, shared by every FP32 consumer.
      if (*producer != MinCutGraph::kSource &&
          llvm::any_of(consumers,
                       [](unsigned c) { return c != MinCutGraph::kSink; })) {
        unsigned up = graph.addNode();
        graph.addEdge(up, *producer, castBytes);
        for (unsigned c : consumers)
          graph.addEdge(c, up, MinCutGraph::kInfinite);
      }
    }
    // The penalties of the values of large growth (found above).
    for (unsigned u : penalized) {
      const ValueUses &use = uses[u];
      unsigned penalty = graph.addNode();
      graph.addEdge(MinCutGraph::kSource, penalty,
                    kLargeGrowthBytesPerElement * getNumElements(use.value));
      if (use.producer >= 0)
        graph.addEdge(penalty, nodeOf[use.producer], MinCutGraph::kInfinite);
      for (int consumer : use.consumers)
        graph.addEdge(penalty, nodeOf[consumer], MinCutGraph::kInfinite);
    }
    graph.solve();
    for (auto [_, member] : group)
      infos[member].decision.lowPrecision = graph.isOnSinkSide(nodeOf[member]);
    // The ops that brought a large value down in FP32 and whose result is
    // narrowed after them: the rule decided them.
    for (const Shrinking &s : shrinking) {
      OpDecision &d = infos[s.op].decision;
      if (d.lowPrecision)
        continue;
      bool narrowedAfter = llvm::any_of(ops[s.op]->getResults(), [&](Value r) {
        auto it = useOf.find(r);
        if (it == useOf.end())
          return false;
        const ValueUses &use = uses[it->second];
        return use.readLow || llvm::any_of(use.consumers, [&](int c) {
                 return infos[c].decision.lowPrecision &&
                        graph.isOnSinkSide(nodeOf[c]);
               });
      });
      if (!narrowedAfter)
        continue;
      d.reason = Reason::NarrowedAfterNormalization;
      d.inputGrowth = s.inputGrowth;
      d.resultGrowth = s.resultGrowth;
    }
  }
}

//===----------------------------------------------------------------------===//
// Queries
//===----------------------------------------------------------------------===//

std::optional<unsigned> PrecisionPlan::findNear(Operation *op,
                                                size_t near) const {
  // Producers and users are most often the ops just before and after.
  constexpr size_t kWindow = 4;
  if (near < ops.size() && ops[near] == op)
    return near;
  for (size_t distance = 1; distance <= kWindow; ++distance) {
    if (near >= distance && near - distance < ops.size() &&
        ops[near - distance] == op)
      return near - distance;
    if (near + distance < ops.size() && ops[near + distance] == op)
      return near + distance;
  }
  return std::nullopt;
}

std::optional<unsigned> PrecisionPlan::findIndex(Operation *op,
                                                 std::optional<size_t> near) const {
  if (near)
    if (std::optional<unsigned> i = findNear(op, *near))
      return i;
  if (index.empty()) {
    index.reserve(ops.size());
    for (auto [i, known] : llvm::enumerate(ops))
      index[known] = i;
  }
  auto it = index.find(op);
  if (it == index.end())
    return std::nullopt;
  return it->second;
}

bool PrecisionPlan::isAccumulatorOperand(Operation *op,
                                         OpOperand &operand) const {
  std::optional<unsigned> i = findIndex(op);
  return i && llvm::is_contained(getAccumulatorOperands(*i),
                                 operand.getOperandNumber());
}

bool PrecisionPlan::isDataOperand(Operation *op, OpOperand &operand) const {
  std::optional<unsigned> i = findIndex(op);
  return i &&
         llvm::is_contained(getDataOperands(*i), operand.getOperandNumber());
}

bool PrecisionPlan::isConvertedLater(Operation *user, unsigned operandNumber,
                                     size_t i) const {
  std::optional<unsigned> j = findIndex(user, i);
  return j && *j > i && infos[*j].decision.lowPrecision &&
         (llvm::is_contained(getDataOperands(*j), operandNumber) ||
          llvm::is_contained(getAccumulatorOperands(*j), operandNumber));
}
