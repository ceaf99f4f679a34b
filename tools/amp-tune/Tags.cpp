//===- Tags.cpp - amp-tune's op tags, and what a conversion runs where ----===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Every op of the model carries its index ("amp-tune#<index>") in its
// location through every trial's conversion; these functions number the
// ops, read the numbers back, and find which ops a converted module runs
// in 16 bits, in FP8 or with weight-only weights.
//
//===----------------------------------------------------------------------===//

#include "Tuner.h"

#include "amp/IR/AmpInterfaces.h"
#include "amp/Utils/FloatConversion.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "llvm/ADT/DenseSet.h"

using namespace mlir;
using namespace mlir::amp;
using namespace mlir::amp::tune;

static constexpr llvm::StringLiteral kTagPrefix = "amp-tune#";

//===----------------------------------------------------------------------===//
// Tags
//===----------------------------------------------------------------------===//

void mlir::amp::tune::forEachBodyOp(ModuleOp module,
                                    llvm::function_ref<void(Operation *)> fn) {
  for (auto function : module.getOps<func::FuncOp>())
    function.getBody().walk<WalkOrder::PreOrder>(fn);
}

std::vector<Operation *> mlir::amp::tune::listOps(ModuleOp module) {
  std::vector<Operation *> ops;
  forEachBodyOp(module, [&](Operation *op) { ops.push_back(op); });
  return ops;
}

std::vector<Operation *> mlir::amp::tune::tagOps(ModuleOp module) {
  std::vector<Operation *> ops = listOps(module);
  MLIRContext *ctx = module.getContext();
  // The tag is the metadata of a fused location around the op's own: the
  // printed location (describeLocation, diagnostics) stays the op's, so
  // that calibrated ranges (ranges=) still find their values.
  for (auto [index, op] : llvm::enumerate(ops))
    op->setLoc(FusedLoc::get(
        ctx, {op->getLoc()},
        StringAttr::get(ctx, (kTagPrefix + llvm::Twine(index)).str())));
  return ops;
}

static std::optional<unsigned> findTag(Location loc) {
  if (auto name = dyn_cast<NameLoc>(loc))
    return findTag(name.getChildLoc());
  if (auto fused = dyn_cast<FusedLoc>(loc)) {
    if (auto metadata = dyn_cast_or_null<StringAttr>(fused.getMetadata())) {
      StringRef text = metadata.getValue();
      unsigned tag;
      if (text.consume_front(kTagPrefix) && !text.getAsInteger(10, tag))
        return tag;
    }
    for (Location inner : fused.getLocations())
      if (std::optional<unsigned> tag = findTag(inner))
        return tag;
  }
  return std::nullopt;
}

std::optional<unsigned> mlir::amp::tune::getTag(Operation *op) {
  return findTag(op->getLoc());
}

bool mlir::amp::tune::isFloatValueType(Type type) {
  return isa<FloatType>(getElementTypeOrSelf(type)) &&
         (isa<FloatType>(type) || isa<RankedTensorType>(type));
}

static bool is16Bit(Type type) {
  Type element = getElementTypeOrSelf(type);
  return element.isF16() || element.isBF16();
}

/// The tags, sorted and once each, of the ops of `converted` tagged after
/// an op of `pristineOps` for which `keep(op, tagged)` holds.
static std::vector<unsigned>
collectTags(ModuleOp converted, ArrayRef<Operation *> pristineOps,
            llvm::function_ref<bool(Operation *op, Operation *tagged)> keep) {
  llvm::DenseSet<unsigned> seen;
  std::vector<unsigned> tags;
  forEachBodyOp(converted, [&](Operation *op) {
    std::optional<unsigned> tag = getTag(op);
    if (tag && *tag < pristineOps.size() && keep(op, pristineOps[*tag]) &&
        seen.insert(*tag).second)
      tags.push_back(*tag);
  });
  llvm::sort(tags);
  return tags;
}

std::vector<unsigned>
mlir::amp::tune::findLowOps(ModuleOp converted,
                            ArrayRef<Operation *> pristineOps) {
  return collectTags(converted, pristineOps,
                     [](Operation *op, Operation *tagged) {
                       return op->getNumOperands() != 0 &&
                              op->getName() == tagged->getName() &&
                              (llvm::any_of(op->getOperandTypes(), is16Bit) ||
                               llvm::any_of(op->getResultTypes(), is16Bit));
                     });
}

bool mlir::amp::tune::isFP8(Type type) {
  return isFP8Type(getElementTypeOrSelf(type));
}

std::vector<unsigned>
mlir::amp::tune::findFP8Ops(ModuleOp converted,
                            ArrayRef<Operation *> pristineOps) {
  return collectTags(converted, pristineOps, [](Operation *op, Operation *) {
    return llvm::any_of(op->getOperandTypes(), isFP8) &&
           !llvm::any_of(op->getResultTypes(), isFP8);
  });
}

std::vector<unsigned>
mlir::amp::tune::findWeightOnlyOps(ModuleOp converted,
                                   ArrayRef<Operation *> pristineOps) {
  auto isLowBitConstant = [](Value value) {
    auto constant = value.getDefiningOp<arith::ConstantOp>();
    auto type = constant ? dyn_cast<RankedTensorType>(constant.getType())
                         : RankedTensorType();
    return type && type.getElementTypeBitWidth() <= 8;
  };
  auto isDequantized = [&](Value operand) {
    auto generic = operand.getDefiningOp<linalg::GenericOp>();
    return generic && llvm::any_of(generic.getDpsInputs(), isLowBitConstant);
  };
  return collectTags(converted, pristineOps,
                     [&](Operation *op, Operation *tagged) {
                       return op->getName() == tagged->getName() &&
                              llvm::any_of(op->getOperands(), isDequantized);
                     });
}

std::optional<int64_t> mlir::amp::tune::estimateMacs(Operation *op) {
  if (MixedPrecisionOpInterface iface = getMixedPrecisionInterface(op))
    return iface.estimateMacs();
  return std::nullopt;
}

double
mlir::amp::tune::secondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
      .count();
}
