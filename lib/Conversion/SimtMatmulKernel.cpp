//===- SimtMatmulKernel.cpp - The FP32 SIMT matmul kernel ----------------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The FP32 baseline's matmuls: 128x128 block tiles, 8x8 FMAs per thread,
// K staged in shared memory.
//
//===----------------------------------------------------------------------===//

#include "MatmulKernels.h"

using namespace mlir;
using namespace mlir::amp;
using namespace mlir::amp::detail;

namespace {
constexpr int64_t kSimtBlock = 128, kSimtBlockK = 8, kSimtThreads = 256;
constexpr int64_t kSimtPerThread = 8; // 8x8 outputs per thread
constexpr int64_t kSimtThreadsPerDim = 16;

/// The FP32 baseline: 128x128 block tiles, 256 threads computing 8x8
/// outputs each (rows ty + 16i, columns tx + 16j: conflict-free shared
/// memory reads, coalesced stores), K in steps of 8 staged in shared memory
/// (A transposed), FMAs on scalars in registers.
struct SimtF32Kernel {
  OpBuilder &b;
  Location loc;
  const MatmulOperands &mm;
  IndexBuilder ib{b, loc};

  /// Loads element (row0 + r, col0 + c) of `global` (zero outside) into
  /// staged[sr, sc], for the 1024 elements of a tile, 4 per thread.
  void stage(const OperandSource &src, Value staged, Value batchIv, Value tid, Value row0,
             Value col0, Value rows, Value cols, int64_t tileCols,
             bool transpose) {
    for (int64_t i = 0; i < kSimtBlock * kSimtBlockK / kSimtThreads; ++i) {
      Value e = ib.add(tid, i * kSimtThreads);
      int64_t tileRows = kSimtBlock * kSimtBlockK / tileCols;
      Value r = src.rowsContiguous ? ib.rem(e, tileRows) : ib.div(e, tileCols);
      Value c = src.rowsContiguous ? ib.div(e, tileRows) : ib.rem(e, tileCols);
      Value gRow = ib.add(row0, r), gCol = ib.add(col0, c);
      Value valid = ib.land(ib.lt(gRow, rows), ib.lt(gCol, cols));
      auto ifOp = scf::IfOp::create(b, loc, TypeRange{b.getF32Type()}, valid,
                                    /*withElseRegion=*/true);
      {
        OpBuilder::InsertionGuard g(b);
        b.setInsertionPointToStart(&ifOp.getThenRegion().front());
        Value v = src.load(b, loc, withBatch(batchIv, {gRow, gCol}));
        scf::YieldOp::create(b, loc, v);
        b.setInsertionPointToStart(&ifOp.getElseRegion().front());
        scf::YieldOp::create(
            b, loc,
            arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0.0))
                .getResult());
      }
      SmallVector<Value> idx =
          transpose ? SmallVector<Value>{c, r} : SmallVector<Value>{r, c};
      memref::StoreOp::create(b, loc, ifOp.getResult(0), staged, idx);
    }
  }

  void build(gpu::LaunchOp launch) {
    Block &body = launch.getBody().front();
    b.setInsertionPointToStart(&body);
    Value tid = launch.getThreadIds().x;
    Value n0 = ib.mul(launch.getBlockIds().x, kSimtBlock);
    Value m0 = ib.mul(launch.getBlockIds().y, kSimtBlock);
    Value batchIv = mm.batch ? launch.getBlockIds().z : Value();
    Value tx = ib.rem(tid, kSimtThreadsPerDim);
    Value ty = ib.div(tid, kSimtThreadsPerDim);

    auto wg = gpu::AddressSpaceAttr::get(b.getContext(),
                                         gpu::AddressSpace::Workgroup);
    auto tileType = MemRefType::get({kSimtBlockK, kSimtBlock}, b.getF32Type(),
                                    AffineMap(), wg);
    Value smem = gpu::DynamicSharedMemoryOp::create(
        b, loc,
        MemRefType::get({ShapedType::kDynamic}, b.getI8Type(), AffineMap(),
                        wg));
    // As[k][m] (A transposed) and Bs[k][n].
    Value tileA =
        memref::ViewOp::create(b, loc, tileType, smem, ib.c(0), ValueRange{});
    Value tileB = memref::ViewOp::create(b, loc, tileType, smem,
                                         ib.c(kSimtBlockK * kSimtBlock * 4),
                                         ValueRange{});

    Value zero = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0.0));
    SmallVector<Value> init(kSimtPerThread * kSimtPerThread, zero);
    Value kTiles = ib.ceilDiv(mm.k, kSimtBlockK);
    auto loop = scf::ForOp::create(b, loc, ib.c(0), kTiles, ib.c(1), init);
    {
      OpBuilder::InsertionGuard g(b);
      b.setInsertionPointToStart(loop.getBody());
      Value k0 = ib.mul(loop.getInductionVar(), kSimtBlockK);
      stage(mm.aSrc, tileA, batchIv, tid, m0, k0, mm.m, mm.k, kSimtBlockK,
            /*transpose=*/true);
      stage(mm.bSrc, tileB, batchIv, tid, k0, n0, mm.k, mm.n, kSimtBlock,
            /*transpose=*/false);
      gpu::BarrierOp::create(b, loc);
      SmallVector<Value> acc(loop.getRegionIterArgs().begin(),
                             loop.getRegionIterArgs().end());
      for (int64_t kk = 0; kk < kSimtBlockK; ++kk) {
        SmallVector<Value> a, bv;
        for (int64_t i = 0; i < kSimtPerThread; ++i) {
          a.push_back(memref::LoadOp::create(
              b, loc, tileA,
              ValueRange{ib.c(kk), ib.add(ty, i * kSimtThreadsPerDim)}));
          bv.push_back(memref::LoadOp::create(
              b, loc, tileB,
              ValueRange{ib.c(kk), ib.add(tx, i * kSimtThreadsPerDim)}));
        }
        for (int64_t i = 0; i < kSimtPerThread; ++i)
          for (int64_t j = 0; j < kSimtPerThread; ++j) {
            Value &c = acc[i * kSimtPerThread + j];
            c = math::FmaOp::create(b, loc, a[i], bv[j], c);
          }
      }
      gpu::BarrierOp::create(b, loc);
      scf::YieldOp::create(b, loc, acc);
    }
    for (int64_t i = 0; i < kSimtPerThread; ++i)
      for (int64_t j = 0; j < kSimtPerThread; ++j) {
        Value row = ib.add(ib.add(m0, ty), i * kSimtThreadsPerDim);
        Value col = ib.add(ib.add(n0, tx), j * kSimtThreadsPerDim);
        accumulateIntoC(b, loc, mm, batchIv, row, col,
                        loop.getResult(i * kSimtPerThread + j));
      }
    gpu::TerminatorOp::create(b, loc);
  }

  static int64_t sharedBytes() { return 2 * kSimtBlockK * kSimtBlock * 4; }
};
} // namespace

LogicalResult mlir::amp::rewriteMatmulToSimtKernel(RewriterBase &rewriter,
                                                   linalg::LinalgOp op) {
  if (!isSimtF32Matmul(op))
    return rewriter.notifyMatchFailure(op, "not an f32 matmul");
  Location loc = op.getLoc();
  OpBuilder::InsertionGuard guard(rewriter);
  MatmulOperands mm = prepareMatmul(rewriter, op, rewriter.getF32Type());
  guardNonEmpty(rewriter, mm);
  IndexBuilder ib{rewriter, loc};
  Value one = ib.c(1);
  Value shmem = arith::ConstantIntOp::create(
      rewriter, loc, rewriter.getI32Type(), SimtF32Kernel::sharedBytes());
  auto launch = gpu::LaunchOp::create(
      rewriter, loc, ib.ceilDiv(mm.n, kSimtBlock), ib.ceilDiv(mm.m, kSimtBlock),
      mm.batch ? mm.batch : one, ib.c(kSimtThreads), one, one, shmem);
  SimtF32Kernel kernel{rewriter, loc, mm};
  kernel.build(launch);
  nameMatmulKernel(launch, op, mm, "simt");
  finishMatmul(rewriter, op, mm);
  return success();
}
