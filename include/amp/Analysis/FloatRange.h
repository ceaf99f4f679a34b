//===- FloatRange.h - Value ranges of float and integer data ----*- C++ -*-===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A sparse forward dataflow analysis (MLIR's dataflow framework, like
// upstream's IntegerRangeAnalysis) that bounds the elements of float and
// integer values: scalars, and the elements of tensors and vectors.
//
// The lattice value is an interval [lo, hi] of doubles and, for each bound,
// whether some element provably *attains* it. The interval is an
// over-approximation (every element lies in it); the attained bounds are what
// makes a range a proof of overflow: a bound that is attained and beyond the
// target's largest finite value means some element overflows. A value from an
// unknown source (a function argument) is unbounded, and unbounded is never a
// reason to keep an op in FP32.
//
// Sources: constants (dense, splat and scalar), linalg.index (the loop
// extents), empty tensors (no elements). Transfer functions: casts, integer
// and float elementwise arithmetic (arith, math, tosa), clamps (attribute
// bounds), data movement (tensor, tosa), and the payloads of structured
// (linalg) ops, evaluated with their operands' ranges; reductions are bounded
// by their extent (a sum of N elements of [a, b] lies in [N a, N b]).
//
// The analysis also records, per op, the largest magnitude of an integer the
// op converts to a float (sitofp, uitofp, tosa.cast), to check it against the
// exact-integer limit of a 16-bit type.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_ANALYSIS_FLOATRANGE_H
#define AMP_ANALYSIS_FLOATRANGE_H

#include "amp/Utils/IRKeyInfo.h"
#include "mlir/Analysis/DataFlow/SparseAnalysis.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/DenseMap.h"

#include <limits>
#include <optional>

namespace mlir {
namespace amp {

/// The range of the elements of a value.
class FloatRange {
public:
  /// The uninitialized state of the lattice (nothing known yet).
  FloatRange() = default;

  /// Every value possible (an unknown input).
  static FloatRange unbounded();
  /// A value without elements to read (tensor.empty).
  static FloatRange noElements();
  /// Every element equals `value`.
  static FloatRange point(double value);
  /// Elements in [lo, hi]; `loAttained`/`hiAttained` if some element provably
  /// equals the bound.
  static FloatRange get(double lo, double hi, bool loAttained, bool hiAttained);

  bool isUninitialized() const { return kind == Kind::Uninitialized; }
  bool hasNoElements() const { return kind == Kind::NoElements; }
  bool isInterval() const { return kind == Kind::Interval; }
  /// True if both bounds are finite.
  bool isBounded() const;
  /// True if the range holds a single value (every element equals it).
  bool isPoint() const;

  double getLo() const { return lo; }
  double getHi() const { return hi; }
  bool isLoAttained() const { return loAttained; }
  bool isHiAttained() const { return hiAttained; }

  /// The largest magnitude some element provably attains, if any.
  std::optional<double> getAttainedMaxAbs() const;

  /// The join of the lattice: a value that is one or the other (a merge of
  /// control flow); a bound stays attained only if both attain it.
  static FloatRange join(const FloatRange &lhs, const FloatRange &rhs);
  /// The elements of both (a concatenation); bounds attained in either stay
  /// attained.
  static FloatRange unite(const FloatRange &lhs, const FloatRange &rhs);

  bool operator==(const FloatRange &other) const;
  void print(raw_ostream &os) const;

private:
  enum class Kind : uint8_t { Uninitialized, NoElements, Interval };
  double lo = 0, hi = 0;
  Kind kind = Kind::Uninitialized;
  bool loAttained = false, hiAttained = false;
};

raw_ostream &operator<<(raw_ostream &os, const FloatRange &range);

/// The lattice element of FloatRangeAnalysis.
class FloatRangeLattice : public dataflow::Lattice<FloatRange> {
public:
  using Lattice::Lattice;
};

/// Computes FloatRange for float, integer and index values (and the elements
/// of tensors and vectors of them). Load it into a DataFlowSolver after an
/// analysis that says which blocks are live: dataflow::DeadCodeAnalysis
/// (with dataflow::SparseConstantPropagation), or the cheaper
/// FloatRangeLiveness.
class FloatRangeAnalysis
    : public dataflow::SparseForwardDataFlowAnalysis<FloatRangeLattice> {
public:
  /// Float constants' bounds beyond `constantLimit` are not attained (for a
  /// conversion that clamps such constants).
  explicit FloatRangeAnalysis(
      DataFlowSolver &solver,
      double constantLimit = std::numeric_limits<double>::infinity())
      : SparseForwardDataFlowAnalysis(solver), constantLimit(constantLimit) {}

  void setToEntryState(FloatRangeLattice *lattice) override;
  LogicalResult visitOperation(Operation *op,
                               ArrayRef<const FloatRangeLattice *> operands,
                               ArrayRef<FloatRangeLattice *> results) override;

  /// The largest magnitude of an integer that `op` (or its payload) converts
  /// to a float, if it converts any with a bounded range.
  std::optional<double> getConvertedIntegerMaxAbs(Operation *op) const;

private:
  double constantLimit;
  llvm::DenseMap<Operation *, double> convertedIntegers;
};

/// Marks every block live, except the payloads of structured ops, which
/// FloatRangeAnalysis evaluates itself with its operands' ranges: the solver
/// then keeps no lattice for payload values. Without dataflow::DeadCodeAnalysis
/// the solver knows no predecessors of regions and calls, so the results of
/// region-branching ops (scf.if, scf.for) and calls are unbounded: cheaper,
/// and as good for straight-line models.
class FloatRangeLiveness : public DataFlowAnalysis {
public:
  using DataFlowAnalysis::DataFlowAnalysis;
  LogicalResult initialize(Operation *top) override;
  LogicalResult visit(ProgramPoint *point) override { return success(); }
};

/// The same transfer functions as FloatRangeAnalysis, driven by one walk of
/// an op's regions in program order instead of a DataFlowSolver: in an SSA
/// DAG (a block of a model) one visit per op is the fixpoint. Values of
/// unknown range take no memory (most values of a model come from its
/// arguments), and nothing is kept per op but the ranges: about 50 bytes
/// per bounded value, where the solver keeps a lattice, its subscribers and
/// program points for every value and op (about 1 KB per op). Block
/// arguments, the results of ops with regions other than structured ops, and
/// values used before their definition in the walk (blocks out of dominance
/// order) are unbounded.
class FloatRangeMap {
public:
  /// Computes the ranges of the values defined in the regions of `root`.
  /// Float constants' bounds beyond `constantLimit` are not attained (for a
  /// conversion that clamps such constants). `expectedValues`, if known,
  /// is about how many values will have a stored range (the table is sized
  /// for them once instead of growing).
  explicit FloatRangeMap(
      Operation *root,
      double constantLimit = std::numeric_limits<double>::infinity(),
      size_t expectedValues = 0);

  FloatRange lookup(Value value) const;
  /// True if the range of some value (lookup) attains a bound of magnitude
  /// above `limit` other than +-FLT_MAX, the sentinel of "lowest"/"highest"
  /// (a max-reduction's init). False means no lookup can show a value
  /// provably beyond `limit`: a caller that checks values against a type's
  /// range can skip the lookups.
  bool attainsBeyond(double limit) const { return largestAttained > limit; }
  /// As FloatRangeAnalysis::getConvertedIntegerMaxAbs.
  std::optional<double> getConvertedIntegerMaxAbs(Operation *op) const;

private:
  void visit(Operation *op);
  /// The range of the result of `op` if it costs less to compute than to
  /// store (an empty tensor, a scalar or splat constant: most of the
  /// bounded values of a model), which is then not stored.
  std::optional<FloatRange> getRecomputableRange(Operation *op) const;
  /// Folds the attained bounds of `range` into largestAttained.
  void noteAttained(const FloatRange &range);

  double constantLimit;
  /// The largest attained bound magnitude (attainsBeyond).
  double largestAttained = 0;
  /// Constant attributes seen last, and whether their range is recomputable
  /// (then noted already), direct-mapped by address.
  struct RecentConstant {
    const void *attr = nullptr;
    bool recomputable = false;
  };
  RecentConstant recentConstants[16];
  llvm::DenseMap<Value, FloatRange, ValueKeyInfo> ranges;
  /// The last ranges stored in `ranges`, looked at first.
  struct RecentRange {
    Value value;
    FloatRange range;
  };
  RecentRange recentRanges[8];
  unsigned nextRecent = 0;
  llvm::DenseMap<Operation *, double, OpKeyInfo> convertedIntegers;
};

/// The range of `value` in `solver` (unbounded if the analysis did not reach
/// it).
FloatRange getFloatRange(const DataFlowSolver &solver, Value value);

/// The largest integer up to which every integer is exact in `type` (2^p for
/// p significant bits: 2048 for f16, 256 for bf16).
double getExactIntegerLimit(FloatType type);

/// The largest finite value of `type`.
double getLargestFinite(FloatType type);

} // namespace amp
} // namespace mlir

#endif // AMP_ANALYSIS_FLOATRANGE_H
