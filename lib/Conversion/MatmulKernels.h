//===- MatmulKernels.h - Shared pieces of the matmul kernels ----*- C++ -*-===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// What the kernels of --amp-gpu-matmul-to-mma share (the Tensor Core and SIMT
// kernels in MatmulToTensorCores.cpp, the skinny kernel in
// SkinnyMatmul.cpp): index arithmetic, the operands of one matmul, the fill
// folding and the masked epilogue. Private to lib/Conversion.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_LIB_CONVERSION_MATMULKERNELS_H
#define AMP_LIB_CONVERSION_MATMULKERNELS_H

#include "amp/Conversion/Passes.h"

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

/// The operands and sizes of one matmul, seen from inside the kernel.
struct MatmulOperands {
  Value a, b, cMat;
  Value m, n, k;
  /// Null for linalg.matmul.
  Value batch;
  Type inType;
  /// The value a linalg.fill right before the matmul wrote into C (the
  /// usual zero init): the kernel then writes `init + A*B` without reading
  /// C, and the fill is gone. Null: C += A*B.
  Value init;
  /// A 16-bit copy of C that a truncf-only linalg.generic right after the
  /// matmul made (the mixed-precision cast of its result): the kernel stores
  /// its rounded sums there instead of C, and that generic is gone. Only
  /// with `init`.
  Value out16;
};

/// Indices of an A, B or C element for the (optional) batch index.
inline SmallVector<Value> withBatch(Value batchIv, ValueRange ij) {
  SmallVector<Value> idx;
  if (batchIv)
    idx.push_back(batchIv);
  idx.append(ij.begin(), ij.end());
  return idx;
}

/// Adds `acc` to C[row, col] (or to the fill value) when (row, col) is
/// inside C.
inline void accumulateIntoC(OpBuilder &b, Location loc,
                            const MatmulOperands &mm, Value batchIv, Value row,
                            Value col, Value acc) {
  IndexBuilder ib{b, loc};
  Value inBounds = ib.land(ib.lt(row, mm.m), ib.lt(col, mm.n));
  auto ifOp = scf::IfOp::create(b, loc, inBounds, /*withElseRegion=*/false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&ifOp.getThenRegion().front());
  SmallVector<Value> idx = withBatch(batchIv, {row, col});
  Value old = mm.init
                  ? mm.init
                  : memref::LoadOp::create(b, loc, mm.cMat, idx).getResult();
  Value sum = arith::AddFOp::create(b, loc, old, acc);
  if (mm.out16) {
    Type elt = cast<MemRefType>(mm.out16.getType()).getElementType();
    Value rounded = arith::TruncFOp::create(b, loc, elt, sum);
    memref::StoreOp::create(b, loc, rounded, mm.out16, idx);
    return;
  }
  memref::StoreOp::create(b, loc, sum, mm.cMat, idx);
}

/// The element type of A and B when `op` is a linalg.matmul or
/// linalg.batch_matmul on memrefs with default maps, A and B of one type
/// among f16, bf16 and f32, and C of f32; null otherwise.
Type matmulInputType(linalg::LinalgOp op);

/// Reads the operands and sizes of `op`, folds a linalg.fill of C right
/// before it (the usual zero init) into `init` and then a rounding copy of C
/// after it into `out16`, and leaves the insertion point before `op`.
MatmulOperands prepareMatmul(RewriterBase &rewriter, linalg::LinalgOp op,
                             Type inType);

/// Moves the insertion point into an scf.if that skips empty outputs (a
/// zero-sized grid is a launch error), unless they are statically non-empty.
void guardNonEmpty(RewriterBase &rewriter, const MatmulOperands &mm);

} // namespace detail
} // namespace amp
} // namespace mlir

#endif // AMP_LIB_CONVERSION_MATMULKERNELS_H
