//===- amp-graphgen.cpp - Generate graphs and check amp on them -----------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The standalone driver of the structured generator (no libFuzzer needed):
//
//   amp-graphgen --seed=S --count=N [--time-limit=SECONDS] [--save-dir=DIR]
//       generates N graphs from seeds S, S+1, ..., checks each (GraphCheck.h)
//       and prints a summary; a failing case is printed with its seed (and
//       saved to DIR/seed-<S>.mlir). Exit code 1 if any case failed.
//   amp-graphgen --seed=S --print
//       prints the module of seed S (after annotation), to reproduce a case
//       with amp-opt.
//   --numerics=CMD
//       for graphs of at most --numerics-max-ops ops, generated for execution
//       (no dynamic shapes, memrefs or unregistered ops), also runs
//       `CMD <module.mlir>`; a non-zero exit is a failure. CMD compares the
//       FP32 module with its conversion by executing both:
//       --numerics="fuzz/check-numerics.py build/bin/amp-run".
//
// A crash prints the seed being checked.
//
//===----------------------------------------------------------------------===//

#include "FuzzCommon.h"
#include "GraphCheck.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/raw_ostream.h"

#include <atomic>
#include <chrono>
#include <cstdio>

using namespace llvm;
using namespace mlir::amp::fuzz;

static cl::OptionCategory graphgenCategory("amp-graphgen options");

static cl::opt<uint64_t> seedOption("seed", cl::cat(graphgenCategory), cl::desc("First seed"),
                                    cl::init(1));
static cl::opt<uint64_t> countOption("count", cl::cat(graphgenCategory), cl::desc("Number of graphs"),
                                     cl::init(100));
static cl::opt<unsigned>
    timeLimit("time-limit",
              cl::cat(graphgenCategory), cl::desc("Stop after this many seconds (0: no limit)"),
              cl::init(0));
static cl::opt<bool> printOnly("print",
                               cl::cat(graphgenCategory), cl::desc("Print the module of --seed and exit"));
static cl::opt<std::string>
    saveDir("save-dir", cl::cat(graphgenCategory), cl::desc("Save failing modules to this directory"));
static cl::opt<unsigned> maxOps("max-ops",
                                cl::cat(graphgenCategory), cl::desc("Most ops per function"),
                                cl::init(24));
static cl::opt<bool> noAnnotations("no-annotations",
                                   cl::cat(graphgenCategory), cl::desc("Do not add amp annotations"));
static cl::opt<std::string> numericsCommand(
    "numerics", cl::cat(graphgenCategory), cl::desc("Command that checks the numerics of a module"));
static cl::opt<unsigned>
    numericsMaxOps("numerics-max-ops",
                   cl::cat(graphgenCategory), cl::desc("Largest graph (ops) checked with --numerics"),
                   cl::init(40));
static cl::opt<bool> quiet("quiet", cl::cat(graphgenCategory), cl::desc("Print only the summary"));

/// The seed being checked, for the crash handler.
static std::atomic<uint64_t> currentSeed{0};

static void printSeedOnCrash(void *) {
  fprintf(stderr, "amp-graphgen: crashed on seed %llu (reproduce with "
                  "amp-graphgen --seed=%llu --print)\n",
          static_cast<unsigned long long>(currentSeed.load()),
          static_cast<unsigned long long>(currentSeed.load()));
}

/// Generator options for `seed`: every fourth graph may hold unregistered
/// ops, and every third is made executable when --numerics is given.
static GeneratorOptions optionsFor(uint64_t seed) {
  GeneratorOptions options;
  options.maxOpsPerFunction = maxOps;
  options.unregisteredOps = seed % 4 == 0;
  options.executable = !numericsCommand.empty() && seed % 3 == 0;
  return options;
}

static bool runNumerics(const CaseResult &result, uint64_t seed,
                        std::string &why) {
  SmallString<128> path;
  if (sys::fs::createTemporaryFile("amp-graphgen", "mlir", path)) {
    why = "cannot create a temporary file";
    return false;
  }
  {
    std::error_code ec;
    raw_fd_ostream os(path, ec);
    os << result.input;
  }
  SmallVector<StringRef> argv;
  SmallVector<std::string> words;
  for (StringRef word : llvm::split(StringRef(numericsCommand), " "))
    if (!word.empty())
      words.push_back(word.str());
  words.push_back(path.str().str());
  for (const std::string &w : words)
    argv.push_back(w);
  ErrorOr<std::string> program = sys::findProgramByName(argv[0]);
  if (!program) {
    why = "cannot find " + argv[0].str();
    return false;
  }
  std::string error;
  int rc = sys::ExecuteAndWait(*program, argv, std::nullopt, {}, 120, 0,
                               &error);
  sys::fs::remove(path);
  if (rc != 0) {
    why = "numerics check failed (exit " + std::to_string(rc) + ") " + error;
    return false;
  }
  return true;
}

int main(int argc, char **argv) {
  InitLLVM init(argc, argv);
  cl::HideUnrelatedOptions(graphgenCategory);
  cl::ParseCommandLineOptions(argc, argv,
                              "amp-graphgen: random FP32 graphs for amp\n");
  sys::AddSignalHandler(printSeedOnCrash, nullptr);
  mlir::DialectRegistry registry;
  registerFuzzDialects(registry);

  if (printOnly) {
    // Generate, parse and annotate exactly as a checked case does, but do
    // not run the pass: print the module the pass would see.
    SeededEntropy entropy(seedOption);
    CaseResult result = runGeneratedCase(entropy, optionsFor(seedOption),
                                         !noAnnotations, /*check=*/false);
    outs() << result.input;
    if (!result.generatorError.empty()) {
      errs() << "generator error: " << result.generatorError << "\n";
      return 1;
    }
    return 0;
  }

  auto start = std::chrono::steady_clock::now();
  uint64_t graphs = 0, ops = 0, failures = 0, generatorErrors = 0,
           numericsRun = 0;
  for (uint64_t seed = seedOption; seed < seedOption + countOption; ++seed) {
    if (timeLimit) {
      double elapsed = std::chrono::duration<double>(
                           std::chrono::steady_clock::now() - start)
                           .count();
      if (elapsed > timeLimit)
        break;
    }
    currentSeed = seed;
    SeededEntropy entropy(seed);
    GeneratorOptions options = optionsFor(seed);
    CaseResult result = runGeneratedCase(entropy, options, !noAnnotations);
    ++graphs;
    ops += result.numOps;
    bool failed = false;
    if (!result.generatorError.empty()) {
      ++generatorErrors;
      errs() << "seed " << seed << ": generator error: "
             << result.generatorError << "\n";
      failed = true;
    }
    for (const Violation &v : result.violations) {
      errs() << "seed " << seed << ": [" << v.optionSet << "] " << v.what
             << "\n";
      failed = true;
    }
    if (!failed && options.executable && result.numOps <= numericsMaxOps) {
      std::string why;
      ++numericsRun;
      if (!runNumerics(result, seed, why)) {
        errs() << "seed " << seed << ": " << why << "\n";
        failed = true;
      }
    }
    if (failed) {
      ++failures;
      if (!saveDir.empty()) {
        sys::fs::create_directories(saveDir);
        SmallString<128> path(saveDir);
        sys::path::append(path, "seed-" + std::to_string(seed) + ".mlir");
        std::error_code ec;
        raw_fd_ostream os(path, ec);
        os << result.input;
      }
    }
    if (!quiet && graphs % 1000 == 0)
      errs() << "... " << graphs << " graphs, " << failures << " failing\n";
  }
  double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  outs() << "amp-graphgen: " << graphs << " graphs (" << ops
         << " ops generated, " << getOptionSets().size()
         << " option sets each), " << failures << " failing ("
         << generatorErrors << " generator errors), " << numericsRun
         << " numerics checks, " << format("%.1f", seconds) << " s\n";
  return failures ? 1 : 0;
}
