//===- RowGroups.cpp - The members of row kernels and their groups --------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// What an op is over its row space (a reduction along the rows, an
// elementwise op over the rows and columns, an op over the rows alone),
// which ops may join a group (reading what the group wrote only at the
// elements a thread has), and the fills folded into the reductions'
// initial values. See RowReductions.h.
//
//===----------------------------------------------------------------------===//

#include "RowReductions.h"

using namespace mlir;
using namespace mlir::amp;
using namespace mlir::amp::detail;

/// The affine expression of an operand's offset in its (row-major) buffer
/// root over the canonical coordinates; null when not expressible.
static AffineExpr offsetExpr(const RowMember &m, OpOperand *operand,
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

std::optional<std::pair<RowMember, RowSpace>>
mlir::amp::detail::classify(linalg::GenericOp op) {
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
  RowMember m;
  m.op = op;
  RowSpace space;
  m.coordOfLoop.assign(numLoops, -1);
  if (firstRed < numLoops) {
    for (unsigned i = firstRed; i < numLoops; ++i)
      if (iters[i] != utils::IteratorType::reduction)
        return std::nullopt;
    m.kind = RowMemberKind::Reduction;
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
  m.kind = RowMemberKind::RowElementwise;
  for (unsigned i = 0; i < numLoops; ++i)
    if (ranges[i] != 1)
      space.rows.push_back(ranges[i]);
  return std::make_pair(m, space);
}

bool mlir::amp::detail::matchSpace(RowMember &m, const RowSpace &space) {
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
    m.kind = RowMemberKind::RowElementwise;
  } else if (nonUnit.size() == nr && sizesAt(0, nr) == space.rows) {
    m.kind = RowMemberKind::RowsOnly;
  } else {
    return false;
  }
  for (unsigned i = 0; i < nonUnit.size(); ++i)
    m.coordOfLoop[nonUnit[i]] = i;
  return true;
}

bool mlir::amp::detail::tryJoin(RowGroup &g, RowMember m) {
  unsigned index = g.members.size();
  unsigned nc = g.numCoords();
  // Reads of what the group writes: a reduction's or rows-only result at
  // the element of the reading row; an elementwise result at the same
  // element (the same thread wrote it).
  for (OpOperand *input : m.op.getDpsInputOperands()) {
    if (!isa<BaseMemRefType>(input->get().getType()))
      continue;
    Value root = bufferRoot(input->get());
    for (const RowGroup::Write &w : g.writes) {
      if (w.root != root)
        continue;
      if (!isPlainBuffer(input->get()))
        return false;
      AffineExpr offset = offsetExpr(m, input, nc);
      if (!offset || offset != w.offset)
        return false;
      const RowMember &producer = g.members[w.member];
      // A row value read by a column op: broadcast, fine. A column value
      // read where only rows exist: not the same element.
      if (producer.kind == RowMemberKind::RowElementwise &&
          m.kind != RowMemberKind::RowElementwise &&
          m.kind != RowMemberKind::Reduction)
        return false;
    }
  }
  // Outputs: not written twice, not an input of an earlier member (that
  // member already read the old values, maybe in another thread).
  for (OpOperand &out : m.op.getDpsInitsMutable()) {
    Value root = bufferRoot(out.get());
    if (!isPlainBuffer(out.get()))
      return false;
    for (const RowGroup::Write &w : g.writes)
      if (w.root == root)
        return false;
    for (const RowMember &earlier : g.members)
      for (OpOperand *input : earlier.op.getDpsInputOperands())
        if (bufferRoot(input->get()) == root)
          return false;
    if (m.kind != RowMemberKind::Reduction)
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

/// The fill right before `m` (nothing but unrelated ops in between) that
/// wrote output `k` of reduction `m`, if its value can be the initial value.
static linalg::FillOp findFill(const RowMember &m, unsigned k,
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

void mlir::amp::detail::foldFills(RowGroup &g) {
  for (RowMember &m : g.members) {
    if (m.kind != RowMemberKind::Reduction)
      continue;
    for (unsigned k = 0; k < m.reduced.size(); ++k)
      if (linalg::FillOp fill = findFill(m, k, nullptr)) {
        m.reduced[k].init = fill.getInputs()[0];
        m.fills.push_back(fill);
      }
  }
}
