//===- LinalgModels.cpp - amp external models for linalg ops --------------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// One model serves every structured op (named and generic, attached with the
// GET_OP_LIST trick). An op is classified by its payload and iterators, the
// same way for linalg.matmul and for a linalg.generic that computes a matmul:
//  - contractions and convolutions (multiply-accumulate payloads) are green;
//  - payloads with red math, or with an additive reduction (sum, mean, sum
//    pooling) are red;
//  - everything else (elementwise, max/min reductions, fills, copies,
//    transposes) is gray.
// Ops are retyped in place. Named ops get a new payload from their own
// region builder; generic, map and reduce have their payload retyped.
//
//===----------------------------------------------------------------------===//

#include "ModelUtils.h"

#include "amp/ExternalModels/ExternalModels.h"
#include "amp/Utils/CastUtils.h"
#include "amp/Utils/LinalgUtils.h"
#include "amp/Utils/TypeUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::amp;

namespace {

/// True for contractions and convolutions with a multiply-accumulate payload
/// (pooling ops share the convolution's indexing but not its payload). Asked
/// many times per op (color, data and accumulator operands, result types), so
/// the cheap tests come first: both kinds reduce, and need a multiplication;
/// only then is the indexing analyzed (a walk of the maps for generics).
bool isMultiplyAccumulate(linalg::LinalgOp op) {
  if (op.getNumReductionLoops() == 0)
    return false;
  bool hasMul = false;
  op->getRegion(0).walk([&](arith::MulFOp) {
    hasMul = true;
    return WalkResult::interrupt();
  });
  if (!hasMul)
    return false;
  // Named contractions and convolutions declare linalg's interfaces, whose
  // verifiers run the same structural match as the tests below: a verified
  // op that declares one is one. The match composes and walks every
  // indexing map (about 13k instructions for a named convolution, asked
  // several times per op); the declaration is one lookup.
  if (isa<linalg::ContractionOpInterface, linalg::ConvolutionOpInterface>(
          op.getOperation()))
    return true;
  // A contraction has two inputs and one init (checked cheaply first:
  // linalg's own test counts them through the costly init accessor).
  unsigned numInits = op->getNumOperands() - getFirstInitNumber(op);
  if (numInits == 1 && getFirstInitNumber(op) == 2 &&
      linalg::isaContractionOpInterface(op))
    return true;
  return linalg::isaConvolutionOpInterface(op);
}

/// True if the payload folds an init (output) block argument with an
/// arithmetic combiner (sum, product) across reduction iterations; max/min
/// and select-based reductions do not count.
bool hasArithmeticReduction(linalg::LinalgOp op) {
  if (op.getNumReductionLoops() == 0)
    return false;
  for (OpOperand &init : getInitOperands(op)) {
    BlockArgument arg = op.getMatchingBlockArgument(&init);
    if (!arg)
      continue;
    for (Operation *user : arg.getUsers())
      if (isa<arith::AddFOp, arith::SubFOp, arith::MulFOp, arith::DivFOp>(
              user))
        return true;
  }
  return false;
}

Color classifyLinalgOp(linalg::LinalgOp op) {
  if (isMultiplyAccumulate(op))
    return Color::green;
  // 1/x grows without bound near 0: red like tosa.reciprocal.
  if (isa<linalg::ReciprocalOp>(op.getOperation()))
    return Color::red;
  if (models::classifyPayload(op->getRegion(0)) == Color::red ||
      hasArithmeticReduction(op))
    return Color::red;
  return Color::gray;
}

/// How a named contraction runs in FP8: the dimension of its second input
/// (B, the filter) that indexes the output channels, the permutation that
/// makes that input K-major (empty: it is), and the output-channel dimension
/// of its result. Ops without an entry have no FP8 form.
struct FP8Layout {
  int64_t rhsChannelDim;
  SmallVector<int64_t, 4> rhsPermutation;
  int64_t resultChannelDim;
};

template <typename OpTy> std::optional<FP8Layout> getFP8Layout() {
  if constexpr (std::is_same_v<OpTy, linalg::MatmulOp>)
    return FP8Layout{1, {1, 0}, 1}; // B: K x N -> N x K
  else if constexpr (std::is_same_v<OpTy, linalg::BatchMatmulOp>)
    return FP8Layout{2, {0, 2, 1}, 2};
  else if constexpr (std::is_same_v<OpTy, linalg::Conv2DNhwcHwcfOp>)
    return FP8Layout{3, {3, 0, 1, 2}, 3}; // HWCF -> FHWC
  else if constexpr (std::is_same_v<OpTy, linalg::Conv2DNhwcFhwcOp>)
    return FP8Layout{0, {}, 3};
  else if constexpr (std::is_same_v<OpTy, linalg::Conv2DNchwFchwOp>)
    return FP8Layout{0, {}, 1};
  else
    return std::nullopt;
}

/// Builds the FP8 contraction of `op` (an op with an FP8 layout) on `a8` and
/// `b8` into `acc`: a matmul with K-major B, or a channels-first or
/// channels-last convolution with an FHWC or FCHW filter.
template <typename OpTy>
Value buildFP8Contraction(RewriterBase &rewriter, OpTy op, Value a8, Value b8,
                          Value acc) {
  Location loc = op.getLoc();
  TypeRange types = op->getResultTypes();
  if constexpr (std::is_same_v<OpTy, linalg::MatmulOp> ||
                std::is_same_v<OpTy, linalg::BatchMatmulOp>) {
    auto matmul =
        OpTy::create(rewriter, loc, types, ValueRange{a8, b8}, ValueRange{acc});
    matmul.setIndexingMapsAttr(models::getKMajorMatmulMaps(
        rewriter.getContext(), std::is_same_v<OpTy, linalg::BatchMatmulOp>));
    return matmul->getResult(0);
  } else if constexpr (std::is_same_v<OpTy, linalg::Conv2DNchwFchwOp>) {
    return linalg::Conv2DNchwFchwOp::create(
               rewriter, loc, types, ValueRange{a8, b8}, ValueRange{acc},
               op.getStridesAttr(), op.getDilationsAttr())
        ->getResult(0);
  } else {
    return linalg::Conv2DNhwcFhwcOp::create(
               rewriter, loc, types, ValueRange{a8, b8}, ValueRange{acc},
               op.getStridesAttr(), op.getDilationsAttr())
        ->getResult(0);
  }
}

template <typename OpTy>
struct LinalgOpModel
    : public MixedPrecisionOpInterface::ExternalModel<LinalgOpModel<OpTy>,
                                                      OpTy> {
  Color getDefaultColor(Operation *op) const {
    return classifyLinalgOp(cast<linalg::LinalgOp>(op));
  }

  bool isDataOperand(Operation *op, OpOperand &operand) const {
    auto linalgOp = cast<linalg::LinalgOp>(op);
    if (!hasFloatElementType(operand.get().getType()) ||
        !linalgOp.payloadUsesValueFromOperand(&operand))
      return false; // Unread operands (a pooling window) only give a shape.
    // Inputs are data; an init read by the payload too, unless it is the
    // accumulator of a contraction.
    return !isInitOperand(linalgOp, operand) || !isMultiplyAccumulate(linalgOp);
  }

  bool isAccumulatorOperand(Operation *op, OpOperand &operand) const {
    auto linalgOp = cast<linalg::LinalgOp>(op);
    return isInitOperand(linalgOp, operand) &&
           hasFloatElementType(operand.get().getType()) &&
           isMultiplyAccumulate(linalgOp);
  }

  bool hasSeparateAccumulator(Operation *op) const {
    return isMultiplyAccumulate(cast<linalg::LinalgOp>(op));
  }

  std::optional<int64_t> estimateMacs(Operation *op) const {
    auto linalgOp = cast<linalg::LinalgOp>(op);
    int64_t macs = 1;
    for (int64_t range : getStaticLoopExtents(linalgOp)) {
      if (ShapedType::isDynamic(range))
        return std::nullopt;
      if (range != 0 && macs > std::numeric_limits<int64_t>::max() / range)
        return std::numeric_limits<int64_t>::max();
      macs *= range;
    }
    return macs;
  }

  FailureOr<Operation *> rewriteInPrecision(Operation *op,
                                            RewriterBase &rewriter,
                                            ValueRange operands,
                                            FloatType computeType,
                                            FloatType accumulateType) const {
    auto linalgOp = cast<linalg::LinalgOp>(op);
    if (!linalgOp.hasPureTensorSemantics() ||
        operands.size() != op->getNumOperands())
      return failure();
    bool green = isMultiplyAccumulate(linalgOp);
    Type initType = green ? accumulateType : computeType;

    // The element type the op computed in before: that of its payload's
    // first float argument, or of its first float result. (Not of its
    // operands: the conversion may have given a converted producer's
    // result to the op already.)
    FloatType sourceType;
    for (Value v :
         llvm::concat<Value>(op->getRegion(0).getArguments(), op->getResults()))
      if (auto ft = dyn_cast<FloatType>(getScalarType(v.getType()))) {
        sourceType = ft;
        break;
      }
    if (!sourceType)
      return failure();

    // Inits the payload does not read only give their shape: they become
    // empty tensors of the new type.
    SmallVector<unsigned> shapeInits;
    for (OpOperand &init : getInitOperands(linalgOp)) {
      Type elt = getScalarType(operands[init.getOperandNumber()].getType());
      if (!isFloatType(elt) || elt == initType)
        continue;
      if (linalgOp.payloadUsesValueFromOperand(&init) && !green)
        return failure(); // A data init: the caller must have cast it.
      shapeInits.push_back(init.getOperandNumber());
    }

    bool rebuildPayload = false;
    if constexpr (llvm::is_detected<models::RegionBuilderOf, OpTy>::value)
      rebuildPayload = OpTy::getRegionBuilder() != nullptr;
    // A payload with regions of its own is not retyped (retypePayload): say
    // so before anything changes.
    if (!rebuildPayload && !green &&
        llvm::any_of(op->getRegion(0).getOps(),
                     [](Operation &inner) { return inner.getNumRegions(); }))
      return failure();

    SmallVector<Value> newOperands(operands);
    rewriter.setInsertionPoint(op);
    for (unsigned index : shapeInits)
      newOperands[index] =
          getEmptyFor(rewriter, op, newOperands[index], initType);

    // Retyped in place: the op keeps its identity and its payload is retyped
    // or rebuilt, instead of a copy made and the op erased. Named ops get a
    // new payload from their region builder.
    Operation *newOp = op;
    auto newLinalg = cast<linalg::LinalgOp>(newOp);
    rewriter.modifyOpInPlace(newOp, [&] {
      newOp->setOperands(newOperands);
      for (auto [result, init] :
           llvm::zip(newOp->getResults(), getInits(newLinalg)))
        result.setType(init.getType());
    });

    if constexpr (llvm::is_detected<models::RegionBuilderOf, OpTy>::value) {
      // linalg.generic, map and reduce have an empty region builder.
      if (rebuildPayload) {
        models::rebuildNamedPayload<OpTy>(rewriter, op, newOp);
        return newOp;
      }
    }

    // The payload's arguments take the element types of their operands.
    Region &payload = newOp->getRegion(0);
    for (OpOperand &operand : newOp->getOpOperands())
      if (BlockArgument arg = newLinalg.getMatchingBlockArgument(&operand))
        arg.setType(getScalarType(operand.get().getType()));
    if (green) {
      // The arithmetic stays as it was: arguments that became narrower are
      // widened at the start of the payload, and yielded values are narrowed
      // to the result type (an f16 accumulator rounds at every step).
      models::widenArguments(rewriter, payload, sourceType,
                             [](BlockArgument) { return true; });
      Operation *yield = payload.front().getTerminator();
      rewriter.setInsertionPoint(yield);
      for (auto [index, init] : llvm::enumerate(getInits(newLinalg))) {
        Value value = yield->getOperand(index);
        Type elt = getScalarType(init.getType());
        if (value.getType() == elt || !isFloatType(elt))
          continue;
        Value narrow = createFloatCast(rewriter, yield->getLoc(), value, elt,
                                       /*preferTosa=*/false);
        rewriter.modifyOpInPlace(yield,
                                 [&] { yield->setOperand(index, narrow); });
      }
      return newOp;
    }
    if (failed(models::retypePayload(rewriter, newOp, payload, sourceType,
                                     computeType,
                                     [](BlockArgument) { return false; })))
      return failure();
    return newOp;
  }

  bool getFP8Operands(Operation *op,
                      SmallVectorImpl<FP8Operand> &operands) const {
    std::optional<FP8Layout> layout = getFP8Layout<OpTy>();
    if (!layout)
      return false;
    auto linalgOp = cast<linalg::LinalgOp>(op);
    // Static f32 tensors, two inputs and one init; a matmul with the default
    // maps (transposes and broadcasts written in its maps are not
    // rewritten).
    if (!linalgOp.hasPureTensorSemantics() || op->getNumOperands() != 3 ||
        op->getNumResults() != 1 ||
        !llvm::all_of(op->getOperands(), models::isStaticF32Tensor))
      return false;
    if constexpr (std::is_same_v<OpTy, linalg::MatmulOp> ||
                  std::is_same_v<OpTy, linalg::BatchMatmulOp>)
      if (cast<OpTy>(op).hasUserDefinedMaps())
        return false;
    operands.push_back({0, std::nullopt});
    operands.push_back({1, layout->rhsChannelDim});
    return true;
  }

  FailureOr<Value> rewriteInFP8(Operation *op, RewriterBase &rewriter,
                                FP8Builder &fp8) const {
    SmallVector<FP8Operand, 2> operands;
    if (!getFP8Operands(op, operands))
      return failure();
    std::optional<FP8Layout> layout = getFP8Layout<OpTy>();
    if constexpr (std::is_same_v<OpTy, linalg::MatmulOp> ||
                  std::is_same_v<OpTy, linalg::BatchMatmulOp> ||
                  std::is_same_v<OpTy, linalg::Conv2DNhwcHwcfOp> ||
                  std::is_same_v<OpTy, linalg::Conv2DNhwcFhwcOp> ||
                  std::is_same_v<OpTy, linalg::Conv2DNchwFchwOp>) {
      rewriter.setInsertionPoint(op);
      Value a8 = fp8.narrow(rewriter, 0, op->getOperand(0));
      Value b8 =
          fp8.narrow(rewriter, 1, op->getOperand(1), layout->rhsPermutation);
      if (!a8 || !b8)
        return failure();
      auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
      Value acc =
          models::createZeroAccumulator(rewriter, op->getLoc(), resultType);
      Value result = buildFP8Contraction(rewriter, cast<OpTy>(op), a8, b8, acc);
      // A non-zero init is what the contraction accumulates onto: it is
      // added after the scales are undone.
      Value init = op->getOperand(2);
      return fp8.rescale(rewriter, result, layout->resultChannelDim,
                         /*bias=*/{},
                         models::isZeroTensor(init) ? Value() : init);
    } else {
      return failure();
    }
  }
};

template <typename... OpTys>
void attachLinalgOpModels(MLIRContext *ctx) {
  (OpTys::template attachInterface<LinalgOpModel<OpTys>>(*ctx), ...);
}

} // namespace

void mlir::amp::registerLinalgExternalModels(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, linalg::LinalgDialect *) {
    attachLinalgOpModels<
#define GET_OP_LIST
#include "mlir/Dialect/Linalg/IR/LinalgStructuredOps.cpp.inc"
        >(ctx);
    // Softmax is red by definition; packs follow their inputs.
    models::attachElementwiseModels<Color::red, linalg::SoftmaxOp>(ctx);
    models::attachElementwiseModels<Color::gray, linalg::PackOp,
                                    linalg::UnPackOp>(ctx);
  });
}
