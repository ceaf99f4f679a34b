//===- MatmulToTensorCores.cpp - Tensor Core kernels for matmuls ----------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Replaces a linalg.matmul / linalg.batch_matmul on memrefs with 16-bit float
// inputs and an f32 output by a gpu.launch built directly from gpu, nvgpu,
// nvvm, vector, memref and scf ops:
//
//  - mma.sync (sm_80+): a 128x256 block tile computed by 16 warps (2x8,
//    each 64x32 = 4x4 m16n8 fragments), K in steps of 32 staged in dynamic shared
//    memory (three stages, cp.async when the rows are 16-byte aligned), A and
//    B fragments loaded with ldmatrix (B transposed), m16n8k16 mma.sync with
//    f32 accumulators in registers, and a masked read-modify-write epilogue.
//  - wgmma (sm_90a): a 128x256 block tile (128x128 for narrow matmuls),
//    warp-specialized: a producer warpgroup streams K steps of 64 with TMA
//    (128-byte swizzle, zero fill out of bounds) into a 4-stage ring guarded
//    by full/empty mbarriers, two consumer warpgroups multiply 64 rows each
//    with m64nNk16 warpgroup.mma (registers moved from the producer with
//    setmaxnreg), then stage the accumulators through shared memory for
//    coalesced, masked stores.
//
// Both walk the block tiles in a grouped order for L2 reuse.
//
// linalg.matmul accumulates into its output, so both kernels compute
// C += A * B.
//
//===----------------------------------------------------------------------===//

#include "MatmulKernels.h"
#include "amp/Conversion/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Utils/StructuredOpsUtils.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir {
namespace amp {
#define GEN_PASS_DEF_AMPGPUMATMULTOMMAPASS
#include "amp/Conversion/Passes.h.inc"
} // namespace amp
} // namespace mlir

using namespace mlir;
using namespace mlir::amp;
using namespace mlir::amp::detail;

//===----------------------------------------------------------------------===//
// Matching
//===----------------------------------------------------------------------===//

/// The element type of A and B when `op` is a linalg.matmul or
/// linalg.batch_matmul on memrefs with default maps, A and B of one type
/// among f16, bf16 and f32, and C of f32.
Type mlir::amp::detail::matmulInputType(linalg::LinalgOp op) {
  if (!isa<linalg::MatmulOp, linalg::BatchMatmulOp>(op.getOperation()))
    return {};
  if (!op.hasPureBufferSemantics() || op.getNumDpsInputs() != 2 ||
      op.getNumDpsInits() != 1)
    return {};
  // Only the default maps: no transposed or broadcast operands.
  if (auto matmul = dyn_cast<linalg::MatmulOp>(op.getOperation())) {
    if (matmul.hasUserDefinedMaps())
      return {};
  } else if (cast<linalg::BatchMatmulOp>(op.getOperation())
                 .hasUserDefinedMaps()) {
    return {};
  }
  auto aType = dyn_cast<MemRefType>(op.getDpsInputs()[0].getType());
  auto bType = dyn_cast<MemRefType>(op.getDpsInputs()[1].getType());
  auto cType = dyn_cast<MemRefType>(op.getDpsInits()[0].getType());
  if (!aType || !bType || !cType)
    return {};
  Type elt = aType.getElementType();
  if (!(elt.isF16() || elt.isBF16() || elt.isF32()) ||
      bType.getElementType() != elt || !cType.getElementType().isF32())
    return {};
  // Global (default) memory space only.
  if (aType.getMemorySpace() || bType.getMemorySpace() ||
      cType.getMemorySpace())
    return {};
  // The innermost dimension must be contiguous for the staged loads.
  for (MemRefType t : {aType, bType, cType}) {
    SmallVector<int64_t> strides;
    int64_t offset;
    if (failed(t.getStridesAndOffset(strides, offset)) || strides.empty() ||
        strides.back() != 1)
      return {};
  }
  return elt;
}

/// The element type of A and B when `op` is a Tensor Core matmul.
static Type tensorCoreInputType(linalg::LinalgOp op) {
  Type elt = matmulInputType(op);
  return elt && (elt.isF16() || elt.isBF16()) ? elt : Type();
}

bool mlir::amp::isTensorCoreMatmul(linalg::LinalgOp op) {
  return static_cast<bool>(tensorCoreInputType(op));
}

bool mlir::amp::isSimtF32Matmul(linalg::LinalgOp op) {
  Type elt = matmulInputType(op);
  return elt && elt.isF32();
}

/// Whether every row of `type` starts 16-byte aligned (given a 16-byte
/// aligned base pointer), so that 8 x 16-bit elements can be copied at once.
static bool hasAlignedRows(MemRefType type) {
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)))
    return false;
  if (ShapedType::isDynamic(offset) || offset % 8 != 0)
    return false;
  for (int64_t stride : ArrayRef<int64_t>(strides).drop_back())
    if (ShapedType::isDynamic(stride) || stride % 8 != 0)
      return false;
  return strides.back() == 1;
}

namespace {

//===----------------------------------------------------------------------===//
// Block order
//===----------------------------------------------------------------------===//

/// Rows of block tiles that consecutive blocks cover (see groupedTile).
constexpr int64_t kGroupRows = 8;

/// The (row, column) block tile of the current block, in a grouped order:
/// consecutive blocks walk kGroupRows rows of tiles column by column, so
/// that the blocks resident at a time share rows of A and columns of B in
/// L2 (a row-major order would stream all of B for every row of tiles).
static std::pair<Value, Value> groupedTile(IndexBuilder &ib,
                                           gpu::LaunchOp launch) {
  Value tilesN = launch.getGridSize().x, tilesM = launch.getGridSize().y;
  Value linear = ib.add(
      ib.b.createOrFold<arith::MulIOp>(ib.loc, launch.getBlockIds().y, tilesN),
      launch.getBlockIds().x);
  Value groupSize = ib.mul(tilesN, kGroupRows);
  Value group = ib.b.createOrFold<arith::DivUIOp>(ib.loc, linear, groupSize);
  Value firstRow = ib.mul(group, kGroupRows);
  Value rows = ib.b.createOrFold<arith::MinUIOp>(
      ib.loc, ib.sub(tilesM, firstRow), ib.c(kGroupRows));
  Value within = ib.b.createOrFold<arith::RemUIOp>(ib.loc, linear, groupSize);
  Value row =
      ib.add(firstRow, ib.b.createOrFold<arith::RemUIOp>(ib.loc, within, rows));
  Value col = ib.b.createOrFold<arith::DivUIOp>(ib.loc, within, rows);
  return {row, col};
}

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
constexpr int64_t kBlockM = 128, kBlockN = 256;
constexpr int64_t kWarpM = 64, kWarpN = 32, kWarpsN = 8;
constexpr int64_t kMmaSyncThreads = 32 * (kBlockM / kWarpM) * kWarpsN;
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
  bool asyncCopies;
  MmaSyncTiling tiling;
  IndexBuilder ib{b, loc};

  Value tid, lane, warpM, warpN, batchIv, m0, n0;
  Value stageA, stageB; // memref<stages x R x C x T, workgroup>

  /// Stages A[m0:m0+128, k0:k0+blockK] and B[k0:k0+blockK, n0:n0+256] into
  /// shared memory stage `stage`, with zeros outside the matrices.
  void loadTiles(Value stage, Value kTile) {
    Value k0 = ib.mul(kTile, tiling.blockK);
    loadTile(mm.a, stageA, stage, m0, k0, mm.m, mm.k, kBlockM, tiling.blockK);
    loadTile(mm.b, stageB, stage, k0, n0, mm.k, mm.n, tiling.blockK, kBlockN);
  }

  void loadTile(Value global, Value staged, Value stage, Value row0, Value col0,
                Value rows, Value cols, int64_t tileRows, int64_t tileCols) {
    if (asyncCopies) {
      // 16-byte chunks: tileRows * tileCols / 8 of them, spread over threads.
      int64_t chunksPerRow = tileCols / 8;
      int64_t perThread = tileRows * chunksPerRow / kMmaSyncThreads;
      for (int64_t i = 0; i < perThread; ++i) {
        Value chunk = ib.add(tid, i * kMmaSyncThreads);
        Value row = ib.div(chunk, chunksPerRow);
        Value col = ib.mul(ib.rem(chunk, chunksPerRow), 8);
        Value gRow = ib.add(row0, row), gCol = ib.add(col0, col);
        Value valid = ib.land(ib.lt(gRow, rows), ib.lt(gCol, cols));
        Value zero = ib.c(0);
        Value srcElements = ib.select(valid, ib.c(8), zero);
        Value safeRow = ib.select(valid, gRow, zero);
        Value safeCol = ib.select(valid, gCol, zero);
        nvgpu::DeviceAsyncCopyOp::create(
            b, loc, staged, ValueRange{stage, row, col}, global,
            withBatch(batchIv, {safeRow, safeCol}), b.getIndexAttr(8),
            srcElements, b.getUnitAttr());
      }
      return;
    }
    // Element by element, zero outside the matrix.
    int64_t perThread = tileRows * tileCols / kMmaSyncThreads;
    Value lb = ib.c(0), ub = ib.c(perThread), step = ib.c(1);
    auto loop = scf::ForOp::create(b, loc, lb, ub, step);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    Value e = ib.add(tid, ib.mul(loop.getInductionVar(), kMmaSyncThreads));
    Value row = ib.div(e, tileCols), col = ib.rem(e, tileCols);
    Value gRow = ib.add(row0, row), gCol = ib.add(col0, col);
    Value valid = ib.land(ib.lt(gRow, rows), ib.lt(gCol, cols));
    auto ifOp = scf::IfOp::create(b, loc, TypeRange{mm.inType}, valid,
                                  /*withElseRegion=*/true);
    {
      OpBuilder::InsertionGuard g(b);
      b.setInsertionPointToStart(&ifOp.getThenRegion().front());
      Value v = memref::LoadOp::create(b, loc, global,
                                       withBatch(batchIv, {gRow, gCol}));
      scf::YieldOp::create(b, loc, v);
      b.setInsertionPointToStart(&ifOp.getElseRegion().front());
      Value z = arith::ConstantOp::create(b, loc, mm.inType,
                                          b.getFloatAttr(mm.inType, 0.0));
      scf::YieldOp::create(b, loc, z);
    }
    memref::StoreOp::create(b, loc, ifOp.getResult(0), staged,
                            ValueRange{stage, row, col});
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
    if (asyncCopies)
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
    if (asyncCopies)
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
    MLIRContext *ctx = b.getContext();
    auto wg = gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup);
    auto smemType =
        MemRefType::get({ShapedType::kDynamic}, b.getI8Type(), AffineMap(), wg);
    Value smem = gpu::DynamicSharedMemoryOp::create(b, loc, smemType);
    int64_t stageACols = tiling.blockK + kPad;
    auto aType = MemRefType::get({stages, kStageARows, stageACols}, mm.inType,
                                 AffineMap(), wg);
    auto bType = MemRefType::get({stages, tiling.blockK, kStageBCols},
                                 mm.inType, AffineMap(), wg);
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
      if (asyncCopies)
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

//===----------------------------------------------------------------------===//
// wgmma kernel
//===----------------------------------------------------------------------===//

constexpr int64_t kWgBlockM = 128, kWgBlockK = 64;
/// B arrives in boxes of 64 columns: one 128-byte swizzle row of 16-bit
/// elements.
constexpr int64_t kWgBoxN = 64;
constexpr int64_t kWgStages = 4;
/// Warpgroups that compute (64 rows of the block tile each) after the one
/// that loads.
constexpr int64_t kWgConsumers = 2;
/// Threads: 128 x (1 + kWgConsumers), threadIdx.y the warpgroup.
/// Registers per thread after setmaxnreg: the producer gives up what the
/// consumers' 64 x N accumulators need (40 * 128 + 232 * 256 <= 64K).
constexpr int64_t kWgProducerRegs = 40, kWgConsumerRegs = 232;
constexpr int64_t kWgTileABytes = kWgBlockM * kWgBlockK * 2; // 16 KiB
constexpr int64_t kWgBoxBBytes = kWgBlockK * kWgBoxN * 2;    // 8 KiB
/// Slack to align the ring to 1024 bytes (128-byte swizzle atoms).
constexpr int64_t kWgAlign = 1024;

/// The block tile's width: 256 columns (one m64n256k16 wgmma per consumer
/// and K step) unless the matmul is narrower.
static int64_t wgmmaBlockN(int64_t n) {
  return !ShapedType::isDynamic(n) && n <= 128 ? 128 : 256;
}

/// The wgmma kernel, warp-specialized like the fastest Hopper GEMMs: a
/// producer warpgroup whose first thread streams K tiles of A and B into a
/// ring of shared-memory stages with TMA, and two consumer warpgroups that
/// each multiply 64 rows of the 128 x blockN tile with wgmma. "full"
/// mbarriers (TMA transaction counts) say a stage has landed; "empty"
/// mbarriers (one arrival per consumer warp) say it may be refilled. The
/// consumers stage their accumulators through the ring (free once every
/// consumer left the main loop) for coalesced, masked stores to C.
struct WgmmaKernel {
  OpBuilder &b;
  Location loc;
  const MatmulOperands &mm;
  Value descA, descB;
  int64_t blockN;
  IndexBuilder ib{b, loc};

  // What the producer and the consumers share, set by build().
  Value smem;   // the dynamic shared memory, bytes
  Value pad;    // bytes from its start to the 1024-byte aligned ring
  Value bars;   // barriers 0..S-1: stage full; S..2S-1: stage empty
  Value kTiles; // K steps of kWgBlockK

  MemRefType smemType(ArrayRef<int64_t> shape, Type elt) {
    auto wg = gpu::AddressSpaceAttr::get(b.getContext(),
                                         gpu::AddressSpace::Workgroup);
    return MemRefType::get(shape, elt, AffineMap(), wg);
  }

  /// The byte offset of `within` in ring stage `s`.
  Value stageOffset(Value s, int64_t within) {
    return ib.add(ib.add(pad, ib.mul(s, stageBytes(blockN))), within);
  }

  /// The mbarrier parity of a ring round.
  Value parityOf(Value round) {
    return arith::IndexCastOp::create(b, loc, b.getI1Type(), ib.rem(round, 2));
  }

  static int64_t stageBytes(int64_t blockN) {
    return kWgTileABytes + blockN / kWgBoxN * kWgBoxBBytes;
  }

  /// `body` in an scf.if on `cond`, at the current insertion point.
  template <typename Fn> void ifThen(Value cond, Fn body) {
    auto ifOp = scf::IfOp::create(b, loc, cond, /*withElseRegion=*/false);
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(&ifOp.getThenRegion().front());
    body();
  }

  Value i32(int64_t v) {
    return arith::ConstantIntOp::create(b, loc, b.getI32Type(), v);
  }

  /// Builds the body of `launch`, after the ops already at its start.
  void build(gpu::LaunchOp launch) {
    MLIRContext *ctx = b.getContext();
    Value tid = launch.getThreadIds().x;
    Value warpgroup = launch.getThreadIds().y;
    auto [tileRow, tileCol] = groupedTile(ib, launch);
    Value n0 = ib.mul(tileCol, blockN);
    Value m0 = ib.mul(tileRow, kWgBlockM);
    Value batchIv = mm.batch ? launch.getBlockIds().z : Value();
    // Rows of the 2-D views the tensor maps describe.
    Value rowA0 = m0, rowB0 = ib.c(0);
    if (batchIv) {
      rowA0 = ib.add(b.createOrFold<arith::MulIOp>(loc, batchIv, mm.m), m0);
      rowB0 = b.createOrFold<arith::MulIOp>(loc, batchIv, mm.k);
    }
    auto wg = gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup);
    smem = gpu::DynamicSharedMemoryOp::create(
        b, loc, smemType({ShapedType::kDynamic}, b.getI8Type()));
    Value base = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, smem);
    pad = ib.rem(ib.sub(ib.c(kWgAlign), ib.rem(base, kWgAlign)), kWgAlign);

    auto barType = nvgpu::MBarrierGroupType::get(ctx, wg, 2 * kWgStages);
    bars = nvgpu::MBarrierCreateOp::create(b, loc, barType);
    Value isFirstThread = ib.land(ib.eq(tid, 0), ib.eq(warpgroup, 0));
    ifThen(isFirstThread, [&] {
      for (int64_t s = 0; s < kWgStages; ++s) {
        nvgpu::MBarrierInitOp::create(b, loc, bars, ib.c(1), ib.c(s), Value());
        nvgpu::MBarrierInitOp::create(b, loc, bars, ib.c(4 * kWgConsumers),
                                      ib.c(kWgStages + s), Value());
      }
    });
    gpu::BarrierOp::create(b, loc);

    kTiles = ib.ceilDiv(mm.k, kWgBlockK);

    // Producer: warpgroup 0, one thread issues the loads.
    ifThen(ib.eq(warpgroup, 0), [&] {
      NVVM::SetMaxRegisterOp::create(b, loc, kWgProducerRegs,
                                     NVVM::SetMaxRegisterAction::decrease);
      ifThen(ib.eq(tid, 0), [&] { buildProducer(rowA0, rowB0, n0); });
    });

    // Consumers: warpgroups 1..kWgConsumers.
    Value isConsumer = arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::uge, warpgroup, ib.c(1));
    ifThen(isConsumer, [&] {
      NVVM::SetMaxRegisterOp::create(b, loc, kWgConsumerRegs,
                                     NVVM::SetMaxRegisterAction::increase);
      buildConsumer(ib.sub(warpgroup, ib.c(1)), tid, m0, n0, batchIv);
    });
    gpu::TerminatorOp::create(b, loc);
  }

  /// The producer's loop (one thread): TMA loads of every K step.
  void buildProducer(Value rowA0, Value rowB0, Value n0) {
    auto aTileType = smemType({kWgBlockM, kWgBlockK}, mm.inType);
    auto bBoxType = smemType({kWgBlockK, kWgBoxN}, mm.inType);
    auto loop = scf::ForOp::create(b, loc, ib.c(0), kTiles, ib.c(1));
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(loop.getBody());
    Value kt = loop.getInductionVar();
    Value s = ib.rem(kt, kWgStages);
    Value round = ib.div(kt, kWgStages);
    // From the second round on, wait until the consumers released the
    // stage's previous tile.
    ifThen(ib.gtZero(round), [&] {
      nvgpu::MBarrierTryWaitParityOp::create(
          b, loc, bars, parityOf(ib.sub(round, ib.c(1))), ib.c(10000000),
          ib.add(s, kWgStages));
    });
    nvgpu::MBarrierArriveExpectTxOp::create(
        b, loc, bars, ib.c(stageBytes(blockN)), s, Value());
    Value k0 = ib.mul(kt, kWgBlockK);
    Value aDst = memref::ViewOp::create(b, loc, aTileType, smem,
                                        stageOffset(s, 0), ValueRange{});
    // TMA coordinates are innermost first.
    nvgpu::TmaAsyncLoadOp::create(b, loc, aDst, bars, descA,
                                  ValueRange{k0, rowA0}, s, Value(), Value());
    Value kRow = ib.add(rowB0, k0);
    for (int64_t box = 0; box < blockN / kWgBoxN; ++box) {
      Value dst = memref::ViewOp::create(
          b, loc, bBoxType, smem,
          stageOffset(s, kWgTileABytes + box * kWgBoxBBytes), ValueRange{});
      nvgpu::TmaAsyncLoadOp::create(b, loc, dst, bars, descB,
                                    ValueRange{ib.add(n0, box * kWgBoxN), kRow},
                                    s, Value(), Value());
    }
  }

  /// A consumer warpgroup (0-based `consumer`; `tid` within it): wgmma on
  /// its 64 rows of every K step, then its part of the epilogue.
  void buildConsumer(Value consumer, Value tid, Value m0, Value n0,
                     Value batchIv) {
    MLIRContext *ctx = b.getContext();
    auto aTileType = smemType({64, kWgBlockK}, mm.inType);
    auto bTileType = smemType({kWgBlockK, blockN}, mm.inType);
    auto accVecType = VectorType::get({64, blockN}, b.getF32Type());
    auto accType = nvgpu::WarpgroupAccumulatorType::get(ctx, accVecType);
    Value lane = ib.rem(tid, 32);
    Value acc0 = nvgpu::WarpgroupMmaInitAccumulatorOp::create(b, loc, accType);
    auto loop =
        scf::ForOp::create(b, loc, ib.c(0), kTiles, ib.c(1), ValueRange{acc0});
    {
      OpBuilder::InsertionGuard g(b);
      b.setInsertionPointToStart(loop.getBody());
      Value kt = loop.getInductionVar();
      Value s = ib.rem(kt, kWgStages);
      nvgpu::MBarrierTryWaitParityOp::create(
          b, loc, bars, parityOf(ib.div(kt, kWgStages)), ib.c(10000000), s);
      // This consumer's 64 rows of the A tile: 64 rows of 128 bytes, whole
      // swizzle atoms.
      Value aTile = memref::ViewOp::create(
          b, loc, aTileType, smem,
          ib.add(stageOffset(s, 0), ib.mul(consumer, 64 * kWgBlockK * 2)),
          ValueRange{});
      Value bTile = memref::ViewOp::create(b, loc, bTileType, smem,
                                           stageOffset(s, kWgTileABytes),
                                           ValueRange{});
      Value dA = nvgpu::WarpgroupGenerateDescriptorOp::create(
          b, loc, nvgpu::WarpgroupMatrixDescriptorType::get(ctx, aTileType),
          aTile, descA);
      Value dB = nvgpu::WarpgroupGenerateDescriptorOp::create(
          b, loc, nvgpu::WarpgroupMatrixDescriptorType::get(ctx, bTileType),
          bTile, descB);
      // B is K x N row-major (MN-major for wgmma): transposeB.
      Value acc = nvgpu::WarpgroupMmaOp::create(
          b, loc, accType, dA, dB, /*waitGroup=*/IntegerAttr(),
          /*transposeA=*/UnitAttr(), /*transposeB=*/b.getUnitAttr(),
          loop.getRegionIterArgs()[0]);
      NVVM::WgmmaWaitGroupSyncOp::create(b, loc, 0);
      // One arrival per warp: the stage may be refilled.
      ifThen(ib.eq(lane, 0), [&] {
        nvgpu::MBarrierArriveOp::create(
            b, loc, nvgpu::MBarrierTokenType::get(ctx), bars,
            ib.add(s, kWgStages));
      });
      scf::YieldOp::create(b, loc, acc);
    }

    // Epilogue. Every consumer is past its last wgmma (and so every load
    // has landed) before the ring is overwritten.
    Value barrierId = i32(1), consumerThreads = i32(128 * kWgConsumers);
    NVVM::BarrierOp::create(b, loc, Type(), barrierId, consumerThreads,
                            NVVM::BarrierReductionAttr(), Value());
    // nvgpu.warpgroup.mma.store numbers rows from threadIdx.x / 32: right
    // for each warpgroup because the warpgroups are threadIdx.y.
    auto accSmemType = smemType({64, blockN}, b.getF32Type());
    Value accSmem = memref::ViewOp::create(
        b, loc, accSmemType, smem,
        ib.add(pad, ib.mul(consumer, 64 * blockN * 4)), ValueRange{});
    nvgpu::WarpgroupMmaStoreOp::create(b, loc, loop.getResult(0), accSmem);
    NVVM::BarrierOp::create(b, loc, Type(), barrierId, consumerThreads,
                            NVVM::BarrierReductionAttr(), Value());
    // Rows by warp, 32 consecutive columns per store: coalesced.
    auto tileSmemType = smemType({kWgBlockM, blockN}, b.getF32Type());
    Value tileSmem =
        memref::ViewOp::create(b, loc, tileSmemType, smem, pad, ValueRange{});
    Value warp = ib.add(ib.mul(consumer, 4), ib.div(tid, 32));
    auto rows = scf::ForOp::create(b, loc, warp, ib.c(kWgBlockM),
                                   ib.c(4 * kWgConsumers));
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(rows.getBody());
    Value r = rows.getInductionVar();
    for (int64_t j = 0; j < blockN / 32; ++j) {
      Value c = ib.add(lane, j * 32);
      Value v = memref::LoadOp::create(b, loc, tileSmem, ValueRange{r, c});
      accumulateIntoC(b, loc, mm, batchIv, ib.add(m0, r), ib.add(n0, c), v);
    }
  }

  static int64_t sharedBytes(int64_t blockN) {
    return std::max(kWgStages * stageBytes(blockN),
                    kWgBlockM * blockN * int64_t(4)) +
           kWgAlign;
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

/// Whether the wgmma kernel takes a matmul of these operand types (TMA needs
/// 16-byte aligned row strides; batches are flattened into rows, which needs
/// whole tiles along M and K).
static bool fitsWgmma(MemRefType aType, MemRefType bType, bool isBatch) {
  if (!aType.getLayout().isIdentity() || !bType.getLayout().isIdentity())
    return false;
  int64_t k = aType.getShape().back(), n = bType.getShape().back();
  if (ShapedType::isDynamic(k) || ShapedType::isDynamic(n) || k % 8 != 0 ||
      n % 8 != 0)
    return false;
  if (!isBatch)
    return true;
  int64_t m = aType.getShape()[aType.getRank() - 2];
  return !ShapedType::isDynamic(m) && m % kWgBlockM == 0 && k % kWgBlockK == 0;
}

/// The runtime function that encodes a 2-D TMA descriptor (128-byte swizzle,
/// zero fill) for a row-major matrix of `elt` and returns its device
/// address: `ampTensorMap2D_<elt>(memref<*xelt>, index boxRows, index
/// boxCols) -> !llvm.ptr`.
static FailureOr<func::FuncOp> getTensorMapFn(Operation *op, Type elt) {
  auto module = op->getParentOfType<ModuleOp>();
  if (!module)
    return op->emitError("amp-gpu-matmul-to-mma: wgmma kernels need an "
                         "enclosing module for their runtime declarations");
  std::string name = elt.isF16() ? "ampTensorMap2D_f16" : "ampTensorMap2D_bf16";
  if (auto fn = module.lookupSymbol<func::FuncOp>(name))
    return fn;
  OpBuilder b(module.getBodyRegion());
  b.setInsertionPointToStart(module.getBody());
  Type index = b.getIndexType();
  auto fn = func::FuncOp::create(
      b, module.getLoc(), name,
      b.getFunctionType(
          {UnrankedMemRefType::get(elt, Attribute()), index, index},
          {LLVM::LLVMPointerType::get(b.getContext())}));
  fn.setPrivate();
  // It reads the descriptor only (pointer, sizes, strides), never device
  // data: no stream synchronization is needed before it.
  fn->setAttr(kHostOnlyAttrName, b.getUnitAttr());
  return fn;
}

/// Reads the operands and sizes of `op`, folds a linalg.fill of C right
/// before it (the usual zero init) into `init`, and leaves the insertion
/// point before `op`.
/// The value of every element of `v` when it is a memref.get_global of a
/// constant f32 global with a splat initializer; null otherwise.
static FloatAttr splatF32Global(Value v) {
  auto getGlobal = v.getDefiningOp<memref::GetGlobalOp>();
  if (!getGlobal)
    return {};
  auto global = SymbolTable::lookupNearestSymbolFrom<memref::GlobalOp>(
      getGlobal, getGlobal.getNameAttr());
  if (!global || !global.getConstant())
    return {};
  auto value =
      dyn_cast_or_null<DenseElementsAttr>(global.getConstantInitValue());
  if (!value || !value.isSplat() || !value.getElementType().isF32())
    return {};
  return value.getSplatValue<FloatAttr>();
}

/// The linalg.generic after `op` that only rounds C (f32) to a 16-bit copy
/// of C's shape, where C is read by nothing else and the copy can be
/// written when `op` runs (its buffer is defined before `op`, or can be
/// moved there, and nothing uses it before the generic). Null otherwise.
static linalg::GenericOp findRoundingCopy(linalg::LinalgOp op) {
  Value c = op.getDpsInits()[0];
  linalg::GenericOp copy;
  for (Operation *user : c.getUsers()) {
    if (user == op.getOperation() || isa<memref::DeallocOp>(user))
      continue;
    auto generic = dyn_cast<linalg::GenericOp>(user);
    if (copy || !generic || generic->getBlock() != op->getBlock() ||
        !op->isBeforeInBlock(generic))
      return {};
    copy = generic;
  }
  if (!copy || !copy.hasPureBufferSemantics() ||
      copy.getNumDpsInputs() != 1 || copy.getNumDpsInits() != 1 ||
      copy.getDpsInputs()[0] != c ||
      copy.getNumParallelLoops() != copy.getNumLoops() ||
      !llvm::all_of(copy.getIndexingMapsArray(),
                    [](AffineMap map) { return map.isIdentity(); }))
    return {};
  Value out = copy.getDpsInits()[0];
  auto cType = cast<MemRefType>(c.getType());
  auto outType = dyn_cast<MemRefType>(out.getType());
  if (!outType || outType.getShape() != cType.getShape() ||
      outType.getMemorySpace() != cType.getMemorySpace() ||
      !(outType.getElementType().isF16() || outType.getElementType().isBF16()))
    return {};
  // The payload: yield (truncf %in).
  Block &body = copy.getRegion().front();
  auto yield = cast<linalg::YieldOp>(body.getTerminator());
  auto trunc = yield.getNumOperands() == 1
                   ? yield.getOperand(0).getDefiningOp<arith::TruncFOp>()
                   : arith::TruncFOp();
  if (!trunc || &body.front() != trunc.getOperation() ||
      trunc.getIn() != body.getArgument(0))
    return {};
  // Nothing may see the copy before the generic would have written it.
  for (Operation *user : out.getUsers())
    if (user != copy.getOperation() && !isa<memref::DeallocOp>(user) &&
        (user->getBlock() != op->getBlock() || user->isBeforeInBlock(copy)))
      return {};
  Operation *def = out.getDefiningOp();
  if (!def)
    return op->getBlock() == cast<BlockArgument>(out).getOwner() ? copy
                                                                  : nullptr;
  if (def->getBlock() == op->getBlock() && def->isBeforeInBlock(op))
    return copy;
  // A buffer allocated between `op` and the generic moves before `op`.
  auto alloc = dyn_cast<memref::AllocOp>(def);
  if (!alloc || alloc->getBlock() != op->getBlock() ||
      !llvm::all_of(alloc->getOperands(), [&](Value v) {
        Operation *d = v.getDefiningOp();
        return !d || d->getBlock() != op->getBlock() || d->isBeforeInBlock(op);
      }))
    return {};
  return copy;
}

MatmulOperands mlir::amp::detail::prepareMatmul(RewriterBase &rewriter,
                                                linalg::LinalgOp op,
                                                Type inType) {
  MatmulOperands mm;
  if (auto fill = dyn_cast_or_null<linalg::FillOp>(op->getPrevNode())) {
    if (fill.hasPureBufferSemantics() &&
        fill.getDpsInits()[0] == op.getDpsInits()[0] &&
        fill.getInputs()[0].getType() == rewriter.getF32Type()) {
      mm.init = fill.getInputs()[0];
      rewriter.eraseOp(fill);
    }
  } else if (auto copy = dyn_cast_or_null<memref::CopyOp>(op->getPrevNode())) {
    // Bufferization writes a constant zero output (`outs(%cst : tensor<..>)`
    // with %cst an arith.constant) as a copy from a constant global: a
    // device-to-device copy and an upload per call, for one value.
    if (FloatAttr splat = splatF32Global(copy.getSource());
        splat && copy.getTarget() == op.getDpsInits()[0]) {
      rewriter.setInsertionPoint(op);
      mm.init = arith::ConstantOp::create(rewriter, op.getLoc(), splat);
      rewriter.eraseOp(copy);
    }
  }
  if (mm.init) {
    if (linalg::GenericOp copy = findRoundingCopy(op)) {
      mm.out16 = copy.getDpsInits()[0];
      if (Operation *def = mm.out16.getDefiningOp();
          def && !(def->getBlock() == op->getBlock() && def->isBeforeInBlock(op)))
        rewriter.moveOpBefore(def, op);
      rewriter.eraseOp(copy);
    }
  }
  rewriter.setInsertionPoint(op);
  IndexBuilder ib{rewriter, op.getLoc()};
  mm.a = op.getDpsInputs()[0];
  mm.b = op.getDpsInputs()[1];
  mm.cMat = op.getDpsInits()[0];
  mm.inType = inType;
  bool isBatch = isa<linalg::BatchMatmulOp>(op.getOperation());
  int64_t off = isBatch ? 1 : 0;
  mm.batch = isBatch ? ib.dim(mm.a, 0) : Value();
  mm.m = ib.dim(mm.a, off);
  mm.k = ib.dim(mm.a, off + 1);
  mm.n = ib.dim(mm.b, off + 1);
  return mm;
}

/// Moves the insertion point into an scf.if that skips empty outputs (a
/// zero-sized grid is a launch error), unless they are statically non-empty.
void mlir::amp::detail::guardNonEmpty(RewriterBase &rewriter,
                                      const MatmulOperands &mm) {
  Location loc = mm.cMat.getLoc();
  IndexBuilder ib{rewriter, loc};
  Value nonEmpty = ib.land(ib.gtZero(mm.m), ib.gtZero(mm.n));
  if (mm.batch)
    nonEmpty = ib.land(nonEmpty, ib.gtZero(mm.batch));
  if (matchPattern(nonEmpty, m_One()))
    return;
  auto guardIf = scf::IfOp::create(rewriter, loc, nonEmpty, false);
  rewriter.setInsertionPointToStart(&guardIf.getThenRegion().front());
}

//===----------------------------------------------------------------------===//
// SIMT FP32 kernel
//===----------------------------------------------------------------------===//

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
  void stage(Value global, Value staged, Value batchIv, Value tid, Value row0,
             Value col0, Value rows, Value cols, int64_t tileCols,
             bool transpose) {
    for (int64_t i = 0; i < kSimtBlock * kSimtBlockK / kSimtThreads; ++i) {
      Value e = ib.add(tid, i * kSimtThreads);
      Value r = ib.div(e, tileCols), c = ib.rem(e, tileCols);
      Value gRow = ib.add(row0, r), gCol = ib.add(col0, c);
      Value valid = ib.land(ib.lt(gRow, rows), ib.lt(gCol, cols));
      auto ifOp = scf::IfOp::create(b, loc, TypeRange{b.getF32Type()}, valid,
                                    /*withElseRegion=*/true);
      {
        OpBuilder::InsertionGuard g(b);
        b.setInsertionPointToStart(&ifOp.getThenRegion().front());
        Value v = memref::LoadOp::create(b, loc, global,
                                         withBatch(batchIv, {gRow, gCol}));
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
      stage(mm.a, tileA, batchIv, tid, m0, k0, mm.m, mm.k, kSimtBlockK,
            /*transpose=*/true);
      stage(mm.b, tileB, batchIv, tid, k0, n0, mm.k, mm.n, kSimtBlock,
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
  rewriter.eraseOp(op);
  return success();
}

LogicalResult mlir::amp::rewriteMatmulToTensorCoreKernel(RewriterBase &rewriter,
                                                         linalg::LinalgOp op,
                                                         MmaKind kind,
                                                         MmaKind *usedKind,
                                                         MmaSyncTiling tiling) {
  Type inType = tensorCoreInputType(op);
  if (!inType)
    return rewriter.notifyMatchFailure(op, "not a f16/bf16 -> f32 matmul");
  Location loc = op.getLoc();
  OpBuilder::InsertionGuard guard(rewriter);
  MatmulOperands mm = prepareMatmul(rewriter, op, inType);
  IndexBuilder ib{rewriter, loc};
  bool isBatch = static_cast<bool>(mm.batch);

  auto aType = cast<MemRefType>(mm.a.getType());
  auto bType = cast<MemRefType>(mm.b.getType());
  if (kind == MmaKind::Wgmma && !fitsWgmma(aType, bType, isBatch))
    kind = MmaKind::MmaSync;
  if (usedKind)
    *usedKind = kind;
  guardNonEmpty(rewriter, mm);

  int64_t blockM = kind == MmaKind::Wgmma ? kWgBlockM : kBlockM;
  int64_t blockN =
      kind == MmaKind::Wgmma ? wgmmaBlockN(bType.getShape().back()) : kBlockN;
  Value gridX = ib.ceilDiv(mm.n, blockN), gridY = ib.ceilDiv(mm.m, blockM);
  Value gridZ = mm.batch ? mm.batch : ib.c(1);
  Value one = ib.c(1);

  if (kind == MmaKind::MmaSync) {
    Value threads = ib.c(kMmaSyncThreads);
    Value shmem = arith::ConstantIntOp::create(
        rewriter, loc, rewriter.getI32Type(), tiling.sharedBytes());
    auto launch = gpu::LaunchOp::create(rewriter, loc, gridX, gridY, gridZ,
                                        threads, one, one, shmem);
    bool async = hasAlignedRows(aType) && hasAlignedRows(bType);
    MmaSyncKernel kernel{rewriter, loc, mm, async, tiling};
    kernel.build(launch);
    rewriter.eraseOp(op);
    return success();
  }

  // wgmma: tensor maps over 2-D views of A and B, created on the host.
  MLIRContext *ctx = rewriter.getContext();
  auto wg = gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup);
  auto mapType = [&](int64_t rows, int64_t cols) {
    return nvgpu::TensorMapDescriptorType::get(
        ctx, MemRefType::get({rows, cols}, inType, AffineMap(), wg),
        nvgpu::TensorMapSwizzleKind::SWIZZLE_128B,
        nvgpu::TensorMapL2PromoKind::L2PROMO_NONE,
        nvgpu::TensorMapOOBKind::OOB_ZERO,
        nvgpu::TensorMapInterleaveKind::INTERLEAVE_NONE);
  };
  auto aMapType = mapType(kWgBlockM, kWgBlockK);
  auto bMapType = mapType(kWgBlockK, kWgBoxN);
  auto flatten = [&](Value v) -> Value {
    if (!isBatch)
      return v;
    return memref::CollapseShapeOp::create(
        rewriter, loc, v, ArrayRef<ReassociationIndices>{{0, 1}, {2}});
  };
  auto unranked = [&](Value v) -> Value {
    return memref::CastOp::create(
        rewriter, loc, UnrankedMemRefType::get(inType, Attribute()), v);
  };
  // The descriptors are built by the runtime (ampTensorMap2D_f16, cached)
  // and reach the kernel as plain pointers: kernel signatures are lowered
  // without the nvgpu type conversions.
  FailureOr<func::FuncOp> encode = getTensorMapFn(op, inType);
  if (failed(encode))
    return failure();
  auto encodeMap = [&](Value v, int64_t rows, int64_t cols) {
    return func::CallOp::create(
               rewriter, loc, *encode,
               ValueRange{unranked(flatten(v)), ib.c(rows), ib.c(cols)})
        .getResult(0);
  };
  Value ptrA = encodeMap(mm.a, kWgBlockM, kWgBlockK);
  Value ptrB = encodeMap(mm.b, kWgBlockK, kWgBoxN);
  Value shmem = arith::ConstantIntOp::create(
      rewriter, loc, rewriter.getI32Type(), WgmmaKernel::sharedBytes(blockN));
  auto launch = gpu::LaunchOp::create(rewriter, loc, gridX, gridY, gridZ,
                                      ib.c(128), ib.c(1 + kWgConsumers), one,
                                      shmem);
  rewriter.setInsertionPointToStart(&launch.getBody().front());
  Value kernelDescA =
      UnrealizedConversionCastOp::create(rewriter, loc, aMapType, ptrA)
          .getResult(0);
  Value kernelDescB =
      UnrealizedConversionCastOp::create(rewriter, loc, bMapType, ptrB)
          .getResult(0);
  WgmmaKernel kernel{rewriter, loc, mm, kernelDescA, kernelDescB, blockN};
  kernel.build(launch);
  rewriter.eraseOp(op);
  return success();
}

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

namespace {
struct AmpGPUMatmulToMmaPass
    : public amp::impl::AmpGPUMatmulToMmaPassBase<AmpGPUMatmulToMmaPass> {
  using Base::Base;

  void runOnOperation() override {
    MmaKind requested = MmaKind::MmaSync;
    bool tensorCores = true;
    if (kind == "mma-sync") {
      requested = MmaKind::MmaSync;
    } else if (kind == "wgmma") {
      requested = MmaKind::Wgmma;
    } else if (kind == "none") {
      tensorCores = false;
    } else {
      getOperation()->emitError()
          << "amp-gpu-matmul-to-mma: unknown kind '" << kind
          << "' (expected mma-sync, wgmma or none)";
      return signalPassFailure();
    }
    MmaSyncTiling tiling{mmaSyncKTile, mmaSyncStages, mmaSyncPrefetch};
    std::string why;
    if (!tiling.isValid(why)) {
      getOperation()->emitError() << "amp-gpu-matmul-to-mma: " << why;
      return signalPassFailure();
    }
    SmallVector<linalg::LinalgOp> matmuls, simt, skinny;
    getOperation()->walk([&](linalg::LinalgOp op) {
      if (op->getParentOfType<gpu::LaunchOp>())
        return;
      // Few rows: the time is reading B, whatever the input type.
      if (isSkinnyMatmul(op, skinnyMaxM) &&
          (matmulInputType(op).isF32() ? simtF32 : tensorCores))
        skinny.push_back(op);
      else if (tensorCores && isTensorCoreMatmul(op))
        matmuls.push_back(op);
      else if (simtF32 && isSimtF32Matmul(op))
        simt.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (linalg::LinalgOp op : skinny) {
      bool fused = false;
      if (failed(rewriteMatmulToSkinnyKernel(rewriter, op, skinnyMaxM, &fused)))
        continue;
      ++numSkinny;
      numFusedRounding += fused;
    }
    for (linalg::LinalgOp op : simt)
      if (succeeded(rewriteMatmulToSimtKernel(rewriter, op)))
        ++numSimt;
    for (linalg::LinalgOp op : matmuls) {
      MmaKind used;
      if (failed(
              rewriteMatmulToTensorCoreKernel(rewriter, op, requested, &used,
                                              tiling)))
        continue;
      if (used == MmaKind::Wgmma)
        ++numWgmma;
      else
        ++numMmaSync;
    }
  }
};
} // namespace
