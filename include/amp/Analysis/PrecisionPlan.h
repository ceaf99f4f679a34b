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
// The sweeps are linear in the number of ops and uses; the range analysis
// visits each op about once (a payload costs its size). The rewrite that
// carries out a plan lives in lib/Transforms.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_ANALYSIS_PRECISIONPLAN_H
#define AMP_ANALYSIS_PRECISIONPLAN_H

#include "amp/Analysis/FloatRange.h"
#include "amp/IR/AmpAttrs.h"
#include "amp/Utils/FloatConversion.h"
#include "amp/Utils/IRKeyInfo.h"

#include "mlir/IR/Operation.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/StringMap.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

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

/// The default growth (Magnitude.h) from which a value counts as large
/// (`large-growth`): 16 times the magnitude of the function's inputs (4 of
/// the 15 binades f16 has above 1).
constexpr double kLargeGrowth = 16;
/// What the minimum cut pays, beyond the cast itself, to narrow a large
/// value before the op that brings it back down rather than after: two
/// more casts' worth, 12 bytes per element of the value.
constexpr int64_t kLargeGrowthBytesPerElement = 12;

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
  ArrayRef<Operation *> getOps() const { return ops; }

  /// The decision for an op of getOps().
  const OpDecision &getDecision(Operation *op) const {
    return infos[*findIndex(op)].decision;
  }
  /// The decision for getOps()[i].
  const OpDecision &getDecision(size_t i) const { return infos[i].decision; }

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
  ArrayRef<unsigned> getDataOperands(size_t i) const {
    return ArrayRef(operandNumbers)
        .slice(infos[i].operandsBegin, infos[i].numData);
  }
  ArrayRef<unsigned> getAccumulatorOperands(size_t i) const {
    return ArrayRef(operandNumbers)
        .slice(infos[i].operandsBegin + infos[i].numData,
               infos[i].numAccumulators);
  }

  /// Range summary of the float constants consumed in low precision.
  const RangeSummary &getConstantSummary() const { return constantSummary; }

private:
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
  /// Why an op cannot use a type, from ranges or attributes.
  struct RangeProblem {
    Reason reason;
    FloatRange range;
    /// Only the op's own output does not fit (its inputs do).
    bool outputOnly = false;
  };
  /// What only planning reads about an op (freed when planning is done),
  /// as slices of flat arrays: a few bytes per op, not a vector each.
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
  struct ValueState {
    /// A low-precision consumer can read the value in the target type
    /// without a runtime cast (other than a green op's own output cast).
    bool lowAvailable = false;
    /// The value exists in the target type after conversion.
    bool nativeLow = false;
    /// Uses that read the value in the target type / in FP32.
    unsigned lowUses = 0, highUses = 0;
  };

  void collect(Region &region);
  void collectOp(Operation *op);
  /// The sizes of the flat arrays before an op's entries are appended.
  struct Marks {
    size_t values, constants, reads;
  };
  Marks mark() const {
    return {inputValues.size(), payloadConstants.size(), readValues.size()};
  }
  /// Adds a reader of the values appended to `readValues` since `start`.
  void addReader(Operation *op, const Marks &start);
  /// Adds `op`, the last reader, with these operand numbers and the inputs
  /// appended since `start`.
  void addOp(Operation *op, OpInfo &&info, const Marks &start,
             ArrayRef<unsigned> data, ArrayRef<unsigned> accumulators);
  /// The index of `op` if it is one of the few ops around ops[near].
  std::optional<unsigned> findNear(Operation *op, size_t near) const;
  /// Colors an op as it is collected.
  LogicalResult colorOp(Operation *op, OpInfo &info);
  static bool isElidedConstant(Operation *op);
  void applySkipLayers();
  LogicalResult assignPrecisions();
  void applyRanges();
  std::optional<RangeProblem> checkRanges(size_t i, FloatType type);
  std::optional<RangeProblem> checkValue(Value value, FloatType type);
  void forwardSweep();
  void countUses();
  void backwardSweep();
  void minBytesCut();

  /// `near`, in these: the index of an op close to the value's producer
  /// (see findIndex).
  bool isLowAvailable(Value value, std::optional<size_t> near);
  bool constantFits(Operation *constOp);
  bool isFreeInFP32(Value value, std::optional<size_t> near);
  bool isSource(Value value) const;
  /// The index of the op of `ops` whose first result is `value`, if any: its
  /// state is in `resultStates`.
  std::optional<unsigned> findResultIndex(Value value,
                                          std::optional<size_t> near) const;
  /// The state of `value` (made if absent) / null if it has none yet.
  ValueState &state(Value value, std::optional<size_t> near);
  const ValueState *findState(Value value, std::optional<size_t> near);

  Operation *root;
  const MixedPrecisionOptions &options;
  /// The ops that take part, and their infos (same index).
  SmallVector<Operation *> ops;
  SmallVector<OpInfo> infos;
  /// std::vector, not SmallVector: these are freed after planning (a
  /// SmallVector keeps its buffer when assigned an empty one).
  std::vector<OpInputs> inputs;
  std::vector<Value> inputValues, readValues;
  std::vector<Operation *> payloadConstants;
  /// The operand numbers of every op's slice (kept for the rewrite).
  std::vector<unsigned> operandNumbers;
  /// Built on the first query by op (the conversion queries by index).
  mutable llvm::DenseMap<Operation *, unsigned, OpKeyInfo> index;
  /// Every op whose operands are read in the function (for use counting),
  /// including the non-participating ones, with the values it reads.
  std::vector<Reader> readers;
  /// The states of the values the sweeps look at: that of the first result
  /// of ops[i] in resultStates[i] (most values: no hashing), the others in
  /// `values`.
  std::vector<ValueState> resultStates;
  llvm::DenseMap<Value, ValueState, ValueKeyInfo> values;
  llvm::DenseMap<Operation *, bool, OpKeyInfo> constantFitCache;
  /// The op forwardSweep is deciding, and the constants only it reads that
  /// constantFits was asked about during its step.
  Operation *sweeping = nullptr;
  SmallVector<std::pair<Operation *, bool>, 4> sweepConstants;
  RangeSummary constantSummary;
  /// Some op of the function carries amp.color or amp.precision.
  bool hasAnnotations = false;
  /// Ops left in FP32 for want of a color, by name, and constants whose data
  /// is not in the file: summarized in one remark unless `remarks` asks for
  /// one per op.
  llvm::MapVector<OperationName, unsigned> uncoloredOps;
  unsigned elidedConstants = 0;
  void summarizeUncolored();
  /// The names of amp's annotations, and whether coloring failed (it stops
  /// at the first error, as if nothing came after).
  StringAttr colorName, precisionName;
  LogicalResult colored = success();
  /// The range of a value, and the integers an op converts to floats.
  FloatRange getRange(Value value) const;
  std::optional<double> getConvertedIntegers(Operation *op) const;

  /// The range analysis, while planning (null without it).
  std::unique_ptr<FloatRangeMap> rangeMap;
  std::unique_ptr<DataFlowSolver> solver;
  FloatRangeAnalysis *rangeAnalysis = nullptr;
};

} // namespace amp
} // namespace mlir

#endif // AMP_ANALYSIS_PRECISIONPLAN_H
