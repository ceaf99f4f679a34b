//===- LayoutTransposes.cpp - Transposes of the layout conversion ---------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// See LayoutTransposes.h. Constant elements are transposed byte by byte (an
// odometer over the output), bit-packed i1 elements through attributes, and
// resource blobs into a new blob.
//
//===----------------------------------------------------------------------===//

#include "LayoutTransposes.h"

#include "amp/Transforms/ConvertLayout.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "llvm/ADT/STLExtras.h"

#include <cstring>

using namespace mlir;
using namespace mlir::amp;
using namespace mlir::amp::layout;

/// The permutation of a transpose on ranked tensors (linalg or tosa).
std::optional<SmallVector<int64_t>>
layout::getTransposePermutation(Operation *op) {
  if (auto transpose = dyn_cast_or_null<linalg::TransposeOp>(op)) {
    if (!transpose.hasPureTensorSemantics())
      return std::nullopt;
    return llvm::to_vector(transpose.getPermutation());
  }
  if (auto transpose = dyn_cast_or_null<tosa::TransposeOp>(op))
    return llvm::to_vector_of<int64_t>(transpose.getPerms());
  return std::nullopt;
}

Value layout::getTransposeInput(Operation *op) {
  if (auto transpose = dyn_cast<linalg::TransposeOp>(op))
    return transpose.getInput();
  return cast<tosa::TransposeOp>(op).getInput1();
}

/// True if `op` is a transpose with exactly this permutation.
bool layout::isTransposeWith(Operation *op, ArrayRef<int64_t> permutation) {
  std::optional<SmallVector<int64_t>> perm = getTransposePermutation(op);
  return perm && ArrayRef<int64_t>(*perm) == permutation;
}

/// A linalg.transpose of `value` into a new tensor.empty.
Value layout::createTranspose(OpBuilder &b, Location loc, Value value,
                              ArrayRef<int64_t> permutation) {
  Value init = createEmptyPermuted(b, loc, value, permutation);
  return linalg::TransposeOp::create(b, loc, value, init, permutation)
      ->getResult(0);
}

/// A tosa.transpose of `value`.
Value layout::createTosaTranspose(OpBuilder &b, Location loc, Value value,
                                  ArrayRef<int64_t> permutation) {
  auto type = cast<RankedTensorType>(value.getType());
  auto resultType = type.clone(applyPermutation(type.getShape(), permutation));
  return tosa::TransposeOp::create(
      b, loc, resultType, value,
      b.getDenseI32ArrayAttr(llvm::to_vector_of<int32_t>(permutation)));
}

/// The elements of `shape` reordered by `permutation`, for byte payloads:
/// element i of the result is the input element at the permuted index.
static std::vector<char> permuteBytes(ArrayRef<char> data,
                                      ArrayRef<int64_t> shape,
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
TypedAttr layout::transposeElements(Attribute attr,
                                    ArrayRef<int64_t> permutation,
                                    RankedTensorType viewType) {
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
AffineMap layout::permuteResults(AffineMap map, ArrayRef<int64_t> permutation) {
  return AffineMap::get(map.getNumDims(), map.getNumSymbols(),
                        applyPermutation(map.getResults(), permutation),
                        map.getContext());
}

/// True if an input accessed through `map` is read in the order of an output
/// accessed through `output`: the same results, except that the input may
/// broadcast a dimension (a constant result).
bool layout::readsInOrder(AffineMap map, AffineMap output) {
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
void layout::renameIndexOps(RewriterBase &rewriter, linalg::GenericOp generic,
                            AffineMap inverse) {
  generic.getRegion().walk([&](linalg::IndexOp index) {
    rewriter.modifyOpInPlace(index, [&] {
      index.setDim(
          cast<AffineDimExpr>(inverse.getResult(index.getDim())).getPosition());
    });
  });
}

/// A tensor.empty with the sizes of `like` reordered by `permutation`.
Value layout::createEmptyPermuted(OpBuilder &b, Location loc, Value like,
                                  ArrayRef<int64_t> permutation) {
  auto type = cast<RankedTensorType>(like.getType());
  SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(b, loc, like);
  return tensor::EmptyOp::create(b, loc, applyPermutation(sizes, permutation),
                                 type.getElementType());
}

bool mlir::amp::isLayoutTranspose(Operation *op) {
  std::optional<SmallVector<int64_t>> perm = getTransposePermutation(op);
  if (!perm)
    return false;
  ArrayRef<int64_t> p = *perm;
  return p == ArrayRef<int64_t>(kToChannelsLast) ||
         p == ArrayRef<int64_t>(kToChannelsFirst);
}
