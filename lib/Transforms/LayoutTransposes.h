//===- LayoutTransposes.h - Transposes of the layout conversion -*- C++ -*-===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// What --amp-convert-layout (ConvertLayout.h) knows of transposes, shared by
// the rewrite of a layer into its channels-last form and by the cleanup
// patterns: reading the permutation of a linalg or tosa transpose, building
// transposes and permuted empties, transposing constant elements (dense and
// resource attributes), and permuting indexing maps and loops.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_LIB_TRANSFORMS_LAYOUTTRANSPOSES_H
#define AMP_LIB_TRANSFORMS_LAYOUTTRANSPOSES_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/PatternMatch.h"

#include <optional>

namespace mlir {
namespace amp {
namespace layout {

/// The permutation of a transpose on ranked tensors (linalg or tosa).
std::optional<SmallVector<int64_t>> getTransposePermutation(Operation *op);

/// The input of a linalg or tosa transpose.
Value getTransposeInput(Operation *op);

/// True if `op` is a transpose with exactly this permutation.
bool isTransposeWith(Operation *op, ArrayRef<int64_t> permutation);

/// A linalg.transpose of `value` into a new tensor.empty.
Value createTranspose(OpBuilder &b, Location loc, Value value,
                      ArrayRef<int64_t> permutation);

/// A tosa.transpose of `value`.
Value createTosaTranspose(OpBuilder &b, Location loc, Value value,
                          ArrayRef<int64_t> permutation);

/// `attr` transposed by `permutation`, or null for attributes whose payload
/// is not available (or not ints or floats). With `viewType`, the elements
/// are first seen with that shape (a reshape of the constant).
TypedAttr transposeElements(Attribute attr, ArrayRef<int64_t> permutation,
                            RankedTensorType viewType = {});

/// `map` with its results reordered by `permutation` (result i of the new map
/// is result permutation[i] of `map`).
AffineMap permuteResults(AffineMap map, ArrayRef<int64_t> permutation);

/// True if an input accessed through `map` is read in the order of an output
/// accessed through `output`: the same results, except that the input may
/// broadcast a dimension (a constant result).
bool readsInOrder(AffineMap map, AffineMap output);

/// After the loops of `generic` were renamed (old loop i is new loop
/// `inverse(i)`), makes its linalg.index ops follow.
void renameIndexOps(RewriterBase &rewriter, linalg::GenericOp generic,
                    AffineMap inverse);

/// A tensor.empty with the sizes of `like` reordered by `permutation`.
Value createEmptyPermuted(OpBuilder &b, Location loc, Value like,
                          ArrayRef<int64_t> permutation);

} // namespace layout
} // namespace amp
} // namespace mlir

#endif // AMP_LIB_TRANSFORMS_LAYOUTTRANSPOSES_H
