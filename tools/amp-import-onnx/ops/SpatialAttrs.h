//===- SpatialAttrs.h - Windows of convolutions and pools -------*- C++ -*-===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The kernel_shape/strides/dilations/pads/auto_pad/ceil_mode attributes of
// Conv, MaxPool and AveragePool, resolved to explicit 2-D values (a 1-D op
// gets a leading dimension of size 1), and the adjustment TOSA needs: its
// windows must tile the padded input exactly.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_IMPORT_ONNX_OPS_SPATIALATTRS_H
#define AMP_IMPORT_ONNX_OPS_SPATIALATTRS_H

#include "../GraphImporter.h"

namespace amp {
namespace onnximport {

struct SpatialAttrs {
  llvm::SmallVector<int64_t, 2> inSize, kernel, strides, dilations, padBegin,
      padEnd, outSize;
};

/// Resolves the window attributes of a node over the spatial input sizes
/// `inSize` (1 or 2 of them). `kernel` is the weight's spatial shape for a
/// convolution, empty for a pool (which reads kernel_shape).
mlir::FailureOr<SpatialAttrs> getSpatialAttrs(NodeContext &ctx,
                                              llvm::ArrayRef<int64_t> inSize,
                                              llvm::ArrayRef<int64_t> kernel,
                                              bool isPool);

/// Makes the windows tile the padded NHWC input exactly: sets padEnd to
/// what the last window needs, slicing off input rows no window reads.
Value fitWindowsExactly(OpBuilder &b, Location loc, Value input,
                        SpatialAttrs &attrs, int64_t firstSpatialDim);

} // namespace onnximport
} // namespace amp

#endif // AMP_IMPORT_ONNX_OPS_SPATIALATTRS_H
