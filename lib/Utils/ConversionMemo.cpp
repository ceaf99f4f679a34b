//===- ConversionMemo.cpp - Conversions a function reuses -----------------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "amp/Utils/ConversionMemo.h"

using namespace mlir;
using namespace mlir::amp;

/// One per thread: functions are converted in parallel, each on one thread.
static thread_local ConversionMemo *activeMemo = nullptr;

ConversionMemo::Scope::Scope(ConversionMemo &memo) : previous(activeMemo) {
  activeMemo = &memo;
}

ConversionMemo::Scope::~Scope() { activeMemo = previous; }

ConversionMemo *ConversionMemo::getActive() { return activeMemo; }

static Type buildWithElementType(Type type, Type elementType) {
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return RankedTensorType::get(tensor.getShape(), elementType,
                                 tensor.getEncoding());
  if (auto shaped = dyn_cast<ShapedType>(type))
    return shaped.clone(elementType);
  return elementType;
}

Type mlir::amp::cloneWithElementType(Type type, Type elementType) {
  ConversionMemo *memo = ConversionMemo::getActive();
  if (!memo)
    return buildWithElementType(type, elementType);
  return ConversionMemo::getOrCompute(
      memo->types, std::make_pair(type, elementType),
      [&] { return buildWithElementType(type, elementType); });
}

static double readFloatAttr(FloatAttr attr) {
  // f32 read directly: getValueAsDouble converts through another APFloat.
  if (attr.getType().isF32())
    return attr.getValue().convertToFloat();
  return attr.getValueAsDouble();
}

double mlir::amp::getFloatAttrValue(FloatAttr attr) {
  ConversionMemo *memo = ConversionMemo::getActive();
  if (!memo)
    return readFloatAttr(attr);
  return ConversionMemo::getOrCompute(memo->floatValues, attr,
                                      [&] { return readFloatAttr(attr); });
}
