//===- ConvertLayoutPass.cpp - The --amp-convert-layout pass --------------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Settings come in scopes: the op the pass runs on follows the pass options
// unless it carries `amp.layout_config`, and every op nested in it that
// carries `amp.layout_config` (a function, a module) opens a scope of its
// own. The layers of each scope are numbered, the skipped ones set aside,
// the others converted (ConvertLayout.cpp); then one cleanup runs on all
// the transposes of the converted scopes.
//
//===----------------------------------------------------------------------===//

#include "amp/Transforms/Passes.h"

#include "amp/Analysis/Layers.h"
#include "amp/Transforms/ConvertLayout.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"

namespace mlir {
namespace amp {
#define GEN_PASS_DEF_AMPCONVERTLAYOUTPASS
#include "amp/Transforms/Passes.h.inc"
} // namespace amp
} // namespace mlir

using namespace mlir;
using namespace mlir::amp;

namespace {

/// The settings of one scope.
struct LayoutScope {
  Operation *op;
  /// Null for the pass options.
  LayoutConfigAttr config;
  LayerSelection selection;
  FilterLayout filter;
  SmallVector<int64_t> skipLayers;
};

struct AmpConvertLayoutPass
    : public amp::impl::AmpConvertLayoutPassBase<AmpConvertLayoutPass> {
  using Base::Base;

  LogicalResult initialize(MLIRContext *ctx) override;
  void runOnOperation() override;

private:
  /// The scope of `op` with the settings of `config`.
  FailureOr<LayoutScope> makeScope(Operation *op,
                                   LayoutConfigAttr config) const;

  LayerSelection optionSelection;
  FilterLayout optionFilter = FilterLayout::hwcf;
};

LayerSelection getDefaultSelection() {
  return LayerSelection::ofKinds({LayerKind::convolution, LayerKind::pooling});
}

/// Parses an `ops` list of the layout conversion: layer kinds other than
/// convolutions and poolings have no layout to convert.
FailureOr<LayerSelection> parseLayoutSelection(Location loc,
                                               ArrayRef<std::string> entries,
                                               StringRef prefix,
                                               bool loadDialects) {
  for (const std::string &entry : entries)
    if (std::optional<LayerKind> kind = symbolizeLayerKind(entry);
        kind && *kind != LayerKind::convolution && *kind != LayerKind::pooling)
      return emitError(loc) << prefix << ": '" << entry
                            << "' in ops= has no layout to convert (expected "
                               "convolution, pooling or op names)";
  return LayerSelection::parse(loc, entries, /*layersOnly=*/true, prefix, "ops",
                               loadDialects);
}

LogicalResult AmpConvertLayoutPass::initialize(MLIRContext *ctx) {
  std::optional<FilterLayout> filter = symbolizeFilterLayout(filterLayout);
  if (!filter)
    return emitError(UnknownLoc::get(ctx))
           << "amp-convert-layout: invalid filter '" << filterLayout
           << "'; expected one of: hwcf, fhwc";
  optionFilter = *filter;
  if (ops.empty()) {
    optionSelection = getDefaultSelection();
    return success();
  }
  FailureOr<LayerSelection> parsed =
      parseLayoutSelection(UnknownLoc::get(ctx), ops, "amp-convert-layout",
                           /*loadDialects=*/true);
  if (failed(parsed))
    return failure();
  optionSelection = std::move(*parsed);
  return success();
}

FailureOr<LayoutScope>
AmpConvertLayoutPass::makeScope(Operation *op, LayoutConfigAttr config) const {
  if (!config)
    return LayoutScope{
        op, config, optionSelection, optionFilter,
        SmallVector<int64_t>(skipLayers.begin(), skipLayers.end())};
  LayerSelection selection = getDefaultSelection();
  if (ArrayAttr entries = config.getOps()) {
    SmallVector<std::string> names;
    for (Attribute entry : entries)
      names.push_back(cast<StringAttr>(entry).getValue().str());
    FailureOr<LayerSelection> parsed =
        parseLayoutSelection(op->getLoc(), names, "amp.layout_config",
                             /*loadDialects=*/false);
    if (failed(parsed))
      return failure();
    selection = std::move(*parsed);
  }
  return LayoutScope{op, config, std::move(selection), config.getFilter(),
                     llvm::to_vector(config.getSkipLayers())};
}

void AmpConvertLayoutPass::runOnOperation() {
  Operation *root = getOperation();
  MLIRContext *ctx = &getContext();
  StringRef attrName = AmpDialect::getLayoutConfigAttrName();
  auto getConfig = [&](Operation *op) {
    return op->getAttrOfType<LayoutConfigAttr>(attrName);
  };

  for (Operation *parent = root->getParentOp(); parent;
       parent = parent->getParentOp())
    if (getConfig(parent)) {
      emitWarning(root->getLoc())
          << "amp-convert-layout: the " << attrName << " of an enclosing '"
          << parent->getName() << "' is ignored when the pass runs on '"
          << root->getName() << "'; run the pass on that op";
      break;
    }

  // The scopes, outermost first.
  SmallVector<LayoutScope> scopes;
  bool optionsSet =
      filterLayout.hasValue() || ops.hasValue() || skipLayers.hasValue();
  bool optionsUsed = !getConfig(root);
  WalkResult walked = root->walk<WalkOrder::PreOrder>([&](Operation *op) {
    LayoutConfigAttr config = getConfig(op);
    if (op != root && !config)
      return WalkResult::advance();
    FailureOr<LayoutScope> scope = makeScope(op, config);
    if (failed(scope))
      return WalkResult::interrupt();
    scopes.push_back(std::move(*scope));
    return WalkResult::advance();
  });
  if (walked.wasInterrupted())
    return signalPassFailure();
  if (optionsSet && !optionsUsed)
    emitWarning(root->getLoc())
        << "amp-convert-layout: the pass options are ignored: "
        << "this op carries " << attrName;

  IRRewriter rewriter(ctx);
  llvm::SetVector<Operation *> transposes;
  llvm::DenseSet<Operation *> frozen;
  for (const LayoutScope &scope : scopes) {
    SmallVector<Operation *> layers =
        collectLayers(scope.op, scope.selection, [&](Operation *op) {
          return static_cast<bool>(getConfig(op));
        });
    FailureOr<llvm::SmallBitVector> skipped =
        resolveSkipLayers(scope.skipLayers, layers.size(), [&]() {
          InFlightDiagnostic diag = emitError(scope.op->getLoc());
          diag << (scope.config ? StringRef("amp.layout_config: ")
                                : StringRef("amp-convert-layout: "));
          return diag;
        });
    if (failed(skipped))
      return signalPassFailure();

    for (auto [index, layer] : llvm::enumerate(layers)) {
      // Layout transposes next to a layer are where the cleanup starts; next
      // to a skipped layer they stay.
      SmallVector<Operation *> adjacent;
      for (Value operand : layer->getOperands())
        if (Operation *def = operand.getDefiningOp();
            def && isLayoutTranspose(def))
          adjacent.push_back(def);
      for (Operation *user : layer->getUsers())
        if (isLayoutTranspose(user))
          adjacent.push_back(user);

      if (skipped->test(index)) {
        ++numSkipped;
        frozen.insert(adjacent.begin(), adjacent.end());
        continue;
      }
      transposes.insert(adjacent.begin(), adjacent.end());
      if (!hasChannelsLastForm(layer))
        continue; // Channels-last already (NHWC linalg, TOSA).
      SmallVector<Operation *> created;
      if (failed(
              convertToChannelsLast(rewriter, layer, scope.filter, &created))) {
        mlir::emitRemark(layer->getLoc()) << "amp-convert-layout: left in its layout (it "
                               "does not work on ranked tensors)";
        continue;
      }
      transposes.insert(created.begin(), created.end());
      ++numConverted;
    }
  }

  if (propagate) {
    // A frozen transpose may also be next to a converted layer.
    transposes.remove_if([&](Operation *op) { return frozen.contains(op); });
    propagateLayoutTransposes(
        ctx, transposes.getArrayRef(),
        [&](Operation *op) { return frozen.contains(op); });
  }
  root->walk([&](Operation *op) {
    if (isLayoutTranspose(op))
      ++numTransposes;
  });
}

} // namespace
