//===- amp-import-onnx.cpp - Import an ONNX model as MLIR -----------------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// amp-import-onnx MODEL.onnx [-o MODEL.mlir] [--entry=NAME]
//                 [--shape=INPUT:DIMS ...]
//
// Writes one func.func on ranked tensors that amp-opt, amp-run, amp-tune and
// amp-compile take as it is; a symbolic batch dimension stays dynamic unless
// --shape fixes it. Exit status: 0 success, 1 the model could not
// be imported (every error is printed), 2 bad command line or I/O error.
//
//===----------------------------------------------------------------------===//

#include "GraphImporter.h"
#include "OnnxImporter.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace amp::onnximport;

static llvm::cl::OptionCategory category("amp-import-onnx options");

static llvm::cl::opt<std::string> inputFile(llvm::cl::Positional,
                                            llvm::cl::desc("<model.onnx>"),
                                            llvm::cl::cat(category));
static llvm::cl::opt<bool>
    listOps("list-ops",
            llvm::cl::desc("Print the supported ONNX ops (with the first "
                           "opset each is supported from) and exit"),
            llvm::cl::cat(category));
static llvm::cl::opt<std::string>
    outputFile("o", llvm::cl::desc("Output file (default: stdout)"),
               llvm::cl::value_desc("file"), llvm::cl::init("-"),
               llvm::cl::cat(category));
static llvm::cl::opt<std::string>
    entry("entry",
          llvm::cl::desc("Name of the function (default: the graph's name)"),
          llvm::cl::value_desc("name"), llvm::cl::cat(category));
static llvm::cl::list<std::string> shapes(
    "shape",
    llvm::cl::desc("Static shape of an input, by name or index, e.g. "
                   "--shape=input:1x3x224x224 or --shape=0:1x3x224x224; may "
                   "be repeated (without it, a symbolic batch dimension is "
                   "imported as a dynamic one, `?`)"),
    llvm::cl::value_desc("input:dims"), llvm::cl::cat(category));
static llvm::cl::opt<bool>
    quiet("quiet", llvm::cl::desc("Do not print warnings"),
          llvm::cl::cat(category));

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  llvm::cl::HideUnrelatedOptions(category);
  llvm::cl::ParseCommandLineOptions(
      argc, argv,
      "amp-import-onnx: ONNX model (opsets 6-17) -> MLIR (TOSA, linalg) for "
      "amp\n\n  amp-import-onnx model.onnx -o model.mlir\n"
      "  amp-import-onnx model.onnx --shape=input:1x3x224x224 -o model.mlir\n");

  if (listOps) {
    for (const OpConverter &op : getOpConverters())
      llvm::outs() << op.opType << " " << std::max(op.minOpset, kMinOpset)
                   << "\n";
    return 0;
  }
  if (inputFile.empty()) {
    llvm::errs() << "amp-import-onnx: error: no model file given (see "
                    "--help)\n";
    return 2;
  }

  ImportOptions options;
  options.entry = entry;
  for (const std::string &text : shapes) {
    std::pair<std::string, std::vector<int64_t>> shape;
    if (!parseShapeOption(text, shape)) {
      llvm::errs() << "amp-import-onnx: error: --shape=" << text
                   << ": expected INPUT:DIMS, e.g. input:1x3x224x224\n";
      return 2;
    }
    options.load.shapes.push_back(shape);
  }

  auto buffer = llvm::MemoryBuffer::getFileOrSTDIN(inputFile, /*IsText=*/false,
                                                   /*RequiresNullTerminator=*/false);
  if (!buffer) {
    llvm::errs() << "amp-import-onnx: error: cannot read '" << inputFile
                 << "': " << buffer.getError().message() << "\n";
    return 2;
  }
  if (inputFile != "-") {
    SmallString<256> dir(inputFile);
    llvm::sys::fs::make_absolute(dir);
    llvm::sys::path::remove_filename(dir);
    options.load.modelDir = std::string(dir);
  }

  DialectRegistry registry;
  registerImportDialects(registry);
  MLIRContext context(registry);
  std::vector<std::string> errors, warnings;
  StringRef bytes = (*buffer)->getBuffer();
  OwningOpRef<ModuleOp> module = importOnnxModel(
      context, ArrayRef<char>(bytes.data(), bytes.size()), options, errors,
      &warnings);
  if (!quiet)
    for (const std::string &warning : warnings)
      llvm::errs() << "amp-import-onnx: warning: " << warning << "\n";
  if (!module) {
    for (const std::string &error : errors)
      llvm::errs() << "amp-import-onnx: error: " << inputFile << ": " << error
                   << "\n";
    return 1;
  }

  std::string errorMessage;
  auto output = mlir::openOutputFile(outputFile, &errorMessage);
  if (!output) {
    llvm::errs() << "amp-import-onnx: error: " << errorMessage << "\n";
    return 2;
  }
  module->print(output->os());
  output->keep();
  return 0;
}
