//===- MixedPrecision.h - Convert functions to mixed precision --*- C++ -*-===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The reusable core of --amp-mixed-precision, for pipelines that want the
// conversion without the pass: compute a PrecisionPlan for a function and
// carry it out, then (optionally) change public signatures.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_TRANSFORMS_MIXEDPRECISION_H
#define AMP_TRANSFORMS_MIXEDPRECISION_H

#include "amp/Analysis/PrecisionPlan.h"
#include "amp/Transforms/FP8Contractions.h"

#include "mlir/IR/PatternMatch.h"

#include <memory>
#include <string>

namespace mlir {
namespace amp {

/// The decision for one op, as written to the report (which formats the
/// location only then: most conversions write no report).
struct OpRecord {
  OperationName opName;
  Location location;
  OpDecision decision;
  /// For contractions that asked for FP8: converted (the scales) or not
  /// (why). Shared: most records have none, and a record stays small.
  std::shared_ptr<const FP8Record> fp8 = nullptr;
};

/// Counts of one conversion.
struct ConversionStats {
  int64_t casts = 0;
  /// Bytes the casts read and write; bytes gray ops and red ops read and
  /// write (float data operands and results, in the type each runs in).
  int64_t castBytes = 0, grayBytes = 0, redBytes = 0;
  int64_t foldedConstants = 0;
  int64_t constantBytesBefore = 0;
  int64_t constantBytesAfter = 0;
  /// Ops rewritten to low precision (green and gray), and among them the
  /// contractions rewritten to FP8 and those with weight-only weights.
  int64_t converted = 0, fp8 = 0, weightOnly = 0;
  /// Weight-only contractions: the bytes of their weights in f32, in their
  /// 16-bit type and as stored.
  int64_t weightBytesF32 = 0, weightBytes16 = 0, weightBytesStored = 0;
  /// Decisions, as the pass's statistics count them: ops without a color of
  /// their own, green ops in low precision, gray ops in low and in high
  /// precision, red ops.
  int64_t unknown = 0, green = 0, grayLow = 0, grayHigh = 0, red = 0;
  RangeSummary constants;

  void merge(const ConversionStats &other);
};

/// What converting one function produced.
struct FunctionConversion {
  /// The function's symbol name (its op name if it has none).
  std::string function;
  SmallVector<OpRecord> records;
  ConversionStats stats;

  /// Whether the plan decided something from a value range (an op kept in
  /// FP32, in the overflow type or with a separate output because of a
  /// range, a constant that does not fit the target type, or a +-FLT_MAX
  /// sentinel): only then can a second plan of the converted function
  /// decide differently (needs the records).
  bool decidedByRanges() const;
  /// Folds in the conversion of a later round of the same function: an op
  /// the later round converted is reported with its later decision, and the
  /// counts are those of the function as the later round left it.
  void mergeLaterRound(const FunctionConversion &later);
};

/// How many times at most a function is converted in one run (see
/// convertToMixedPrecision).
constexpr int kMaxConversionRounds = 3;

/// Converts the ops nested in `root` (usually a function) to mixed precision
/// as `options` say, keeping the types of its block arguments and results.
/// Fails only after emitting an error (see PrecisionPlan::run). Ops a model
/// cannot rewrite stay in FP32 with a remark. `disposableCasts`, casts in
/// `root` made by the caller (at call sites whose callee's signature
/// changed), are erased if the conversion leaves them unused.
///
/// With `options.fixedPoint`, the conversion reaches a fixed point in one
/// run. The plan bounds values in the FP32 function; once it has run, values
/// that a range or an annotation forced into 16 bits (a +-FLT_MAX sentinel
/// written as 65504, a clamp at 1e5 pinned to f16) are bounded by the 16-bit
/// type, and a plan of the converted function may convert ops that read
/// them. When the first plan used a range, the function is converted again,
/// quietly (no remarks), until it no longer changes (at most
/// kMaxConversionRounds rounds in all), so that running the pass again
/// changes nothing.
LogicalResult
convertToMixedPrecision(Operation *root, const MixedPrecisionOptions &options,
                        FunctionConversion *result = nullptr,
                        ArrayRef<Operation *> disposableCasts = {});

/// For keep-io-types=false: gives the arguments and results of the public
/// functions nested in `module` the type `target` where that removes a cast
/// (an argument only cast down, a result only cast up), and updates the call
/// sites in `module`. Returns the number of arguments and results changed.
/// A signature is kept (with a remark) when some use of the function in
/// `module` is not a call that can be updated.
int64_t updatePublicSignatures(Operation *module, FloatType target);

/// True if updatePublicSignatures may change the signature of `op`: a public
/// function with a body, directly in `module`.
bool isSignatureUpdatable(Operation *op, Operation *module);

/// updatePublicSignatures for the single function `op`, so that callers
/// can be converted after their callees' signatures changed (they then need
/// no second conversion). `listener` sees the ops it inserts (the casts at
/// call sites, which the conversion of a caller may leave unused) and
/// erases.
int64_t updatePublicSignature(Operation *op, Operation *module,
                              FloatType target,
                              RewriterBase::Listener *listener = nullptr);

} // namespace amp
} // namespace mlir

#endif // AMP_TRANSFORMS_MIXEDPRECISION_H
