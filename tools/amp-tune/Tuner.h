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
//  3. Value: what an op saves in 16 bits by the cost model (CostModel.h,
//     modeled seconds on a GPU) per squared error it adds; the ops of
//     least value are the ones to keep in FP32 first.
//  4. Search: bisection over that ranking for the fewest ops of least
//     value kept in FP32 that meet the tolerance (the error is taken to
//     fall as more ops are kept), then, within the trial budget, a greedy
//     pass that tries to move each kept op back to 16 bits, most valuable
//     first.
//
// With an FP8 target (amp-mixed-precision{target-type=f8E4M3FN ...}) there
// are three levels, and the search runs in two stages:
//
//  a. The unconstrained FP8 conversion, with probes on every contraction
//     that runs in FP8 (the value its epilogue gives back): if it meets the
//     tolerance, nothing is tuned.
//  b. FP32 against 16 bits, as above, with every FP8 contraction moved to
//     the 16-bit type (`amp.precision<compute = f16, ...>`): the ops that
//     must stay in FP32 whatever the rest does.
//  c. FP8 against 16 bits, with (b)'s ops kept in FP32: the FP8
//     contractions are ranked by the error each adds per multiply-add it
//     runs, the bisection finds the fewest to move to 16 bits, and the
//     greedy pass tries to move the moved ones back to FP8, largest first
//     (the aim is the largest share of multiply-adds in FP8).
//
//===----------------------------------------------------------------------===//

#ifndef AMP_TOOLS_AMP_TUNE_TUNER_H
#define AMP_TOOLS_AMP_TUNE_TUNER_H

#include "CostModel.h"
#include "Search.h"
#include "TrialBuilder.h"

#include "amp/Analysis/ObservedRanges.h"
#include "amp/Runner/Comparison.h"
#include "amp/Runner/Tolerance.h"
#include "amp/Runner/ToolSupport.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/JSON.h"

#include <chrono>
#include <map>
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
  /// Trials that measure the output error of an op alone in 16 bits (the
  /// ops that save most first).
  unsigned impactTrials = 64;
  /// The level below 16 bits, if not FP8 (from the pipeline): contractions
  /// with weights in this weight-only format (docs/weight-only.md), e.g.
  /// "int4-g128", and its bits per weight.
  std::string weightFormat;
  unsigned weightBits = 0;
  /// The weight-only formats above it, lowest first, with their bits: a
  /// contraction that FMT costs too much moves to the lowest of them that
  /// meets, 16 bits only if none does (stage d in Tuner.h).
  SmallVector<std::pair<std::string, unsigned>> upperFormats;
  bool progress = true;
};

/// One op the conversion runs in 16 bits.
struct Candidate {
  unsigned tag;
  std::string name, location;
  /// Relative L2 error of its result(s) in the unconstrained conversion,
  /// and the error it adds (see the file comment).
  double error = 0, sensitivity = 0;
  /// Modeled seconds it saves in 16 bits (CostModel.h).
  double saving = 0;
  /// The largest rel_l2 over the outputs with it alone in 16 bits (every
  /// other candidate in FP32), and whether that met the tolerance; -1 if
  /// not measured.
  double impact = -1;
  bool aloneMeets = true;
};

/// One trial.
struct Trial {
  std::string what;
  unsigned kept = 0;    // candidates annotated to stay in FP32
  unsigned demoted = 0; // FP8 contractions annotated to run in 16 bits
  unsigned low = 0;     // candidates the conversion ran in 16 bits
  unsigned fp8 = 0;     // contractions the conversion ran in FP8
  /// Multiply-adds (estimated statically) of the ops in FP8 and in 16 bits.
  int64_t fp8Macs = 0, lowMacs = 0;
  /// Weight-only with upper formats: the contractions at each upper format
  /// (counted in `fp8`, `fp8Macs` too), by format index.
  SmallVector<unsigned, 2> upper;
  SmallVector<int64_t, 2> upperMacs;
  /// Modeled seconds of the model's ops at the precisions they ran at,
  /// the bytes they read and write, and the bytes of their constant
  /// operands (weights) among them (CostModel.h).
  double cost = 0, bytes = 0, weightBytes = 0;
  bool meets = false;
  /// The largest rel_l2 over the outputs, and the broken bounds.
  double relL2 = 0;
  SmallVector<std::string> failures;
  /// Wall time of the trial, and of its steps: the conversion, the
  /// lowering and compilation, the runs.
  double seconds = 0, convertSeconds = 0, compileSeconds = 0, runSeconds = 0;

  /// Takes what Tuner::count found of a conversion from `counts`.
  void takeCounts(const Trial &counts) {
    low = counts.low;
    fp8 = counts.fp8;
    fp8Macs = counts.fp8Macs;
    lowMacs = counts.lowMacs;
    upper = counts.upper;
    upperMacs = counts.upperMacs;
    cost = counts.cost;
    bytes = counts.bytes;
    weightBytes = counts.weightBytes;
  }
};

/// The outcome.
struct TuneResult {
  std::vector<Candidate> candidates; // kept first, then by value (least first)
  unsigned kept = 0;                 // the first `kept` are kept in FP32
  unsigned low = 0; // candidates in 16 bits in the tuned conversion
  std::vector<Trial> trials;
  SmallVector<unsigned> keptTags; // what was kept, by tag
  /// With an FP8 target: the FP8 type, the 16-bit type, the contractions
  /// that ran in FP8 with the ops above kept (by the error they add per
  /// multiply-add, the moved ones first), and those moved to 16 bits.
  Type fp8Type, lowType;
  /// The level below 16 bits as reports name it: the FP8 type, or the
  /// weight-only format; empty if the search had two levels.
  std::string subName;
  std::vector<Candidate> fp8Candidates;
  SmallVector<unsigned> demotedTags;
  /// Of `demotedTags`, those at an upper weight-only format (stage d), by
  /// tag: the format's index in TunerConfig::upperFormats.
  std::map<unsigned, unsigned> upperFormatOf;
  /// The upper weight-only formats (TunerConfig::upperFormats), lowest
  /// first.
  SmallVector<std::string> upperFormats;
  /// Multiply-adds of the model's ops that have an estimate.
  int64_t totalMacs = 0;
  /// Modeled seconds with every op in FP32, and with nothing kept (the
  /// unconstrained conversion, the first trial).
  double fp32Cost = 0, lowestCost = 0;
  double seconds = 0;
  /// The trial that kept what was kept and met the tolerance, if any.
  std::optional<Trial> chosen;
  /// What the trials' compilations did, on how many threads.
  runner::KernelCacheStatistics compilation;
  unsigned threads = 1;
};

/// Tags every op inside a function of `module` with its pre-order index (a
/// fused location around its own, with metadata "amp-tune#<index>") and
/// returns the ops in that order.
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
/// The tags of the ops of `converted` that compute in FP8 (an FP8 operand,
/// no FP8 result: the contractions, not the narrowings before them).
std::vector<unsigned> findFP8Ops(ModuleOp converted,
                                 ArrayRef<Operation *> pristineOps);
/// The tags of the ops of `converted` that read a weight-only weight (an
/// operand made by a linalg.generic from a constant of 8 bits or fewer).
std::vector<unsigned> findWeightOnlyOps(ModuleOp converted,
                                        ArrayRef<Operation *> pristineOps);
/// The multiply-adds an op performs, if its model estimates them.
std::optional<int64_t> estimateMacs(Operation *op);
/// Calls `fn` on every op inside a function of `module`, in pre-order.
void forEachBodyOp(ModuleOp module, llvm::function_ref<void(Operation *)> fn);
/// True if `type` is a float ranked tensor or a float.
bool isFloatValueType(Type type);
/// True if `type` or its element type is an FP8 type.
bool isFP8(Type type);
/// Seconds since `start` on the steady clock.
double secondsSince(std::chrono::steady_clock::time_point start);

/// The search over one prepared, tagged model.
class Tuner {
public:
  Tuner(ModuleOp prepared, const runner::PreparedModel &model,
        ArrayRef<Operation *> pristineOps, const TunerConfig &config,
        llvm::raw_ostream &log, llvm::raw_ostream &errs);
  ~Tuner();

  /// Records the ranges of the FP32 model's values on the samples (as
  /// `amp-run --calibrate` does), for FP8 scales when the user has no
  /// calibration of their own. Fails after an error message.
  FailureOr<ObservedRanges> calibrate();

  /// Runs the whole search. Fails after an error message.
  FailureOr<TuneResult> run();

  /// The annotations that give `result`'s conversion: its kept ops red,
  /// its moved contractions in 16 bits.
  std::vector<OpAnnotation> getAnnotations(const TuneResult &result) {
    TagSet red(result.keptTags.begin(), result.keptTags.end());
    TagSet demoted(result.demotedTags.begin(), result.demotedTags.end());
    return annotate(red, demoted);
  }

  /// What the trials' compilations did (kernels compiled and reused).
  const runner::KernelCacheStatistics &getStatistics() const {
    return builder.getStatistics();
  }
  unsigned getNumThreads() const { return builder.getNumThreads(); }

private:
  using TagSet = ItemSet;
  /// The annotations of a trial that keeps `red` in FP32 and moves the FP8
  /// contractions `demoted` to 16 bits.
  std::vector<OpAnnotation> annotate(const TagSet &red,
                                     const TagSet &demoted = {});
  /// Runs that trial and records it.
  FailureOr<Trial> trial(const TagSet &red, const TagSet &demoted,
                         std::string what);
  /// Runs that trial: whether it met the tolerance.
  FailureOr<bool> meets(const TagSet &red, const TagSet &demoted,
                        std::string what);
  /// Compares `outputs` (by sample) with the reference.
  Trial evaluate(ArrayRef<std::vector<runner::HostTensor>> outputs);
  /// The contractions of `converted` at the level below 16 bits (FP8, or
  /// weight-only).
  std::vector<unsigned> findSubOps(ModuleOp converted);
  /// The level below 16 bits in trial names: "FP8", or the weight-only
  /// format.
  std::string subWord() const {
    return config.weightFormat.empty() ? "FP8" : config.weightFormat;
  }
  /// Counts what `converted` runs in FP8 and in 16 bits into `trial`.
  void count(ModuleOp converted, Trial &trial);
  /// Fails, with an error for each, if an output's reference cannot show
  /// an error (runner::classifyReference): tuning against it would accept
  /// any conversion.
  LogicalResult checkReference();
  /// Runs the FP32 model and `converted` (which took `convertSeconds`)
  /// with probes on `candidates` (FP8 contractions with `fp8`: probed after
  /// their epilogue) and ranks them; the first call keeps the FP32 outputs
  /// as the reference. Records the run as a trial named `what`.
  LogicalResult measureSensitivity(OwningOpRef<ModuleOp> converted,
                                   double convertSeconds,
                                   std::vector<Candidate> &candidates, bool fp8,
                                   const TagSet &red, const TagSet &demoted,
                                   std::string what);
  /// Stage (b) or the whole 16-bit search: the ops to keep in FP32 with
  /// `demoted` in 16 bits, from `converted` (that conversion). Sets the
  /// result's candidates and kept ops.
  LogicalResult searchFP32(OwningOpRef<ModuleOp> converted,
                           double convertSeconds, const TagSet &demoted,
                           TuneResult &result);
  /// Stage (c): the FP8 contractions to move to 16 bits, with `red` in
  /// FP32; `ranked` holds their sensitivities if `measured`.
  LogicalResult searchFP8(const TagSet &red, bool measured, TuneResult &result);
  /// Stage (d), weight-only with upper formats: of the contractions (c)
  /// moved to 16 bits, the most that can take each upper format instead,
  /// lowest first (UpperFormats.cpp).
  LogicalResult searchUpperFormats(const TagSet &red, TuneResult &result);
  /// Measures the impact of the candidates that save most in 16 bits
  /// (CostSearch.cpp), with `demoted` in 16 bits.
  LogicalResult measureImpacts(std::vector<Candidate> &candidates,
                               const TagSet &demoted, StringRef suffix);
  /// Ranks `candidates` by value (measuring impacts) and bisects the
  /// ranking: how many of them, least value first, to keep in FP32 for the
  /// tolerance. Fails after an error message, also when keeping all of
  /// them misses.
  FailureOr<unsigned> bisectByValue(std::vector<Candidate> &candidates,
                                    const TagSet &demoted, StringRef suffix);
  TagSet topK(ArrayRef<Candidate> ranked, unsigned k);
  /// Sets up the builder on first use.
  LogicalResult initialize();
  void report(const Trial &trial);

  ModuleOp prepared;
  const runner::PreparedModel &model;
  ArrayRef<Operation *> pristineOps;
  const TunerConfig &config;
  llvm::raw_ostream &log, &errs;
  TrialBuilder builder;
  std::vector<std::vector<runner::HostTensor>> reference; // by sample
  std::vector<Trial> trials;
  /// The 16-bit type FP8 contractions move to (the conversion's own).
  Type lowType;
  /// Multiply-adds by tag (ops with an estimate).
  llvm::DenseMap<unsigned, int64_t> macs;
  /// What the cost model knows of each op, by tag.
  llvm::DenseMap<unsigned, OpWork> opWork;
  bool fp8Search = false, initialized = false;
  /// Whether trials are recorded without a progress line each.
  bool quietTrials = false;
  /// The moved contractions at an upper weight-only format in the trials
  /// being run (stage d): tag -> index in TunerConfig::upperFormats. The
  /// others moved are in 16 bits.
  std::map<unsigned, unsigned> upperFormatOf;
};

/// What running `c` in 16 bits is worth per unit of the error budget it
/// spends (CostSearch.cpp).
double getValue(const Candidate &c);
/// Orders `candidates` to be kept in FP32 first-come: the least value
/// first, the most sensitive first among equals.
void rankByValue(std::vector<Candidate> &candidates);

/// The result as JSON (`amp-tune --json`); `inputs` is the entry's
/// signature, whose argument types are listed.
llvm::json::Value toJson(const TuneResult &result, StringRef model,
                         StringRef tolerance, unsigned samples,
                         const runner::FunctionSignature &inputs);

} // namespace tune
} // namespace amp
} // namespace mlir

#endif // AMP_TOOLS_AMP_TUNE_TUNER_H
