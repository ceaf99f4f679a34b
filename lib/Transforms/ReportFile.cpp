//===- ReportFile.cpp - Write the report of --amp-mixed-precision ---------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The HTML report holds the JSON report as it is written to a .json file,
// read back as a JSON value, so that the two never disagree.
//
//===----------------------------------------------------------------------===//

#include "ReportFile.h"

#include "ConversionReport.h"

#include "amp/Report/HtmlReport.h"
#include "amp/Report/ReportGraph.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

using namespace mlir;
using namespace mlir::amp;

/// The name of the model: the file `root` was read from, if known.
static std::string getModelName(Operation *root) {
  std::string name;
  root->getLoc()->walk([&](Location loc) {
    if (auto file = dyn_cast<FileLineColLoc>(loc)) {
      name = llvm::sys::path::filename(file.getFilename().getValue()).str();
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return name.empty() || name == "-" ? std::string("<stdin>") : name;
}

/// The HTML document for the conversion of `root`.
static llvm::json::Value buildDocument(Operation *root, FloatType target,
                                       ArrayRef<FunctionConversion> functions,
                                       FloatType fallback) {
  std::string json;
  {
    llvm::raw_string_ostream os(json);
    writeConversionReport(os, target, functions, fallback);
  }
  llvm::json::Value report = llvm::cantFail(
      llvm::json::parse(json), "the JSON report writer wrote invalid JSON");
  llvm::json::Object *object = report.getAsObject();
  llvm::json::Array *ops = object ? object->getArray("ops") : nullptr;
  llvm::json::Array noOps;
  llvm::json::Object graph = buildReportGraph(root, ops ? *ops : noOps);
  return llvm::json::Value(llvm::json::Object{{"tool", "amp-opt"},
                                              {"title", getModelName(root)},
                                              {"report", std::move(report)},
                                              {"graph", std::move(graph)}});
}

LogicalResult mlir::amp::writeReportFile(Operation *root, StringRef path,
                                         FloatType target,
                                         ArrayRef<FunctionConversion> functions,
                                         FloatType fallback) {
  std::optional<ReportFormat> format = getReportFormat(path);
  if (!format)
    return emitError(root->getLoc())
           << "cannot write the report to '" << path
           << "': unknown extension; a report is " << getReportExtensions();

  std::optional<llvm::json::Value> document;
  if (*format == ReportFormat::Html)
    document = buildDocument(root, target, functions, fallback);
  llvm::Error error = llvm::writeToOutput(path, [&](llvm::raw_ostream &os) {
    if (document)
      writeHtmlReport(os, *document);
    else
      writeConversionReport(os, target, functions, fallback);
    return llvm::Error::success();
  });
  if (error)
    return emitError(root->getLoc())
           << "cannot write the report to '" << path
           << "': " << llvm::toString(std::move(error));
  return success();
}
