//===- Recast.h - Force layers to given element types -----------*- C++ -*-===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The reusable core of --amp-recast: rebuild one layer with other input and
// accumulation types, converting its results back so that its users see the
// types they saw before. A benchmarking aid: integer conversions apply no
// scale (see the pass documentation).
//
//===----------------------------------------------------------------------===//

#ifndef AMP_TRANSFORMS_RECAST_H
#define AMP_TRANSFORMS_RECAST_H

#include "mlir/IR/PatternMatch.h"

namespace mlir {
namespace amp {

/// Recasts the layer `op` (LayerOpInterface::recast) to data inputs of
/// `inputType` accumulating in `accumulateType`, converts its results back to
/// their original element types and replaces `op`. Returns failure, after an
/// error was emitted, if `op` is not a layer or cannot compute with these
/// types.
LogicalResult recastLayer(RewriterBase &rewriter, Operation *op, Type inputType,
                          Type accumulateType);

} // namespace amp
} // namespace mlir

#endif // AMP_TRANSFORMS_RECAST_H
