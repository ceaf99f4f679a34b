//===- AmpAttrs.cpp - Attributes of the amp dialect -----------------------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Verifiers of the amp attributes and the default precision policy.
//
//===----------------------------------------------------------------------===//

#include "amp/IR/AmpAttrs.h"
#include "amp/IR/AmpDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::amp;

#include "amp/IR/AmpEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "amp/IR/AmpAttrs.cpp.inc"

void AmpDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "amp/IR/AmpAttrs.cpp.inc"
      >();
}

/// Checks that `type`, the value of parameter `what`, is a float type.
static LogicalResult verifyFloatParameter(
    function_ref<InFlightDiagnostic()> emitError, StringRef what, Type type) {
  if (isa<FloatType>(type))
    return success();
  return emitError() << "'" << what
                     << "' must be a floating-point type, got " << type;
}

//===----------------------------------------------------------------------===//
// PrecisionAttr
//===----------------------------------------------------------------------===//

LogicalResult
PrecisionAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                      Type accumulate, Type output) {
  if (failed(verifyFloatParameter(emitError, "accumulate", accumulate)))
    return failure();
  return verifyFloatParameter(emitError, "output", output);
}

//===----------------------------------------------------------------------===//
// DefaultPolicyAttr
//===----------------------------------------------------------------------===//

LogicalResult
DefaultPolicyAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                          Type accumulate, Type output, int64_t minMacs) {
  if (accumulate &&
      failed(verifyFloatParameter(emitError, "accumulate", accumulate)))
    return failure();
  if (output && failed(verifyFloatParameter(emitError, "output", output)))
    return failure();
  if (minMacs < 0)
    return emitError() << "'min_macs' must be non-negative, got " << minMacs;
  return success();
}

std::optional<ColorDecision>
DefaultPolicyAttr::getColor(Operation *op) const {
  std::optional<Color> color = getDefaultColor(op);
  if (!color)
    return std::nullopt;
  if (*color == Color::green && getMinMacs() > 0) {
    std::optional<int64_t> macs =
        cast<MixedPrecisionOpInterface>(op).estimateMacs();
    if (macs && *macs < getMinMacs())
      return ColorDecision{Color::gray, Reason::BelowThreshold};
  }
  return ColorDecision{*color, Reason::DefaultList};
}

Precision DefaultPolicyAttr::getPrecision(Operation *op,
                                          FloatType target) const {
  auto iface = dyn_cast<MixedPrecisionOpInterface>(op);
  if (!iface || !iface.hasSeparateAccumulator())
    return {target, target};
  auto accumulate = dyn_cast_or_null<FloatType>(getAccumulate());
  auto output = dyn_cast_or_null<FloatType>(getOutput());
  return {accumulate ? accumulate : Float32Type::get(getContext()),
          output ? output : target};
}
