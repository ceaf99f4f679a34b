//===- RowReductions.cpp - Softmax, norms, pooling as one kernel per row --===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The --amp-gpu-row-reductions pass. After elementwise fusion, a softmax is
// a reduction (max over a row), a second reduction that reads the first
// (sum of exp(x - max)) and an elementwise op that reads both (the
// division); a layer norm, an RMS norm and a global average pool have the
// same shape: ops over one row space whose reductions run along the row and
// whose later ops read the reductions' results broadcast over the row.
// The generic path runs each as a kernel of its own with one thread per
// output (a reduction over 4096 columns is one thread's loop).
//
// Here such a run of linalg.generic ops ("members") becomes one kernel: a
// row of the row space is handled by T threads (T a power of two, the
// columns rounded up, at most 256), 256 / T rows per block. Each member in
// turn:
//
//  - a reduction: each thread combines its columns (lane, lane + T, ...)
//    from the combiner's identity, the T partial results are combined with
//    warp shuffles (and, for T > 32, through shared memory), and every
//    thread of the row then has the row's result, combined last with the
//    output's initial value (the folded fill, or the value in memory);
//  - an elementwise op over the row: each thread computes its columns,
//    reading the row's reduction results from registers;
//  - an op over the rows alone (a mean's division): computed once per row.
//
// Results are stored when something outside the group reads them. Inside
// the group, an elementwise member's output may be read by a later member
// at the same element only (it is the same thread's).
//
// Float sums are combined in a tree, not in column order: they differ from
// a sequential sum by rounding (within the tests' bounds).
//
//===----------------------------------------------------------------------===//

#include "MatmulKernels.h"
#include "MemRefViews.h"
#include "amp/Conversion/Passes.h"

#include "mlir/Dialect/Affine/Utils.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/TypeSwitch.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir {
namespace amp {
#define GEN_PASS_DEF_AMPGPUROWREDUCTIONSPASS
#include "amp/Conversion/Passes.h.inc"
} // namespace amp
} // namespace mlir

using namespace mlir;
using namespace mlir::amp;
using namespace mlir::amp::detail;

namespace {

constexpr int64_t kRowThreads = 256;
/// Rows of at most this many columns get one thread each.
constexpr int64_t kOneThreadCols = 16;

//===----------------------------------------------------------------------===//
// Combiners
//===----------------------------------------------------------------------===//

/// The associative, commutative operations a reduction may combine with.
enum class Combiner { AddF, MulF, MaxF, MinF, MaxNumF, MinNumF, AddI, MaxSI,
                      MinSI, MaxUI, MinUI, OrI, AndI, XOrI };

static std::optional<Combiner> combinerOf(Operation *op) {
  return llvm::TypeSwitch<Operation *, std::optional<Combiner>>(op)
      .Case([](arith::AddFOp) { return Combiner::AddF; })
      .Case([](arith::MulFOp) { return Combiner::MulF; })
      .Case([](arith::MaximumFOp) { return Combiner::MaxF; })
      .Case([](arith::MinimumFOp) { return Combiner::MinF; })
      .Case([](arith::MaxNumFOp) { return Combiner::MaxNumF; })
      .Case([](arith::MinNumFOp) { return Combiner::MinNumF; })
      .Case([](arith::AddIOp) { return Combiner::AddI; })
      .Case([](arith::MaxSIOp) { return Combiner::MaxSI; })
      .Case([](arith::MinSIOp) { return Combiner::MinSI; })
      .Case([](arith::MaxUIOp) { return Combiner::MaxUI; })
      .Case([](arith::MinUIOp) { return Combiner::MinUI; })
      .Case([](arith::OrIOp) { return Combiner::OrI; })
      .Case([](arith::AndIOp) { return Combiner::AndI; })
      .Case([](arith::XOrIOp) { return Combiner::XOrI; })
      .Default([](Operation *) { return std::nullopt; });
}

static Value combine(OpBuilder &b, Location loc, Combiner c, Value x,
                     Value y) {
  switch (c) {
  case Combiner::AddF:
    return arith::AddFOp::create(b, loc, x, y);
  case Combiner::MulF:
    return arith::MulFOp::create(b, loc, x, y);
  case Combiner::MaxF:
    return arith::MaximumFOp::create(b, loc, x, y);
  case Combiner::MinF:
    return arith::MinimumFOp::create(b, loc, x, y);
  case Combiner::MaxNumF:
    return arith::MaxNumFOp::create(b, loc, x, y);
  case Combiner::MinNumF:
    return arith::MinNumFOp::create(b, loc, x, y);
  case Combiner::AddI:
    return arith::AddIOp::create(b, loc, x, y);
  case Combiner::MaxSI:
    return arith::MaxSIOp::create(b, loc, x, y);
  case Combiner::MinSI:
    return arith::MinSIOp::create(b, loc, x, y);
  case Combiner::MaxUI:
    return arith::MaxUIOp::create(b, loc, x, y);
  case Combiner::MinUI:
    return arith::MinUIOp::create(b, loc, x, y);
  case Combiner::OrI:
    return arith::OrIOp::create(b, loc, x, y);
  case Combiner::AndI:
    return arith::AndIOp::create(b, loc, x, y);
  case Combiner::XOrI:
    return arith::XOrIOp::create(b, loc, x, y);
  }
  llvm_unreachable("combiner");
}

/// The value x with combine(x, y) == y for every y.
static TypedAttr identityOf(Builder &b, Combiner c, Type type) {
  if (auto ft = dyn_cast<FloatType>(type)) {
    const llvm::fltSemantics &sem = ft.getFloatSemantics();
    switch (c) {
    case Combiner::AddF:
      return b.getFloatAttr(type, llvm::APFloat::getZero(sem, true));
    case Combiner::MulF:
      return b.getFloatAttr(type, 1.0);
    case Combiner::MaxF:
    case Combiner::MaxNumF:
      return b.getFloatAttr(type, llvm::APFloat::getInf(sem, true));
    case Combiner::MinF:
    case Combiner::MinNumF:
      return b.getFloatAttr(type, llvm::APFloat::getInf(sem, false));
    default:
      return {};
    }
  }
  auto it = dyn_cast<IntegerType>(type);
  if (!it)
    return {};
  unsigned w = it.getWidth();
  switch (c) {
  case Combiner::AddI:
  case Combiner::OrI:
  case Combiner::XOrI:
  case Combiner::MaxUI:
    return b.getIntegerAttr(type, llvm::APInt::getZero(w));
  case Combiner::AndI:
  case Combiner::MinUI:
    return b.getIntegerAttr(type, llvm::APInt::getAllOnes(w));
  case Combiner::MaxSI:
    return b.getIntegerAttr(type, llvm::APInt::getSignedMinValue(w));
  case Combiner::MinSI:
    return b.getIntegerAttr(type, llvm::APInt::getSignedMaxValue(w));
  default:
    return {};
  }
}

//===----------------------------------------------------------------------===//
// Members and groups
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

enum class MemberKind { Reduction, RowElementwise, RowsOnly };

/// One output of a reduction member.
struct ReducedOutput {
  Combiner combiner;
  /// The yielded value's operand that is not the accumulator.
  Value contribution;
  /// The initial value (a folded fill), or null: read from memory.
  Value init;
};

struct Member {
  /// (Mutable: the op's accessors are not const.)
  mutable linalg::GenericOp op;
  MemberKind kind;
  /// Per loop: the canonical coordinate (0..rows-1: row coordinates,
  /// rows..: column coordinates), or -1 for a unit loop (index 0).
  SmallVector<int> coordOfLoop;
  SmallVector<ReducedOutput> reduced; // reductions: one per output
  SmallVector<linalg::FillOp> fills;  // folded into `reduced[i].init`
};

/// The affine expression of an operand's offset in its (row-major) buffer
/// root over the canonical coordinates; null when not expressible.
static AffineExpr offsetExpr(const Member &m, OpOperand *operand,
                             unsigned numCoords) {
  auto type = dyn_cast<MemRefType>(operand->get().getType());
  if (!type || !type.hasStaticShape() || !type.getLayout().isIdentity())
    return {};
  MLIRContext *ctx = operand->get().getContext();
  SmallVector<AffineExpr> repl;
  for (int coord : m.coordOfLoop)
    repl.push_back(coord < 0 ? getAffineConstantExpr(0, ctx)
                             : getAffineDimExpr(coord, ctx));
  AffineMap map = m.op.getMatchingIndexingMap(operand);
  AffineExpr offset = getAffineConstantExpr(0, ctx);
  int64_t stride = 1;
  for (int64_t d = type.getRank() - 1; d >= 0; --d) {
    offset = offset + map.getResult(d).replaceDims(repl) * stride;
    stride *= type.getDimSize(d);
  }
  return simplifyAffineExpr(offset, numCoords, 0);
}

/// Whether `root` is a buffer viewed only through reshapes of a row-major
/// allocation or argument (so that offsets in it are comparable).
static bool isPlainBuffer(Value v) {
  Value root = throughReshapes(v);
  if (Operation *def = root.getDefiningOp())
    return isa<memref::AllocOp>(def) && isRowMajor(root);
  return isRowMajor(root);
}

/// Classifies `op` as a member over a row space; the space is returned too.
static std::optional<std::pair<Member, RowSpace>>
classify(linalg::GenericOp op) {
  if (!op.hasPureBufferSemantics() || op.getNumDpsInits() == 0)
    return std::nullopt;
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  if (llvm::any_of(ranges, ShapedType::isDynamic))
    return std::nullopt;
  for (OpOperand &operand : op->getOpOperands()) {
    auto type = dyn_cast<MemRefType>(operand.get().getType());
    if (!type)
      continue;
    if (!type.hasStaticShape() || !type.getLayout().isIdentity() ||
        type.getMemorySpace())
      return std::nullopt;
    // Results are shuffled between lanes 32 bits at a time.
    Type elt = type.getElementType();
    if (op.isDpsInit(&operand) &&
        (!elt.isIntOrFloat() || elt.getIntOrFloatBitWidth() > 32))
      return std::nullopt;
  }
  SmallVector<utils::IteratorType> iters = op.getIteratorTypesArray();
  // Rows: the leading parallel loops; columns: the rest, all reductions or
  // all parallel.
  unsigned numLoops = iters.size();
  unsigned firstRed = numLoops;
  for (unsigned i = 0; i < numLoops; ++i)
    if (iters[i] == utils::IteratorType::reduction) {
      firstRed = i;
      break;
    }
  Member m;
  m.op = op;
  RowSpace space;
  m.coordOfLoop.assign(numLoops, -1);
  if (firstRed < numLoops) {
    for (unsigned i = firstRed; i < numLoops; ++i)
      if (iters[i] != utils::IteratorType::reduction)
        return std::nullopt;
    m.kind = MemberKind::Reduction;
    // Outputs: indexed by the row loops only.
    for (OpOperand &out : op.getDpsInitsMutable()) {
      AffineMap map = op.getMatchingIndexingMap(&out);
      for (AffineExpr e : map.getResults()) {
        auto dim = dyn_cast<AffineDimExpr>(e);
        if (!dim || dim.getPosition() >= firstRed)
          return std::nullopt;
      }
    }
    int coord = 0;
    for (unsigned i = 0; i < firstRed; ++i)
      if (ranges[i] != 1) {
        m.coordOfLoop[i] = coord++;
        space.rows.push_back(ranges[i]);
      }
    for (unsigned i = firstRed; i < numLoops; ++i)
      if (ranges[i] != 1) {
        m.coordOfLoop[i] = coord++;
        space.cols.push_back(ranges[i]);
      }
    // Each output: yield(combine(acc, contribution)).
    Block &body = op.getRegion().front();
    auto yield = cast<linalg::YieldOp>(body.getTerminator());
    unsigned numIns = op.getNumDpsInputs();
    for (unsigned k = 0; k < op.getNumDpsInits(); ++k) {
      BlockArgument acc = body.getArgument(numIns + k);
      Operation *comb = yield.getOperand(k).getDefiningOp();
      if (!comb || comb->getNumOperands() != 2 || comb->getBlock() != &body)
        return std::nullopt;
      std::optional<Combiner> c = combinerOf(comb);
      if (!c)
        return std::nullopt;
      Value other = comb->getOperand(0) == acc   ? comb->getOperand(1)
                    : comb->getOperand(1) == acc ? comb->getOperand(0)
                                                 : Value();
      if (!other || !acc.hasOneUse())
        return std::nullopt;
      m.reduced.push_back({*c, other, Value()});
    }
    // No accumulator read anywhere else (checked by hasOneUse above).
    return std::make_pair(m, space);
  }
  // All parallel: the split between rows and columns is decided against a
  // group's space (matchSpace); here every non-unit loop is a row.
  m.kind = MemberKind::RowElementwise;
  for (unsigned i = 0; i < numLoops; ++i)
    if (ranges[i] != 1)
      space.rows.push_back(ranges[i]);
  return std::make_pair(m, space);
}

/// Fits an all-parallel member to `space`: its leading non-unit loops are
/// the rows, the rest the columns (none: an op over the rows alone).
static bool matchSpace(Member &m, const RowSpace &space) {
  SmallVector<int64_t> ranges = m.op.getStaticLoopRanges();
  SmallVector<unsigned> nonUnit;
  for (unsigned i = 0; i < ranges.size(); ++i)
    if (ranges[i] != 1)
      nonUnit.push_back(i);
  size_t nr = space.rows.size(), nc = space.cols.size();
  auto sizesAt = [&](size_t from, size_t count) {
    SmallVector<int64_t> s;
    for (size_t i = from; i < from + count; ++i)
      s.push_back(ranges[nonUnit[i]]);
    return s;
  };
  m.coordOfLoop.assign(ranges.size(), -1);
  if (nonUnit.size() == nr + nc && sizesAt(0, nr) == space.rows &&
      sizesAt(nr, nc) == space.cols) {
    m.kind = MemberKind::RowElementwise;
  } else if (nonUnit.size() == nr && sizesAt(0, nr) == space.rows) {
    m.kind = MemberKind::RowsOnly;
  } else {
    return false;
  }
  for (unsigned i = 0; i < nonUnit.size(); ++i)
    m.coordOfLoop[nonUnit[i]] = i;
  return true;
}

/// A run of members over one row space, and where each output is written.
struct Group {
  RowSpace space;
  SmallVector<Member> members;
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
    return llvm::any_of(members, [](const Member &m) {
      return m.kind == MemberKind::Reduction;
    });
  }
};

/// Whether `m` can join `g` (reading the group's outputs only where it may)
/// and, if so, adds it.
static bool tryJoin(Group &g, Member m) {
  unsigned index = g.members.size();
  unsigned nc = g.numCoords();
  // Reads of what the group writes: a reduction's or rows-only result at
  // the element of the reading row; an elementwise result at the same
  // element (the same thread wrote it).
  for (OpOperand *input : m.op.getDpsInputOperands()) {
    if (!isa<BaseMemRefType>(input->get().getType()))
      continue;
    Value root = bufferRoot(input->get());
    for (const Group::Write &w : g.writes) {
      if (w.root != root)
        continue;
      if (!isPlainBuffer(input->get()))
        return false;
      AffineExpr offset = offsetExpr(m, input, nc);
      if (!offset || offset != w.offset)
        return false;
      const Member &producer = g.members[w.member];
      // A row value read by a column op: broadcast, fine. A column value
      // read where only rows exist: not the same element.
      if (producer.kind == MemberKind::RowElementwise &&
          m.kind != MemberKind::RowElementwise &&
          m.kind != MemberKind::Reduction)
        return false;
    }
  }
  // Outputs: not written twice, not an input of an earlier member (that
  // member already read the old values, maybe in another thread).
  for (OpOperand &out : m.op.getDpsInitsMutable()) {
    Value root = bufferRoot(out.get());
    if (!isPlainBuffer(out.get()))
      return false;
    for (const Group::Write &w : g.writes)
      if (w.root == root)
        return false;
    for (const Member &earlier : g.members)
      for (OpOperand *input : earlier.op.getDpsInputOperands())
        if (bufferRoot(input->get()) == root)
          return false;
    if (m.kind != MemberKind::Reduction)
      for (OpOperand *input : m.op.getDpsInputOperands())
        if (bufferRoot(input->get()) == root &&
            (input->get() != out.get() ||
             m.op.getMatchingIndexingMap(input) !=
                 m.op.getMatchingIndexingMap(&out)))
          return false;
  }
  for (OpOperand &out : m.op.getDpsInitsMutable()) {
    AffineExpr offset = offsetExpr(m, &out, nc);
    if (!offset)
      return false;
    g.writes.push_back({index, static_cast<unsigned>(out.getOperandNumber() -
                                                     m.op.getNumDpsInputs()),
                        bufferRoot(out.get()), offset});
  }
  g.members.push_back(std::move(m));
  return true;
}

/// Whether `op` may write memory (no effect interface: assume it does).
static bool mayWrite(Operation *op) {
  if (isa<memref::AllocOp, memref::AllocaOp, memref::DeallocOp>(op))
    return false;
  std::optional<SmallVector<MemoryEffects::EffectInstance>> effects =
      getEffectsRecursively(op);
  if (!effects)
    return true;
  return llvm::any_of(*effects, [](const MemoryEffects::EffectInstance &e) {
    return isa<MemoryEffects::Write, MemoryEffects::Free>(e.getEffect());
  });
}

/// The fill right before `m` (nothing but unrelated ops in between) that
/// wrote output `k` of reduction `m`, if its value can be the initial value.
static linalg::FillOp findFill(const Member &m, unsigned k,
                               Operation *stop) {
  Value out = m.op.getDpsInits()[k];
  Value root = bufferRoot(out);
  for (Operation *x = m.op->getPrevNode(); x && x != stop;
       x = x->getPrevNode()) {
    if (auto fill = dyn_cast<linalg::FillOp>(x);
        fill && fill.hasPureBufferSemantics() &&
        bufferRoot(fill.getDpsInits()[0]) == root) {
      auto fillType = cast<MemRefType>(fill.getDpsInits()[0].getType());
      auto outType = cast<MemRefType>(out.getType());
      // The whole buffer, with a scalar of the output's type.
      if (fillType.getNumElements() == outType.getNumElements() &&
          fill.getInputs()[0].getType() == outType.getElementType())
        return fill;
      return {};
    }
    if (llvm::is_contained(touchedBuffers(x), root))
      return {};
  }
  return {};
}

//===----------------------------------------------------------------------===//
// The kernel
//===----------------------------------------------------------------------===//

struct RowKernel {
  OpBuilder &b;
  Location loc;
  Group &group;
  /// Which group outputs are read after the group (and must be stored).
  DenseSet<std::pair<unsigned, unsigned>> storedOutputs;
  IndexBuilder ib{b, loc};

  int64_t threadsPerRow = 1, rowsPerBlock = 1;
  Value tid, lane, rowInBlock, row, rowValid;
  SmallVector<Value> rowCoords;
  /// Results of reductions and rows-only members: (member, output) -> value.
  DenseMap<std::pair<unsigned, unsigned>, Value> rowValues;
  /// Where the members' inputs (and the buffers their payloads load) are
  /// read from: the producers that can be evaluated instead of loaded.
  DenseMap<Value, OperandSource> sources;

  Value loadFrom(Value memref, ValueRange indices) {
    auto it = sources.find(memref);
    if (it != sources.end())
      return it->second.load(b, loc, indices);
    return memref::LoadOp::create(b, loc, memref, indices);
  }
  Value smem; // i8 dynamic shared memory
  int64_t smemOffset = 0;

  /// Threads per row: one for short rows (a pooling window, a 3x3
  /// depthwise convolution: the thread's loop is shorter than a shuffle
  /// tree), else the columns rounded up to a power of two, at most 256.
  static int64_t pickThreads(int64_t cols) {
    if (cols <= kOneThreadCols)
      return 1;
    int64_t t = 1;
    while (t < cols && t < kRowThreads)
      t *= 2;
    return t;
  }

  /// Shared-memory bytes the kernel needs.
  int64_t sharedBytes() const {
    if (threadsPerRow <= 32)
      return 0;
    int64_t values = 0;
    for (const Member &m : group.members)
      values += m.reduced.size();
    return values * rowsPerBlock * (threadsPerRow / 32) * 4;
  }

  SmallVector<Value> delinearize(Value linear, ArrayRef<int64_t> sizes) {
    SmallVector<Value> idx(sizes.size());
    Value rest = linear;
    for (int64_t d = static_cast<int64_t>(sizes.size()) - 1; d >= 0; --d) {
      if (d == 0) {
        idx[d] = rest;
        break;
      }
      idx[d] = ib.rem(rest, sizes[d]);
      rest = ib.div(rest, sizes[d]);
    }
    return idx;
  }

  /// The loop values of member `m` at coordinates `coords`.
  SmallVector<Value> loopValues(const Member &m, ArrayRef<Value> coords) {
    SmallVector<Value> v;
    for (int c : m.coordOfLoop)
      v.push_back(c < 0 ? ib.c(0) : coords[c]);
    return v;
  }

  SmallVector<Value> applyMap(AffineMap map, ArrayRef<Value> dims) {
    return amp::detail::applyMap(b, loc, map, dims);
  }

  /// The group write a read of `input` of member `mi` resolves to, if it
  /// reads a reduction or rows-only result of an earlier member.
  std::optional<std::pair<unsigned, unsigned>> rowValueFor(unsigned mi,
                                                           OpOperand *input) {
    Value root = bufferRoot(input->get());
    for (const Group::Write &w : group.writes)
      if (w.root == root && w.member < mi &&
          group.members[w.member].kind != MemberKind::RowElementwise)
        return std::make_pair(w.member, w.output);
    return std::nullopt;
  }

  /// Maps the payload's block arguments for member `mi` at `loops`.
  void mapInputs(unsigned mi, ArrayRef<Value> loops, IRMapping &mapping,
                 bool withOutputs) {
    const Member &m = group.members[mi];
    Block &body = m.op.getRegion().front();
    for (OpOperand &operand : m.op->getOpOperands()) {
      BlockArgument arg = body.getArgument(operand.getOperandNumber());
      bool isOutput = m.op.isDpsInit(&operand);
      if (arg.use_empty() || (isOutput && !withOutputs))
        continue;
      Value value = operand.get();
      if (!isa<BaseMemRefType>(value.getType())) {
        mapping.map(arg, value);
        continue;
      }
      if (!isOutput)
        if (auto rv = rowValueFor(mi, &operand)) {
          mapping.map(arg, rowValues.lookup(*rv));
          continue;
        }
      mapping.map(arg,
                  loadFrom(value, applyMap(m.op.getMatchingIndexingMap(
                                               &operand),
                                           loops)));
    }
  }

  /// Clones the payload of member `m` (linalg.index resolved), stopping
  /// before the terminator.
  void clonePayload(const Member &m, ArrayRef<Value> loops,
                    IRMapping &mapping) {
    for (Operation &op : m.op.getRegion().front().without_terminator()) {
      // A reduction's combiners (the only users of its accumulators) are
      // applied separately.
      if (m.kind == MemberKind::Reduction &&
          llvm::any_of(op.getOperands(), [&](Value v) {
            auto arg = dyn_cast<BlockArgument>(v);
            return arg && arg.getOwner() == op.getBlock() &&
                   arg.getArgNumber() >= m.op.getNumDpsInputs();
          }))
        continue;
      if (auto index = dyn_cast<linalg::IndexOp>(op)) {
        mapping.map(index.getResult(), loops[index.getDim()]);
        continue;
      }
      if (auto load = dyn_cast<memref::LoadOp>(op);
          load && sources.count(load.getMemRef())) {
        SmallVector<Value> at;
        for (Value i : load.getIndices())
          at.push_back(mapping.lookupOrDefault(i));
        mapping.map(load.getResult(), loadFrom(load.getMemRef(), at));
        continue;
      }
      b.clone(op, mapping);
    }
  }

  /// `body(colCoords)` for the columns of this thread: lane, lane + T, ...
  /// (only in valid rows), with loop-carried values `init`.
  SmallVector<Value>
  forEachColumn(ValueRange init,
                function_ref<SmallVector<Value>(ArrayRef<Value>, ValueRange)>
                    body) {
    int64_t cols = group.space.numCols();
    auto buildLoop = [&]() {
      auto loop = scf::ForOp::create(b, loc, lane, ib.c(cols),
                                     ib.c(threadsPerRow), init);
      OpBuilder::InsertionGuard g2(b);
      b.setInsertionPointToStart(loop.getBody());
      SmallVector<Value> coords(rowCoords);
      llvm::append_range(
          coords, delinearize(loop.getInductionVar(), group.space.cols));
      SmallVector<Value> next = body(coords, loop.getRegionIterArgs());
      if (!next.empty())
        scf::YieldOp::create(b, loc, next);
      return loop;
    };
    if (init.empty()) {
      // (The builder adds the terminators of a result-less scf.if/for.)
      auto ifOp = scf::IfOp::create(b, loc, rowValid, /*withElseRegion=*/false);
      OpBuilder::InsertionGuard g(b);
      b.setInsertionPoint(ifOp.thenBlock()->getTerminator());
      buildLoop();
      return {};
    }
    auto ifOp = scf::IfOp::create(b, loc, init.getTypes(), rowValid,
                                  /*withElseRegion=*/true);
    {
      OpBuilder::InsertionGuard g(b);
      b.setInsertionPointToStart(&ifOp.getThenRegion().front());
      scf::ForOp loop = buildLoop();
      scf::YieldOp::create(b, loc, loop.getResults());
      b.setInsertionPointToStart(&ifOp.getElseRegion().front());
      scf::YieldOp::create(b, loc, init);
    }
    return SmallVector<Value>(ifOp.getResults());
  }

  /// Combines `v` over the T threads of the row; every one gets the result.
  Value reduceAcrossRow(Combiner c, Value v) {
    Type type = v.getType();
    auto shuffleXor = [&](Value x, int64_t offset) {
      // Shuffles move 32 bits: narrower values travel widened.
      Type t = x.getType();
      Value wide = x;
      if (t.getIntOrFloatBitWidth() < 32)
        wide = isa<FloatType>(t)
                   ? arith::ExtFOp::create(b, loc, b.getF32Type(), x)
                         .getResult()
                   : arith::ExtUIOp::create(b, loc, b.getI32Type(), x)
                         .getResult();
      Value moved = gpu::ShuffleOp::create(b, loc, wide, offset, 32,
                                           gpu::ShuffleMode::XOR)
                        .getShuffleResult();
      if (t.getIntOrFloatBitWidth() < 32)
        moved = isa<FloatType>(t)
                    ? arith::TruncFOp::create(b, loc, t, moved).getResult()
                    : arith::TruncIOp::create(b, loc, t, moved).getResult();
      return moved;
    };
    int64_t within = std::min<int64_t>(threadsPerRow, 32);
    for (int64_t offset = within / 2; offset >= 1; offset /= 2)
      v = combine(b, loc, c, v, shuffleXor(v, offset));
    if (threadsPerRow <= 32)
      return v;
    // Across the row's warps: lane 0 of each writes its value, then every
    // thread combines the row's warps in order.
    int64_t warps = threadsPerRow / 32;
    auto wg = gpu::AddressSpaceAttr::get(b.getContext(),
                                         gpu::AddressSpace::Workgroup);
    Type stored = type.getIntOrFloatBitWidth() < 32
                      ? (isa<FloatType>(type) ? Type(b.getF32Type())
                                              : Type(b.getI32Type()))
                      : type;
    auto slots = memref::ViewOp::create(
        b, loc, MemRefType::get({rowsPerBlock, warps}, stored, AffineMap(), wg),
        smem, ib.c(smemOffset), ValueRange{});
    smemOffset += rowsPerBlock * warps * 4;
    Value warpInRow = ib.div(lane, 32);
    Value isFirstLane = ib.eq(ib.rem(lane, 32), 0);
    auto widen = [&](Value x) -> Value {
      if (stored == type)
        return x;
      return isa<FloatType>(type)
                 ? arith::ExtFOp::create(b, loc, stored, x).getResult()
                 : arith::ExtUIOp::create(b, loc, stored, x).getResult();
    };
    auto narrow = [&](Value x) -> Value {
      if (stored == type)
        return x;
      return isa<FloatType>(type)
                 ? arith::TruncFOp::create(b, loc, type, x).getResult()
                 : arith::TruncIOp::create(b, loc, type, x).getResult();
    };
    {
      auto ifOp = scf::IfOp::create(b, loc, isFirstLane, false);
      OpBuilder::InsertionGuard g(b);
      b.setInsertionPointToStart(&ifOp.getThenRegion().front());
      memref::StoreOp::create(b, loc, widen(v), slots,
                              ValueRange{rowInBlock, warpInRow});
    }
    gpu::BarrierOp::create(b, loc);
    Value total = narrow(memref::LoadOp::create(
        b, loc, slots, ValueRange{rowInBlock, ib.c(0)}));
    for (int64_t w = 1; w < warps; ++w)
      total = combine(b, loc, c, total,
                      narrow(memref::LoadOp::create(
                          b, loc, slots, ValueRange{rowInBlock, ib.c(w)})));
    return total;
  }

  /// Stores `value` into output `k` of member `m` at `loops` when lane 0
  /// of a valid row (row values) or always (column values).
  void storeOutput(const Member &m, unsigned k, ArrayRef<Value> loops,
                   Value value) {
    OpOperand &out = m.op.getDpsInitsMutable()[k];
    memref::StoreOp::create(
        b, loc, value, out.get(),
        applyMap(m.op.getMatchingIndexingMap(&out), loops));
  }

  /// `body` on lane 0 of valid rows.
  template <typename Fn> void onRowLeader(Fn body) {
    auto ifOp = scf::IfOp::create(
        b, loc, ib.land(rowValid, ib.eq(lane, 0)), false);
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(&ifOp.getThenRegion().front());
    body();
  }

  void buildReduction(unsigned mi) {
    Member &m = group.members[mi];
    SmallVector<Value> identities;
    for (auto [k, r] : llvm::enumerate(m.reduced)) {
      Type t = m.op.getDpsInits()[k].getType();
      t = cast<MemRefType>(t).getElementType();
      identities.push_back(arith::ConstantOp::create(
          b, loc, identityOf(b, r.combiner, t)));
    }
    SmallVector<Value> partial = forEachColumn(
        identities, [&](ArrayRef<Value> coords, ValueRange acc) {
          SmallVector<Value> loops = loopValues(m, coords);
          IRMapping mapping;
          mapInputs(mi, loops, mapping, /*withOutputs=*/false);
          clonePayload(m, loops, mapping);
          // The combiners (not cloned) take the thread's partial value.
          // A contribution defined outside the payload (a constant the
          // input folded into: min over a fill) is used as it is.
          SmallVector<Value> next;
          for (auto [k, r] : llvm::enumerate(m.reduced))
            next.push_back(combine(b, loc, r.combiner, acc[k],
                                   mapping.lookupOrDefault(r.contribution)));
          return next;
        });
    SmallVector<Value> rowLoops = loopValues(m, rowCoordsPadded());
    for (auto [k, r] : llvm::enumerate(m.reduced)) {
      Value total = reduceAcrossRow(r.combiner, partial[k]);
      Value init = r.init;
      if (!init) {
        // The output's value in memory, read by valid rows only.
        Type t = total.getType();
        auto ifOp = scf::IfOp::create(b, loc, TypeRange{t}, rowValid, true);
        OpBuilder::InsertionGuard g(b);
        b.setInsertionPointToStart(&ifOp.getThenRegion().front());
        OpOperand &out = m.op.getDpsInitsMutable()[k];
        scf::YieldOp::create(
            b, loc,
            memref::LoadOp::create(
                b, loc, out.get(),
                applyMap(m.op.getMatchingIndexingMap(&out), rowLoops))
                .getResult());
        b.setInsertionPointToStart(&ifOp.getElseRegion().front());
        scf::YieldOp::create(b, loc, total);
        init = ifOp.getResult(0);
      }
      Value result = combine(b, loc, r.combiner, init, total);
      rowValues[{mi, static_cast<unsigned>(k)}] = result;
      if (storedOutputs.contains({mi, static_cast<unsigned>(k)}))
        onRowLeader([&] { storeOutput(m, k, rowLoops, result); });
    }
  }

  /// The row coordinates followed by zeros for the columns.
  SmallVector<Value> rowCoordsPadded() {
    SmallVector<Value> coords(rowCoords);
    coords.append(group.space.cols.size(), ib.c(0));
    return coords;
  }

  void buildRowsOnly(unsigned mi) {
    Member &m = group.members[mi];
    SmallVector<Value> loops = loopValues(m, rowCoordsPadded());
    // Every thread of the row computes it (the result stays in registers);
    // loads are guarded by the row's validity.
    SmallVector<Type> types;
    for (Value out : m.op.getDpsInits())
      types.push_back(cast<MemRefType>(out.getType()).getElementType());
    auto ifOp = scf::IfOp::create(b, loc, types, rowValid, true);
    {
      OpBuilder::InsertionGuard g(b);
      b.setInsertionPointToStart(&ifOp.getThenRegion().front());
      IRMapping mapping;
      mapInputs(mi, loops, mapping, /*withOutputs=*/true);
      clonePayload(m, loops, mapping);
      auto yield =
          cast<linalg::YieldOp>(m.op.getRegion().front().getTerminator());
      SmallVector<Value> results;
      for (Value v : yield.getOperands())
        results.push_back(mapping.lookupOrDefault(v));
      scf::YieldOp::create(b, loc, results);
      b.setInsertionPointToStart(&ifOp.getElseRegion().front());
      SmallVector<Value> zeros;
      for (Type t : types)
        zeros.push_back(arith::ConstantOp::create(b, loc, b.getZeroAttr(t)));
      scf::YieldOp::create(b, loc, zeros);
    }
    for (unsigned k = 0; k < types.size(); ++k) {
      rowValues[{mi, k}] = ifOp.getResult(k);
      if (storedOutputs.contains({mi, k}))
        onRowLeader([&] { storeOutput(m, k, loops, ifOp.getResult(k)); });
    }
  }

  void buildElementwise(unsigned mi) {
    Member &m = group.members[mi];
    forEachColumn({}, [&](ArrayRef<Value> coords, ValueRange) {
      SmallVector<Value> loops = loopValues(m, coords);
      IRMapping mapping;
      mapInputs(mi, loops, mapping, /*withOutputs=*/true);
      clonePayload(m, loops, mapping);
      auto yield =
          cast<linalg::YieldOp>(m.op.getRegion().front().getTerminator());
      for (auto [k, v] : llvm::enumerate(yield.getOperands()))
        storeOutput(m, k, loops, mapping.lookupOrDefault(v));
      return SmallVector<Value>();
    });
  }

  void build(gpu::LaunchOp launch) {
    b.setInsertionPointToStart(&launch.getBody().front());
    tid = launch.getThreadIds().x;
    lane = ib.rem(tid, threadsPerRow);
    rowInBlock = ib.div(tid, threadsPerRow);
    row = ib.add(ib.mul(launch.getBlockIds().x, rowsPerBlock), rowInBlock);
    rowValid = ib.lt(row, ib.c(group.space.numRows()));
    // Invalid rows compute row 0's coordinates (never loaded nor stored).
    Value safeRow = ib.select(rowValid, row, ib.c(0));
    rowCoords = delinearize(safeRow, group.space.rows);
    if (sharedBytes()) {
      auto wg = gpu::AddressSpaceAttr::get(b.getContext(),
                                           gpu::AddressSpace::Workgroup);
      smem = gpu::DynamicSharedMemoryOp::create(
          b, loc,
          MemRefType::get({ShapedType::kDynamic}, b.getI8Type(), AffineMap(),
                          wg));
    }
    for (unsigned mi = 0; mi < group.members.size(); ++mi) {
      switch (group.members[mi].kind) {
      case MemberKind::Reduction:
        buildReduction(mi);
        break;
      case MemberKind::RowsOnly:
        buildRowsOnly(mi);
        break;
      case MemberKind::RowElementwise:
        buildElementwise(mi);
        break;
      }
    }
    gpu::TerminatorOp::create(b, loc);
  }
};

/// A short name for the kernel: softmax, norm, pool, reduce, or what the
/// first member says it is (a depthwise convolution) and what the ops over
/// its rows compute.
static std::string describe(const Group &g) {
  if (auto what = g.members.front().op->getAttrOfType<StringAttr>(
          kKernelNameAttrName)) {
    std::string name = what.getValue().str();
    for (const Member &m : llvm::drop_begin(g.members))
      if (m.kind != MemberKind::Reduction)
        if (std::string rest = describePayload(m.op); !rest.empty())
          name += "_" + rest;
    return name;
  }
  bool exp = false, max = false, rsqrt = false, sum = false;
  for (const Member &m : g.members) {
    m.op.getRegion().walk([&](Operation *op) {
      exp |= isa<math::ExpOp>(op);
      rsqrt |= isa<math::RsqrtOp, math::SqrtOp>(op);
    });
    for (const ReducedOutput &r : m.reduced) {
      max |= r.combiner == Combiner::MaxF || r.combiner == Combiner::MaxNumF;
      sum |= r.combiner == Combiner::AddF;
    }
  }
  if (exp && max && sum)
    return "softmax";
  if (rsqrt && sum)
    return "norm";
  if (sum)
    return "reduce_sum";
  if (max)
    return "reduce_max";
  return "reduce";
}

} // namespace

//===----------------------------------------------------------------------===//
// Grouping and rewriting
//===----------------------------------------------------------------------===//

/// Builds the kernel of `g` before its last member and erases the members
/// (and folded fills).
static void emitGroup(RewriterBase &rewriter, Group &g) {
  Operation *last = g.members.back().op;
  Location loc = g.members.front().op.getLoc();
  // Outputs read after the group, or not allocations of this block: stored.
  RowKernel kernel{rewriter, loc, g, {}};
  DenseSet<Operation *> memberOps;
  for (const Member &m : g.members)
    memberOps.insert(m.op);
  for (const Group::Write &w : g.writes) {
    const Member &m = g.members[w.member];
    bool needed = m.kind == MemberKind::RowElementwise ||
                  !w.root.getDefiningOp<memref::AllocOp>();
    if (!needed) {
      // Any use of the buffer (through views) outside the group but a
      // deallocation.
      SmallVector<Value> views{w.root};
      for (size_t i = 0; i < views.size(); ++i)
        for (Operation *user : views[i].getUsers()) {
          if (isa<memref::CollapseShapeOp, memref::ExpandShapeOp>(user)) {
            views.push_back(user->getResult(0));
            continue;
          }
          if (isa<memref::DeallocOp>(user) || memberOps.contains(user))
            continue;
          bool isFill = false;
          for (const Member &mm : g.members)
            isFill |= llvm::is_contained(mm.fills, user);
          if (!isFill)
            needed = true;
        }
    }
    if (needed)
      kernel.storedOutputs.insert({w.member, w.output});
  }
  // Inputs (and payload loads) produced before the group by generics
  // that can be evaluated where the kernel reads them (a cast of a depthwise
  // convolution's input).
  for (const Member &m : g.members) {
    auto addSource = [&](Value v) {
      if (!isa<MemRefType>(v.getType()) || kernel.sources.count(v))
        return;
      Value root = bufferRoot(v);
      if (llvm::any_of(g.writes,
                       [&](const Group::Write &w) { return w.root == root; }))
        return;
      OperandSource source = matchOperandSource(v, last, /*affine=*/true,
                                                /*rereads=*/1);
      if (source.computed())
        kernel.sources[v] = std::move(source);
    };
    for (OpOperand *input : m.op.getDpsInputOperands())
      addSource(input->get());
    m.op.getRegion().walk([&](memref::LoadOp load) {
      if (!m.op->isAncestor(load.getMemRef().getParentBlock()->getParentOp()))
        addSource(load.getMemRef());
    });
  }
  int64_t cols = g.space.numCols();
  kernel.threadsPerRow = RowKernel::pickThreads(cols);
  kernel.rowsPerBlock = kRowThreads / kernel.threadsPerRow;
  IndexBuilder ib{rewriter, loc};
  rewriter.setInsertionPoint(last);
  int64_t blocks = (g.space.numRows() + kernel.rowsPerBlock - 1) /
                   kernel.rowsPerBlock;
  Value one = ib.c(1);
  Value shmem;
  if (int64_t bytes = kernel.sharedBytes())
    shmem = arith::ConstantIntOp::create(rewriter, loc,
                                         rewriter.getI32Type(), bytes);
  auto launch = gpu::LaunchOp::create(rewriter, loc, ib.c(blocks), one, one,
                                      ib.c(kRowThreads), one, one, shmem);
  launch->setAttr(kKernelNameAttrName,
                  rewriter.getStringAttr(describe(g)));
  kernel.build(launch);
  // Buffers of the group freed between its members: freed after it.
  DenseSet<Value> used;
  for (const Member &m : g.members)
    for (Value v : m.op->getOperands())
      if (isa<BaseMemRefType>(v.getType()))
        used.insert(bufferRoot(v));
  Operation *first = g.members.front().op;
  for (Operation *x = first == last ? last : first->getNextNode(); x != last;) {
    Operation *next = x->getNextNode();
    if (auto dealloc = dyn_cast<memref::DeallocOp>(x);
        dealloc && used.contains(bufferRoot(dealloc.getMemref())))
      rewriter.moveOpAfter(dealloc, last);
    x = next;
  }
  for (Member &m : g.members) {
    for (linalg::FillOp fill : m.fills)
      rewriter.eraseOp(fill);
    rewriter.eraseOp(m.op);
  }
  for (auto &[value, source] : kernel.sources)
    finishOperandSource(rewriter, source);
  // Reduction buffers nothing reads any more (not stored): their
  // allocation, views and deallocations go.
  for (const Group::Write &w : g.writes) {
    if (kernel.storedOutputs.contains({w.member, w.output}))
      continue;
    auto alloc = w.root.getDefiningOp<memref::AllocOp>();
    if (!alloc)
      continue;
    SmallVector<Value> views{w.root};
    for (size_t i = 0; i < views.size(); ++i)
      for (Operation *user : views[i].getUsers())
        if (isa<memref::CollapseShapeOp, memref::ExpandShapeOp>(user))
          views.push_back(user->getResult(0));
    bool onlyDeallocs = true;
    for (Value view : views)
      for (Operation *user : view.getUsers())
        if (!isa<memref::CollapseShapeOp, memref::ExpandShapeOp,
                 memref::DeallocOp>(user))
          onlyDeallocs = false;
    if (!onlyDeallocs)
      continue;
    for (Value view : llvm::reverse(views))
      for (Operation *user : llvm::make_early_inc_range(view.getUsers()))
        if (isa<memref::DeallocOp>(user))
          rewriter.eraseOp(user);
    for (Value view : llvm::reverse(views))
      if (view != w.root && view.use_empty())
        rewriter.eraseOp(view.getDefiningOp());
    if (w.root.use_empty())
      rewriter.eraseOp(alloc);
  }
}

/// Whether a group gets a row kernel: any group with a reduction (a lone
/// small-window reduction too: its kernel folds the fill of its output and
/// the ops over its rows that follow).
static bool worthIt(const Group &g) { return g.hasReduction(); }

static void foldFills(Group &g);

/// Finds the groups of `block` and rewrites them.
namespace {
/// Remembers the ops a rewrite erased (a group's kernel erases buffers and
/// deallocations further down the block).
struct ErasedOps : public RewriterBase::Listener {
  DenseSet<Operation *> erased;
  void notifyOperationErased(Operation *op) override { erased.insert(op); }
};
} // namespace

static unsigned rewriteBlock(RewriterBase &rewriter, Block &block) {
  unsigned kernels = 0;
  SmallVector<Operation *> ops;
  for (Operation &op : block)
    ops.push_back(&op);
  ErasedOps erasedOps;
  OpBuilder::Listener *previous = rewriter.getListener();
  rewriter.setListener(&erasedOps);
  auto restore = llvm::make_scope_exit([&] { rewriter.setListener(previous); });
  std::optional<Group> current;
  // Buffers the current group reads and writes (roots), for the ops in
  // between members.
  auto flush = [&]() {
    if (current && worthIt(*current)) {
      foldFills(*current);
      emitGroup(rewriter, *current);
      ++kernels;
    }
    current.reset();
  };
  for (Operation *op : ops) {
    if (erasedOps.erased.contains(op))
      continue;
    auto generic = dyn_cast<linalg::GenericOp>(op);
    std::optional<std::pair<Member, RowSpace>> classified;
    if (generic)
      classified = classify(generic);
    if (classified) {
      Member m = classified->first;
      RowSpace space = classified->second;
      // Join the current group if it fits; else it may start one.
      if (current) {
        bool fits = m.kind == MemberKind::Reduction
                        ? space == current->space
                        : matchSpace(m, current->space);
        if (fits) {
          Group trial = *current;
          if (tryJoin(trial, m)) {
            current = std::move(trial);
            continue;
          }
        }
        flush();
      }
      if (m.kind == MemberKind::Reduction) {
        current = Group();
        current->space = space;
        if (!tryJoin(*current, m))
          current.reset();
      }
      continue;
    }
    if (!current)
      continue;
    // An op between members: harmless unless it touches the group's
    // buffers (fills of the next reduction's output are folded later).
    // Deallocations of the group's buffers move after its kernel.
    if (isMemoryEffectFree(op) ||
        isa<memref::AllocOp, memref::CollapseShapeOp, memref::ExpandShapeOp,
            memref::DeallocOp>(op))
      continue;
    bool touches = false;
    bool writes = mayWrite(op);
    for (Value root : touchedBuffers(op)) {
      for (const Group::Write &w : current->writes)
        touches |= w.root == root;
      if (writes)
        for (const Member &m : current->members)
          for (OpOperand *input : m.op.getDpsInputOperands())
            touches |= bufferRoot(input->get()) == root;
    }
    if (touches)
      flush();
  }
  flush();
  return kernels;
}

/// Folds the fills of reduction outputs into the members' initial values.
static void foldFills(Group &g) {
  for (Member &m : g.members) {
    if (m.kind != MemberKind::Reduction)
      continue;
    for (unsigned k = 0; k < m.reduced.size(); ++k)
      if (linalg::FillOp fill = findFill(m, k, nullptr)) {
        m.reduced[k].init = fill.getInputs()[0];
        m.fills.push_back(fill);
      }
  }
}

namespace {
struct AmpGPURowReductionsPass
    : public amp::impl::AmpGPURowReductionsPassBase<AmpGPURowReductionsPass> {
  using Base::Base;

  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    // Named reductions and pooling ops (reductions with a window) take
    // part as generics.
    SmallVector<linalg::LinalgOp> pooling;
    getOperation()->walk([&](linalg::LinalgOp op) {
      if (op.hasPureBufferSemantics() &&
          !op->getParentOfType<gpu::LaunchOp>() &&
          (isa<linalg::ReduceOp>(op.getOperation()) ||
           op->getName().getStringRef().starts_with("linalg.pooling_")))
        pooling.push_back(op);
    });
    for (linalg::LinalgOp op : pooling) {
      rewriter.setInsertionPoint(op);
      (void)linalg::generalizeNamedOp(rewriter, op);
    }
    SmallVector<Block *> blocks;
    getOperation()->walk([&](Block *block) {
      if (!block->getParentOp()->getParentOfType<gpu::LaunchOp>() &&
          !isa<gpu::LaunchOp>(block->getParentOp()))
        blocks.push_back(block);
    });
    for (Block *block : blocks)
      numKernels += rewriteBlock(rewriter, *block);
  }
};
} // namespace
