//===- Tuner.cpp - Accuracy-driven search for the ops kept in FP32 --------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "Tuner.h"

#include "amp/Analysis/ObservedRanges.h"
#include "amp/IR/AmpAttrs.h"
#include "amp/IR/AmpDialect.h"
#include "amp/Runner/Probes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/Timing.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <chrono>
#include <cmath>

using namespace mlir;
using namespace mlir::amp;
using namespace mlir::amp::runner;
using namespace mlir::amp::tune;

static constexpr llvm::StringLiteral kTagPrefix = "amp-tune#";

//===----------------------------------------------------------------------===//
// Tags
//===----------------------------------------------------------------------===//

/// Calls `fn` on every op inside a function of `module`, in pre-order.
static void forEachBodyOp(ModuleOp module,
                          llvm::function_ref<void(Operation *)> fn) {
  for (auto function : module.getOps<func::FuncOp>())
    function.getBody().walk<WalkOrder::PreOrder>(fn);
}

std::vector<Operation *> mlir::amp::tune::listOps(ModuleOp module) {
  std::vector<Operation *> ops;
  forEachBodyOp(module, [&](Operation *op) { ops.push_back(op); });
  return ops;
}

std::vector<Operation *> mlir::amp::tune::tagOps(ModuleOp module) {
  std::vector<Operation *> ops = listOps(module);
  MLIRContext *ctx = module.getContext();
  for (auto [index, op] : llvm::enumerate(ops))
    op->setLoc(NameLoc::get(
        StringAttr::get(ctx, (kTagPrefix + llvm::Twine(index)).str()),
        op->getLoc()));
  return ops;
}

static std::optional<unsigned> findTag(Location loc) {
  if (auto name = dyn_cast<NameLoc>(loc)) {
    StringRef text = name.getName().getValue();
    unsigned tag;
    if (text.consume_front(kTagPrefix) && !text.getAsInteger(10, tag))
      return tag;
    return findTag(name.getChildLoc());
  }
  if (auto fused = dyn_cast<FusedLoc>(loc)) {
    for (Location inner : fused.getLocations())
      if (std::optional<unsigned> tag = findTag(inner))
        return tag;
  }
  return std::nullopt;
}

std::optional<unsigned> mlir::amp::tune::getTag(Operation *op) {
  return findTag(op->getLoc());
}

/// True if `type` is a float ranked tensor or a float.
static bool isFloatValueType(Type type) {
  return isa<FloatType>(getElementTypeOrSelf(type)) &&
         (isa<FloatType>(type) || isa<RankedTensorType>(type));
}

static bool is16Bit(Type type) {
  Type element = getElementTypeOrSelf(type);
  return element.isF16() || element.isBF16();
}

std::vector<unsigned>
mlir::amp::tune::findLowOps(ModuleOp converted,
                            ArrayRef<Operation *> pristineOps) {
  llvm::DenseSet<unsigned> seen;
  std::vector<unsigned> tags;
  forEachBodyOp(converted, [&](Operation *op) {
    std::optional<unsigned> tag = getTag(op);
    if (!tag || *tag >= pristineOps.size() || op->getNumOperands() == 0 ||
        op->getName() != pristineOps[*tag]->getName())
      return;
    if (!llvm::any_of(op->getOperandTypes(), is16Bit) &&
        !llvm::any_of(op->getResultTypes(), is16Bit))
      return;
    if (seen.insert(*tag).second)
      tags.push_back(*tag);
  });
  llvm::sort(tags);
  return tags;
}

//===----------------------------------------------------------------------===//
// Probes that compare with the reference
//===----------------------------------------------------------------------===//

namespace {
/// Stores what the probes of the reference (ids [0, n)) and of the
/// converted model (ids [n, 2n)) see in one sample, then compares probe i
/// with probe n + i over every call, accumulated over the samples. The two
/// models may run at once: each id is written by one of them only.
class ErrorProbes : public ProbeSink {
public:
  explicit ErrorProbes(size_t numProbes)
      : numProbes(numProbes), stored(2 * numProbes), sums(numProbes) {}

  /// Forgets what the last sample's runs recorded.
  void start() {
    for (auto &calls : stored)
      calls.clear();
  }

  void observe(int64_t id, ArrayRef<double> values) override {
    if (id < 0 || static_cast<size_t>(id) >= stored.size())
      return;
    stored[id].emplace_back(values.begin(), values.end());
  }

  /// Adds the differences of this sample's runs to the sums.
  void compare() {
    for (size_t id = 0; id < numProbes; ++id) {
      const auto &referenceCalls = stored[id];
      const auto &convertedCalls = stored[numProbes + id];
      Sums &s = sums[id];
      for (size_t call = 0,
                  e = std::min(referenceCalls.size(), convertedCalls.size());
           call < e; ++call) {
        const std::vector<float> &ref = referenceCalls[call];
        const std::vector<float> &test = convertedCalls[call];
        if (ref.size() != test.size())
          continue;
        for (size_t i = 0, n = ref.size(); i < n; ++i) {
          double r = ref[i], t = test[i];
          if (!std::isfinite(r))
            continue;
          if (!std::isfinite(t)) {
            ++s.nonfinite;
            continue;
          }
          s.diff += (t - r) * (t - r);
          s.ref += r * r;
        }
      }
    }
  }

  /// Relative L2 error of probe `id` (infinity if it produced non-finite
  /// values where the reference did not).
  double error(size_t id) const {
    const Sums &s = sums[id];
    if (s.nonfinite)
      return INFINITY;
    if (s.ref == 0)
      return s.diff == 0 ? 0 : INFINITY;
    double e = std::sqrt(s.diff / s.ref);
    return std::isnan(e) ? INFINITY : e;
  }

private:
  struct Sums {
    double diff = 0, ref = 0;
    int64_t nonfinite = 0;
  };
  size_t numProbes;
  std::vector<std::vector<std::vector<float>>> stored; // id, call, element
  std::vector<Sums> sums;
};

double secondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
      .count();
}
} // namespace

//===----------------------------------------------------------------------===//
// Tuner
//===----------------------------------------------------------------------===//

Tuner::Tuner(ModuleOp prepared, const PreparedModel &model,
             ArrayRef<Operation *> pristineOps, const TunerConfig &config,
             llvm::raw_ostream &log, llvm::raw_ostream &errs)
    : prepared(prepared), model(model), pristineOps(pristineOps),
      config(config), log(log), errs(errs),
      builder(prepared, model, config.trials, errs) {}

Tuner::~Tuner() = default;

std::vector<OpAnnotation>
Tuner::keepInFP32(const llvm::DenseSet<unsigned> &keep) {
  MLIRContext *ctx = prepared.getContext();
  auto name = StringAttr::get(ctx, AmpDialect::ColorAttrHelper::getNameStr());
  auto red = ColorAttr::get(ctx, Color::red);
  std::vector<OpAnnotation> annotations;
  for (unsigned tag : keep)
    annotations.push_back({tag, name, red});
  llvm::sort(annotations, [](const OpAnnotation &a, const OpAnnotation &b) {
    return a.tag < b.tag;
  });
  return annotations;
}

Trial Tuner::evaluate(ArrayRef<std::vector<HostTensor>> outputs) {
  const SmallVector<std::string> &names = model.isolation.outputNames;
  std::vector<ErrorAccumulator> perOutput(names.size());
  for (auto [sample, sampleOutputs] : llvm::enumerate(outputs))
    for (size_t i = 0; i < names.size(); ++i)
      perOutput[i].add(reference[sample][i], sampleOutputs[i]);
  Trial trial;
  SmallVector<ErrorMetrics> metrics;
  for (const ErrorAccumulator &acc : perOutput) {
    metrics.push_back(acc.getMetrics());
    double e = metrics.back().relL2Err;
    trial.relL2 = std::isnan(e) ? e : std::max(trial.relL2, e);
  }
  SmallVector<std::string> nameList(names.begin(), names.end());
  trial.failures = checkTolerance(config.tolerance, nameList, metrics);
  trial.meets = trial.failures.empty();
  return trial;
}

LogicalResult Tuner::checkReference() {
  const SmallVector<std::string> &names = model.isolation.outputNames;
  bool degenerate = false;
  for (size_t i = 0; i < names.size(); ++i) {
    ErrorAccumulator self;
    for (const std::vector<HostTensor> &sampleOutputs : reference)
      self.add(sampleOutputs[i], sampleOutputs[i]);
    ErrorMetrics metrics = self.getMetrics();
    DegenerateReference kind = classifyReference(metrics);
    if (kind == DegenerateReference::None)
      continue;
    errs << "amp-tune: error: output " << names[i] << ": "
         << describeDegenerateReference(kind, metrics) << "\n";
    degenerate = true;
  }
  if (degenerate)
    errs << "amp-tune: a comparison with such an output is no evidence: "
            "every conversion would meet the tolerance on it, or none; "
            "nothing was tuned\n";
  return failure(degenerate);
}

FailureOr<Trial> Tuner::trial(const llvm::DenseSet<unsigned> &keep,
                              std::string what) {
  auto start = std::chrono::steady_clock::now();
  FailureOr<OwningOpRef<ModuleOp>> converted =
      builder.convert(keepInFP32(keep), what);
  if (failed(converted))
    return failure();
  double convertSeconds = secondsSince(start);
  unsigned lowOps = findLowOps(**converted, pristineOps).size();
  OwningOpRef<ModuleOp> rebuild;
  if (builder.checksRebuilds())
    rebuild = (*converted)->clone();
  OwningOpRef<ModuleOp> modules[] = {std::move(*converted)};
  auto functions = builder.compile(modules, {"converted"});
  if (failed(functions))
    return failure();
  double compileSeconds = secondsSince(start) - convertSeconds;
  auto outputs = builder.runSamples(*functions->front(), "the converted model");
  if (failed(outputs))
    return failure();
  double runSeconds = secondsSince(start) - convertSeconds - compileSeconds;
  if (rebuild &&
      failed(builder.checkRebuild(
          std::move(rebuild), *outputs,
          llvm::formatv("trial {0} ({1})", trials.size() + 1, what).str())))
    return failure();
  Trial result = evaluate(*outputs);
  result.low = lowOps;
  result.what = std::move(what);
  result.kept = keep.size();
  result.seconds = secondsSince(start);
  result.convertSeconds = convertSeconds;
  result.compileSeconds = compileSeconds;
  result.runSeconds = runSeconds;
  trials.push_back(result);
  report(result);
  return result;
}

void Tuner::report(const Trial &trial) {
  if (!config.progress)
    return;
  log << llvm::formatv("amp-tune: trial {0,2}: {1,-36} {2,4} ops in 16 bits, "
                       "rel_l2 {3,-9} {4} ({5:f1} s)\n",
                       trials.size(), trial.what, trial.low,
                       formatMetric(trial.relL2),
                       trial.meets ? "meets" : "misses", trial.seconds);
  log.flush();
}

llvm::DenseSet<unsigned> Tuner::topK(ArrayRef<Candidate> ranked, unsigned k) {
  llvm::DenseSet<unsigned> keep;
  for (const Candidate &c : ranked.take_front(k))
    keep.insert(c.tag);
  return keep;
}

LogicalResult Tuner::measureSensitivity(OwningOpRef<ModuleOp> converted,
                                        double convertSeconds,
                                        std::vector<Candidate> &candidates) {
  auto start = std::chrono::steady_clock::now();
  // The probe points: every float ranked-tensor result of a candidate, in
  // the reference (the prepared module) and in the converted module.
  llvm::DenseMap<unsigned, Operation *> referenceOps, convertedOps;
  llvm::DenseSet<unsigned> tags;
  for (const Candidate &c : candidates)
    tags.insert(c.tag);
  auto collect = [&](ModuleOp module,
                     llvm::DenseMap<unsigned, Operation *> &found) {
    forEachBodyOp(module, [&](Operation *op) {
      std::optional<unsigned> tag = getTag(op);
      if (tag && tags.contains(*tag) &&
          op->getName() == pristineOps[*tag]->getName())
        found[*tag] = op;
    });
  };
  OwningOpRef<ModuleOp> reference = prepared.clone();
  collect(*reference, referenceOps);
  collect(*converted, convertedOps);

  std::vector<ProbePoint> referencePoints, convertedPoints;
  std::vector<unsigned> probeCandidate; // probe id -> index in candidates
  for (auto [index, c] : llvm::enumerate(candidates)) {
    Operation *r = referenceOps.lookup(c.tag);
    Operation *t = convertedOps.lookup(c.tag);
    if (!r || !t || r->getNumResults() != t->getNumResults())
      continue;
    for (unsigned i = 0; i < r->getNumResults(); ++i) {
      if (!isa<RankedTensorType>(r->getResult(i).getType()) ||
          !isFloatValueType(r->getResult(i).getType()) ||
          !isa<RankedTensorType>(t->getResult(i).getType()) ||
          !isFloatValueType(t->getResult(i).getType()))
        continue;
      referencePoints.push_back({r, i});
      convertedPoints.push_back({t, i});
      probeCandidate.push_back(index);
    }
  }
  // The nearest candidates upstream of each, through other ops (found
  // before the reference is lowered).
  std::vector<SmallVector<unsigned, 2>> upstream(candidates.size());
  for (auto [c, found] : llvm::zip(candidates, upstream)) {
    Operation *op = referenceOps.lookup(c.tag);
    if (!op)
      continue;
    SmallVector<Operation *> work;
    llvm::DenseSet<Operation *> seen;
    auto push = [&](Operation *user) {
      for (Value operand : user->getOperands())
        if (Operation *def = operand.getDefiningOp())
          if (seen.insert(def).second)
            work.push_back(def);
    };
    push(op);
    while (!work.empty() && seen.size() < 256) {
      Operation *def = work.pop_back_val();
      std::optional<unsigned> tag = getTag(def);
      if (tag && tags.contains(*tag)) {
        found.push_back(*tag);
        continue;
      }
      push(def);
    }
  }
  // Both models in one compilation (their new kernels compiled together),
  // then both on each sample at once: probe ids [0, n) are the
  // reference's, [n, 2n) the converted model's.
  size_t numProbes = referencePoints.size();
  insertProbes(*reference, referencePoints);
  insertProbes(*converted, convertedPoints, numProbes);
  ErrorProbes probes(numProbes);
  probes.activate();
  OwningOpRef<ModuleOp> rebuilds[2];
  if (builder.checksRebuilds()) {
    rebuilds[0] = reference->clone();
    rebuilds[1] = converted->clone();
  }
  OwningOpRef<ModuleOp> modules[] = {std::move(reference),
                                     std::move(converted)};
  auto functions = builder.compile(
      modules, {"FP32 (with probes)", "converted (with probes)"});
  if (failed(functions))
    return failure();
  double compileSeconds = secondsSince(start);

  // The reference's outputs are kept for the trials.
  std::vector<std::vector<HostTensor>> convertedOutputs;
  for (size_t s = 0; s < model.samples.size(); ++s) {
    probes.start();
    RunRequest requests[] = {{(*functions)[0].get(), s},
                             {(*functions)[1].get(), s}};
    auto outputs = builder.run(requests, "the FP32 and converted models");
    if (failed(outputs))
      return failure();
    probes.compare();
    this->reference.push_back(std::move((*outputs)[0]));
    convertedOutputs.push_back(std::move((*outputs)[1]));
  }
  // (After the comparison: the rebuilt models' probes report too.)
  if (builder.checksRebuilds() &&
      (failed(builder.checkRebuild(std::move(rebuilds[0]), this->reference,
                                   "trial 1 (the FP32 model)")) ||
       failed(builder.checkRebuild(std::move(rebuilds[1]), convertedOutputs,
                                   "trial 1 (the converted model)"))))
    return failure();

  // Errors per candidate, then what each adds to the errors of the
  // candidates it reads.
  llvm::DenseMap<unsigned, double> errorByTag;
  for (auto [id, index] : llvm::enumerate(probeCandidate)) {
    Candidate &c = candidates[index];
    c.error = std::max(c.error, probes.error(id));
    errorByTag[c.tag] = c.error;
  }
  for (auto [c, upstreamTags] : llvm::zip(candidates, upstream)) {
    double inputError = 0;
    for (unsigned tag : upstreamTags)
      inputError = std::max(inputError, errorByTag.lookup(tag));
    if (std::isinf(c.error))
      c.sensitivity = std::isinf(inputError) ? 0 : INFINITY;
    else
      // Independent rounding errors add in quadrature.
      c.sensitivity =
          std::sqrt(std::max(0.0, c.error * c.error - inputError * inputError));
  }

  Trial all = evaluate(convertedOutputs);
  all.what = "every candidate in 16 bits";
  all.low = candidates.size();
  all.convertSeconds = convertSeconds;
  all.compileSeconds = compileSeconds;
  all.runSeconds = secondsSince(start) - compileSeconds;
  all.seconds = convertSeconds + secondsSince(start);
  trials.push_back(all);
  report(all);
  return success();
}

FailureOr<TuneResult> Tuner::run() {
  auto start = std::chrono::steady_clock::now();
  TuneResult result;

  if (failed(builder.initialize(getProbeSymbols())))
    return failure();

  // 1. The candidates: ops the unconstrained conversion runs in 16 bits.
  auto convertStart = std::chrono::steady_clock::now();
  FailureOr<OwningOpRef<ModuleOp>> converted = builder.convert({}, "the model");
  double convertSeconds = secondsSince(convertStart);
  if (failed(converted))
    return failure();
  for (unsigned tag : findLowOps(**converted, pristineOps)) {
    Candidate c;
    c.tag = tag;
    c.name = pristineOps[tag]->getName().getStringRef().str();
    c.location = describeLocation(pristineOps[tag]->getLoc());
    result.candidates.push_back(std::move(c));
  }
  llvm::sort(result.candidates, [](const Candidate &a, const Candidate &b) {
    return a.tag < b.tag;
  });
  if (config.progress)
    log << "amp-tune: " << result.candidates.size()
        << " ops run in 16 bits when nothing is kept in FP32\n";

  // 2. Sensitivity, with the reference's outputs; the FP32 model must
  // meet the tolerance itself.
  if (failed(measureSensitivity(std::move(*converted), convertSeconds,
                                result.candidates)) ||
      failed(checkReference()))
    return failure();
  {
    Trial self = evaluate(reference);
    if (!self.meets) {
      errs << "amp-tune: error: the tolerance cannot be met even with every "
              "op in FP32: the FP32 model compared with itself breaks it:\n";
      for (const std::string &failure : self.failures)
        errs << "  " << failure << "\n";
      return failure();
    }
  }
  std::stable_sort(result.candidates.begin(), result.candidates.end(),
                   [](const Candidate &a, const Candidate &b) {
                     return a.sensitivity > b.sensitivity ||
                            (a.sensitivity == b.sensitivity &&
                             a.error > b.error);
                   });
  unsigned n = result.candidates.size();
  auto finish = [&](unsigned kept) {
    result.kept = kept;
    for (const Trial &t : trials)
      if (t.meets && t.kept == kept) {
        result.low = t.low;
        result.chosen = t;
      }
    result.compilation = builder.getStatistics();
    result.threads = builder.getNumThreads();
    for (const Candidate &c : ArrayRef(result.candidates).take_front(kept))
      result.keptTags.push_back(c.tag);
    result.trials = trials;
    result.seconds = secondsSince(start);
    return result;
  };
  if (trials.back().meets || n == 0) {
    if (!trials.back().meets) {
      errs << "amp-tune: error: the conversion runs no op in 16 bits, and "
              "its outputs still miss the tolerance\n";
      return failure();
    }
    return finish(0);
  }

  // 3. Bisection over the ranking: `lo` kept misses, `hi` kept meets (all
  // of them kept is checked when the search gets there).
  unsigned lo = 0, hi = n;
  bool hiChecked = false;
  while (hi - lo > 1) {
    unsigned mid = lo + (hi - lo) / 2;
    FailureOr<Trial> t =
        trial(topK(result.candidates, mid),
              llvm::formatv("{0} most sensitive in FP32", mid).str());
    if (failed(t))
      return failure();
    if (t->meets) {
      hi = mid;
      hiChecked = true;
    } else {
      lo = mid;
    }
  }
  if (!hiChecked) {
    FailureOr<Trial> t =
        trial(topK(result.candidates, n), "every candidate in FP32");
    if (failed(t))
      return failure();
    if (!t->meets) {
      errs << "amp-tune: error: the outputs miss the tolerance even with "
              "every op the conversion would run in 16 bits kept in FP32 "
              "(the rest of the pipeline changes the model):\n";
      for (const std::string &failure : t->failures)
        errs << "  " << failure << "\n";
      return failure();
    }
  }

  // 4. Greedy: move kept ops back to 16 bits, least sensitive first.
  std::vector<Candidate> keptOps(result.candidates.begin(),
                                 result.candidates.begin() + hi);
  std::vector<Candidate> released;
  unsigned budget = config.refineTrials;
  // Moving back the least sensitive alone gives the `lo` set, which missed:
  // start with the one before it.
  for (size_t i = keptOps.size() - 1; i-- > 0 && budget > 0; --budget) {
    llvm::DenseSet<unsigned> keep;
    for (size_t j = 0; j < keptOps.size(); ++j)
      if (j != i)
        keep.insert(keptOps[j].tag);
    FailureOr<Trial> t = trial(keep, llvm::formatv("{0} in FP32, {1} back",
                                                   keep.size(), keptOps[i].name)
                                         .str());
    if (failed(t))
      return failure();
    if (t->meets) {
      released.push_back(keptOps[i]);
      keptOps.erase(keptOps.begin() + i);
    }
  }
  // The ranking with what stays in FP32 first.
  std::vector<Candidate> rest(result.candidates.begin() + hi,
                              result.candidates.end());
  llvm::append_range(rest, released);
  llvm::stable_sort(rest, [](const Candidate &a, const Candidate &b) {
    return a.sensitivity > b.sensitivity;
  });
  std::vector<Candidate> ranked = keptOps;
  llvm::append_range(ranked, rest);
  result.candidates = std::move(ranked);
  return finish(keptOps.size());
}

//===----------------------------------------------------------------------===//
// JSON
//===----------------------------------------------------------------------===//

static llvm::json::Value jsonNumber(double value) {
  if (!std::isfinite(value))
    return nullptr;
  return value;
}

llvm::json::Value mlir::amp::tune::toJson(const TuneResult &result,
                                          StringRef model, StringRef tolerance,
                                          unsigned samples,
                                          const FunctionSignature &inputs) {
  llvm::json::Array arguments;
  for (const TensorSignature &argument : inputs.arguments)
    arguments.push_back(formatShape(argument.shape) + "x" +
                        stringifyElementKind(argument.kind).str());
  llvm::json::Array trials, kept, candidates;
  for (auto [i, t] : llvm::enumerate(result.trials)) {
    llvm::json::Array failures;
    for (const std::string &f : t.failures)
      failures.push_back(f);
    trials.push_back(
        llvm::json::Object{{"trial", static_cast<int64_t>(i + 1)},
                           {"what", t.what},
                           {"kept_fp32", static_cast<int64_t>(t.kept)},
                           {"ops_16bit", static_cast<int64_t>(t.low)},
                           {"rel_l2", jsonNumber(t.relL2)},
                           {"meets", t.meets},
                           {"failures", std::move(failures)},
                           {"seconds", t.seconds},
                           {"convert_seconds", t.convertSeconds},
                           {"compile_seconds", t.compileSeconds},
                           {"run_seconds", t.runSeconds}});
  }
  for (auto [i, c] : llvm::enumerate(result.candidates)) {
    llvm::json::Object entry{{"op", c.name},
                             {"loc", c.location},
                             {"index", static_cast<int64_t>(c.tag)},
                             {"error", jsonNumber(c.error)},
                             {"sensitivity", jsonNumber(c.sensitivity)},
                             {"kept_fp32", i < result.kept}};
    candidates.push_back(std::move(entry));
  }
  double share = result.candidates.empty() ? 0.0
                                           : static_cast<double>(result.low) /
                                                 result.candidates.size();
  std::optional<double> relL2;
  if (result.chosen)
    relL2 = result.chosen->relL2;
  const runner::KernelCacheStatistics &compilation = result.compilation;
  return llvm::json::Object{
      {"model", model},
      {"inputs", std::move(arguments)},
      {"rel_l2", relL2 ? jsonNumber(*relL2) : llvm::json::Value(nullptr)},
      {"threads", static_cast<int64_t>(result.threads)},
      {"kernels_compiled", static_cast<int64_t>(compilation.kernelsCompiled)},
      {"kernels_reused", static_cast<int64_t>(compilation.kernelsReused)},
      {"kernels_in_parts", static_cast<int64_t>(compilation.kernelsInParts)},
      {"compile_seconds", compilation.compileSeconds},
      {"tolerance", tolerance},
      {"samples", static_cast<int64_t>(samples)},
      {"candidates", static_cast<int64_t>(result.candidates.size())},
      {"kept_fp32", static_cast<int64_t>(result.kept)},
      {"ops_16bit", static_cast<int64_t>(result.low)},
      {"share_16bit", share},
      {"seconds", result.seconds},
      {"trials", std::move(trials)},
      {"ops", std::move(candidates)}};
}
