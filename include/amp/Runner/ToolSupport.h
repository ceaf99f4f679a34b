//===- ToolSupport.h - What amp-run and amp-tune share -----------*- C++
//-*-===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The steps both runner tools take: open and parse the model, parse the
// model options and the pipeline, prepare the
// entry (shapes, harness, weights), make the samples (NumPy files or seeded
// random values), lower for the CPU, JIT-compile and run under a crash guard.
// Errors are written as "<tool>: error: ..." with the name given to
// setToolName.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_RUNNER_TOOLSUPPORT_H
#define AMP_RUNNER_TOOLSUPPORT_H

#include "amp/Runner/JitFunction.h"
#include "amp/Runner/ModelPreparation.h"
#include "amp/Runner/Samples.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/Timing.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <csignal>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mlir {
namespace amp {
namespace runner {

/// The name errors and crash reports start with ("amp-run").
void setToolName(const char *name);
const char *getToolName();

/// "lo,hi" with lo < hi, or nullopt.
std::optional<std::pair<double, double>> parseFloatRange(StringRef text);
std::optional<std::pair<int64_t, int64_t>> parseIntRange(StringRef text);

/// Parses --shape options (INDEX:DIMS).
FailureOr<SmallVector<ArgumentShape>> parseShapes(ArrayRef<std::string> specs,
                                                  llvm::raw_ostream &errs);

/// Parses a textual pipeline into `pm`; "builtin.module(...)" and a bare list
/// of passes are both accepted. `option` names it in errors.
LogicalResult parsePipeline(StringRef text, OpPassManager &pm, StringRef option,
                            llvm::raw_ostream &errs);

/// The dialects of a tool that runs models on the CPU: the CPU lowering's,
/// amp's, and vector (harness code in models prints with vector.print).
void registerToolDialects(DialectRegistry &registry);

/// A model file to parse. While it lives, diagnostics of `context` point at
/// its source lines (the op dump would repeat the model: it is off).
class ModelFile {
public:
  /// Opens `path`; null, with an error on `errs`, when it cannot.
  static std::unique_ptr<ModelFile> open(StringRef path, MLIRContext *context,
                                         llvm::raw_ostream &errs);
  /// Parses the model; null, with an error on `errs`, when it does not.
  OwningOpRef<ModuleOp> parse(llvm::raw_ostream &errs);

private:
  ModelFile(StringRef path, MLIRContext *context)
      : path(path.str()), context(context), diagnostics(sourceMgr, context) {}
  std::string path;
  MLIRContext *context;
  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler diagnostics;
};

/// Runs the CPU lowering on `module`; `what` names it in errors.
LogicalResult lowerForCpu(ModuleOp module, StringRef what, TimingScope &timing,
                          llvm::raw_ostream &errs);

/// While alive, a crash of compiled code (SIGSEGV, SIGBUS, SIGFPE, SIGILL,
/// SIGABRT) prints one line naming `context` and exits with status 2.
class CrashGuard {
public:
  explicit CrashGuard(const char *context);
  ~CrashGuard();

private:
  static constexpr unsigned kNumSignals = 5;
  struct sigaction previous[kNumSignals];
};

/// How a model is made runnable and fed.
struct ModelSetup {
  std::string entry;                 // empty: the only candidate
  SmallVector<ArgumentShape> shapes; // for dynamic arguments
  bool randomizeWeights = false;
  uint64_t seed = 0;
  /// The seed of random inputs that are not weights, if not `seed`.
  std::optional<uint64_t> inputSeed;
  std::pair<double, double> floatRange{-1.0, 1.0};
  std::pair<int64_t, int64_t> intRange{0, 2};
  std::string inputs; // NumPy file or folder; empty: seeded random values
};

/// A model prepared for running, with its samples.
struct PreparedModel {
  std::string entryName;
  IsolationResult isolation;
  FunctionSignature signature;
  WeightRandomization randomization;
  unsigned numWeightArguments = 0;
  std::vector<Sample> samples;
};

/// Prepares `module` in place (entry, shapes, harness, weights) and makes the
/// samples. Errors are reported (diagnostics or `errs`).
FailureOr<PreparedModel> prepareModel(ModuleOp module, const ModelSetup &setup,
                                      llvm::raw_ostream &errs);

/// What one version did on one sample.
struct VersionRun {
  std::vector<HostTensor> outputs;
  double medianMs = 0.0;
};

/// Runs `fn` `runs` times on `inputs` under a CrashGuard naming `what`.
FailureOr<VersionRun> runVersion(JitFunction &fn, ArrayRef<HostTensor> inputs,
                                 unsigned runs, const char *what,
                                 llvm::raw_ostream &errs);

} // namespace runner
} // namespace amp
} // namespace mlir

#endif // AMP_RUNNER_TOOLSUPPORT_H
