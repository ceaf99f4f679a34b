//===- MixedPrecision.cpp - Carry out a precision plan --------------------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Rewrites a function as its PrecisionPlan says, one op at a time in
// program order:
//  - the operands of a low-precision op are fetched through a cast cache
//    (one cast per value and type; constants and empty tensors are rebuilt
//    instead of cast; a cast of a cast folds back to the original value);
//  - the op is rebuilt by its model and verified; if the model or the
//    verifier refuses, the op is left as it was, with a remark;
//  - each result whose type changed is read as it is by the users the plan
//    converts later (they are given that operand in the type they read it
//    in when their turn comes), and through a cast back to its old type (a
//    view) by all others. A user whose rewrite then fails reads it through
//    the view too. So every op reads valid types once it has been visited,
//    and the whole function is valid at the end.
// Casts and constants nobody uses are erased at the end, and so is what a
// refused rewrite made.
//
//===----------------------------------------------------------------------===//
#include "amp/Transforms/MixedPrecision.h"
#include "amp/Transforms/WeightOnly.h"

#include "CastCache.h"
#include "ConversionReport.h"
#include "ConversionTracking.h"
#include "TrialRewrite.h"

#include "amp/IR/AmpDialect.h"
#include "amp/Utils/CastUtils.h"
#include "amp/Utils/ConversionMemo.h"
#include "amp/Utils/IRKeyInfo.h"
#include "amp/Utils/TypeUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Transforms/ControlFlowSinkUtils.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/xxhash.h"

using namespace mlir;
using namespace mlir::amp;
using namespace mlir::amp::conversion;

void ConversionStats::merge(const ConversionStats &other) {
  casts += other.casts;
  castBytes += other.castBytes;
  grayBytes += other.grayBytes;
  redBytes += other.redBytes;
  foldedConstants += other.foldedConstants;
  constantBytesBefore += other.constantBytesBefore;
  constantBytesAfter += other.constantBytesAfter;
  converted += other.converted;
  fp8 += other.fp8;
  weightOnly += other.weightOnly;
  weightBytesF32 += other.weightBytesF32;
  weightBytes16 += other.weightBytes16;
  weightBytesStored += other.weightBytesStored;
  unknown += other.unknown;
  green += other.green;
  grayLow += other.grayLow;
  grayHigh += other.grayHigh;
  red += other.red;
  constants.merge(other.constants);
}

namespace {

/// Converted results that users still to be converted read as they are,
/// with their old element type: a user whose rewrite fails reads them
/// through a view instead. The first result of an op of the plan converted
/// in place (most of them) is kept by the op's index, with no hashing; the
/// others by value.
class PendingTypes {
public:
  explicit PendingTypes(const PrecisionPlan &plan)
      : plan(plan), byIndex(plan.getOps().size()) {}

  /// Notes `result`, a result of getOps()[i] or of the op that replaced it,
  /// with its old element type (the first note of a value is kept).
  void add(Value result, size_t i, Type oldType) {
    auto opResult = cast<OpResult>(result);
    if (opResult.getResultNumber() == 0 &&
        opResult.getOwner() == plan.getOps()[i]) {
      if (!byIndex[i])
        byIndex[i] = oldType;
      return;
    }
    byValue.try_emplace(result, oldType);
  }

  /// The old element type of `value` if it was noted, else null. `near` is
  /// the index of an op that reads it. (An op converted in place stays
  /// while the conversion runs: the op at its index is still it.)
  Type lookup(Value value, size_t near) const {
    if (auto result = dyn_cast<OpResult>(value);
        result && result.getResultNumber() == 0)
      if (std::optional<unsigned> i = plan.findIndex(result.getOwner(), near);
          i && byIndex[*i])
        return byIndex[*i];
    return byValue.lookup(value);
  }

private:
  const PrecisionPlan &plan;
  std::vector<Type> byIndex;
  DenseMap<Value, Type, ValueKeyInfo> byValue;
};

/// True if `op` already has the operand and result types its rewrite would
/// give it (the pass ran before).
bool isAlreadyConverted(Operation *op, ValueRange operands,
                        const OpDecision &decision) {
  if (!llvm::equal(op->getOperands(), operands))
    return false;
  Type native = decision.computeType;
  if (auto iface = getMixedPrecisionInterface(op))
    native = iface.getConvertedResultElementType(decision.computeType,
                                                 decision.accumulateType);
  return llvm::all_of(op->getResultTypes(), [&](Type type) {
    return !hasFloatElementType(type) || getScalarType(type) == native;
  });
}

int64_t countFloatConstantBytes(Operation *root) {
  int64_t bytes = 0;
  root->walk([&](Operation *op) {
    if (!isFloatConstant(op))
      return;
    bytes += getConstantByteSize(getConstantAttr(op));
  });
  return bytes;
}

/// The remark of `remarks=true`: color, reason and types of one op.
void emitDecisionRemark(Operation *op, const OpDecision &decision) {
  InFlightDiagnostic diag = mlir::emitRemark(op->getLoc());
  diag << "amp: " << stringifyColor(decision.color) << " ("
       << stringifyReason(decision.reason) << "), ";
  if (!decision.lowPrecision) {
    diag << "stays in FP32";
  } else {
    diag << "inputs " << decision.computeType;
    if (decision.color == Color::green)
      diag << ", accumulate " << decision.accumulateType << ", output "
           << decision.outputType;
  }
  if (std::string why = describeRangeReason(decision); !why.empty())
    diag << "; " << why;
}

std::string getFunctionName(Operation *root) {
  if (auto symbol = dyn_cast<SymbolOpInterface>(root))
    return symbol.getName().str();
  return root->getName().getStringRef().str();
}

} // namespace

//===----------------------------------------------------------------------===//
// Converting a function
//===----------------------------------------------------------------------===//

namespace {
/// One operand the rewrite of an op reads converted: its number and type.
using OperandRead = std::pair<unsigned, Type>;

/// One round of the conversion of a function, in four steps: the FP8
/// stage (runFP8), the plan, the rewrite of each op of the plan in program
/// order (convertOp), and the cleanup of the casts and constants it made
/// (finish).
class FunctionRewrite {
public:
  FunctionRewrite(Operation *root, const MixedPrecisionOptions &options,
                  FunctionConversion &out)
      : root(root), options(options), out(out),
        rewriter(root->getContext(), &listener), casts(rewriter) {
    listener.cache = &casts;
  }

  LogicalResult run(ArrayRef<Operation *> disposableCasts);

private:
  /// Converts the contractions FP8 takes; returns the plan's options.
  FailureOr<const MixedPrecisionOptions *> runFP8();
  void convertOp(size_t planIndex);
  /// The record of op `planIndex`, with its FP8 fallback if it has one.
  OpRecord makeRecord(Operation *op, size_t planIndex);
  /// The elements a gray or red op reads and writes (data operands, float
  /// results), before its rewrite changes them.
  int64_t countMovedElements(Operation *op, size_t planIndex);
  /// The type each converted operand is read in, in operand order (both
  /// lists are sorted).
  SmallVector<OperandRead, 4> getReads(Operation *op, size_t planIndex);
  /// Fetches `operands` in the types `reads` says: through the cast cache,
  /// or, for a constant or empty tensor that may be converted in place,
  /// noted in `inPlace` (converted once the op is known to need it).
  void fetchOperands(Operation *op, size_t planIndex,
                     ArrayRef<OperandRead> reads,
                     SmallVectorImpl<Value> &operands,
                     SmallVectorImpl<OperandRead> &inPlace);
  /// Whether the later readers of a constant read it only as op
  /// `planIndex` does (fetchOperands).
  bool othersReadAlike(Operation *op, size_t planIndex, Value value,
                       Type type);
  /// After a failed rewrite: `op` reads what it read before.
  void readAsBefore(Operation *op, size_t planIndex);
  /// After a successful one: the users of each retyped result read it.
  void handOverResults(Operation *op, Operation *newOp,
                       ArrayRef<Type> oldTypes, size_t planIndex);
  void addRecord(OpRecord &record, int64_t movedElements);
  void finish();

  Operation *root;
  const MixedPrecisionOptions &options;
  FunctionConversion &out;
  // (Declared first, destroyed last: it erases the ops it detached.)
  FP8Conversion fp8;
  MixedPrecisionOptions afterFP8;
  std::optional<PrecisionPlan> plan;
  ConversionListener listener;
  IRRewriter rewriter;
  CastCache casts;
  std::optional<PendingTypes> pendingTypes;
};

FailureOr<const MixedPrecisionOptions *> FunctionRewrite::runFP8() {
  // FP8 first: the contractions it converts (and the ops it makes) are
  // left alone by the plan, which decides everything else in the fallback
  // type (options.target).
  if (failed(convertWeightOnlyContractions(root, options, fp8)) ||
      failed(convertContractionsToFP8(root, options, fp8)))
    return failure();
  const MixedPrecisionOptions *planOptions = &options;
  if (options.fp8Type || !fp8.converted.empty() || !fp8.fallbacks.empty()) {
    afterFP8 = options;
    afterFP8.fixedOps = &fp8.fixedOps;
    // skip-layers counted the green ops before some became FP8.
    afterFP8.skippedOps = &fp8.skippedOps;
    if (!fp8.observed.empty() && options.observedMaxAbs)
      afterFP8.observedMaxAbs = [this, observed = options.observedMaxAbs](
                                    OpResult value) -> std::optional<double> {
        auto it = fp8.observed.find(value);
        if (it != fp8.observed.end())
          return it->second;
        return observed(value);
      };
    planOptions = &afterFP8;
  }
  for (FP8Conversion::Converted &converted : fp8.converted) {
    if (const FP8Record &r = converted.record; r.weights) {
      ++out.stats.weightOnly;
      out.stats.weightBytesF32 += r.weightBytesF32;
      out.stats.weightBytes16 += r.weightBytes16;
      out.stats.weightBytesStored += r.weightBytesStored;
    } else {
      ++out.stats.fp8;
    }
    ++out.stats.green;
    ++out.stats.converted;
    out.stats.constants.merge(converted.record.constants);
    if (options.recordDecisions)
      out.records.push_back(
          {converted.opName, converted.location, converted.decision,
           std::make_shared<FP8Record>(std::move(converted.record))});
  }
  return planOptions;
}

LogicalResult FunctionRewrite::run(ArrayRef<Operation *> disposableCasts) {
  FailureOr<const MixedPrecisionOptions *> planOptions = runFP8();
  if (failed(planOptions))
    return failure();
  plan.emplace(root, **planOptions);
  if (failed(plan->run()))
    return failure();

  CaptureHandler captureHandler(root->getContext());
  casts.reserve(plan->getOps().size());
  for (Operation *castOp : disposableCasts)
    casts.release(castOp);
  if (options.recordDecisions)
    out.records.reserve(plan->getOps().size());
  pendingTypes.emplace(*plan);
  for (size_t planIndex = 0, e = plan->getOps().size(); planIndex < e;
       ++planIndex)
    convertOp(planIndex);
  finish();
  return success();
}

void FunctionRewrite::addRecord(OpRecord &record, int64_t movedElements) {
  const OpDecision &d = record.decision;
  ConversionStats &stats = out.stats;
  int64_t bytes =
      movedElements *
      (d.lowPrecision ? d.computeType.getIntOrFloatBitWidth() / 8 : 4);
  if (d.color == Color::gray)
    stats.grayBytes += bytes;
  else if (d.color == Color::red)
    stats.redBytes += bytes;
  stats.unknown += d.unknown;
  if (d.color == Color::green && d.lowPrecision)
    ++stats.green;
  else if (d.color == Color::gray)
    ++(d.lowPrecision ? stats.grayLow : stats.grayHigh);
  else if (d.color == Color::red)
    ++stats.red;
  if (options.recordDecisions)
    out.records.push_back(std::move(record));
}

OpRecord FunctionRewrite::makeRecord(Operation *op, size_t planIndex) {
  const OpDecision &decision = plan->getDecision(planIndex);
  OpRecord record{op->getName(), op->getLoc(), decision};
  // A contraction that asked for FP8 and runs in the fallback type says
  // why.
  if (!fp8.fallbacks.empty()) {
    auto it = fp8.fallbacks.find(op);
    if (it != fp8.fallbacks.end()) {
      if (decision.color == Color::green && decision.lowPrecision)
        record.decision.reason = it->second.first;
      record.fp8 = std::make_shared<FP8Record>(it->second.second);
    }
  }
  return record;
}

int64_t FunctionRewrite::countMovedElements(Operation *op, size_t planIndex) {
  if (plan->getDecision(planIndex).color == Color::green)
    return 0;
  int64_t elements = 0;
  for (unsigned i : plan->getDataOperands(planIndex))
    elements += getStaticElementCount(op->getOperand(i).getType());
  for (Type type : op->getResultTypes())
    if (isCastableFloatType(type))
      elements += getStaticElementCount(type);
  return elements;
}

SmallVector<OperandRead, 4> FunctionRewrite::getReads(Operation *op,
                                                      size_t planIndex) {
  // (Casts of block arguments are placed in the order they are asked for.)
  const OpDecision &decision = plan->getDecision(planIndex);
  SmallVector<OperandRead, 4> reads;
  ArrayRef<unsigned> accumulators = plan->getAccumulatorOperands(planIndex);
  ArrayRef<unsigned> data = plan->getDataOperands(planIndex);
  while (!accumulators.empty() || !data.empty()) {
    bool takeAccumulator =
        data.empty() ||
        (!accumulators.empty() && accumulators.front() < data.front());
    ArrayRef<unsigned> &list = takeAccumulator ? accumulators : data;
    reads.push_back({list.front(), takeAccumulator ? decision.accumulateType
                                                   : decision.computeType});
    list = list.drop_front();
  }
  // Constant zero points take the compute type too.
  if (auto iface = getMixedPrecisionInterface(op)) {
    size_t numReads = reads.size();
    for (OpOperand &operand : op->getOpOperands())
      if (getScalarType(operand.get()).isF32() &&
          iface.isZeroPointOperand(operand) &&
          isFloatConstant(operand.get().getDefiningOp()))
        reads.push_back({operand.getOperandNumber(), decision.computeType});
    if (reads.size() != numReads)
      llvm::sort(reads, llvm::less_first());
  }
  return reads;
}

bool FunctionRewrite::othersReadAlike(Operation *op, size_t planIndex,
                                      Value value, Type type) {
  // A constant that later ops read too is converted in place as well if
  // each of them reads it only as this op does: a data operand (or a
  // constant zero point) in `type` (a layer's bias and zero points, read
  // by its convolutions).
  for (OpOperand &use : value.getUses()) {
    Operation *user = use.getOwner();
    if (user == op)
      continue;
    std::optional<unsigned> j = plan->findIndex(user, planIndex);
    if (!j || *j <= planIndex)
      return false;
    const OpDecision &later = plan->getDecision(*j);
    if (!later.lowPrecision || later.computeType != type)
      return false;
    if (llvm::is_contained(plan->getDataOperands(*j), use.getOperandNumber()))
      continue;
    auto iface = getMixedPrecisionInterface(user);
    if (!iface || !iface.isZeroPointOperand(use))
      return false;
  }
  return true;
}

void FunctionRewrite::fetchOperands(Operation *op, size_t planIndex,
                                    ArrayRef<OperandRead> reads,
                                    SmallVectorImpl<Value> &operands,
                                    SmallVectorImpl<OperandRead> &inPlace) {
  // A constant or empty tensor only this op reads, in one type, is
  // converted in place; other operands get a cast or a converted copy.
  auto readInOneType = [&](Value value, Type type) {
    for (auto [number, operand] : llvm::enumerate(op->getOperands())) {
      if (operand != value)
        continue;
      auto it = llvm::find_if(reads, [&, number = number](const auto &read) {
        return read.first == number;
      });
      if (it == reads.end() || it->second != type)
        return false;
    }
    return true;
  };
  for (auto [i, type] : reads) {
    Value value = operands[i];
    if (casts.canConvertInPlace(value, type, op,
                                [&, type = type] {
                                  return othersReadAlike(op, planIndex, value,
                                                         type);
                                }) &&
        readInOneType(value, type))
      inPlace.push_back({i, type});
    else
      operands[i] = casts.get(value, type, op);
  }
}

void FunctionRewrite::readAsBefore(Operation *op, size_t planIndex) {
  // It was to read some converted results as they are: it reads them
  // through a view in their old type instead; and a constant an earlier
  // reader converted in place for both of them, through a copy with its
  // FP32 value.
  for (OpOperand &operand : op->getOpOperands()) {
    Value old = operand.get();
    Value to = casts.getOriginal(old);
    if (Type oldType = pendingTypes->lookup(old, planIndex))
      to = casts.getView(old, oldType);
    if (to != old)
      rewriter.modifyOpInPlace(op, [&] { operand.set(to); });
  }
}

void FunctionRewrite::handOverResults(Operation *op, Operation *newOp,
                                      ArrayRef<Type> oldTypes,
                                      size_t planIndex) {
  for (auto [index, oldType] : llvm::enumerate(oldTypes)) {
    Value newResult = newOp->getResult(index);
    Value oldResult = op->getResult(index);
    if (newResult.getType() == oldType) {
      if (newOp != op)
        rewriter.replaceAllUsesWith(oldResult, newResult);
      continue;
    }
    // Users the plan converts later read the new result itself (their
    // cast, if they read it in another type, is made when they are); the
    // others read it through a view in its old type.
    Value view;
    bool direct = false;
    for (OpOperand &use : llvm::make_early_inc_range(oldResult.getUses())) {
      Operation *user = use.getOwner();
      if (view && user == view.getDefiningOp())
        continue;
      Value to;
      if (plan->isConvertedLater(user, use.getOperandNumber(), planIndex)) {
        to = newResult;
        direct = true;
      } else {
        if (!view)
          view = casts.getView(newResult, getScalarType(oldType));
        to = view;
      }
      if (use.get() != to)
        rewriter.modifyOpInPlace(user, [&] { use.set(to); });
    }
    if (direct)
      pendingTypes->add(newResult, planIndex, getScalarType(oldType));
  }
}

void FunctionRewrite::convertOp(size_t planIndex) {
  // A failed rewrite may restore the op as a new one.
  Operation *op = plan->getOps()[planIndex];
  const OpDecision &decision = plan->getDecision(planIndex);
  OpRecord record = makeRecord(op, planIndex);
  int64_t movedElements = countMovedElements(op, planIndex);
  if (options.remarks && options.diagnostics)
    emitDecisionRemark(op, decision);
  if (!decision.lowPrecision)
    return addRecord(record, movedElements);

  SmallVector<OperandRead, 4> reads = getReads(op, planIndex);
  SmallVector<Value> operands(op->getOperands());
  SmallVector<OperandRead, 2> inPlace;
  fetchOperands(op, planIndex, reads, operands, inPlace);
  // An op with an FP32 constant left to convert, or that reads a result
  // converted before it (or a constant converted in place for it) as it
  // is, is not converted yet. (The type test first: it fails for an op
  // still to convert, and spares the table lookups.)
  if (inPlace.empty() && isAlreadyConverted(op, operands, decision) &&
      llvm::none_of(op->getOperands(), [&](Value v) {
        return pendingTypes->lookup(v, planIndex) || casts.isShared(v);
      }))
    return addRecord(record, movedElements);
  SmallVector<CastCache::InPlaceConversion, 2> convertedInPlace;
  for (auto [i, type] : inPlace)
    casts.convertInPlace(operands[i], type, convertedInPlace);

  SmallVector<Type> oldTypes(op->getResultTypes());
  casts.noteInputsOf(op, convertedInPlace);
  // (A constant converted in place for the op is read by its rewrite.)
  SmallVector<Operation *, 4> inputDefs;
  for (Value operand : op->getOperands())
    if (Operation *def = operand.getDefiningOp();
        def && !CastCache::isConvertedInPlace(convertedInPlace, def))
      inputDefs.push_back(def);
  std::string why;
  FailureOr<Operation *> newOp =
      rewriteVerified(op, rewriter, listener, operands, decision, why);
  if (failed(newOp)) {
    casts.restoreInPlace(convertedInPlace);
    readAsBefore(op, planIndex);
    if (options.diagnostics)
      mlir::emitRemark(op->getLoc())
          << "'" << op->getName()
          << "' stays in FP32: it could not be rebuilt in "
          << decision.computeType << " (" << why << ")";
    record.decision.lowPrecision = false;
    record.decision.reason = Reason::UnsupportedTypes;
    return addRecord(record, movedElements);
  }
  handOverResults(op, *newOp, oldTypes, planIndex);
  for (const CastCache::InPlaceConversion &conversion : convertedInPlace)
    casts.noteConvertedInPlace(conversion, *newOp);
  if (*newOp != op)
    rewriter.eraseOp(op);
  casts.eraseDeadInputs(inputDefs);
  ++out.stats.converted;
  addRecord(record, movedElements);
}

void FunctionRewrite::finish() {
  casts.foldRoundTrips();
  deduplicateCasts(root, listener.casts, rewriter);
  deduplicateConstants(root, listener.constants, rewriter);
  casts.eraseDead();
  casts.sinkIntoBranches();
  out.stats.casts = casts.countLiveCasts();
  out.stats.castBytes = casts.countLiveCastBytes();
  out.stats.foldedConstants = casts.countLiveConstants();
  out.stats.constants.merge(plan->getConstantSummary());
}

/// One round of the conversion: plans `root` and rewrites it.
LogicalResult convertOnce(Operation *root, const MixedPrecisionOptions &options,
                          FunctionConversion *result,
                          ArrayRef<Operation *> disposableCasts) {
  // A layer's bounds, zero points and activation types are converted once
  // per function, not once per layer.
  ConversionMemo memo;
  ConversionMemo::Scope memoScope(memo);

  FunctionConversion local;
  FunctionConversion &out = result ? *result : local;
  out.function = getFunctionName(root);
  FunctionRewrite rewrite(root, options, out);
  return rewrite.run(disposableCasts);
}

} // namespace

bool FunctionConversion::decidedByRanges() const {
  // A constant that does not fit, or a +-FLT_MAX sentinel written as the
  // target's largest value (which the range analysis reads as unbounded in
  // FP32, and as that finite value once converted).
  if (!stats.constants.fits() || stats.constants.numSentinel)
    return true;
  return llvm::any_of(records, [](const OpRecord &record) {
    switch (record.decision.reason) {
    case Reason::ValueOutOfRange:
    case Reason::IntegerNotExact:
    case Reason::ObservedRange:
    case Reason::ConstantOutOfRange:
      return true;
    default:
      return false;
    }
  });
}

void FunctionConversion::mergeLaterRound(const FunctionConversion &later) {
  llvm::DenseMap<std::pair<Location, OperationName>, size_t> byOp;
  for (auto [i, record] : llvm::enumerate(records))
    byOp.try_emplace({record.location, record.opName}, i);
  for (const OpRecord &record : later.records) {
    if (!record.decision.lowPrecision)
      continue;
    auto it = byOp.find({record.location, record.opName});
    if (it != byOp.end() && !records[it->second].decision.lowPrecision)
      records[it->second].decision = record.decision;
  }
  // The later round planned the whole function as it is now: its counts
  // are those of the result, but for what only the first round saw.
  ConversionStats merged = later.stats;
  merged.converted += stats.converted;
  // The contractions converted to FP8 take no part in later rounds.
  merged.fp8 += stats.fp8;
  merged.green += stats.fp8 + stats.weightOnly;
  merged.weightOnly += stats.weightOnly;
  merged.weightBytesF32 += stats.weightBytesF32;
  merged.weightBytes16 += stats.weightBytes16;
  merged.weightBytesStored += stats.weightBytesStored;
  merged.constants = stats.constants;
  merged.constantBytesBefore = stats.constantBytesBefore;
  stats = merged;
}

LogicalResult mlir::amp::convertToMixedPrecision(
    Operation *root, const MixedPrecisionOptions &options,
    FunctionConversion *result, ArrayRef<Operation *> disposableCasts) {
  FunctionConversion local;
  FunctionConversion &out = result ? *result : local;
  MixedPrecisionOptions first = options;
  first.recordDecisions |= options.fixedPoint; // decidedByRanges reads them
  if (options.countConstantBytes)
    out.stats.constantBytesBefore = countFloatConstantBytes(root);
  if (failed(convertOnce(root, first, &out, disposableCasts)))
    return failure();
  MixedPrecisionOptions quiet = first;
  quiet.diagnostics = false;
  for (int round = 1; options.fixedPoint && round < kMaxConversionRounds &&
                      out.decidedByRanges();
       ++round) {
    OperationFingerPrint before(root);
    FunctionConversion again;
    if (failed(convertOnce(root, quiet, &again, {})))
      return failure();
    if (OperationFingerPrint(root) == before)
      break;
    out.mergeLaterRound(again);
  }
  if (!options.recordDecisions)
    out.records.clear();
  if (options.countConstantBytes)
    out.stats.constantBytesAfter = countFloatConstantBytes(root);
  return success();
}
