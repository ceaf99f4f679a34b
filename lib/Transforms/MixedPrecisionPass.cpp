//===- MixedPrecisionPass.cpp - The --amp-mixed-precision pass ------------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The pass resolves and checks its options once (initialize), then converts:
//  - on a function: that function;
//  - on any other op (a module): every function nested in it, in parallel on
//    the context's thread pool, each with its own state; with
//    keep-io-types=false in waves, callees first, each wave's public
//    signatures updated before its callers are converted; then the report.
// The conversion itself is convertToMixedPrecision (MixedPrecision.cpp).
//
//===----------------------------------------------------------------------===//

#include "amp/Transforms/Passes.h"

#include "ReportFile.h"
#include "amp/Analysis/ObservedRanges.h"
#include "amp/Report/HtmlReport.h"
#include "amp/Transforms/ConstantPayloads.h"
#include "amp/Transforms/MixedPrecision.h"
#include "amp/Transforms/WeightOnly.h"
#include "amp/Utils/CastUtils.h"
#include "amp/Utils/ConversionMemo.h"
#include "amp/Utils/OpNames.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/IR/Threading.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/Sequence.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"

#include <cmath>
#include <limits>
#include <memory>

namespace mlir {
namespace amp {
#define GEN_PASS_DEF_AMPMIXEDPRECISIONPASS
#define GEN_PASS_DEF_AMPPLANPRECISIONPASS
#define GEN_PASS_DEF_AMPAPPLYPRECISIONPASS
#include "amp/Transforms/Passes.h.inc"
} // namespace amp
} // namespace mlir

using namespace mlir;
using namespace mlir::amp;

namespace {

/// What --amp-mixed-precision and --amp-plan-precision share: their options
/// (the same list, Passes.td) and how they are resolved, once, into
/// MixedPrecisionOptions; the options for one function (policy scope,
/// observed ranges).
template <typename Derived, template <typename> class BaseT>
struct MixedPrecisionPassCommon : public BaseT<Derived> {
  using Base = BaseT<Derived>;
  using Base::Base;
  using Base::accumulateType, Base::clampConstants, Base::fallbackType,
      Base::foldConstantPayloads, Base::fp8MinMacs, Base::grayOps, Base::grayStrategy, Base::greenOps,
      Base::keepIOTypes, Base::largeGrowth, Base::minMacs, Base::outputType,
      Base::overflowType, Base::policy, Base::rangeAnalysis, Base::rangeMargin,
      Base::ranges, Base::redOps, Base::remarks, Base::report, Base::skipLayers,
      Base::targetType, Base::unknownOps, Base::weightOnly, Base::weightScales;

  LogicalResult initialize(MLIRContext *ctx) override;

protected:
  /// The options for converting `op`: the resolved options with the policy
  /// that applies there.
  MixedPrecisionOptions optionsFor(Operation *op) const;
  /// With ranges=: matches the observed ranges to the values of `func`
  /// (before anything is converted: the keys are those of the model as
  /// calibrated) and sets observedMaxAbs, warning about missing, stale and
  /// unreached entries.
  void attachObservedRanges(Operation *func,
                            MixedPrecisionOptions &options) const;
  /// The functions nested in `root` (not `root` itself), in pre-order.
  static SmallVector<Operation *> collectFunctions(Operation *root);
  /// With fold-constant-payloads: evaluates the constant parts of the
  /// payloads of `func` (ConstantPayloads.h), before anything looks at its
  /// ops. Returns the number of values evaluated.
  unsigned foldPayloads(Operation *func) const {
    return foldConstantPayloads ? amp::foldConstantPayloads(func).values : 0;
  }

  MixedPrecisionOptions resolved;
  /// The policy given with `policy=`, if any.
  PrecisionPolicyAttrInterface explicitPolicy;
  /// The file given with `ranges=`, if any.
  std::shared_ptr<const ObservedRanges> observedRanges;
};

#define AMP_COMMON_TEMPLATE                                                    \
  template <typename Derived, template <typename> class BaseT>
#define AMP_COMMON MixedPrecisionPassCommon<Derived, BaseT>

struct AmpMixedPrecisionPass
    : public MixedPrecisionPassCommon<AmpMixedPrecisionPass,
                                      amp::impl::AmpMixedPrecisionPassBase> {
  using MixedPrecisionPassCommon::MixedPrecisionPassCommon;

  void runOnOperation() override;

private:
  void updateStatistics(const FunctionConversion &conversion);
};

struct AmpPlanPrecisionPass
    : public MixedPrecisionPassCommon<AmpPlanPrecisionPass,
                                      amp::impl::AmpPlanPrecisionPassBase> {
  using MixedPrecisionPassCommon::MixedPrecisionPassCommon;

  void runOnOperation() override;
};

/// Parses a float type option; "target" names the target type.
FailureOr<FloatType> parseFloatOption(MLIRContext *ctx, StringRef passName,
                                      StringRef option, StringRef text,
                                      FloatType target,
                                      ArrayRef<StringRef> allowed) {
  auto fail = [&]() -> FailureOr<FloatType> {
    InFlightDiagnostic diag = emitError(UnknownLoc::get(ctx))
                              << passName << ": invalid " << option
                              << " '" << text << "'; expected one of: ";
    llvm::interleaveComma(allowed, diag);
    return failure();
  };
  if (!llvm::is_contained(allowed, text))
    return fail();
  if (text == "target")
    return target;
  Type type = parseType(text, ctx, /*numRead=*/nullptr, /*isKnownNullTerminated=*/false);
  auto floatType = dyn_cast_or_null<FloatType>(type);
  if (!floatType)
    return fail();
  return floatType;
}

AMP_COMMON_TEMPLATE
LogicalResult AMP_COMMON::initialize(MLIRContext *ctx) {
  StringRef passName = this->getArgument();
  auto error = [&]() {
    return emitError(UnknownLoc::get(ctx)) << passName << ": ";
  };

  FailureOr<FloatType> target =
      parseFloatOption(ctx, passName, "target-type", targetType, FloatType(),
                       {"f16", "bf16", "f8E4M3FN", "f8E5M2"});
  if (failed(target))
    return failure();
  if (!report.empty() && !getReportFormat(report))
    return error() << "report= '" << report
                   << "' has an unknown extension; a report is "
                   << getReportExtensions();
  // With an FP8 target, the 16-bit type of everything else is the fallback
  // type: the plan's target.
  resolved.fp8Type = isFP8Type(*target) ? *target : FloatType();
  FailureOr<FloatType> fallback =
      parseFloatOption(ctx, passName, "fallback-type", fallbackType,
                       FloatType(), {"f16", "bf16"});
  if (failed(fallback))
    return failure();
  if (!resolved.fp8Type && fallbackType != "f16")
    emitWarning(UnknownLoc::get(ctx))
        << passName << ": fallback-type applies to an FP8 target-type "
        << "(f8E4M3FN, f8E5M2) and is ignored with target-type=" << targetType;
  resolved.target = resolved.fp8Type ? *fallback : *target;
  std::string low;
  llvm::raw_string_ostream(low) << resolved.target;
  if (weightScales != "per-tensor" && weightScales != "per-channel")
    return error() << "invalid weight-scales '" << weightScales
                   << "'; expected one of: per-tensor, per-channel";
  resolved.fp8PerChannelScales = weightScales == "per-channel";
  if (fp8MinMacs < 0)
    return error() << "fp8-min-macs must be non-negative, got "
                   << static_cast<int64_t>(fp8MinMacs);
  resolved.fp8MinMacs = fp8MinMacs;
  if (weightOnly != "none") {
    std::string message;
    resolved.weightOnly = parseWeightQuantSpec(weightOnly, message);
    if (!resolved.weightOnly)
      return error() << "weight-only: " << message << " or none";
    if (resolved.fp8Type)
      return error() << "weight-only=" << weightOnly
                     << " keeps the activations in 16 bits and cannot be "
                        "combined with an FP8 target-type (" << targetType
                     << "); annotate single ops with amp.weights instead";
  }

  FailureOr<FloatType> accumulate =
      parseFloatOption(ctx, passName, "accumulate-type", accumulateType,
                       resolved.target, {"f32", "target", low});
  FailureOr<FloatType> output =
      parseFloatOption(ctx, passName, "output-type", outputType,
                       resolved.target, {"target", "f32", low});
  if (failed(accumulate) || failed(output))
    return failure();
  if (minMacs < 0)
    return error() << "min-macs must be non-negative, got "
                   << static_cast<int64_t>(minMacs);

  resolved.policy = cast<PrecisionPolicyAttrInterface>(
      DefaultPolicyAttr::get(ctx, *accumulate, *output, minMacs));
  FloatType target16 = resolved.target;
  if (!policy.empty()) {
    // Parse quietly and report the parser's message as part of ours.
    std::string parseError;
    Attribute attr;
    {
      ScopedDiagnosticHandler quiet(ctx, [&](Diagnostic &diag) {
        if (parseError.empty())
          parseError = diag.str();
        return success();
      });
      attr = parseAttribute(policy, ctx);
    }
    if (!attr)
      return error() << "cannot parse policy '" << policy
                     << "': " << parseError;
    explicitPolicy = dyn_cast<PrecisionPolicyAttrInterface>(attr);
    if (!explicitPolicy)
      return error() << "policy " << attr
                     << " does not implement PrecisionPolicyAttrInterface";
    if (accumulateType.hasValue() || outputType.hasValue() ||
        minMacs.hasValue())
      emitWarning(UnknownLoc::get(ctx))
          << passName
          << ": accumulate-type, output-type and min-macs "
             "configure the default policy and are ignored with policy=";
  }

  // Op lists: every name must be a known op, in one list only.
  resolved.userColors.clear();
  auto addList = [&](const Pass::ListOption<std::string> &list, StringRef name,
                     Color color) -> LogicalResult {
    for (const std::string &opName : list) {
      std::string reason;
      switch (checkOpName(ctx, opName, reason)) {
      case OpNameStatus::Unregistered:
        // With --allow-unregistered-dialect, names of unregistered ops are
        // legitimate and cannot be checked.
        resolved.userColors.try_emplace(opName, color);
        continue;
      case OpNameStatus::Unknown: {
        InFlightDiagnostic diag = error() << "unknown op name '" << opName
                                          << "' in " << name << "=";
        if (!reason.empty())
          diag << " " << reason;
        return diag;
      }
      case OpNameStatus::Registered:
        break;
      }
      auto [it, inserted] = resolved.userColors.try_emplace(opName, color);
      if (!inserted && it->second != color)
        return error() << "op '" << opName << "' is in two lists ("
                       << stringifyColor(it->second) << " and " << name
                       << ")";
    }
    return success();
  };
  if (failed(addList(greenOps, "green", Color::green)) ||
      failed(addList(grayOps, "gray", Color::gray)) ||
      failed(addList(redOps, "red", Color::red)))
    return failure();

  resolved.skipLayers.assign(skipLayers.begin(), skipLayers.end());
  if (unknownOps == "red")
    resolved.unknownOps = UnknownOpPolicy::Red;
  else if (unknownOps == "gray")
    resolved.unknownOps = UnknownOpPolicy::Gray;
  else if (unknownOps == "error")
    resolved.unknownOps = UnknownOpPolicy::Error;
  else
    return error() << "invalid unknown-ops '" << unknownOps
                   << "'; expected one of: red, gray, error";
  if (grayStrategy == "min-bytes")
    resolved.grayStrategy = GrayStrategy::MinBytes;
  else if (grayStrategy == "fewest-casts")
    resolved.grayStrategy = GrayStrategy::FewestCasts;
  else if (grayStrategy == "follow")
    resolved.grayStrategy = GrayStrategy::Follow;
  else
    return error() << "invalid gray-strategy '" << grayStrategy
                   << "'; expected one of: min-bytes, fewest-casts, follow";
  FailureOr<FloatType> overflow =
      parseFloatOption(ctx, passName, "overflow-type", overflowType, target16,
                       {"f32", "f16", "bf16"});
  if (failed(overflow))
    return failure();
  if (*overflow == target16)
    return error() << "overflow-type must differ from "
                   << (resolved.fp8Type ? "fallback-type" : "target-type")
                   << " (" << low
                   << "): it is the type of ops whose values do not fit it";
  resolved.overflowType = overflow->isF32() ? FloatType() : *overflow;
  if (rangeAnalysis == "walk")
    resolved.rangeAnalysis = RangeAnalysisKind::Walk;
  else if (rangeAnalysis == "dataflow")
    resolved.rangeAnalysis = RangeAnalysisKind::Dataflow;
  else if (rangeAnalysis == "off")
    resolved.rangeAnalysis = RangeAnalysisKind::Off;
  else
    return error() << "invalid range-analysis '" << rangeAnalysis
                   << "'; expected one of: walk, dataflow, off";
  observedRanges.reset();
  if (!(rangeMargin >= 1.0) || std::isinf(rangeMargin))
    return error() << "range-margin must be a finite number of at least 1, "
                      "got "
                   << llvm::formatv("{0}", static_cast<double>(rangeMargin))
                          .str();
  if (!ranges.empty()) {
    llvm::Expected<ObservedRanges> loaded = ObservedRanges::load(ranges);
    if (!loaded)
      return error() << "ranges=: " << llvm::toString(loaded.takeError());
    if (loaded->empty())
      return error() << "ranges=: " << ranges
                     << " has no functions: nothing to match";
    observedRanges =
        std::make_shared<const ObservedRanges>(std::move(*loaded));
  } else if (rangeMargin != 2.0) {
    emitWarning(UnknownLoc::get(ctx))
        << passName << ": range-margin applies to observed ranges "
           "and is ignored without ranges=";
  }
  if (!(largeGrowth == 0.0 || largeGrowth >= 1.0) || std::isinf(largeGrowth))
    return error()
           << "large-growth must be 0 (off) or a finite number of "
              "at least 1, got "
           << llvm::formatv("{0}", static_cast<double>(largeGrowth)).str();
  resolved.largeGrowth = largeGrowth;
  resolved.clampConstants = clampConstants;
  resolved.countConstantBytes = !report.empty();
  resolved.recordDecisions = !report.empty();
  resolved.keepIOTypes = keepIOTypes;
  resolved.remarks = remarks;
  return success();
}

AMP_COMMON_TEMPLATE
SmallVector<Operation *> AMP_COMMON::collectFunctions(Operation *root) {
  SmallVector<Operation *> functions;
  root->walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (op == root)
      return WalkResult::advance();
    if (auto func = dyn_cast<FunctionOpInterface>(op)) {
      if (!func.isExternal())
        functions.push_back(op);
      return WalkResult::skip();
    }
    return WalkResult::advance();
  });
  return functions;
}

AMP_COMMON_TEMPLATE
MixedPrecisionOptions AMP_COMMON::optionsFor(Operation *op) const {
  MixedPrecisionOptions options = resolved;
  if (explicitPolicy) {
    options.policy = explicitPolicy;
    return options;
  }
  for (Operation *scope = op; scope; scope = scope->getParentOp())
    if (auto policyAttr = scope->getAttrOfType<PrecisionPolicyAttrInterface>(
            AmpDialect::getPolicyAttrName())) {
      options.policy = policyAttr;
      break;
    }
  return options;
}

AMP_COMMON_TEMPLATE
void AMP_COMMON::attachObservedRanges(
    Operation *funcOp, MixedPrecisionOptions &options) const {
  if (!observedRanges)
    return;
  auto func = cast<FunctionOpInterface>(funcOp);
  StringRef name;
  if (auto symName = funcOp->getAttrOfType<StringAttr>(
          SymbolTable::getSymbolAttrName()))
    name = symName.getValue();
  // The function's arguments (entries keyed by position; the FP8 stage
  // scales inputs with them).
  auto arguments = std::make_shared<DenseMap<unsigned, double>>();
  for (BlockArgument arg : func.getArguments())
    if (const ObservedRange *entry =
            observedRanges->lookupArgument(name, arg.getArgNumber()))
      if (entry->count || entry->nonfinite)
        (*arguments)[arg.getArgNumber()] =
            entry->nonfinite ? std::numeric_limits<double>::infinity()
                             : entry->maxAbs;
  if (!arguments->empty()) {
    options.observedMargin = rangeMargin;
    Region *body = &func.getFunctionBody();
    options.observedArgumentMaxAbs =
        [arguments, body](BlockArgument arg) -> std::optional<double> {
      if (arg.getOwner() != &body->front())
        return std::nullopt;
      auto it = arguments->find(arg.getArgNumber());
      if (it == arguments->end())
        return std::nullopt;
      return it->second;
    };
  }

  const std::vector<ObservedRange> *entries = observedRanges->find(name);
  if (!entries) {
    unsigned values = 0;
    forEachObservedValue(func, [&](Operation *, unsigned, unsigned) {
      ++values;
    });
    if (values)
      emitWarning(funcOp->getLoc())
          << this->getArgument() << ": " << ranges << " has no entries for @"
          << name << ": its " << values
          << " values are converted on static ranges alone";
    return;
  }

  // The first missing, stale and unreached value of each kind is named.
  struct Problem {
    unsigned count = 0;
    std::string first;
  };
  Problem missing, stale, unreached;
  auto note = [](Problem &problem, const llvm::Twine &what) {
    if (problem.count++ == 0)
      problem.first = what.str();
  };
  auto observed = std::make_shared<DenseMap<Value, double>>();
  unsigned values = 0;
  forEachObservedValue(func, [&](Operation *op, unsigned result,
                                 unsigned index) {
    ++values;
    StringRef opName = op->getName().getStringRef();
    std::string location = describeLocation(op->getLoc());
    std::string here = llvm::formatv("entry {0} ({1} at {2})", index, opName,
                                     location)
                           .str();
    const ObservedRange *entry = observedRanges->lookup(name, index);
    if (!entry)
      return note(missing, here);
    if (entry->op != opName || !isSameLocation(entry->location, location) ||
        entry->result != result)
      return note(stale, llvm::formatv("{0}: the file has {1} at {2}", here,
                                       entry->op, entry->location)
                             .str());
    if (entry->count == 0 && entry->nonfinite == 0)
      return note(unreached, here);
    // A value that was not finite in FP32 already is kept as it was.
    double maxAbs = entry->nonfinite
                        ? std::numeric_limits<double>::infinity()
                        : entry->maxAbs;
    (*observed)[op->getResult(result)] = maxAbs;
  });
  unsigned extra = 0;
  for (unsigned i = values; i < entries->size(); ++i)
    extra += !(*entries)[i].op.empty();
  if (extra)
    note(stale, llvm::formatv("{0} entries beyond the function's {1} values",
                              extra, values)
                    .str());

  auto warn = [&](const Problem &problem, StringRef what) {
    if (problem.count)
      emitWarning(funcOp->getLoc())
          << this->getArgument() << ": " << problem.count << " of the " << values
          << " values of @" << name << " " << what << " in " << ranges
          << " (first: " << problem.first
          << "); they are converted on static ranges alone";
  };
  warn(missing, "have no entry");
  warn(unreached, "were never reached on the samples");
  if (stale.count)
    emitWarning(funcOp->getLoc())
        << this->getArgument() << ": " << stale.count << " stale entr"
        << (stale.count == 1 ? "y" : "ies") << " for @" << name << " in "
        << ranges << " (the model changed since calibration; first: "
        << stale.first << "): not used";

  if (observed->empty())
    return;
  options.observedMargin = rangeMargin;
  options.observedMaxAbs =
      [observed](OpResult result) -> std::optional<double> {
    auto it = observed->find(result);
    if (it == observed->end())
      return std::nullopt;
    return it->second;
  };
}

void AmpMixedPrecisionPass::updateStatistics(
    const FunctionConversion &conversion) {
  const ConversionStats &stats = conversion.stats;
  numUnknown += stats.unknown;
  numGreen += stats.green;
  numGrayLow += stats.grayLow;
  numGrayHigh += stats.grayHigh;
  numRed += stats.red;
  numCasts += conversion.stats.casts;
  numFoldedConstants += conversion.stats.foldedConstants;
  numFP8 += conversion.stats.fp8;
  numWeightOnly += conversion.stats.weightOnly;
}

/// The float casts that signature updates make at call sites, per calling
/// function, until that function is converted (its conversion erases those it
/// leaves unused). Erased casts are forgotten.
struct CallSiteCasts : public RewriterBase::Listener {
  void notifyOperationInserted(Operation *op,
                               OpBuilder::InsertPoint) override {
    if (!isFloatCast(op))
      return;
    if (auto func = op->getParentOfType<FunctionOpInterface>())
      casts[func].insert(op);
  }
  void notifyOperationErased(Operation *op) override {
    if (auto func = op->getParentOfType<FunctionOpInterface>()) {
      auto it = casts.find(func);
      if (it != casts.end())
        it->second.remove(op);
    }
  }
  /// Thread-safe for distinct functions once no update runs: each function
  /// has its own entry.
  SmallVector<Operation *> takeCastsIn(Operation *func) {
    auto it = casts.find(func);
    if (it == casts.end())
      return {};
    return it->second.takeVector();
  }
  DenseMap<Operation *, llvm::SetVector<Operation *>> casts;
};

/// Groups the indices of `functions` in waves, callees before callers: a
/// function waits for the functions it calls whose signatures may change
/// (isSignatureUpdatable). A cycle of calls is broken at its first function
/// in module order.
static SmallVector<SmallVector<size_t>>
orderCalleesFirst(Operation *root, ArrayRef<Operation *> functions) {
  DenseMap<Operation *, size_t> index;
  for (auto [i, func] : llvm::enumerate(functions))
    index[func] = i;
  SymbolTableCollection symbolTables;
  SmallVector<SmallVector<size_t>> callers(functions.size());
  SmallVector<unsigned> waitingFor(functions.size(), 0);
  for (auto [i, func] : llvm::enumerate(functions)) {
    llvm::SmallDenseSet<size_t> callees;
    func->walk([&](CallOpInterface call) {
      Operation *callee = call.resolveCallableInTable(&symbolTables);
      auto it = callee ? index.find(callee) : index.end();
      if (it != index.end() && it->second != i &&
          isSignatureUpdatable(callee, root) && callees.insert(it->second).second)
        callers[it->second].push_back(i);
    });
    waitingFor[i] = callees.size();
  }
  SmallVector<SmallVector<size_t>> waves;
  SmallVector<bool> done(functions.size(), false);
  SmallVector<size_t> ready;
  for (size_t i = 0; i < functions.size(); ++i)
    if (waitingFor[i] == 0)
      ready.push_back(i);
  size_t remaining = functions.size(), nextUndone = 0;
  while (remaining) {
    if (ready.empty()) { // A cycle: take the first function not done.
      while (done[nextUndone])
        ++nextUndone;
      ready.push_back(nextUndone);
    }
    SmallVector<size_t> wave = std::move(ready);
    ready.clear();
    for (size_t i : wave) {
      done[i] = true;
      --remaining;
    }
    for (size_t i : wave)
      for (size_t caller : callers[i])
        if (!done[caller] && waitingFor[caller] && --waitingFor[caller] == 0)
          ready.push_back(caller);
    llvm::sort(ready);
    waves.push_back(std::move(wave));
  }
  return waves;
}

void AmpMixedPrecisionPass::runOnOperation() {
  Operation *root = getOperation();
  MLIRContext *ctx = &getContext();

  // On a single function: convert it, keeping its signature.
  if (auto func = dyn_cast<FunctionOpInterface>(root)) {
    if (func.isExternal())
      return;
    if (!report.empty()) {
      emitError(root->getLoc())
          << "report= needs amp-mixed-precision to run on a module, not on "
             "each function";
      return signalPassFailure();
    }
    if (!keepIOTypes)
      emitWarning(root->getLoc())
          << "keep-io-types=false changes signatures only when "
             "amp-mixed-precision runs on a module (call sites must change "
             "too): the signature of this function is kept";
    numFoldedPayloadValues += foldPayloads(root);
    MixedPrecisionOptions options = optionsFor(root);
    options.keepIOTypes = true;
    attachObservedRanges(root, options);
    FunctionConversion conversion;
    if (failed(convertToMixedPrecision(root, options, &conversion)))
      return signalPassFailure();
    updateStatistics(conversion);
    return;
  }

  // On a container: every function nested in it, in parallel.
  SmallVector<Operation *> functions = collectFunctions(root);

  SmallVector<FunctionConversion, 0> conversions(functions.size());
  SmallVector<MixedPrecisionOptions, 0> options;
  options.reserve(functions.size());
  for (Operation *func : functions) {
    numFoldedPayloadValues += foldPayloads(func);
    options.push_back(optionsFor(func));
    attachObservedRanges(func, options.back());
    // The rounds to a fixed point are taken here, over the whole module (a
    // callee's conversion can change what its callers' plans see), and
    // decidedByRanges reads the records.
    options.back().fixedPoint = false;
    options.back().recordDecisions = true;
  }

  // With keep-io-types, all at once. Without, in waves, callees before
  // callers: a wave's public signatures change (and their call sites) before
  // its callers are converted, so that these see the new types and a second
  // run has nothing left to do.
  SmallVector<SmallVector<size_t>> waves =
      keepIOTypes ? SmallVector<SmallVector<size_t>>{llvm::to_vector(
                        llvm::seq<size_t>(0, functions.size()))}
                  : orderCalleesFirst(root, functions);
  auto convertAll = [&](ArrayRef<MixedPrecisionOptions> options,
                        MutableArrayRef<FunctionConversion> conversions) {
    CallSiteCasts callSiteCasts;
    ParallelDiagnosticHandler diagHandler(ctx);
    for (ArrayRef<size_t> wave : waves) {
      LogicalResult converted =
          failableParallelForEach(ctx, wave, [&](size_t i) {
            diagHandler.setOrderIDForThread(i);
            LogicalResult result = convertToMixedPrecision(
                functions[i], options[i], &conversions[i],
                callSiteCasts.takeCastsIn(functions[i]));
            diagHandler.eraseOrderIDForThread();
            return result;
          });
      if (failed(converted))
        return failure();
      if (!keepIOTypes)
        for (size_t i : wave)
          (void)updatePublicSignature(functions[i], root, resolved.target,
                                      &callSiteCasts);
    }
    return success();
  };
  if (failed(convertAll(options, conversions)))
    return signalPassFailure();

  // A fixed point in one run (see convertToMixedPrecision): when a plan
  // used a range, the module is converted again, quietly, until it no
  // longer changes.
  if (llvm::any_of(conversions, [](const FunctionConversion &conversion) {
        return conversion.decidedByRanges();
      })) {
    for (MixedPrecisionOptions &quiet : options)
      quiet.diagnostics = false;
    for (int round = 1; round < kMaxConversionRounds; ++round) {
      OperationFingerPrint before(root);
      SmallVector<FunctionConversion, 0> again(functions.size());
      if (failed(convertAll(options, again)))
        return signalPassFailure();
      if (OperationFingerPrint(root) == before)
        break;
      for (auto [conversion, later] : llvm::zip(conversions, again))
        conversion.mergeLaterRound(later);
    }
  }
  if (report.empty())
    for (FunctionConversion &conversion : conversions)
      conversion.records.clear();

  for (const FunctionConversion &conversion : conversions)
    updateStatistics(conversion);

  // An FP8 report names the FP8 type as the target and the 16-bit type as
  // the fallback.
  if (!report.empty() &&
      failed(writeReportFile(
          root, report, resolved.fp8Type ? resolved.fp8Type : resolved.target,
          conversions, resolved.fp8Type ? resolved.target : FloatType())))
    return signalPassFailure();
}

} // namespace

//===----------------------------------------------------------------------===//
// --amp-plan-precision
//===----------------------------------------------------------------------===//

namespace {

/// Writes the decisions of `plan` onto its ops: amp.precision with all three
/// types on the ops that run in 16 bits, amp.color = red on those that stay
/// in FP32, and amp.weights on the 16-bit contractions with a constant
/// weight when `weights` (weight-only=) is set, unless they have one. Ops whose types amp does not
/// convert are left alone.
void annotateDecisions(const PrecisionPlan &plan,
                       const std::optional<WeightQuantSpec> &weights) {
  StringRef weightsName = AmpDialect::WeightsAttrHelper::getNameStr();
  for (auto [i, op] : llvm::enumerate(plan.getOps())) {
    const OpDecision &d = plan.getDecision(i);
    if (d.reason == Reason::UnsupportedTypes)
      continue;
    MLIRContext *ctx = op->getContext();
    if (d.lowPrecision) {
      op->removeAttr(AmpDialect::ColorAttrHelper::getNameStr());
      op->setAttr(AmpDialect::PrecisionAttrHelper::getNameStr(),
                  PrecisionAttr::get(ctx, d.accumulateType, d.outputType,
                                     d.computeType));
      std::string why;
      // (An amp.weights annotation already there is the user's.)
      if (weights && !op->hasAttr(weightsName) &&
          hasWeightOnlyForm(op, d, *weights, why))
        op->setAttr(weightsName, WeightsAttr::get(ctx, weights->str()));
    } else {
      op->removeAttr(weightsName);
      op->removeAttr(AmpDialect::PrecisionAttrHelper::getNameStr());
      op->setAttr(AmpDialect::ColorAttrHelper::getNameStr(),
                  ColorAttr::get(ctx, Color::red));
    }
  }
}

void AmpPlanPrecisionPass::runOnOperation() {
  Operation *root = getOperation();
  if (resolved.fp8Type) {
    emitError(root->getLoc())
        << "amp-plan-precision: target-type=" << targetType
        << " is not supported: FP8 decisions come with scales, which only a "
           "conversion makes; annotate ops with #amp.precision<compute = "
        << targetType
        << ", accumulate = f32, output = f32> and run amp-mixed-precision "
           "(docs/fp8.md)";
    return signalPassFailure();
  }
  if (!report.empty()) {
    emitError(root->getLoc())
        << "amp-plan-precision: report= belongs to amp-mixed-precision (the "
           "annotations are the plan)";
    return signalPassFailure();
  }
  SmallVector<Operation *> functions;
  if (auto func = dyn_cast<FunctionOpInterface>(root)) {
    if (!func.isExternal())
      functions.push_back(root);
  } else {
    functions = collectFunctions(root);
  }
  SmallVector<MixedPrecisionOptions, 0> options;
  options.reserve(functions.size());
  for (Operation *func : functions) {
    foldPayloads(func);
    options.push_back(optionsFor(func));
    options.back().recordDecisions = false;
    options.back().countConstantBytes = false;
    attachObservedRanges(func, options.back());
  }
  ParallelDiagnosticHandler diagHandler(&getContext());
  LogicalResult planned = failableParallelForEach(
      &getContext(), llvm::seq<size_t>(0, functions.size()), [&](size_t i) {
        diagHandler.setOrderIDForThread(i);
        ConversionMemo memo;
        ConversionMemo::Scope memoScope(memo);
        PrecisionPlan plan(functions[i], options[i]);
        LogicalResult result = plan.run();
        if (succeeded(result))
          annotateDecisions(plan, options[i].weightOnly);
        diagHandler.eraseOrderIDForThread();
        return result;
      });
  if (failed(planned))
    signalPassFailure();
}

//===----------------------------------------------------------------------===//
// --amp-apply-precision
//===----------------------------------------------------------------------===//

struct AmpApplyPrecisionPass
    : public amp::impl::AmpApplyPrecisionPassBase<AmpApplyPrecisionPass> {
  using Base::Base;

  LogicalResult initialize(MLIRContext *ctx) override {
    if (targetType != "f16" && targetType != "bf16")
      return emitError(UnknownLoc::get(ctx))
             << "amp-apply-precision: invalid target-type '" << targetType
             << "'; expected one of: f16, bf16";
    AmpMixedPrecisionPassOptions options;
    options.targetType = targetType;
    options.keepIOTypes = keepIOTypes;
    convert = OpPassManager(OpPassManager::Nesting::Explicit);
    convert.addPass(createAmpMixedPrecisionPass(options));
    return success();
  }

  void getDependentDialects(DialectRegistry &registry) const override {
    Base::getDependentDialects(registry);
    convert.getDependentDialects(registry);
  }

  /// The conversion is --amp-mixed-precision's: every annotated op is
  /// pinned to its annotation, so the analysis has nothing left to decide
  /// for them, and the rewrite (casts, constants, accumulators, signatures)
  /// is the same code. Then the annotations go.
  void runOnOperation() override {
    Operation *root = getOperation();
    if (failed(runPipeline(convert, root)))
      return signalPassFailure();
    root->walk([](Operation *op) {
      op->removeAttr(AmpDialect::PrecisionAttrHelper::getNameStr());
      op->removeAttr(AmpDialect::ColorAttrHelper::getNameStr());
      op->removeAttr(AmpDialect::WeightsAttrHelper::getNameStr());
    });
  }

  OpPassManager convert{OpPassManager::Nesting::Explicit};
};

} // namespace
