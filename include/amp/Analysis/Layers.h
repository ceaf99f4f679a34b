//===- Layers.h - Select, index and count layers ----------------*- C++ -*-===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The vocabulary the benchmarking passes share. An `ops=` option selects ops
// by name (`linalg.conv_2d_nchw_fchw`) or by layer kind (`convolution`,
// `matmul`, `pooling`, from LayerOpInterface); the selected ops nested in a
// scope, in program order (a pre-order walk), are numbered from 0, and
// `skip-layers=` indices (negative from the end) refer to these numbers. So
// `--amp-count-layers=ops=X` prints the indices that `skip-layers` of
// `--amp-recast=ops=X` or `--amp-convert-layout=ops=X` use.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_ANALYSIS_LAYERS_H
#define AMP_ANALYSIS_LAYERS_H

#include "amp/IR/AmpInterfaces.h"

#include "mlir/IR/Operation.h"
#include "llvm/ADT/SmallBitVector.h"
#include "llvm/ADT/StringSet.h"

#include <string>

namespace mlir {
namespace amp {

/// Returns the layer kind of `op`, or std::nullopt if it is not a layer (no
/// LayerOpInterface, or an instance that is not a layer).
std::optional<LayerKind> getLayerKind(Operation *op);

/// Which ops a benchmarking pass works on.
class LayerSelection {
public:
  /// Every op.
  static LayerSelection allOps();
  /// The layers of these kinds.
  static LayerSelection ofKinds(ArrayRef<LayerKind> kinds);
  /// Parses `entries`: op names or layer kinds. With `layersOnly`, op names
  /// must name ops that implement LayerOpInterface, and the selection
  /// matches only instances that are layers. Emits errors at `loc` that begin
  /// with "<pass>: " and name the option `option`. `loadDialects` as in
  /// checkOpName (false while passes may run in parallel).
  static FailureOr<LayerSelection>
  parse(Location loc, ArrayRef<std::string> entries, bool layersOnly,
        StringRef pass, StringRef option, bool loadDialects = true);

  /// True if the selection selects `op`.
  bool matches(Operation *op) const;
  /// True if the selection selects every op.
  bool selectsAllOps() const { return everyOp; }
  /// The entries that select ops, as given (layer kinds by their names).
  ArrayRef<std::string> getEntries() const { return entries; }
  /// The entries that select none of `ops`.
  SmallVector<std::string> getUnmatchedEntries(ArrayRef<Operation *> ops) const;

private:
  bool matchesEntry(Operation *op, StringRef entry) const;

  bool everyOp = false;
  bool layersOnly = false;
  SmallVector<std::string> entries;
};

/// The ops nested in `root` (never `root` itself) that `selection` matches,
/// in program order. The regions of ops with LayerOpInterface (the payloads
/// of linalg ops) are not entered, nor are subtrees rooted at ops for which
/// `isOtherScope` returns true (they belong to another scope).
SmallVector<Operation *>
collectLayers(Operation *root, const LayerSelection &selection,
              function_ref<bool(Operation *)> isOtherScope = nullptr);

/// Resolves `skip-layers` indices against `count` layers: index i >= 0 is the
/// i-th layer, index -i the i-th from the end. An index out of range is an
/// error, emitted through `emitError` and followed by "(there are N layers)".
FailureOr<llvm::SmallBitVector>
resolveSkipLayers(ArrayRef<int64_t> indices, int64_t count,
                  function_ref<InFlightDiagnostic()> emitError);

} // namespace amp
} // namespace mlir

#endif // AMP_ANALYSIS_LAYERS_H
