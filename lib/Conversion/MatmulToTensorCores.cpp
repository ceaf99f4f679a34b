//===- MatmulToTensorCores.cpp - Tensor Core kernels for matmuls ----------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The --amp-gpu-matmul-to-mma pass: which kernel each matmul on memrefs
// gets (skinny, tiled SIMT FP32, mma.sync, wgmma), and the entry points that
// build them. The kernels are in MmaSyncKernel.cpp, WgmmaKernel.cpp,
// SimtMatmulKernel.cpp and SkinnyMatmul.cpp; what they share (operands, fill
// folding, the fused epilogue) in MatmulOperands.cpp and
// MatmulEpilogue.cpp.
//
// linalg.matmul accumulates into its output, so every kernel computes
// C += A * B (or init + A * B when a fill of C is folded in).
//
//===----------------------------------------------------------------------===//

#include "MatmulKernels.h"
#include "amp/Conversion/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
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

/// The FP8 matmuls: the wgmma kernel with e4m3/e5m2 inputs (B K-major),
/// or, when its TMA loads cannot take the operands, nothing (a remark: the
/// generic path computes it, converting in SIMT code).
static LogicalResult rewriteFP8Matmul(RewriterBase &rewriter,
                                      linalg::LinalgOp op, MmaKind kind,
                                      MmaKind *usedKind) {
  if (kind != MmaKind::Wgmma)
    return op->emitError()
           << "amp-gpu-matmul-to-mma: an FP8 matmul needs the wgmma kernel "
              "(kind=wgmma, sm_90a): mma.sync has no FP8 form before sm_89 "
              "and amp does not use it";
  auto aType = cast<MemRefType>(op.getDpsInputs()[0].getType());
  auto bType = cast<MemRefType>(op.getDpsInputs()[1].getType());
  bool isBatch = isa<linalg::BatchMatmulOp>(op.getOperation());
  // Whether the kernel takes it, before anything is changed: FP8 has no
  // other Tensor Core kernel to fall back to.
  bool computeA =
      matchOperandSource(op.getDpsInputs()[0], op, /*affine=*/false).computed();
  bool computeB =
      matchOperandSource(op.getDpsInputs()[1], op, /*affine=*/false).computed();
  if (!fitsWgmma(aType, bType, isBatch, computeA, computeB,
                 /*bKMajor=*/true)) {
    op->emitRemark() << "FP8 matmul not mapped to wgmma (TMA needs static "
                        "K, a multiple of 16, identity layouts, and "
                        "batches without computed operands): computed by a "
                        "SIMT kernel";
    return failure();
  }
  MatmulOperands mm = prepareMatmul(rewriter, op, fp8InputTypes(op).first,
                                    /*affineProducers=*/false);
  if (usedKind)
    *usedKind = MmaKind::Wgmma;
  guardNonEmpty(rewriter, mm);
  if (failed(buildWgmmaLaunch(rewriter, op, mm)))
    return failure();
  finishMatmul(rewriter, op, mm);
  return success();
}

LogicalResult mlir::amp::rewriteMatmulToTensorCoreKernel(RewriterBase &rewriter,
                                                         linalg::LinalgOp op,
                                                         MmaKind kind,
                                                         MmaKind *usedKind,
                                                         MmaSyncTiling tiling) {
  OpBuilder::InsertionGuard outerGuard(rewriter);
  if (isFP8Matmul(op))
    return rewriteFP8Matmul(rewriter, op, kind, usedKind);
  Type inType = tensorCoreInputType(op);
  if (!inType)
    return rewriter.notifyMatchFailure(op, "not a f16/bf16 -> f32 matmul");
  Location loc = op.getLoc();
  OpBuilder::InsertionGuard guard(rewriter);
  auto aType = cast<MemRefType>(op.getDpsInputs()[0].getType());
  auto bType = cast<MemRefType>(op.getDpsInputs()[1].getType());
  bool isBatch = isa<linalg::BatchMatmulOp>(op.getOperation());
  // On sm_90a, casts, transposes and broadcasts producing an operand stay
  // kernels of their own (TMA then loads their buffers), unless the matmul
  // has at most one 128-row block tile of rows (B is then read once, and a
  // 128-row wgmma tile gains little), where the mma.sync kernel evaluates
  // them and saves their kernels. A gather (an implicit GEMM's im2col) is
  // computed by the wgmma kernel's producer warpgroup.
  int64_t m = aType.getDimSize(aType.getRank() - 2);
  bool fewRows = !ShapedType::isDynamic(m) && m <= 128;
  MatmulOperands mm =
      prepareMatmul(rewriter, op, inType,
                    /*affineProducers=*/kind != MmaKind::Wgmma || fewRows);
  IndexBuilder ib{rewriter, loc};
  if (kind == MmaKind::Wgmma) {
    bool affine = (mm.aSrc.computed() && !mm.aSrc.gather) ||
                  (mm.bSrc.computed() && !mm.bSrc.gather);
    if (affine || !fitsWgmma(aType, bType, isBatch, mm.aSrc.computed(),
                             mm.bSrc.computed()))
      kind = MmaKind::MmaSync;
  }
  if (usedKind)
    *usedKind = kind;
  guardNonEmpty(rewriter, mm);

  if (kind == MmaKind::MmaSync) {
    Value gridX = ib.ceilDiv(mm.n, kMmaSyncBlockN);
    Value gridY = ib.ceilDiv(mm.m, kMmaSyncBlockM);
    Value gridZ = mm.batch ? mm.batch : ib.c(1);
    Value one = ib.c(1);
    Value threads = ib.c(kMmaSyncThreads);
    Value shmem = arith::ConstantIntOp::create(
        rewriter, loc, rewriter.getI32Type(), tiling.sharedBytes());
    auto launch = gpu::LaunchOp::create(rewriter, loc, gridX, gridY, gridZ,
                                        threads, one, one, shmem);
    bool asyncA = hasAlignedRows(aType) && !mm.aSrc.computed();
    bool asyncB = hasAlignedRows(bType) && !mm.bSrc.computed();
    buildMmaSyncKernel(rewriter, loc, mm, asyncA, asyncB, tiling, launch);
    nameMatmulKernel(launch, op, mm, "mma_sync");
    finishMatmul(rewriter, op, mm);
    return success();
  }

  if (failed(buildWgmmaLaunch(rewriter, op, mm)))
    return failure();
  finishMatmul(rewriter, op, mm);
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
    if (requested != MmaKind::Wgmma) {
      bool fp8 = false;
      for (linalg::LinalgOp op : matmuls)
        if (isFP8Matmul(op)) {
          op->emitError() << "amp-gpu-matmul-to-mma: an FP8 matmul needs the "
                             "wgmma kernel (kind=wgmma, sm_90a)";
          fp8 = true;
        }
      if (fp8)
        return signalPassFailure();
    }
    for (linalg::LinalgOp op : skinny) {
      if (failed(rewriteMatmulToSkinnyKernel(rewriter, op, skinnyMaxM)))
        continue;
      ++numSkinny;
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
