//===- FP8Contractions.h - Run green contractions in FP8 --------*- C++ -*-===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The FP8 stage of --amp-mixed-precision (target-type=f8E4M3FN or f8E5M2, or
// ops annotated with an FP8 compute type). It runs before the 16-bit plan of
// the same function and rewrites the contractions that would run in 16 bits
// (the plan's colors: annotations, lists, policy, skip-layers) and whose FP8
// operands all have a scale into the form docs/fp8.md describes:
//
//   x8  = truncf(min(max(x * s_x, -MAX), MAX))   (activations, at run time)
//   w8  = RNE(clamp(w * s_w))                    (constants, at compile time,
//                                                 B K-major)
//   acc = contraction(x8, w8) in f32
//   y   = acc * 1 / (s_x * s_w)  (+ bias, + a non-zero init)
//
// with s = MAX / amax: amax of a constant from its values (per tensor or per
// output channel), of an activation from the ranges observed on sample
// inputs (`ranges=`, times the range margin) or from a static range that the
// range analysis proves bounded and reached. An operand without one keeps
// the op in the fallback type (the plan's target) with a remark; nothing is
// guessed. The ops it makes are left alone by the plan that follows
// (MixedPrecisionOptions::fixedOps), which decides everything else as usual.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_TRANSFORMS_FP8CONTRACTIONS_H
#define AMP_TRANSFORMS_FP8CONTRACTIONS_H

#include "amp/Analysis/PrecisionPlan.h"
#include "amp/Utils/WeightQuantization.h"

#include "llvm/ADT/DenseSet.h"

#include <string>
#include <vector>

namespace mlir {
namespace amp {

/// Where the scale of an FP8 operand comes from.
enum class FP8ScaleSource {
  /// A constant (or a transpose of one): its largest magnitude.
  Constant,
  /// A constant, one scale per output channel.
  ConstantPerChannel,
  /// The range observed on sample inputs (`ranges=`), times the margin.
  ObservedRange,
  /// A static range the range analysis proves bounded and reached.
  StaticRange,
};

/// Returns "constant", "constant per channel", "ranges", "static range".
StringRef stringifyFP8ScaleSource(FP8ScaleSource source);

/// The scale of one FP8 operand, as the report shows it.
struct FP8OperandScale {
  unsigned operand;
  FP8ScaleSource source;
  /// The largest magnitude the scale maps to the FP8 maximum (margin
  /// included), and the scale; for per-channel scales the largest of them
  /// and the smallest scale, and the number of channels.
  double maxAbs = 0, scale = 1;
  int64_t channels = 1;
};

/// What the FP8 stage decided about one contraction: converted (with the
/// scales of its operands) or not (why).
struct FP8Record {
  FloatType type;
  bool converted = false;
  SmallVector<FP8OperandScale, 2> scales;
  std::string why;
  /// Values of the weights converted at compile time that overflowed
  /// (saturated) or flushed to zero.
  RangeSummary constants;
  /// Set for the weight-only stage's records (WeightOnly.h), where `type`
  /// is the 16-bit type of the activations: the format, and the bytes of
  /// the weight in f32, in `type` and as stored (packed values, scales and
  /// zero points; f16Scales says the scales' type).
  std::optional<WeightQuantSpec> weights;
  int64_t weightBytesF32 = 0, weightBytes16 = 0, weightBytesStored = 0;
  bool f16Scales = false;
};

/// What the FP8 stage did to one function, for the plan that follows and
/// the report.
struct FP8Conversion {
  FP8Conversion() = default;
  FP8Conversion(const FP8Conversion &) = delete;
  FP8Conversion &operator=(const FP8Conversion &) = delete;
  /// Destroys the ops the rewrite detached.
  ~FP8Conversion();

  /// The contractions converted, in program order: name, location, the
  /// plan's decision (color and reason) and the record.
  struct Converted {
    OperationName opName;
    Location location;
    OpDecision decision;
    FP8Record record;
  };
  std::vector<Converted> converted;
  /// The candidates that stay for the plan (to run in the fallback type), by
  /// op, with the reason (NoFP8Scale, NoFP8Form, FP8BelowThreshold).
  llvm::DenseMap<Operation *, std::pair<Reason, FP8Record>> fallbacks;
  /// The ops the rewrite made (MixedPrecisionOptions::fixedOps) and those
  /// skip-layers chose (MixedPrecisionOptions::skippedOps).
  llvm::DenseSet<Operation *> fixedOps, skippedOps;
  /// The largest observed magnitude of the values that replace converted
  /// results (for the plan's observed ranges).
  llvm::DenseMap<Value, double> observed;
  /// Ops removed from the IR but kept alive until the plan is done, so that
  /// no new op takes the address of one that observed ranges name.
  SmallVector<Operation *> detached;
};

/// Runs the FP8 stage on the function (or any op with regions) `root` as
/// `options` say: options.fp8Type (null: only ops annotated with an FP8
/// compute type) and options.target, the fallback type. Emits a remark for
/// each contraction that stays in the fallback type for want of a scale
/// (and, with `remarks`, for the other reasons). Fails only after an error
/// the plan's coloring emits.
LogicalResult convertContractionsToFP8(Operation *root,
                                       const MixedPrecisionOptions &options,
                                       FP8Conversion &result);

/// True if `op` carries an `amp.precision` annotation with an FP8 compute
/// type (f8E4M3FN or f8E5M2).
bool hasFP8Annotation(Operation *op);

} // namespace amp
} // namespace mlir

#endif // AMP_TRANSFORMS_FP8CONTRACTIONS_H
