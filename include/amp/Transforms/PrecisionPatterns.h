//===- PrecisionPatterns.h - Patterns to a decided precision --*- C++ -*-===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// amp's rewrite as patterns, for pipelines that want it with their own
// decisions or their own pattern driver:
//
//   RewritePatternSet patterns(ctx);
//   amp::populateAmpMixedPrecisionPatterns(patterns, [](Operation *op)
//       -> std::optional<amp::OpDecision> { ... });
//   (void)applyPatternsGreedily(func, std::move(patterns));
//
// One pattern rewrites any op implementing MixedPrecisionOpInterface (every
// linalg and TOSA op amp knows, through its external models: contractions,
// convolutions, elementwise ops, data movement, payloads, TOSA zero points
// and acc_type) to the decision the source gives it: its data operands read
// in the compute type, its accumulators in the accumulation type, through
// casts that are shared (an existing cast of the value to the type is
// reused), never round trips (a widening's source is read instead), and
// folded for constants and init tensors (new 16-bit constants, empty
// tensors, fills). Its old users read the new results through widening casts
// that the next rewrites look through. With the greedy driver, casts and
// constants left without users are erased, and constants cast by a pattern
// fold into 16-bit constants.
//
// --amp-mixed-precision does not go through the greedy driver (it carries
// out a whole function's plan in one walk, with its own cast cache and
// verification); --amp-apply-precision is that pass on annotations. These
// patterns are the same rewrites, one op at a time, for other drivers.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_TRANSFORMS_PRECISIONPATTERNS_H
#define AMP_TRANSFORMS_PRECISIONPATTERNS_H

#include "amp/Analysis/PrecisionPlan.h"

#include "mlir/IR/PatternMatch.h"

#include <functional>
#include <optional>

namespace mlir {
namespace amp {

/// Where the patterns' decisions come from: the decision for `op` (only
/// `lowPrecision`, `computeType` and `accumulateType` are read), or nullopt
/// to leave it alone. Called once per match attempt; must be thread-safe if
/// the driver is.
using PrecisionDecisionFn =
    std::function<std::optional<OpDecision>(Operation *op)>;

/// Adds the pattern that rewrites ops to the precision `decide` gives them.
void populateAmpMixedPrecisionPatterns(RewritePatternSet &patterns,
                                       PrecisionDecisionFn decide,
                                       PatternBenefit benefit = 1);

/// A decision source reading the annotations --amp-plan-precision writes:
/// `amp.precision` with a `compute` type of f16 or bf16 gives that decision;
/// anything else (no annotation, amp.color, an FP32 compute type) none.
PrecisionDecisionFn getAnnotatedDecisions();

} // namespace amp
} // namespace mlir

#endif // AMP_TRANSFORMS_PRECISIONPATTERNS_H
