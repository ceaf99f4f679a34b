//===- InitializerBytes.cpp - The bytes of a global's initializer ---------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "amp/Runner/InitializerBytes.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/DialectResourceBlobManager.h"

#include <algorithm>
#include <cstring>

using namespace mlir;
using namespace mlir::amp::runner;

FailureOr<uint64_t>
mlir::amp::runner::getInitializerByteSize(ElementsAttr value,
                                          std::string &why) {
  auto type = cast<ShapedType>(value.getType());
  if (!type.hasStaticShape()) {
    why = "its type has dynamic dimensions";
    return failure();
  }
  unsigned bits = type.getElementTypeBitWidth();
  if (bits == 0 || bits % 8 != 0) {
    why = "its elements are not whole bytes";
    return failure();
  }
  uint64_t total = type.getNumElements() * (bits / 8);
  if (isa<DenseElementsAttr>(value))
    return total;
  if (auto resource = dyn_cast<DenseResourceElementsAttr>(value)) {
    AsmResourceBlob *blob = resource.getRawHandle().getBlob();
    if (!blob) {
      why = "its data is not in the module (an elided dense_resource)";
      return failure();
    }
    size_t size = blob->getData().size();
    if (size != total) {
      why = "its resource holds " + std::to_string(size) + " bytes, not the " +
            std::to_string(total) + " of its type";
      return failure();
    }
    return total;
  }
  why = "its initializer is not a dense elements attribute";
  return failure();
}

void mlir::amp::runner::copyInitializerBytes(ElementsAttr value, char *out) {
  auto type = cast<ShapedType>(value.getType());
  size_t elementBytes = type.getElementTypeBitWidth() / 8;
  size_t total = type.getNumElements() * elementBytes;
  if (auto dense = dyn_cast<DenseElementsAttr>(value)) {
    ArrayRef<char> raw = dense.getRawData();
    if (!dense.isSplat()) {
      std::memcpy(out, raw.data(), total);
      return;
    }
    for (size_t at = 0; at < total; at += elementBytes)
      std::memcpy(out + at, raw.data(), elementBytes);
    return;
  }
  ArrayRef<char> raw = cast<DenseResourceElementsAttr>(value)
                           .getRawHandle()
                           .getBlob()
                           ->getData();
  std::memcpy(out, raw.data(), total);
}
