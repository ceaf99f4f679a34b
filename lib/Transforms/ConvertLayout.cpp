//===- ConvertLayout.cpp - Channels-last convolutions and poolings --------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Two steps:
//  1. convertToChannelsLast rewrites one NCHW layer, found in a table keyed by
//     op name, into its NHWC form with four transposes (input, filter, init,
//     result).
//  2. The cleanup patterns, all rooted at transposes, remove most of them:
//     transposes of constants, empties and fills fold; the NHWC -> NCHW
//     transpose after a layer moves down through elementwise ops and pads
//     until it meets the NCHW -> NHWC transpose of the next layer, and the
//     pair cancels. A linalg.generic that reads a transposed value reads the
//     untransposed one through a permuted indexing map instead, so the move
//     never adds a transpose on the generic's other inputs.
//
//===----------------------------------------------------------------------===//

#include "amp/Transforms/ConvertLayout.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Utils/Utils.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::amp;

//===----------------------------------------------------------------------===//
// Transposes
//===----------------------------------------------------------------------===//

namespace {

/// The permutation of a transpose on ranked tensors (linalg or tosa).
std::optional<SmallVector<int64_t>> getTransposePermutation(Operation *op) {
  if (auto transpose = dyn_cast_or_null<linalg::TransposeOp>(op)) {
    if (!transpose.hasPureTensorSemantics())
      return std::nullopt;
    return llvm::to_vector(transpose.getPermutation());
  }
  if (auto transpose = dyn_cast_or_null<tosa::TransposeOp>(op))
    return llvm::to_vector_of<int64_t>(transpose.getPerms());
  return std::nullopt;
}

Value getTransposeInput(Operation *op) {
  if (auto transpose = dyn_cast<linalg::TransposeOp>(op))
    return transpose.getInput();
  return cast<tosa::TransposeOp>(op).getInput1();
}

/// True if `op` is a transpose with exactly this permutation.
bool isTransposeWith(Operation *op, ArrayRef<int64_t> permutation) {
  std::optional<SmallVector<int64_t>> perm = getTransposePermutation(op);
  return perm && ArrayRef<int64_t>(*perm) == permutation;
}

/// A linalg.transpose of `value` into a new tensor.empty.
Value createTranspose(OpBuilder &b, Location loc, Value value,
                      ArrayRef<int64_t> permutation) {
  auto type = cast<RankedTensorType>(value.getType());
  SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(b, loc, value);
  Value init = tensor::EmptyOp::create(
      b, loc, applyPermutation(sizes, permutation), type.getElementType());
  return linalg::TransposeOp::create(b, loc, value, init, permutation)
      ->getResult(0);
}

/// A tosa.transpose of `value`.
Value createTosaTranspose(OpBuilder &b, Location loc, Value value,
                          ArrayRef<int64_t> permutation) {
  auto type = cast<RankedTensorType>(value.getType());
  auto resultType = type.clone(applyPermutation(type.getShape(), permutation));
  return tosa::TransposeOp::create(
      b, loc, resultType, value,
      b.getDenseI32ArrayAttr(llvm::to_vector_of<int32_t>(permutation)));
}

/// The elements of `shape` reordered by `permutation`, for byte payloads:
/// element i of the result is the input element at the permuted index.
std::vector<char> permuteBytes(ArrayRef<char> data, ArrayRef<int64_t> shape,
                               ArrayRef<int64_t> permutation,
                               size_t elementBytes) {
  int64_t rank = shape.size();
  SmallVector<int64_t> inStrides = computeStrides(shape);
  SmallVector<int64_t> outShape = applyPermutation(shape, permutation);
  // Stride, in the input, of each dimension of the output.
  SmallVector<int64_t> strides = applyPermutation(inStrides, permutation);
  int64_t count = computeProduct(shape);
  std::vector<char> out(data.size());
  SmallVector<int64_t> index(rank, 0);
  int64_t offset = 0;
  for (int64_t linear = 0; linear < count; ++linear) {
    std::memcpy(out.data() + linear * elementBytes,
                data.data() + offset * elementBytes, elementBytes);
    // Advance the output index like an odometer.
    for (int64_t dim = rank - 1; dim >= 0; --dim) {
      offset += strides[dim];
      if (++index[dim] < outShape[dim])
        break;
      offset -= strides[dim] * outShape[dim];
      index[dim] = 0;
    }
  }
  return out;
}

/// `attr` transposed by `permutation`, or null for attributes whose payload
/// is not available (or not ints or floats). With `viewType`, the elements
/// are first seen with that shape (a reshape of the constant).
TypedAttr transposeElements(Attribute attr, ArrayRef<int64_t> permutation,
                            RankedTensorType viewType = {}) {
  auto elements = dyn_cast_or_null<ElementsAttr>(attr);
  if (!elements)
    return {};
  auto type = dyn_cast<RankedTensorType>(elements.getShapedType());
  if (!type || !type.hasStaticShape() || !type.getElementType().isIntOrFloat())
    return {};
  if (viewType) {
    if (!viewType.hasStaticShape() ||
        viewType.getNumElements() != type.getNumElements())
      return {};
    type = viewType.clone(type.getElementType());
  }
  auto newType = type.clone(applyPermutation(type.getShape(), permutation));
  unsigned width = type.getElementTypeBitWidth();
  size_t elementBytes = (width + 7) / 8;

  if (auto dense = dyn_cast<DenseElementsAttr>(attr)) {
    if (dense.isSplat())
      return dense.resizeSplat(newType);
    dense = dense.reshape(type);
    if (width == 1) { // Bit-packed: go through attributes.
      auto values = llvm::to_vector(dense.getValues<Attribute>());
      std::vector<Attribute> permuted(values.size());
      SmallVector<int64_t> strides = computeStrides(type.getShape());
      SmallVector<int64_t> outStrides = computeStrides(newType.getShape());
      for (int64_t linear = 0, e = values.size(); linear < e; ++linear) {
        SmallVector<int64_t> outIndex = delinearize(linear, outStrides);
        SmallVector<int64_t> inIndex(outIndex.size());
        for (auto [i, dim] : llvm::enumerate(permutation))
          inIndex[dim] = outIndex[i];
        permuted[linear] = values[linearize(inIndex, strides)];
      }
      return DenseElementsAttr::get(newType, permuted);
    }
    std::vector<char> bytes = permuteBytes(dense.getRawData(), type.getShape(),
                                           permutation, elementBytes);
    return DenseElementsAttr::getFromRawBuffer(newType, bytes);
  }
  if (auto resource = dyn_cast<DenseResourceElementsAttr>(attr)) {
    AsmResourceBlob *blob = resource.getRawHandle().getBlob();
    if (!blob || width == 1)
      return {};
    ArrayRef<char> data = blob->getData();
    if (static_cast<int64_t>(data.size()) !=
        type.getNumElements() * static_cast<int64_t>(elementBytes))
      return {};
    std::vector<char> bytes =
        permuteBytes(data, type.getShape(), permutation, elementBytes);
    return DenseResourceElementsAttr::get(
        newType, (resource.getRawHandle().getKey() + "_transposed").str(),
        HeapAsmResourceBlob::allocateAndCopyWithAlign(
            bytes, blob->getDataAlignment()));
  }
  return {};
}

/// `map` with its results reordered by `permutation` (result i of the new map
/// is result permutation[i] of `map`).
AffineMap permuteResults(AffineMap map, ArrayRef<int64_t> permutation) {
  return AffineMap::get(map.getNumDims(), map.getNumSymbols(),
                        applyPermutation(map.getResults(), permutation),
                        map.getContext());
}

/// True if an input accessed through `map` is read in the order of an output
/// accessed through `output`: the same results, except that the input may
/// broadcast a dimension (a constant result).
bool readsInOrder(AffineMap map, AffineMap output) {
  if (map.getNumResults() != output.getNumResults())
    return false;
  return llvm::all_of(llvm::zip(map.getResults(), output.getResults()),
                      [](auto pair) {
                        auto [in, out] = pair;
                        return in == out || isa<AffineConstantExpr>(in);
                      });
}

/// After the loops of `generic` were renamed (old loop i is new loop
/// `inverse(i)`), makes its linalg.index ops follow.
void renameIndexOps(RewriterBase &rewriter, linalg::GenericOp generic,
                    AffineMap inverse) {
  generic.getRegion().walk([&](linalg::IndexOp index) {
    rewriter.modifyOpInPlace(index, [&] {
      index.setDim(
          cast<AffineDimExpr>(inverse.getResult(index.getDim())).getPosition());
    });
  });
}

/// A tensor.empty with the sizes of `like` reordered by `permutation`.
Value createEmptyPermuted(OpBuilder &b, Location loc, Value like,
                          ArrayRef<int64_t> permutation) {
  auto type = cast<RankedTensorType>(like.getType());
  SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(b, loc, like);
  return tensor::EmptyOp::create(b, loc, applyPermutation(sizes, permutation),
                                 type.getElementType());
}

} // namespace

bool mlir::amp::isLayoutTranspose(Operation *op) {
  std::optional<SmallVector<int64_t>> perm = getTransposePermutation(op);
  if (!perm)
    return false;
  ArrayRef<int64_t> p = *perm;
  return p == ArrayRef<int64_t>(kToChannelsLast) ||
         p == ArrayRef<int64_t>(kToChannelsFirst);
}

//===----------------------------------------------------------------------===//
// Channels-last forms
//===----------------------------------------------------------------------===//

namespace {

using CreateLayerFn = Operation *(*)(OpBuilder &, Location, Type, ValueRange,
                                     Value, ArrayRef<NamedAttribute>);

template <typename OpTy>
Operation *createNamedLayer(OpBuilder &b, Location loc, Type resultType,
                            ValueRange inputs, Value init,
                            ArrayRef<NamedAttribute> attrs) {
  return OpTy::create(b, loc, TypeRange{resultType}, inputs, ValueRange{init},
                      attrs)
      .getOperation();
}

/// One NCHW layer and its channels-last form, per filter layout.
struct ChannelsLastForm {
  StringLiteral nchwName;
  /// Permutations of the second input (the filter); empty for a pooling
  /// window, which only gives the window's shape.
  ArrayRef<int64_t> hwcfFilter, fhwcFilter;
  CreateLayerFn createHWCF, createFHWC;
};

constexpr int64_t kFCHWToHWCF[] = {2, 3, 1, 0};
constexpr int64_t kFCHWToFHWC[] = {0, 2, 3, 1};
constexpr int64_t kCHWToHWC[] = {1, 2, 0};

const ChannelsLastForm kChannelsLastForms[] = {
    {"linalg.conv_2d_nchw_fchw", kFCHWToHWCF, kFCHWToFHWC,
     createNamedLayer<linalg::Conv2DNhwcHwcfOp>,
     createNamedLayer<linalg::Conv2DNhwcFhwcOp>},
    {"linalg.depthwise_conv_2d_nchw_chw", kCHWToHWC, kCHWToHWC,
     createNamedLayer<linalg::DepthwiseConv2DNhwcHwcOp>,
     createNamedLayer<linalg::DepthwiseConv2DNhwcHwcOp>},
    {"linalg.pooling_nchw_sum",
     {},
     {},
     createNamedLayer<linalg::PoolingNhwcSumOp>,
     createNamedLayer<linalg::PoolingNhwcSumOp>},
    {"linalg.pooling_nchw_max",
     {},
     {},
     createNamedLayer<linalg::PoolingNhwcMaxOp>,
     createNamedLayer<linalg::PoolingNhwcMaxOp>},
};

const ChannelsLastForm *lookupChannelsLastForm(Operation *op) {
  StringRef name = op->getName().getStringRef();
  const ChannelsLastForm *form =
      llvm::find_if(kChannelsLastForms, [&](const ChannelsLastForm &f) {
        return f.nchwName == name;
      });
  return form == std::end(kChannelsLastForms) ? nullptr : form;
}

} // namespace

bool mlir::amp::hasChannelsLastForm(Operation *op) {
  return lookupChannelsLastForm(op) != nullptr;
}

FailureOr<Operation *>
mlir::amp::convertToChannelsLast(RewriterBase &rewriter, Operation *op,
                                 FilterLayout filter,
                                 SmallVectorImpl<Operation *> *transposes) {
  const ChannelsLastForm *form = lookupChannelsLastForm(op);
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  if (!form || !linalgOp || !linalgOp.hasPureTensorSemantics() ||
      linalgOp.getNumDpsInputs() != 2 || linalgOp.getNumDpsInits() != 1)
    return failure();
  Value input = linalgOp.getDpsInputs()[0];
  Value weight = linalgOp.getDpsInputs()[1];
  Value init = linalgOp.getDpsInits()[0];
  if (!llvm::all_of(
          TypeRange{input.getType(), weight.getType(), init.getType()},
          llvm::IsaPred<RankedTensorType>))
    return failure();

  Location loc = op->getLoc();
  rewriter.setInsertionPoint(op);
  auto record = [&](Value value) {
    if (transposes)
      transposes->push_back(value.getDefiningOp());
    return value;
  };
  // Layers that read the same input share its transpose.
  auto transposeInput = [&]() -> Value {
    for (Operation *user : input.getUsers())
      if (user != op && user->getBlock() == op->getBlock() &&
          user->isBeforeInBlock(op) && isTransposeWith(user, kToChannelsLast) &&
          isa<linalg::TransposeOp>(user))
        return user->getResult(0);
    return record(createTranspose(rewriter, loc, input, kToChannelsLast));
  };
  Value newInput = transposeInput();
  ArrayRef<int64_t> filterPerm =
      filter == FilterLayout::hwcf ? form->hwcfFilter : form->fhwcFilter;
  Value newWeight =
      filterPerm.empty()
          ? weight
          : record(createTranspose(rewriter, loc, weight, filterPerm));
  Value newInit = record(createTranspose(rewriter, loc, init, kToChannelsLast));

  // Strides, dilations and annotations carry over; the operand segments are
  // the builder's, and linalg's cached indexing maps describe the old op.
  SmallVector<NamedAttribute> attrs;
  for (NamedAttribute attr : op->getAttrs())
    if (attr.getName() != "operandSegmentSizes" &&
        !attr.getName().getValue().starts_with("linalg."))
      attrs.push_back(attr);
  CreateLayerFn create =
      filter == FilterLayout::hwcf ? form->createHWCF : form->createFHWC;
  Operation *newOp = create(rewriter, loc, newInit.getType(),
                            ValueRange{newInput, newWeight}, newInit, attrs);
  Value result = record(
      createTranspose(rewriter, loc, newOp->getResult(0), kToChannelsFirst));
  rewriter.replaceOp(op, result);
  return newOp;
}

//===----------------------------------------------------------------------===//
// Cleanup patterns
//===----------------------------------------------------------------------===//

namespace {

/// Base of the cleanup patterns: knows which transposes are frozen.
template <typename OpTy> struct LayoutPattern : public OpRewritePattern<OpTy> {
  LayoutPattern(MLIRContext *ctx, FrozenTransposeFn isFrozen)
      : OpRewritePattern<OpTy>(ctx), isFrozen(std::move(isFrozen)) {}

  bool frozen(Operation *op) const { return isFrozen && isFrozen(op); }

  FrozenTransposeFn isFrozen;
};

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
    if (generics.empty() && pads.empty())
      return failure();
    // Other patterns may move it below its remaining users: revisit it.
    if (!transpose->use_empty())
      rewriter.modifyOpInPlace(transpose, [] {});
    return success();
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
    if (!changed)
      return failure();
    // Other patterns may move it below its remaining users: revisit it.
    if (!transpose->use_empty())
      rewriter.modifyOpInPlace(transpose, [] {});
    return success();
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

/// Remembers the ops whose last user the cleanup erased, so that they can be
/// erased too once dead (and nothing else is).
struct OrphanTracker : public RewriterBase::Listener {
  void notifyOperationErased(Operation *op) override {
    candidates.remove(op);
    for (Value operand : op->getOperands())
      if (Operation *def = operand.getDefiningOp())
        candidates.insert(def);
  }

  /// Erases the dead candidates and, transitively, their dead producers.
  void eraseDeadOps() {
    while (!candidates.empty()) {
      Operation *op = candidates.pop_back_val();
      if (!isOpTriviallyDead(op))
        continue;
      notifyOperationErased(op);
      op->erase();
    }
  }

  llvm::SetVector<Operation *> candidates;
};

} // namespace

void mlir::amp::populateAmpLayoutPropagationPatterns(
    RewritePatternSet &patterns, FrozenTransposeFn isFrozen) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<FoldTransposeOfProducer, FoldTosaTransposeOfConst,
               CancelInverseTransposes<linalg::TransposeOp>,
               CancelInverseTransposes<tosa::TransposeOp>,
               SinkChannelsFirstTranspose,
               SinkChannelsFirstThroughElementwise<linalg::TransposeOp>,
               SinkChannelsFirstThroughElementwise<tosa::TransposeOp>>(
      ctx, isFrozen);
}

void mlir::amp::propagateLayoutTransposes(MLIRContext *ctx,
                                          ArrayRef<Operation *> transposes,
                                          FrozenTransposeFn isFrozen) {
  RewritePatternSet patterns(ctx);
  populateAmpLayoutPropagationPatterns(patterns, std::move(isFrozen));
  OrphanTracker tracker;
  GreedyRewriteConfig config;
  config.setStrictness(GreedyRewriteStrictness::ExistingAndNewOps)
      .enableFolding(false)
      .enableConstantCSE(false)
      .setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled)
      .setListener(&tracker);
  (void)applyOpPatternsGreedily(transposes, std::move(patterns), config);
  tracker.eraseDeadOps();
}
