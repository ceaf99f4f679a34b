//===- KernelSupport.cpp - Shared memory and masked tile staging ----------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The shared-memory types of the kernels and the one masked tile staging
// of the matmul kernels: the mma.sync kernel's cp.async and element-wise
// copies, the wgmma producer's computed tiles (swizzled like TMA's) and the
// SIMT kernel's transposed A tile are layouts and copy modes of it. See
// KernelSupport.h.
//
//===----------------------------------------------------------------------===//

#include "KernelSupport.h"

#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::amp;
using namespace mlir::amp::detail;

//===----------------------------------------------------------------------===//
// Shared memory
//===----------------------------------------------------------------------===//

MemRefType mlir::amp::detail::workgroupMemRefType(ArrayRef<int64_t> shape,
                                                  Type elementType) {
  auto wg = gpu::AddressSpaceAttr::get(elementType.getContext(),
                                       gpu::AddressSpace::Workgroup);
  return MemRefType::get(shape, elementType, AffineMap(), wg);
}

Value mlir::amp::detail::dynamicSharedMemory(OpBuilder &b, Location loc) {
  return gpu::DynamicSharedMemoryOp::create(
      b, loc, workgroupMemRefType({ShapedType::kDynamic}, b.getI8Type()));
}

bool mlir::amp::detail::hasAlignedRows(MemRefType type) {
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

//===----------------------------------------------------------------------===//
// Masked tile staging
//===----------------------------------------------------------------------===//

/// The 16-byte chunks of the tile, `threads` at a time: cp.async of the
/// chunk's bytes inside the matrix (all or none: the matrix's columns are
/// a multiple of the chunk where its rows are aligned), zero fill for the
/// rest.
static void stageAsync(OpBuilder &b, Location loc, const MaskedTile &tile,
                       Value tid, int64_t threads, Value staged,
                       TileLayout layout) {
  IndexBuilder ib{b, loc};
  int64_t chunkElems = 128 / tile.elementType.getIntOrFloatBitWidth();
  int64_t chunksPerRow = tile.tileCols / chunkElems;
  int64_t perThread = tile.tileRows * chunksPerRow / threads;
  for (int64_t i = 0; i < perThread; ++i) {
    Value chunk = ib.add(tid, i * threads);
    Value row = ib.div(chunk, chunksPerRow);
    Value col = ib.mul(ib.rem(chunk, chunksPerRow), chunkElems);
    Value gRow = ib.add(tile.row0, row), gCol = ib.add(tile.col0, col);
    Value valid = ib.land(ib.lt(gRow, tile.rows), ib.lt(gCol, tile.cols));
    Value zero = ib.c(0);
    Value srcElements = ib.select(valid, ib.c(chunkElems), zero);
    Value safeRow = ib.select(valid, gRow, zero);
    Value safeCol = ib.select(valid, gCol, zero);
    SmallVector<Value> at = layout(row, col);
    nvgpu::DeviceAsyncCopyOp::create(
        b, loc, staged, at, tile.source.buffer,
        withBatch(tile.batchIv, {safeRow, safeCol}),
        b.getIndexAttr(chunkElems), srcElements, b.getUnitAttr());
  }
}

/// Element `e` of the tile (a thread's share of it), loaded inside the
/// matrix and zero outside, stored where `layout` says.
static void stageElement(OpBuilder &b, Location loc, const MaskedTile &tile,
                         Value e, Value staged, TileLayout layout) {
  IndexBuilder ib{b, loc};
  const OperandSource &src = tile.source;
  // Consecutive threads on consecutive addresses of what is read: along a
  // row, or down a column for a transposed source.
  Value row = src.rowsContiguous ? ib.rem(e, tile.tileRows)
                                 : ib.div(e, tile.tileCols);
  Value col = src.rowsContiguous ? ib.div(e, tile.tileRows)
                                 : ib.rem(e, tile.tileCols);
  Value gRow = ib.add(tile.row0, row), gCol = ib.add(tile.col0, col);
  Value valid = ib.land(ib.lt(gRow, tile.rows), ib.lt(gCol, tile.cols));
  Type elt = tile.elementType;
  auto ifOp = scf::IfOp::create(b, loc, TypeRange{elt}, valid,
                                /*withElseRegion=*/true);
  {
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(&ifOp.getThenRegion().front());
    Value v = src.load(b, loc, withBatch(tile.batchIv, {gRow, gCol}));
    scf::YieldOp::create(b, loc, v);
    b.setInsertionPointToStart(&ifOp.getElseRegion().front());
    Value z = arith::ConstantOp::create(b, loc, elt, b.getFloatAttr(elt, 0.0));
    scf::YieldOp::create(b, loc, z);
  }
  SmallVector<Value> at = layout(row, col);
  memref::StoreOp::create(b, loc, ifOp.getResult(0), staged, at);
}

void mlir::amp::detail::stageMaskedTile(OpBuilder &b, Location loc,
                                        const MaskedTile &tile, Value tid,
                                        int64_t threads, TileCopy copy,
                                        Value staged, TileLayout layout) {
  if (copy == TileCopy::Async) {
    stageAsync(b, loc, tile, tid, threads, staged, layout);
    return;
  }
  IndexBuilder ib{b, loc};
  int64_t perThread = tile.tileRows * tile.tileCols / threads;
  if (copy == TileCopy::Unrolled) {
    for (int64_t i = 0; i < perThread; ++i)
      stageElement(b, loc, tile, ib.add(tid, i * threads), staged, layout);
    return;
  }
  Value lb = ib.c(0), ub = ib.c(perThread), step = ib.c(1);
  auto loop = scf::ForOp::create(b, loc, lb, ub, step);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(loop.getBody());
  Value e = ib.add(tid, ib.mul(loop.getInductionVar(), threads));
  stageElement(b, loc, tile, e, staged, layout);
}
