//===- HtmlReport.cpp - The self-contained HTML report --------------------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The page comes from ReportTemplate.inc, which the build generates from
// template/ (EmbedTemplate.cmake): the page before and after the place of
// the JSON document.
//
//===----------------------------------------------------------------------===//

#include "amp/Report/HtmlReport.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/Support/Path.h"

using namespace mlir;
using namespace mlir::amp;

namespace {
#include "ReportTemplate.inc"
} // namespace

std::optional<ReportFormat> mlir::amp::getReportFormat(StringRef path) {
  if (path == "-")
    return ReportFormat::Json;
  StringRef extension = llvm::sys::path::extension(path);
  if (extension.equals_insensitive(".json"))
    return ReportFormat::Json;
  if (extension.equals_insensitive(".html") ||
      extension.equals_insensitive(".htm"))
    return ReportFormat::Html;
  return std::nullopt;
}

StringRef mlir::amp::getReportExtensions() {
  return ".json (or '-' for standard output), .html or .htm";
}

std::string mlir::amp::formatReportLocation(Location loc) {
  std::string text;
  llvm::raw_string_ostream os(text);
  if (auto fileLoc = dyn_cast<FileLineColLoc>(loc))
    os << fileLoc.getFilename().getValue() << ":" << fileLoc.getLine() << ":"
       << fileLoc.getColumn();
  else if (auto fused = dyn_cast<FusedLoc>(loc);
           fused && !fused.getLocations().empty())
    return formatReportLocation(fused.getLocations().front());
  else if (auto named = dyn_cast<NameLoc>(loc))
    os << named.getName().getValue();
  else
    loc.print(os);
  return text;
}

void mlir::amp::writeHtmlReport(llvm::raw_ostream &os,
                                const llvm::json::Value &document) {
  std::string json;
  {
    llvm::raw_string_ostream jsonStream(json);
    jsonStream << document;
  }
  os << kReportPageBefore;
  // The JSON sits in a <script> element: no "</script>" (nor "<!--") may
  // appear in it. JSON strings may spell '<' as \u003c, and '<' appears
  // nowhere else in JSON.
  size_t start = 0;
  for (size_t i = 0, e = json.size(); i < e; ++i) {
    if (json[i] != '<')
      continue;
    os << StringRef(json).slice(start, i) << "\\u003c";
    start = i + 1;
  }
  os << StringRef(json).substr(start);
  os << kReportPageAfter;
}
