//===- amp-tune.cpp - Keep in FP32 only what accuracy needs ---------------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// amp-tune finds, by running the model, the fewest ops to keep in FP32 so
// that the converted model's outputs meet a tolerance on the samples, and
// writes the model with those ops annotated (`amp.color = #amp.color<red>`):
// `--amp-mixed-precision` turns it into the tuned model. The search is in
// Tuner.h; this file holds the command line and the report.
//
// Exit codes: 0 success, 2 any error (including a tolerance that cannot be
// met).
//
//===----------------------------------------------------------------------===//

#include "TuneReport.h"
#include "Tuner.h"

#include "amp/Runner/ModelOptions.h"

#include "amp/IR/AmpAttrs.h"
#include "amp/IR/AmpDialect.h"
#include "amp/InitAmp.h"
#include "amp/Runner/CpuLowering.h"
#include "amp/Runner/Passes.h"
#include "amp/Utils/WeightQuantization.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/Tosa/Transforms/Passes.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/ToolOutputFile.h"

#include <cmath>

using namespace mlir;
using namespace mlir::amp;
using namespace mlir::amp::runner;
using namespace mlir::amp::tune;

namespace {

enum ExitCode { kSuccess = 0, kError = 2 };

/// The command line. The options live in main's frame, not in globals.
struct Options {
  ModelOptions model{"tune"};
  llvm::cl::OptionCategory tuningCategory{"Tuning"};
  llvm::cl::OptionCategory outputCategory{"Output"};
  llvm::cl::opt<std::string> tolerance{
      "tolerance",
      llvm::cl::desc("Bounds every output must meet, e.g. "
                     "'rel_l2=1e-3,argmax=1' (keys: max_abs, max_rel, rel_l2, "
                     "cosine, argmax, nonfinite); required"),
      llvm::cl::value_desc("key=value,..."), llvm::cl::cat(tuningCategory)};
  llvm::cl::opt<std::string> pipeline{
      "pipeline",
      llvm::cl::desc("The conversion the tuned model is meant for (e.g. "
                     "'amp-mixed-precision{target-type=bf16}')"),
      llvm::cl::init("amp-mixed-precision"), llvm::cl::cat(tuningCategory)};
  llvm::cl::opt<std::string> precisions{
      "precisions",
      llvm::cl::desc("The precisions to choose among besides FP32, lowest "
                     "first: f16 or bf16 (the default pipeline: f16), or an "
                     "FP8 type and a 16-bit one, e.g. 'f8E4M3FN,f16': "
                     "contractions in FP8, or in 16 bits where FP8 costs "
                     "too much accuracy, or a weight-only format and the "
                     "16-bit type of the activations, e.g. 'int4-g128,bf16' "
                     "(builds --pipeline)"),
      llvm::cl::value_desc("type,..."), llvm::cl::cat(tuningCategory)};
  llvm::cl::opt<std::string> ranges{
      "ranges",
      llvm::cl::desc("Ranges calibrated on other data (amp-run "
                     "--calibrate): the scales of FP8 activations; without "
                     "it, an FP8 search records the ranges on its samples "
                     "and writes them beside the tuned model"),
      llvm::cl::value_desc("RANGES.json"), llvm::cl::cat(tuningCategory)};
  llvm::cl::opt<std::string> rangesOut{
      "ranges-out",
      llvm::cl::desc("Where an FP8 search without --ranges writes the "
                     "ranges it recorded (default: the -o file with "
                     ".ranges.json for its extension)"),
      llvm::cl::value_desc("file"), llvm::cl::cat(outputCategory)};
  llvm::cl::opt<unsigned> refineTrials{
      "refine-trials",
      llvm::cl::desc("Trials after the bisection that try to move kept ops "
                     "back to 16 bits, most valuable first"),
      llvm::cl::init(8), llvm::cl::cat(tuningCategory)};
  llvm::cl::opt<unsigned> impactTrials{
      "impact-trials",
      llvm::cl::desc(
          "Trials that measure the outputs' error with one op "
          "alone in 16 bits, for the contractions that save most by the "
          "cost model (the others are ranked by the error they "
          "add to their own result)"),
      llvm::cl::init(64), llvm::cl::cat(tuningCategory)};
  llvm::cl::opt<unsigned> optLevel{
      "O",
      llvm::cl::desc("LLVM optimization level of the kernels that do much "
                     "work (0-3; the others are compiled at -O0)"),
      llvm::cl::Prefix, llvm::cl::init(2), llvm::cl::cat(tuningCategory)};
  llvm::cl::opt<unsigned> threads{
      "jobs",
      llvm::cl::desc("Threads that compile kernels, run samples and run "
                     "large kernels in parts (0: one per core)"),
      llvm::cl::init(0), llvm::cl::cat(tuningCategory)};
  llvm::cl::opt<bool> checkRebuild{
      "check-rebuild",
      llvm::cl::desc("Also compile every trial whole, without the kernel "
                     "cache, and fail unless its outputs are the same bits "
                     "(slow; for testing)"),
      llvm::cl::cat(tuningCategory)};
  llvm::cl::opt<std::string> outputFile{
      "o",
      llvm::cl::desc("Where to write the annotated model (default: standard "
                     "output)"),
      llvm::cl::value_desc("file"), llvm::cl::init("-"),
      llvm::cl::cat(outputCategory)};
  llvm::cl::opt<bool> json{
      "json",
      llvm::cl::desc("Print the trials and the ranking as JSON on standard "
                     "output (needs -o)"),
      llvm::cl::cat(outputCategory)};
  llvm::cl::opt<std::string> report{
      "report",
      llvm::cl::desc("Write an HTML page that shows the tuned model's "
                     "conversion on its graph, with the error each op adds "
                     "and the tolerance"),
      llvm::cl::value_desc("file.html"), llvm::cl::cat(outputCategory)};
  llvm::cl::opt<bool> quiet{"quiet", llvm::cl::desc("No progress, only errors"),
                            llvm::cl::cat(outputCategory)};
};

/// What --precisions asks for.
struct Precisions {
  std::string fp8;         // f8E4M3FN, f8E5M2, or empty
  std::string low = "f16"; // f16 or bf16
  /// Weight-only formats (docs/weight-only.md), lowest first, or none.
  SmallVector<WeightQuantSpec> weights;
};

/// Parses --precisions; fails after an error message.
FailureOr<Precisions> parsePrecisions(StringRef text, llvm::raw_ostream &errs) {
  Precisions result;
  bool sawLow = false;
  SmallVector<StringRef> items;
  text.split(items, ',', -1, /*KeepEmpty=*/false);
  auto fail = [&](const llvm::Twine &message) {
    errs << "amp-tune: error: --precisions: " << message << "\n";
    return failure();
  };
  if (items.empty())
    return fail("no precision given (e.g. --precisions=f8E4M3FN,f16)");
  for (StringRef item : items) {
    item = item.trim();
    if (item == "f8E4M3FN" || item == "f8E5M2") {
      if (!result.fp8.empty())
        return fail("two FP8 types ('" + result.fp8 + "' and '" + item +
                    "'): one at a time");
      result.fp8 = item.str();
    } else if (item == "f16" || item == "bf16") {
      if (sawLow)
        return fail("two 16-bit types ('" + result.low + "' and '" + item +
                    "'): one at a time");
      result.low = item.str();
      sawLow = true;
    } else if (item == "f32") {
      return fail("f32 is always a choice; list the lower precisions only");
    } else if (std::string why; std::optional<WeightQuantSpec> spec =
                                    parseWeightQuantSpec(item, why)) {
      for (const WeightQuantSpec &earlier : result.weights) {
        if (earlier == *spec)
          return fail("'" + item + "' is listed twice");
        if (earlier.getBits() > spec->getBits())
          return fail("list the weight-only formats lowest first ('" + item +
                      "' before '" + earlier.str() + "')");
      }
      result.weights.push_back(*spec);
    } else {
      return fail("unknown precision '" + item +
                  "' (expected f8E4M3FN, f8E5M2, f16, bf16 or a weight-only "
                  "format: int8, int4-g32, int4-g64, int4-g128, "
                  "int4-gN-asym, e4m3)");
    }
  }
  if (!result.weights.empty() && !result.fp8.empty())
    return fail("FP8 compute ('" + result.fp8 + "') and weight-only ('" +
                result.weights.front().str() +
                "') are two searches: one at a time");
  if (!result.weights.empty() && !sawLow)
    return fail("'" + result.weights.front().str() +
                "' needs the 16-bit type of the activations beside it (e.g. "
                "--precisions=" +
                result.weights.front().str() + ",bf16)");
  if (!sawLow)
    return fail("'" + result.fp8 +
                "' needs a 16-bit type beside it, for the ops that have no "
                "FP8 form or lose too much in it (e.g. --precisions=" +
                result.fp8 + ",f16)");
  return result;
}

/// The pipeline that --precisions and --ranges describe.
std::string buildPipeline(const Precisions &precisions, StringRef ranges) {
  SmallVector<std::string> options;
  if (!precisions.fp8.empty()) {
    options.push_back("target-type=" + precisions.fp8);
    options.push_back("fallback-type=" + precisions.low);
  } else if (precisions.low != "f16") {
    options.push_back("target-type=" + precisions.low);
  }
  if (!precisions.weights.empty())
    options.push_back("weight-only=" + precisions.weights.front().str());
  if (!ranges.empty())
    options.push_back(("ranges=" + ranges).str());
  if (options.empty())
    return "amp-mixed-precision";
  return "amp-mixed-precision{" + llvm::join(options, " ") + "}";
}

/// Where an FP8 search writes the ranges it recorded: --ranges-out, or the
/// output file with .ranges.json for its extension.
std::string getRangesOut(const Options &options) {
  if (!options.rangesOut.empty())
    return options.rangesOut;
  StringRef out = options.outputFile;
  StringRef stem = out.ends_with(".mlir") ? out.drop_back(5) : out;
  return (stem + ".ranges.json").str();
}

} // namespace

/// The kept ops that matter one line each (those that would save time in
/// 16 bits, and those whose result is not finite there); the others, which
/// the cost model prices at nothing, in one line.
static void printKept(llvm::raw_ostream &log, const TuneResult &result) {
  unsigned quiet = 0;
  for (const Candidate &c :
       ArrayRef(result.candidates).take_front(result.kept)) {
    bool finite = std::isfinite(c.sensitivity);
    if (c.saving <= 0 && finite) {
      ++quiet;
      continue;
    }
    std::string alone =
        c.impact >= 0
            ? llvm::formatv("; alone in 16 bits: rel_l2 {0} at the outputs",
                            formatMetric(c.impact))
                  .str()
            : std::string();
    log << llvm::formatv("  FP32: {0} at {1} (adds rel_l2 {2}{3})\n", c.name,
                         c.location, formatMetric(c.sensitivity), alone);
  }
  if (quiet)
    log << llvm::formatv("  FP32: {0} more that save nothing in 16 bits by the "
                         "cost model (epilogues, padding; --json lists "
                         "them)\n",
                         quiet);
}

/// The summary of a search: what was kept, moved, and the shares.
static void printSummary(llvm::raw_ostream &log, const TuneResult &result) {
  size_t n = result.candidates.size();
  double share = n ? static_cast<double>(result.low) / n : 0.0;
  const Trial *chosen = result.chosen ? &*result.chosen : nullptr;
  std::string relL2 =
      chosen ? ", rel_l2 " + formatMetric(chosen->relL2) : std::string();
  // "in FP8", "with int4-g128 weights".
  std::string sub = result.fp8Type ? std::string("in FP8")
                                   : "with " + result.subName + " weights";
  // The upper weight-only formats: ", 3 with int8 weights" and their
  // multiply-adds (counted in fp8 and fp8Macs too).
  std::string upper;
  unsigned upperCount = 0;
  int64_t upperMacs = 0;
  if (chosen)
    for (auto [index, format] : llvm::enumerate(result.upperFormats)) {
      upper +=
          llvm::formatv(", {0} with {1} weights", chosen->upper[index], format);
      upperCount += chosen->upper[index];
      upperMacs += chosen->upperMacs[index];
    }
  if (!result.subName.empty())
    log << llvm::formatv("amp-tune: {0} ops kept in FP32, {1} of {2} "
                         "contractions {3}{4}{5}; {6} trials in {7:f1} s\n",
                         result.kept, chosen ? chosen->fp8 - upperCount : 0,
                         result.fp8Candidates.size(), sub, upper, relL2,
                         result.trials.size(), result.seconds);
  else
    log << llvm::formatv(
        "amp-tune: {0} ops kept in FP32; {1} of the {2} ops that can run "
        "in 16 bits do ({3:f1}%){4}; {5} trials in {6:f1} s\n",
        result.kept, result.low, n, 100.0 * share, relL2, result.trials.size(),
        result.seconds);
  printKept(log, result);
  if (!result.subName.empty()) {
    llvm::DenseSet<unsigned> moved(result.demotedTags.begin(),
                                   result.demotedTags.end());
    for (const Candidate &c : result.fp8Candidates)
      if (moved.contains(c.tag)) {
        std::string to;
        if (auto it = result.upperFormatOf.find(c.tag);
            it != result.upperFormatOf.end())
          to = result.upperFormats[it->second];
        else
          llvm::raw_string_ostream(to) << result.lowType;
        log << llvm::formatv("  {0}: {1} at {2} (adds rel_l2 {3} {4})\n", to,
                             c.name, c.location, formatMetric(c.sensitivity),
                             sub);
      }
  }
  if (chosen && result.totalMacs > 0) {
    auto pct = [&](int64_t n) {
      return 100.0 * static_cast<double>(n) /
             static_cast<double>(result.totalMacs);
    };
    int64_t fp32Macs = std::max<int64_t>(0, result.totalMacs - chosen->fp8Macs -
                                                chosen->lowMacs);
    std::string lowName = "16 bits";
    if (result.lowType)
      llvm::raw_string_ostream(lowName = "") << result.lowType;
    log << "amp-tune: multiply-adds: ";
    if (!result.subName.empty())
      log << llvm::formatv("{0:f1}% {1}, ", pct(chosen->fp8Macs - upperMacs),
                           result.fp8Type ? "in " + result.subName : sub);
    for (auto [index, format] : llvm::enumerate(result.upperFormats))
      log << llvm::formatv("{0:f1}% with {1} weights, ",
                           pct(chosen->upperMacs[index]), format);
    log << llvm::formatv("{0:f1}% in {1}, {2:f1}% in FP32 (of {3})\n",
                         pct(chosen->lowMacs), lowName, pct(fp32Macs),
                         result.totalMacs);
  }
  if (!result.subName.empty() && chosen && chosen->weightBytes > 0)
    log << llvm::formatv("amp-tune: modeled bytes per call: {0:f1} MB, of "
                         "which weights {1:f1} MB\n",
                         chosen->bytes / 1e6, chosen->weightBytes / 1e6);
}

/// Where the budget, not the search, keeps most multiply-adds in FP32:
/// what one op alone in 16 bits costs at the outputs.
static void printBudgetNote(llvm::raw_ostream &log, const TuneResult &result,
                            StringRef tolerance) {
  const Trial *chosen = result.chosen ? &*result.chosen : nullptr;
  if (!chosen || result.totalMacs == 0 ||
      2 * chosen->lowMacs + 2 * chosen->fp8Macs >= result.totalMacs)
    return;
  SmallVector<double> impacts;
  for (const Candidate &c : result.candidates)
    if (c.impact >= 0)
      impacts.push_back(c.impact);
  if (impacts.empty())
    return;
  llvm::sort(impacts);
  log << llvm::formatv(
      "amp-tune: less than half the multiply-adds in 16 bits: "
      "alone in 16 bits, each of the {0} contractions that save most "
      "gives rel_l2 {1} to {2} at the outputs (median {3}), "
      "against the tolerance {4}\n",
      impacts.size(), formatMetric(impacts.front()),
      formatMetric(impacts.back()), formatMetric(impacts[impacts.size() / 2]),
      tolerance);
}

int main(int argc, char **argv) {
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  setToolName("amp-tune");

  registerAmpPasses();
  registerAmpRunnerPasses();
  registerTransformsPasses();
  registerConversionPasses();
  tosa::registerTosaPasses();
  registerLinalgPasses();

  Options options;
  llvm::cl::HideUnrelatedOptions(
      {&options.model.modelCategory, &options.model.inputCategory,
       &options.tuningCategory, &options.outputCategory});
  llvm::cl::ParseCommandLineOptions(
      argc, argv,
      "amp-tune: find the fewest ops to keep in FP32 so that the converted "
      "model meets a tolerance on sample inputs, and write the model with "
      "them annotated\n"
      "\n"
      "  amp-tune model.mlir --tolerance=rel_l2=1e-3 -o tuned.mlir\n"
      "  amp-tune model.mlir --tolerance=rel_l2=1e-3,argmax=1 "
      "--inputs=samples/ -o tuned.mlir\n"
      "  amp-tune model.mlir --tolerance=cosine=0.9999 --json -o tuned.mlir "
      "> trials.json\n"
      "  amp-tune model.mlir --tolerance=rel_l2=1e-3 --report=tuned.html "
      "-o tuned.mlir\n"
      "  amp-tune model.mlir --precisions=f8E4M3FN,f16 --tolerance=rel_l2=1e-2 "
      "--ranges=calibrated.json -o tuned.mlir\n"
      "  amp-opt tuned.mlir --amp-mixed-precision   (the tuned model)\n"
      "\n"
      "Progress goes to standard error. Exit status: 0, or 2 on any error.\n");
  llvm::raw_ostream &errs = llvm::errs();
  llvm::raw_ostream &log = llvm::errs();

  if (options.tolerance.empty()) {
    errs << "amp-tune: error: --tolerance is required (e.g. "
            "--tolerance=rel_l2=1e-3)\n";
    return kError;
  }
  auto bounds =
      parseTolerance(options.tolerance, "amp-tune", "--tolerance", errs);
  FailureOr<ModelSetup> setup = options.model.getSetup(errs);
  if (failed(bounds) || failed(setup))
    return kError;
  if (bounds->empty()) {
    errs << "amp-tune: error: --tolerance names no bound\n";
    return kError;
  }
  // --precisions and --ranges build the pipeline.
  Precisions precisions;
  bool fp8Requested = false;
  if (!options.precisions.empty() || !options.ranges.empty()) {
    if (options.pipeline.getNumOccurrences()) {
      errs << "amp-tune: error: --precisions and --ranges build the "
              "pipeline: give either them or --pipeline (e.g. "
              "--pipeline='amp-mixed-precision{target-type=f8E4M3FN "
              "fallback-type=f16 ranges=r.json}')\n";
      return kError;
    }
    if (!options.precisions.empty()) {
      FailureOr<Precisions> parsed = parsePrecisions(options.precisions, errs);
      if (failed(parsed))
        return kError;
      precisions = *parsed;
    }
    fp8Requested = !precisions.fp8.empty();
    if (!options.ranges.empty() && !llvm::sys::fs::exists(options.ranges)) {
      errs << "amp-tune: error: --ranges: no file '" << options.ranges
           << "' (write one with amp-run MODEL --calibrate=FILE)\n";
      return kError;
    }
    if (fp8Requested && options.ranges.empty() && options.outputFile == "-" &&
        options.rangesOut.empty()) {
      errs << "amp-tune: error: without --ranges, an FP8 search records the "
              "ranges of the samples and writes them beside the tuned "
              "model: give -o FILE or --ranges-out=FILE (or --ranges from "
              "amp-run --calibrate)\n";
      return kError;
    }
    options.pipeline = buildPipeline(precisions, options.ranges);
  } else if (!options.rangesOut.empty()) {
    errs << "amp-tune: error: --ranges-out is where an FP8 search "
            "(--precisions=f8E4M3FN,f16) writes the ranges it records\n";
    return kError;
  }
  if (options.json && options.outputFile == "-") {
    errs << "amp-tune: error: --json prints to standard output; write the "
            "model elsewhere with -o\n";
    return kError;
  }

  DialectRegistry registry;
  registerToolDialects(registry);
  MLIRContext context(registry);
  // The annotations are written with the dialect's attributes.
  context.getOrLoadDialect<AmpDialect>();
  std::unique_ptr<ModelFile> model =
      ModelFile::open(options.model.inputFile, &context, errs);
  if (!model)
    return kError;
  std::string errorMessage;
  {
    PassManager check(&context);
    if (failed(parsePipeline(options.pipeline, check, "--pipeline", errs)))
      return kError;
  }
  if (!options.report.empty() &&
      failed(checkTuneReport(&context, options.report, options.pipeline, errs)))
    return kError;
  OwningOpRef<ModuleOp> original = model->parse(errs);
  if (!original)
    return kError;

  // The pristine copy is what gets annotated and written; the trials work
  // on the prepared one, whose ops carry their index in their location.
  OwningOpRef<ModuleOp> pristine = original->clone();
  std::vector<Operation *> pristineOps = listOps(*pristine);
  tagOps(*original);
  FailureOr<PreparedModel> prepared = prepareModel(*original, *setup, errs);
  if (failed(prepared))
    return kError;

  TunerConfig config;
  config.trials.pipeline = options.pipeline;
  config.trials.sharedLibs.push_back(AMP_MLIR_C_RUNNER_UTILS);
  for (const std::string &lib : options.model.sharedLibs)
    config.trials.sharedLibs.push_back(lib);
  config.trials.optLevel = options.optLevel;
  config.trials.threads = options.threads;
  config.trials.checkRebuild = options.checkRebuild;
  config.tolerance = *bounds;
  config.refineTrials = options.refineTrials;
  config.impactTrials = options.impactTrials;
  if (!precisions.weights.empty()) {
    config.weightFormat = precisions.weights.front().str();
    config.weightBits = precisions.weights.front().getBits();
    for (const WeightQuantSpec &spec :
         ArrayRef(precisions.weights).drop_front())
      config.upperFormats.push_back({spec.str(), spec.getBits()});
  }
  config.progress = !options.quiet;
  if (config.progress)
    log << "amp-tune: " << options.model.inputFile << " @"
        << prepared->entryName << ", pipeline '" << options.pipeline
        << "', tolerance " << options.tolerance << ", "
        << prepared->samples.size() << " sample"
        << (prepared->samples.size() == 1 ? "" : "s")
        << (options.model.inputs.empty() ? " (random)" : " from files") << "\n";

  Tuner tuner(*original, *prepared, pristineOps, config, log, errs);
  if (fp8Requested && options.ranges.empty()) {
    // FP8 scales need ranges: those of the samples, written for the tuned
    // model's own conversion.
    FailureOr<ObservedRanges> observed = tuner.calibrate();
    if (failed(observed))
      return kError;
    std::string rangesPath = getRangesOut(options);
    auto rangesFile = openOutputFile(rangesPath, &errorMessage);
    if (!rangesFile) {
      errs << "amp-tune: error: " << errorMessage << "\n";
      return kError;
    }
    rangesFile->os() << llvm::formatv(
                            "{0:2}",
                            observed->toJson(
                                options.model.inputFile,
                                static_cast<int64_t>(prepared->samples.size())))
                     << "\n";
    rangesFile->keep();
    config.trials.pipeline = options.pipeline =
        buildPipeline(precisions, rangesPath);
    if (config.progress)
      log << "amp-tune: FP8 scales from the ranges of the "
          << prepared->samples.size() << " sample"
          << (prepared->samples.size() == 1 ? "" : "s") << ", written to "
          << rangesPath
          << " (calibrate on other data with amp-run --calibrate and pass "
             "--ranges for a fair test)\n";
  }
  FailureOr<TuneResult> result = tuner.run();
  if (failed(result))
    return kError;

  // Annotate and write.
  for (const OpAnnotation &annotation : tuner.getAnnotations(*result))
    pristineOps[annotation.tag]->setAttr(annotation.name, annotation.value);
  auto out = openOutputFile(options.outputFile, &errorMessage);
  if (!out) {
    errs << "amp-tune: error: " << errorMessage << "\n";
    return kError;
  }
  pristine->print(out->os());
  out->os() << "\n";
  out->keep();

  const Trial *chosen = result->chosen ? &*result->chosen : nullptr;
  if (config.progress) {
    printSummary(log, *result);
    printBudgetNote(log, *result, options.tolerance);
    if (chosen && result->fp32Cost > 0)
      log << llvm::formatv(
          "amp-tune: modeled time ({0}): {1:f1} us in FP32, {2:f1} us tuned "
          "({3:f2}x), {4:f1} us with nothing kept\n",
          getCostModelName(), 1e6 * result->fp32Cost, 1e6 * chosen->cost,
          chosen->cost / result->fp32Cost, 1e6 * result->lowestCost);
    const KernelCacheStatistics &compilation = result->compilation;
    log << llvm::formatv(
        "amp-tune: {0} kernels compiled ({1} run in parts on the threads), "
        "{2} found compiled; {3} thread{4}\n",
        compilation.kernelsCompiled, compilation.kernelsInParts,
        compilation.kernelsReused, result->threads,
        result->threads == 1 ? "" : "s");
    if (options.outputFile != "-")
      log << "amp-tune: wrote " << options.outputFile
          << "; the tuned model: amp-opt " << options.outputFile
          << " --pass-pipeline='builtin.module(" << options.pipeline << ")'\n";
  }
  if (!options.report.empty()) {
    llvm::json::Value tuning =
        toJson(*result, options.model.inputFile, options.tolerance,
               prepared->samples.size(), prepared->signature);
    if (chosen && std::isfinite(chosen->relL2))
      tuning.getAsObject()->try_emplace("result_rel_l2", chosen->relL2);
    if (failed(writeTuneReport(*pristine, options.pipeline, std::move(tuning),
                               options.report, errs)))
      return kError;
    if (config.progress)
      log << "amp-tune: wrote the report " << options.report << "\n";
  }
  if (options.json)
    llvm::outs() << llvm::formatv("{0:2}",
                                  toJson(*result, options.model.inputFile,
                                         options.tolerance,
                                         prepared->samples.size(),
                                         prepared->signature))
                 << "\n";
  return kSuccess;
}
