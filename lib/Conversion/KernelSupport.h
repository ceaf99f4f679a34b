//===- KernelSupport.h - What the GPU kernel builders share -----*- C++ -*-===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// What the kernels lib/Conversion builds share, matmul or not (the matmul
// kernels, the skinny matmul, the row kernels of RowKernel.cpp): index
// arithmetic (IndexBuilder), shared memory (workgroup memref types, the
// dynamic shared memory), where an operand is loaded from (OperandSource:
// its buffer, or the generic producing it evaluated there;
// OperandSource.cpp), and masked tile staging: a tile of a matrix operand
// copied into shared memory, zeros outside the matrix (KernelSupport.cpp).
// The buffer queries below them are in MemRefViews.h; what only the matmul
// kernels share is in MatmulKernels.h. Private to lib/Conversion.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_LIB_CONVERSION_KERNELSUPPORT_H
#define AMP_LIB_CONVERSION_KERNELSUPPORT_H

#include "MemRefViews.h"

#include "amp/Conversion/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir {
namespace amp {
namespace detail {

//===----------------------------------------------------------------------===//
// Index arithmetic
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

/// The indices of a matrix element (`ij`) after the (optional) batch index.
inline SmallVector<Value> withBatch(Value batchIv, ValueRange ij) {
  SmallVector<Value> idx;
  if (batchIv)
    idx.push_back(batchIv);
  idx.append(ij.begin(), ij.end());
  return idx;
}

//===----------------------------------------------------------------------===//
// Shared memory
//===----------------------------------------------------------------------===//

/// The type of a `shape` buffer of `elementType` in workgroup (shared)
/// memory.
MemRefType workgroupMemRefType(ArrayRef<int64_t> shape, Type elementType);

/// The block's dynamic shared memory, as bytes (memref<?xi8, workgroup>).
Value dynamicSharedMemory(OpBuilder &b, Location loc);

/// Whether every row of `type` starts 16-byte aligned (given a 16-byte
/// aligned base pointer), so that 8 x 16-bit elements can be copied at once.
bool hasAlignedRows(MemRefType type);

//===----------------------------------------------------------------------===//
// Operand sources (OperandSource.cpp)
//===----------------------------------------------------------------------===//

/// Where a kernel loads an operand from (a matmul's A or B, an input of
/// its epilogue or of a row kernel): its buffer, or the generic that
/// produces it, evaluated at each element the kernel loads (an im2col
/// gather, a cast, a transpose, a broadcast; nested producers too).
struct OperandSource {
  Value buffer;
  /// The op whose kernel loads the operand (a matmul, a row group's last
  /// member): producers are evaluated there.
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

/// The source of `operand` of `matmul` (the op whose kernel loads it: a
/// matmul, a row group's last member): computed when a generic that the
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

//===----------------------------------------------------------------------===//
// Masked tile staging
//===----------------------------------------------------------------------===//

/// How the threads of a block copy a tile into shared memory.
enum class TileCopy {
  /// Element by element, in an scf.for over each thread's elements.
  Loop,
  /// Element by element, each thread's elements unrolled.
  Unrolled,
  /// 16-byte cp.async copies (nvgpu.device_async_copy) of the source's
  /// buffer, which must have 16-byte aligned rows (hasAlignedRows) and not
  /// be computed; the bytes outside the matrix are zero-filled. The caller
  /// commits and waits for the copies.
  Async,
};

/// A tile of a matrix operand: rows [row0, row0 + tileRows) and columns
/// [col0, col0 + tileCols) of the `rows` x `cols` matrix `source` (of
/// batch `batchIv` when not null), with zeros outside the matrix.
struct MaskedTile {
  const OperandSource &source;
  Type elementType;
  Value batchIv;
  Value row0, col0;
  Value rows, cols;
  int64_t tileRows, tileCols;
};

/// The indices, in the shared-memory buffer, of element (`row`, `col`) of
/// the tile: the layout of the staged tile (a stage of a ring, a
/// transposed tile, a swizzled one).
using TileLayout = function_ref<SmallVector<Value>(Value row, Value col)>;

/// Copies `tile` into `staged` at the indices `layout` gives, the `threads`
/// threads of the block sharing the work (`tid`: this one's index): thread
/// t copies elements t, t + threads, ... of the tile, consecutive threads
/// along a row (down a column when the source reads rows contiguously),
/// or the 16-byte chunks t, t + threads, ... with TileCopy::Async.
void stageMaskedTile(OpBuilder &b, Location loc, const MaskedTile &tile,
                     Value tid, int64_t threads, TileCopy copy, Value staged,
                     TileLayout layout);

} // namespace detail
} // namespace amp
} // namespace mlir

#endif // AMP_LIB_CONVERSION_KERNELSUPPORT_H
