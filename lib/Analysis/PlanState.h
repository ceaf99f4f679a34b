//===- PlanState.h - What the phases of a precision plan share --*- C++ -*-===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The state of a PrecisionPlan (PrecisionPlan.h) and its phases, one file
// each:
//
//   PlanCollection.cpp     the ops that take part and what they read
//   PlanColors.cpp         colors, skip-layers, the types of green ops
//   PlanRanges.cpp         ops kept out of the target type by value ranges
//   PlanSweeps.cpp         the forward sweep (and fewest-casts' backward one)
//   PlanCastPlacement.cpp  gray ops by a minimum cut (min-bytes)
//
// PlanState is what outlives planning (the decisions, read by the rewrite);
// PlanInputs what only planning reads, freed when it is done; each phase
// keeps its own tables (ranges, value states, the cut's problem) in its own
// scope, so that the peak memory of a big function is that of the largest
// phase, not their sum.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_LIB_ANALYSIS_PLANSTATE_H
#define AMP_LIB_ANALYSIS_PLANSTATE_H

#include "amp/Analysis/PrecisionPlan.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/MapVector.h"

#include <optional>
#include <vector>

namespace mlir {
namespace amp {
namespace plan {

/// What the plan knows of one op.
struct OpInfo {
  OpDecision decision;
  /// Where its operand numbers start in `operandNumbers`: those of the
  /// data operands (the first of its data inputs), then those of the
  /// accumulator operands.
  uint32_t operandsBegin = 0, numData = 0, numAccumulators = 0;
  /// Set when the decision must not change in the backward sweep.
  bool pinned = false;
  /// Decided by ranges: runs in the overflow type / stays in FP32 (also
  /// an unknown op with float operands it cannot retype).
  bool overflowType = false, keptHigh = false;
  /// Annotated with all three types (amp.precision with `compute`, as
  /// --amp-plan-precision writes): taken as written.
  bool exact = false;
  /// The largest magnitude of its float attributes that checkRanges reads
  /// (clamp bounds; 0 if none, or with clamp-constants).
  double largestBound = 0;
};

/// The ops that take part and their decisions: what the rewrite reads.
struct PlanState {
  PlanState(Operation *root, const MixedPrecisionOptions &options)
      : root(root), options(options) {}

  Operation *root;
  const MixedPrecisionOptions &options;
  /// The ops that take part, and their infos (same index).
  SmallVector<Operation *> ops;
  SmallVector<OpInfo> infos;
  /// The operand numbers of every op's slice (kept for the rewrite).
  std::vector<unsigned> operandNumbers;
  /// Range summary of the float constants consumed in low precision.
  RangeSummary constantSummary;
  /// Some op of the function carries amp.color or amp.precision.
  bool hasAnnotations = false;
  /// The names of amp's annotations.
  StringAttr colorName, precisionName;

  /// The index of `op` in `ops`; `near`: an op close to it (PrecisionPlan::
  /// findIndex).
  std::optional<unsigned> findIndex(Operation *op,
                                    std::optional<size_t> near = {}) const;
  /// The index of `op` if it is one of the few ops around ops[near].
  std::optional<unsigned> findNear(Operation *op, size_t near) const;
  ArrayRef<unsigned> getDataOperands(size_t i) const {
    return ArrayRef(operandNumbers)
        .slice(infos[i].operandsBegin, infos[i].numData);
  }
  ArrayRef<unsigned> getAccumulatorOperands(size_t i) const {
    return ArrayRef(operandNumbers)
        .slice(infos[i].operandsBegin + infos[i].numData,
               infos[i].numAccumulators);
  }

private:
  /// Built on the first query by op (the conversion queries by index).
  mutable llvm::DenseMap<Operation *, unsigned, OpKeyInfo> index;
};

/// What only planning reads about the ops, as slices of flat arrays (a few
/// bytes per op, not a vector each): written by collection, freed when
/// planning is done.
struct PlanInputs {
  /// Where an op's inputs are.
  struct OpInputs {
    /// Float (f32) values the op reads as data, in `inputValues`: data
    /// operands, then values captured by its payload regions.
    uint32_t valuesBegin = 0, numValues = 0;
    /// The float constants inside the op's payload regions, in
    /// `payloadConstants`.
    uint32_t constantsBegin = 0, numConstants = 0;
  };
  /// An op that reads FP32 values, for use counting.
  struct Reader {
    Operation *op;
    /// The values it reads, in `readValues`.
    uint32_t readsBegin, numReads;
    /// Its index in `ops`, or -1 if it does not take part.
    int info = -1;
  };

  std::vector<OpInputs> inputs;
  std::vector<Value> inputValues, readValues;
  std::vector<Operation *> payloadConstants;
  /// Every op whose operands are read in the function, including the
  /// non-participating ones, with the values it reads.
  std::vector<Reader> readers;

  ArrayRef<Value> getDataInputs(size_t i) const {
    return ArrayRef(inputValues)
        .slice(inputs[i].valuesBegin, inputs[i].numValues);
  }
  ArrayRef<Operation *> getPayloadConstants(size_t i) const {
    return ArrayRef(payloadConstants)
        .slice(inputs[i].constantsBegin, inputs[i].numConstants);
  }
  ArrayRef<Value> getReads(const Reader &reader) const {
    return ArrayRef(readValues).slice(reader.readsBegin, reader.numReads);
  }
};

/// What coloring counts, for its summary remark, and whether it failed (it
/// stops at the first error, as if nothing came after).
struct ColorTally {
  llvm::MapVector<OperationName, unsigned> uncoloredOps;
  unsigned elidedConstants = 0;
  LogicalResult colored = success();
};

/// What a phase after collection reads, under the names its code uses: the
/// plan's state and inputs.
class PlanPhase {
protected:
  PlanPhase(PlanState &state, const PlanInputs &in)
      : state(state), in(in), root(state.root), options(state.options),
        ops(state.ops), infos(state.infos) {}

  std::optional<unsigned> findIndex(Operation *op,
                                    std::optional<size_t> near = {}) const {
    return state.findIndex(op, near);
  }
  std::optional<unsigned> findNear(Operation *op, size_t near) const {
    return state.findNear(op, near);
  }
  ArrayRef<Value> getDataInputs(size_t i) const { return in.getDataInputs(i); }

  PlanState &state;
  const PlanInputs &in;
  Operation *root;
  const MixedPrecisionOptions &options;
  SmallVector<Operation *> &ops;
  SmallVector<OpInfo> &infos;
};

//===----------------------------------------------------------------------===//
// The phases
//===----------------------------------------------------------------------===//

/// PlanCollection.cpp: the ops that take part, in program order, each
/// colored (colorOp) as it is collected, while it is in the cache. Without
/// `withInputs` (colors alone), `inputs` may miss the values payloads
/// capture.
void collectOps(PlanState &state, PlanInputs &inputs, ColorTally &tally,
                bool withInputs = true);

/// PlanColors.cpp: the color of one op (annotation > user lists > policy >
/// unknown-op policy).
LogicalResult colorOp(PlanState &state, ColorTally &tally, Operation *op,
                      OpInfo &info);
/// One remark for the ops left in FP32 for want of a color, and one for the
/// constants without data.
void summarizeUncolored(const PlanState &state, const ColorTally &tally);
void applySkipLayers(PlanState &state);
/// The compute, accumulation and output types of green ops.
LogicalResult assignPrecisions(PlanState &state);

/// PlanRanges.cpp: ops whose values, attributes or converted integers do
/// not fit the target type run in the overflow type or stay in FP32.
void applyRanges(PlanState &state, const PlanInputs &inputs);

/// PlanSweeps.cpp: the forward sweep, and with fewest-casts the use counts
/// and the backward sweep.
void runSweeps(PlanState &state, const PlanInputs &inputs);

/// PlanCastPlacement.cpp: gray ops by a minimum cut in bytes (min-bytes).
void placeCasts(PlanState &state, const PlanInputs &inputs);

//===----------------------------------------------------------------------===//
// Helpers the phases share
//===----------------------------------------------------------------------===//

/// The type amp converts from.
bool isSourceElementType(Type type);
/// A value amp converts: an FP32 scalar, tensor or vector.
bool isConvertible(Value value);
/// A public function with a body.
bool isPublicFunction(Operation *op);
/// The float attributes of `op` a type must hold (clamp bounds and the
/// like): FP32 values other than +-FLT_MAX and infinities, which stand for
/// "no bound" and map to the target's own largest value (counted in
/// `sentinels` when given).
void getBoundAttributes(Operation *op, SmallVectorImpl<double> &bounds,
                        int64_t *sentinels = nullptr);
/// The discardable attribute `name` of `op` if it is an `AttrT` (amp's
/// annotations are discardable: read without the string compares of the
/// inherent attribute lookup, and not at all on an op without discardable
/// attributes, most of a function).
template <typename AttrT>
AttrT getAnnotation(Operation *op, StringAttr name) {
  if (op->getRawDictionaryAttrs().empty())
    return {};
  return dyn_cast_or_null<AttrT>(op->getDiscardableAttr(name));
}

} // namespace plan
} // namespace amp
} // namespace mlir

#endif // AMP_LIB_ANALYSIS_PLANSTATE_H
