//===- PassOptionResolution.h - The mixed-precision passes' options -*- C++ -*-===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// --amp-mixed-precision and --amp-plan-precision take the same options
// (Passes.td). Each pass copies them into PassOptionValues, plain data
// (readOptionValues), and PassOptionResolver checks and resolves them once,
// in `initialize`, into the MixedPrecisionOptions the conversion reads; per
// function it adds the policy in scope and the observed ranges.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_LIB_TRANSFORMS_PASSOPTIONRESOLUTION_H
#define AMP_LIB_TRANSFORMS_PASSOPTIONRESOLUTION_H

#include "amp/Analysis/MixedPrecisionOptions.h"
#include "amp/Analysis/ObservedRanges.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Support/LLVM.h"

#include <memory>
#include <string>
#include <vector>

namespace mlir {
namespace amp {

/// The options of the mixed-precision passes as given (Passes.td).
struct PassOptionValues {
  std::string targetType, fallbackType, weightOnly, accumulateType,
      outputType, overflowType, ranges, policy, report;
  ScaleGranularity weightScales = ScaleGranularity::PerTensor;
  GrayStrategy grayStrategy = GrayStrategy::MinBytes;
  UnknownOpPolicy unknownOps = UnknownOpPolicy::Red;
  RangeAnalysisKind rangeAnalysis = RangeAnalysisKind::Walk;
  int64_t fp8MinMacs = 0, minMacs = 0;
  double rangeMargin = 2.0, largeGrowth = kLargeGrowth;
  bool keepIOTypes = true, foldConstantPayloads = true, clampConstants = false,
       remarks = false;
  /// Whether the options of the default policy were given (they are ignored
  /// with policy=).
  bool defaultPolicyOptionsGiven = false;
  std::vector<std::string> greenOps, grayOps, redOps;
  std::vector<int64_t> skipLayers;
};

/// The option values of `pass`, one of the two passes (each declares this
/// function its friend: the options are protected members of its base).
template <typename PassT>
PassOptionValues readOptionValues(const PassT &pass) {
  PassOptionValues v;
  v.targetType = pass.targetType;
  v.fallbackType = pass.fallbackType;
  v.weightOnly = pass.weightOnly;
  v.accumulateType = pass.accumulateType;
  v.outputType = pass.outputType;
  v.overflowType = pass.overflowType;
  v.ranges = pass.ranges;
  v.policy = pass.policy;
  v.report = pass.report;
  v.weightScales = pass.weightScales;
  v.grayStrategy = pass.grayStrategy;
  v.unknownOps = pass.unknownOps;
  v.rangeAnalysis = pass.rangeAnalysis;
  v.fp8MinMacs = pass.fp8MinMacs;
  v.minMacs = pass.minMacs;
  v.rangeMargin = pass.rangeMargin;
  v.largeGrowth = pass.largeGrowth;
  v.keepIOTypes = pass.keepIOTypes;
  v.foldConstantPayloads = pass.foldConstantPayloads;
  v.clampConstants = pass.clampConstants;
  v.remarks = pass.remarks;
  v.defaultPolicyOptionsGiven = pass.accumulateType.hasValue() ||
                                pass.outputType.hasValue() ||
                                pass.minMacs.hasValue();
  v.greenOps.assign(pass.greenOps.begin(), pass.greenOps.end());
  v.grayOps.assign(pass.grayOps.begin(), pass.grayOps.end());
  v.redOps.assign(pass.redOps.begin(), pass.redOps.end());
  v.skipLayers.assign(pass.skipLayers.begin(), pass.skipLayers.end());
  return v;
}

/// The options of one of the passes, resolved.
class PassOptionResolver {
public:
  /// Checks and resolves `values`; errors and warnings name `passName`.
  LogicalResult resolve(MLIRContext *ctx, StringRef passName,
                        PassOptionValues values);

  /// The options for converting `op`: the resolved options with the policy
  /// that applies there.
  MixedPrecisionOptions optionsFor(Operation *op) const;
  /// With ranges=: matches the observed ranges to the values of `func`
  /// (before anything is converted: the keys are those of the model as
  /// calibrated) and sets observedMaxAbs, warning about missing, stale and
  /// unreached entries.
  void attachObservedRanges(Operation *func,
                            MixedPrecisionOptions &options) const;
  /// With fold-constant-payloads: evaluates the constant parts of the
  /// payloads of `func` (ConstantPayloads.h), before anything looks at its
  /// ops. Returns the number of values evaluated.
  unsigned foldPayloads(Operation *func) const;

  /// The options resolved (the policy given or the default one).
  const MixedPrecisionOptions &get() const { return resolved; }

private:
  LogicalResult resolveTypes(MLIRContext *ctx);
  LogicalResult resolvePolicy(MLIRContext *ctx);
  LogicalResult resolveOpLists(MLIRContext *ctx);
  LogicalResult resolveRanges(MLIRContext *ctx);
  /// Warns about the observed ranges of `func` that were missing, stale or
  /// never reached; returns the largest |x| of each value that has one.
  std::shared_ptr<DenseMap<Value, double>>
  matchObservedValues(Operation *func, StringRef name,
                      const std::vector<ObservedRange> &entries) const;
  InFlightDiagnostic error(MLIRContext *ctx) const;
  InFlightDiagnostic warning(MLIRContext *ctx) const;

  std::string passName;
  PassOptionValues values;
  MixedPrecisionOptions resolved;
  /// The policy given with `policy=`, if any.
  PrecisionPolicyAttrInterface explicitPolicy;
  /// The file given with `ranges=`, if any.
  std::shared_ptr<const ObservedRanges> observedRanges;
};

/// The functions nested in `root` (not `root` itself), in pre-order.
SmallVector<Operation *> collectFunctions(Operation *root);

} // namespace amp
} // namespace mlir

#endif // AMP_LIB_TRANSFORMS_PASSOPTIONRESOLUTION_H
