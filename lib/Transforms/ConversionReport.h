//===- ConversionReport.h - The JSON report of --amp-mixed-precision ------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef AMP_LIB_TRANSFORMS_CONVERSIONREPORT_H
#define AMP_LIB_TRANSFORMS_CONVERSIONREPORT_H

#include "amp/Transforms/MixedPrecision.h"

#include "llvm/Support/raw_ostream.h"

namespace mlir {
namespace amp {

/// A location as reports show it: "file:line:col" for file locations (the
/// first one of a fused location), the name of a name location.
std::string formatLocation(Location loc);

/// Writes the report of a conversion: one record per op and the totals.
/// With an FP8 target, `fallback` is the 16-bit type of the rest.
void writeConversionReport(llvm::raw_ostream &os, FloatType target,
                           ArrayRef<FunctionConversion> functions,
                           FloatType fallback = {});

} // namespace amp
} // namespace mlir

#endif // AMP_LIB_TRANSFORMS_CONVERSIONREPORT_H
