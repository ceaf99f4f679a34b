//===- MatmulKernels.h - Shared pieces of the matmul kernels ----*- C++ -*-===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// What the kernels of --amp-gpu-matmul-to-mma share: the pass
// (MatmulToTensorCores.cpp), its kernels (MmaSyncKernel.cpp,
// WgmmaKernel.cpp, SimtMatmulKernel.cpp, SkinnyMatmul.cpp), the operands
// of one matmul and where they come from (MatmulOperands.cpp,
// MatmulProducers.cpp), and its fused epilogue (MatmulEpilogue.cpp); the
// row kernels (RowReductions.cpp) read operands the same way. Index
// arithmetic lives here too. The buffer queries that passes about no
// matmul need are in MemRefViews.h. Private to lib/Conversion.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_LIB_CONVERSION_MATMULKERNELS_H
#define AMP_LIB_CONVERSION_MATMULKERNELS_H

#include "MemRefViews.h"

#include "amp/Conversion/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir {
namespace amp {
namespace detail {

//===----------------------------------------------------------------------===//
// Index arithmetic helpers
//===----------------------------------------------------------------------===//

/// A builder with short names for the index arithmetic of the kernels.
struct IndexBuilder {
  OpBuilder &b;
  Location loc;

  Value c(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }
  Value add(Value x, Value y) {
    return b.createOrFold<arith::AddIOp>(loc, x, y);
  }
  Value add(Value x, int64_t y) { return add(x, c(y)); }
  Value sub(Value x, Value y) {
    return b.createOrFold<arith::SubIOp>(loc, x, y);
  }
  Value mul(Value x, int64_t y) {
    return b.createOrFold<arith::MulIOp>(loc, x, c(y));
  }
  Value div(Value x, int64_t y) {
    return b.createOrFold<arith::DivUIOp>(loc, x, c(y));
  }
  Value rem(Value x, int64_t y) {
    return b.createOrFold<arith::RemUIOp>(loc, x, c(y));
  }
  Value ceilDiv(Value x, int64_t y) { return div(add(x, y - 1), y); }
  Value lt(Value x, Value y) {
    return b.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::ult, x, y);
  }
  Value eq(Value x, int64_t y) {
    return b.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::eq, x,
                                         c(y));
  }
  Value gtZero(Value x) {
    return b.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::ugt, x,
                                         c(0));
  }
  Value land(Value x, Value y) {
    return b.createOrFold<arith::AndIOp>(loc, x, y);
  }
  Value select(Value cond, Value x, Value y) {
    return b.createOrFold<arith::SelectOp>(loc, cond, x, y);
  }
  Value dim(Value memref, int64_t i) {
    return b.createOrFold<memref::DimOp>(loc, memref, i);
  }
};

/// Whether `operand` of `op` covers the op's loops one to one: each
/// result of its indexing map is a distinct loop dimension, or the constant
/// 0 for a unit dimension of the operand, and every loop that no result
/// names has one iteration (the `(0, d1, d2, d3)` maps of batch-1 models).
bool isPermutationUpToUnitDims(linalg::LinalgOp op, OpOperand *operand);

/// The loop indices of `op` at `operandIndices` of `operand` (for which
/// isPermutationUpToUnitDims holds); loops no result names are 0.
SmallVector<Value> loopIndicesAt(OpBuilder &b, Location loc,
                                 linalg::LinalgOp op, OpOperand *operand,
                                 ArrayRef<Value> operandIndices);

struct MatmulOperands;

/// Where a kernel loads a matmul operand (A or B) from: its buffer, or the
/// generic that produces it, evaluated at each element the kernel loads
/// (an im2col gather, a cast, a transpose, a broadcast; nested producers
/// too). MatmulProducers.cpp.
struct OperandSource {
  Value buffer;
  Operation *matmul = nullptr;
  /// The generic that writes `buffer`, evaluated where the kernel loads;
  /// null: `buffer` is loaded.
  linalg::GenericOp producer;
  /// The producer of every buffer the evaluation may load (null: load
  /// it), found before the kernel is built.
  DenseMap<Value, linalg::GenericOp> producers;
  /// The producers the emitted loads evaluated (for finishOperandSource).
  mutable SmallVector<linalg::GenericOp> evaluated;
  /// The producer reads its source contiguously along the operand's rows
  /// (a transpose): walk tiles row-fastest for coalesced loads.
  bool rowsContiguous = false;

  /// The producer computes where it reads (an im2col): not a cast,
  /// transpose or broadcast that a kernel of its own could materialize.
  bool gather = false;

  bool computed() const { return static_cast<bool>(producer); }
  /// The operand's element at `indices` (its own indices, batch first).
  Value load(OpBuilder &b, Location loc, ValueRange indices) const;
};

/// The source of `operand` of `matmul`: computed when a generic that the
/// kernel can evaluate at `matmul` produces it.
/// With `affine` false, only gathers (producers that compute where they
/// read, like an im2col) are evaluated; else also casts, transposes and
/// broadcasts of small operands or of operands the kernel reads at most
/// twice (`rereads`: how many block tiles load each element).
OperandSource matchOperandSource(Value operand, Operation *matmul,
                                 bool affine = true, int64_t rereads = 1 << 30);

/// After the kernel is built: erases the producers it evaluated whose
/// buffers nothing reads any more.
void finishOperandSource(RewriterBase &rewriter, const OperandSource &source);
/// The same for the operands of one kernel, each producer once (two
/// operands may have evaluated the same producer).
void finishOperandSources(RewriterBase &rewriter,
                          ArrayRef<const OperandSource *> sources);

/// Stores an epilogue has computed but not emitted yet (to put the
/// computations of several elements before their stores: FP8 results are
/// then converted in pairs, --amp-gpu-lower-fp8).
struct PendingStores {
  struct Store {
    Value value, memref;
    SmallVector<Value> indices;
  };
  SmallVector<Store> stores;
  /// Emits the stores at the insertion point of `b`.
  void emit(OpBuilder &b, Location loc) const;
};

/// An elementwise linalg.generic that reads a matmul's result C (through
/// reshapes, with a permutation map), computed in the matmul kernel's
/// epilogue instead of a kernel of its own (MatmulEpilogue.cpp).
struct MatmulEpilogue {
  linalg::GenericOp consumer;
  /// The consumer's input that reads C.
  OpOperand *cOperand = nullptr;
  /// Whether something else reads C too: the kernel then also stores C.
  bool storeC = false;
  /// Where the consumer's other inputs are loaded from (by operand number;
  /// producers evaluated like a matmul's operands').
  DenseMap<unsigned, OperandSource> inputs;

  /// Emits, for element (batch, row, col) of C whose final value is `sum`,
  /// the consumer's computation of the element that reads it: its other
  /// inputs loaded, its payload, its outputs stored (and C when storeC).
  /// With `pending`, the stores are added to it instead.
  void emit(OpBuilder &b, Location loc, const MatmulOperands &mm, Value batchIv,
            Value row, Value col, Value sum,
            PendingStores *pending = nullptr) const;

  /// Whether the consumer writes an FP8 output (the narrowing of the next
  /// FP8 contraction's operand).
  bool writesFP8() const;
};

/// The consumer of `op`'s result that the epilogue can compute, if any: the
/// first all-parallel linalg.generic after `op` reading C, such that
/// nothing in between writes what it reads or touches what it writes.
/// Moves the buffers and views it uses before `op`.
std::optional<MatmulEpilogue> matchEpilogue(RewriterBase &rewriter,
                                            linalg::LinalgOp op);

/// After the kernel is built: erases the consumer, and C's buffer when
/// nothing reads it any more.
void finishEpilogue(RewriterBase &rewriter, const MatmulEpilogue &epilogue,
                    Value c);

/// The operands and sizes of one matmul, seen from inside the kernel.
struct MatmulOperands {
  Value a, b, cMat;
  Value m, n, k;
  /// Null for linalg.matmul.
  Value batch;
  /// The element type of A, and of B (they differ only for FP8: e4m3 and
  /// e5m2).
  Type inType, bInType;
  /// B is stored K-major, N x K (FP8 matmuls); else K x N.
  bool bKMajor = false;
  /// The value a linalg.fill right before the matmul wrote into C (the
  /// usual zero init): the kernel then writes `init + A*B` without reading
  /// C, and the fill is gone. Null: C += A*B.
  Value init;
  /// The elementwise consumer of C computed in the epilogue.
  std::optional<MatmulEpilogue> epilogue;
  /// Where A and B are loaded from.
  OperandSource aSrc, bSrc;
};

/// Indices of an A, B or C element for the (optional) batch index.
inline SmallVector<Value> withBatch(Value batchIv, ValueRange ij) {
  SmallVector<Value> idx;
  if (batchIv)
    idx.push_back(batchIv);
  idx.append(ij.begin(), ij.end());
  return idx;
}

/// Writes `acc` plus the current C[row, col] (or the fill value) when (row,
/// col) is inside C: into C, or through the fused epilogue.
void accumulateIntoC(OpBuilder &b, Location loc, const MatmulOperands &mm,
                     Value batchIv, Value row, Value col, Value acc);

/// The same for an element known to be inside C (no bounds check), with
/// its stores added to `pending`.
void accumulateIntoCInBounds(OpBuilder &b, Location loc,
                             const MatmulOperands &mm, Value batchIv, Value row,
                             Value col, Value acc, PendingStores &pending);

/// The (row, column) block tile of the current block, in a grouped order:
/// consecutive blocks walk kGroupRows rows of tiles column by column, so
/// that the blocks resident at a time share rows of A and columns of B in
/// L2 (a row-major order would stream all of B for every row of tiles).
std::pair<Value, Value> groupedTile(IndexBuilder &ib, gpu::LaunchOp launch);

/// Whether every row of `type` starts 16-byte aligned (given a 16-byte
/// aligned base pointer), so that 8 x 16-bit elements can be copied at once.
bool hasAlignedRows(MemRefType type);

/// The element type of A and B when `op` is a Tensor Core matmul (f16 or
/// bf16 inputs, f32 output); null otherwise.
Type tensorCoreInputType(linalg::LinalgOp op);

/// The element types of A and B (f8E4M3FN or f8E5M2) when `op` is an FP8
/// matmul (isFP8Matmul); nulls otherwise.
std::pair<Type, Type> fp8InputTypes(linalg::LinalgOp op);

//===----------------------------------------------------------------------===//
// The kernels
//===----------------------------------------------------------------------===//

/// The mma.sync kernel's block tile and threads (the grid's shape). A and B
/// are staged with cp.async when `asyncA` / `asyncB` (a buffer with 16-byte
/// aligned rows), else element by element through their OperandSource.
constexpr int64_t kMmaSyncBlockM = 128, kMmaSyncBlockN = 256;
constexpr int64_t kMmaSyncThreads = 512;

/// Builds the mma.sync kernel in `launch` (grid: N / 256, M / 128, batch;
/// kMmaSyncThreads threads; tiling.sharedBytes() of dynamic shared memory).
void buildMmaSyncKernel(OpBuilder &b, Location loc, const MatmulOperands &mm,
                        bool asyncA, bool asyncB, MmaSyncTiling tiling,
                        gpu::LaunchOp launch);

/// Whether the wgmma kernel takes a matmul of these operand types (TMA needs
/// 16-byte aligned row strides of what it loads; batches are flattened into
/// rows, which needs whole tiles along M and K and no computed operand).
/// `bKMajor`: an FP8 matmul (B is N x K; K is the inner dimension of both
/// operands, so flattened batches need no whole tiles).
bool fitsWgmma(MemRefType aType, MemRefType bType, bool isBatch,
               bool computeA = false, bool computeB = false,
               bool bKMajor = false);

/// Builds the host calls that make A's and B's TMA descriptors and the
/// launch of the wgmma kernel at the rewriter's insertion point.
LogicalResult buildWgmmaLaunch(RewriterBase &rewriter, Operation *op,
                               const MatmulOperands &mm);

/// The element type of A and B when `op` is a linalg.matmul or
/// linalg.batch_matmul on memrefs with default maps, A and B of one type
/// among f16, bf16 and f32, and C of f32; null otherwise.
Type matmulInputType(linalg::LinalgOp op);

/// Reads the operands and sizes of `op`, folds a linalg.fill of C right
/// before it (the usual zero init) into `init`, finds the elementwise
/// consumer the epilogue computes, and leaves the insertion point before
/// `op`.
/// With `affineProducers` false, only gathers (an im2col) are evaluated in
/// the operand loads, not casts, transposes and broadcasts: the wgmma
/// kernel's TMA loads need buffers.
MatmulOperands prepareMatmul(RewriterBase &rewriter, linalg::LinalgOp op,
                             Type inType, bool affineProducers = true);

/// Sets amp.kernel on `launch`: what `op` is (a matmul, a batch matmul, or
/// the convolution it came from), the kernel `kind` and the fused epilogue
/// ("conv2d_mma_sync_bias_relu").
void nameMatmulKernel(gpu::LaunchOp launch, linalg::LinalgOp op,
                      const MatmulOperands &mm, StringRef kind);

/// Erases `op` once its kernel is built, and what the epilogue replaced.
void finishMatmul(RewriterBase &rewriter, linalg::LinalgOp op,
                  const MatmulOperands &mm);

/// Moves the insertion point into an scf.if that skips empty outputs (a
/// zero-sized grid is a launch error), unless they are statically non-empty.
void guardNonEmpty(RewriterBase &rewriter, const MatmulOperands &mm);

} // namespace detail
} // namespace amp
} // namespace mlir

#endif // AMP_LIB_CONVERSION_MATMULKERNELS_H
