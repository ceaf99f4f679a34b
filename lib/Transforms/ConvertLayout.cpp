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
// This file holds step 1 and the driver of step 2; the patterns are in the
// files LayoutPatterns.h lists, the transposes they share in
// LayoutTransposes.h.
//
//===----------------------------------------------------------------------===//

#include "amp/Transforms/ConvertLayout.h"

#include "LayoutPatterns.h"
#include "LayoutTransposes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::amp;
using namespace mlir::amp::layout;

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
// Cleanup
//===----------------------------------------------------------------------===//

namespace {

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
  // The folds first: the driver tries patterns of equal benefit in the
  // order they were added.
  populateTransposeFoldingPatterns(patterns, isFrozen);
  populateTransposeSinkingPatterns(patterns, isFrozen);
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
