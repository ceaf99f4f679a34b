//===- Samples.cpp - Calibration and tuning on sample inputs --------------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// See Samples.h. The tools run as separate processes on a copy of the
// imported module printed with its locations: the calibration's entries
// name each value by op and location, which must be those of the module
// the plan reads.
//
//===----------------------------------------------------------------------===//

#include "Samples.h"

#include "amp/IR/AmpDialect.h"

#include "mlir/IR/OperationSupport.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace ::amp::onnxexport;

/// The program `name` beside this one, else on PATH; empty if neither.
static std::string findTool(const char *argv0, StringRef name) {
  std::string self = llvm::sys::fs::getMainExecutable(
      argv0, reinterpret_cast<void *>(&findTool));
  if (!self.empty()) {
    SmallString<256> path(llvm::sys::path::parent_path(self));
    llvm::sys::path::append(path, name);
    if (llvm::sys::fs::can_execute(path))
      return std::string(path);
  }
  if (llvm::ErrorOr<std::string> onPath = llvm::sys::findProgramByName(name))
    return *onPath;
  return "";
}

/// Runs `tool` with `args`. Its standard output is dropped; its standard
/// error goes to a file that is printed only if it fails.
static LogicalResult runTool(const SampleOptions &options, StringRef tool,
                             StringRef what, ArrayRef<std::string> args,
                             const std::string &workDir, std::string &error) {
  std::string program = findTool(options.argv0, tool);
  if (program.empty()) {
    error = (tool + " is not found beside amp-convert-onnx or on PATH; "
                    "--inputs and --tolerance run it")
                .str();
    return failure();
  }
  SmallVector<StringRef> argv = {program};
  for (const std::string &arg : args)
    argv.push_back(arg);
  SmallString<256> log(workDir);
  llvm::sys::path::append(log, tool + ".log");
  std::optional<StringRef> redirects[] = {StringRef(""), StringRef(""),
                                          log.str()};
  std::string message;
  int code = llvm::sys::ExecuteAndWait(program, argv, /*Env=*/std::nullopt,
                                       redirects, /*SecondsToWait=*/0,
                                       /*MemoryLimit=*/0, &message);
  if (code == 0)
    return success();
  if (auto text = llvm::MemoryBuffer::getFile(log))
    llvm::errs() << (*text)->getBuffer();
  error = (tool + " failed " + what +
           (code < 0 ? ": " + message : " (exit code " + Twine(code) + ")"))
              .str();
  return failure();
}

/// Writes `module` to `path` with its locations.
static LogicalResult writeModule(ModuleOp module, StringRef path,
                                 std::string &error) {
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec);
  if (ec) {
    error = ("cannot write '" + path + "': " + ec.message()).str();
    return failure();
  }
  module->print(os, OpPrintingFlags().enableDebugInfo());
  return success();
}

/// Copies amp.color and amp.precision from each op of `tuned` to the op at
/// the same place in `module`: amp-tune writes the model it read, with
/// annotations added and nothing else changed. Counts the ops annotated.
static LogicalResult copyAnnotations(ModuleOp tuned, ModuleOp module,
                                     unsigned &annotated, std::string &error) {
  SmallVector<Operation *> from, to;
  tuned->walk([&](Operation *op) { from.push_back(op); });
  module->walk([&](Operation *op) { to.push_back(op); });
  MLIRContext *ctx = module.getContext();
  StringAttr names[] = {
      StringAttr::get(ctx, mlir::amp::AmpDialect::ColorAttrHelper::getNameStr()),
      StringAttr::get(ctx,
                      mlir::amp::AmpDialect::PrecisionAttrHelper::getNameStr())};
  for (size_t i = 0; i < std::max(from.size(), to.size()); ++i) {
    if (i >= from.size() || i >= to.size() ||
        from[i]->getName() != to[i]->getName()) {
      error = "amp-tune's model does not have the ops of the imported one "
              "(op " + std::to_string(i) + ")";
      return failure();
    }
    for (StringAttr name : names)
      if (Attribute value = from[i]->getDiscardableAttr(name)) {
        to[i]->setDiscardableAttr(name, value);
        ++annotated;
      }
  }
  return success();
}

namespace amp {
namespace onnxexport {
LogicalResult runSampleTools(ModuleOp module, const SampleOptions &options,
                             const std::string &workDir,
                             std::string &planOptions, std::string &error) {
  auto file = [&](StringRef name) {
    SmallString<256> path(workDir);
    llvm::sys::path::append(path, name);
    return std::string(path);
  };
  std::string model = file("model.mlir");
  if (failed(writeModule(module, model, error)))
    return failure();
  std::string conversion = options.conversionOptions;
  if (!options.inputs.empty()) {
    std::string ranges = file("ranges.json");
    if (failed(runTool(options, "amp-run", "to calibrate on " + options.inputs,
                       {model, "--inputs=" + options.inputs,
                        "--calibrate=" + ranges},
                       workDir, error)))
      return failure();
    conversion += " ranges=" + ranges;
    planOptions += " ranges=" + ranges;
  }
  if (options.tolerance.empty())
    return success();
  std::string tunedPath = file("tuned.mlir");
  std::vector<std::string> args = {
      model, "--tolerance=" + options.tolerance,
      "--pipeline=amp-mixed-precision{" + conversion + "}", "-o", tunedPath};
  if (!options.inputs.empty())
    args.push_back("--inputs=" + options.inputs);
  args.push_back("--quiet");
  if (failed(runTool(options, "amp-tune", "to tune for " + options.tolerance,
                     args, workDir, error)))
    return failure();
  ParserConfig config(module.getContext());
  OwningOpRef<ModuleOp> tuned = parseSourceFile<ModuleOp>(tunedPath, config);
  if (!tuned) {
    error = "cannot read amp-tune's model '" + tunedPath + "'";
    return failure();
  }
  unsigned annotated = 0;
  if (failed(copyAnnotations(*tuned, module, annotated, error)))
    return failure();
  if (!options.quiet)
    llvm::errs() << "amp-convert-onnx: amp-tune keeps " << annotated
                 << " op(s) in FP32 to meet " << options.tolerance << " on "
                 << (options.inputs.empty() ? "random inputs"
                                            : options.inputs)
                 << "\n";
  return success();
}
} // namespace onnxexport
} // namespace amp
