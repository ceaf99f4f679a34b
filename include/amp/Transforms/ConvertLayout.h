//===- ConvertLayout.h - Channels-last convolutions, poolings ---*- C++ -*-===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The reusable pieces of --amp-convert-layout: the rewrite of one NCHW layer
// into its NHWC form with transposes around it, and the cleanup patterns that
// fold, move and cancel those transposes.
//
// Permutations follow linalg.transpose: dimension i of the result is
// dimension perm[i] of the input.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_TRANSFORMS_CONVERTLAYOUT_H
#define AMP_TRANSFORMS_CONVERTLAYOUT_H

#include "amp/IR/AmpEnums.h"

#include "mlir/IR/PatternMatch.h"

#include <functional>

namespace mlir {
namespace amp {

/// NCHW -> NHWC.
inline constexpr int64_t kToChannelsLast[] = {0, 2, 3, 1};
/// NHWC -> NCHW.
inline constexpr int64_t kToChannelsFirst[] = {0, 3, 1, 2};

/// True if `op` is a linalg.transpose or tosa.transpose of a rank-4 tensor
/// between NCHW and NHWC (either direction).
bool isLayoutTranspose(Operation *op);

/// True if `op` has a channels-last form that convertToChannelsLast builds
/// (linalg.conv_2d_nchw_fchw, linalg.depthwise_conv_2d_nchw_chw,
/// linalg.pooling_nchw_sum, linalg.pooling_nchw_max).
bool hasChannelsLastForm(Operation *op);

/// Replaces the NCHW layer `op` by its channels-last form: linalg.transpose
/// ops bring its input, filter and init to NHWC (HWCF or FHWC filters as
/// `filter` says, HWC for depthwise convolutions) and its result back to
/// NCHW. Returns the new layer and appends the transposes to `transposes`.
/// Returns failure, without changing the IR, if `op` has no channels-last
/// form or does not work on ranked tensors.
FailureOr<Operation *>
convertToChannelsLast(RewriterBase &rewriter, Operation *op,
                      FilterLayout filter,
                      SmallVectorImpl<Operation *> *transposes = nullptr);

/// Which layout transposes the cleanup must leave where they are (those next
/// to skipped layers). May be empty.
using FrozenTransposeFn = std::function<bool(Operation *)>;

/// Adds the cleanup patterns, rooted at linalg.transpose and tosa.transpose:
///  - a transpose of a constant, a tensor.empty or a linalg.fill folds into
///    a new constant, empty or fill;
///  - inverse transposes cancel;
///  - an NHWC -> NCHW transpose moves below its linalg.generic users (their
///    indexing maps are permuted; elementwise ones then produce NHWC),
///    tensor.pad users (padding permuted) and TOSA elementwise users whose
///    other rank-4 operands are transposed too or constants.
/// Transposes for which `isFrozen` returns true are not moved or cancelled.
void populateAmpLayoutPropagationPatterns(RewritePatternSet &patterns,
                                          FrozenTransposeFn isFrozen = {});

/// Applies the cleanup patterns to `transposes` and to the ops the patterns
/// create, and to nothing else.
void propagateLayoutTransposes(MLIRContext *ctx,
                               ArrayRef<Operation *> transposes,
                               FrozenTransposeFn isFrozen = {});

} // namespace amp
} // namespace mlir

#endif // AMP_TRANSFORMS_CONVERTLAYOUT_H
