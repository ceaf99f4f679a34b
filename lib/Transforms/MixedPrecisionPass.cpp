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
//    the context's thread pool, each with its own state, then the public
//    signatures (keep-io-types=false), then the report.
// The conversion itself is convertToMixedPrecision (MixedPrecision.cpp).
//
//===----------------------------------------------------------------------===//

#include "amp/Transforms/Passes.h"

#include "ConversionReport.h"
#include "amp/Transforms/MixedPrecision.h"
#include "amp/Utils/OpNames.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Threading.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/Sequence.h"
#include "llvm/Support/Error.h"

namespace mlir {
namespace amp {
#define GEN_PASS_DEF_AMPMIXEDPRECISIONPASS
#include "amp/Transforms/Passes.h.inc"
} // namespace amp
} // namespace mlir

using namespace mlir;
using namespace mlir::amp;

namespace {

struct AmpMixedPrecisionPass
    : public amp::impl::AmpMixedPrecisionPassBase<AmpMixedPrecisionPass> {
  using Base::Base;

  LogicalResult initialize(MLIRContext *ctx) override;
  void runOnOperation() override;

private:
  /// The options for converting `op`: the resolved options with the policy
  /// that applies there.
  MixedPrecisionOptions optionsFor(Operation *op) const;
  void updateStatistics(const FunctionConversion &conversion);

  MixedPrecisionOptions resolved;
  /// The policy given with `policy=`, if any.
  PrecisionPolicyAttrInterface explicitPolicy;
};

/// Parses a float type option; "target" names the target type.
FailureOr<FloatType> parseFloatOption(MLIRContext *ctx, StringRef option,
                                      StringRef text, FloatType target,
                                      ArrayRef<StringRef> allowed) {
  auto fail = [&]() -> FailureOr<FloatType> {
    InFlightDiagnostic diag = emitError(UnknownLoc::get(ctx))
                              << "amp-mixed-precision: invalid " << option
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

LogicalResult AmpMixedPrecisionPass::initialize(MLIRContext *ctx) {
  auto error = [&]() {
    return emitError(UnknownLoc::get(ctx)) << "amp-mixed-precision: ";
  };

  FailureOr<FloatType> target = parseFloatOption(
      ctx, "target-type", targetType, FloatType(), {"f16", "bf16"});
  if (failed(target))
    return failure();
  resolved.target = *target;

  FailureOr<FloatType> accumulate = parseFloatOption(
      ctx, "accumulate-type", accumulateType, *target,
      {"f32", "target", targetType});
  FailureOr<FloatType> output = parseFloatOption(
      ctx, "output-type", outputType, *target, {"target", "f32", targetType});
  if (failed(accumulate) || failed(output))
    return failure();
  if (minMacs < 0)
    return error() << "min-macs must be non-negative, got "
                   << static_cast<int64_t>(minMacs);

  resolved.policy = cast<PrecisionPolicyAttrInterface>(
      DefaultPolicyAttr::get(ctx, *accumulate, *output, minMacs));
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
          << "amp-mixed-precision: accumulate-type, output-type and min-macs "
             "configure the default policy and are ignored with policy=";
  }

  // Op lists: every name must be a known op, in one list only.
  resolved.userColors.clear();
  auto addList = [&](const ListOption<std::string> &list, StringRef name,
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
  if (grayStrategy == "fewest-casts")
    resolved.grayStrategy = GrayStrategy::FewestCasts;
  else if (grayStrategy == "follow")
    resolved.grayStrategy = GrayStrategy::Follow;
  else
    return error() << "invalid gray-strategy '" << grayStrategy
                   << "'; expected one of: fewest-casts, follow";
  resolved.clampConstants = clampConstants;
  resolved.keepIOTypes = keepIOTypes;
  resolved.remarks = remarks;
  return success();
}

MixedPrecisionOptions AmpMixedPrecisionPass::optionsFor(Operation *op) const {
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

void AmpMixedPrecisionPass::updateStatistics(
    const FunctionConversion &conversion) {
  for (const OpRecord &record : conversion.records) {
    const OpDecision &d = record.decision;
    if (d.unknown)
      ++numUnknown;
    if (d.color == Color::green && d.lowPrecision)
      ++numGreen;
    else if (d.color == Color::gray)
      ++(d.lowPrecision ? numGrayLow : numGrayHigh);
    else if (d.color == Color::red)
      ++numRed;
  }
  numCasts += conversion.stats.casts;
  numFoldedConstants += conversion.stats.foldedConstants;
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
    MixedPrecisionOptions options = optionsFor(root);
    options.keepIOTypes = true;
    FunctionConversion conversion;
    if (failed(convertToMixedPrecision(root, options, &conversion)))
      return signalPassFailure();
    updateStatistics(conversion);
    return;
  }

  // On a container: every function nested in it, in parallel.
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

  SmallVector<FunctionConversion> conversions(functions.size());
  SmallVector<MixedPrecisionOptions> options;
  options.reserve(functions.size());
  for (Operation *func : functions)
    options.push_back(optionsFor(func));

  LogicalResult converted = success();
  {
    ParallelDiagnosticHandler diagHandler(ctx);
    converted = failableParallelForEach(
        ctx, llvm::seq<size_t>(0, functions.size()), [&](size_t i) {
          diagHandler.setOrderIDForThread(i);
          LogicalResult result =
              convertToMixedPrecision(functions[i], options[i], &conversions[i]);
          diagHandler.eraseOrderIDForThread();
          return result;
        });
  }
  if (failed(converted))
    return signalPassFailure();

  if (!keepIOTypes)
    (void)updatePublicSignatures(root, resolved.target);

  for (const FunctionConversion &conversion : conversions)
    updateStatistics(conversion);

  if (!report.empty()) {
    llvm::Error error =
        llvm::writeToOutput(report, [&](llvm::raw_ostream &os) {
          writeConversionReport(os, resolved.target, conversions);
          return llvm::Error::success();
        });
    if (error) {
      emitError(root->getLoc())
          << "cannot write the report: " << llvm::toString(std::move(error));
      return signalPassFailure();
    }
  }
}

} // namespace
