//===- amp-compile-bench.cpp - Time parsing and the pass, no printing -----===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The measuring tool of bench/compile/: parses (and verifies) a module, then
// optionally runs a pass pipeline and verifies again, and prints one JSON
// line with the number of ops, the time of each phase and the peak resident
// memory of the process. Nothing is printed back unless --print asks (to
// /dev/null, timed on its own), so that neither the pass's time nor its
// memory includes the printer. Run it once per configuration: the peak
// memory is that of the whole process.
//
//   amp-compile-bench model.mlir                      # parse + verify
//   amp-compile-bench model.mlir --pipeline='builtin.module(amp-mixed-precision)'
//   amp-compile-bench model.mlir --print              # parse + verify + print
//
//===----------------------------------------------------------------------===//

#include "amp/InitAmp.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <sys/resource.h>

using namespace mlir;

static llvm::cl::OptionCategory benchCategory("amp-compile-bench options");

static llvm::cl::opt<std::string> inputFile(llvm::cl::Positional,
                                            llvm::cl::cat(benchCategory), llvm::cl::desc("<input file>"),
                                            llvm::cl::Required);
static llvm::cl::opt<std::string>
    pipeline("pipeline", llvm::cl::cat(benchCategory), llvm::cl::desc("Pass pipeline to run after parsing"),
             llvm::cl::init(""));
static llvm::cl::opt<bool>
    dump("dump", llvm::cl::cat(benchCategory), llvm::cl::desc("Print the module at the end (to check what "
                                "was measured)"),
         llvm::cl::init(false));
static llvm::cl::opt<std::string> perfControl(
    "perf-control",
    llvm::cl::cat(benchCategory), llvm::cl::desc("A FIFO that `perf record --delay=-1 --control=fifo:FIFO` "
                   "reads: profiling is enabled for the pipeline's run only"),
    llvm::cl::init(""));
static llvm::cl::opt<bool> printOut(
    "print", llvm::cl::cat(benchCategory),
    llvm::cl::desc("Print the module to /dev/null after parsing (and after "
                   "the pipeline, if any), timed as print_s: the baseline "
                   "parse+print of bench/compile"),
    llvm::cl::init(false));
static llvm::cl::opt<bool>
    threads("use-threads", llvm::cl::cat(benchCategory), llvm::cl::desc("Let MLIR use its thread pool"),
            llvm::cl::init(false));

/// CPU time of the process (the machine may be shared: wall time is noisy,
/// and without threading the process runs on one thread).
static double cpuSeconds() {
  timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/// Runs `fn` and adds its wall and CPU seconds to `wall` and `cpu`.
template <typename Fn>
static auto timed(double &wall, double &cpu, Fn fn) {
  auto start = std::chrono::steady_clock::now();
  double cpuStart = cpuSeconds();
  auto result = fn();
  wall += std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                        start)
              .count();
  cpu += cpuSeconds() - cpuStart;
  return result;
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  amp::registerAmpPasses();
  // Upstream baselines for the same module (bench/compile: canonicalize, cse).
  registerCanonicalizerPass();
  registerCSEPass();
  llvm::cl::HideUnrelatedOptions(benchCategory);
  llvm::cl::ParseCommandLineOptions(argc, argv, "amp compile-time benchmark\n");

  DialectRegistry registry;
  registry.insert<arith::ArithDialect, bufferization::BufferizationDialect,
                  cf::ControlFlowDialect, func::FuncDialect,
                  linalg::LinalgDialect, math::MathDialect,
                  memref::MemRefDialect, scf::SCFDialect,
                  tensor::TensorDialect, tosa::TosaDialect>();
  amp::registerAmpDialects(registry);
  MLIRContext ctx(registry, threads ? MLIRContext::Threading::ENABLED
                                    : MLIRContext::Threading::DISABLED);
  ctx.loadAllAvailableDialects();

  auto file = llvm::MemoryBuffer::getFile(inputFile);
  if (!file) {
    llvm::errs() << "cannot read " << inputFile << "\n";
    return 1;
  }
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(*file), llvm::SMLoc());
  SourceMgrDiagnosticHandler diagHandler(sourceMgr, &ctx);

  double parseWall = 0, parseCpu = 0;
  OwningOpRef<ModuleOp> module = timed(parseWall, parseCpu, [&] {
    return parseSourceFile<ModuleOp>(sourceMgr,
                           ParserConfig(&ctx, /*verifyAfterParse=*/true));
  });
  if (!module)
    return 1;
  int64_t numOps = 0;
  module->walk([&](Operation *) { ++numOps; });

  double passWall = 0, passCpu = 0, verifyWall = 0, verifyCpu = 0;
  int64_t opsAfter = numOps;
  if (!pipeline.empty()) {
    // The pipeline names its anchor (`builtin.module(...)`); parsed into a
    // module pass manager it would nest a second one, which runs on nothing.
    FailureOr<OpPassManager> parsed = parsePassPipeline(pipeline, llvm::errs());
    if (failed(parsed))
      return 1;
    PassManager pm(&ctx, parsed->getOpAnchorName());
    static_cast<OpPassManager &>(pm) = std::move(*parsed);
    pm.enableVerifier(false); // Timed separately below.
    std::FILE *perf = nullptr;
    if (!perfControl.empty() &&
        !(perf = std::fopen(perfControl.c_str(), "w"))) {
      llvm::errs() << "error: cannot open the perf control file '"
                   << perfControl << "': " << std::strerror(errno) << "\n";
      return 1;
    }
    auto perfCommand = [&](const char *command) {
      if (perf) {
        std::fputs(command, perf);
        std::fflush(perf);
      }
    };
    perfCommand("enable\n");
    LogicalResult ran =
        timed(passWall, passCpu, [&] { return pm.run(*module); });
    perfCommand("disable\n");
    if (perf)
      std::fclose(perf);
    if (failed(ran))
      return 1;
    if (failed(timed(verifyWall, verifyCpu, [&] { return verify(*module); })))
      return 1;
    opsAfter = 0;
    module->walk([&](Operation *) { ++opsAfter; });
  }

  double printWall = 0, printCpu = 0;
  if (printOut) {
    std::error_code error;
    llvm::raw_fd_ostream null("/dev/null", error);
    if (error) {
      llvm::errs() << "error: cannot open /dev/null: " << error.message()
                   << "\n";
      return 1;
    }
    timed(printWall, printCpu, [&] {
      module->print(null);
      null.flush();
      return 0;
    });
  }
  if (dump)
    module->print(llvm::errs());
  struct rusage usage;
  getrusage(RUSAGE_SELF, &usage);
  auto f = [](double v) { return llvm::format("%.4f", v); };
  llvm::outs() << "{\"ops\": " << numOps << ", \"ops_after\": " << opsAfter
               << ", \"parse_s\": " << f(parseWall)
               << ", \"parse_cpu_s\": " << f(parseCpu)
               << ", \"pass_s\": " << f(passWall)
               << ", \"pass_cpu_s\": " << f(passCpu)
               << ", \"verify_after_s\": " << f(verifyWall)
               << ", \"verify_after_cpu_s\": " << f(verifyCpu)
               << ", \"print_s\": " << f(printWall)
               << ", \"print_cpu_s\": " << f(printCpu)
               << ", \"peak_rss_kb\": " << usage.ru_maxrss << "}\n";
  return 0;
}
