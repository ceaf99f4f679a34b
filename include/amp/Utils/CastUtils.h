//===- CastUtils.h - Create float casts, constants and empties --*- C++ -*-===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The IR-building helpers shared by the external models and the passes:
// which ops are float casts, how a cast is built (arith.extf/truncf, or
// tosa.cast in TOSA code), and how constants and empty tensors are rebuilt
// with another element type instead of being cast.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_UTILS_CASTUTILS_H
#define AMP_UTILS_CASTUTILS_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/Value.h"

namespace mlir {
namespace amp {

/// Returns true if `type` is a value amp can give another float element type
/// with a cast: a float scalar, a ranked tensor or a vector of floats.
/// Memrefs are not (converting them needs a copy), nor are unranked tensors
/// (no cast op accepts them).
bool isCastableFloatType(Type type);

/// True if `op` is a TOSA op (a value it makes or reads is cast with
/// tosa.cast).
bool isTosaOp(Operation *op);

/// Returns true if `op` is a float-to-float cast: arith.extf, arith.truncf or
/// a tosa.cast between float tensors.
bool isFloatCast(Operation *op);

/// Returns the source of `op` if it is a float-to-float cast.
Value getFloatCastSource(Operation *op);

/// If `value` is an exact widening (a float cast to a wider type) of a value
/// of element type `elementType`, returns that value: narrowing `value` back
/// to `elementType` is that value, never a round trip. Null otherwise.
Value getWideningSource(Value value, Type elementType);

/// Returns true if `op` is an op amp treats as a float constant (ConstantLike
/// with a float value it can convert).
bool isFloatConstant(Operation *op);

/// If `op` is a linalg.fill (on tensors) of a float constant into a
/// tensor.empty, an init tensor that can be rebuilt in any float type,
/// returns the constant's op; otherwise null.
Operation *getConstantFillValue(Operation *op);

/// Returns true if a value defined by `op` can be rebuilt with another
/// element type without reading anything: a float constant, a tensor.empty,
/// or a fill of a float constant into a tensor.empty (getConstantFillValue).
bool isRematerializable(Operation *op);

/// Creates a cast of `value` to element type `elementType`: a tosa.cast when
/// `preferTosa` and `value` is a ranked tensor, otherwise arith.extf or
/// arith.truncf. Types of equal width (f16 <-> bf16) go through f32.
Value createFloatCast(OpBuilder &b, Location loc, Value value, Type elementType,
                      bool preferTosa);

/// Creates a constant of the same kind as `constOp` (arith.constant or
/// tosa.const) holding `value`.
Value createConstantLike(OpBuilder &b, Operation *constOp, TypedAttr value);

/// Gives the float constant `constOp` (arith.constant or tosa.const) the
/// value `value`, and its result the type of `value`, in place.
void setConstantValue(RewriterBase &rewriter, Operation *constOp,
                      TypedAttr value);

/// The value of the float constant `constOp` (arith.constant or tosa.const).
TypedAttr getConstantValue(Operation *constOp);

/// getConstantValue as a plain attribute, which is cheaper to get: for
/// identity and kind tests.
Attribute getConstantAttr(Operation *constOp);

/// Creates a tensor.empty with the shape of the ranked tensor `like` and the
/// element type `elementType`.
Value createEmptyLike(OpBuilder &b, Location loc, Value like, Type elementType);

/// True if every use of `value` is an operand of `user` itself.
bool isOnlyReadBy(Value value, Operation *user);

/// Gives `value`, the result of a float constant (arith.constant or
/// tosa.const) or of a tensor.empty, the element type `elementType` in
/// place: a constant's values are converted (convertFloatConstant).
void setElementTypeInPlace(RewriterBase &rewriter, Value value,
                           FloatType elementType);

/// An empty tensor with the shape of the ranked tensor `like` and the element
/// type `elementType`, for `user` to read: `like` itself, retyped in place,
/// if it is a tensor.empty that only `user` reads; otherwise a new one. A
/// model calls it once its rewrite can no longer fail. (The conversion keeps
/// a copy of the first op of each kind, which reads `like` too: a refused
/// first rewrite never retyped it.)
Value getEmptyFor(RewriterBase &rewriter, Operation *user, Value like,
                  Type elementType);

/// Returns `value` with element type `elementType`: itself if it has it, the
/// source of an exact widening from `elementType` (never a round trip), a
/// new constant for a float constant (values out of range are clamped), a new
/// tensor.empty for a tensor.empty, a new fill for a fill of a constant,
/// otherwise a cast (see createFloatCast,
/// which `preferTosa` steers).
Value materializeElementType(OpBuilder &b, Location loc, Value value,
                             Type elementType, bool preferTosa);

/// Creates a conversion of `value` to the element type `elementType`, for any
/// pair of float and signless integer types (the benchmarking conversion of
/// --amp-recast, which applies no scale):
///  - float to float: createFloatCast;
///  - float to integer: a tosa.cast when `preferTosa` and `value` is a ranked
///    tensor (TOSA's rounding and saturation), otherwise a clamp to the
///    integer's signed range (arith.maxnumf, arith.minnumf; NaN becomes the
///    smallest value) and arith.fptosi, which rounds toward zero;
///  - integer to float: tosa.cast or arith.sitofp;
///  - integer to integer: tosa.cast or arith.extsi / arith.trunci.
Value createElementTypeCast(OpBuilder &b, Location loc, Value value,
                            Type elementType, bool preferTosa);

/// Returns `value` with element type `elementType` (any float or signless
/// integer type): itself if it has it; a new constant for a float constant
/// (converted as createElementTypeCast would, see
/// convertFloatConstantToInteger); a new tensor.empty for a tensor.empty; a
/// new linalg.fill for a linalg.fill of a constant; otherwise
/// createElementTypeCast.
Value convertElementType(OpBuilder &b, Location loc, Value value,
                         Type elementType, bool preferTosa);

} // namespace amp
} // namespace mlir

#endif // AMP_UTILS_CASTUTILS_H
