//===- Layers.cpp - Select, index and count layers ------------------------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "amp/Analysis/Layers.h"

#include "amp/Utils/OpNames.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/OperationSupport.h"

using namespace mlir;
using namespace mlir::amp;

std::optional<LayerKind> mlir::amp::getLayerKind(Operation *op) {
  if (auto layer = dyn_cast<LayerOpInterface>(op))
    return layer.getLayerKind();
  return std::nullopt;
}

//===----------------------------------------------------------------------===//
// LayerSelection
//===----------------------------------------------------------------------===//

LayerSelection LayerSelection::allOps() {
  LayerSelection selection;
  selection.everyOp = true;
  return selection;
}

LayerSelection LayerSelection::ofKinds(ArrayRef<LayerKind> kinds) {
  LayerSelection selection;
  selection.layersOnly = true;
  for (LayerKind kind : kinds)
    selection.entries.push_back(stringifyLayerKind(kind).str());
  return selection;
}

FailureOr<LayerSelection> LayerSelection::parse(Location loc,
                                                ArrayRef<std::string> entries,
                                                bool layersOnly, StringRef pass,
                                                StringRef option,
                                                bool loadDialects) {
  MLIRContext *ctx = loc.getContext();
  auto error = [&]() { return emitError(loc) << pass << ": "; };
  LayerSelection selection;
  selection.layersOnly = layersOnly;
  for (const std::string &entry : entries) {
    if (symbolizeLayerKind(entry)) {
      selection.entries.push_back(entry);
      continue;
    }
    if (!StringRef(entry).contains('.'))
      return error() << "invalid entry '" << entry << "' in " << option
                     << "= (expected an op name such as linalg.matmul or a "
                        "layer kind: convolution, matmul, pooling)";
    std::string reason;
    switch (checkOpName(ctx, entry, reason, loadDialects)) {
    case OpNameStatus::Unknown: {
      InFlightDiagnostic diag = error() << "unknown op name '" << entry
                                        << "' in " << option << "=";
      if (!reason.empty())
        diag << " " << reason;
      return diag;
    }
    case OpNameStatus::Registered:
      if (layersOnly && !RegisteredOperationName::lookup(entry, ctx)
                             ->hasInterface<LayerOpInterface>())
        return error() << "'" << entry << "' in " << option
                       << "= is not a layer: it does not implement "
                          "LayerOpInterface (convolutions, matmuls and "
                          "poolings do)";
      break;
    case OpNameStatus::Unregistered:
      if (layersOnly)
        return error() << "'" << entry << "' in " << option
                       << "= is not a layer: its dialect is not registered";
      break;
    }
    selection.entries.push_back(entry);
  }
  return selection;
}

bool LayerSelection::matchesEntry(Operation *op, StringRef entry) const {
  if (std::optional<LayerKind> kind = symbolizeLayerKind(entry))
    return getLayerKind(op) == kind;
  if (op->getName().getStringRef() != entry)
    return false;
  return !layersOnly || getLayerKind(op).has_value();
}

bool LayerSelection::matches(Operation *op) const {
  if (everyOp)
    return true;
  return llvm::any_of(entries, [&](const std::string &entry) {
    return matchesEntry(op, entry);
  });
}

SmallVector<std::string>
LayerSelection::getUnmatchedEntries(ArrayRef<Operation *> ops) const {
  SmallVector<std::string> unmatched;
  for (const std::string &entry : entries)
    if (llvm::none_of(ops,
                      [&](Operation *op) { return matchesEntry(op, entry); }))
      unmatched.push_back(entry);
  return unmatched;
}

//===----------------------------------------------------------------------===//
// Collection and indices
//===----------------------------------------------------------------------===//

SmallVector<Operation *>
mlir::amp::collectLayers(Operation *root, const LayerSelection &selection,
                         function_ref<bool(Operation *)> isOtherScope) {
  SmallVector<Operation *> layers;
  root->walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (op == root)
      return WalkResult::advance();
    if (isOtherScope && isOtherScope(op))
      return WalkResult::skip();
    if (selection.matches(op))
      layers.push_back(op);
    // The payload of a layer (or of any linalg op) is its own business.
    if (isa<LayerOpInterface>(op))
      return WalkResult::skip();
    return WalkResult::advance();
  });
  return layers;
}

FailureOr<llvm::SmallBitVector>
mlir::amp::resolveSkipLayers(ArrayRef<int64_t> indices, int64_t count,
                             function_ref<InFlightDiagnostic()> emitError) {
  llvm::SmallBitVector skipped(count);
  for (int64_t index : indices) {
    int64_t position = index < 0 ? count + index : index;
    if (position < 0 || position >= count)
      return emitError() << "skip-layers index " << index
                         << " is out of range (there "
                         << (count == 1 ? "is " : "are ") << count << " layer"
                         << (count == 1 ? "" : "s") << ")";
    skipped.set(position);
  }
  return skipped;
}
