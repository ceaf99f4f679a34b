//===- RowKernel.cpp - The kernel of a group of row ops -------------------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A group's kernel: T threads per row of the row space (T a power of two,
// the columns rounded up, at most 256), 256 / T rows per block; each
// member in turn (a reduction combined across the row's threads with warp
// shuffles and shared memory, an elementwise op over the thread's
// columns, an op over the rows alone); then the members, their folded
// fills and the buffers nothing reads any more are erased. See
// RowReductions.cpp for the whole story.
//
//===----------------------------------------------------------------------===//

#include "RowReductions.h"

#include "mlir/IR/IRMapping.h"

using namespace mlir;
using namespace mlir::amp;
using namespace mlir::amp::detail;

namespace {

constexpr int64_t kRowThreads = 256;
/// Rows of at most this many columns get one thread each.
constexpr int64_t kOneThreadCols = 16;

struct RowKernel {
  RowKernel(OpBuilder &b, Location loc, RowGroup &group,
            DenseSet<std::pair<unsigned, unsigned>> storedOutputs)
      : b(b), loc(loc), group(group), storedOutputs(std::move(storedOutputs)) {}

  OpBuilder &b;
  Location loc;
  RowGroup &group;
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
    for (const RowMember &m : group.members)
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
  SmallVector<Value> loopValues(const RowMember &m, ArrayRef<Value> coords) {
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
    for (const RowGroup::Write &w : group.writes)
      if (w.root == root && w.member < mi &&
          group.members[w.member].kind != RowMemberKind::RowElementwise)
        return std::make_pair(w.member, w.output);
    return std::nullopt;
  }

  /// Maps the payload's block arguments for member `mi` at `loops`.
  void mapInputs(unsigned mi, ArrayRef<Value> loops, IRMapping &mapping,
                 bool withOutputs) {
    const RowMember &m = group.members[mi];
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
  void clonePayload(const RowMember &m, ArrayRef<Value> loops,
                    IRMapping &mapping) {
    for (Operation &op : m.op.getRegion().front().without_terminator()) {
      // A reduction's combiners (the only users of its accumulators) are
      // applied separately.
      if (m.kind == RowMemberKind::Reduction &&
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
  void storeOutput(const RowMember &m, unsigned k, ArrayRef<Value> loops,
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
    RowMember &m = group.members[mi];
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
    RowMember &m = group.members[mi];
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
    RowMember &m = group.members[mi];
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
      case RowMemberKind::Reduction:
        buildReduction(mi);
        break;
      case RowMemberKind::RowsOnly:
        buildRowsOnly(mi);
        break;
      case RowMemberKind::RowElementwise:
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
static std::string describe(const RowGroup &g) {
  if (auto what = g.members.front().op->getAttrOfType<StringAttr>(
          kKernelNameAttrName)) {
    std::string name = what.getValue().str();
    for (const RowMember &m : llvm::drop_begin(g.members))
      if (m.kind != RowMemberKind::Reduction)
        if (std::string rest = describePayload(m.op); !rest.empty())
          name += "_" + rest;
    return name;
  }
  bool exp = false, max = false, rsqrt = false, sum = false;
  for (const RowMember &m : g.members) {
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

/// The outputs of `g` its kernel must store: elementwise results, outputs
/// that are not allocations, and outputs something outside the group
/// reads.
static DenseSet<std::pair<unsigned, unsigned>>
storedOutputsOf(const RowGroup &g) {
  DenseSet<std::pair<unsigned, unsigned>> stored;
  DenseSet<Operation *> memberOps;
  for (const RowMember &m : g.members)
    memberOps.insert(m.op);
  for (const RowGroup::Write &w : g.writes) {
    const RowMember &m = g.members[w.member];
    bool needed = m.kind == RowMemberKind::RowElementwise ||
                  !w.root.getDefiningOp<memref::AllocOp>();
    if (!needed) {
      // Any use of the buffer (through views) outside the group but a
      // deallocation.
      for (Value view : reshapesOf(w.root))
        for (Operation *user : view.getUsers()) {
          if (isa<memref::CollapseShapeOp, memref::ExpandShapeOp,
                  memref::DeallocOp>(user) ||
              memberOps.contains(user))
            continue;
          bool isFill = false;
          for (const RowMember &mm : g.members)
            isFill |= llvm::is_contained(mm.fills, user);
          if (!isFill)
            needed = true;
        }
    }
    if (needed)
      stored.insert({w.member, w.output});
  }
  return stored;
}

/// The inputs of `g`'s members (and the buffers their payloads load)
/// produced before the group by generics that can be evaluated where the
/// kernel reads them (a cast of a depthwise convolution's input), at the
/// group's last member `last`.
static DenseMap<Value, OperandSource> computedSourcesOf(const RowGroup &g,
                                                        Operation *last) {
  DenseMap<Value, OperandSource> sources;
  for (const RowMember &m : g.members) {
    auto addSource = [&](Value v) {
      if (!isa<MemRefType>(v.getType()) || sources.count(v))
        return;
      Value root = bufferRoot(v);
      if (llvm::any_of(g.writes,
                       [&](const RowGroup::Write &w) { return w.root == root; }))
        return;
      OperandSource source = matchOperandSource(v, last, /*affine=*/true,
                                                /*rereads=*/1);
      if (source.computed())
        sources[v] = std::move(source);
    };
    for (OpOperand *input : m.op.getDpsInputOperands())
      addSource(input->get());
    m.op.getRegion().walk([&](memref::LoadOp load) {
      if (!m.op->isAncestor(load.getMemRef().getParentBlock()->getParentOp()))
        addSource(load.getMemRef());
    });
  }
  return sources;
}

/// Moves the deallocations of `g`'s buffers between its members after its
/// last member `last`.
static void moveDeallocsAfter(RewriterBase &rewriter, const RowGroup &g,
                              Operation *last) {
  DenseSet<Value> used;
  for (const RowMember &m : g.members)
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
}

/// Once `kernel` is built: erases the members of its group, their folded
/// fills, the producers it evaluated, and the reduction buffers nothing
/// reads any more (not stored) with their views and deallocations.
static void eraseReplaced(RewriterBase &rewriter, const RowKernel &kernel) {
  RowGroup &g = kernel.group;
  for (RowMember &m : g.members) {
    for (linalg::FillOp fill : m.fills)
      rewriter.eraseOp(fill);
    rewriter.eraseOp(m.op);
  }
  for (auto &[value, source] : kernel.sources)
    finishOperandSource(rewriter, source);
  for (const RowGroup::Write &w : g.writes)
    if (!kernel.storedOutputs.contains({w.member, w.output}))
      eraseIfUnused(rewriter, w.root);
}

void mlir::amp::detail::emitRowKernel(RewriterBase &rewriter, RowGroup &g) {
  Operation *last = g.members.back().op;
  Location loc = g.members.front().op.getLoc();
  RowKernel kernel(rewriter, loc, g, storedOutputsOf(g));
  kernel.sources = computedSourcesOf(g, last);
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
  moveDeallocsAfter(rewriter, g, last);
  eraseReplaced(rewriter, kernel);
}
