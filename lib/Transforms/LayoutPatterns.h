//===- LayoutPatterns.h - Cleanup patterns of ConvertLayout -----*- C++ -*-===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The cleanup patterns of --amp-convert-layout (ConvertLayout.h), all rooted
// at transposes, one file per kind:
//
//   TransposeFolding.cpp  transposes of constants, empties, fills and
//                         generics fold; inverse pairs cancel
//   TransposeSinking.cpp  NHWC -> NCHW transposes move down through
//                         generics, pads and elementwise ops
//
//===----------------------------------------------------------------------===//

#ifndef AMP_LIB_TRANSFORMS_LAYOUTPATTERNS_H
#define AMP_LIB_TRANSFORMS_LAYOUTPATTERNS_H

#include "amp/Transforms/ConvertLayout.h"

#include "mlir/IR/PatternMatch.h"

namespace mlir {
namespace amp {
namespace layout {

/// Base of the cleanup patterns: knows which transposes are frozen.
template <typename OpTy> struct LayoutPattern : public OpRewritePattern<OpTy> {
  LayoutPattern(MLIRContext *ctx, FrozenTransposeFn isFrozen)
      : OpRewritePattern<OpTy>(ctx), isFrozen(std::move(isFrozen)) {}

  bool frozen(Operation *op) const { return isFrozen && isFrozen(op); }

  FrozenTransposeFn isFrozen;
};

/// Adds the patterns that fold transposes into their producers and cancel
/// inverse pairs.
void populateTransposeFoldingPatterns(RewritePatternSet &patterns,
                                      const FrozenTransposeFn &isFrozen);

/// Adds the patterns that move NHWC -> NCHW transposes down.
void populateTransposeSinkingPatterns(RewritePatternSet &patterns,
                                      const FrozenTransposeFn &isFrozen);

} // namespace layout
} // namespace amp
} // namespace mlir

#endif // AMP_LIB_TRANSFORMS_LAYOUTPATTERNS_H
