//===- TypeUtils.h - Element type queries on the hot path -------*- C++ -*-===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The type tests the conversion makes for every operand and result of every
// op, answered without an interface lookup for the builtin types. Since
// FloatType and ShapedType are type interfaces, `isa<FloatType>(t)` and
// `getElementTypeOrSelf(t)` search the type's interface map each time; on a
// large function that search was about a sixth of --amp-mixed-precision.
// These give the same answers: the builtin types are recognized by their
// TypeID (one comparison each), any other type goes through the interface.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_UTILS_TYPEUTILS_H
#define AMP_UTILS_TYPEUTILS_H

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/IR/Value.h"

namespace mlir {
namespace amp {

/// `getElementTypeOrSelf(type)`: the element type of a shaped type, otherwise
/// the type itself.
inline Type getScalarType(Type type) {
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return tensor.getElementType();
  if (auto vector = dyn_cast<VectorType>(type))
    return vector.getElementType();
  if (auto memref = dyn_cast<MemRefType>(type))
    return memref.getElementType();
  if (auto tensor = dyn_cast<UnrankedTensorType>(type))
    return tensor.getElementType();
  if (isa<Float32Type, Float16Type, BFloat16Type, Float64Type, IntegerType,
          IndexType>(type))
    return type;
  return getElementTypeOrSelf(type);
}
inline Type getScalarType(Value value) {
  return getScalarType(value.getType());
}

/// `isa<FloatType>(type)`.
inline bool isFloatType(Type type) {
  if (isa<Float32Type, Float16Type, BFloat16Type, Float64Type>(type))
    return true;
  if (isa<IntegerType, IndexType, RankedTensorType, VectorType>(type))
    return false;
  return isa<FloatType>(type);
}

/// `dyn_cast<FloatType>(type)`.
inline FloatType getFloatType(Type type) {
  return isFloatType(type) ? cast<FloatType>(type) : FloatType();
}

/// The largest element count the cost models compute with (they add and
/// multiply counts): larger counts saturate.
constexpr int64_t kMaxElementCount = int64_t(1) << 55;

/// The number of elements of a value of `type`, as the cost models count
/// them: the product of its static dimensions, a dynamic one counting as 1
/// (it is at least that), one of size 0 making 0 (an empty tensor moves
/// nothing), saturated at kMaxElementCount; 1 for a scalar or a type
/// without a rank.
inline int64_t getStaticElementCount(Type type) {
  // Ranked tensors first: ShapedType is an interface (a lookup per call).
  ArrayRef<int64_t> shape;
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    shape = tensor.getShape();
  else if (auto vector = dyn_cast<VectorType>(type))
    shape = vector.getShape();
  else if (auto shaped = dyn_cast<ShapedType>(type); shaped && shaped.hasRank())
    shape = shaped.getShape();
  int64_t n = 1;
  for (int64_t dim : shape) {
    if (ShapedType::isDynamic(dim))
      continue;
    if (dim == 0)
      return 0;
    n = dim > kMaxElementCount / n ? kMaxElementCount : n * dim;
  }
  return n;
}

} // namespace amp
} // namespace mlir

#endif // AMP_UTILS_TYPEUTILS_H
