//===- WgmmaKernel.cpp - The wgmma Tensor Core matmul kernel (sm_90a) -----===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A 128x256 block tile (128x128 for narrow matmuls), warp-specialized: a
// producer warpgroup streams K steps of 128 bytes (64 f16/bf16 or 128 FP8
// elements) with TMA (128-byte swizzle, zero fill out of bounds) into a
// 4-stage ring guarded by full/empty mbarriers, two consumer warpgroups
// multiply 64 rows each with m64nNk16 (f16/bf16) or m64nNk32 (e4m3/e5m2)
// warpgroup.mma (registers moved from the producer with setmaxnreg), then
// stage the accumulators through shared memory for coalesced, masked
// stores (the epilogue of MatmulEpilogue.cpp).
//
// f16/bf16: A (M x K) and B (K x N) row-major, B MN-major for wgmma
// (transposed by the instruction). FP8: the PTX ISA has no transpose for
// the e4m3/e5m2 forms ("wgmma.mma_async": imm-trans-a/b exist for .f16 and
// .bf16 only), so B must be K-major in shared memory: FP8 mixed precision
// stores B as N x K (docs/fp8.md), TMA loads 128-byte rows of K for both
// operands, and each K step is four k32 wgmmas whose descriptors start 32
// bytes further into the swizzled rows.
//
//===----------------------------------------------------------------------===//

#include "KernelSupport.h"
#include "MatmulKernels.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

using namespace mlir;
using namespace mlir::amp;
using namespace mlir::amp::detail;

namespace {

//===----------------------------------------------------------------------===//
// wgmma kernel
//===----------------------------------------------------------------------===//

constexpr int64_t kWgBlockM = 128;
/// Bytes of K per stage: one 128-byte swizzle row (64 f16/bf16, 128 FP8).
constexpr int64_t kWgRowBytes = 128;
/// 16-bit B (K x N) arrives in boxes of 64 columns: one 128-byte swizzle
/// row of 16-bit elements.
constexpr int64_t kWgBoxN = 64;
constexpr int64_t kWgStages = 4;
/// Warpgroups that compute (64 rows of the block tile each) after the one
/// that loads.
constexpr int64_t kWgConsumers = 2;
/// Threads: 128 x (1 + kWgConsumers), threadIdx.y the warpgroup.
/// Registers per thread after setmaxnreg: the producer gives up what the
/// consumers' 64 x N accumulators need (40 * 128 + 232 * 256 <= 64K).
constexpr int64_t kWgProducerRegs = 40, kWgConsumerRegs = 232;
constexpr int64_t kWgTileABytes = kWgBlockM * kWgRowBytes; // 16 KiB
/// Slack to align the ring to 1024 bytes (128-byte swizzle atoms).
constexpr int64_t kWgAlign = 1024;

/// The block tile's width: 256 columns (one m64n256k16 wgmma per consumer
/// and K step) unless the matmul is narrower.
static int64_t wgmmaBlockN(int64_t n) {
  return !ShapedType::isDynamic(n) && n <= 128 ? 128 : 256;
}

/// Bytes of an element of the input type (2 for f16/bf16, 1 for FP8).
static int64_t elementBytes(Type t) { return t.getIntOrFloatBitWidth() / 8; }

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
  /// K elements per stage (a 128-byte row) and per wgmma instruction.
  int64_t blockK = kWgRowBytes / elementBytes(mm.inType);
  int64_t mmaK = 32 / elementBytes(mm.inType);
  /// A or B computed by the producer warpgroup (an implicit GEMM's gather)
  /// instead of loaded by TMA.
  bool computeA = mm.aSrc.computed(), computeB = mm.bSrc.computed();
  bool computes() const { return computeA || computeB; }

  // What the producer and the consumers share, set by build().
  Value smem;   // the dynamic shared memory, bytes
  Value pad;    // bytes from its start to the 1024-byte aligned ring
  Value bars;   // barriers 0..S-1: stage full; S..2S-1: stage empty
  Value kTiles; // K steps of blockK


  /// The byte offset of `within` in ring stage `s`.
  Value stageOffset(Value s, int64_t within) {
    return ib.add(ib.add(pad, ib.mul(s, stageBytes(blockN))), within);
  }

  /// The mbarrier parity of a ring round.
  Value parityOf(Value round) {
    return arith::IndexCastOp::create(b, loc, b.getI1Type(), ib.rem(round, 2));
  }

  /// A's 128 rows and B's blockN columns of 128 bytes of K each.
  static int64_t stageBytes(int64_t blockN) {
    return kWgTileABytes + blockN * kWgRowBytes;
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
      rowB0 =
          b.createOrFold<arith::MulIOp>(loc, batchIv, mm.bKMajor ? mm.n : mm.k);
    }
    auto wg = gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup);
    smem = dynamicSharedMemory(b, loc);
    Value base = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, smem);
    pad = ib.rem(ib.sub(ib.c(kWgAlign), ib.rem(base, kWgAlign)), kWgAlign);

    auto barType = nvgpu::MBarrierGroupType::get(ctx, wg, 2 * kWgStages);
    bars = nvgpu::MBarrierCreateOp::create(b, loc, barType);
    Value isFirstThread = ib.land(ib.eq(tid, 0), ib.eq(warpgroup, 0));
    // "full": the TMA thread's arrival (with the transaction bytes), and
    // one per producer thread when they store a computed operand.
    int64_t fullArrivals = computes() ? 1 + 128 : 1;
    ifThen(isFirstThread, [&] {
      for (int64_t s = 0; s < kWgStages; ++s) {
        nvgpu::MBarrierInitOp::create(b, loc, bars, ib.c(fullArrivals),
                                      ib.c(s), Value());
        nvgpu::MBarrierInitOp::create(b, loc, bars, ib.c(4 * kWgConsumers),
                                      ib.c(kWgStages + s), Value());
      }
    });
    gpu::BarrierOp::create(b, loc);

    kTiles = ib.ceilDiv(mm.k, blockK);

    // Producer: warpgroup 0; one thread issues the TMA loads, all of them
    // compute a computed operand.
    ifThen(ib.eq(warpgroup, 0), [&] {
      NVVM::SetMaxRegisterOp::create(b, loc, kWgProducerRegs,
                                     NVVM::SetMaxRegisterAction::decrease);
      if (computes())
        buildProducer(rowA0, rowB0, m0, n0, tid);
      else
        ifThen(ib.eq(tid, 0), [&] { buildProducer(rowA0, rowB0, m0, n0, tid); });
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

  /// The producer's loop: TMA loads of every K step (thread 0), and the
  /// computed operands' tiles (every producer thread, when there are any).
  void buildProducer(Value rowA0, Value rowB0, Value m0, Value n0,
                     Value tid) {
    auto aTileType = workgroupMemRefType({kWgBlockM, blockK}, mm.inType);
    // B: 16-bit K x N in boxes of 64 columns, or FP8 N x K in one box.
    auto bBoxType = mm.bKMajor ? workgroupMemRefType({blockN, blockK}, mm.bInType)
                               : workgroupMemRefType({blockK, kWgBoxN}, mm.inType);
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
    Value k0 = ib.mul(kt, blockK);
    int64_t txBytes =
        (computeA ? 0 : kWgTileABytes) + (computeB ? 0 : blockN * kWgRowBytes);
    auto issueLoads = [&] {
      if (txBytes)
        nvgpu::MBarrierArriveExpectTxOp::create(b, loc, bars, ib.c(txBytes),
                                                s, Value());
      else
        nvgpu::MBarrierArriveOp::create(
            b, loc, nvgpu::MBarrierTokenType::get(b.getContext()), bars, s);
      if (!computeA) {
        Value aDst = memref::ViewOp::create(b, loc, aTileType, smem,
                                            stageOffset(s, 0), ValueRange{});
        // TMA coordinates are innermost first.
        nvgpu::TmaAsyncLoadOp::create(b, loc, aDst, bars, descA,
                                      ValueRange{k0, rowA0}, s, Value(),
                                      Value());
      }
      if (!computeB && mm.bKMajor) {
        Value dst =
            memref::ViewOp::create(b, loc, bBoxType, smem,
                                   stageOffset(s, kWgTileABytes), ValueRange{});
        nvgpu::TmaAsyncLoadOp::create(b, loc, dst, bars, descB,
                                      ValueRange{k0, ib.add(rowB0, n0)}, s,
                                      Value(), Value());
      } else if (!computeB) {
        Value kRow = ib.add(rowB0, k0);
        for (int64_t box = 0; box < blockN / kWgBoxN; ++box) {
          Value dst = memref::ViewOp::create(
              b, loc, bBoxType, smem,
              stageOffset(s, kWgTileABytes + box * blockK * kWgRowBytes),
              ValueRange{});
          nvgpu::TmaAsyncLoadOp::create(
              b, loc, dst, bars, descB,
              ValueRange{ib.add(n0, box * kWgBoxN), kRow}, s, Value(),
              Value());
        }
      }
    };
    if (!computes()) {
      issueLoads();
      return;
    }
    ifThen(ib.eq(tid, 0), issueLoads);
    if (computeA)
      storeComputedTile(mm.aSrc, mm.inType, s, /*offset=*/0, kWgBlockM, blockK,
                        m0, k0, mm.m, mm.k, tid, /*boxCols=*/blockK);
    if (computeB && mm.bKMajor)
      storeComputedTile(mm.bSrc, mm.bInType, s, kWgTileABytes, blockN, blockK,
                        n0, k0, mm.n, mm.k, tid, /*boxCols=*/blockK);
    else if (computeB)
      storeComputedTile(mm.bSrc, mm.inType, s, kWgTileABytes, blockK, blockN,
                        k0, n0, mm.k, mm.n, tid, /*boxCols=*/kWgBoxN);
    // The generic-proxy stores, visible to wgmma's async proxy; then this
    // thread's arrival.
    NVVM::FenceProxyOp::create(
        b, loc, NVVM::ProxyKind::async_shared,
        NVVM::SharedSpaceAttr::get(b.getContext(),
                                   NVVM::SharedSpace::shared_cta));
    nvgpu::MBarrierArriveOp::create(
        b, loc, nvgpu::MBarrierTokenType::get(b.getContext()), bars, s);
  }

  /// The producer warpgroup's 128 threads compute a rows x cols tile of a
  /// computed operand (of element type `elt`; zero outside it) and store it
  /// where TMA would have: boxes of `boxCols` columns (128 bytes a row),
  /// rows in 128-byte swizzle atoms (16-byte chunk c of row r at chunk
  /// c ^ (r % 8)).
  void storeComputedTile(const OperandSource &src, Type elt, Value s,
                         int64_t offset, int64_t rows, int64_t cols, Value row0,
                         Value col0, Value numRows, Value numCols, Value tid,
                         int64_t boxCols) {
    int64_t elements = rows * cols;
    int64_t chunkElems = 16 / elementBytes(elt);
    auto tileType = workgroupMemRefType({elements}, elt);
    Value tile = memref::ViewOp::create(b, loc, tileType, smem,
                                        stageOffset(s, offset), ValueRange{});
    // Box, row within it, swizzled 16-byte chunk, element.
    auto swizzled = [&](Value r, Value c) {
      Value box = ib.div(c, boxCols), within = ib.rem(c, boxCols);
      Value chunk = b.createOrFold<arith::XOrIOp>(
          loc, ib.div(within, chunkElems), ib.rem(r, 8));
      Value index =
          ib.add(ib.add(ib.mul(box, rows * boxCols), ib.mul(r, boxCols)),
                 ib.add(ib.mul(chunk, chunkElems), ib.rem(within, chunkElems)));
      return SmallVector<Value>{index};
    };
    stageMaskedTile(b, loc,
                    {src, elt, /*batchIv=*/Value(), row0, col0, numRows,
                     numCols, rows, cols},
                    tid, 128, TileCopy::Loop, tile, swizzled);
  }

  /// A consumer warpgroup (0-based `consumer`; `tid` within it): wgmma on
  /// its 64 rows of every K step, then its part of the epilogue.
  void buildConsumer(Value consumer, Value tid, Value m0, Value n0,
                     Value batchIv) {
    MLIRContext *ctx = b.getContext();
    auto aTileType = workgroupMemRefType({64, blockK}, mm.inType);
    auto bTileType = workgroupMemRefType({blockK, blockN}, mm.inType);
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
      Value aTileOffset =
          ib.add(stageOffset(s, 0), ib.mul(consumer, 64 * kWgRowBytes));
      Value acc = loop.getRegionIterArgs()[0];
      if (mm.bKMajor) {
        acc = buildFP8Step(aTileOffset, stageOffset(s, kWgTileABytes), accType,
                           acc);
      } else {
        Value aTile = memref::ViewOp::create(b, loc, aTileType, smem,
                                             aTileOffset, ValueRange{});
        Value bTile =
            memref::ViewOp::create(b, loc, bTileType, smem,
                                   stageOffset(s, kWgTileABytes), ValueRange{});
        Value dA = nvgpu::WarpgroupGenerateDescriptorOp::create(
            b, loc, nvgpu::WarpgroupMatrixDescriptorType::get(ctx, aTileType),
            aTile, descA);
        Value dB = nvgpu::WarpgroupGenerateDescriptorOp::create(
            b, loc, nvgpu::WarpgroupMatrixDescriptorType::get(ctx, bTileType),
            bTile, descB);
        // B is K x N row-major (MN-major for wgmma): transposeB.
        acc = nvgpu::WarpgroupMmaOp::create(
            b, loc, accType, dA, dB, /*waitGroup=*/IntegerAttr(),
            /*transposeA=*/UnitAttr(), /*transposeB=*/b.getUnitAttr(), acc);
      }
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
    auto accSmemType = workgroupMemRefType({64, blockN}, b.getF32Type());
    Value accSmem = memref::ViewOp::create(
        b, loc, accSmemType, smem,
        ib.add(pad, ib.mul(consumer, 64 * blockN * 4)), ValueRange{});
    nvgpu::WarpgroupMmaStoreOp::create(b, loc, loop.getResult(0), accSmem);
    NVVM::BarrierOp::create(b, loc, Type(), barrierId, consumerThreads,
                            NVVM::BarrierReductionAttr(), Value());
    // Rows by warp, 32 consecutive columns per store: coalesced.
    auto tileSmemType = workgroupMemRefType({kWgBlockM, blockN}, b.getF32Type());
    Value tileSmem =
        memref::ViewOp::create(b, loc, tileSmemType, smem, pad, ValueRange{});
    Value warp = ib.add(ib.mul(consumer, 4), ib.div(tid, 32));
    auto rows = scf::ForOp::create(b, loc, warp, ib.c(kWgBlockM),
                                   ib.c(4 * kWgConsumers));
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(rows.getBody());
    Value r = rows.getInductionVar();
    auto checkedRow = [&] {
      for (int64_t j = 0; j < blockN / 32; ++j) {
        Value c = ib.add(lane, j * 32);
        Value v = memref::LoadOp::create(b, loc, tileSmem, ValueRange{r, c});
        accumulateIntoC(b, loc, mm, batchIv, ib.add(m0, r), ib.add(n0, c), v);
      }
    };
    if (!mm.epilogue || !mm.epilogue->writesFP8()) {
      checkedRow();
      return;
    }
    // An epilogue that narrows to FP8: in rows of the tile that lie inside
    // C entirely, the lane's elements are computed first and stored after,
    // without bounds checks, so that --amp-gpu-lower-fp8 converts them in
    // pairs (cvt.rn.satfinite.e4m3x2.f32 takes two values); other rows
    // check each element.
    Value inside =
        ib.land(ib.lt(ib.add(m0, r), mm.m),
                arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ule,
                                      ib.add(n0, blockN), mm.n));
    auto ifOp = scf::IfOp::create(b, loc, inside, /*withElseRegion=*/true);
    b.setInsertionPointToStart(&ifOp.getThenRegion().front());
    PendingStores pending;
    for (int64_t j = 0; j < blockN / 32; ++j) {
      Value c = ib.add(lane, j * 32);
      Value v = memref::LoadOp::create(b, loc, tileSmem, ValueRange{r, c});
      accumulateIntoCInBounds(b, loc, mm, batchIv, ib.add(m0, r), ib.add(n0, c),
                              v, pending);
    }
    pending.emit(b, loc);
    b.setInsertionPointToStart(&ifOp.getElseRegion().front());
    checkedRow();
  }

  /// One K step of an FP8 matmul for a consumer: A (its 64 rows) and B
  /// (blockN rows) are K-major, 128 bytes of K a row; four m64nNk32 wgmmas,
  /// the i-th with both descriptors starting 32 * i bytes into the rows (the
  /// hardware applies the 128-byte swizzle to the addresses it forms, as
  /// TMA did when it stored them). nvgpu.warpgroup.mma would step B's
  /// descriptor by whole K x N rows (its B is K x N), so each wgmma is an
  /// op of its own with a k32 shape; they are all issued before the wait
  /// that follows the step.
  Value buildFP8Step(Value aTileOffset, Value bTileOffset,
                     nvgpu::WarpgroupAccumulatorType accType, Value acc) {
    MLIRContext *ctx = b.getContext();
    auto aType = workgroupMemRefType({64, mmaK}, mm.inType);
    auto bType = workgroupMemRefType({mmaK, blockN}, mm.bInType);
    int64_t steps = blockK / mmaK;
    for (int64_t i = 0; i < steps; ++i) {
      int64_t bytes = i * mmaK * elementBytes(mm.inType);
      Value aView = memref::ViewOp::create(
          b, loc, aType, smem, ib.add(aTileOffset, bytes), ValueRange{});
      Value bView = memref::ViewOp::create(
          b, loc, bType, smem, ib.add(bTileOffset, bytes), ValueRange{});
      Value dA = nvgpu::WarpgroupGenerateDescriptorOp::create(
          b, loc, nvgpu::WarpgroupMatrixDescriptorType::get(ctx, aType), aView,
          descA);
      Value dB = nvgpu::WarpgroupGenerateDescriptorOp::create(
          b, loc, nvgpu::WarpgroupMatrixDescriptorType::get(ctx, bType), bView,
          descB);
      // No transposeB: B "column-major" for NVVM, i.e. K-major, the only
      // layout of the FP8 forms (no imm-trans operands in the PTX).
      acc = nvgpu::WarpgroupMmaOp::create(
          b, loc, accType, dA, dB,
          /*waitGroup=*/b.getI64IntegerAttr(steps - 1),
          /*transposeA=*/UnitAttr(), /*transposeB=*/UnitAttr(), acc);
    }
    return acc;
  }

  static int64_t sharedBytes(int64_t blockN) {
    return std::max(kWgStages * stageBytes(blockN),
                    kWgBlockM * blockN * int64_t(4)) +
           kWgAlign;
  }
};

} // namespace

/// Whether the wgmma kernel takes a matmul of these operand types (TMA needs
/// 16-byte aligned row strides; batches are flattened into rows, which needs
/// whole tiles along M and K).
bool mlir::amp::detail::fitsWgmma(MemRefType aType, MemRefType bType,
                                  bool isBatch, bool computeA, bool computeB,
                                  bool bKMajor) {
  // TMA needs identity layouts and 16-byte aligned row strides for what it
  // loads; a computed operand is stored by the kernel itself.
  if (!aType.getLayout().isIdentity() || !bType.getLayout().isIdentity())
    return false;
  if (bKMajor) {
    // FP8: K is the rows of both (1-byte elements); flattened batches only
    // spill into rows and columns of C the epilogue masks, and K is zero
    // filled past its end.
    int64_t k = aType.getShape().back();
    if (ShapedType::isDynamic(k) || bType.getShape().back() != k ||
        (!(computeA && computeB) && k % 16 != 0))
      return false;
    return !isBatch || (!computeA && !computeB);
  }
  int64_t k = aType.getShape().back(), n = bType.getShape().back();
  if (ShapedType::isDynamic(k) || ShapedType::isDynamic(n) ||
      (!computeA && k % 8 != 0) || (!computeB && n % 8 != 0))
    return false;
  if (!isBatch)
    return true;
  // Batches are flattened into the rows of the TMA views.
  if (computeA || computeB)
    return false;
  int64_t m = aType.getShape()[aType.getRank() - 2];
  return !ShapedType::isDynamic(m) && m % kWgBlockM == 0 &&
         k % (kWgRowBytes / 2) == 0;
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
  std::string name = "ampTensorMap2D_";
  llvm::raw_string_ostream os(name);
  elt.print(os); // f16, bf16, f8E4M3FN, f8E5M2
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

LogicalResult mlir::amp::detail::buildWgmmaLaunch(RewriterBase &rewriter,
                                                  Operation *op,
                                                  const MatmulOperands &mm) {
  Location loc = op->getLoc();
  IndexBuilder ib{rewriter, loc};
  Type inType = mm.inType;
  bool isBatch = static_cast<bool>(mm.batch);
  auto bType = cast<MemRefType>(mm.b.getType());
  int64_t blockN =
      wgmmaBlockN(bType.getDimSize(bType.getRank() - (mm.bKMajor ? 2 : 1)));
  int64_t blockK = kWgRowBytes / elementBytes(inType);
  Value gridX = ib.ceilDiv(mm.n, blockN), gridY = ib.ceilDiv(mm.m, kWgBlockM);
  Value gridZ = mm.batch ? mm.batch : ib.c(1);
  Value one = ib.c(1);
  // wgmma: tensor maps over 2-D views of A and B, created on the host.
  MLIRContext *ctx = rewriter.getContext();
  auto mapType = [&](int64_t rows, int64_t cols, Type elt) {
    return nvgpu::TensorMapDescriptorType::get(
        ctx, workgroupMemRefType({rows, cols}, elt),
        nvgpu::TensorMapSwizzleKind::SWIZZLE_128B,
        nvgpu::TensorMapL2PromoKind::L2PROMO_NONE,
        nvgpu::TensorMapOOBKind::OOB_ZERO,
        nvgpu::TensorMapInterleaveKind::INTERLEAVE_NONE);
  };
  // A: 128 rows of 128 bytes of K. B: 16-bit K x N in boxes of 64 columns,
  // or FP8 N x K in one box of blockN rows of 128 bytes of K.
  int64_t bBoxRows = mm.bKMajor ? blockN : blockK;
  int64_t bBoxCols = mm.bKMajor ? blockK : kWgBoxN;
  auto aMapType = mapType(kWgBlockM, blockK, inType);
  auto bMapType = mapType(bBoxRows, bBoxCols, mm.bInType);
  auto flatten = [&](Value v) -> Value {
    if (!isBatch)
      return v;
    return memref::CollapseShapeOp::create(
        rewriter, loc, v, ArrayRef<ReassociationIndices>{{0, 1}, {2}});
  };
  auto unranked = [&](Value v) -> Value {
    Type elt = cast<MemRefType>(v.getType()).getElementType();
    return memref::CastOp::create(rewriter, loc,
                                  UnrankedMemRefType::get(elt, Attribute()), v);
  };
  // The descriptors are built by the runtime (ampTensorMap2D_f16, cached)
  // and reach the kernel as plain pointers: kernel signatures are lowered
  // without the nvgpu type conversions.
  auto encodeMap = [&](Value v, int64_t rows, int64_t cols) -> Value {
    FailureOr<func::FuncOp> encode =
        getTensorMapFn(op, cast<MemRefType>(v.getType()).getElementType());
    if (failed(encode))
      return {};
    return func::CallOp::create(
               rewriter, loc, *encode,
               ValueRange{unranked(flatten(v)), ib.c(rows), ib.c(cols)})
        .getResult(0);
  };
  // A computed operand has no tensor map; the kernel's descriptors still
  // need one of its type (for the swizzle mode), never read.
  Value ptrA, ptrB;
  if (!mm.aSrc.computed() && !(ptrA = encodeMap(mm.a, kWgBlockM, blockK)))
    return failure();
  if (!mm.bSrc.computed() && !(ptrB = encodeMap(mm.b, bBoxRows, bBoxCols)))
    return failure();
  if (!ptrA)
    ptrA = ptrB;
  if (!ptrB)
    ptrB = ptrA;
  if (!ptrA)
    ptrA = ptrB = LLVM::ZeroOp::create(rewriter, loc,
                                       LLVM::LLVMPointerType::get(ctx));
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
  std::string kind = "wgmma";
  if (mm.bKMajor) {
    llvm::raw_string_ostream os(kind);
    os << "_" << (isa<Float8E4M3FNType>(inType) ? "e4m3" : "e5m2");
  }
  nameMatmulKernel(launch, cast<linalg::LinalgOp>(op), mm, kind);
  return success();
}
