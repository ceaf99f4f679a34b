//===- TransposeFolding.cpp - Transposes that fold or cancel --------------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The cleanup patterns of the layout conversion that remove a transpose
// (LayoutPatterns.h): a transpose of a constant, an empty or a fill becomes
// one of the transposed shape, a transpose to NHWC of an elementwise
// generic moves into the generic's output map, and a transpose of a
// transpose with the inverse permutation cancels.
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

/// transpose(constant | tensor.empty | linalg.fill) -> constant | empty |
/// fill of the transposed shape.
struct FoldTransposeOfProducer : public LayoutPattern<linalg::TransposeOp> {
  using LayoutPattern::LayoutPattern;

  LogicalResult matchAndRewrite(linalg::TransposeOp transpose,
                                PatternRewriter &rewriter) const override {
    if (!transpose.hasPureTensorSemantics())
      return failure();
    ArrayRef<int64_t> perm = transpose.getPermutation();
    Operation *def = transpose.getInput().getDefiningOp();
    if (!def)
      return failure();
    // A constant, possibly seen through a reshape (depthwise filters).
    RankedTensorType viewType;
    if (isa<tensor::CollapseShapeOp, tensor::ExpandShapeOp>(def)) {
      viewType = cast<RankedTensorType>(def->getResult(0).getType());
      def = def->getOperand(0).getDefiningOp();
      if (!isa_and_nonnull<arith::ConstantOp>(def))
        return failure();
    }
    if (auto constant = dyn_cast<arith::ConstantOp>(def)) {
      TypedAttr value = transposeElements(constant.getValue(), perm, viewType);
      if (!value)
        return failure();
      rewriter.replaceOpWithNewOp<arith::ConstantOp>(transpose, value);
      return success();
    }
    if (auto empty = dyn_cast<tensor::EmptyOp>(def)) {
      rewriter.replaceOpWithNewOp<tensor::EmptyOp>(
          transpose, applyPermutation(empty.getMixedSizes(), perm),
          empty.getType().getElementType());
      return success();
    }
    if (auto fill = dyn_cast<linalg::FillOp>(def);
        fill && fill.hasPureTensorSemantics()) {
      Value init = createTranspose(rewriter, transpose.getLoc(),
                                   fill.getOutputs()[0], perm);
      rewriter.replaceOpWithNewOp<linalg::FillOp>(transpose, fill.getInputs(),
                                                  ValueRange{init});
      return success();
    }
    // Only transposes to NHWC move up into generics: those back to NCHW move
    // down (SinkChannelsFirstTranspose), and would undo each other.
    if (auto generic = dyn_cast<linalg::GenericOp>(def);
        generic && perm == ArrayRef<int64_t>(kToChannelsLast))
      return foldIntoGeneric(rewriter, generic, perm);
    return failure();
  }

private:
  /// An elementwise generic (a broadcast, say) whose only users are
  /// transposes with permutation `perm` produces the transposed value
  /// itself.
  LogicalResult foldIntoGeneric(PatternRewriter &rewriter,
                                linalg::GenericOp generic,
                                ArrayRef<int64_t> perm) const {
    if (!generic.hasPureTensorSemantics() || generic.getNumDpsInits() != 1 ||
        !llvm::all_of(generic.getIteratorTypesArray(),
                      linalg::isParallelIterator))
      return failure();
    OpOperand &init = generic.getDpsInitsMutable()[0];
    AffineMap output = generic.getMatchingIndexingMap(&init);
    if (!output.isPermutation() ||
        output.getNumResults() != static_cast<unsigned>(perm.size()))
      return failure();
    SmallVector<linalg::TransposeOp> users;
    for (Operation *user : generic->getUsers()) {
      auto transpose = dyn_cast<linalg::TransposeOp>(user);
      if (!transpose || transpose.getPermutation() != perm)
        return failure();
      users.push_back(transpose);
    }

    // Output map permuted, then loops renamed to follow the new output.
    Location loc = generic.getLoc();
    rewriter.setInsertionPoint(generic);
    Value newInit = generic.payloadUsesValueFromOperand(&init)
                        ? createTranspose(rewriter, loc, init.get(), perm)
                        : createEmptyPermuted(rewriter, loc, init.get(), perm);
    SmallVector<AffineMap> maps = generic.getIndexingMapsArray();
    unsigned initIndex = init.getOperandNumber();
    maps[initIndex] = permuteResults(maps[initIndex], perm);
    AffineMap inverse = inversePermutation(maps[initIndex]);
    for (AffineMap &map : maps)
      map = map.compose(inverse);
    auto newGeneric = cast<linalg::GenericOp>(rewriter.clone(*generic));
    rewriter.modifyOpInPlace(newGeneric, [&] {
      newGeneric->setOperand(initIndex, newInit);
      newGeneric.setIndexingMapsAttr(rewriter.getAffineMapArrayAttr(maps));
      newGeneric->getResult(0).setType(newInit.getType());
    });
    renameIndexOps(rewriter, newGeneric, inverse);
    for (linalg::TransposeOp user : users)
      rewriter.replaceOp(user, newGeneric->getResult(0));
    return success();
  }
};

/// tosa.transpose(tosa.const) -> tosa.const.
struct FoldTosaTransposeOfConst : public LayoutPattern<tosa::TransposeOp> {
  using LayoutPattern::LayoutPattern;

  LogicalResult matchAndRewrite(tosa::TransposeOp transpose,
                                PatternRewriter &rewriter) const override {
    auto constant = transpose.getInput1().getDefiningOp<tosa::ConstOp>();
    if (!constant)
      return failure();
    TypedAttr value =
        transposeElements(constant.getValues(),
                          llvm::to_vector_of<int64_t>(transpose.getPerms()));
    if (!value)
      return failure();
    rewriter.replaceOpWithNewOp<tosa::ConstOp>(transpose, value.getType(),
                                               cast<ElementsAttr>(value));
    return success();
  }
};

/// transpose(transpose(x)) -> x when the two permutations are inverse. Rooted
/// at either transpose, so that a pair whose outer transpose is not on the
/// worklist cancels too.
template <typename OpTy>
struct CancelInverseTransposes : public LayoutPattern<OpTy> {
  using LayoutPattern<OpTy>::LayoutPattern;

  /// True if `outer` undoes `inner`.
  bool cancels(Operation *inner, Operation *outer) const {
    std::optional<SmallVector<int64_t>> innerPerm =
        getTransposePermutation(inner);
    std::optional<SmallVector<int64_t>> outerPerm =
        getTransposePermutation(outer);
    if (!innerPerm || !outerPerm || innerPerm->size() != outerPerm->size() ||
        this->frozen(inner) || this->frozen(outer))
      return false;
    // Dimension i of the outer result is dimension inner[outer[i]] of x.
    for (auto [i, dim] : llvm::enumerate(*outerPerm))
      if ((*innerPerm)[dim] != static_cast<int64_t>(i))
        return false;
    return true;
  }

  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    // As the outer transpose.
    Operation *inner = getTransposeInput(op).getDefiningOp();
    if (inner && isa<OpTy>(inner) && cancels(inner, op)) {
      rewriter.replaceOp(op, getTransposeInput(inner));
      return success();
    }
    // As the inner transpose, for all users at once.
    SmallVector<Operation *> outers;
    for (Operation *user : op->getUsers())
      if (isa<OpTy>(user) && getTransposeInput(user) == op->getResult(0) &&
          cancels(op, user) && !llvm::is_contained(outers, user))
        outers.push_back(user);
    for (Operation *outer : outers)
      rewriter.replaceOp(outer, getTransposeInput(op));
    return success(!outers.empty());
  }
};

} // namespace

void layout::populateTransposeFoldingPatterns(
    RewritePatternSet &patterns, const FrozenTransposeFn &isFrozen) {
  patterns.add<FoldTransposeOfProducer, FoldTosaTransposeOfConst,
               CancelInverseTransposes<linalg::TransposeOp>,
               CancelInverseTransposes<tosa::TransposeOp>>(
      patterns.getContext(), isFrozen);
}
