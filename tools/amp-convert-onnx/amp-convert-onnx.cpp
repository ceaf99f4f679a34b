//===- amp-convert-onnx.cpp - FP32 ONNX in, mixed-precision ONNX out ------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
//   amp-convert-onnx model.onnx -o model.mixed.onnx [--target-type=bf16]
//
// Imports the model, lets --amp-plan-precision decide (with ranges measured
// on --inputs, and amp-tune's search under --tolerance), and writes amp's
// decisions into a copy of the original graph as element types and Cast
// nodes: a strongly typed model for TensorRT or ONNX Runtime
// (docs/onnx.md, "Mixed precision out"). Exit codes: 0 written, 1 the model
// cannot be converted (every reason is printed), 2 bad command line or I/O
// error.
//
//===----------------------------------------------------------------------===//

#include "Decisions.h"
#include "OnnxExport.h"
#include "OnnxImporter.h"
#include "Samples.h"

#include "amp/IR/AmpDialect.h"
#include "amp/InitAmp.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace ::amp::onnxexport;
namespace onnximport = ::amp::onnximport;

static llvm::cl::OptionCategory category("amp-convert-onnx options");

static llvm::cl::opt<std::string> inputFile(llvm::cl::Positional,
                                            llvm::cl::desc("<model.onnx>"),
                                            llvm::cl::cat(category));
static llvm::cl::opt<std::string>
    outputFile("o", llvm::cl::desc("The mixed-precision model to write"),
               llvm::cl::value_desc("file"), llvm::cl::cat(category));
static llvm::cl::opt<std::string>
    targetType("target-type",
               llvm::cl::desc("16-bit type: f16 (default) or bf16"),
               llvm::cl::init("f16"), llvm::cl::cat(category));
static llvm::cl::opt<std::string> planOptions(
    "mixed-precision-options",
    llvm::cl::desc("Options of --amp-plan-precision, as amp-opt takes them "
                   "(e.g. \"ranges=r.json red=MatMul\"); see "
                   "docs/mixed-precision.md"),
    llvm::cl::value_desc("options"), llvm::cl::cat(category));
static llvm::cl::opt<bool> keepIoTypes(
    "keep-io-types",
    llvm::cl::desc("Keep graph inputs and outputs FP32, with Casts at the "
                   "boundary (default true; false: they take the type their "
                   "readers and producers use)"),
    llvm::cl::init(true), llvm::cl::cat(category));
static llvm::cl::list<std::string>
    shapes("shape",
           llvm::cl::desc("Static shape of an input for the analysis, as "
                          "amp-import-onnx takes it (the written model keeps "
                          "its declared shapes)"),
           llvm::cl::value_desc("input:dims"), llvm::cl::cat(category));
static llvm::cl::opt<std::string> savePlan(
    "save-plan",
    llvm::cl::desc("Also write the imported model with amp's decisions "
                   "(--amp-plan-precision's output) here, for amp-run"),
    llvm::cl::value_desc("file.mlir"), llvm::cl::cat(category));
static llvm::cl::opt<std::string> nodeTypesFile(
    "node-types",
    llvm::cl::desc("Write these per-node types instead of amp's decisions: "
                   "one line per node, 'INDEX f32|f16|bf16|follow' (index in "
                   "the graph's node list); for comparisons and overrides"),
    llvm::cl::value_desc("file"), llvm::cl::cat(category));
static llvm::cl::opt<std::string> inputs(
    "inputs",
    llvm::cl::desc("Sample inputs (an .npz or .npy file, or a folder of "
                   "them, as amp-run takes them; arrays named after the "
                   "graph's inputs): the ranges of every value are measured "
                   "on them (amp-run --calibrate) and the plan takes them "
                   "(ranges=)"),
    llvm::cl::value_desc("file-or-folder"), llvm::cl::cat(category));
static llvm::cl::opt<std::string> tolerance(
    "tolerance",
    llvm::cl::desc("Bounds the converted model must meet against FP32, as "
                   "amp-tune takes them (e.g. rel_l2=1e-3,argmax=1): "
                   "amp-tune keeps the ops it must in FP32, on --inputs or "
                   "on random inputs"),
    llvm::cl::value_desc("key=value,..."), llvm::cl::cat(category));
static llvm::cl::opt<std::string> report(
    "report",
    llvm::cl::desc("Write a report of every decision (JSON, or HTML on the "
                   "model's graph for FILE.html; docs/report.md)"),
    llvm::cl::value_desc("file"), llvm::cl::cat(category));
static llvm::cl::opt<bool> externalData(
    "external-data",
    llvm::cl::desc("Write the tensors of 1 KB or more to OUTPUT.data (ONNX "
                   "external data); default: as the input model stores them "
                   "(always for a model over 2 GB)"),
    llvm::cl::cat(category));
static llvm::cl::opt<bool> quiet("quiet",
                                 llvm::cl::desc("Print errors only"),
                                 llvm::cl::cat(category));

static int fail(const llvm::Twine &message, int code) {
  llvm::errs() << "amp-convert-onnx: error: " << message << "\n";
  return code;
}

static std::string formatBytes(int64_t bytes) {
  std::string text;
  llvm::raw_string_ostream os(text);
  if (bytes >= (int64_t(1) << 20))
    os << llvm::format("%.1f MiB", bytes / double(1 << 20));
  else
    os << llvm::format("%.1f KiB", bytes / 1024.0);
  return text;
}

static void printSummary(const ExportStats &stats) {
  llvm::errs() << "amp-convert-onnx: " << stats.nodesLow << " of "
               << stats.nodes << " nodes in " << targetType << "; "
               << stats.castsAdded << " Cast nodes added";
  if (stats.castsRetargeted)
    llvm::errs() << ", " << stats.castsRetargeted << " retargeted";
  llvm::errs() << "; float initializers "
               << formatBytes(stats.initializerBytesBefore) << " -> "
               << formatBytes(stats.initializerBytesAfter);
  if (stats.initializersCopied)
    llvm::errs() << " (" << stats.initializersCopied
                 << " kept in FP32 with a 16-bit copy for their 16-bit "
                    "readers)";
  llvm::errs() << "; inputs and outputs "
               << (keepIoTypes ? "FP32" : "as computed") << "\n";
  if (stats.keptFp32.empty())
    return;
  llvm::errs() << "amp-convert-onnx: warning: " << stats.keptFp32.size()
               << " node(s) stay FP32: amp runs them in " << targetType
               << " but their op has no " << targetType
               << " form at the model's opset:";
  for (const std::string &node : stats.keptFp32)
    llvm::errs() << " " << node;
  llvm::errs() << "\n";
}

/// Imports `bytes` with node-index locations; null on error (printed).
static OwningOpRef<ModuleOp>
importModel(MLIRContext &context, StringRef bytes, const std::string &modelDir,
            std::vector<onnximport::OpaqueNode> &opaque) {
  onnximport::ImportOptions importOptions;
  importOptions.load.modelDir = modelDir;
  importOptions.nodeIndexLocs = true;
  importOptions.opaqueUnsupported = true;
  importOptions.opaqueNodes = &opaque;
  for (const std::string &text : shapes) {
    std::pair<std::string, std::vector<int64_t>> shape;
    if (!onnximport::parseShapeOption(text, shape)) {
      fail("--shape=" + text + ": expected INPUT:DIMS, e.g. input:1x3x224x224",
           2);
      return nullptr;
    }
    importOptions.load.shapes.push_back(shape);
  }
  std::vector<std::string> errors, warnings;
  OwningOpRef<ModuleOp> module = onnximport::importOnnxModel(
      context, ArrayRef<char>(bytes.data(), bytes.size()), importOptions,
      errors, &warnings);
  if (!quiet)
    for (const std::string &warning : warnings)
      llvm::errs() << "amp-convert-onnx: warning: " << warning << "\n";
  if (!module)
    for (const std::string &error : errors)
      fail(inputFile + ": " + error, 1);
  return module;
}

/// With --inputs or --tolerance: calibrates and tunes `module` in a
/// temporary folder (removed when done), the tuner's trials converting
/// with `conversionOptions`; `options` (the plan's) gains ranges=. Returns
/// 0 or the exit code.
static int runSamples(ModuleOp module, const char *argv0,
                      std::string conversionOptions,
                      ArrayRef<onnximport::OpaqueNode> opaque,
                      SmallString<128> &workDir, std::string &options) {
  if (inputs.empty() && tolerance.empty())
    return 0;
  if (!opaque.empty())
    return fail("--inputs and --tolerance run the model, and " +
                    Twine(opaque.size()) + " of its nodes " +
                    (opaque.size() == 1 ? "is" : "are") + " not imported (" +
                    opaque.front().description + (opaque.size() > 1 ? ", ..." : "") +
                    "): amp cannot run it",
                1);
  if (std::error_code ec =
          llvm::sys::fs::createUniqueDirectory("amp-convert-onnx", workDir))
    return fail("cannot make a temporary folder: " + ec.message(), 2);
  SampleOptions sampleOptions;
  sampleOptions.argv0 = argv0;
  sampleOptions.inputs = inputs;
  sampleOptions.tolerance = tolerance;
  sampleOptions.conversionOptions = std::move(conversionOptions);
  sampleOptions.quiet = quiet;
  std::string error;
  if (failed(runSampleTools(module, sampleOptions, std::string(workDir),
                            options, error)))
    return fail(error, 1);
  return 0;
}

/// amp's decisions: import, plan, read back per node (and, with
/// --save-plan, write the plan as the file will compute it). Returns 0 or
/// the exit code.
static int decide(MLIRContext &context, StringRef bytes,
                  const std::string &dir, const char *argv0,
                  NodeTypes &nodeTypes) {
  std::string options = "target-type=" + targetType;
  if (!planOptions.empty())
    options += " " + planOptions;
  std::vector<onnximport::OpaqueNode> opaque;
  OwningOpRef<ModuleOp> module = importModel(context, bytes, dir, opaque);
  if (!module)
    return 1;
  SmallString<128> workDir;
  llvm::scope_exit removeWorkDir([&] {
    if (!workDir.empty())
      llvm::sys::fs::remove_directories(workDir);
  });
  if (int code = runSamples(*module, argv0, options, opaque, workDir, options))
    return code;
  std::string error;
  // The report is the conversion's (--amp-plan-precision writes none): of
  // a copy, with the same options and so the same decisions.
  if (!report.empty()) {
    OwningOpRef<ModuleOp> copy = module->clone();
    if (failed(runPass(*copy, "amp-mixed-precision",
                       options + " report=" + report, /*warnings=*/false,
                       error)))
      return fail("--report=" + report + ": " + error, 1);
  }
  if (failed(runPass(*module, "amp-plan-precision", options, !quiet, error)))
    return fail((planOptions.empty()
                     ? Twine("")
                     : "--mixed-precision-options=\"" + planOptions + "\": ") +
                    error,
                1);
  FloatType target = targetType == "bf16"
                         ? FloatType(BFloat16Type::get(&context))
                         : FloatType(Float16Type::get(&context));
  nodeTypes = collectNodeTypes(*module, target);
  // Nodes amp does not import stay FP32, with Casts around them: the
  // user's runtime may know them (custom ops, NonMaxSuppression, RoiAlign).
  for (const onnximport::OpaqueNode &node : opaque) {
    if (node.index >= nodeTypes.size())
      nodeTypes.resize(node.index + 1, 0);
    nodeTypes[node.index] = onnximport::kFloat;
  }
  if (!opaque.empty() && !quiet) {
    llvm::errs() << "amp-convert-onnx: warning: " << opaque.size()
                 << " node(s) amp does not import stay FP32, with Casts "
                    "around them:";
    for (const onnximport::OpaqueNode &node : opaque)
      llvm::errs() << " " << node.description;
    llvm::errs() << "\n";
  }
  if (savePlan.empty())
    return 0;
  alignPlanWithNodes(*module, nodeTypes);
  auto file = mlir::openOutputFile(savePlan, &error);
  if (!file)
    return fail(error, 2);
  module->print(file->os());
  file->keep();
  return 0;
}

/// Reads --node-types: one line per node, "INDEX TYPE" with TYPE f32, f16,
/// bf16 or follow; nodes not listed follow their inputs.
static bool readNodeTypes(const std::string &path, NodeTypes &types) {
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
  if (!buffer) {
    fail("cannot read '" + path + "': " + buffer.getError().message(), 2);
    return false;
  }
  SmallVector<StringRef> lines;
  (*buffer)->getBuffer().split(lines, '\n', -1, /*KeepEmpty=*/false);
  for (auto [n, line] : llvm::enumerate(lines)) {
    auto [indexText, typeText] = line.trim().split(' ');
    unsigned index;
    static const llvm::StringMap<int32_t> kTypes = {
        {"f32", onnximport::kFloat}, {"f16", onnximport::kFloat16},
        {"bf16", onnximport::kBFloat16}, {"follow", 0}};
    auto type = kTypes.find(typeText.trim());
    if (indexText.getAsInteger(10, index) || type == kTypes.end()) {
      fail(path + ":" + Twine(n + 1) + ": expected 'INDEX f32|f16|bf16|follow'",
           2);
      return false;
    }
    if (index >= types.size())
      types.resize(index + 1, 0);
    types[index] = type->second;
  }
  return true;
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  llvm::cl::HideUnrelatedOptions(category);
  llvm::cl::ParseCommandLineOptions(
      argc, argv,
      "amp-convert-onnx: FP32 ONNX model -> mixed-precision ONNX model, with "
      "amp's decisions\n\n"
      "  amp-convert-onnx model.onnx -o model.mixed.onnx\n"
      "  amp-convert-onnx model.onnx -o model.mixed.onnx --target-type=bf16\n"
      "  amp-convert-onnx model.onnx -o model.mixed.onnx --inputs=samples/\n"
      "  amp-convert-onnx model.onnx -o model.mixed.onnx --inputs=samples/ "
      "--tolerance=rel_l2=1e-3 --report=r.html\n");
  if (inputFile.empty())
    return fail("no model file given (see --help)", 2);
  if (outputFile.empty())
    return fail("no output file given (-o model.mixed.onnx)", 2);
  if (targetType != "f16" && targetType != "bf16")
    return fail("--target-type=" + targetType + ": expected f16 or bf16", 2);
  if (!nodeTypesFile.empty() &&
      (!inputs.empty() || !tolerance.empty() || !report.empty()))
    return fail("--node-types writes the given types: it takes no --inputs, "
                "--tolerance or --report",
                2);

  auto buffer = llvm::MemoryBuffer::getFile(inputFile, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  if (!buffer)
    return fail("cannot read '" + inputFile +
                    "': " + buffer.getError().message(),
                2);
  SmallString<256> dir(inputFile);
  llvm::sys::fs::make_absolute(dir);
  llvm::sys::path::remove_filename(dir);

  DialectRegistry registry;
  onnximport::registerImportDialects(registry);
  mlir::amp::registerAmpDialects(registry);
  mlir::amp::registerAmpPasses();
  MLIRContext context(registry);
  context.loadAllAvailableDialects();

  StringRef bytes = (*buffer)->getBuffer();
  NodeTypes nodeTypes;
  if (!nodeTypesFile.empty()) {
    if (!readNodeTypes(nodeTypesFile, nodeTypes))
      return 2;
  } else if (int code = decide(context, bytes, std::string(dir), argv[0],
                               nodeTypes)) {
    return code;
  }
  ExportOptions exportOptions;
  exportOptions.modelDir = std::string(dir);
  exportOptions.keepIoTypes = keepIoTypes;
  if (externalData.getNumOccurrences())
    exportOptions.externalData = externalData.getValue();
  exportOptions.convertFloats = [&](const float *values, size_t n,
                                    int32_t type, uint16_t *out) {
    return convertFloatsAsAmp(context, values, n, type, out);
  };
  ExportStats stats;
  std::string error;
  if (!writeMixedModel(bytes.data(), bytes.size(), nodeTypes, exportOptions,
                       outputFile, stats, error))
    return fail(inputFile + ": " + error, 1);
  if (!quiet)
    printSummary(stats);
  return 0;
}
