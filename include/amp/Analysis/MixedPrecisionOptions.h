//===- MixedPrecisionOptions.h - Options of a conversion --------*- C++ -*-===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The resolved options of a mixed-precision conversion: what the precision
// plan (PrecisionPlan.h), the FP8 stage (FP8Contractions.h) and the rewrite
// (MixedPrecision.h) read. The passes resolve their options into this once
// (lib/Transforms/PassOptionResolution.cpp); other pipelines fill it
// themselves.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_ANALYSIS_MIXEDPRECISIONOPTIONS_H
#define AMP_ANALYSIS_MIXEDPRECISIONOPTIONS_H

#include "amp/IR/AmpAttrs.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Operation.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"

#include <functional>
#include <optional>

namespace mlir {
namespace amp {

/// What to do with ops that have no color (no MixedPrecisionOpInterface, not
/// in a list, unknown to the policy).
enum class UnknownOpPolicy { Red, Gray, Error };

/// How gray ops whose inputs are available in low precision are decided.
enum class GrayStrategy {
  /// The placement that moves the fewest bytes: an exact minimum cut (the
  /// default).
  MinBytes,
  /// Run low unless staying in FP32 needs no more casts (both sweeps).
  FewestCasts,
  /// Always run low (the forward sweep alone; TVM's local rule).
  Follow,
};

/// How the float range analysis runs (FloatRange.h).
enum class RangeAnalysisKind {
  /// Constants only (their own check); no value is bounded.
  Off,
  /// FloatRangeMap: one walk in program order (the default).
  Walk,
  /// FloatRangeAnalysis in a DataFlowSolver: the same transfer functions,
  /// about 1 KB per op more.
  Dataflow,
};

/// How FP8 scales of constant operands (weights) are kept (`weight-scales`).
enum class ScaleGranularity {
  /// One scale per tensor (the default).
  PerTensor,
  /// One scale per output channel, for operands that have one.
  PerChannel,
};

/// The default growth (Magnitude.h) from which a value counts as large
/// (`large-growth`): 16 times the magnitude of the function's inputs (4 of
/// the 15 binades f16 has above 1).
constexpr double kLargeGrowth = 16;

/// The resolved options of a mixed-precision conversion.
struct MixedPrecisionOptions {
  /// The low-precision type (f16 or bf16; with fp8Type, the fallback
  /// type).
  FloatType target;
  /// The policy; never null.
  PrecisionPolicyAttrInterface policy;
  /// Op names moved to a color by the user.
  llvm::StringMap<Color> userColors;
  /// Indices of green ops kept in FP32 (negative: from the end).
  SmallVector<int64_t> skipLayers;
  UnknownOpPolicy unknownOps = UnknownOpPolicy::Red;
  GrayStrategy grayStrategy = GrayStrategy::MinBytes;
  /// Clamp out-of-range constants instead of keeping consumers in FP32.
  bool clampConstants = false;
  /// Keep function signatures (casts at the boundaries).
  bool keepIOTypes = true;
  /// Emit a remark for every decision, not only for unknown ops.
  bool remarks = false;
  /// Emit remarks and warnings at all (off for the rounds after the first:
  /// see convertToMixedPrecision).
  bool diagnostics = true;
  /// Convert again until nothing changes (see convertToMixedPrecision); off
  /// where the caller repeats the conversion of a whole module itself.
  bool fixedPoint = true;
  /// Count the bytes of float constants before and after the conversion
  /// (ConversionStats::constantBytes*, for the report): two walks of the
  /// function.
  bool countConstantBytes = true;
  /// Keep the decision for every op (FunctionConversion::records, for the
  /// report); the counts in ConversionStats are kept either way.
  bool recordDecisions = true;
  /// How values are bounded (FloatRange.h).
  RangeAnalysisKind rangeAnalysis = RangeAnalysisKind::Walk;
  /// The type an op runs in when its values do not fit the target type but
  /// fit this one (bf16 for an f16 target); null: such ops stay in FP32.
  FloatType overflowType;
  /// Ranges observed on sample inputs: the largest |x| of an op result, or
  /// nullopt if nothing was observed for it; null: none. An observed
  /// magnitude that, times observedMargin, is above the largest finite value
  /// of a type counts exactly like a provable overflow
  /// (Reason::ObservedRange): the op that produces the value, and the ops
  /// that would read it in that type, do not use it; a green op whose
  /// output alone overflows keeps low inputs with an FP32 (or overflow-type)
  /// output. Called once or twice per float result of the ops that take
  /// part, from the thread that converts the function.
  std::function<std::optional<double>(OpResult)> observedMaxAbs;
  /// The safety factor on observed magnitudes (at least 1).
  double observedMargin = 1.0;
  /// The growth relative to the function's inputs (Magnitude.h) from which
  /// the minimum cut narrows a value after the op that brings it back down
  /// rather than before; 0: never.
  double largeGrowth = kLargeGrowth;

  /// FP8 (FP8Contractions.h). `fp8Type`: the FP8 type (f8E4M3FN or f8E5M2)
  /// green contractions run in when their operands have scales; `target` is
  /// then the fallback type of everything else that would run in 16 bits.
  /// Null: no FP8, except for ops annotated with an FP8 compute type.
  FloatType fp8Type;
  /// One scale per output channel for constant operands (weights) that have
  /// a channel dimension, instead of one per tensor.
  bool fp8PerChannelScales = false;
  /// Contractions with fewer multiply-accumulates (when known statically)
  /// do not run in FP8.
  int64_t fp8MinMacs = 0;
  /// Weight-only (WeightOnly.h): the format every green contraction with a
  /// constant weight stores it in, unless an `amp.weights` annotation says
  /// otherwise; nullopt: only annotated ops.
  std::optional<WeightQuantSpec> weightOnly;
  /// Ranges observed on sample inputs for function arguments (as
  /// observedMaxAbs for op results); null: none.
  std::function<std::optional<double>(BlockArgument)> observedArgumentMaxAbs;
  /// Set by the FP8 stage for the plan that follows it: the ops it made
  /// (contractions, narrowings, epilogues), which keep their types and only
  /// read FP32 values, and the ops skip-layers chose (counted before some
  /// green ops became FP8), used instead of skipLayers.
  const llvm::DenseSet<Operation *> *fixedOps = nullptr;
  const llvm::DenseSet<Operation *> *skippedOps = nullptr;
};

} // namespace amp
} // namespace mlir

#endif // AMP_ANALYSIS_MIXEDPRECISIONOPTIONS_H
