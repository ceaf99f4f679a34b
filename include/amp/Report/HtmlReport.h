//===- HtmlReport.h - The self-contained HTML report ------------*- C++ -*-===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A report file is JSON or HTML, as its name's extension says. The HTML one
// is a single file: the page, its style sheet and its script (templates kept
// in lib/Report/template and embedded at build time) and the report itself
// as JSON in a <script type="application/json"> element, which the script
// renders. Nothing in it refers to anything outside the file.
//
// The document the page renders is an object:
//   {"tool": "amp-opt" | "amp-tune", "title": "<model name>",
//    "report": <the JSON report of --amp-mixed-precision>,
//    "graph": <addReportGraph>,
//    "tune": <optional, amp-tune's ranking, see docs/report.md>}
//
//===----------------------------------------------------------------------===//

#ifndef AMP_REPORT_HTMLREPORT_H
#define AMP_REPORT_HTMLREPORT_H

#include "mlir/IR/Location.h"
#include "mlir/Support/LLVM.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>

namespace mlir {
namespace amp {

/// What a report file holds.
enum class ReportFormat { Json, Html };

/// The format a report written to `path` has: HTML for names ending in
/// ".html" or ".htm", JSON for ".json" and for "-" (standard output);
/// std::nullopt for any other name.
std::optional<ReportFormat> getReportFormat(StringRef path);

/// The extensions getReportFormat accepts, for messages.
StringRef getReportExtensions();

/// A location as reports show it: "file:line:col" for file locations (the
/// first one of a fused location), the name of a name location, the callee
/// of a call site location; the printed location otherwise.
std::string formatReportLocation(Location loc);

/// Writes the page that shows `document` (see the file comment).
void writeHtmlReport(llvm::raw_ostream &os, const llvm::json::Value &document);

} // namespace amp
} // namespace mlir

#endif // AMP_REPORT_HTMLREPORT_H
