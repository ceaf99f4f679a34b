//===- ModelUtils.h - Building blocks of amp's external models --*- C++ -*-===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Private to lib/ExternalModels: the generic model for ops that the default
// in-place rewrite fits, the helper that attaches it to a list of ops with a
// color (each dialect's table), and the retyping of payload regions.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_LIB_EXTERNALMODELS_MODELUTILS_H
#define AMP_LIB_EXTERNALMODELS_MODELUTILS_H

#include "amp/IR/AmpInterfaces.h"

#include "mlir/IR/PatternMatch.h"

namespace mlir {
namespace amp {
namespace models {

/// Model of an op whose color is fixed and whose default rewrite (update the
/// result types in place) is correct: elementwise ops and data movement.
template <typename OpTy, Color kColor>
struct ElementwiseModel
    : public MixedPrecisionOpInterface::ExternalModel<
          ElementwiseModel<OpTy, kColor>, OpTy> {
  Color getDefaultColor(Operation *) const { return kColor; }
};

/// Model of an op that only reads the shape of its float operands (tensor.dim,
/// tensor.rank): it has no data operands.
template <typename OpTy>
struct ShapeOnlyModel
    : public MixedPrecisionOpInterface::ExternalModel<ShapeOnlyModel<OpTy>,
                                                      OpTy> {
  Color getDefaultColor(Operation *) const { return Color::gray; }
  bool isDataOperand(Operation *, OpOperand &) const { return false; }
};

/// Attaches ElementwiseModel<Op, kColor> to every op of `OpTys`. Used as a
/// table: one call per color per dialect.
template <Color kColor, typename... OpTys>
void attachElementwiseModels(MLIRContext *ctx) {
  (OpTys::template attachInterface<ElementwiseModel<OpTys, kColor>>(*ctx),
   ...);
}

/// Returns the color of a payload region (the body of a linalg op, the
/// padding region of tensor.pad): the highest color among its ops (red over
/// gray), where an op without MixedPrecisionOpInterface that produces floats
/// counts as red, and `x * x` counts as red (it is pow(x, 2)).
Color classifyPayload(Region &region);

/// Retypes the payload `region` of `op` from float type `from` to `to`:
/// block arguments selected by `retypeArg`, results of the ops inside,
/// constants (converted), and casts that become no-ops (folded). Values
/// captured from above with element type `from` are replaced by converted
/// copies created before `op`. `op` must be a fresh clone that the caller
/// verifies and discards on failure. Fails if an op inside has regions.
LogicalResult retypePayload(RewriterBase &rewriter, Operation *op,
                            Region &region, FloatType from, FloatType to,
                            function_ref<bool(BlockArgument)> retypeArg);

/// For a payload whose block arguments selected by `widenArg` have been given
/// a narrower type: inserts, at the start of the block, a cast of each back
/// to `wide` and redirects the uses to it, so that the body computes as
/// before (green generic contractions: f16 inputs, f32 arithmetic).
void widenArguments(RewriterBase &rewriter, Region &region, FloatType wide,
                    function_ref<bool(BlockArgument)> widenArg);

} // namespace models
} // namespace amp
} // namespace mlir

#endif // AMP_LIB_EXTERNALMODELS_MODELUTILS_H
