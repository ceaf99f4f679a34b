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

#include "KernelSupport.h"
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

  void build(gpu::LaunchOp launch) {
    Block &body = launch.getBody().front();
    b.setInsertionPointToStart(&body);
    Value tid = launch.getThreadIds().x;
    Value n0 = ib.mul(launch.getBlockIds().x, kSimtBlock);
    Value m0 = ib.mul(launch.getBlockIds().y, kSimtBlock);
    Value batchIv = mm.batch ? launch.getBlockIds().z : Value();
    Value tx = ib.rem(tid, kSimtThreadsPerDim);
    Value ty = ib.div(tid, kSimtThreadsPerDim);

    auto tileType =
        workgroupMemRefType({kSimtBlockK, kSimtBlock}, b.getF32Type());
    Value smem = dynamicSharedMemory(b, loc);
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
      // 4 elements per thread of each 1024-element tile, zero outside the
      // matrices; A's tile transposed.
      stageMaskedTile(b, loc,
                      {mm.aSrc, b.getF32Type(), batchIv, m0, k0, mm.m, mm.k,
                       kSimtBlock, kSimtBlockK},
                      tid, kSimtThreads, TileCopy::Unrolled, tileA,
                      [](Value r, Value c) { return SmallVector<Value>{c, r}; });
      stageMaskedTile(b, loc,
                      {mm.bSrc, b.getF32Type(), batchIv, k0, n0, mm.k, mm.n,
                       kSimtBlockK, kSimtBlock},
                      tid, kSimtThreads, TileCopy::Unrolled, tileB,
                      [](Value r, Value c) { return SmallVector<Value>{r, c}; });
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
