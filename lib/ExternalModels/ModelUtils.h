//===- ModelUtils.h - Building blocks of amp's external models --*- C++ -*-===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Private to lib/ExternalModels: the generic model for ops that the default
// in-place rewrite fits, the helper that attaches it to a list of ops with a
// color (each dialect's table), the retyping of payload regions and the
// rebuilding of linalg named payloads.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_LIB_EXTERNALMODELS_MODELUTILS_H
#define AMP_LIB_EXTERNALMODELS_MODELUTILS_H

#include "amp/IR/AmpInterfaces.h"
#include "amp/Utils/OpAttributes.h"
#include "amp/Utils/TypeUtils.h"

#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/TypeUtilities.h"

namespace mlir {
namespace amp {
namespace models {

/// Model of an op whose color is fixed and whose default rewrite (update the
/// result types in place) is correct: elementwise ops and data movement.
/// With kNoFloatAttributes, the op has no inherent float attribute: its
/// float attributes are its discardable ones (see getFloatAttributes).
template <typename OpTy, Color kColor, bool kNoFloatAttributes = false>
struct ElementwiseModel
    : public MixedPrecisionOpInterface::ExternalModel<
          ElementwiseModel<OpTy, kColor, kNoFloatAttributes>, OpTy> {
  Color getDefaultColor(Operation *) const { return kColor; }
  void getFloatAttributes(Operation *op,
                          SmallVectorImpl<FloatAttr> &attrs) const {
    if constexpr (kNoFloatAttributes)
      amp::detail::getDiscardableFloatAttributes(op, attrs);
    else
      amp::detail::getFloatAttributes(op, attrs);
  }
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

/// As attachElementwiseModels, for ops none of whose inherent attributes is
/// a float (checked against their ODS definitions): the plan need not read
/// their attributes one by one to find bounds.
template <Color kColor, typename... OpTys>
void attachElementwiseModelsWithoutFloatAttributes(MLIRContext *ctx) {
  (OpTys::template attachInterface<
       ElementwiseModel<OpTys, kColor, /*kNoFloatAttributes=*/true>>(*ctx),
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

/// Detects `OpTy::getRegionBuilder()`, which linalg named ops have.
template <typename OpTy>
using RegionBuilderOf = decltype(OpTy::getRegionBuilder());

/// Rebuilds the payload of the linalg named op `newOp` (a clone of `oldOp`
/// with new operands) for its operand element types with the op's own region
/// builder, which inserts the casts that a named op with mixed element types
/// needs (f16 inputs into an f32 accumulator, i8 into i32).
template <typename OpTy>
void rebuildNamedPayload(RewriterBase &rewriter, Operation *oldOp,
                         Operation *newOp) {
  Region &region = newOp->getRegion(0);
  while (!region.empty())
    rewriter.eraseBlock(&region.back());
  SmallVector<Type> argTypes;
  SmallVector<Location> argLocs;
  for (Value operand : newOp->getOperands()) {
    argTypes.push_back(getScalarType(operand.getType()));
    argLocs.push_back(operand.getLoc());
  }
  Block *block = rewriter.createBlock(&region, region.end(), argTypes, argLocs);
  ImplicitLocOpBuilder b(newOp->getLoc(), rewriter);
  b.setInsertionPointToStart(block);
  // The attributes the region builder may read, one by one: getAttrs()
  // would build a dictionary of every property (segment sizes, maps).
  SmallVector<NamedAttribute> attrs;
  forEachAttribute(oldOp, [&](StringAttr name, Attribute value) {
    attrs.emplace_back(name, value);
  });
  OpTy::getRegionBuilder()(b, *block, attrs,
                           [&]() { return oldOp->emitError(); });
}

//===----------------------------------------------------------------------===//
// FP8 contractions
//===----------------------------------------------------------------------===//

/// The FP32 accumulator of an FP8 contraction: zeros of `type`
/// (tensor.empty filled by linalg.fill).
Value createZeroAccumulator(RewriterBase &rewriter, Location loc,
                            RankedTensorType type);

/// True if every element of `value` is provably zero: a zero constant, or a
/// linalg.fill of one.
bool isZeroTensor(Value value);

/// True if `value` is a ranked tensor of f32 with a static shape.
bool isStaticF32Tensor(Value value);

/// The indexing maps of a (batch) matmul whose B is K-major, as FP8 Tensor
/// Cores read it: (m, n, k) -> (m, k), (n, k), (m, n), with a leading batch
/// dimension b in each if `batch`.
ArrayAttr getKMajorMatmulMaps(MLIRContext *ctx, bool batch);

} // namespace models
} // namespace amp
} // namespace mlir

#endif // AMP_LIB_EXTERNALMODELS_MODELUTILS_H
