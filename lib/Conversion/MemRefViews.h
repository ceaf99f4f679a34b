//===- MemRefViews.h - Buffers seen through reshapes ------------*- C++ -*-===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Internal to lib/Conversion: what the matmul epilogue and producer fusions
// (and the row kernels) ask of a bufferized value: the buffer behind a
// chain of memref reshapes, every reshape of it, its layout, and the indices
// an indexing map gives.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_LIB_CONVERSION_MEMREFVIEWS_H
#define AMP_LIB_CONVERSION_MEMREFVIEWS_H

#include "mlir/Dialect/Affine/Utils.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace mlir {
namespace amp {
namespace detail {

/// `v` through memref.collapse_shape / expand_shape ops: the value the
/// chain starts from (an allocation, a block argument, or another op's
/// result; callers say which they accept).
inline Value throughReshapes(Value v) {
  while (Operation *def = v.getDefiningOp()) {
    if (auto c = dyn_cast<memref::CollapseShapeOp>(def))
      v = c.getSrc();
    else if (auto e = dyn_cast<memref::ExpandShapeOp>(def))
      v = e.getSrc();
    else
      break;
  }
  return v;
}

/// The values viewing `root` through reshapes (`root` included).
inline SmallVector<Value> reshapesOf(Value root) {
  SmallVector<Value> views{root};
  for (size_t i = 0; i < views.size(); ++i)
    for (Operation *user : views[i].getUsers())
      if (isa<memref::CollapseShapeOp, memref::ExpandShapeOp>(user))
        views.push_back(user->getResult(0));
  return views;
}

/// Whether `v` is a memref with the identity (row-major) layout.
inline bool isRowMajor(Value v) {
  auto type = dyn_cast<MemRefType>(v.getType());
  return type && type.getLayout().isIdentity();
}

/// `map` applied to `dims` (a plain dimension is the value itself; other
/// results are arith ops).
inline SmallVector<Value> applyMap(OpBuilder &b, Location loc, AffineMap map,
                                   ArrayRef<Value> dims) {
  return *affine::expandAffineMap(b, loc, map, dims);
}

} // namespace detail
} // namespace amp
} // namespace mlir

#endif // AMP_LIB_CONVERSION_MEMREFVIEWS_H
