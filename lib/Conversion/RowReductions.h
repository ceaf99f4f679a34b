//===- RowReductions.h - Members and groups of row kernels ------*- C++ -*-===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The pieces of --amp-gpu-row-reductions (RowReductions.cpp: the pass,
// which runs of ops become a kernel), in layers: the combining operations
// of reductions (RowCombiners.cpp), the members of a group and the groups
// (RowGroups.cpp: what an op is over its row space, which ops may join a
// group), and the kernel of a group (RowKernel.cpp). Private to
// lib/Conversion.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_LIB_CONVERSION_ROWREDUCTIONS_H
#define AMP_LIB_CONVERSION_ROWREDUCTIONS_H

#include "KernelSupport.h"

namespace mlir {
namespace amp {
namespace detail {

//===----------------------------------------------------------------------===//
// Combiners (RowCombiners.cpp)
//===----------------------------------------------------------------------===//

/// The associative, commutative operations a reduction may combine with.
enum class Combiner { AddF, MulF, MaxF, MinF, MaxNumF, MinNumF, AddI, MaxSI,
                      MinSI, MaxUI, MinUI, OrI, AndI, XOrI };

/// The combiner `op` applies, if it is one.
std::optional<Combiner> combinerOf(Operation *op);

/// `x` and `y` combined with `c`.
Value combine(OpBuilder &b, Location loc, Combiner c, Value x, Value y);

/// The value x with combine(x, y) == y for every y.
TypedAttr identityOf(Builder &b, Combiner c, Type type);

//===----------------------------------------------------------------------===//
// Members and groups (RowGroups.cpp)
//===----------------------------------------------------------------------===//

/// The non-unit extents of a row space: rows, then columns.
struct RowSpace {
  SmallVector<int64_t> rows, cols;
  int64_t numRows() const {
    int64_t n = 1;
    for (int64_t r : rows)
      n *= r;
    return n;
  }
  int64_t numCols() const {
    int64_t n = 1;
    for (int64_t c : cols)
      n *= c;
    return n;
  }
  bool operator==(const RowSpace &o) const {
    return rows == o.rows && cols == o.cols;
  }
};

enum class RowMemberKind { Reduction, RowElementwise, RowsOnly };

/// One output of a reduction member.
struct ReducedOutput {
  Combiner combiner;
  /// The yielded value's operand that is not the accumulator.
  Value contribution;
  /// The initial value (a folded fill), or null: read from memory.
  Value init;
};

struct RowMember {
  /// (Mutable: the op's accessors are not const.)
  mutable linalg::GenericOp op;
  RowMemberKind kind;
  /// Per loop: the canonical coordinate (0..rows-1: row coordinates,
  /// rows..: column coordinates), or -1 for a unit loop (index 0).
  SmallVector<int> coordOfLoop;
  SmallVector<ReducedOutput> reduced; // reductions: one per output
  SmallVector<linalg::FillOp> fills;  // folded into `reduced[i].init`
};

/// A run of members over one row space, and where each output is written.
struct RowGroup {
  RowSpace space;
  SmallVector<RowMember> members;
  /// For each output written by a member: (member, output index, offset).
  struct Write {
    unsigned member;
    unsigned output;
    Value root;
    AffineExpr offset;
  };
  SmallVector<Write> writes;
  unsigned numCoords() const {
    return space.rows.size() + space.cols.size();
  }
  bool hasReduction() const {
    return llvm::any_of(members, [](const RowMember &m) {
      return m.kind == RowMemberKind::Reduction;
    });
  }
};

/// Classifies `op` as a member over a row space; the space is returned too.
std::optional<std::pair<RowMember, RowSpace>> classify(linalg::GenericOp op);

/// Fits an all-parallel member to `space`: its leading non-unit loops are
/// the rows, the rest the columns (none: an op over the rows alone).
bool matchSpace(RowMember &m, const RowSpace &space);

/// Whether `m` can join `g` (reading the group's outputs only where it may)
/// and, if so, adds it.
bool tryJoin(RowGroup &g, RowMember m);

/// Folds the fills of reduction outputs into the members' initial values.
void foldFills(RowGroup &g);

//===----------------------------------------------------------------------===//
// The kernel (RowKernel.cpp)
//===----------------------------------------------------------------------===//

/// Builds the kernel of `g` before its last member and erases the members
/// (and folded fills).
void emitRowKernel(RewriterBase &rewriter, RowGroup &g);

} // namespace detail
} // namespace amp
} // namespace mlir

#endif // AMP_LIB_CONVERSION_ROWREDUCTIONS_H
