//===- PrepareModel.cpp - The --amp-prepare-model pass --------------------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// amp-run's model preparation (ModelPreparation.h) as a pass: the entry
// isolated from harness code, and optionally random weights. amp-compile
// runs it first, so that it builds the function amp-run runs.
//
//===----------------------------------------------------------------------===//

#include "amp/Runner/ModelPreparation.h"
#include "amp/Runner/Passes.h"

namespace mlir {
namespace amp {
#define GEN_PASS_DEF_AMPPREPAREMODELPASS
#include "amp/Runner/Passes.h.inc"
} // namespace amp
} // namespace mlir

using namespace mlir;
using namespace mlir::amp;

/// The argument attribute that bounds a weight argument's values.
static constexpr llvm::StringLiteral kInputBoundAttrName = "amp.input_bound";

namespace {
struct AmpPrepareModelPass
    : public amp::impl::AmpPrepareModelPassBase<AmpPrepareModelPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    FailureOr<func::FuncOp> entryFn = runner::findEntry(module, entry);
    if (failed(entryFn))
      return signalPassFailure();
    FailureOr<runner::IsolationResult> isolation =
        runner::isolateEntry(module, *entryFn);
    if (failed(isolation))
      return signalPassFailure();
    numRemovedOps += isolation->numRemovedOps;
    if (!randomizeWeights)
      return;
    numRandomized += runner::randomizeWeights(module, seed).numConstants;
    // Weights passed as arguments: the bound of the values a caller should
    // give them (amp-run draws them so; amp-compile's harness reads it).
    Builder b(&getContext());
    for (BlockArgument arg : entryFn->getArguments())
      if (std::optional<int64_t> fanIn =
              runner::getWeightFanIn(arg, /*notFirstOperand=*/true))
        entryFn->setArgAttr(arg.getArgNumber(), kInputBoundAttrName,
                            b.getF64FloatAttr(runner::getHeUniformBound(*fanIn)));
  }
};
} // namespace
