//===- MmaSyncKernel.cpp - The mma.sync Tensor Core matmul kernel --------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A 128x256 block tile computed by 16 warps (2x8, each 64x32 = 4x4 m16n8
// fragments), K in steps of 32 or 64 staged in dynamic shared memory
// (several stages, cp.async when the rows are 16-byte aligned), A and B
// fragments loaded with ldmatrix (B transposed), m16n8k16 mma.sync with f32
// accumulators in registers, and a masked epilogue (MatmulEpilogue.cpp).
//
//===----------------------------------------------------------------------===//

#include "KernelSupport.h"
#include "MatmulKernels.h"

using namespace mlir;
using namespace mlir::amp;
using namespace mlir::amp::detail;

namespace {

//===----------------------------------------------------------------------===//
// mma.sync kernel
//===----------------------------------------------------------------------===//

/// 128x256 block tiles computed by 16 warps of 64x32 (128 registers a
/// thread, one block per SM). The first H100 profile of 128x128 tiles (8
/// warps, two blocks per SM) showed the kernel bound by L2 bandwidth (75%
/// busy): twice the columns per block load a third fewer bytes per flop.
/// Wider warp tiles (64x64, 254 registers, 8 warps a block) ran 14% slower
/// at 4096^3 on an H200.
///
/// The K tiling (MmaSyncTiling) is a parameter: K tiles of 32 with 3
/// stages put a barrier after every two k16 steps, which the H200 profile
/// showed as the limit (neither the Tensor Cores nor L2 busy); K tiles of 64
/// halve the barriers and give ptxas four k16 steps to overlap the ldmatrix
/// loads of one with the mma.sync of another.
constexpr int64_t kBlockM = kMmaSyncBlockM, kBlockN = kMmaSyncBlockN;
constexpr int64_t kWarpM = 64, kWarpN = 32, kWarpsN = 8;
static_assert(kMmaSyncThreads == 32 * (kBlockM / kWarpM) * kWarpsN);
constexpr int64_t kFragsM = kWarpM / 16, kFragsN = kWarpN / 8;
/// Row padding of the staged tiles (in elements): keeps rows 16-byte aligned
/// and spreads ldmatrix rows over all shared-memory banks.
constexpr int64_t kPad = 8;
constexpr int64_t kStageARows = kBlockM, kStageBCols = kBlockN + kPad;
/// Dynamic shared memory a block may use on sm_80..sm_90 (227 KiB).
constexpr int64_t kMaxSharedBytes = 227 * 1024;

struct MmaSyncKernel {
  OpBuilder &b;
  Location loc;
  const MatmulOperands &mm;
  /// Whether A and B are staged with cp.async (16-byte aligned rows of a
  /// buffer, not a computed operand).
  bool asyncA, asyncB;
  MmaSyncTiling tiling;
  IndexBuilder ib{b, loc};

  Value tid, lane, warpM, warpN, batchIv, m0, n0;
  Value stageA, stageB; // memref<stages x R x C x T, workgroup>

  /// Stages A[m0:m0+128, k0:k0+blockK] and B[k0:k0+blockK, n0:n0+256] into
  /// shared memory stage `stage`, with zeros outside the matrices: with
  /// cp.async, or element by element through their OperandSource.
  void loadTiles(Value stage, Value kTile) {
    Value k0 = ib.mul(kTile, tiling.blockK);
    auto inStage = [&](Value row, Value col) {
      return SmallVector<Value>{stage, row, col};
    };
    auto copy = [](bool async) {
      return async ? TileCopy::Async : TileCopy::Loop;
    };
    stageMaskedTile(b, loc,
                    {mm.aSrc, mm.inType, batchIv, m0, k0, mm.m, mm.k, kBlockM,
                     tiling.blockK},
                    tid, kMmaSyncThreads, copy(asyncA), stageA, inStage);
    stageMaskedTile(b, loc,
                    {mm.bSrc, mm.inType, batchIv, k0, n0, mm.k, mm.n,
                     tiling.blockK, kBlockN},
                    tid, kMmaSyncThreads, copy(asyncB), stageB, inStage);
  }

  /// One m16n8k16 multiply-accumulate.
  Value mma(Value aFrag, Value bFrag, Value acc) {
    if (mm.inType.isF16())
      return nvgpu::MmaSyncOp::create(b, loc, aFrag, bFrag, acc,
                                      ArrayRef<int64_t>{16, 8, 16});
    // nvgpu.mma.sync has no bf16 form: use the NVVM op on packed registers.
    auto packed = [&](Value frag, int64_t rows) {
      SmallVector<Value> regs;
      auto i32x1 = VectorType::get({1}, b.getI32Type());
      for (int64_t r = 0; r < rows; ++r) {
        Value pair = vector::ExtractOp::create(b, loc, frag, r);
        Value asInt = vector::BitCastOp::create(b, loc, i32x1, pair);
        regs.push_back(vector::ExtractOp::create(b, loc, asInt, 0));
      }
      return regs;
    };
    SmallVector<Value> aRegs = packed(aFrag, 4), bRegs = packed(bFrag, 2);
    SmallVector<Value> cRegs;
    for (int64_t i = 0; i < 2; ++i)
      for (int64_t j = 0; j < 2; ++j)
        cRegs.push_back(
            vector::ExtractOp::create(b, loc, acc, ArrayRef<int64_t>{i, j}));
    Type f32 = b.getF32Type();
    auto resultType =
        LLVM::LLVMStructType::getLiteral(b.getContext(), {f32, f32, f32, f32});
    auto op =
        NVVM::MmaOp::create(b, loc, resultType, aRegs, bRegs, cRegs,
                            {16, 8, 16}, std::nullopt, std::nullopt,
                            std::array<NVVM::MMATypes, 2>{NVVM::MMATypes::bf16,
                                                          NVVM::MMATypes::bf16},
                            std::array<NVVM::MMALayout, 2>{
                                NVVM::MMALayout::row, NVVM::MMALayout::col});
    SmallVector<Value> elems;
    for (int64_t i = 0; i < 4; ++i)
      elems.push_back(LLVM::ExtractValueOp::create(b, loc, op.getResult(), i));
    return vector::FromElementsOp::create(b, loc, acc.getType(), elems);
  }

  /// The fragments of one k16 step (columns kk..kk+15 of the staged tiles
  /// of `stage`) that this warp multiplies: kFragsM ldmatrix.x4 of A, then
  /// kFragsN / 2 ldmatrix.x4.trans of B (two n8 fragments each).
  SmallVector<Value> loadFragments(Value stage, int64_t kk) {
    auto frag4 = VectorType::get({4, 2}, mm.inType);
    Value laneRow = ib.rem(lane, 16), laneCol = ib.mul(ib.div(lane, 16), 8);
    SmallVector<Value> frags;
    for (int64_t mt = 0; mt < kFragsM; ++mt) {
      Value row = ib.add(ib.add(ib.mul(warpM, kWarpM), mt * 16), laneRow);
      Value col = ib.add(laneCol, kk);
      frags.push_back(nvgpu::LdMatrixOp::create(
          b, loc, frag4, stageA, ValueRange{stage, row, col},
          /*transpose=*/false, /*numTiles=*/4));
    }
    for (int64_t np = 0; np < kFragsN / 2; ++np) {
      Value row = ib.add(laneRow, kk);
      Value col = ib.add(ib.add(ib.mul(warpN, kWarpN), np * 16), laneCol);
      frags.push_back(nvgpu::LdMatrixOp::create(
          b, loc, frag4, stageB, ValueRange{stage, row, col},
          /*transpose=*/true, /*numTiles=*/4));
    }
    return frags;
  }

  /// The fragments of step 0 of K tile `kTile` (staged in `stage`) when
  /// it is a tile of the matmul (`kTile` < `kTiles`), else zeros.
  SmallVector<Value> firstFragmentsIf(Value kTile, Value kTiles, Value stage) {
    auto frag4 = VectorType::get({4, 2}, mm.inType);
    SmallVector<Type> types(kFragsM + kFragsN / 2, frag4);
    auto ifOp = scf::IfOp::create(b, loc, types, ib.lt(kTile, kTiles),
                                  /*withElseRegion=*/true);
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(&ifOp.getThenRegion().front());
    scf::YieldOp::create(b, loc, loadFragments(stage, 0));
    b.setInsertionPointToStart(&ifOp.getElseRegion().front());
    Value zero = arith::ConstantOp::create(
        b, loc, frag4, DenseElementsAttr::get(frag4, b.getZeroAttr(mm.inType)));
    scf::YieldOp::create(b, loc, SmallVector<Value>(types.size(), zero));
    return SmallVector<Value>(ifOp.getResults());
  }

  /// Multiplies one k16 step's fragments into the accumulators.
  void multiply(ArrayRef<Value> frags, SmallVector<Value> &acc) {
    SmallVector<Value> bFrags;
    for (int64_t np = 0; np < kFragsN / 2; ++np)
      for (int64_t half = 0; half < 2; ++half)
        bFrags.push_back(vector::ExtractStridedSliceOp::create(
            b, loc, frags[kFragsM + np], ArrayRef<int64_t>{half * 2, 0},
            ArrayRef<int64_t>{2, 2}, ArrayRef<int64_t>{1, 1}));
    for (int64_t mt = 0; mt < kFragsM; ++mt)
      for (int64_t nt = 0; nt < kFragsN; ++nt) {
        Value &c = acc[mt * kFragsN + nt];
        c = mma(frags[mt], bFrags[nt], c);
      }
  }

  /// Makes K tile `kt` visible to every warp: its cp.async group has landed
  /// (one group per K tile, so with stages - 2 pending) and every warp is
  /// past the barrier (so every warp is also done reading the stage the
  /// next prefetch refills).
  void waitForTile() {
    if (asyncA || asyncB)
      NVVM::CpAsyncWaitGroupOp::create(b, loc,
                                       b.getI32IntegerAttr(tiling.stages - 2));
    gpu::BarrierOp::create(b, loc);
  }

  /// Copies K tile `next` into its stage when there is one, and closes its
  /// (possibly empty) cp.async group.
  void prefetchTile(Value next, Value kTiles) {
    auto prefetch = scf::IfOp::create(b, loc, ib.lt(next, kTiles),
                                      /*withElseRegion=*/false);
    {
      OpBuilder::InsertionGuard g(b);
      b.setInsertionPointToStart(&prefetch.getThenRegion().front());
      loadTiles(ib.rem(next, tiling.stages), next);
    }
    if (asyncA || asyncB)
      NVVM::CpAsyncCommitGroupOp::create(b, loc);
  }

  void build(gpu::LaunchOp launch) {
    Block &body = launch.getBody().front();
    b.setInsertionPointToStart(&body);
    tid = launch.getThreadIds().x;
    auto [tileRow, tileCol] = groupedTile(ib, launch);
    n0 = ib.mul(tileCol, kBlockN);
    m0 = ib.mul(tileRow, kBlockM);
    batchIv = mm.batch ? launch.getBlockIds().z : Value();
    lane = ib.rem(tid, 32);
    Value warp = ib.div(tid, 32);
    warpM = ib.div(warp, kWarpsN);
    warpN = ib.rem(warp, kWarpsN);

    // `stages` stages of A and B in dynamic shared memory.
    int64_t stages = tiling.stages;
    Value smem = dynamicSharedMemory(b, loc);
    int64_t stageACols = tiling.blockK + kPad;
    auto aType =
        workgroupMemRefType({stages, kStageARows, stageACols}, mm.inType);
    auto bType =
        workgroupMemRefType({stages, tiling.blockK, kStageBCols}, mm.inType);
    int64_t aBytes = stages * kStageARows * stageACols * 2;
    stageA = memref::ViewOp::create(b, loc, aType, smem, ib.c(0), ValueRange{});
    stageB =
        memref::ViewOp::create(b, loc, bType, smem, ib.c(aBytes), ValueRange{});

    Value kTiles = ib.ceilDiv(mm.k, tiling.blockK);
    Value zero = ib.c(0), one = ib.c(1);
    // Prologue: stage s <- K tile s, one cp.async group each (possibly
    // empty).
    for (int64_t s = 0; s + 1 < stages; ++s) {
      auto hasK = scf::IfOp::create(b, loc, ib.lt(ib.c(s), kTiles),
                                    /*withElseRegion=*/false);
      {
        OpBuilder::InsertionGuard g(b);
        b.setInsertionPointToStart(&hasK.getThenRegion().front());
        loadTiles(ib.c(s), ib.c(s));
      }
      if (asyncA || asyncB)
        NVVM::CpAsyncCommitGroupOp::create(b, loc);
    }

    auto accType = VectorType::get({2, 2}, b.getF32Type());
    Value accZero = arith::ConstantOp::create(
        b, loc, accType, DenseElementsAttr::get(accType, 0.0f));
    SmallVector<Value> init(kFragsM * kFragsN, accZero);
    int64_t steps = tiling.blockK / 16;
    scf::ForOp loop;
    if (!tiling.prefetchFragments) {
      // Per K tile: wait for it, refill the stage of tile kt - 1 with tile
      // kt + stages - 1, then load and multiply each k16 step.
      loop = scf::ForOp::create(b, loc, zero, kTiles, one, init);
      OpBuilder::InsertionGuard g(b);
      b.setInsertionPointToStart(loop.getBody());
      Value kt = loop.getInductionVar();
      Value stage = ib.rem(kt, stages);
      waitForTile();
      prefetchTile(ib.add(kt, stages - 1), kTiles);
      SmallVector<Value> acc(loop.getRegionIterArgs().begin(),
                             loop.getRegionIterArgs().end());
      for (int64_t kk = 0; kk < steps; ++kk)
        multiply(loadFragments(stage, kk * 16), acc);
      scf::YieldOp::create(b, loc, acc);
    } else {
      // Fragments one k16 step ahead, in registers (what CUTLASS's
      // multistage main loop does): the fragments of the next step are
      // loaded before the current step's mma.sync, and the barrier that
      // moves to the next K tile comes before the last step's mma.sync,
      // which then overlap the next tile's first ldmatrix. The fragments of
      // step 0 of tile kt are loop-carried.
      waitForTile();
      SmallVector<Value> loopInit = init;
      llvm::append_range(loopInit, firstFragmentsIf(zero, kTiles, ib.c(0)));
      loop = scf::ForOp::create(b, loc, zero, kTiles, one, loopInit);
      OpBuilder::InsertionGuard g(b);
      b.setInsertionPointToStart(loop.getBody());
      Value kt = loop.getInductionVar();
      Value stage = ib.rem(kt, stages);
      auto args = loop.getRegionIterArgs();
      SmallVector<Value> acc(args.begin(), args.begin() + init.size());
      SmallVector<Value> current(args.begin() + init.size(), args.end());
      for (int64_t kk = 0; kk < steps; ++kk) {
        // Tile kt - 1's stage is free since the barrier of its last step.
        if (kk == 0)
          prefetchTile(ib.add(kt, stages - 1), kTiles);
        SmallVector<Value> next;
        if (kk + 1 < steps) {
          next = loadFragments(stage, (kk + 1) * 16);
        } else {
          waitForTile();
          Value nextTile = ib.add(kt, 1);
          next = firstFragmentsIf(nextTile, kTiles,
                                  ib.rem(nextTile, stages));
        }
        multiply(current, acc);
        current = next;
      }
      SmallVector<Value> yielded = acc;
      llvm::append_range(yielded, current);
      scf::YieldOp::create(b, loc, yielded);
    }

    // Epilogue: C += accumulators. Fragment element (i, j) of an m16n8 tile
    // is row lane/4 + 8i, column 2*(lane%4) + j.
    Value groupRow = ib.div(lane, 4), groupCol = ib.mul(ib.rem(lane, 4), 2);
    for (int64_t mt = 0; mt < kFragsM; ++mt)
      for (int64_t nt = 0; nt < kFragsN; ++nt) {
        Value acc = loop.getResult(mt * kFragsN + nt);
        for (int64_t i = 0; i < 2; ++i)
          for (int64_t j = 0; j < 2; ++j) {
            Value row = ib.add(
                ib.add(ib.add(m0, ib.mul(warpM, kWarpM)), mt * 16 + 8 * i),
                groupRow);
            Value col =
                ib.add(ib.add(ib.add(n0, ib.mul(warpN, kWarpN)), nt * 8 + j),
                       groupCol);
            Value v =
                vector::ExtractOp::create(b, loc, acc, ArrayRef<int64_t>{i, j});
            accumulateIntoC(b, loc, mm, batchIv, row, col, v);
          }
      }
    gpu::TerminatorOp::create(b, loc);
  }
};
} // namespace

int64_t mlir::amp::MmaSyncTiling::sharedBytes() const {
  return stages * 2 *
         (kStageARows * (blockK + kPad) + blockK * kStageBCols);
}

bool mlir::amp::MmaSyncTiling::isValid(std::string &message) const {
  if (blockK != 32 && blockK != 64) {
    message = "the mma.sync K tile must be 32 or 64, not " +
              std::to_string(blockK);
    return false;
  }
  if (stages < 2) {
    message = "the mma.sync kernel needs at least 2 stages, not " +
              std::to_string(stages);
    return false;
  }
  if (sharedBytes() > kMaxSharedBytes) {
    message = std::to_string(stages) + " stages of K tile " +
              std::to_string(blockK) + " need " +
              std::to_string(sharedBytes()) +
              " bytes of shared memory, more than the 232448 a block can use";
    return false;
  }
  return true;
}

void mlir::amp::detail::buildMmaSyncKernel(OpBuilder &b, Location loc,
                                           const MatmulOperands &mm,
                                           bool asyncA, bool asyncB,
                                           MmaSyncTiling tiling,
                                           gpu::LaunchOp launch) {
  MmaSyncKernel kernel{b, loc, mm, asyncA, asyncB, tiling};
  kernel.build(launch);
}
