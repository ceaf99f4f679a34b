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
#include "amp/Runner/Comparison.h"
#include "amp/Runner/CpuLowering.h"
#include "amp/Runner/HostTensor.h"
#include "amp/Runner/JitFunction.h"
#include "amp/Runner/ModelPreparation.h"
#include "amp/Runner/Passes.h"

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
  llvm::cl::opt<std::string> inputFile{llvm::cl::Positional,
                                       llvm::cl::desc("<model.mlir>"),
                                       llvm::cl::init("-")};
  llvm::cl::opt<std::string> entry{
      "entry",
      llvm::cl::desc("Function to run (default: the only public "
                     "function with tensor arguments)"),
      llvm::cl::value_desc("name")};
  llvm::cl::opt<std::string> pipeline{
      "pipeline",
      llvm::cl::desc("Textual pass pipeline that makes the converted copy "
                     "(e.g. 'amp-mixed-precision{target-type=bf16}')"),
      llvm::cl::init("amp-mixed-precision")};
  llvm::cl::opt<uint64_t> seed{
      "seed", llvm::cl::desc("Seed of the random inputs and weights"),
      llvm::cl::init(0)};
  llvm::cl::opt<bool> randomizeWeights{
      "randomize-weights",
      llvm::cl::desc("Replace the weights (float constants of rank >= 2 read "
                     "by contractions) by seeded random values scaled by "
                     "their fan-in, in both versions")};
  llvm::cl::list<std::string> shapes{
      "shape",
      llvm::cl::desc("Static shape of a dynamic argument, as INDEX:DIMS "
                     "(e.g. 0:1x3x224x224); may be repeated"),
      llvm::cl::value_desc("index:dims")};
  llvm::cl::opt<unsigned> runs{
      "runs",
      llvm::cl::desc("Runs of each version; the times are their median"),
      llvm::cl::init(5)};
  llvm::cl::opt<unsigned> optLevel{
      "O",
      llvm::cl::desc("LLVM optimization level of the compiled code "
                     "(0-3)"),
      llvm::cl::Prefix, llvm::cl::init(2)};
  llvm::cl::opt<std::string> inputRange{
      "input-range", llvm::cl::desc("Float inputs are uniform in [lo, hi)"),
      llvm::cl::value_desc("lo,hi"), llvm::cl::init("-1,1")};
  llvm::cl::opt<std::string> intRange{
      "int-range",
      llvm::cl::desc("Integer inputs (i8, i32, i64) are uniform in [lo, hi)"),
      llvm::cl::value_desc("lo,hi"), llvm::cl::init("0,2")};
  llvm::cl::opt<bool> json{"json",
                           llvm::cl::desc("Print one JSON object instead of "
                                          "a table")};
  llvm::cl::opt<std::string> check{
      "check",
      llvm::cl::desc("Bounds that must hold, e.g. 'rel_l2=1e-2,argmax=1' "
                     "(keys: max_abs, max_rel, rel_l2, cosine, argmax, "
                     "nonfinite); exit code 1 when one is broken"),
      llvm::cl::value_desc("key=value,...")};
  llvm::cl::opt<std::string> dumpConverted{
      "dump-converted",
      llvm::cl::desc("Write the converted module (before lowering) here"),
      llvm::cl::value_desc("file")};
  llvm::cl::list<std::string> sharedLibs{
      "shared-libs",
      llvm::cl::desc("Libraries to load for symbols the model calls"),
      llvm::cl::CommaSeparated};
};

/// One bound of --check.
struct Bound {
  enum class Kind { MaxAbs, MaxRel, RelL2, Cosine, Argmax, Nonfinite };
  Kind kind;
  std::string key;
  double value;
};

/// A pair of numbers "lo,hi".
template <typename T>
std::optional<std::pair<T, T>> parseRange(StringRef text) {
  auto [loText, hiText] = text.split(',');
  std::pair<T, T> range;
  if constexpr (std::is_floating_point_v<T>) {
    if (loText.trim().getAsDouble(range.first) ||
        hiText.trim().getAsDouble(range.second))
      return std::nullopt;
  } else {
    if (loText.trim().getAsInteger(10, range.first) ||
        hiText.trim().getAsInteger(10, range.second))
      return std::nullopt;
  }
  if (!(range.first < range.second))
    return std::nullopt;
  return range;
}

/// Parses --check.
FailureOr<SmallVector<Bound>> parseChecks(StringRef text,
                                          llvm::raw_ostream &errs) {
  static const std::pair<StringRef, Bound::Kind> kKeys[] = {
      {"max_abs", Bound::Kind::MaxAbs},
      {"max_abs_err", Bound::Kind::MaxAbs},
      {"max_rel", Bound::Kind::MaxRel},
      {"max_rel_err", Bound::Kind::MaxRel},
      {"rel_l2", Bound::Kind::RelL2},
      {"rel_l2_err", Bound::Kind::RelL2},
      {"cosine", Bound::Kind::Cosine},
      {"argmax", Bound::Kind::Argmax},
      {"argmax_agree", Bound::Kind::Argmax},
      {"nonfinite", Bound::Kind::Nonfinite}};
  SmallVector<Bound> bounds;
  SmallVector<StringRef> items;
  text.split(items, ',', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  for (StringRef item : items) {
    auto [key, valueText] = item.split('=');
    key = key.trim();
    const auto *it = llvm::find_if(
        kKeys, [&](const auto &entry) { return entry.first == key; });
    double value;
    if (it == std::end(kKeys)) {
      errs << "amp-run: error: unknown --check key '" << key
           << "'; expected max_abs, max_rel, rel_l2, cosine, argmax or "
              "nonfinite\n";
      return failure();
    }
    if (valueText.trim().getAsDouble(value)) {
      errs << "amp-run: error: --check " << key << " needs a number, got '"
           << valueText << "'\n";
      return failure();
    }
    bounds.push_back({it->second, key.str(), value});
  }
  return bounds;
}

/// Parses the --shape options.
FailureOr<SmallVector<ArgumentShape>> parseShapes(ArrayRef<std::string> specs,
                                                  llvm::raw_ostream &errs) {
  SmallVector<ArgumentShape> shapes;
  for (StringRef spec : specs) {
    auto [indexText, dimsText] = spec.split(':');
    ArgumentShape shape;
    bool bad = indexText.getAsInteger(10, shape.argIndex) || dimsText.empty();
    SmallVector<StringRef> dims;
    dimsText.split(dims, 'x');
    for (StringRef dim : dims) {
      int64_t size;
      if (dim.getAsInteger(10, size) || size < 0)
        bad = true;
      else
        shape.shape.push_back(size);
    }
    if (bad) {
      errs << "amp-run: error: invalid --shape '" << spec
           << "'; expected INDEX:DIMS, e.g. 0:1x3x224x224\n";
      return failure();
    }
    shapes.push_back(std::move(shape));
  }
  return shapes;
}

/// Parses `text` into `pm`; "builtin.module(...)" and a bare list of passes
/// are both accepted.
LogicalResult parsePipeline(StringRef text, OpPassManager &pm,
                            llvm::raw_ostream &errs) {
  StringRef passes = text.trim();
  if (passes.consume_front("builtin.module(")) {
    if (!passes.consume_back(")")) {
      errs << "amp-run: error: unbalanced parentheses in --pipeline\n";
      return failure();
    }
  }
  std::string message;
  llvm::raw_string_ostream os(message);
  if (succeeded(parsePassPipeline(passes, pm, os)))
    return success();
  errs << "amp-run: error: invalid --pipeline '" << text << "': " << message;
  if (!StringRef(message).ends_with("\n"))
    errs << "\n";
  return failure();
}

/// Runs the CPU lowering on `module`; `what` names it in errors.
LogicalResult lowerForCpu(ModuleOp module, StringRef what, TimingScope &timing,
                          llvm::raw_ostream &errs) {
  PassManager pm(module.getContext());
  buildCpuLoweringPipeline(pm);
  TimingScope scope = timing.nest(("lower " + what).str());
  pm.enableTiming(scope);
  if (succeeded(pm.run(module)) && succeeded(verifyLoweredForCpu(module)))
    return success();
  errs << "amp-run: error: cannot lower the " << what
       << " model for the CPU (see the diagnostics above)\n";
  return failure();
}

//===----------------------------------------------------------------------===//
// Crash reporting
//===----------------------------------------------------------------------===//

/// What is running, for the crash message. A signal handler cannot be given
/// context any other way; it is only written between runs.
volatile const char *crashContext = nullptr;

extern "C" void onCrash(int signal) {
  const char *prefix = "amp-run: error: the compiled code crashed (";
  const char *name = signal == SIGSEGV   ? "SIGSEGV"
                     : signal == SIGBUS  ? "SIGBUS"
                     : signal == SIGFPE  ? "SIGFPE"
                     : signal == SIGILL  ? "SIGILL"
                     : signal == SIGABRT ? "SIGABRT"
                                         : "signal";
  const char *context = const_cast<const char *>(crashContext);
  const char *suffix =
      "); an assertion of the model failed or it read out of bounds "
      "(integer inputs come from --int-range)\n";
  ssize_t ignored = 0;
  ignored += write(STDERR_FILENO, prefix, std::strlen(prefix));
  ignored += write(STDERR_FILENO, name, std::strlen(name));
  if (context) {
    ignored += write(STDERR_FILENO, " while running ", 15);
    ignored += write(STDERR_FILENO, context, std::strlen(context));
  }
  ignored += write(STDERR_FILENO, suffix, std::strlen(suffix));
  (void)ignored;
  _exit(kError);
}

/// Installs onCrash for the signals compiled code may raise while alive.
class CrashGuard {
public:
  explicit CrashGuard(const char *context) {
    crashContext = context;
    struct sigaction action;
    std::memset(&action, 0, sizeof(action));
    action.sa_handler = onCrash;
    sigemptyset(&action.sa_mask);
    for (unsigned i = 0; i < kNumSignals; ++i)
      sigaction(kSignals[i], &action, &previous[i]);
  }
  ~CrashGuard() {
    for (unsigned i = 0; i < kNumSignals; ++i)
      sigaction(kSignals[i], &previous[i], nullptr);
    crashContext = nullptr;
  }

private:
  static constexpr unsigned kNumSignals = 5;
  static constexpr int kSignals[kNumSignals] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL,
                                                SIGABRT};
  struct sigaction previous[kNumSignals];
};

//===----------------------------------------------------------------------===//
// Report
//===----------------------------------------------------------------------===//

/// What one version did.
struct VersionRun {
  std::vector<HostTensor> outputs;
  double medianMs = 0.0;
};

/// Runs `fn` `runs` times on `inputs`.
FailureOr<VersionRun> runVersion(JitFunction &fn, ArrayRef<HostTensor> inputs,
                                 unsigned runs, const char *what,
                                 llvm::raw_ostream &errs) {
  VersionRun version;
  std::vector<double> times;
  CrashGuard guard(what);
  for (unsigned i = 0; i < std::max(runs, 1u); ++i) {
    llvm::Expected<RunResult> result = fn.run(inputs);
    if (!result) {
      errs << "amp-run: error: cannot run the " << what
           << " model: " << llvm::toString(result.takeError()) << "\n";
      return failure();
    }
    times.push_back(result->milliseconds);
    if (i == 0)
      version.outputs = std::move(result->outputs);
  }
  std::sort(times.begin(), times.end());
  size_t n = times.size();
  version.medianMs =
      n % 2 ? times[n / 2] : (times[n / 2 - 1] + times[n / 2]) / 2.0;
  return version;
}

/// One row of the report.
struct OutputReport {
  std::string name;
  SmallVector<int64_t, 4> shape;
  ElementKind referenceKind, convertedKind;
  ErrorMetrics metrics;
};

/// A metric for the table: `digits` significant digits, or "nan"/"inf".
std::string formatMetric(double value, int digits = 3) {
  if (std::isnan(value))
    return "nan";
  if (std::isinf(value))
    return value > 0 ? "inf" : "-inf";
  char buffer[32];
  std::snprintf(buffer, sizeof(buffer), "%.*g", digits, value);
  return buffer;
}

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

/// Checks `bounds` against every output; returns the failures.
SmallVector<std::string> checkBounds(ArrayRef<Bound> bounds,
                                     ArrayRef<OutputReport> outputs) {
  SmallVector<std::string> failures;
  for (const Bound &bound : bounds) {
    for (const OutputReport &output : outputs) {
      const ErrorMetrics &m = output.metrics;
      double actual = 0.0;
      bool atMost = true;
      switch (bound.kind) {
      case Bound::Kind::MaxAbs:
        actual = m.maxAbsErr;
        break;
      case Bound::Kind::MaxRel:
        actual = m.maxRelErr;
        break;
      case Bound::Kind::RelL2:
        actual = m.relL2Err;
        break;
      case Bound::Kind::Cosine:
        actual = m.cosine;
        atMost = false;
        break;
      case Bound::Kind::Argmax:
        actual = m.argmaxAgreeRate();
        atMost = false;
        break;
      case Bound::Kind::Nonfinite:
        actual = static_cast<double>(m.nonfinite);
        break;
      }
      // NaN compares false both ways: it always breaks a bound.
      bool holds = atMost ? actual <= bound.value : actual >= bound.value;
      if (!holds)
        failures.push_back(
            llvm::formatv("{0}: {1} = {2}, expected {3} {4}", output.name,
                          bound.key, formatMetric(actual),
                          atMost ? "<=" : ">=", formatMetric(bound.value))
                .str());
    }
  }
  return failures;
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
      << report.pipeline << "', seed " << report.seed;
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
  llvm::cl::ParseCommandLineOptions(
      argc, argv,
      "amp-run: run a model in FP32 and in mixed precision on the CPU and "
      "compare the outputs\n");
  llvm::raw_ostream &errs = llvm::errs();

  // Options that need checking before any work.
  auto bounds = parseChecks(options.check, errs);
  auto shapes = parseShapes(options.shapes, errs);
  auto floatRange = parseRange<double>(options.inputRange);
  auto intRange = parseRange<int64_t>(options.intRange);
  if (failed(bounds) || failed(shapes))
    return kError;
  if (!floatRange || !intRange) {
    errs << "amp-run: error: invalid "
         << (floatRange ? "--int-range" : "--input-range")
         << "; expected lo,hi with lo < hi\n";
    return kError;
  }

  // --mlir-timing reports the time of every step and pass.
  DefaultTimingManager timingManager;
  applyDefaultTimingManagerCLOptions(timingManager);
  TimingScope timing = timingManager.getRootScope();

  DialectRegistry registry;
  registerCpuLoweringDependencies(registry);
  registerAmpDialects(registry);
  // Harness code in models prints with vector.print.
  registry.insert<vector::VectorDialect>();
  MLIRContext context(registry);
  // Errors point at the source line; the op dump would repeat the model.
  context.printOpOnDiagnostic(false);

  std::string errorMessage;
  auto file = openInputFile(options.inputFile, &errorMessage);
  if (!file) {
    errs << "amp-run: error: " << errorMessage << "\n";
    return kError;
  }
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
  SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);

  // The conversion pipeline, parsed before any work.
  PassManager conversion(&context);
  if (failed(parsePipeline(options.pipeline, conversion, errs)))
    return kError;

  TimingScope parseTiming = timing.nest("parse");
  OwningOpRef<ModuleOp> original =
      parseSourceFile<ModuleOp>(sourceMgr, &context);
  parseTiming.stop();
  if (!original) {
    errs << "amp-run: error: cannot parse " << options.inputFile << "\n";
    return kError;
  }

  // Prepare the original: entry, shapes, harness, weights.
  TimingScope prepareTiming = timing.nest("prepare");
  FailureOr<func::FuncOp> entry = findEntry(*original, options.entry);
  if (failed(entry))
    return kError;
  std::string entryName = entry->getSymName().str();
  if (failed(specializeArgumentShapes(*entry, *shapes)))
    return kError;
  FailureOr<IsolationResult> isolation = isolateEntry(*original, *entry);
  if (failed(isolation) || failed(verifyRunnableSignature(*entry)))
    return kError;
  // Weights: constants are replaced now, arguments drawn like them below.
  WeightRandomization randomization;
  SmallVector<std::optional<int64_t>> argumentFanIns(entry->getNumArguments());
  unsigned numWeightArguments = 0;
  if (options.randomizeWeights) {
    randomization = randomizeWeights(*original, options.seed);
    for (BlockArgument arg : entry->getArguments())
      if ((argumentFanIns[arg.getArgNumber()] =
               getWeightFanIn(arg, /*notFirstOperand=*/true)))
        ++numWeightArguments;
  }

  prepareTiming.stop();

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
  FunctionSignature fp32Signature = getFunctionSignature(*entry);
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
  for (const std::string &lib : options.sharedLibs)
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

  // The same inputs for both: drawn in the original types, converted to the
  // converted entry's types if the pipeline changed them.
  InputDistribution distribution{floatRange->first, floatRange->second,
                                 intRange->first, intRange->second};
  std::vector<HostTensor> fp32Inputs, ampInputs;
  for (auto [i, arg] : llvm::enumerate(fp32Signature.arguments)) {
    HostTensor input(arg.kind, arg.shape);
    RandomGenerator rng(options.seed, i);
    InputDistribution argDistribution = distribution;
    if (std::optional<int64_t> fanIn = argumentFanIns[i]) {
      argDistribution.floatHi = getHeUniformBound(*fanIn);
      argDistribution.floatLo = -argDistribution.floatHi;
    }
    fillRandom(input, rng, argDistribution);
    ampInputs.push_back(input.convertTo(ampSignature.arguments[i].kind));
    fp32Inputs.push_back(std::move(input));
  }

  TimingScope runTiming = timing.nest("run");
  FailureOr<VersionRun> fp32Run =
      runVersion(**fp32Fn, fp32Inputs, options.runs, "the FP32 model", errs);
  if (failed(fp32Run))
    return kError;
  FailureOr<VersionRun> ampRun =
      runVersion(**ampFn, ampInputs, options.runs, "the converted model", errs);
  if (failed(ampRun))
    return kError;

  runTiming.stop();

  // Compare.
  SmallVector<OutputReport> reports;
  ErrorAccumulator overall;
  for (auto [i, name] : llvm::enumerate(isolation->outputNames)) {
    const HostTensor &reference = fp32Run->outputs[i];
    const HostTensor &test = ampRun->outputs[i];
    if (reference.getShape() != test.getShape()) {
      errs << "amp-run: error: output " << name << " has the shape "
           << formatShape(reference.getShape()) << " in FP32 but "
           << formatShape(test.getShape()) << " once converted\n";
      return kError;
    }
    ErrorAccumulator accumulator;
    accumulator.add(reference, test);
    overall.merge(accumulator);
    reports.push_back({name, SmallVector<int64_t, 4>(reference.getShape()),
                       reference.getKind(), test.getKind(),
                       accumulator.getMetrics()});
  }
  ErrorMetrics total = overall.getMetrics();
  SmallVector<std::string> failures = checkBounds(*bounds, reports);

  Report report{options.inputFile,
                entryName,
                options.pipeline,
                options.seed,
                options.randomizeWeights,
                randomization.numConstants,
                numWeightArguments,
                isolation->numRemovedOps,
                std::max(options.runs.getValue(), 1u),
                fp32Signature,
                ampSignature,
                reports,
                total,
                fp32Run->medianMs,
                ampRun->medianMs,
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
