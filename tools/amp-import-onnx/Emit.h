//===- Emit.h - Building TOSA and linalg ops for the converters -*- C++ -*-===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Small builders shared by the op converters: TOSA's shape operands, rank
// alignment for its broadcasting, NumPy-broadcasting linalg.generic for the
// element-wise ops TOSA lacks, reductions over several axes, constants.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_IMPORT_ONNX_EMIT_H
#define AMP_IMPORT_ONNX_EMIT_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Value.h"

namespace amp {
namespace onnximport {

using mlir::Location;
using mlir::OpBuilder;
using mlir::RankedTensorType;
using mlir::Type;
using mlir::Value;

RankedTensorType getTensorType(Value value);
llvm::ArrayRef<int64_t> getShape(Value value);
Type getElementType(Value value);

/// Whether `shape` has a dynamic dimension (`?`).
bool hasDynamicDims(llvm::ArrayRef<int64_t> shape);
int64_t getNumDynamicDims(llvm::ArrayRef<int64_t> shape);
/// The product of `sizes` (saturating at INT64_MAX), or dynamic if one of
/// them is: the size of those dimensions merged by a reshape.
int64_t mergeSizes(llvm::ArrayRef<int64_t> sizes);

/// A constant tensor of `type` whose every element is `value`.
Value splatConst(OpBuilder &b, Location loc, RankedTensorType type,
                 double value);
/// A constant of element type `elementType`, of rank `rank`, all dims 1.
Value scalarConst(OpBuilder &b, Location loc, Type elementType, double value,
                  int64_t rank);
/// A constant i64/i32 tensor.
Value intConst(OpBuilder &b, Location loc, Type elementType,
               llvm::ArrayRef<int64_t> shape, llvm::ArrayRef<int64_t> values);

/// tosa.reshape (no op if the shape is already `shape`); `shape` has at most
/// one dynamic dimension, which TOSA infers.
Value reshape(OpBuilder &b, Location loc, Value value,
              llvm::ArrayRef<int64_t> shape);
/// tosa.transpose (no op for the identity permutation).
Value transpose(OpBuilder &b, Location loc, Value value,
                llvm::ArrayRef<int32_t> perm);
/// tosa.slice with static starts and sizes; a dynamic dimension is taken
/// whole (its size is dynamic in `sizes` too).
Value slice(OpBuilder &b, Location loc, Value value,
            llvm::ArrayRef<int64_t> starts, llvm::ArrayRef<int64_t> sizes);
/// tosa.pad with (low, high) pairs per dimension and a constant.
Value pad(OpBuilder &b, Location loc, Value value,
          llvm::ArrayRef<int64_t> lows, llvm::ArrayRef<int64_t> highs,
          double padValue);
/// tosa.concat.
Value concat(OpBuilder &b, Location loc, llvm::ArrayRef<Value> values,
             int64_t axis);
/// tosa.tile to `shape` (each dimension of `value` is 1 or already equal).
Value broadcastTo(OpBuilder &b, Location loc, Value value,
                  llvm::ArrayRef<int64_t> shape);
/// Reshapes `value` to `rank` dimensions by prepending 1s.
Value expandRank(OpBuilder &b, Location loc, Value value, int64_t rank);

/// The NumPy broadcast of the operands' shapes, or failure.
mlir::FailureOr<llvm::SmallVector<int64_t>>
broadcastShape(llvm::ArrayRef<Value> values);

/// A TOSA binary op with rank-aligned operands (the result shape is their
/// broadcast). OpTy is tosa::AddOp, SubOp, PowOp, EqualOp, ...
template <typename OpTy>
Value binary(OpBuilder &b, Location loc, Value lhs, Value rhs,
             Type resultElementType = nullptr);
Value add(OpBuilder &b, Location loc, Value lhs, Value rhs);
Value sub(OpBuilder &b, Location loc, Value lhs, Value rhs);
Value mul(OpBuilder &b, Location loc, Value lhs, Value rhs);
/// Float division as arith.divf in a broadcasting linalg.generic (TOSA has
/// no float division; reciprocal-and-multiply rounds twice).
Value div(OpBuilder &b, Location loc, Value lhs, Value rhs);

/// Body of an element-wise linalg.generic: the scalar operands in, the
/// scalar result out.
using ScalarFn = llvm::function_ref<Value(OpBuilder &, Location,
                                          mlir::ValueRange)>;
/// A linalg.generic computing `fn` over the NumPy broadcast of `inputs`.
Value elementwise(OpBuilder &b, Location loc, llvm::ArrayRef<Value> inputs,
                  Type resultElementType, ScalarFn fn);

/// ONNX Cast semantics on scalars: float -> int truncates, -> bool is != 0.
Value castScalar(OpBuilder &b, Location loc, Value value, Type to);
/// Casts a tensor element-wise with castScalar (no op if the type matches).
Value castTensor(OpBuilder &b, Location loc, Value value, Type elementType);

enum class ReduceKind { Sum, Max, Min, Prod };
/// Reduces `value` over `axes` (each kept with size 1), one TOSA reduce per
/// axis.
Value reduce(OpBuilder &b, Location loc, ReduceKind kind, Value value,
             llvm::ArrayRef<int64_t> axes);

/// tosa.clamp with float bounds (integer types take the rounded bounds).
Value clamp(OpBuilder &b, Location loc, Value value, double lo, double hi);

/// A static-shaped tensor of `shape` whose elements are zero: linalg.fill of
/// a tensor.empty, the init of the converters' linalg.generic reductions.
Value zeroTensor(OpBuilder &b, Location loc, llvm::ArrayRef<int64_t> shape,
                 Type elementType);

/// A batched tosa.matmul of [B, M, K] x [B, K, N] (f32 accumulate for f32).
Value matmul3d(OpBuilder &b, Location loc, Value lhs, Value rhs);

} // namespace onnximport
} // namespace amp

#endif // AMP_IMPORT_ONNX_EMIT_H
