//===- amp-run.cpp - Run a model in FP32 and in mixed precision -----------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// amp-run compiles a model twice for the host CPU, as written (FP32) and
// after a conversion pipeline (by default --amp-mixed-precision), runs both
// on the same seeded random inputs and reports how far the outputs of the
// converted model are from those of the original, and how long each took.
//
// The work is done by the AMPRunner library (lib/Runner); this file holds
// the command line, the order of the steps and the report.
//
// Exit codes: 0 success, 1 a --check bound is broken, 2 any other error.
//
//===----------------------------------------------------------------------===//

#include "amp/InitAmp.h"
#include "amp/Runner/Calibration.h"
#include "amp/Runner/Comparison.h"
#include "amp/Runner/CpuLowering.h"
#include "amp/Runner/HostTensor.h"
#include "amp/Runner/JitFunction.h"
#include "amp/Runner/ModelOptions.h"
#include "amp/Runner/ModelPreparation.h"
#include "amp/Runner/NumpyFile.h"
#include "amp/Runner/Passes.h"
#include "amp/Runner/Samples.h"
#include "amp/Runner/Tolerance.h"
#include "amp/Runner/ToolSupport.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/Tosa/Transforms/Passes.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Support/Timing.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/ToolOutputFile.h"

#include <algorithm>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <unistd.h>

using namespace mlir;
using namespace mlir::amp;
using namespace mlir::amp::runner;

namespace {

/// Exit codes.
enum ExitCode { kSuccess = 0, kCheckFailed = 1, kError = 2 };

/// The command line. The options live in main's frame, not in globals.
struct Options {
  ModelOptions model{"run"};
  llvm::cl::OptionCategory conversionCategory{"Conversion"};
  llvm::cl::OptionCategory reportCategory{"Report"};
  llvm::cl::opt<std::string> pipeline{
      "pipeline",
      llvm::cl::desc("Textual pass pipeline that makes the converted copy "
                     "(e.g. 'amp-mixed-precision{target-type=bf16}')"),
      llvm::cl::init("amp-mixed-precision"), llvm::cl::cat(conversionCategory)};
  llvm::cl::opt<unsigned> runs{
      "runs",
      llvm::cl::desc("Runs of each version; the times are their median"),
      llvm::cl::init(5), llvm::cl::cat(reportCategory)};
  llvm::cl::opt<unsigned> optLevel{
      "O",
      llvm::cl::desc("LLVM optimization level of the compiled code "
                     "(0-3)"),
      llvm::cl::Prefix, llvm::cl::init(2), llvm::cl::cat(reportCategory)};
  llvm::cl::opt<bool> json{"json",
                           llvm::cl::desc("Print one JSON object instead of "
                                          "a table"),
                           llvm::cl::cat(reportCategory)};
  llvm::cl::opt<std::string> check{
      "check",
      llvm::cl::desc("Bounds that must hold, e.g. 'rel_l2=1e-2,argmax=1' "
                     "(keys: max_abs, max_rel, rel_l2, cosine, argmax, "
                     "nonfinite); exit code 1 when one is broken"),
      llvm::cl::value_desc("key=value,..."), llvm::cl::cat(reportCategory)};
  llvm::cl::opt<std::string> dumpConverted{
      "dump-converted",
      llvm::cl::desc("Write the converted module (before lowering) here"),
      llvm::cl::value_desc("file"), llvm::cl::cat(conversionCategory)};
  llvm::cl::opt<std::string> saveOutputs{
      "save-outputs",
      llvm::cl::desc("Write the FP32 model's outputs to this folder as NumPy "
                     "files: output_<i>.npy for the first sample, "
                     "sample<s>_output_<i>.npy for the others"),
      llvm::cl::value_desc("dir"), llvm::cl::cat(reportCategory)};
  llvm::cl::opt<std::string> calibrate{
      "calibrate",
      llvm::cl::desc("Run the FP32 model on the samples and write the range "
                     "of every value its ops produce to this JSON file, for "
                     "--amp-mixed-precision=\"ranges=FILE\" (no conversion "
                     "is run)"),
      llvm::cl::value_desc("ranges.json"), llvm::cl::cat(model.inputCategory)};
};

//===----------------------------------------------------------------------===//
// Report
//===----------------------------------------------------------------------===//

/// One row of the report.
struct OutputReport {
  std::string name;
  SmallVector<int64_t, 4> shape;
  ElementKind referenceKind, convertedKind;
  ErrorMetrics metrics;
};

/// A metric for JSON: non-finite values become null.
llvm::json::Value jsonMetric(double value) {
  if (!std::isfinite(value))
    return nullptr;
  return value;
}

llvm::json::Object metricsToJson(const ErrorMetrics &metrics) {
  return llvm::json::Object{
      {"max_abs_err", jsonMetric(metrics.maxAbsErr)},
      {"max_rel_err", jsonMetric(metrics.maxRelErr)},
      {"rel_l2_err", jsonMetric(metrics.relL2Err)},
      {"cosine", jsonMetric(metrics.cosine)},
      {"argmax_agree", metrics.argmaxAgree()},
      {"argmax_agree_rate", jsonMetric(metrics.argmaxAgreeRate())},
      {"nonfinite", metrics.nonfinite},
      {"reference_nonfinite", metrics.referenceNonfinite},
      {"elements", metrics.numElements}};
}

/// Everything amp-run reports.
struct Report {
  std::string model, entry, pipeline;
  uint64_t seed;
  bool randomizedWeights;
  unsigned numWeightConstants, numWeightArguments, numHarnessOps, runs;
  FunctionSignature fp32Signature, ampSignature;
  SmallVector<OutputReport> outputs;
  ErrorMetrics overall;
  double fp32Ms, ampMs;
  unsigned samples;
  bool fromFiles;
  SmallVector<std::string> failures;
};

/// Prints `report` as one JSON object.
void printJson(const Report &report, llvm::raw_ostream &out) {
  llvm::json::Array outputs;
  for (const OutputReport &output : report.outputs) {
    llvm::json::Object object = metricsToJson(output.metrics);
    object["name"] = output.name;
    object["shape"] = llvm::json::Array(output.shape);
    object["type"] = stringifyElementKind(output.referenceKind);
    object["converted_type"] = stringifyElementKind(output.convertedKind);
    DegenerateReference kind = classifyReference(output.metrics);
    if (kind == DegenerateReference::None)
      object["degenerate_reference"] = nullptr;
    else
      object["degenerate_reference"] = stringifyDegenerateReference(kind);
    outputs.push_back(std::move(object));
  }
  llvm::json::Array arguments;
  for (auto [fp32Arg, ampArg] : llvm::zip_equal(report.fp32Signature.arguments,
                                                report.ampSignature.arguments))
    arguments.push_back(llvm::json::Object{
        {"shape", llvm::json::Array(fp32Arg.shape)},
        {"type", stringifyElementKind(fp32Arg.kind)},
        {"converted_type", stringifyElementKind(ampArg.kind)}});
  llvm::json::Object result{
      {"model", report.model},
      {"entry", report.entry},
      {"pipeline", report.pipeline},
      {"seed", static_cast<int64_t>(report.seed)},
      {"randomized_weight_constants",
       static_cast<int64_t>(report.numWeightConstants)},
      {"randomized_weight_arguments",
       static_cast<int64_t>(report.numWeightArguments)},
      {"harness_ops_removed", static_cast<int64_t>(report.numHarnessOps)},
      {"runs", static_cast<int64_t>(report.runs)},
      {"samples", static_cast<int64_t>(report.samples)},
      {"arguments", std::move(arguments)},
      {"outputs", std::move(outputs)},
      {"overall", metricsToJson(report.overall)},
      {"fp32_ms", report.fp32Ms},
      {"amp_ms", report.ampMs},
      {"check",
       llvm::json::Object{{"passed", report.failures.empty()},
                          {"failures", llvm::json::Array(report.failures)}}}};
  out << llvm::formatv("{0:2}", llvm::json::Value(std::move(result))) << "\n";
}

/// Prints `report` as a table.
void printTable(const Report &report, llvm::raw_ostream &out) {
  out << "amp-run: " << report.model << " @" << report.entry << ", pipeline '"
      << report.pipeline << "', ";
  if (report.samples == 1 && !report.fromFiles)
    out << "seed " << report.seed;
  else
    out << report.samples << " sample" << (report.samples == 1 ? "" : "s")
        << " from files";
  if (report.randomizedWeights)
    out << ", random weights (" << report.numWeightConstants << " constants, "
        << report.numWeightArguments << " arguments)";
  if (report.numHarnessOps)
    out << ", " << report.numHarnessOps << " harness ops removed";
  out << "\n";
  for (auto [i, args] : llvm::enumerate(llvm::zip_equal(
           report.fp32Signature.arguments, report.ampSignature.arguments)))
    if (std::get<0>(args).kind != std::get<1>(args).kind)
      out << "argument #" << i << " is "
          << stringifyElementKind(std::get<1>(args).kind)
          << " once converted: the inputs are rounded to it\n";

  const char *format = "{0,-20} {1,-16} {2,-9} {3,-11} {4,-11} {5,-11} "
                       "{6,-10} {7,-9} {8}\n";
  out << llvm::formatv(format, "output", "shape", "type", "max_abs_err",
                       "max_rel_err", "rel_l2_err", "cosine", "argmax",
                       "nonfinite");
  auto row = [&](StringRef name, StringRef shape, StringRef type,
                 const ErrorMetrics &m) {
    // Agreement in every row, or how many rows agree.
    std::string argmax =
        m.argmaxAgree()
            ? "yes"
            : llvm::formatv("{0}/{1}", m.argmaxAgreeRows, m.numRows).str();
    out << llvm::formatv(format, name, shape, type, formatMetric(m.maxAbsErr),
                         formatMetric(m.maxRelErr), formatMetric(m.relL2Err),
                         formatMetric(m.cosine, 6), argmax, m.nonfinite);
  };
  for (const OutputReport &output : report.outputs) {
    std::string type = stringifyElementKind(output.referenceKind).str();
    if (output.convertedKind != output.referenceKind)
      type += "->" + stringifyElementKind(output.convertedKind).str();
    row(output.name, formatShape(output.shape), type, output.metrics);
  }
  if (report.outputs.size() > 1)
    row("overall", "", "", report.overall);
  out << llvm::formatv("time (median of {0} runs): fp32 {1:f3} ms, amp "
                       "{2:f3} ms\n",
                       report.runs, report.fp32Ms, report.ampMs);
}

/// --calibrate: runs an instrumented copy of the FP32 model on every sample
/// and writes the observed ranges.
int calibrate(ModuleOp original, StringRef entryName,
              const FunctionSignature &signature, ArrayRef<Sample> samples,
              const Options &options, TimingScope &timing,
              llvm::raw_ostream &errs) {
  OwningOpRef<ModuleOp> instrumented = original.clone();
  RangeRecorder recorder;
  if (!recorder.instrument(*instrumented) ||
      failed(lowerForCpu(*instrumented, "instrumented FP32", timing, errs)))
    return kError;
  stripProbeAttributes(*instrumented);
  SmallVector<StringRef> libs = {AMP_MLIR_C_RUNNER_UTILS};
  for (const std::string &lib : options.model.sharedLibs)
    libs.push_back(lib);
  TimingScope compileTiming = timing.nest("compile instrumented (JIT)");
  auto fn = JitFunction::create(*instrumented, entryName, signature, libs,
                                options.optLevel, recorder.symbols());
  compileTiming.stop();
  if (!fn) {
    errs << "amp-run: error: cannot compile the instrumented model: "
         << llvm::toString(fn.takeError()) << "\n";
    return kError;
  }
  TimingScope runTiming = timing.nest("run instrumented");
  for (const Sample &sample : samples) {
    CrashGuard guard("the instrumented FP32 model");
    llvm::Expected<RunResult> result = (*fn)->run(sample.inputs);
    if (!result) {
      errs << "amp-run: error: cannot run the model on " << sample.name << ": "
           << llvm::toString(result.takeError()) << "\n";
      return kError;
    }
  }
  runTiming.stop();
  std::string errorMessage;
  auto out = openOutputFile(options.calibrate, &errorMessage);
  if (!out) {
    errs << "amp-run: error: " << errorMessage << "\n";
    return kError;
  }
  const ObservedRanges &ranges = recorder.ranges();
  out->os() << llvm::formatv(
                   "{0:2}", ranges.toJson(options.model.inputFile,
                                          static_cast<int64_t>(samples.size())))
            << "\n";
  out->keep();

  // A summary: how many values, how many beyond the 16-bit ranges, the
  // largest.
  unsigned values = 0, beyondF16 = 0, beyondBF16 = 0;
  const ObservedRange *largest = nullptr;
  for (auto fnOp : original.getOps<func::FuncOp>()) {
    if (fnOp.isExternal())
      continue;
    forEachObservedValue(fnOp, [&](Operation *, unsigned, unsigned index) {
      const ObservedRange *r = ranges.lookup(fnOp.getSymName(), index);
      if (!r || !r->count)
        return;
      ++values;
      beyondF16 += r->beyondF16 > 0;
      beyondBF16 += r->beyondBF16 > 0;
      if (!largest || r->maxAbs > largest->maxAbs)
        largest = r;
    });
  }
  llvm::outs() << "amp-run: " << options.model.inputFile << " @" << entryName
               << ": ranges of " << values << " values over " << samples.size()
               << " sample" << (samples.size() == 1 ? "" : "s")
               << " written to " << options.calibrate << "\n";
  llvm::outs() << "  beyond the f16 range (|x| > 65504): " << beyondF16
               << " values; beyond bf16: " << beyondBF16 << "\n";
  if (largest)
    llvm::outs() << llvm::formatv("  largest |x|: {0} ({1} at {2})\n",
                                  formatMetric(largest->maxAbs), largest->op,
                                  largest->location);
  return kSuccess;
}

} // namespace

int main(int argc, char **argv) {
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();

  // The passes a --pipeline may name.
  registerAmpPasses();
  registerAmpRunnerPasses();
  registerTransformsPasses();
  registerConversionPasses();
  tosa::registerTosaPasses();
  registerLinalgPasses();

  Options options;
  registerDefaultTimingManagerCLOptions();
  // --help lists amp-run's own options, not LLVM's and MLIR's.
  llvm::cl::HideUnrelatedOptions(
      {&options.model.modelCategory, &options.model.inputCategory,
       &options.conversionCategory, &options.reportCategory});
  llvm::cl::ParseCommandLineOptions(
      argc, argv,
      "amp-run: run a model in FP32 and converted (mixed precision) on the "
      "CPU, on the same inputs, and compare every output\n"
      "\n"
      "  amp-run model.mlir --randomize-weights --check=rel_l2=1e-2,argmax=1\n"
      "  amp-run model.mlir "
      "--pipeline='amp-mixed-precision{target-type=bf16}'\n"
      "  amp-run model.mlir --inputs=samples/        (one call per .npz file)\n"
      "  amp-run model.mlir --inputs=samples/ --calibrate=ranges.json\n"
      "  amp-opt model.mlir --amp-mixed-precision=\"ranges=ranges.json\"\n"
      "\n"
      "Exit status: 0, 1 when a --check bound is broken, 2 on any other "
      "error. --mlir-timing times every step.\n");
  llvm::raw_ostream &errs = llvm::errs();

  // Options that need checking before any work.
  auto bounds = parseTolerance(options.check, "amp-run", "--check", errs);
  FailureOr<ModelSetup> setup = options.model.getSetup(errs);
  if (failed(bounds) || failed(setup))
    return kError;

  // --mlir-timing reports the time of every step and pass.
  DefaultTimingManager timingManager;
  applyDefaultTimingManagerCLOptions(timingManager);
  TimingScope timing = timingManager.getRootScope();

  DialectRegistry registry;
  registerToolDialects(registry);
  MLIRContext context(registry);
  std::unique_ptr<ModelFile> model =
      ModelFile::open(options.model.inputFile, &context, errs);
  if (!model)
    return kError;
  std::string errorMessage;

  // The conversion pipeline, parsed before any work.
  PassManager conversion(&context);
  if (failed(parsePipeline(options.pipeline, conversion, "--pipeline", errs)))
    return kError;

  TimingScope parseTiming = timing.nest("parse");
  OwningOpRef<ModuleOp> original = model->parse(errs);
  parseTiming.stop();
  if (!original)
    return kError;

  // Prepare the original (entry, shapes, harness, weights) and make the
  // samples.
  TimingScope prepareTiming = timing.nest("prepare");
  FailureOr<PreparedModel> prepared = prepareModel(*original, *setup, errs);
  prepareTiming.stop();
  if (failed(prepared))
    return kError;
  const std::string &entryName = prepared->entryName;
  const FunctionSignature &fp32Signature = prepared->signature;
  const IsolationResult *isolation = &prepared->isolation;
  const std::vector<Sample> &samples = prepared->samples;

  if (!options.calibrate.empty())
    return calibrate(*original, entryName, fp32Signature, samples, options,
                     timing, errs);

  // The converted copy.
  OwningOpRef<ModuleOp> converted = original->clone();
  TimingScope conversionTiming = timing.nest("convert");
  conversion.enableTiming(conversionTiming);
  LogicalResult conversionResult = conversion.run(*converted);
  conversionTiming.stop();
  if (failed(conversionResult)) {
    errs << "amp-run: error: the conversion pipeline '" << options.pipeline
         << "' failed (see the diagnostics above)\n";
    return kError;
  }
  if (!options.dumpConverted.empty()) {
    auto out = openOutputFile(options.dumpConverted, &errorMessage);
    if (!out) {
      errs << "amp-run: error: " << errorMessage << "\n";
      return kError;
    }
    converted->print(out->os());
    out->keep();
  }
  auto convertedEntry = converted->lookupSymbol<func::FuncOp>(entryName);
  if (!convertedEntry || convertedEntry.isExternal()) {
    errs << "amp-run: error: the conversion pipeline removed @" << entryName
         << "\n";
    return kError;
  }
  if (failed(verifyRunnableSignature(convertedEntry)))
    return kError;
  FunctionSignature ampSignature = getFunctionSignature(convertedEntry);
  if (fp32Signature.arguments.size() != ampSignature.arguments.size() ||
      fp32Signature.results.size() != ampSignature.results.size() ||
      llvm::any_of(llvm::zip(fp32Signature.arguments, ampSignature.arguments),
                   [](auto pair) {
                     return std::get<0>(pair).shape != std::get<1>(pair).shape;
                   })) {
    errs << "amp-run: error: the conversion pipeline changed the number of "
            "arguments or results of @"
         << entryName << ", or the shape of an argument\n";
    return kError;
  }

  // Compile both.
  if (failed(lowerForCpu(*original, "FP32", timing, errs)) ||
      failed(lowerForCpu(*converted, "converted", timing, errs)))
    return kError;
  SmallVector<StringRef> libs = {AMP_MLIR_C_RUNNER_UTILS};
  for (const std::string &lib : options.model.sharedLibs)
    libs.push_back(lib);
  TimingScope compileTiming = timing.nest("compile FP32 (JIT)");
  auto fp32Fn = JitFunction::create(*original, entryName, fp32Signature, libs,
                                    options.optLevel);
  compileTiming.stop();
  if (!fp32Fn) {
    errs << "amp-run: error: cannot compile the FP32 model: "
         << llvm::toString(fp32Fn.takeError()) << "\n";
    return kError;
  }
  compileTiming = timing.nest("compile converted (JIT)");
  auto ampFn = JitFunction::create(*converted, entryName, ampSignature, libs,
                                   options.optLevel);
  compileTiming.stop();
  if (!ampFn) {
    errs << "amp-run: error: cannot compile the converted model: "
         << llvm::toString(ampFn.takeError()) << "\n";
    return kError;
  }

  // The same inputs for both: in the original types, converted to the
  // converted entry's types if the pipeline changed them. The times are
  // those of the first sample; every sample counts in the comparison.
  TimingScope runTiming = timing.nest("run");
  std::vector<ErrorAccumulator> perOutput(isolation->outputNames.size());
  std::vector<
      std::pair<SmallVector<int64_t, 4>, std::pair<ElementKind, ElementKind>>>
      outputTypes(isolation->outputNames.size());
  double fp32Ms = 0, ampMs = 0;
  for (auto [s, sample] : llvm::enumerate(samples)) {
    std::vector<HostTensor> ampInputs;
    for (auto [i, input] : llvm::enumerate(sample.inputs))
      ampInputs.push_back(input.convertTo(ampSignature.arguments[i].kind));
    unsigned runs = s == 0 ? options.runs.getValue() : 1;
    FailureOr<VersionRun> fp32Run =
        runVersion(**fp32Fn, sample.inputs, runs, "the FP32 model", errs);
    if (failed(fp32Run))
      return kError;
    if (!options.saveOutputs.empty()) {
      if (std::error_code ec =
              llvm::sys::fs::create_directories(options.saveOutputs)) {
        errs << "amp-run: error: cannot create " << options.saveOutputs
             << ": " << ec.message() << "\n";
        return kError;
      }
      for (auto [i, output] : llvm::enumerate(fp32Run->outputs)) {
        std::string file =
            (s == 0 ? "" : "sample" + std::to_string(s) + "_") + "output_" +
            std::to_string(i) + ".npy";
        SmallString<256> path(options.saveOutputs.getValue());
        llvm::sys::path::append(path, file);
        if (llvm::Error error = writeNpy(path, output)) {
          errs << "amp-run: error: " << llvm::toString(std::move(error))
               << "\n";
          return kError;
        }
      }
    }
    FailureOr<VersionRun> ampRun =
        runVersion(**ampFn, ampInputs, runs, "the converted model", errs);
    if (failed(ampRun))
      return kError;
    if (s == 0) {
      fp32Ms = fp32Run->medianMs;
      ampMs = ampRun->medianMs;
    }
    for (auto [i, name] : llvm::enumerate(isolation->outputNames)) {
      const HostTensor &reference = fp32Run->outputs[i];
      const HostTensor &test = ampRun->outputs[i];
      if (reference.getShape() != test.getShape()) {
        errs << "amp-run: error: output " << name << " has the shape "
             << formatShape(reference.getShape()) << " in FP32 but "
             << formatShape(test.getShape()) << " once converted\n";
        return kError;
      }
      perOutput[i].add(reference, test);
      outputTypes[i] = {SmallVector<int64_t, 4>(reference.getShape()),
                        {reference.getKind(), test.getKind()}};
    }
  }
  runTiming.stop();

  // Compare.
  SmallVector<OutputReport> reports;
  ErrorAccumulator overall;
  for (auto [i, name] : llvm::enumerate(isolation->outputNames)) {
    overall.merge(perOutput[i]);
    reports.push_back({name, outputTypes[i].first, outputTypes[i].second.first,
                       outputTypes[i].second.second,
                       perOutput[i].getMetrics()});
  }
  ErrorMetrics total = overall.getMetrics();
  SmallVector<std::string> names;
  SmallVector<ErrorMetrics> metrics;
  for (const OutputReport &output : reports) {
    names.push_back(output.name);
    metrics.push_back(output.metrics);
  }
  SmallVector<std::string> failures = checkTolerance(*bounds, names, metrics);
  // An output whose reference cannot show an error is said once; under
  // --check it is no evidence, and the check fails.
  for (const OutputReport &output : reports) {
    DegenerateReference kind = classifyReference(output.metrics);
    if (kind == DegenerateReference::None)
      continue;
    errs << "amp-run: warning: output " << output.name << ": "
         << describeDegenerateReference(kind, output.metrics) << "\n";
    if (!bounds->empty())
      failures.push_back(
          "output " + output.name + ": no evidence: the FP32 reference is " +
          stringifyDegenerateReference(kind).str() + " (see the warning)");
  }

  Report report{options.model.inputFile,
                entryName,
                options.pipeline,
                options.model.seed,
                options.model.randomizeWeights,
                prepared->randomization.numConstants,
                prepared->numWeightArguments,
                isolation->numRemovedOps,
                std::max(options.runs.getValue(), 1u),
                fp32Signature,
                ampSignature,
                reports,
                total,
                fp32Ms,
                ampMs,
                static_cast<unsigned>(samples.size()),
                !options.model.inputs.empty(),
                failures};
  llvm::raw_ostream &out = llvm::outs();
  if (options.json)
    printJson(report, out);
  else
    printTable(report, out);
  out.flush();

  if (!failures.empty()) {
    errs << "amp-run: check failed:\n";
    for (const std::string &failure : failures)
      errs << "  " << failure << "\n";
    return kCheckFailed;
  }
  return kSuccess;
}
