//===- ToolSupport.cpp - What amp-run and amp-tune share ------------------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "amp/Runner/ToolSupport.h"

#include "amp/Runner/CpuLowering.h"

#include "amp/InitAmp.h"

#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Support/FileUtilities.h"

#include <algorithm>
#include <cstring>
#include <unistd.h>

using namespace mlir;
using namespace mlir::amp;
using namespace mlir::amp::runner;

namespace {
const char *toolName = "amp-run";
/// What is running, for the crash message. A signal handler cannot be given
/// context any other way; it is only written between runs.
volatile const char *crashContext = nullptr;

constexpr int kCrashSignals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};

extern "C" void onCrash(int signal) {
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
  auto put = [](const char *text) {
    ssize_t ignored = write(STDERR_FILENO, text, std::strlen(text));
    (void)ignored;
  };
  put(toolName);
  put(": error: the compiled code crashed (");
  put(name);
  if (context) {
    put(" while running ");
    put(context);
  }
  put(suffix);
  _exit(2);
}

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
} // namespace

void mlir::amp::runner::registerToolDialects(DialectRegistry &registry) {
  registerCpuLoweringDependencies(registry);
  registerAmpDialects(registry);
  registry.insert<vector::VectorDialect>();
}

std::unique_ptr<ModelFile> ModelFile::open(StringRef path, MLIRContext *context,
                                           llvm::raw_ostream &errs) {
  std::string errorMessage;
  auto file = openInputFile(path, &errorMessage);
  if (!file) {
    errs << toolName << ": error: " << errorMessage << "\n";
    return nullptr;
  }
  context->printOpOnDiagnostic(false);
  std::unique_ptr<ModelFile> model(new ModelFile(path, context));
  model->sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
  return model;
}

OwningOpRef<ModuleOp> ModelFile::parse(llvm::raw_ostream &errs) {
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, context);
  if (!module)
    errs << toolName << ": error: cannot parse " << path << "\n";
  return module;
}

void mlir::amp::runner::setToolName(const char *name) { toolName = name; }
const char *mlir::amp::runner::getToolName() { return toolName; }

std::optional<std::pair<double, double>>
mlir::amp::runner::parseFloatRange(StringRef text) {
  return parseRange<double>(text);
}
std::optional<std::pair<int64_t, int64_t>>
mlir::amp::runner::parseIntRange(StringRef text) {
  return parseRange<int64_t>(text);
}

FailureOr<SmallVector<ArgumentShape>>
mlir::amp::runner::parseShapes(ArrayRef<std::string> specs,
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
      errs << toolName << ": error: invalid --shape '" << spec
           << "'; expected INDEX:DIMS, e.g. 0:1x3x224x224\n";
      return failure();
    }
    shapes.push_back(std::move(shape));
  }
  return shapes;
}

LogicalResult mlir::amp::runner::parsePipeline(StringRef text,
                                               OpPassManager &pm,
                                               StringRef option,
                                               llvm::raw_ostream &errs) {
  StringRef passes = text.trim();
  if (passes.consume_front("builtin.module(")) {
    if (!passes.consume_back(")")) {
      errs << toolName << ": error: unbalanced parentheses in " << option
           << "\n";
      return failure();
    }
  }
  std::string message;
  llvm::raw_string_ostream os(message);
  if (succeeded(parsePassPipeline(passes, pm, os)))
    return success();
  errs << toolName << ": error: invalid " << option << " '" << text
       << "': " << message;
  if (!StringRef(message).ends_with("\n"))
    errs << "\n";
  return failure();
}

LogicalResult mlir::amp::runner::lowerForCpu(ModuleOp module, StringRef what,
                                             TimingScope &timing,
                                             llvm::raw_ostream &errs) {
  TimingScope scope = timing.nest(("lower " + what).str());
  if (succeeded(runCpuLowering(module, scope)))
    return success();
  errs << toolName << ": error: cannot lower the " << what
       << " model for the CPU (see the diagnostics above)\n";
  return failure();
}

CrashGuard::CrashGuard(const char *context) {
  crashContext = context;
  struct sigaction action;
  std::memset(&action, 0, sizeof(action));
  action.sa_handler = onCrash;
  sigemptyset(&action.sa_mask);
  for (unsigned i = 0; i < kNumSignals; ++i)
    sigaction(kCrashSignals[i], &action, &previous[i]);
}

CrashGuard::~CrashGuard() {
  for (unsigned i = 0; i < kNumSignals; ++i)
    sigaction(kCrashSignals[i], &previous[i], nullptr);
  crashContext = nullptr;
}

FailureOr<PreparedModel>
mlir::amp::runner::prepareModel(ModuleOp module, const ModelSetup &setup,
                                llvm::raw_ostream &errs) {
  PreparedModel prepared;
  FailureOr<func::FuncOp> entry = findEntry(module, setup.entry);
  if (failed(entry))
    return failure();
  prepared.entryName = entry->getSymName().str();
  if (failed(specializeArgumentShapes(*entry, setup.shapes)))
    return failure();
  FailureOr<IsolationResult> isolation = isolateEntry(module, *entry);
  if (failed(isolation) || failed(verifyRunnableSignature(*entry)))
    return failure();
  prepared.isolation = std::move(*isolation);

  // Weights: constants are replaced now, arguments drawn like them below.
  SmallVector<std::optional<int64_t>> argumentFanIns(entry->getNumArguments());
  if (setup.randomizeWeights) {
    prepared.randomization = randomizeWeights(module, setup.seed);
    for (BlockArgument arg : entry->getArguments())
      if ((argumentFanIns[arg.getArgNumber()] =
               getWeightFanIn(arg, /*notFirstOperand=*/true)))
        ++prepared.numWeightArguments;
  }
  prepared.signature = getFunctionSignature(*entry);

  // The samples: from NumPy files, or one call on seeded random values
  // (weight arguments drawn like --randomize-weights draws weights).
  if (!setup.inputs.empty()) {
    llvm::Expected<std::vector<Sample>> loaded =
        loadSamples(setup.inputs, *entry, prepared.signature);
    if (!loaded) {
      errs << toolName << ": error: " << llvm::toString(loaded.takeError())
           << "\n";
      return failure();
    }
    prepared.samples = std::move(*loaded);
    return prepared;
  }
  InputDistribution distribution{setup.floatRange.first,
                                 setup.floatRange.second, setup.intRange.first,
                                 setup.intRange.second};
  Sample random;
  random.name = "random";
  for (auto [i, arg] : llvm::enumerate(prepared.signature.arguments)) {
    HostTensor input(arg.kind, arg.shape);
    // Weight arguments follow the weights' seed, the others the inputs'.
    RandomGenerator rng(
        argumentFanIns[i] ? setup.seed : setup.inputSeed.value_or(setup.seed),
        i);
    InputDistribution argDistribution = distribution;
    if (std::optional<int64_t> fanIn = argumentFanIns[i]) {
      argDistribution.floatHi = getHeUniformBound(*fanIn);
      argDistribution.floatLo = -argDistribution.floatHi;
    }
    fillRandom(input, rng, argDistribution);
    random.inputs.push_back(std::move(input));
  }
  prepared.samples.push_back(std::move(random));
  return prepared;
}

FailureOr<VersionRun> mlir::amp::runner::runVersion(JitFunction &fn,
                                                    ArrayRef<HostTensor> inputs,
                                                    unsigned runs,
                                                    const char *what,
                                                    llvm::raw_ostream &errs) {
  VersionRun version;
  std::vector<double> times;
  CrashGuard guard(what);
  for (unsigned i = 0; i < std::max(runs, 1u); ++i) {
    llvm::Expected<RunResult> result = fn.run(inputs);
    if (!result) {
      errs << toolName << ": error: cannot run " << what << ": "
           << llvm::toString(result.takeError()) << "\n";
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
