//===- ReportFile.h - Write the report of --amp-mixed-precision -*- C++ -*-===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef AMP_LIB_TRANSFORMS_REPORTFILE_H
#define AMP_LIB_TRANSFORMS_REPORTFILE_H

#include "amp/Transforms/MixedPrecision.h"

namespace mlir {
namespace amp {

/// Writes the report of the conversion of `root` (`functions`, in the
/// order they were collected) to `path`: the JSON report, or the HTML page
/// that draws it on the graph of the converted `root`, as the name's
/// extension says (getReportFormat). Emits an error at the location of
/// `root` and fails if the name has another extension or the file cannot be
/// written.
/// With an FP8 target, `fallback` is the 16-bit type of the rest.
LogicalResult writeReportFile(Operation *root, StringRef path, FloatType target,
                              ArrayRef<FunctionConversion> functions,
                              FloatType fallback = {});

} // namespace amp
} // namespace mlir

#endif // AMP_LIB_TRANSFORMS_REPORTFILE_H
