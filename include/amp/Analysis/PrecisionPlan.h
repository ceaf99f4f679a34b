//===- PrecisionPlan.h - Decide the precision of every op -------*- C++ -*-===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The decisions of automatic mixed precision for one function, made without
// changing the IR:
//
//  1. Color every op: annotation (`amp.color`, `amp.precision`) > user lists
//     (`green=`, `gray=`, `red=`) > policy; then `skip-layers` keeps chosen
//     green ops in FP32. Ops without a color are handled as configured.
//  2. Ranges (FloatRange.h): an op whose values provably leave the target's
//     finite range (a bound some element attains, or a range observed on
//     sample inputs, MixedPrecisionOptions::observedMaxAbs), whose float
//     attributes do not fit, or that converts integers beyond the target's
//     exact-integer limit, runs in the overflow type if one is set and it
//     fits there, otherwise in FP32. A green op whose inputs fit but whose
//     output does not keeps low inputs with an FP32 (or overflow-type)
//     output. Unknown (unbounded) ranges are never a reason.
//  3. Forward sweep, in program order: green ops run in the target type; a
//     gray op is a candidate for the target type when every float data input
//     is available in it (a low-precision result, a green op's output, a
//     constant that fits, an exact widening of a low value). A gray op
//     without float data inputs follows nothing: it is a candidate only
//     under fewest-casts.
//  4. (min-bytes, the default) A minimum cut in bytes instead of the
//     backward sweep: gray ops and casts are placed so that the fewest
//     bytes move, and a value of large growth relative to the function's
//     inputs (Magnitude.h) is narrowed after the op that brings it back
//     down (a division by the 49 elements it sums, a normalization) rather
//     than before, unless that costs more than two more casts of it.
//  5. (fewest-casts) Backward sweep, in reverse order: a candidate whose
//     results are all consumed in FP32 stays in FP32 when that needs no
//     more casts than running it low and casting its results up (ties go
//     to FP32, which is more accurate and lets the saving propagate to its
//     producers).
//
// Init tensors (tensor.empty, linalg.fill of a constant) take no part: a
// consumer that reads one in low precision gets its own low copy, so FP32
// consumers keep reading the FP32 original.
//
// Each step is linear in the number of ops and uses (values read by many
// ops are scanned once); the range analysis visits each op about once (a
// payload costs its size); the cut is a max flow per group of gray ops
// (CastPlacement.h). The steps are one file each in lib/Analysis
// (PlanState.h: PlanCollection, PlanColors, PlanRanges, PlanSweeps,
// PlanCastPlacement). The rewrite that carries out a plan lives in
// lib/Transforms.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_ANALYSIS_PRECISIONPLAN_H
#define AMP_ANALYSIS_PRECISIONPLAN_H

#include "amp/Analysis/FloatRange.h"
#include "amp/Analysis/MixedPrecisionOptions.h"
#include "amp/IR/AmpAttrs.h"
#include "amp/Utils/FloatConversion.h"
#include "amp/Utils/IRKeyInfo.h"

#include "mlir/IR/Operation.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/StringMap.h"

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mlir {
namespace amp {
namespace plan {
struct PlanState;
} // namespace plan

/// The decision for one op.
struct OpDecision {
  Color color = Color::gray;
  Reason reason = Reason::DefaultList;
  /// True if the op is rewritten to run in low precision.
  bool lowPrecision = false;
  /// True if the op has no color of its own (no interface, not in a list).
  bool unknown = false;
  /// Input (compute), accumulation and output types; set for green ops and
  /// for ops forced by `amp.precision`, and for low-precision gray ops.
  FloatType computeType, accumulateType, outputType;
  /// For reasons ValueOutOfRange, ObservedRange and ConstantOutOfRange (of
  /// an attribute): the range that decided. For IntegerNotExact: the point
  /// of the largest integer magnitude converted. Uninitialized otherwise.
  FloatRange range;
  /// The type whose range the value left (the target, or the overflow type
  /// when that did not fit either).
  FloatType rangeType;
  /// For ObservedRange: the safety factor the observed range was taken with.
  double rangeMargin = 1.0;
  /// For NarrowedAfterNormalization: the growth (Magnitude.h) of the input
  /// the op brings back down, and of its result.
  double inputGrowth = 0, resultGrowth = 0;
};

/// Says why the range of `decision` decided it ("value range [0, 126000]
/// leaves f16 (largest finite 65504)"), or the growth for
/// NarrowedAfterNormalization; empty if neither decided.
std::string describeRangeReason(const OpDecision &decision);

/// The precision plan of one function (or any op with regions).
class PrecisionPlan {
public:
  PrecisionPlan(Operation *root, const MixedPrecisionOptions &options);

  /// Computes the plan. Fails (after emitting an error) only for problems the
  /// user must fix: an unknown op under `unknown-ops=error`, an annotation or
  /// policy answer the op cannot honor.
  LogicalResult run();

  /// The first steps of run() only: colors (annotations, lists, policy,
  /// skip-layers) and the types of green ops, without ranges or gray
  /// decisions and without the summary remark of ops without a color. The
  /// FP8 stage (FP8Contractions.h) asks it which contractions would run in
  /// 16 bits.
  LogicalResult runColors();

  /// The ops that take part, in program order.
  ArrayRef<Operation *> getOps() const;

  /// The decision for an op of getOps().
  const OpDecision &getDecision(Operation *op) const {
    return getDecision(*findIndex(op));
  }
  /// The decision for getOps()[i].
  const OpDecision &getDecision(size_t i) const;

  /// The index in getOps() of `op`, if it takes part. `near`, if given, is
  /// the index of an op close to it in the program (the producer of an
  /// operand or the user of a result): the ops around it are compared
  /// first, which spares most lookups in the hash table, a cache miss each
  /// in a big function.
  std::optional<unsigned> findIndex(Operation *op,
                                    std::optional<size_t> near = {}) const;

  /// True if `operand` of the low-precision op `op` is converted to the
  /// compute type, or to the accumulation type if `isAccumulator`.
  bool isDataOperand(Operation *op, OpOperand &operand) const;
  bool isAccumulatorOperand(Operation *op, OpOperand &operand) const;

  /// True if `user`, an op of getOps() after getOps()[i], runs in low
  /// precision and reads its operand `operandNumber` through the
  /// conversion (a data or accumulator operand): the conversion gives that
  /// operand the type it reads it in.
  bool isConvertedLater(Operation *user, unsigned operandNumber,
                        size_t i) const;

  /// The operand numbers of the data operands / accumulator operands of
  /// getOps()[i], as isDataOperand and isAccumulatorOperand decide.
  ArrayRef<unsigned> getDataOperands(size_t i) const;
  ArrayRef<unsigned> getAccumulatorOperands(size_t i) const;

  /// Range summary of the float constants consumed in low precision.
  const RangeSummary &getConstantSummary() const;

  ~PrecisionPlan();

private:
  /// The state the phases share (lib/Analysis/PlanState.h).
  std::unique_ptr<plan::PlanState> state;
};

} // namespace amp
} // namespace mlir

#endif // AMP_ANALYSIS_PRECISIONPLAN_H
