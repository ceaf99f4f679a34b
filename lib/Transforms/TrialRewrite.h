//===- TrialRewrite.h - Rewriting one op, verified --------------*- C++ -*-===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Internal to lib/Transforms: an op rebuilt by its model in the decided
// types and verified, or restored as it was (MixedPrecision.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef AMP_LIB_TRANSFORMS_TRIALREWRITE_H
#define AMP_LIB_TRANSFORMS_TRIALREWRITE_H

#include "ConversionTracking.h"

#include "amp/Analysis/PrecisionPlan.h"

#include "mlir/IR/Diagnostics.h"

#include <string>

namespace mlir {
namespace amp {
namespace conversion {

/// Registers, for its lifetime, the context handler that collects the
/// diagnostics of trial rewrites (on the thread of the trial only, so that
/// functions can be converted in parallel).
struct CaptureHandler {
  explicit CaptureHandler(MLIRContext *ctx);
  ~CaptureHandler();
  MLIRContext *ctx;
  DiagnosticEngine::HandlerID id;
};

/// Rebuilds `op` through its model and verifies the result. On failure the
/// IR is as before (the op restored, what the model inserted around it
/// erased), `op` is the restored op and `why` says what went wrong.
///
/// Models change ops in place where they can (TOSA ops, linalg payloads
/// retyped). The attributes, operands and result types are restored from a
/// snapshot; an op with regions is restored from a detached copy taken
/// before the trial. An op whose trial key verified before is neither
/// copied nor verified: its rewrite is equal to one that verified.
FailureOr<Operation *> rewriteVerified(Operation *&op, RewriterBase &rewriter,
                                       ConversionListener &listener,
                                       ValueRange operands,
                                       const OpDecision &decision,
                                       std::string &why);

} // namespace conversion
} // namespace amp
} // namespace mlir

#endif // AMP_LIB_TRANSFORMS_TRIALREWRITE_H
