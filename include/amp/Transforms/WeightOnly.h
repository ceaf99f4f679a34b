//===- WeightOnly.h - Low-bit weights for green contractions ----*- C++ -*-===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The weight-only stage of --amp-mixed-precision (`weight-only=`, or ops
// annotated `amp.weights`). Like the FP8 stage it runs before the 16-bit
// plan, on the contractions the plan would run in 16 bits whose weight (a
// matmul's B, a convolution's filter) is a constant, and rewrites each into
// the form docs/weight-only.md describes:
//
//   q, s(, z) = RTN(w)                 constants, K-major, int4 packed 2/byte
//   w16 = trunc16((q - z) * s)         one linalg.generic, read by the
//                                      contraction only
//   x16 = trunc16(x)                   the activation, at run time
//   y   = contraction(x16, w16) in f32 (+ a non-zero init, + a TOSA bias)
//
// through the same op models as FP8 (MixedPrecisionOpInterface::
// rewriteInFP8 with a builder that quantizes instead of scaling). The ops it
// makes are fixed for the plan that follows; its records are FP8Records
// with `weights` set.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_TRANSFORMS_WEIGHTONLY_H
#define AMP_TRANSFORMS_WEIGHTONLY_H

#include "amp/Transforms/FP8Contractions.h"

namespace mlir {
namespace amp {

/// The weight-only format `op` asks for: its `amp.weights` annotation's
/// (nullopt for "none"), else options.weightOnly.
std::optional<WeightQuantSpec>
getRequestedWeights(Operation *op, const MixedPrecisionOptions &options);

/// True if some op under `root` carries an `amp.weights` annotation.
bool hasWeightsAnnotation(Operation *root);

/// True if `op`, which the plan `d` runs in 16 bits, has a weight-only
/// form in `spec`: a contraction with a weight operand that is a constant
/// and accumulates in f32. Otherwise `why` says what is missing.
bool hasWeightOnlyForm(Operation *op, const OpDecision &d,
                       const WeightQuantSpec &spec, std::string &why);

/// Runs the weight-only stage on `root` as `options` say, adding what it
/// did to `result` (converted contractions, fallbacks with the reason
/// NoWeightOnlyForm, fixed and detached ops). Contractions that asked for a
/// format by annotation and keep their weight get a remark; the others are
/// summed up in one. Fails only after an error the coloring emits.
LogicalResult convertWeightOnlyContractions(Operation *root,
                                            const MixedPrecisionOptions &options,
                                            FP8Conversion &result);

} // namespace amp
} // namespace mlir

#endif // AMP_TRANSFORMS_WEIGHTONLY_H
