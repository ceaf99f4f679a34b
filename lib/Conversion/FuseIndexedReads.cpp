//===- FuseIndexedReads.cpp - Fusion by recomputation at read indices -----===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Upstream's elementwise fusion joins a generic producer to a generic
// consumer only when the consumer reads it directly. Data movement between
// them stops it: a rotate-half in RoPE (two tensor.extract_slice halves, one
// negated, put back together by two tensor.insert_slice into an empty
// tensor), a gather table sliced out of a bigger one, a reshape next to a
// broadcast. Each of those became a copy kernel (and kept the transposes
// before them alive as kernels of their own).
//
// These patterns fuse such chains by recomputing a value where it is read:
//
//  * a generic's input that is an insert_slice, or a reshape or slice of a
//    recomputable value, is read in the body instead
//    (`tensor.extract %v[map(indices)]`);
//  * a generic's input that is a static slice of a generic's result reads
//    that result with the slice folded into its indexing map (upstream's
//    fusion takes it from there);
//  * a `tensor.extract` in a generic's body moves to what its tensor is made
//    of: through extract_slice, expand_shape and collapse_shape (index
//    arithmetic), insert_slice (an scf.if on the position), tensor.empty
//    and linalg.fill (a scalar), and elementwise generics (their body
//    evaluated at that point).
//
// A generic that reads the result of a contraction, a convolution, a
// reduction or a named kernel is not recomputed: it is that kernel's
// epilogue (or a member of its row kernel) and stays where it is; reads
// stop at its result.
//
//===----------------------------------------------------------------------===//

#include "amp/Conversion/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::amp;

/// Body size above which no more producers are recomputed into a generic
/// (a guard against chains that read one value many times).
static constexpr int64_t kMaxRecomputedBody = 512;

static bool readsKernelResult(linalg::GenericOp op);

/// Whether `op` is an elementwise generic that can be evaluated at any one
/// point: parallel loops, permutation output maps, no use of the outputs'
/// old values, and not a kernel's epilogue or a member of a row kernel (it
/// reads no contraction, convolution, reduction or named kernel).
static bool isRecomputableGeneric(Operation *op) {
  auto generic = dyn_cast_or_null<linalg::GenericOp>(op);
  if (!generic || generic->hasAttr(kKernelNameAttrName) ||
      !generic.hasPureTensorSemantics() ||
      generic.getNumReductionLoops() != 0)
    return false;
  for (OpOperand &init : generic.getDpsInitsMutable())
    if (!generic.getMatchingIndexingMap(&init).isPermutation())
      return false;
  for (BlockArgument arg : generic.getRegionOutputArgs())
    if (!arg.use_empty())
      return false;
  return !readsKernelResult(generic);
}

/// Whether `op` reads a kernel's result (a contraction, convolution,
/// reduction or named kernel), directly or through reshapes and slices: it
/// is that kernel's epilogue, or a member of its row kernel, and keeps the
/// form those kernels match.
static bool readsKernelResult(linalg::GenericOp op) {
  for (Value input : op.getDpsInputs()) {
    // Through reshapes and slices: a convolution's result reaches its batch
    // norm as an expand_shape of the matmul it became.
    while (Operation *def = input.getDefiningOp()) {
      if (auto expand = dyn_cast<tensor::ExpandShapeOp>(def))
        input = expand.getSrc();
      else if (auto collapse = dyn_cast<tensor::CollapseShapeOp>(def))
        input = collapse.getSrc();
      else if (auto slice = dyn_cast<tensor::ExtractSliceOp>(def))
        input = slice.getSource();
      else
        break;
    }
    auto producer = input.getDefiningOp<linalg::LinalgOp>();
    if (!producer)
      continue;
    auto generic = dyn_cast<linalg::GenericOp>(producer.getOperation());
    if (!generic || generic->hasAttr(kKernelNameAttrName) ||
        generic.getNumReductionLoops() != 0)
      return true;
  }
  return false;
}

static bool hasStaticSlice(OffsetSizeAndStrideOpInterface op) {
  return op.hasUnitStride() && llvm::all_of(op.getMixedOffsets(),
                                            [](OpFoldResult ofr) {
                                              return getConstantIntValue(ofr)
                                                  .has_value();
                                            });
}

/// Whether reading `v` at one point can be replaced by recomputing it there:
/// an insert_slice, or a value made by an elementwise generic, seen through
/// reshapes and slices.
static bool isRecomputable(Value v) {
  for (;;) {
    Operation *def = v.getDefiningOp();
    if (!def)
      return false;
    if (auto slice = dyn_cast<tensor::ExtractSliceOp>(def)) {
      if (!hasStaticSlice(slice))
        return false;
      v = slice.getSource();
      continue;
    }
    if (auto expand = dyn_cast<tensor::ExpandShapeOp>(def)) {
      if (!expand.getSrcType().hasStaticShape())
        return false;
      v = expand.getSrc();
      continue;
    }
    if (auto collapse = dyn_cast<tensor::CollapseShapeOp>(def)) {
      if (!collapse.getSrcType().hasStaticShape())
        return false;
      v = collapse.getSrc();
      continue;
    }
    if (auto insert = dyn_cast<tensor::InsertSliceOp>(def))
      return hasStaticSlice(insert) && insert.getSourceType().hasStaticShape();
    return isRecomputableGeneric(def);
  }
}

/// The generic whose body holds `op`, if it is one this file rewrites.
static linalg::GenericOp enclosingFusibleGeneric(Operation *op) {
  auto generic = op->getParentOfType<linalg::GenericOp>();
  if (!generic || generic->hasAttr(kKernelNameAttrName) ||
      readsKernelResult(generic))
    return {};
  return generic;
}

static Value indexConstant(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIndexOp::create(b, loc, v);
}

/// `expr` applied to `operands` (folded where constant).
static Value applyExpr(OpBuilder &b, Location loc, AffineExpr expr,
                       ValueRange operands) {
  AffineMap map = AffineMap::get(operands.size(), 0, expr);
  OpFoldResult result =
      affine::makeComposedFoldedAffineApply(b, loc, map,
                                            llvm::to_vector_of<OpFoldResult>(
                                                operands));
  return getValueOrCreateConstantIndexOp(b, loc, result);
}

namespace {

/// A generic's input that is an insert_slice, or a reshape or slice of a
/// recomputable value, is read in the body at the indices its map gives.
struct ReadInputInBody : public OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rewriter) const override {
    if (op->hasAttr(kKernelNameAttrName) || !op.hasPureTensorSemantics() ||
        op.getNumReductionLoops() != 0 || readsKernelResult(op) ||
        static_cast<int64_t>(op.getBlock()->getOperations().size()) >
            kMaxRecomputedBody)
      return failure();
    OpOperand *chosen = nullptr;
    for (OpOperand *input : op.getDpsInputOperands()) {
      Operation *def = input->get().getDefiningOp();
      if (!def || !isa<RankedTensorType>(input->get().getType()))
        continue;
      // Generic producers: upstream's fusion. Slices of generics: folded
      // into the map (FoldSliceIntoMap).
      if (isa<linalg::GenericOp>(def))
        continue;
      if (auto slice = dyn_cast<tensor::ExtractSliceOp>(def))
        if (isa_and_nonnull<linalg::GenericOp>(
                slice.getSource().getDefiningOp()))
          continue;
      if (!isa<tensor::InsertSliceOp, tensor::ExpandShapeOp,
               tensor::CollapseShapeOp, tensor::ExtractSliceOp>(def) ||
          !isRecomputable(input->get()))
        continue;
      chosen = input;
      break;
    }
    if (!chosen)
      return failure();

    unsigned position = chosen->getOperandNumber();
    AffineMap map = op.getMatchingIndexingMap(chosen);
    Value source = chosen->get();
    Location loc = op.getLoc();

    SmallVector<Value> inputs;
    SmallVector<AffineMap> maps;
    for (OpOperand *input : op.getDpsInputOperands()) {
      if (input == chosen)
        continue;
      inputs.push_back(input->get());
      maps.push_back(op.getMatchingIndexingMap(input));
    }
    for (OpOperand &init : op.getDpsInitsMutable())
      maps.push_back(op.getMatchingIndexingMap(&init));

    auto fused = linalg::GenericOp::create(
        rewriter, loc, op.getResultTypes(), inputs, op.getDpsInits(), maps,
        op.getIteratorTypesArray(), /*doc=*/"", /*libraryCall=*/"");
    fused->setDiscardableAttrs(op->getDiscardableAttrDictionary());
    rewriter.inlineRegionBefore(op.getRegion(), fused.getRegion(),
                                fused.getRegion().begin());
    Block *body = fused.getBlock();
    rewriter.setInsertionPointToStart(body);
    SmallVector<Value> loops;
    for (unsigned d = 0; d < op.getNumLoops(); ++d)
      loops.push_back(linalg::IndexOp::create(rewriter, loc, d));
    SmallVector<Value> indices;
    for (AffineExpr expr : map.getResults())
      indices.push_back(applyExpr(rewriter, loc, expr, loops));
    Value element = tensor::ExtractOp::create(rewriter, loc, source, indices);
    BlockArgument arg = body->getArgument(position);
    rewriter.replaceAllUsesWith(arg, element);
    body->eraseArgument(position);
    rewriter.replaceOp(op, fused->getResults());
    return success();
  }
};

/// A generic's input that is a static unit-stride slice of a generic's
/// result reads that result, the slice folded into its indexing map.
struct FoldSliceIntoMap : public OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rewriter) const override {
    if (op->hasAttr(kKernelNameAttrName) || !op.hasPureTensorSemantics() ||
        op.getNumReductionLoops() != 0 || readsKernelResult(op))
      return failure();
    for (OpOperand *input : op.getDpsInputOperands()) {
      auto slice = input->get().getDefiningOp<tensor::ExtractSliceOp>();
      if (!slice || !hasStaticSlice(slice) ||
          !isRecomputableGeneric(slice.getSource().getDefiningOp()))
        continue;
      AffineMap map = op.getMatchingIndexingMap(input);
      llvm::SmallBitVector dropped = slice.getDroppedDims();
      SmallVector<AffineExpr> exprs;
      unsigned next = 0;
      for (auto [dim, offset] : llvm::enumerate(slice.getStaticOffsets())) {
        AffineExpr base = getAffineConstantExpr(offset, op.getContext());
        if (dropped.test(dim))
          exprs.push_back(base);
        else
          exprs.push_back(base + map.getResult(next++));
      }
      SmallVector<AffineMap> maps = op.getIndexingMapsArray();
      maps[input->getOperandNumber()] =
          AffineMap::get(map.getNumDims(), 0, exprs, op.getContext());
      rewriter.modifyOpInPlace(op, [&] {
        input->set(slice.getSource());
        op.setIndexingMapsAttr(rewriter.getAffineMapArrayAttr(maps));
      });
      return success();
    }
    return failure();
  }
};

/// A tensor.extract in a fusible generic's body reads what its tensor is
/// made of instead.
struct ExtractFromProducer : public OpRewritePattern<tensor::ExtractOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(tensor::ExtractOp op,
                                PatternRewriter &rewriter) const override {
    linalg::GenericOp generic = enclosingFusibleGeneric(op);
    if (!generic)
      return failure();
    Operation *def = op.getTensor().getDefiningOp();
    if (!def)
      return failure();
    Location loc = op.getLoc();
    SmallVector<Value> indices(op.getIndices());

    if (auto slice = dyn_cast<tensor::ExtractSliceOp>(def)) {
      if (!hasStaticSlice(slice))
        return failure();
      llvm::SmallBitVector dropped = slice.getDroppedDims();
      SmallVector<Value> source;
      unsigned next = 0;
      for (auto [dim, offset] : llvm::enumerate(slice.getStaticOffsets())) {
        if (dropped.test(dim)) {
          source.push_back(indexConstant(rewriter, loc, offset));
          continue;
        }
        AffineExpr d0 = rewriter.getAffineDimExpr(0);
        source.push_back(
            applyExpr(rewriter, loc, d0 + offset, {indices[next++]}));
      }
      rewriter.replaceOpWithNewOp<tensor::ExtractOp>(op, slice.getSource(),
                                                     source);
      return success();
    }

    if (auto expand = dyn_cast<tensor::ExpandShapeOp>(def)) {
      RankedTensorType resultType = expand.getResultType();
      if (!resultType.hasStaticShape())
        return failure();
      // Each source dimension: the row-major linearization of its group.
      SmallVector<Value> source;
      for (ReassociationIndices group : expand.getReassociationIndices()) {
        AffineExpr expr = rewriter.getAffineConstantExpr(0);
        SmallVector<Value> operands;
        for (int64_t dim : group) {
          expr = expr * resultType.getDimSize(dim) +
                 rewriter.getAffineDimExpr(operands.size());
          operands.push_back(indices[dim]);
        }
        source.push_back(applyExpr(rewriter, loc, expr, operands));
      }
      rewriter.replaceOpWithNewOp<tensor::ExtractOp>(op, expand.getSrc(),
                                                     source);
      return success();
    }

    if (auto collapse = dyn_cast<tensor::CollapseShapeOp>(def)) {
      RankedTensorType sourceType = collapse.getSrcType();
      if (!sourceType.hasStaticShape())
        return failure();
      SmallVector<Value> source;
      for (auto [result, group] :
           llvm::enumerate(collapse.getReassociationIndices())) {
        // Dimension `dim` of the group: (i / stride) mod size.
        int64_t stride = 1;
        SmallVector<Value> parts(group.size());
        for (int64_t k = static_cast<int64_t>(group.size()) - 1; k >= 0;
             --k) {
          int64_t size = sourceType.getDimSize(group[k]);
          AffineExpr d0 = rewriter.getAffineDimExpr(0);
          AffineExpr expr = d0.floorDiv(stride);
          if (k != 0)
            expr = expr % size;
          parts[k] = applyExpr(rewriter, loc, expr, {indices[result]});
          stride *= size;
        }
        llvm::append_range(source, parts);
      }
      rewriter.replaceOpWithNewOp<tensor::ExtractOp>(op, collapse.getSrc(),
                                                     source);
      return success();
    }

    if (auto insert = dyn_cast<tensor::InsertSliceOp>(def)) {
      if (!hasStaticSlice(insert) || !insert.getSourceType().hasStaticShape())
        return failure();
      RankedTensorType destType = insert.getDestType();
      llvm::SmallBitVector dropped = insert.getDroppedDims();
      Value inside;
      SmallVector<Value> source;
      for (auto [dim, offset, size] :
           llvm::enumerate(insert.getStaticOffsets(), insert.getStaticSizes())) {
        Value index = indices[dim];
        bool whole = offset == 0 && !destType.isDynamicDim(dim) &&
                     size == destType.getDimSize(dim);
        if (!whole) {
          auto ge = arith::CmpIOp::create(
              rewriter, loc, arith::CmpIPredicate::sge, index,
              indexConstant(rewriter, loc, offset));
          auto lt = arith::CmpIOp::create(
              rewriter, loc, arith::CmpIPredicate::slt, index,
              indexConstant(rewriter, loc, offset + size));
          Value both = arith::AndIOp::create(rewriter, loc, ge, lt);
          inside = inside ? arith::AndIOp::create(rewriter, loc, inside, both)
                                .getResult()
                          : both;
        }
        if (dropped.test(dim))
          continue;
        AffineExpr d0 = rewriter.getAffineDimExpr(0);
        source.push_back(applyExpr(rewriter, loc, d0 - offset, {index}));
      }
      if (!inside) {
        rewriter.replaceOpWithNewOp<tensor::ExtractOp>(op, insert.getSource(),
                                                       source);
        return success();
      }
      auto ifOp = scf::IfOp::create(rewriter, loc, TypeRange{op.getType()},
                                    inside, /*withElseRegion=*/true);
      {
        OpBuilder::InsertionGuard guard(rewriter);
        rewriter.setInsertionPointToStart(ifOp.thenBlock());
        Value v = tensor::ExtractOp::create(rewriter, loc, insert.getSource(),
                                            source);
        scf::YieldOp::create(rewriter, loc, v);
        rewriter.setInsertionPointToStart(ifOp.elseBlock());
        v = tensor::ExtractOp::create(rewriter, loc, insert.getDest(), indices);
        scf::YieldOp::create(rewriter, loc, v);
      }
      rewriter.replaceOp(op, ifOp.getResults());
      return success();
    }

    if (isa<tensor::EmptyOp>(def)) {
      // Never written: any value is right; zero keeps the code simple.
      rewriter.replaceOpWithNewOp<arith::ConstantOp>(
          op, rewriter.getZeroAttr(op.getType()));
      return success();
    }

    if (auto fill = dyn_cast<linalg::FillOp>(def)) {
      if (!fill.hasPureTensorSemantics())
        return failure();
      Value value = fill.getDpsInputs()[0];
      if (value.getType() != op.getType())
        return failure();
      rewriter.replaceOp(op, value);
      return success();
    }

    if (!isRecomputableGeneric(def))
      return failure();
    auto producer = cast<linalg::GenericOp>(def);
    if (static_cast<int64_t>(generic.getBlock()->getOperations().size()) +
            static_cast<int64_t>(producer.getBlock()->getOperations().size()) >
        kMaxRecomputedBody)
      return failure();
    unsigned resultNumber = cast<OpResult>(op.getTensor()).getResultNumber();
    AffineMap outMap = producer.getIndexingMapMatchingResult(
        cast<OpResult>(op.getTensor()));
    // The producer's loop indices of the point read.
    SmallVector<Value> loops(producer.getNumLoops());
    for (unsigned r = 0; r < outMap.getNumResults(); ++r)
      loops[outMap.getDimPosition(r)] = indices[r];
    IRMapping mapping;
    // One read per distinct (input, map): an input read twice is read once.
    DenseMap<std::pair<Value, AffineMap>, Value> reads;
    for (OpOperand *input : producer.getDpsInputOperands()) {
      BlockArgument arg = producer.getMatchingBlockArgument(input);
      if (arg.use_empty())
        continue;
      AffineMap map = producer.getMatchingIndexingMap(input);
      Value &read = reads[{input->get(), map}];
      if (!read) {
        if (auto type = dyn_cast<RankedTensorType>(input->get().getType())) {
          SmallVector<Value> at;
          for (AffineExpr expr : map.getResults())
            at.push_back(applyExpr(rewriter, loc, expr, loops));
          read = tensor::ExtractOp::create(rewriter, loc, input->get(), at);
        } else {
          read = input->get(); // a scalar input
        }
      }
      mapping.map(arg, read);
    }
    Block *body = producer.getBlock();
    for (Operation &inner : body->without_terminator()) {
      if (auto index = dyn_cast<linalg::IndexOp>(inner)) {
        mapping.map(index.getResult(), loops[index.getDim()]);
        continue;
      }
      rewriter.clone(inner, mapping);
    }
    Value yielded = body->getTerminator()->getOperand(resultNumber);
    rewriter.replaceOp(op, mapping.lookupOrDefault(yielded));
    return success();
  }
};

/// Whether `v` is a function argument or a constant, seen through slices
/// and reshapes: reading it where it is used costs no kernel.
static bool isViewOfInput(Value v) {
  for (;;) {
    if (isa<BlockArgument>(v))
      return true;
    Operation *def = v.getDefiningOp();
    if (!def)
      return false;
    if (isa<arith::ConstantOp>(def))
      return true;
    if (auto slice = dyn_cast<tensor::ExtractSliceOp>(def)) {
      v = slice.getSource();
      continue;
    }
    if (auto expand = dyn_cast<tensor::ExpandShapeOp>(def)) {
      v = expand.getSrc();
      continue;
    }
    if (auto collapse = dyn_cast<tensor::CollapseShapeOp>(def)) {
      v = collapse.getSrc();
      continue;
    }
    return false;
  }
}

/// A tensor assembled by insert_slices into an empty tensor (a
/// concatenation, a rotate-half) from pieces that are computed elementwise
/// or are views of inputs, used by something other than a generic, becomes
/// one generic that reads the assembly where it writes: one kernel instead
/// of one per piece. (Pieces made by other kernels, such as a matmul's
/// result, are written in place already and keep that form.)
struct AssembleInOneGeneric : public OpRewritePattern<tensor::InsertSliceOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(tensor::InsertSliceOp op,
                                PatternRewriter &rewriter) const override {
    RankedTensorType type = op.getResultType();
    if (!type.hasStaticShape())
      return failure();
    // The last insert of the chain, with a use that is not a read that the
    // other patterns take.
    auto isTakenRead = [](OpOperand &use) {
      Operation *user = use.getOwner();
      if (isa<tensor::InsertSliceOp>(user))
        return use.getOperandNumber() == 1; // the destination of the next
      if (isa<tensor::ExtractOp>(user))
        return static_cast<bool>(enclosingFusibleGeneric(user));
      return false;
    };
    if (llvm::all_of(op->getUses(), isTakenRead))
      return failure();
    // Every piece down to the empty tensor.
    Value dest = op.getResult();
    while (auto insert = dest.getDefiningOp<tensor::InsertSliceOp>()) {
      if (!hasStaticSlice(insert) || !insert.getSourceType().hasStaticShape())
        return failure();
      Value piece = insert.getSource();
      if (!isRecomputable(piece) && !isViewOfInput(piece))
        return failure();
      dest = insert.getDest();
    }
    if (!dest.getDefiningOp<tensor::EmptyOp>())
      return failure();

    Location loc = op.getLoc();
    unsigned rank = type.getRank();
    Value init = tensor::EmptyOp::create(rewriter, loc, type.getShape(),
                                         type.getElementType());
    SmallVector<AffineMap> maps = {rewriter.getMultiDimIdentityMap(rank)};
    SmallVector<utils::IteratorType> iterators(rank,
                                               utils::IteratorType::parallel);
    Value assembled = op.getResult();
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{type}, ValueRange{}, ValueRange{init}, maps,
        iterators, [&](OpBuilder &b, Location l, ValueRange) {
          SmallVector<Value> indices;
          for (unsigned d = 0; d < rank; ++d)
            indices.push_back(linalg::IndexOp::create(b, l, d));
          Value v = tensor::ExtractOp::create(b, l, assembled, indices);
          linalg::YieldOp::create(b, l, v);
        });
    rewriter.replaceUsesWithIf(op.getResult(), generic->getResult(0),
                               [&](OpOperand &use) {
                                 return use.getOwner() != generic &&
                                        !generic->isAncestor(use.getOwner()) &&
                                        !isTakenRead(use);
                               });
    return success();
  }
};

} // namespace

void mlir::amp::populateAmpGPUIndexedReadFusionPatterns(
    RewritePatternSet &patterns) {
  patterns.add<ReadInputInBody, FoldSliceIntoMap, ExtractFromProducer,
               AssembleInOneGeneric>(
      patterns.getContext());
}
