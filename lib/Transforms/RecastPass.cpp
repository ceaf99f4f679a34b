//===- RecastPass.cpp - The --amp-recast pass -----------------------------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Resolves the options once (initialize): the types, the selection of layers.
// Then numbers the selected layers under the op the pass runs on, drops the
// skipped ones and recasts the others with recastLayer (Recast.cpp).
//
//===----------------------------------------------------------------------===//

#include "amp/Transforms/Passes.h"

#include "amp/Analysis/Layers.h"
#include "amp/Transforms/Recast.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/StringExtras.h"

namespace mlir {
namespace amp {
#define GEN_PASS_DEF_AMPRECASTPASS
#include "amp/Transforms/Passes.h.inc"
} // namespace amp
} // namespace mlir

using namespace mlir;
using namespace mlir::amp;

namespace {

/// The input types the pass offers, and the accumulation types each allows
/// (the first is the default).
struct RecastTypeRule {
  StringLiteral input;
  ArrayRef<StringLiteral> accumulate;
};

constexpr StringLiteral kFloatAccumulate[] = {"f32", "f16", "bf16"};
constexpr StringLiteral kIntegerAccumulate[] = {"i32"};
const RecastTypeRule kRecastTypes[] = {
    {"f16", kFloatAccumulate},      {"bf16", kFloatAccumulate},
    {"f8E4M3FN", kFloatAccumulate}, {"f8E5M2", kFloatAccumulate},
    {"i8", kIntegerAccumulate},     {"i4", kIntegerAccumulate},
};

struct AmpRecastPass : public amp::impl::AmpRecastPassBase<AmpRecastPass> {
  using Base::Base;

  LogicalResult initialize(MLIRContext *ctx) override;
  void runOnOperation() override;

private:
  Type input, accumulate;
  LayerSelection selection;
};

LogicalResult AmpRecastPass::initialize(MLIRContext *ctx) {
  auto error = [&]() {
    return emitError(UnknownLoc::get(ctx)) << "amp-recast: ";
  };
  const RecastTypeRule *rule = llvm::find_if(
      kRecastTypes, [&](const RecastTypeRule &r) { return r.input == type; });
  if (rule == std::end(kRecastTypes)) {
    InFlightDiagnostic diag = error() << "invalid type '" << type
                                      << "'; expected one of: ";
    llvm::interleaveComma(kRecastTypes, diag,
                          [&](const RecastTypeRule &r) { diag << r.input; });
    return diag;
  }
  StringRef accumulateName = accumulateType.empty()
                                 ? StringRef(rule->accumulate.front())
                                 : StringRef(accumulateType);
  if (!llvm::is_contained(rule->accumulate, accumulateName)) {
    InFlightDiagnostic diag = error()
                              << "invalid accumulate-type '" << accumulateName
                              << "' for type " << type << "; expected one of: ";
    llvm::interleaveComma(rule->accumulate, diag);
    return diag;
  }
  input = parseType(type, ctx);
  accumulate = parseType(accumulateName, ctx);
  if (!input || !accumulate)
    return error() << "cannot build the types " << type << " and "
                   << accumulateName;

  if (ops.empty()) {
    selection =
        LayerSelection::ofKinds({LayerKind::convolution, LayerKind::matmul});
    return success();
  }
  FailureOr<LayerSelection> parsed = LayerSelection::parse(
      UnknownLoc::get(ctx), ops, /*layersOnly=*/true, "amp-recast", "ops");
  if (failed(parsed))
    return failure();
  selection = std::move(*parsed);
  return success();
}

void AmpRecastPass::runOnOperation() {
  Operation *root = getOperation();
  SmallVector<Operation *> layers = collectLayers(root, selection);
  if (!ops.empty())
    for (const std::string &entry : selection.getUnmatchedEntries(layers))
      emitWarning(root->getLoc())
          << "amp-recast: '" << entry << "' in ops= selects no layer here";

  FailureOr<llvm::SmallBitVector> skipped =
      resolveSkipLayers(skipLayers, layers.size(), [&]() {
        return emitError(root->getLoc()) << "amp-recast: ";
      });
  if (failed(skipped))
    return signalPassFailure();

  IRRewriter rewriter(&getContext());
  for (auto [index, op] : llvm::enumerate(layers)) {
    if (skipped->test(index)) {
      ++numSkipped;
      continue;
    }
    if (failed(recastLayer(rewriter, op, input, accumulate)))
      return signalPassFailure();
    ++numRecast;
  }
}

} // namespace
