//===- AmpInterfaces.cpp - Policy and op interfaces of amp ----------------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "amp/IR/AmpInterfaces.h"
#include "amp/IR/AmpAttrs.h"
#include "amp/Utils/ConversionMemo.h"
#include "amp/Utils/OpAttributes.h"
#include "amp/Utils/TypeUtils.h"

#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace mlir::amp;

FP8Builder::~FP8Builder() = default;

bool mlir::amp::hasFloatElementType(Type type) {
  return isFloatType(getScalarType(type));
}

Type mlir::amp::withElementType(Type type, Type elementType) {
  return cloneWithElementType(type, elementType);
}

std::optional<Color> mlir::amp::getDefaultColor(Operation *op) {
  if (auto iface = getMixedPrecisionInterface(op))
    return iface.getDefaultColor();
  return std::nullopt;
}

void mlir::amp::detail::setChangedOperands(Operation *op,
                                           ValueRange operands) {
  for (auto [operand, value] : llvm::zip_equal(op->getOpOperands(), operands))
    if (operand.get() != value)
      operand.set(value);
}

FailureOr<Operation *>
mlir::amp::detail::rewriteResultsInPlace(Operation *op, RewriterBase &rewriter,
                                         ValueRange operands,
                                         FloatType computeType) {
  if (op->getNumRegions() != 0 || operands.size() != op->getNumOperands())
    return failure();
  rewriter.modifyOpInPlace(op, [&] {
    setChangedOperands(op, operands);
    for (OpResult result : op->getResults())
      if (hasFloatElementType(result.getType()))
        result.setType(withElementType(result.getType(), computeType));
  });
  return op;
}

void mlir::amp::detail::getFloatAttributes(Operation *op,
                                           SmallVectorImpl<FloatAttr> &attrs) {
  forEachAttribute(op, [&](StringAttr, Attribute attr) {
    if (auto value = dyn_cast<FloatAttr>(attr))
      attrs.push_back(value);
  });
}

void mlir::amp::detail::getDiscardableFloatAttributes(
    Operation *op, SmallVectorImpl<FloatAttr> &attrs) {
  for (NamedAttribute attr : op->getDiscardableAttrs())
    if (auto value = dyn_cast<FloatAttr>(attr.getValue()))
      attrs.push_back(value);
}

#include "amp/IR/AmpAttrInterfaces.cpp.inc"
#include "amp/IR/AmpOpInterfaces.cpp.inc"

namespace {
/// Reaches the interface's (protected) model lookup.
struct ModelLookup : MixedPrecisionOpInterface {
  using MixedPrecisionOpInterface::getInterfaceFor;
};
} // namespace

MixedPrecisionOpInterface mlir::amp::getMixedPrecisionInterface(Operation *op) {
  ConversionMemo *memo = ConversionMemo::getActive();
  if (!memo)
    return dyn_cast<MixedPrecisionOpInterface>(op);
  const void *name = op->getName().getAsOpaquePointer();
  ConversionMemo::RecentModel &recent =
      memo->recentModels[(reinterpret_cast<uintptr_t>(name) >> 4) %
                         std::size(memo->recentModels)];
  if (recent.name != name) {
    recent.model =
        ConversionMemo::getOrCompute(memo->opModels, op->getName(), [&] {
          return static_cast<const void *>(ModelLookup::getInterfaceFor(op));
        });
    recent.name = name;
  }
  const void *model = recent.model;
  if (!model)
    return nullptr;
  return MixedPrecisionOpInterface(
      op, static_cast<const MixedPrecisionOpInterface::Concept *>(model));
}
