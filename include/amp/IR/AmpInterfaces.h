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
