//===- Tuner.h - Search for the ops to keep in FP32 -------------*- C++ -*-===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// amp-tune's search. The model is parsed once; every trial marks the ops it
// keeps in FP32 (`amp.color = red`) on a copy of the prepared module, which
// the TrialBuilder converts, compiles (only the kernels no earlier trial
// had) and runs on every sample; each output is compared with the FP32
// reference.
//
//  1. Candidates: the ops that the unconstrained conversion runs in 16 bits
//     (found by the op's location, tagged "amp-tune#<index>" before
//     preparation, index = position in a pre-order walk of the module).
//  2. Sensitivity: one run of the unconstrained conversion with a probe on
//     every candidate's result, beside the FP32 reference with the same
//     probes; an op's sensitivity is the relative L2 error of its result
//     less the largest error of the candidates it reads (directly or
//     through ops that are not candidates): the error it adds. A result
//     that is not finite where its inputs are ranks first.
//  3. Search: bisection over the ranking for the fewest most sensitive ops
//     kept in FP32 that meet the tolerance (the error is taken to fall as
//     more ops are kept), then, within the trial budget, a greedy pass that
//     tries to move each kept op back to 16 bits, least sensitive first.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_TOOLS_AMP_TUNE_TUNER_H
#define AMP_TOOLS_AMP_TUNE_TUNER_H

#include "TrialBuilder.h"

#include "amp/Runner/Comparison.h"
#include "amp/Runner/Tolerance.h"
#include "amp/Runner/ToolSupport.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/JSON.h"

#include <optional>
#include <string>
#include <vector>

namespace mlir {
namespace amp {
namespace tune {

/// What the tuner is asked to do.
struct TunerConfig {
  /// How trials are built (the pipeline among them).
  TrialOptions trials;
  SmallVector<runner::Bound> tolerance;
  /// Trials the greedy pass may spend after the bisection.
  unsigned refineTrials = 8;
  bool progress = true;
};

/// One op the conversion runs in 16 bits.
struct Candidate {
  unsigned tag;
  std::string name, location;
  /// Relative L2 error of its result(s) in the unconstrained conversion,
  /// and the error it adds (see the file comment).
  double error = 0, sensitivity = 0;
};

/// One trial.
struct Trial {
  std::string what;
  unsigned kept = 0; // candidates annotated to stay in FP32
  unsigned low = 0;  // candidates the conversion ran in 16 bits
  bool meets = false;
  /// The largest rel_l2 over the outputs, and the broken bounds.
  double relL2 = 0;
  SmallVector<std::string> failures;
  /// Wall time of the trial, and of its steps: the conversion, the
  /// lowering and compilation, the runs.
  double seconds = 0, convertSeconds = 0, compileSeconds = 0, runSeconds = 0;
};

/// The outcome.
struct TuneResult {
  std::vector<Candidate> candidates; // by sensitivity, most sensitive first
  unsigned kept = 0;                 // the first `kept` are kept in FP32
  unsigned low = 0; // candidates in 16 bits in the tuned conversion
  std::vector<Trial> trials;
  SmallVector<unsigned> keptTags; // what was kept, by tag
  double seconds = 0;
  /// The trial that kept what was kept and met the tolerance, if any.
  std::optional<Trial> chosen;
  /// What the trials' compilations did, on how many threads.
  runner::KernelCacheStatistics compilation;
  unsigned threads = 1;
};

/// Tags every op inside a function of `module` with its pre-order index (a
/// NameLoc "amp-tune#<index>" around its location) and returns the ops in
/// that order.
std::vector<Operation *> tagOps(ModuleOp module);
/// The ops of `module` in the order tagOps numbers them (for an untagged
/// copy of the same module).
std::vector<Operation *> listOps(ModuleOp module);
/// The tag of `op`, if it has one.
std::optional<unsigned> getTag(Operation *op);
/// The tags of the ops of `converted` that compute in 16 bits (16-bit
/// operands or results; not ops without operands, like tensor.empty, whose
/// values mean nothing) and have the name of the op they are tagged after.
std::vector<unsigned> findLowOps(ModuleOp converted,
                                 ArrayRef<Operation *> pristineOps);

/// The search over one prepared, tagged model.
class Tuner {
public:
  Tuner(ModuleOp prepared, const runner::PreparedModel &model,
        ArrayRef<Operation *> pristineOps, const TunerConfig &config,
        llvm::raw_ostream &log, llvm::raw_ostream &errs);
  ~Tuner();

  /// Runs the whole search. Fails after an error message.
  FailureOr<TuneResult> run();

  /// What the trials' compilations did (kernels compiled and reused).
  const runner::KernelCacheStatistics &getStatistics() const {
    return builder.getStatistics();
  }
  unsigned getNumThreads() const { return builder.getNumThreads(); }

private:
  /// The annotations of a trial that keeps `keep` in FP32.
  std::vector<OpAnnotation> keepInFP32(const llvm::DenseSet<unsigned> &keep);
  /// Runs a trial keeping `keep` in FP32 and records it.
  FailureOr<Trial> trial(const llvm::DenseSet<unsigned> &keep,
                         std::string what);
  /// Compares `outputs` (by sample) with the reference.
  Trial evaluate(ArrayRef<std::vector<runner::HostTensor>> outputs);
  /// Fails, with an error for each, if an output's reference cannot show
  /// an error (runner::classifyReference): tuning against it would accept
  /// any conversion.
  LogicalResult checkReference();
  /// Runs the FP32 and the unconstrained conversion (`converted`, which
  /// took `convertSeconds`) with probes and ranks `candidates`.
  LogicalResult measureSensitivity(OwningOpRef<ModuleOp> converted,
                                   double convertSeconds,
                                   std::vector<Candidate> &candidates);
  llvm::DenseSet<unsigned> topK(ArrayRef<Candidate> ranked, unsigned k);
  void report(const Trial &trial);

  ModuleOp prepared;
  const runner::PreparedModel &model;
  ArrayRef<Operation *> pristineOps;
  const TunerConfig &config;
  llvm::raw_ostream &log, &errs;
  TrialBuilder builder;
  std::vector<std::vector<runner::HostTensor>> reference; // by sample
  std::vector<Trial> trials;
};

/// The result as JSON (`amp-tune --json`); `inputs` is the entry's
/// signature, whose argument types are listed.
llvm::json::Value toJson(const TuneResult &result, StringRef model,
                         StringRef tolerance, unsigned samples,
                         const runner::FunctionSignature &inputs);

} // namespace tune
} // namespace amp
} // namespace mlir

#endif // AMP_TOOLS_AMP_TUNE_TUNER_H
