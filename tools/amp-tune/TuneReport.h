//===- TuneReport.h - amp-tune's HTML report ---------------------*- C++
//-*-===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// `amp-tune --report=FILE.html`: the report of amp-opt's conversion of the
// tuned model (the page of lib/Report), with the tuning's measurements: the
// error each candidate adds, which ones were kept in FP32, the tolerance.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_TOOLS_AMP_TUNE_TUNEREPORT_H
#define AMP_TOOLS_AMP_TUNE_TUNEREPORT_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir {
namespace amp {
namespace tune {

/// Checks, before any tuning, that `path` names an HTML file and that
/// `pipeline` runs amp-mixed-precision on the module (whose report the page
/// shows). Prints an error and fails otherwise.
LogicalResult checkTuneReport(MLIRContext *ctx, StringRef path,
                              StringRef pipeline, llvm::raw_ostream &errs);

/// Converts `tuned` (the model with the tuning's annotations; it is not
/// changed) with `pipeline`, its amp-mixed-precision pass writing the JSON
/// report to a temporary file, and writes to `path` the page that shows that
/// report on the converted graph with `tuning` (amp-tune --json's object).
/// Prints an error and fails if the pipeline fails or a file cannot be
/// written.
LogicalResult writeTuneReport(ModuleOp tuned, StringRef pipeline,
                              llvm::json::Value tuning, StringRef path,
                              llvm::raw_ostream &errs);

} // namespace tune
} // namespace amp
} // namespace mlir

#endif // AMP_TOOLS_AMP_TUNE_TUNEREPORT_H
