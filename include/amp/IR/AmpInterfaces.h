//===- AmpInterfaces.h - Policy and op interfaces of amp --------*- C++ -*-===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Declares PrecisionPolicyAttrInterface (a policy colors ops and picks their
// accumulation/output types) and MixedPrecisionOpInterface (an op describes
// how it takes part in mixed precision), plus the helpers their default
// implementations use.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_IR_AMPINTERFACES_H
#define AMP_IR_AMPINTERFACES_H

#include "amp/IR/AmpEnums.h"
#include "mlir/IR/Attributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/PatternMatch.h"

#include <optional>

namespace mlir {
namespace amp {
/// A color and why it was chosen; the answer of a policy.
struct ColorDecision {
  Color color;
  Reason reason;
};

/// Accumulation and output element types of an op: the answer of a policy,
/// and the content of an `#amp.precision` attribute.
struct Precision {
  FloatType accumulate;
  FloatType output;
};

/// An operand of a contraction that runs in FP8
/// (MixedPrecisionOpInterface::getFP8Operands).
struct FP8Operand {
  /// Its operand number.
  unsigned number;
  /// The dimension of the operand that indexes the op's output channels (N
  /// of a matmul's B, F of a convolution's filter), if it has one: a
  /// constant operand with per-channel scales gets one scale per index of
  /// this dimension.
  std::optional<int64_t> channelDim;
};

/// What the FP8 rewrite of a contraction (MixedPrecisionOpInterface::
/// rewriteInFP8) asks of the conversion: the operands in FP8, each
/// multiplied by its scale, and the epilogue that multiplies the FP32
/// accumulator by the inverse scales. The conversion implements it
/// (lib/Transforms/FP8Contractions.cpp); the op's model builds the
/// contraction between them.
class FP8Builder {
public:
  virtual ~FP8Builder();
  /// The FP8 type.
  virtual FloatType getType() const = 0;
  /// The FP8 form of operand `number` of the op: `value` (the operand, or
  /// the same elements rearranged, e.g. padded with zeros) multiplied by the
  /// operand's scale, clamped to the finite range and rounded, with its
  /// dimensions permuted (dimension i of the result is dimension
  /// `permutation[i]` of `value`; empty: as it is). A constant (or a
  /// transpose of one) is converted at compile time, an activation by an
  /// elementwise linalg.generic. Null if `value` is neither the operand nor
  /// has its shape (nothing is built).
  virtual Value narrow(RewriterBase &rewriter, unsigned number, Value value,
                       ArrayRef<int64_t> permutation = {}) = 0;
  /// `accumulator`, the FP32 result of the contraction of the narrowed
  /// operands, times 1 / (product of the operands' scales): one factor, or
  /// one per index of dimension `channelDim` of the result when a constant
  /// operand has per-channel scales. `bias` (a 1-D tensor of the channels,
  /// or of one element) and `addend` (the result's shape) are added after,
  /// if given. Built as one elementwise linalg.generic after the
  /// contraction.
  virtual Value rescale(RewriterBase &rewriter, Value accumulator,
                        int64_t channelDim, Value bias = {},
                        Value addend = {}) = 0;
};

/// Returns true if `type` is a float scalar, or a shaped type (tensor, vector,
/// memref) of floats.
bool hasFloatElementType(Type type);

/// Returns `type` with its element type replaced by `elementType`: a shaped
/// type is cloned, a scalar becomes `elementType`.
Type withElementType(Type type, Type elementType);

/// Returns the color that the default lists give `op`: the op's own
/// MixedPrecisionOpInterface answer, or std::nullopt if it has none.
std::optional<Color> getDefaultColor(Operation *op);

namespace detail {
/// Sets `operands` (as many as `op` has) on `op`, touching only the use
/// lists of those that change (a constant converted in place is the same
/// value, in its new type).
void setChangedOperands(Operation *op, ValueRange operands);

/// Default MixedPrecisionOpInterface::rewriteInPrecision: sets `operands` on
/// `op` and changes the element type of every float result to `computeType`.
FailureOr<Operation *> rewriteResultsInPlace(Operation *op,
                                             RewriterBase &rewriter,
                                             ValueRange operands,
                                             FloatType computeType);
/// Default MixedPrecisionOpInterface::getFloatAttributes: every float
/// attribute of `op`, inherent (read by name) or discardable.
void getFloatAttributes(Operation *op, SmallVectorImpl<FloatAttr> &attrs);
/// The float attributes among the discardable attributes of `op`.
void getDiscardableFloatAttributes(Operation *op,
                                   SmallVectorImpl<FloatAttr> &attrs);
} // namespace detail
} // namespace amp
} // namespace mlir

#include "amp/IR/AmpAttrInterfaces.h.inc"
#include "amp/IR/AmpOpInterfaces.h.inc"

namespace mlir {
namespace amp {
/// `dyn_cast<MixedPrecisionOpInterface>(op)`. Inside a ConversionMemo scope
/// the model is looked up once per op name (an interface lookup searches the
/// op's interface map, then its dialect's, on every call).
MixedPrecisionOpInterface getMixedPrecisionInterface(Operation *op);
} // namespace amp
} // namespace mlir

#endif // AMP_IR_AMPINTERFACES_H
