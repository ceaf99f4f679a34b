//===- TuneReport.cpp - amp-tune's HTML report ----------------------------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The pass writes the report it writes for amp-opt (report=, to a temporary
// file): the page then shows exactly the decisions `amp-opt tuned.mlir
// --amp-mixed-precision` makes, with the tuning's numbers beside them.
//
//===----------------------------------------------------------------------===//

#include "TuneReport.h"

#include "amp/Report/HtmlReport.h"
#include "amp/Report/ReportGraph.h"
#include "amp/Runner/ToolSupport.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/ToolOutputFile.h"

using namespace mlir;
using namespace mlir::amp;
using namespace mlir::amp::tune;

static constexpr StringRef kPassName = "amp-mixed-precision";

/// The amp-mixed-precision passes that `pm` runs on the module itself.
static SmallVector<Pass *> findConversionPasses(OpPassManager &pm) {
  SmallVector<Pass *> passes;
  for (Pass &pass : pm.getPasses())
    if (pass.getArgument() == kPassName)
      passes.push_back(&pass);
  return passes;
}

LogicalResult mlir::amp::tune::checkTuneReport(MLIRContext *ctx, StringRef path,
                                               StringRef pipeline,
                                               llvm::raw_ostream &errs) {
  if (getReportFormat(path) != ReportFormat::Html) {
    errs << "amp-tune: error: --report writes an HTML page: '" << path
         << "' must end in .html or .htm (--json prints the tuning as "
            "JSON)\n";
    return failure();
  }
  PassManager pm(ctx);
  if (failed(runner::parsePipeline(pipeline, pm, "--pipeline", errs)))
    return failure();
  if (findConversionPasses(pm).size() != 1) {
    errs << "amp-tune: error: --report shows the report of " << kPassName
         << ", which --pipeline '" << pipeline
         << "' must run once on the module (not nested in func.func)\n";
    return failure();
  }
  return success();
}

LogicalResult mlir::amp::tune::writeTuneReport(ModuleOp tuned,
                                               StringRef pipeline,
                                               llvm::json::Value tuning,
                                               StringRef path,
                                               llvm::raw_ostream &errs) {
  MLIRContext *ctx = tuned.getContext();
  llvm::SmallString<128> jsonPath;
  if (std::error_code ec = llvm::sys::fs::createTemporaryFile(
          "amp-tune-report", "json", jsonPath)) {
    errs << "amp-tune: error: cannot create a temporary file for the report: "
         << ec.message() << "\n";
    return failure();
  }
  llvm::FileRemover remover(jsonPath);

  PassManager pm(ctx);
  if (failed(runner::parsePipeline(pipeline, pm, "--pipeline", errs)))
    return failure();
  SmallVector<Pass *> passes = findConversionPasses(pm);
  if (passes.size() != 1)
    return failure(); // checkTuneReport said why.
  std::string option = ("report=" + jsonPath).str();
  if (failed(
          passes.front()->initializeOptions(option, [&](const Twine &message) {
            errs << "amp-tune: error: " << message << "\n";
            return failure();
          })))
    return failure();

  OwningOpRef<ModuleOp> converted = tuned.clone();
  if (failed(pm.run(*converted))) {
    errs << "amp-tune: error: the conversion pipeline '" << pipeline
         << "' failed on the tuned model (see the diagnostics above)\n";
    return failure();
  }
  auto buffer = llvm::MemoryBuffer::getFile(jsonPath);
  llvm::Expected<llvm::json::Value> report =
      buffer ? llvm::json::parse((*buffer)->getBuffer())
             : llvm::Expected<llvm::json::Value>(
                   llvm::errorCodeToError(buffer.getError()));
  if (!report) {
    errs << "amp-tune: error: cannot read the report of " << kPassName << ": "
         << llvm::toString(report.takeError()) << "\n";
    return failure();
  }
  llvm::json::Object *object = report->getAsObject();
  llvm::json::Array *ops = object ? object->getArray("ops") : nullptr;
  llvm::json::Array noOps;
  llvm::json::Object graph = buildReportGraph(*converted, ops ? *ops : noOps);

  std::string title = "model";
  if (auto file = dyn_cast<FileLineColLoc>(tuned.getLoc()))
    title = llvm::sys::path::filename(file.getFilename().getValue()).str();
  llvm::json::Value document =
      llvm::json::Object{{"tool", "amp-tune"},
                         {"title", title},
                         {"report", std::move(*report)},
                         {"graph", std::move(graph)},
                         {"tune", std::move(tuning)}};
  std::string error;
  auto out = openOutputFile(path, &error);
  if (!out) {
    errs << "amp-tune: error: " << error << "\n";
    return failure();
  }
  writeHtmlReport(out->os(), document);
  out->keep();
  return success();
}
