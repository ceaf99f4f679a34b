//===- CountLayersPass.cpp - The --amp-count-layers pass ------------------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Lists the ops an `ops=` selection picks, in program order, with the indices
// skip-layers uses: as remarks and as a JSON report. Changes nothing.
//
// JSON format (one object):
//   {"ops": [entries of ops=, empty for every op], "total": N,
//    "counts": {"<op name>": n, ...}   (in order of first appearance),
//    "layers": [{"index", "op", "kind" (layers only), "function", "loc"}...]}
//
//===----------------------------------------------------------------------===//

#include "amp/Transforms/Passes.h"

#include "ConversionReport.h"
#include "amp/Analysis/Layers.h"

#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/Support/JSON.h"

namespace mlir {
namespace amp {
#define GEN_PASS_DEF_AMPCOUNTLAYERSPASS
#include "amp/Transforms/Passes.h.inc"
} // namespace amp
} // namespace mlir

using namespace mlir;
using namespace mlir::amp;

namespace {

struct AmpCountLayersPass
    : public amp::impl::AmpCountLayersPassBase<AmpCountLayersPass> {
  using Base::Base;

  LogicalResult initialize(MLIRContext *ctx) override;
  void runOnOperation() override;

private:
  void writeJson(llvm::raw_ostream &os, ArrayRef<Operation *> layers,
                 const llvm::MapVector<StringRef, int64_t> &counts) const;

  LayerSelection selection;
};

LogicalResult AmpCountLayersPass::initialize(MLIRContext *ctx) {
  if (ops.empty()) {
    selection = LayerSelection::allOps();
    return success();
  }
  FailureOr<LayerSelection> parsed =
      LayerSelection::parse(UnknownLoc::get(ctx), ops, /*layersOnly=*/false,
                            "amp-count-layers", "ops");
  if (failed(parsed))
    return failure();
  selection = std::move(*parsed);
  return success();
}

/// The name of the function that holds `op`, or "" outside functions.
std::string getFunctionName(Operation *op) {
  if (auto func = op->getParentOfType<FunctionOpInterface>())
    return func.getName().str();
  return "";
}

void AmpCountLayersPass::writeJson(
    llvm::raw_ostream &os, ArrayRef<Operation *> layers,
    const llvm::MapVector<StringRef, int64_t> &counts) const {
  llvm::json::OStream json(os, /*IndentSize=*/2);
  json.object([&] {
    json.attributeArray("ops", [&] {
      for (const std::string &entry : selection.getEntries())
        json.value(entry);
    });
    json.attribute("total", static_cast<int64_t>(layers.size()));
    json.attributeObject("counts", [&] {
      for (const auto &[name, count] : counts)
        json.attribute(name, count);
    });
    json.attributeArray("layers", [&] {
      for (auto [index, op] : llvm::enumerate(layers))
        json.object([&] {
          json.attribute("index", static_cast<int64_t>(index));
          json.attribute("op", op->getName().getStringRef());
          if (std::optional<LayerKind> kind = getLayerKind(op))
            json.attribute("kind", stringifyLayerKind(*kind));
          json.attribute("function", getFunctionName(op));
          json.attribute("loc", formatLocation(op->getLoc()));
        });
    });
  });
  os << "\n";
}

void AmpCountLayersPass::runOnOperation() {
  Operation *root = getOperation();
  SmallVector<Operation *> layers = collectLayers(root, selection);
  llvm::MapVector<StringRef, int64_t> counts;
  for (Operation *op : layers)
    ++counts[op->getName().getStringRef()];
  numLayers += layers.size();

  StringRef noun = selection.selectsAllOps() ? "op" : "layer";
  if (remarks) {
    for (auto [index, op] : llvm::enumerate(layers)) {
      InFlightDiagnostic remark = emitRemark(op->getLoc())
                                  << noun << " " << index << ": "
                                  << op->getName();
      if (std::optional<LayerKind> kind = getLayerKind(op))
        remark << " (" << stringifyLayerKind(*kind) << ")";
    }
    InFlightDiagnostic summary = emitRemark(root->getLoc())
                                 << layers.size() << " " << noun
                                 << (layers.size() == 1 ? "" : "s");
    if (!selection.selectsAllOps())
      summary << " (ops=" << llvm::join(selection.getEntries(), ",") << ")";
    if (!counts.empty()) {
      summary << ": ";
      llvm::interleaveComma(counts, summary, [&](const auto &entry) {
        summary << entry.second << " " << entry.first;
      });
    }
  }

  if (json.empty())
    return;
  llvm::Error error = llvm::writeToOutput(json, [&](llvm::raw_ostream &os) {
    writeJson(os, layers, counts);
    return llvm::Error::success();
  });
  if (error) {
    emitError(root->getLoc()) << "amp-count-layers: cannot write the report: "
                              << llvm::toString(std::move(error));
    return signalPassFailure();
  }
}

} // namespace
