//===- SkinnyMatmul.cpp - A memory-bound kernel for matmuls with small M --===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Replaces a linalg.matmul with a few rows (M <= 16: a GEMV, a decode step)
// by SIMT kernels that read B once, coalesced, with enough blocks to keep
// the memory system busy. The 128x128 tiles of the Tensor Core and tiled
// SIMT kernels waste almost all their work at M = 1 and launch only N/128
// blocks; here the time is the time to read B.
//
//  - Block: 256 threads = 8 warps over 32 columns of C. Lane l of every warp
//    owns column n0 + l, warp w the rows k = w, w + 8, ... of its K range:
//    each warp-wide load of B reads 32 consecutive elements of one row.
//    A[m, k] is the same address for the whole warp (a broadcast served by
//    L1; A is tiny). Each thread keeps M f32 accumulators and loads 4 rows
//    of B per loop iteration.
//  - K is split over `splits` blocks (gridDim.y) when the columns alone do
//    not give enough blocks (~8 resident 256-thread blocks per SM on 132
//    SMs), so that N = 1536, K = 8960 still runs ~1000 blocks.
//  - The 8 warps' partial sums meet in shared memory; with one split the
//    block adds them into C (or the folded fill value). With several, each
//    block writes its sums to a workspace, makes them visible to the GPU
//    (membar.gl) and counts itself done on its column group's counter (an
//    atomic add); the block that finds it was the last adds the splits'
//    sums in split order: deterministic, one kernel.
//  - f16/bf16 inputs are widened to f32 (f32 accumulation, FMAs). A and B
//    are read through their OperandSource: a cast producing B (an f32
//    weight argument rounded to 16 bits, in mixed precision) is computed in
//    registers, the same numbers with one kernel less and B's bytes read
//    once.
//
//===----------------------------------------------------------------------===//

#include "KernelSupport.h"
#include "MatmulKernels.h"
#include "amp/Conversion/Passes.h"

#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace mlir::amp;
using namespace mlir::amp::detail;

namespace {
constexpr int64_t kSkinnyThreads = 256;
/// Columns per block: one per lane, so a warp's loads of B are 128 bytes
/// (f32) or 64 bytes (16-bit) of one row, whole 32-byte sectors either way.
constexpr int64_t kSkinnyCols = 32;
constexpr int64_t kSkinnyKLanes = kSkinnyThreads / kSkinnyCols;
/// Rows of B each thread loads per iteration of its K loop (neither the
/// NVPTX back end nor ptxas unrolls a loop with a run-time trip count here).
constexpr int64_t kSkinnyUnroll = 4;
/// Blocks the kernel tries to launch: 8 resident 256-thread blocks per SM
/// on an H100's 132 SMs. Smaller GPUs just run more waves.
constexpr int64_t kSkinnyTargetBlocks = 132 * 8;
/// Rows of K a split gets at least (32 per warp): fewer would make the
/// workspace traffic and the second kernel cost more than they save.
constexpr int64_t kSkinnyMinSplitRows = 32 * kSkinnyKLanes;
} // namespace

/// How many blocks share K: enough for ~kSkinnyTargetBlocks blocks, at least
/// kSkinnyMinSplitRows rows each; 1 when N or K is only known at run time.
static int64_t skinnySplits(int64_t n, int64_t k) {
  if (ShapedType::isDynamic(n) || ShapedType::isDynamic(k))
    return 1;
  int64_t columnBlocks = std::max<int64_t>(1, llvm::divideCeil(n, kSkinnyCols));
  int64_t wanted = llvm::divideCeil(kSkinnyTargetBlocks, columnBlocks);
  return std::max<int64_t>(1, std::min(wanted, k / kSkinnyMinSplitRows));
}

bool mlir::amp::isSkinnyMatmul(linalg::LinalgOp op, int64_t maxM) {
  if (maxM <= 0 || !isa<linalg::MatmulOp>(op.getOperation()) ||
      !matmulInputType(op))
    return false;
  int64_t m = cast<MemRefType>(op.getDpsInputs()[0].getType()).getShape()[0];
  return !ShapedType::isDynamic(m) && m <= maxM;
}

namespace {
/// Builds the kernel; see the file header.
struct SkinnyKernel {
  OpBuilder &b;
  Location loc;
  const MatmulOperands &mm;
  int64_t rows;
  int64_t splits;
  IndexBuilder ib{b, loc};

  /// `v` (f32, f16 or bf16) as the f32 the products are computed in.
  Value widen(Value v) {
    Type f32 = b.getF32Type();
    return v.getType() == f32
               ? v
               : arith::ExtFOp::create(b, loc, f32, v).getResult();
  }

  /// Partial sums of C over the split's K range, reduced over the block's
  /// warps; added into C when there is one split, else written to
  /// `workspace[split, m, n]` and summed by the last block of the column
  /// group (`counters`: one per group, zero at launch).
  void buildPartials(gpu::LaunchOp launch, Value kChunk, Value workspace,
                     Value counters) {
    b.setInsertionPointToStart(&launch.getBody().front());
    Value tid = launch.getThreadIds().x;
    Value lane = ib.rem(tid, kSkinnyCols), warp = ib.div(tid, kSkinnyCols);
    Value n0 = ib.mul(launch.getBlockIds().x, kSkinnyCols);
    Value split = launch.getBlockIds().y;
    Value col = ib.add(n0, lane);
    Value kBegin = b.createOrFold<arith::MulIOp>(loc, split, kChunk);
    Value kEnd = b.createOrFold<arith::MinUIOp>(
        loc, b.createOrFold<arith::AddIOp>(loc, kBegin, kChunk), mm.k);

    Type f32 = b.getF32Type();
    Value zero = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0.0));
    SmallVector<Type> accTypes(rows, f32);
    SmallVector<Value> zeros(rows, zero);
    // Lanes past N only take part in the reduction (barrier).
    auto inN = scf::IfOp::create(b, loc, accTypes, ib.lt(col, mm.n),
                                 /*withElseRegion=*/true);
    {
      OpBuilder::InsertionGuard g(b);
      b.setInsertionPointToStart(&inN.getThenRegion().front());
      // The thread's rows: kStart, kStart + 8, ... below kEnd, `count` of
      // them; kSkinnyUnroll per iteration of the main loop (independent
      // loads in flight: the loop has no other parallelism), the rest one
      // by one. The order of the FMAs into each accumulator is k ascending
      // either way.
      Value kStart = ib.add(kBegin, warp);
      Value count =
          ib.select(ib.lt(kStart, kEnd),
                    ib.ceilDiv(ib.sub(kEnd, kStart), kSkinnyKLanes), ib.c(0));
      Value mainCount = ib.div(count, kSkinnyUnroll);
      auto accumulateRows = [&](Value k0, int64_t n, ValueRange in) {
        SmallVector<Value> acc(in.begin(), in.end());
        for (int64_t u = 0; u < n; ++u) {
          Value k = ib.add(k0, u * kSkinnyKLanes);
          Value bv = widen(mm.bSrc.load(b, loc, ValueRange{k, col}));
          for (int64_t m = 0; m < rows; ++m) {
            Value av = widen(mm.aSrc.load(b, loc, ValueRange{ib.c(m), k}));
            acc[m] = math::FmaOp::create(b, loc, av, bv, acc[m]);
          }
        }
        return acc;
      };
      auto mainLoop =
          scf::ForOp::create(b, loc, ib.c(0), mainCount, ib.c(1), zeros);
      {
        OpBuilder::InsertionGuard g2(b);
        b.setInsertionPointToStart(mainLoop.getBody());
        Value k0 = ib.add(kStart, ib.mul(mainLoop.getInductionVar(),
                                         kSkinnyUnroll * kSkinnyKLanes));
        scf::YieldOp::create(
            b, loc,
            accumulateRows(k0, kSkinnyUnroll, mainLoop.getRegionIterArgs()));
      }
      auto restLoop =
          scf::ForOp::create(b, loc, ib.mul(mainCount, kSkinnyUnroll), count,
                             ib.c(1), mainLoop.getResults());
      {
        OpBuilder::InsertionGuard g2(b);
        b.setInsertionPointToStart(restLoop.getBody());
        Value k0 =
            ib.add(kStart, ib.mul(restLoop.getInductionVar(), kSkinnyKLanes));
        scf::YieldOp::create(
            b, loc, accumulateRows(k0, 1, restLoop.getRegionIterArgs()));
      }
      scf::YieldOp::create(b, loc, restLoop.getResults());
      b.setInsertionPointToStart(&inN.getElseRegion().front());
      scf::YieldOp::create(b, loc, zeros);
    }

    // sums[warp][m][lane]: conflict-free stores and loads.
    Value smem = dynamicSharedMemory(b, loc);
    Value sums = memref::ViewOp::create(
        b, loc, workgroupMemRefType({kSkinnyKLanes, rows, kSkinnyCols}, f32),
        smem, ib.c(0), ValueRange{});
    for (int64_t m = 0; m < rows; ++m)
      memref::StoreOp::create(b, loc, inN.getResult(m), sums,
                              ValueRange{warp, ib.c(m), lane});
    gpu::BarrierOp::create(b, loc);

    // Thread t reduces outputs t, t + 256, ... of the block's rows x 32.
    forEachOutput(tid, [&](Value o) {
      Value m = ib.div(o, kSkinnyCols), c = ib.rem(o, kSkinnyCols);
      Value sum =
          memref::LoadOp::create(b, loc, sums, ValueRange{ib.c(0), m, c});
      for (int64_t w = 1; w < kSkinnyKLanes; ++w)
        sum = arith::AddFOp::create(
            b, loc, sum,
            memref::LoadOp::create(b, loc, sums, ValueRange{ib.c(w), m, c}));
      Value n = ib.add(n0, c);
      if (!workspace) {
        accumulateIntoC(b, loc, mm, Value(), m, n, sum);
        return;
      }
      auto inC = scf::IfOp::create(b, loc, ib.lt(n, mm.n),
                                   /*withElseRegion=*/false);
      b.setInsertionPointToStart(&inC.getThenRegion().front());
      memref::StoreOp::create(b, loc, sum, workspace, ValueRange{split, m, n});
    });
    if (workspace)
      buildLastSplitSum(launch, n0, smem, workspace, counters);
    gpu::TerminatorOp::create(b, loc);
  }

  /// The end of a split: the block's sums are in the workspace; the last
  /// block of the column group to get there adds every split's sums, in
  /// split order, into C (through the epilogue).
  void buildLastSplitSum(gpu::LaunchOp launch, Value n0, Value smem,
                         Value workspace, Value counters) {
    Value tid = launch.getThreadIds().x;
    // Every thread's workspace stores visible to the whole GPU, then one
    // thread counts the block done.
    NVVM::MembarOp::create(b, loc, NVVM::MemScopeKind::GPU);
    gpu::BarrierOp::create(b, loc);
    Type i32 = b.getI32Type();
    Value flag = memref::ViewOp::create(b, loc, workgroupMemRefType({1}, i32),
                                        smem, ib.c(flagOffset()), ValueRange{});
    {
      auto first = scf::IfOp::create(b, loc, ib.eq(tid, 0), false);
      OpBuilder::InsertionGuard g(b);
      b.setInsertionPointToStart(&first.getThenRegion().front());
      Value one = arith::ConstantIntOp::create(b, loc, i32, 1);
      Value before = memref::AtomicRMWOp::create(
          b, loc, arith::AtomicRMWKind::addi, one, counters,
          ValueRange{launch.getBlockIds().x});
      Value last = arith::CmpIOp::create(
          b, loc, arith::CmpIPredicate::eq, before,
          arith::ConstantIntOp::create(b, loc, i32, splits - 1));
      memref::StoreOp::create(b, loc,
                              arith::ExtUIOp::create(b, loc, i32, last),
                              flag, ValueRange{ib.c(0)});
    }
    gpu::BarrierOp::create(b, loc);
    Value isLast = arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::ne,
        memref::LoadOp::create(b, loc, flag, ValueRange{ib.c(0)}),
        arith::ConstantIntOp::create(b, loc, i32, 0));
    auto ifLast = scf::IfOp::create(b, loc, isLast, false);
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(&ifLast.getThenRegion().front());
    NVVM::MembarOp::create(b, loc, NVVM::MemScopeKind::GPU);
    forEachOutput(tid, [&](Value o) {
      Value m = ib.div(o, kSkinnyCols), n = ib.add(n0, ib.rem(o, kSkinnyCols));
      auto inC = scf::IfOp::create(b, loc, ib.lt(n, mm.n), false);
      b.setInsertionPointToStart(&inC.getThenRegion().front());
      Value sum =
          memref::LoadOp::create(b, loc, workspace, ValueRange{ib.c(0), m, n});
      for (int64_t s = 1; s < splits; ++s)
        sum = arith::AddFOp::create(
            b, loc, sum,
            memref::LoadOp::create(b, loc, workspace,
                                   ValueRange{ib.c(s), m, n}));
      accumulateIntoC(b, loc, mm, Value(), m, n, sum);
    });
  }

  /// Emits `body` for the outputs o = tid, tid + 256, ... of the block's
  /// rows x 32 (the last round masked), each at its own insertion point.
  void forEachOutput(Value tid, function_ref<void(Value o)> body) {
    int64_t outputs = rows * kSkinnyCols;
    for (int64_t first = 0; first < outputs; first += kSkinnyThreads) {
      Value o = ib.add(tid, first);
      OpBuilder::InsertionGuard g(b);
      if (first + kSkinnyThreads > outputs) {
        auto inBlock = scf::IfOp::create(b, loc, ib.lt(o, ib.c(outputs)),
                                         /*withElseRegion=*/false);
        b.setInsertionPointToStart(&inBlock.getThenRegion().front());
      }
      body(o);
    }
  }

  /// Bytes of dynamic shared memory: the warps' sums, then the flag.
  int64_t flagOffset() const { return kSkinnyKLanes * rows * kSkinnyCols * 4; }
  int64_t sharedBytes() const { return flagOffset() + 4; }
};
} // namespace

LogicalResult mlir::amp::rewriteMatmulToSkinnyKernel(RewriterBase &rewriter,
                                                     linalg::LinalgOp op,
                                                     int64_t maxM) {
  if (!isSkinnyMatmul(op, maxM))
    return rewriter.notifyMatchFailure(op, "not a matmul with few rows");
  Type inType = matmulInputType(op);
  Location loc = op.getLoc();
  OpBuilder::InsertionGuard guard(rewriter);
  MatmulOperands mm = prepareMatmul(rewriter, op, inType);
  // Lanes walk B's columns: a transposed source of B would be read with a
  // stride. Such a producer keeps its own kernel.
  if (mm.bSrc.rowsContiguous)
    mm.bSrc = matchOperandSource(mm.b, op, /*affine=*/false);
  auto aType = cast<MemRefType>(mm.a.getType());
  auto bType = cast<MemRefType>(mm.b.getType());
  int64_t rows = aType.getShape()[0];
  int64_t splits = skinnySplits(bType.getShape()[1], bType.getShape()[0]);
  guardNonEmpty(rewriter, mm);
  IndexBuilder ib{rewriter, loc};
  Value one = ib.c(1);
  Value kChunk = splits > 1 ? ib.ceilDiv(mm.k, splits) : mm.k;
  Value groups = ib.ceilDiv(mm.n, kSkinnyCols);
  Value workspace, counters;
  if (splits > 1) {
    workspace = memref::AllocOp::create(
        rewriter, loc,
        MemRefType::get({splits, rows, bType.getShape()[1]},
                        rewriter.getF32Type()));
    counters = memref::AllocOp::create(
        rewriter, loc,
        MemRefType::get({ShapedType::kDynamic}, rewriter.getI32Type()),
        ValueRange{groups});
    gpu::MemsetOp::create(rewriter, loc, TypeRange{}, ValueRange{}, counters,
                          arith::ConstantIntOp::create(
                              rewriter, loc, rewriter.getI32Type(), 0));
  }
  SkinnyKernel kernel{rewriter, loc, mm, rows, splits};
  Value shmem = arith::ConstantIntOp::create(
      rewriter, loc, rewriter.getI32Type(), kernel.sharedBytes());
  auto launch =
      gpu::LaunchOp::create(rewriter, loc, groups, ib.c(splits), one,
                            ib.c(kSkinnyThreads), one, one, shmem);
  {
    OpBuilder::InsertionGuard g(rewriter);
    kernel.buildPartials(launch, kChunk, workspace, counters);
  }
  nameMatmulKernel(launch, op, mm, workspace ? "skinny_splitk" : "skinny");
  if (workspace) {
    rewriter.setInsertionPointAfter(launch);
    memref::DeallocOp::create(rewriter, loc, workspace);
    memref::DeallocOp::create(rewriter, loc, counters);
  }
  finishMatmul(rewriter, op, mm);
  return success();
}
