//===- AmpTestDialect.cpp - A user policy defined outside amp -------------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "AmpTestDialect.h"

#include "amp/IR/AmpAttrs.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::amp;
using namespace mlir::amp::test;

#include "AmpTestDialect.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "AmpTestAttrs.cpp.inc"

void AmpTestDialect::initialize() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "AmpTestAttrs.cpp.inc"
      >();
}

/// Convolutions of linalg and TOSA.
static bool isConvolution(Operation *op) {
  return isa<linalg::ConvolutionOpInterface, tosa::Conv2DOp, tosa::Conv3DOp,
             tosa::DepthwiseConv2DOp, tosa::TransposeConv2DOp>(op);
}

std::optional<ColorDecision>
ConvMacThresholdPolicyAttr::getColor(Operation *op) const {
  std::optional<Color> color = getDefaultColor(op);
  if (!color)
    return std::nullopt;
  if (*color == Color::green && isConvolution(op)) {
    std::optional<int64_t> macs =
        cast<MixedPrecisionOpInterface>(op).estimateMacs();
    if (macs && *macs < getMinMacs())
      return ColorDecision{Color::gray, Reason::Policy};
  }
  return ColorDecision{*color, Reason::Policy};
}

Precision ConvMacThresholdPolicyAttr::getPrecision(Operation *op,
                                                   FloatType target) const {
  // Everything else as the default policy does.
  return DefaultPolicyAttr::get(getContext(), Type(), Type(), 0)
      .getPrecision(op, target);
}

void mlir::amp::test::registerAmpTestDialect(DialectRegistry &registry) {
  registry.insert<AmpTestDialect>();
}
