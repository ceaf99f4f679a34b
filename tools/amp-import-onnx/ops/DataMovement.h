//===- DataMovement.h - What the data-movement converters share -*- C++ -*-===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// For Shape.cpp and Slice.cpp: the shapes of inputs known or not, and the
// folding of data movement on small known inputs.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_IMPORT_ONNX_OPS_DATAMOVEMENT_H
#define AMP_IMPORT_ONNX_OPS_DATAMOVEMENT_H

#include "Converters.h"

#include <vector>

namespace amp {
namespace onnximport {

/// The shape of input `i`, known or run-time.
inline std::vector<int64_t> inputShape(NodeContext &ctx, unsigned i) {
  if (const Tensor *t = ctx.constInput(i))
    return t->shape;
  llvm::ArrayRef<int64_t> shape = getShape(ctx.input(i));
  return {shape.begin(), shape.end()};
}

/// Input 0 if it is known and small enough to fold data movement on.
inline const Tensor *foldableData(NodeContext &ctx) {
  const Tensor *t = ctx.constInput(0);
  return t && t->getNumElements() <= kMaxFoldElements ? t : nullptr;
}

/// For each element of `shape`, `fn(index)` gives the flat source index.
inline std::vector<int64_t>
mapIndices(llvm::ArrayRef<int64_t> shape,
           mlir::function_ref<int64_t(llvm::ArrayRef<int64_t>)> fn) {
  int64_t total = product(shape);
  std::vector<int64_t> result(total), index(shape.size(), 0);
  for (int64_t flat = 0; flat < total; ++flat) {
    int64_t rem = flat;
    for (size_t d = shape.size(); d-- > 0;) {
      index[d] = rem % shape[d];
      rem /= shape[d];
    }
    result[flat] = fn(index);
  }
  return result;
}

} // namespace onnximport
} // namespace amp

#endif // AMP_IMPORT_ONNX_OPS_DATAMOVEMENT_H
