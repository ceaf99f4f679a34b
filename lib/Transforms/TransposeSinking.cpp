//===- TransposeSinking.cpp - Transposes that move down -------------------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The cleanup patterns of the layout conversion that move the NHWC -> NCHW
// transpose after a layer down (LayoutPatterns.h), until it meets the
// NCHW -> NHWC transpose of the next layer and the pair cancels: a
// linalg.generic that reads a transposed value reads the untransposed one
// through a permuted indexing map instead (so the move never adds a
// transpose on the generic's other inputs), a tensor.pad pads in NHWC, and
// an elementwise op whose other operands are such transposes or constants
// computes in NHWC.
//
//===----------------------------------------------------------------------===//

#include "LayoutPatterns.h"
#include "LayoutTransposes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Utils/Utils.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"

using namespace mlir;
using namespace mlir::amp;
using namespace mlir::amp::layout;

namespace {

/// Ends a sink: failure if it changed nothing; a transpose with users left is
/// revisited.
LogicalResult finishSink(PatternRewriter &rewriter, Operation *transpose,
                         bool changed) {
  if (!changed)
    return failure();
  // Other patterns may move it below its remaining users: revisit it.
  if (!transpose->use_empty())
    rewriter.modifyOpInPlace(transpose, [] {});
  return success();
}

/// Moves an NHWC -> NCHW linalg.transpose below one of its linalg.generic or
/// tensor.pad users.
struct SinkChannelsFirstTranspose : public LayoutPattern<linalg::TransposeOp> {
  using LayoutPattern::LayoutPattern;

  LogicalResult matchAndRewrite(linalg::TransposeOp transpose,
                                PatternRewriter &rewriter) const override {
    if (!isTransposeWith(transpose, kToChannelsFirst) || frozen(transpose))
      return failure();
    // All users at once: the driver does not revisit this transpose.
    SmallVector<Operation *> generics, pads;
    for (OpOperand &use : transpose->getResult(0).getUses()) {
      Operation *user = use.getOwner();
      if (auto generic = dyn_cast<linalg::GenericOp>(user)) {
        if (generic.hasPureTensorSemantics() && generic.isDpsInput(&use) &&
            !llvm::is_contained(generics, user))
          generics.push_back(user);
      } else if (isa<tensor::PadOp>(user) && use.getOperandNumber() == 0) {
        pads.push_back(user);
      }
    }
    for (Operation *generic : generics)
      rewriteGeneric(rewriter, cast<linalg::GenericOp>(generic));
    for (Operation *pad : pads)
      rewritePad(rewriter, cast<tensor::PadOp>(pad), transpose);
    return finishSink(rewriter, transpose,
                      !generics.empty() || !pads.empty());
  }

private:
  /// Reads the transposed inputs of `generic` untransposed through permuted
  /// maps; an all-parallel generic with permutation output maps may then
  /// compute its outputs in NHWC, followed by transposes back.
  void rewriteGeneric(PatternRewriter &rewriter,
                      linalg::GenericOp generic) const {
    Location loc = generic.getLoc();
    SmallVector<AffineMap> maps = generic.getIndexingMapsArray();
    SmallVector<Value> operands(generic->getOperands());
    for (OpOperand *input : generic.getDpsInputOperands()) {
      Operation *def = input->get().getDefiningOp();
      if (!isTransposeWith(def, kToChannelsFirst) || frozen(def))
        continue;
      unsigned index = input->getOperandNumber();
      operands[index] = getTransposeInput(def);
      maps[index] = permuteResults(maps[index], kToChannelsLast);
    }

    // An elementwise generic computes its outputs in NHWC when more of its
    // inputs are then read in the order of the output than now (a generic
    // that already produces NHWC and absorbs one more transpose stays).
    bool toChannelsLast =
        llvm::all_of(generic.getIteratorTypesArray(),
                     linalg::isParallelIterator) &&
        llvm::all_of(generic.getDpsInitsMutable(), [&](OpOperand &init) {
          auto type = dyn_cast<RankedTensorType>(init.get().getType());
          return type && type.getRank() == 4 &&
                 generic.getMatchingIndexingMap(&init).isPermutation();
        });
    if (toChannelsLast) {
      AffineMap output =
          maps[generic.getDpsInitsMutable()[0].getOperandNumber()];
      AffineMap switched = permuteResults(output, kToChannelsLast);
      int64_t alignedNow = 0, alignedSwitched = 0;
      for (OpOperand *input : generic.getDpsInputOperands()) {
        AffineMap map = maps[input->getOperandNumber()];
        alignedNow += readsInOrder(map, output);
        alignedSwitched += readsInOrder(map, switched);
      }
      toChannelsLast = alignedSwitched > alignedNow;
    }
    rewriter.setInsertionPoint(generic);
    AffineMap inverse;
    if (toChannelsLast) {
      for (OpOperand &init : generic.getDpsInitsMutable()) {
        unsigned index = init.getOperandNumber();
        operands[index] =
            generic.payloadUsesValueFromOperand(&init)
                ? createTranspose(rewriter, loc, init.get(), kToChannelsLast)
                : createEmptyPermuted(rewriter, loc, init.get(),
                                      kToChannelsLast);
        maps[index] = permuteResults(maps[index], kToChannelsLast);
      }
      // Rename the (all parallel) loops so that they follow the NHWC output:
      // its map becomes the identity.
      inverse = inversePermutation(
          maps[generic.getDpsInitsMutable()[0].getOperandNumber()]);
      for (AffineMap &map : maps)
        map = map.compose(inverse);
    }

    auto newGeneric = cast<linalg::GenericOp>(rewriter.clone(*generic));
    rewriter.modifyOpInPlace(newGeneric, [&] {
      newGeneric->setOperands(operands);
      newGeneric.setIndexingMapsAttr(rewriter.getAffineMapArrayAttr(maps));
      for (auto [result, init] :
           llvm::zip(newGeneric->getResults(), newGeneric.getDpsInits()))
        result.setType(init.getType());
    });
    if (inverse)
      renameIndexOps(rewriter, newGeneric, inverse);
    SmallVector<Value> replacements(newGeneric->getResults());
    if (toChannelsLast) {
      rewriter.setInsertionPointAfter(newGeneric);
      for (Value &result : replacements)
        result = createTranspose(rewriter, loc, result, kToChannelsFirst);
    }
    rewriter.replaceOp(generic, replacements);
  }

  /// pad(transpose(x)) -> transpose(pad'(x)) with the padding and the
  /// region's index arguments permuted.
  void rewritePad(PatternRewriter &rewriter, tensor::PadOp pad,
                  linalg::TransposeOp transpose) const {
    Location loc = pad.getLoc();
    RankedTensorType type = pad.getResultType();
    auto newType =
        type.clone(applyPermutation(type.getShape(), kToChannelsLast));
    rewriter.setInsertionPoint(pad);
    auto newPad = tensor::PadOp::create(
        rewriter, loc, newType, transpose.getInput(),
        applyPermutation(pad.getMixedLowPad(), kToChannelsLast),
        applyPermutation(pad.getMixedHighPad(), kToChannelsLast),
        pad.getNofold());
    Region &region = newPad.getRegion();
    while (!region.empty())
      rewriter.eraseBlock(&region.back());
    rewriter.inlineRegionBefore(pad.getRegion(), region, region.end());

    // Argument k indexed NCHW dimension k, which is NHWC dimension
    // kToChannelsFirst[k].
    Block &block = region.front();
    if (llvm::any_of(block.getArguments(),
                     [](BlockArgument arg) { return !arg.use_empty(); })) {
      unsigned rank = block.getNumArguments();
      SmallVector<BlockArgument> oldArgs(block.getArguments());
      for (unsigned i = 0; i < rank; ++i)
        block.addArgument(rewriter.getIndexType(), loc);
      for (unsigned k = 0; k < rank; ++k)
        rewriter.replaceAllUsesWith(
            oldArgs[k], block.getArgument(rank + kToChannelsFirst[k]));
      block.eraseArguments(0, rank);
    }

    rewriter.setInsertionPointAfter(newPad);
    rewriter.replaceOp(pad, createTranspose(rewriter, loc, newPad.getResult(),
                                            kToChannelsFirst));
  }
};

/// Elementwise ops through which a transpose moves: TOSA elementwise ops for
/// tosa.transpose (they broadcast between equal ranks), ops with the
/// Elementwise trait (arith and math on tensors, the casts of mixed
/// precision) for linalg.transpose.
template <typename TransposeOpTy> bool isElementwiseFor(Operation *op) {
  if constexpr (std::is_same_v<TransposeOpTy, tosa::TransposeOp>)
    return op->hasTrait<OpTrait::tosa::TosaElementwiseOperator>() ||
           isa<tosa::MulOp, tosa::CastOp>(op);
  else
    return op->hasTrait<OpTrait::Elementwise>() && op->getNumRegions() == 0;
}

/// Moves an NHWC -> NCHW transpose below elementwise users whose other
/// rank-4 operands are such transposes too or constants.
template <typename TransposeOpTy>
struct SinkChannelsFirstThroughElementwise
    : public LayoutPattern<TransposeOpTy> {
  using LayoutPattern<TransposeOpTy>::LayoutPattern;
  static constexpr bool kTosa =
      std::is_same_v<TransposeOpTy, tosa::TransposeOp>;

  LogicalResult matchAndRewrite(TransposeOpTy transpose,
                                PatternRewriter &rewriter) const override {
    if (!isTransposeWith(transpose, kToChannelsFirst) ||
        this->frozen(transpose))
      return failure();
    // All users at once: the driver does not revisit this transpose.
    SmallVector<Operation *> users;
    for (Operation *user : transpose->getUsers())
      if (!llvm::is_contained(users, user))
        users.push_back(user);
    bool changed = false;
    for (Operation *user : users)
      changed |= succeeded(rewriteUser(rewriter, user));
    return finishSink(rewriter, transpose, changed);
  }

private:
  /// The elements of a constant, if `def` is one of the right kind.
  static Attribute getConstantValue(Operation *def) {
    if constexpr (kTosa) {
      if (auto constant = dyn_cast_or_null<tosa::ConstOp>(def))
        return constant.getValues();
    } else {
      if (auto constant = dyn_cast_or_null<arith::ConstantOp>(def))
        return constant.getValue();
    }
    return {};
  }

  /// True if the rank-4 operand `value` can be had in NHWC without a new
  /// transpose.
  bool isMovable(Value value) const {
    Operation *def = value.getDefiningOp();
    if (isTransposeWith(def, kToChannelsFirst) && !this->frozen(def))
      return true;
    return isa_and_nonnull<ElementsAttr>(getConstantValue(def));
  }

  /// The operand `value` of the user in NHWC, or null if it cannot be had
  /// without a new transpose. Operands of other ranks stay as they are.
  Value getChannelsLast(PatternRewriter &rewriter, Value value,
                        Location loc) const {
    auto type = dyn_cast<RankedTensorType>(value.getType());
    if (!type || type.getRank() != 4)
      return value;
    Operation *def = value.getDefiningOp();
    if (isTransposeWith(def, kToChannelsFirst) && !this->frozen(def))
      return getTransposeInput(def);
    TypedAttr transposed =
        transposeElements(getConstantValue(def), kToChannelsLast);
    if (!transposed)
      return {};
    if constexpr (kTosa)
      return tosa::ConstOp::create(rewriter, loc, transposed.getType(),
                                   cast<ElementsAttr>(transposed));
    else
      return arith::ConstantOp::create(rewriter, loc, transposed);
  }

  LogicalResult rewriteUser(PatternRewriter &rewriter, Operation *user) const {
    if (!isElementwiseFor<TransposeOpTy>(user) || user->getNumResults() != 1)
      return failure();
    auto resultType = dyn_cast<RankedTensorType>(user->getResult(0).getType());
    if (!resultType || resultType.getRank() != 4)
      return failure();
    // Check first, so that a failure creates nothing.
    for (Value operand : user->getOperands()) {
      auto type = dyn_cast<RankedTensorType>(operand.getType());
      if (type && type.getRank() == 4 && !isMovable(operand))
        return failure();
    }
    Location loc = user->getLoc();
    rewriter.setInsertionPoint(user);
    SmallVector<Value> operands;
    for (Value operand : user->getOperands()) {
      Value channelsLast = getChannelsLast(rewriter, operand, loc);
      if (!channelsLast)
        return failure();
      operands.push_back(channelsLast);
    }
    Operation *newOp = rewriter.clone(*user);
    rewriter.modifyOpInPlace(newOp, [&] {
      newOp->setOperands(operands);
      newOp->getResult(0).setType(resultType.clone(
          applyPermutation(resultType.getShape(), kToChannelsLast)));
    });
    rewriter.setInsertionPointAfter(newOp);
    Value back = kTosa ? createTosaTranspose(rewriter, loc, newOp->getResult(0),
                                             kToChannelsFirst)
                       : createTranspose(rewriter, loc, newOp->getResult(0),
                                         kToChannelsFirst);
    rewriter.replaceOp(user, back);
    return success();
  }
};

} // namespace

void layout::populateTransposeSinkingPatterns(
    RewritePatternSet &patterns, const FrozenTransposeFn &isFrozen) {
  patterns.add<SinkChannelsFirstTranspose,
               SinkChannelsFirstThroughElementwise<linalg::TransposeOp>,
               SinkChannelsFirstThroughElementwise<tosa::TransposeOp>>(
      patterns.getContext(), isFrozen);
}
