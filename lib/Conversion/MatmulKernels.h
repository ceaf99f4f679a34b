//===- MatmulKernels.h - The matmul kernels and what they share -*- C++ -*-===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// What the kernels of --amp-gpu-matmul-to-mma share, matmuls only. In
// layers, each calling only the ones below it:
//
//  - the pass (MatmulToTensorCores.cpp) and the SIMT kernel's rewrite;
//  - the kernels: MmaSyncKernel.cpp, WgmmaKernel.cpp, SimtMatmulKernel.cpp,
//    SkinnyMatmul.cpp;
//  - the driver (MatmulOperands.cpp): which matmuls the kernels take, the
//    operands and sizes of one (prepareMatmul, with the fill folded into
//    the kernel), what the kernel replaced (finishMatmul), the grouped
//    block order and the kernel's name;
//  - the epilogue (MatmulEpilogue.cpp): the writes of C and the elementwise
//    consumer of C computed there;
//  - what kernels share beyond matmuls (KernelSupport.h: index arithmetic,
//    shared memory, the operand sources of OperandSource.cpp, masked tile
//    staging) and the buffer queries (MemRefViews.h).
//
// Private to lib/Conversion.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_LIB_CONVERSION_MATMULKERNELS_H
#define AMP_LIB_CONVERSION_MATMULKERNELS_H

#include "KernelSupport.h"

#include "amp/Conversion/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir {
namespace amp {
namespace detail {

struct MatmulOperands;

//===----------------------------------------------------------------------===//
// The epilogue (MatmulEpilogue.cpp)
//===----------------------------------------------------------------------===//

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

//===----------------------------------------------------------------------===//
// One matmul's operands
//===----------------------------------------------------------------------===//

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

//===----------------------------------------------------------------------===//
// The writes of C (MatmulEpilogue.cpp)
//===----------------------------------------------------------------------===//

/// Writes `acc` plus the current C[row, col] (or the fill value) when (row,
/// col) is inside C: into C, or through the fused epilogue.
void accumulateIntoC(OpBuilder &b, Location loc, const MatmulOperands &mm,
                     Value batchIv, Value row, Value col, Value acc);

/// The same for an element known to be inside C (no bounds check), with
/// its stores added to `pending`.
void accumulateIntoCInBounds(OpBuilder &b, Location loc,
                             const MatmulOperands &mm, Value batchIv, Value row,
                             Value col, Value acc, PendingStores &pending);

//===----------------------------------------------------------------------===//
// The driver (MatmulOperands.cpp)
//===----------------------------------------------------------------------===//

/// The element type of A and B when `op` is a linalg.matmul or
/// linalg.batch_matmul on memrefs with default maps, A and B of one type
/// among f16, bf16 and f32, and C of f32; null otherwise.
Type matmulInputType(linalg::LinalgOp op);

/// The element type of A and B when `op` is a Tensor Core matmul (f16 or
/// bf16 inputs, f32 output); null otherwise.
Type tensorCoreInputType(linalg::LinalgOp op);

/// The element types of A and B (f8E4M3FN or f8E5M2) when `op` is an FP8
/// matmul (isFP8Matmul); nulls otherwise.
std::pair<Type, Type> fp8InputTypes(linalg::LinalgOp op);

/// Reads the operands and sizes of `op`, folds a linalg.fill of C right
/// before it (the usual zero init) into `init`, finds the elementwise
/// consumer the epilogue computes, and leaves the insertion point before
/// `op`.
/// With `affineProducers` false, only gathers (an im2col) are evaluated in
/// the operand loads, not casts, transposes and broadcasts: the wgmma
/// kernel's TMA loads need buffers.
MatmulOperands prepareMatmul(RewriterBase &rewriter, linalg::LinalgOp op,
                             Type inType, bool affineProducers = true);

/// Moves the insertion point into an scf.if that skips empty outputs (a
/// zero-sized grid is a launch error), unless they are statically non-empty.
void guardNonEmpty(RewriterBase &rewriter, const MatmulOperands &mm);

/// Erases `op` once its kernel is built, and what the epilogue replaced.
void finishMatmul(RewriterBase &rewriter, linalg::LinalgOp op,
                  const MatmulOperands &mm);

/// The (row, column) block tile of the current block, in a grouped order:
/// consecutive blocks walk kGroupRows rows of tiles column by column, so
/// that the blocks resident at a time share rows of A and columns of B in
/// L2 (a row-major order would stream all of B for every row of tiles).
std::pair<Value, Value> groupedTile(IndexBuilder &ib, gpu::LaunchOp launch);

/// Sets amp.kernel on `launch`: what `op` is (a matmul, a batch matmul, or
/// the convolution it came from), the kernel `kind` and the fused epilogue
/// ("conv2d_mma_sync_bias_relu").
void nameMatmulKernel(gpu::LaunchOp launch, linalg::LinalgOp op,
                      const MatmulOperands &mm, StringRef kind);

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

} // namespace detail
} // namespace amp
} // namespace mlir

#endif // AMP_LIB_CONVERSION_MATMULKERNELS_H
