//===- MergeLaunches.cpp - Independent kernels as one launch --------------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The --amp-gpu-merge-launches pass (horizontal fusion). Kernels that do not
// depend on each other, such as the three projections' epilogues of an
// attention layer, the rotations of Q and K in RoPE, or the casts of an
// activation and a weight before a matmul, each cost a launch although
// nothing orders them. Two 1-D launches with the same block size that touch
// no buffer the other writes become one launch whose grid is both grids
// side by side: block b runs the first kernel's body when b < grid1, and the
// second's with block b - grid1 otherwise. The branch is uniform per block,
// so barriers and shared memory inside either body stay correct (the merged
// kernel gets the larger dynamic shared memory of the two).
//
// Only kernels amp builds as flat SIMT or row kernels are merged (1-D grid
// and block of constant size, one block, no attributions, no clusters, no
// Tensor Core operations); a launch moves up to the one it joins only past
// operations it does not depend on and whose buffers do not conflict with
// its own, carrying the allocations and pure index computations it needs.
//
//===----------------------------------------------------------------------===//

#include "amp/Conversion/Passes.h"

#include "MemRefViews.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"

namespace mlir {
namespace amp {
#define GEN_PASS_DEF_AMPGPUMERGELAUNCHESPASS
#include "amp/Conversion/Passes.h.inc"
} // namespace amp
} // namespace mlir

using namespace mlir;
using namespace mlir::amp;
using namespace mlir::amp::detail;

/// More names than this in a merged kernel's name are counted, not listed.
static constexpr unsigned kMaxNamesInKernelName = 3;

namespace {
/// The shape of a launch that can be merged.
struct FlatLaunch {
  gpu::LaunchOp op;
  int64_t grid = 0;
  int64_t block = 0;
  int64_t sharedBytes = 0;
  /// The names of the kernels it runs.
  SmallVector<std::string> parts;
};
} // namespace

static std::optional<int64_t> constantIndex(Value v) {
  APInt value;
  if (!v || !matchPattern(v, m_ConstantInt(&value)))
    return std::nullopt;
  return value.getSExtValue();
}

/// The launch as a FlatLaunch, if it is one this pass merges.
static std::optional<FlatLaunch> asFlatLaunch(gpu::LaunchOp op) {
  if (op.getAsyncToken() || !op.getAsyncDependencies().empty() ||
      op.hasClusterSize() || op.getNumWorkgroupAttributions() != 0 ||
      op.getNumPrivateAttributions() != 0 || !op.getBody().hasOneBlock())
    return std::nullopt;
  for (Value unit : {op.getGridSizeY(), op.getGridSizeZ(), op.getBlockSizeY(),
                     op.getBlockSizeZ()})
    if (constantIndex(unit) != 1)
      return std::nullopt;
  FlatLaunch flat{op};
  auto name = op->getAttrOfType<StringAttr>(kKernelNameAttrName);
  flat.parts.push_back(name ? name.getValue().str() : std::string("kernel"));
  std::optional<int64_t> grid = constantIndex(op.getGridSizeX());
  std::optional<int64_t> block = constantIndex(op.getBlockSizeX());
  if (!grid || !block || *grid <= 0)
    return std::nullopt;
  flat.grid = *grid;
  flat.block = *block;
  if (Value shared = op.getDynamicSharedMemorySize()) {
    std::optional<int64_t> bytes = constantIndex(shared);
    if (!bytes)
      return std::nullopt;
    flat.sharedBytes = *bytes;
  }
  // Tensor Core kernels have grids, tiles and pipelines of their own.
  WalkResult tensorCores = op.getBody().walk([](Operation *inner) {
    StringRef dialect = inner->getName().getDialectNamespace();
    return dialect == "nvgpu" || dialect == "nvvm" ? WalkResult::interrupt()
                                                   : WalkResult::advance();
  });
  if (tensorCores.wasInterrupted())
    return std::nullopt;
  return flat;
}

static bool isFunctionArgument(Value v) {
  auto arg = dyn_cast<BlockArgument>(v);
  return arg && isa<FunctionOpInterface>(arg.getOwner()->getParentOp());
}

/// Whether `a` and `b` may touch one buffer that one of them writes.
/// Function arguments may alias each other.
static bool conflict(Operation *a, Operation *b) {
  auto overlaps = [](ArrayRef<Value> written, ArrayRef<Value> touched) {
    for (Value w : written)
      for (Value t : touched)
        if (w == t || (isFunctionArgument(w) && isFunctionArgument(t)))
          return true;
    return false;
  };
  SmallVector<Value> writtenA = writtenBuffers(a);
  SmallVector<Value> writtenB = writtenBuffers(b);
  return overlaps(writtenA, touchedBuffers(b)) ||
         overlaps(writtenB, touchedBuffers(a));
}

/// Whether `later` can move up to right after `head` (in the same block),
/// carrying the operations in between that it depends on; those are
/// collected in `carried`, in order.
static bool canMoveUpTo(gpu::LaunchOp later, gpu::LaunchOp head,
                        SmallVectorImpl<Operation *> &carried) {
  if (conflict(head, later))
    return false;
  // The operations between, latest first: each is either carried along
  // (later depends on it) or stays, and must then not conflict with it.
  llvm::SetVector<Operation *> needed;
  auto addDependencies = [&](Operation *op) {
    op->walk([&](Operation *nested) {
      for (Value operand : nested->getOperands())
        if (Operation *def = operand.getDefiningOp();
            def && def->getBlock() == head->getBlock() &&
            head->isBeforeInBlock(def))
          needed.insert(def);
    });
  };
  addDependencies(later);
  SmallVector<Operation *> between;
  for (Operation *x = later->getPrevNode(); x != head; x = x->getPrevNode())
    between.push_back(x);
  for (Operation *x : between) {
    if (needed.contains(x)) {
      // Only what can run earlier without changing anything.
      if (!isPure(x) && !isa<memref::AllocOp, memref::AllocaOp>(x))
        return false;
      if (x->getNumRegions() != 0)
        return false;
      addDependencies(x);
      continue;
    }
    if (conflict(x, later))
      return false;
    // An operation that stays must not read what `later` would now write
    // before it: covered by conflict(); and it must not be one `later`
    // reads the results of: covered by `needed`.
  }
  for (auto it = between.rbegin(); it != between.rend(); ++it)
    if (needed.contains(*it))
      carried.push_back(*it);
  return true;
}

/// The body of `from` cloned into `builder`'s block, with its block ids
/// shifted down by `offset` blocks and its grid size the original one.
static void cloneBody(OpBuilder &builder, gpu::LaunchOp from,
                      gpu::LaunchOp into, int64_t grid, int64_t offset) {
  Location loc = from.getLoc();
  IRMapping mapping;
  gpu::KernelDim3 blocks = into.getBlockIds();
  Value blockX = blocks.x;
  if (offset != 0)
    blockX = arith::SubIOp::create(
        builder, loc, blocks.x,
        arith::ConstantIndexOp::create(builder, loc, offset));
  mapping.map(from.getBlockIds().x, blockX);
  mapping.map(from.getBlockIds().y, blocks.y);
  mapping.map(from.getBlockIds().z, blocks.z);
  auto mapDims = [&](gpu::KernelDim3 of, gpu::KernelDim3 to) {
    mapping.map(of.x, to.x);
    mapping.map(of.y, to.y);
    mapping.map(of.z, to.z);
  };
  mapDims(from.getThreadIds(), into.getThreadIds());
  gpu::KernelDim3 gridSize = into.getGridSize();
  mapping.map(from.getGridSize().x,
              arith::ConstantIndexOp::create(builder, loc, grid));
  mapping.map(from.getGridSize().y, gridSize.y);
  mapping.map(from.getGridSize().z, gridSize.z);
  mapDims(from.getBlockSize(), into.getBlockSize());
  for (Operation &op : from.getBody().front().without_terminator())
    builder.clone(op, mapping);
}

/// "x_and_y_and_z", then "x_and_y_and_z_and_2_more".
static std::string mergedName(ArrayRef<std::string> parts) {
  std::string name;
  for (auto [i, part] : llvm::enumerate(parts)) {
    if (i == kMaxNamesInKernelName) {
      name += "_and_" + std::to_string(parts.size() - i) + "_more";
      break;
    }
    name += (i ? "_and_" : "") + part;
  }
  return name;
}

/// One launch running `a` then `b` side by side, in place of `a`.
static FlatLaunch merge(FlatLaunch a, FlatLaunch b) {
  OpBuilder builder(a.op);
  Location loc = a.op.getLoc();
  auto index = [&](int64_t v) {
    return arith::ConstantIndexOp::create(builder, loc, v);
  };
  Value one = index(1);
  Value shared;
  if (int64_t bytes = std::max(a.sharedBytes, b.sharedBytes))
    shared = arith::ConstantIntOp::create(builder, loc, builder.getI32Type(),
                                          bytes);
  auto merged =
      gpu::LaunchOp::create(builder, loc, index(a.grid + b.grid), one, one,
                            index(a.block), one, one, shared);
  SmallVector<std::string> parts = a.parts;
  llvm::append_range(parts, b.parts);
  merged->setAttr(kKernelNameAttrName,
                  builder.getStringAttr(mergedName(parts)));
  builder.setInsertionPointToStart(&merged.getBody().front());
  Value first = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ult,
                                      merged.getBlockIds().x, index(a.grid));
  auto branch = scf::IfOp::create(builder, loc, TypeRange{}, first,
                                  /*withElseRegion=*/true);
  gpu::TerminatorOp::create(builder, loc);
  builder.setInsertionPoint(branch.thenBlock()->getTerminator());
  cloneBody(builder, a.op, merged, a.grid, 0);
  builder.setInsertionPoint(branch.elseBlock()->getTerminator());
  cloneBody(builder, b.op, merged, b.grid, a.grid);
  a.op.erase();
  b.op.erase();
  FlatLaunch result = *asFlatLaunch(merged);
  result.parts = std::move(parts);
  return result;
}

/// Merges the launches of `block` (and of the blocks nested in its host
/// operations); returns how many launches merging removed.
static int64_t mergeLaunchesIn(Block &block) {
  int64_t removed = 0;
  std::optional<FlatLaunch> head;
  for (Operation *op = &block.front(); op;) {
    Operation *next = op->getNextNode();
    auto launch = dyn_cast<gpu::LaunchOp>(op);
    if (!launch) {
      if (!isa<gpu::GPUModuleOp>(op))
        for (Region &region : op->getRegions())
          for (Block &nested : region)
            removed += mergeLaunchesIn(nested);
      op = next;
      continue;
    }
    std::optional<FlatLaunch> flat = asFlatLaunch(launch);
    SmallVector<Operation *> carried;
    if (flat && head && head->block == flat->block &&
        canMoveUpTo(launch, head->op, carried)) {
      for (Operation *x : carried)
        x->moveBefore(head->op);
      head = merge(*head, *flat);
      ++removed;
    } else if (flat) {
      head = flat;
    }
    op = next;
  }
  return removed;
}

namespace {
struct AmpGPUMergeLaunchesPass
    : public amp::impl::AmpGPUMergeLaunchesPassBase<AmpGPUMergeLaunchesPass> {
  using Base::Base;

  void runOnOperation() override {
    getOperation()->walk([&](FunctionOpInterface function) {
      if (function->getParentOfType<gpu::GPUModuleOp>())
        return;
      for (Block &block : function.getFunctionBody())
        numMerged += mergeLaunchesIn(block);
    });
  }
};
} // namespace
