//===- PassOptionResolution.cpp - The mixed-precision passes' options -----===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Resolution of the mixed-precision passes' options, in the order the
// checks report: types, the policy, the op lists, the ranges.
//
//===----------------------------------------------------------------------===//

#include "PassOptionResolution.h"

#include "amp/IR/AmpDialect.h"
#include "amp/Report/HtmlReport.h"
#include "amp/Transforms/ConstantPayloads.h"
#include "amp/Transforms/WeightOnly.h"
#include "amp/Utils/CastUtils.h"
#include "amp/Utils/OpNames.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/FormatVariadic.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace mlir::amp;

/// Parses a float type option; "target" names the target type.
static FailureOr<FloatType> parseFloatOption(MLIRContext *ctx,
                                             StringRef passName,
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
  Type type = parseType(text, ctx, /*numRead=*/nullptr,
                        /*isKnownNullTerminated=*/false);
  auto floatType = dyn_cast_or_null<FloatType>(type);
  if (!floatType)
    return fail();
  return floatType;
}

InFlightDiagnostic PassOptionResolver::error(MLIRContext *ctx) const {
  return emitError(UnknownLoc::get(ctx)) << passName << ": ";
}

InFlightDiagnostic PassOptionResolver::warning(MLIRContext *ctx) const {
  return emitWarning(UnknownLoc::get(ctx)) << passName << ": ";
}

/// The name of `type` as the options spell it.
static std::string typeName(FloatType type) {
  std::string name;
  llvm::raw_string_ostream(name) << type;
  return name;
}

LogicalResult PassOptionResolver::resolve(MLIRContext *ctx, StringRef name,
                                          PassOptionValues given) {
  passName = name.str();
  values = std::move(given);
  resolved = MixedPrecisionOptions();
  explicitPolicy = {};
  observedRanges.reset();
  if (failed(resolveTypes(ctx)) || failed(resolvePolicy(ctx)) ||
      failed(resolveOpLists(ctx)) || failed(resolveRanges(ctx)))
    return failure();
  resolved.clampConstants = values.clampConstants;
  resolved.countConstantBytes = !values.report.empty();
  resolved.recordDecisions = !values.report.empty();
  resolved.keepIOTypes = values.keepIOTypes;
  resolved.remarks = values.remarks;
  return success();
}

/// target-type, fallback-type, the FP8 and weight-only options; the report's
/// extension (checked right after the target type).
LogicalResult PassOptionResolver::resolveTypes(MLIRContext *ctx) {
  FailureOr<FloatType> target =
      parseFloatOption(ctx, passName, "target-type", values.targetType,
                       FloatType(), {"f16", "bf16", "f8E4M3FN", "f8E5M2"});
  if (failed(target))
    return failure();
  if (!values.report.empty() && !getReportFormat(values.report))
    return error(ctx) << "report= '" << values.report
                      << "' has an unknown extension; a report is "
                      << getReportExtensions();
  // With an FP8 target, the 16-bit type of everything else is the fallback
  // type: the plan's target.
  resolved.fp8Type = isFP8Type(*target) ? *target : FloatType();
  FailureOr<FloatType> fallback =
      parseFloatOption(ctx, passName, "fallback-type", values.fallbackType,
                       FloatType(), {"f16", "bf16"});
  if (failed(fallback))
    return failure();
  if (!resolved.fp8Type && values.fallbackType != "f16")
    warning(ctx) << "fallback-type applies to an FP8 target-type "
                 << "(f8E4M3FN, f8E5M2) and is ignored with target-type="
                 << values.targetType;
  resolved.target = resolved.fp8Type ? *fallback : *target;
  resolved.fp8PerChannelScales =
      values.weightScales == ScaleGranularity::PerChannel;
  if (values.fp8MinMacs < 0)
    return error(ctx) << "fp8-min-macs must be non-negative, got "
                      << values.fp8MinMacs;
  resolved.fp8MinMacs = values.fp8MinMacs;
  if (values.weightOnly != "none") {
    std::string message;
    resolved.weightOnly = parseWeightQuantSpec(values.weightOnly, message);
    if (!resolved.weightOnly)
      return error(ctx) << "weight-only: " << message << " or none";
    if (resolved.fp8Type)
      return error(ctx) << "weight-only=" << values.weightOnly
                        << " keeps the activations in 16 bits and cannot be "
                           "combined with an FP8 target-type ("
                        << values.targetType
                        << "); annotate single ops with amp.weights instead";
  }
  return success();
}

/// The default policy (accumulate-type, output-type, min-macs) or policy=.
LogicalResult PassOptionResolver::resolvePolicy(MLIRContext *ctx) {
  std::string low = typeName(resolved.target);
  FailureOr<FloatType> accumulate =
      parseFloatOption(ctx, passName, "accumulate-type", values.accumulateType,
                       resolved.target, {"f32", "target", low});
  FailureOr<FloatType> output =
      parseFloatOption(ctx, passName, "output-type", values.outputType,
                       resolved.target, {"target", "f32", low});
  if (failed(accumulate) || failed(output))
    return failure();
  if (values.minMacs < 0)
    return error(ctx) << "min-macs must be non-negative, got "
                      << values.minMacs;
  resolved.policy = cast<PrecisionPolicyAttrInterface>(
      DefaultPolicyAttr::get(ctx, *accumulate, *output, values.minMacs));
  if (values.policy.empty())
    return success();
  // Parse quietly and report the parser's message as part of ours.
  std::string parseError;
  Attribute attr;
  {
    ScopedDiagnosticHandler quiet(ctx, [&](Diagnostic &diag) {
      if (parseError.empty())
        parseError = diag.str();
      return success();
    });
    attr = parseAttribute(values.policy, ctx);
  }
  if (!attr)
    return error(ctx) << "cannot parse policy '" << values.policy
                      << "': " << parseError;
  explicitPolicy = dyn_cast<PrecisionPolicyAttrInterface>(attr);
  if (!explicitPolicy)
    return error(ctx) << "policy " << attr
                      << " does not implement PrecisionPolicyAttrInterface";
  if (values.defaultPolicyOptionsGiven)
    warning(ctx) << "accumulate-type, output-type and min-macs "
                    "configure the default policy and are ignored with "
                    "policy=";
  return success();
}

/// green=, gray=, red= (every name a known op, in one list only) and
/// skip-layers=.
LogicalResult PassOptionResolver::resolveOpLists(MLIRContext *ctx) {
  auto addList = [&](ArrayRef<std::string> list, StringRef name,
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
        InFlightDiagnostic diag = error(ctx) << "unknown op name '" << opName
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
        return error(ctx) << "op '" << opName << "' is in two lists ("
                          << stringifyColor(it->second) << " and " << name
                          << ")";
    }
    return success();
  };
  if (failed(addList(values.greenOps, "green", Color::green)) ||
      failed(addList(values.grayOps, "gray", Color::gray)) ||
      failed(addList(values.redOps, "red", Color::red)))
    return failure();
  resolved.skipLayers.assign(values.skipLayers.begin(),
                             values.skipLayers.end());
  resolved.unknownOps = values.unknownOps;
  resolved.grayStrategy = values.grayStrategy;
  return success();
}

/// overflow-type, range-analysis, range-margin, ranges= and large-growth.
LogicalResult PassOptionResolver::resolveRanges(MLIRContext *ctx) {
  FloatType target16 = resolved.target;
  FailureOr<FloatType> overflow =
      parseFloatOption(ctx, passName, "overflow-type", values.overflowType,
                       target16, {"f32", "f16", "bf16"});
  if (failed(overflow))
    return failure();
  if (*overflow == target16)
    return error(ctx) << "overflow-type must differ from "
                      << (resolved.fp8Type ? "fallback-type" : "target-type")
                      << " (" << typeName(target16)
                      << "): it is the type of ops whose values do not fit it";
  resolved.overflowType = overflow->isF32() ? FloatType() : *overflow;
  resolved.rangeAnalysis = values.rangeAnalysis;
  double margin = values.rangeMargin;
  if (!(margin >= 1.0) || std::isinf(margin))
    return error(ctx) << "range-margin must be a finite number of at least 1, "
                         "got "
                      << llvm::formatv("{0}", margin).str();
  if (!values.ranges.empty()) {
    llvm::Expected<ObservedRanges> loaded = ObservedRanges::load(values.ranges);
    if (!loaded)
      return error(ctx) << "ranges=: " << llvm::toString(loaded.takeError());
    if (loaded->empty())
      return error(ctx) << "ranges=: " << values.ranges
                        << " has no functions: nothing to match";
    observedRanges =
        std::make_shared<const ObservedRanges>(std::move(*loaded));
  } else if (margin != 2.0) {
    warning(ctx) << "range-margin applies to observed ranges "
                    "and is ignored without ranges=";
  }
  double growth = values.largeGrowth;
  if (!(growth == 0.0 || growth >= 1.0) || std::isinf(growth))
    return error(ctx) << "large-growth must be 0 (off) or a finite number of "
                         "at least 1, got "
                      << llvm::formatv("{0}", growth).str();
  resolved.largeGrowth = growth;
  return success();
}

SmallVector<Operation *> mlir::amp::collectFunctions(Operation *root) {
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

unsigned PassOptionResolver::foldPayloads(Operation *func) const {
  return values.foldConstantPayloads ? amp::foldConstantPayloads(func).values
                                     : 0;
}

MixedPrecisionOptions PassOptionResolver::optionsFor(Operation *op) const {
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

void PassOptionResolver::attachObservedRanges(
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
    options.observedMargin = values.rangeMargin;
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
    unsigned count = 0;
    forEachObservedValue(func, [&](Operation *, unsigned, unsigned) {
      ++count;
    });
    if (count)
      emitWarning(funcOp->getLoc())
          << passName << ": " << values.ranges << " has no entries for @"
          << name << ": its " << count
          << " values are converted on static ranges alone";
    return;
  }
  std::shared_ptr<DenseMap<Value, double>> observed =
      matchObservedValues(funcOp, name, *entries);
  if (observed->empty())
    return;
  options.observedMargin = values.rangeMargin;
  options.observedMaxAbs =
      [observed](OpResult result) -> std::optional<double> {
    auto it = observed->find(result);
    if (it == observed->end())
      return std::nullopt;
    return it->second;
  };
}

std::shared_ptr<DenseMap<Value, double>>
PassOptionResolver::matchObservedValues(
    Operation *funcOp, StringRef name,
    const std::vector<ObservedRange> &entries) const {
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
  unsigned count = 0;
  auto func = cast<FunctionOpInterface>(funcOp);
  forEachObservedValue(func, [&](Operation *op, unsigned result,
                                 unsigned index) {
    ++count;
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
  for (unsigned i = count; i < entries.size(); ++i)
    extra += !entries[i].op.empty();
  if (extra)
    note(stale, llvm::formatv("{0} entries beyond the function's {1} values",
                              extra, count)
                    .str());

  auto warn = [&](const Problem &problem, StringRef what) {
    if (problem.count)
      emitWarning(funcOp->getLoc())
          << passName << ": " << problem.count << " of the " << count
          << " values of @" << name << " " << what << " in " << values.ranges
          << " (first: " << problem.first
          << "); they are converted on static ranges alone";
  };
  warn(missing, "have no entry");
  warn(unreached, "were never reached on the samples");
  if (stale.count)
    emitWarning(funcOp->getLoc())
        << passName << ": " << stale.count << " stale entr"
        << (stale.count == 1 ? "y" : "ies") << " for @" << name << " in "
        << values.ranges << " (the model changed since calibration; first: "
        << stale.first << "): not used";
  return observed;
}
