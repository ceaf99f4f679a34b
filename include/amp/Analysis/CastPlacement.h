//===- CastPlacement.h - Where gray ops run: the byte-cost problem -*- C++ -*-===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The problem that gray-strategy=min-bytes solves, without IR: free ops
// (gray ops that may run in FP32 or in the target type), each moving a
// number of elements, and the values they make and read, each with a
// producer and readers that are free ops or fixed sides. It is solved by
// minimum cuts (MinCut.h), one per group of free ops that values join, with
// these byte costs:
//
//  - a free op moves 4 bytes per element it reads or writes in FP32 and 2
//    in 16 bits: staying in FP32 costs kOpBytesPerElement more per element;
//  - a cast reads and writes every element of its value:
//    kCastBytesPerElement, paid once per value and direction (one cast down
//    serves every low reader, one cast up every FP32 reader);
//  - a value of large growth (Magnitude.h) that a free op brings back down
//    costs kLargeGrowthBytesPerElement more when any free op makes or reads
//    it in 16 bits, so that it is narrowed after that op where this costs
//    no more than two more casts of it.
//
// A group that touches nothing in the target type (no low producer or
// reader, no anchored value) stays in FP32: gray ops run low to serve
// low-precision ops, never on their own. Ties go to FP32. A value that is
// made anew for each reader (a constant, an init tensor: producer Any)
// joins no group unless it is penalized (or joinReaders asks); read low by a
// fixed op, it makes each of its free readers' groups touch the target type.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_ANALYSIS_CASTPLACEMENT_H
#define AMP_ANALYSIS_CASTPLACEMENT_H

#include "amp/Analysis/MinCut.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <vector>

namespace mlir {
namespace amp {

/// Bytes per element staying in FP32 costs a free op (4 against 2).
constexpr int64_t kOpBytesPerElement = 2;
/// Bytes per element of a cast (it reads 4 and writes 2, or the reverse).
constexpr int64_t kCastBytesPerElement = 6;
/// What the minimum cut pays, beyond the cast itself, to handle a value of
/// large growth in 16 bits before the op that brings it back down rather
/// than after: two more casts' worth, 12 bytes per element of the value.
constexpr int64_t kLargeGrowthBytesPerElement = 12;

class CastPlacementProblem {
public:
  /// Where a value is made or read, when not by a free op: an FP32 op, an
  /// op in the target type, or nothing that cares (a value made anew for
  /// each reader; a return whose type may change).
  enum Side : int { High = -1, Low = -2, Any = -3 };

  /// Adds a free op that reads and writes `elements` elements; returns its
  /// id (0, 1, ...).
  unsigned addOp(int64_t elements);
  /// Adds a value of `elements` elements made by `producer` (a free op's id
  /// or a Side); returns its id. A value of producer Any joins no group
  /// unless `penalize` is called.
  unsigned addValue(int64_t elements, int producer);
  /// `reader` (a free op's id or a Side) reads `value`. A free op that
  /// reads a value twice may add it twice in a row.
  void addReader(unsigned value, int reader);
  /// `value` counts as low for the rule that a group must touch the target
  /// type (a green op's output that FP32 readers read in FP32).
  void anchor(unsigned value);
  /// `value` has a large growth that a free op brings back down: handling
  /// it in 16 bits costs kLargeGrowthBytesPerElement more per element. A
  /// penalized value joins its readers' groups (joinReaders).
  void penalize(unsigned value);
  /// The readers of `value` (of producer Any) are in one group all the same
  /// (a value of large growth: see PlanCastPlacement.cpp).
  void joinReaders(unsigned value);

  /// Decides every free op.
  void solve();
  /// After solve(): true if `op` runs in the target type.
  bool runsLow(unsigned op) const { return ops[op].low; }
  /// After solve(): true if some reader of `value` reads it in the target
  /// type (a fixed low reader, or a free reader that runs low).
  bool isReadLow(unsigned value) const;

  /// The free ops that read `value`, in the order they were added.
  llvm::ArrayRef<unsigned> getReaders(unsigned value) const {
    return values[value].readers;
  }
  /// True if `value` keeps its producer and readers in one group.
  bool joinsGroup(unsigned value) const { return values[value].joins(); }

  unsigned getNumOps() const { return ops.size(); }
  unsigned getNumValues() const { return values.size(); }
  /// After solve(): the number of groups solved by a minimum cut (the
  /// others were decided without one).
  unsigned getNumCuts() const { return numCuts; }

private:
  struct Op {
    int64_t elements;
    bool low = false;
  };
  struct Value {
    int64_t elements;
    int producer;
    /// The free ops that read it, each once.
    llvm::SmallVector<unsigned, 2> readers;
    bool readLow = false, readHigh = false;
    bool anchored = false, penalized = false, joined = false;
    /// Its producer and readers are in one group.
    bool joins() const { return producer != Any || penalized || joined; }
  };
  void solveGroup(llvm::ArrayRef<unsigned> members,
                  llvm::ArrayRef<unsigned> groupValues,
                  std::vector<unsigned> &nodeOf);

  std::vector<Op> ops;
  std::vector<Value> values;
  unsigned numCuts = 0;
  /// One graph for every group (its buffers are kept).
  MinCutGraph graph;
};

} // namespace amp
} // namespace mlir

#endif // AMP_ANALYSIS_CASTPLACEMENT_H
