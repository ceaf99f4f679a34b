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
#include "amp/IR/AmpInterfaces.h"
#include "amp/Runner/Calibration.h"
#include "amp/Runner/Probes.h"
#include "amp/Utils/FloatConversion.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/Timing.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>

using namespace mlir;
using namespace mlir::amp;
using namespace mlir::amp::runner;
using namespace mlir::amp::tune;

//===----------------------------------------------------------------------===//
// Tuner
//===----------------------------------------------------------------------===//

Tuner::Tuner(ModuleOp prepared, const PreparedModel &model,
             ArrayRef<Operation *> pristineOps, const TunerConfig &config,
             llvm::raw_ostream &log, llvm::raw_ostream &errs)
    : prepared(prepared), model(model), pristineOps(pristineOps),
      config(config), log(log), errs(errs),
      builder(prepared, model, config.trials, errs) {
  // Multiply-adds of the ops the entry runs: its own and those of the
  // functions it calls (not, say, a @main that calls it with test data).
  SmallVector<func::FuncOp> work;
  llvm::DenseSet<Operation *> seen;
  if (auto entry = prepared.lookupSymbol<func::FuncOp>(model.entryName))
    work.push_back(entry);
  while (!work.empty()) {
    func::FuncOp function = work.pop_back_val();
    if (!seen.insert(function).second)
      continue;
    function.walk([&](Operation *op) {
      if (auto call = dyn_cast<func::CallOp>(op))
        if (auto callee = prepared.lookupSymbol<func::FuncOp>(call.getCallee()))
          work.push_back(callee);
      std::optional<unsigned> tag = getTag(op);
      if (!tag || *tag >= pristineOps.size())
        return;
      if (std::optional<int64_t> n = estimateMacs(pristineOps[*tag]);
          n && *n > 0)
        macs[*tag] = *n;
      if (OpWork w = measureWork(pristineOps[*tag]); w.macs || w.elements)
        opWork[*tag] = w;
    });
  }
}

Tuner::~Tuner() = default;

std::vector<OpAnnotation> Tuner::annotate(const TagSet &red,
                                          const TagSet &demoted) {
  MLIRContext *ctx = prepared.getContext();
  auto colorName =
      StringAttr::get(ctx, AmpDialect::ColorAttrHelper::getNameStr());
  auto precisionName =
      StringAttr::get(ctx, AmpDialect::PrecisionAttrHelper::getNameStr());
  auto redAttr = ColorAttr::get(ctx, Color::red);
  std::vector<OpAnnotation> annotations;
  for (unsigned tag : red)
    annotations.push_back({tag, colorName, redAttr});
  if (!demoted.empty()) {
    // Moved to 16 bits: the 16-bit compute type, or weights kept in it.
    Attribute lowAttr = config.weightFormat.empty()
                            ? Attribute(PrecisionAttr::get(
                                  ctx, Float32Type::get(ctx), lowType, lowType))
                            : Attribute(WeightsAttr::get(ctx, "none"));
    auto name =
        config.weightFormat.empty()
            ? precisionName
            : StringAttr::get(ctx, AmpDialect::WeightsAttrHelper::getNameStr());
    for (unsigned tag : demoted) {
      if (red.contains(tag))
        continue;
      auto upper = upperFormatOf.find(tag);
      annotations.push_back(
          {tag, name,
           upper == upperFormatOf.end()
               ? lowAttr
               : WeightsAttr::get(ctx,
                                  config.upperFormats[upper->second].first)});
    }
  }
  llvm::sort(annotations, [](const OpAnnotation &a, const OpAnnotation &b) {
    return a.tag < b.tag;
  });
  return annotations;
}

std::vector<unsigned> Tuner::findSubOps(ModuleOp converted) {
  return config.weightFormat.empty()
             ? findFP8Ops(converted, pristineOps)
             : findWeightOnlyOps(converted, pristineOps);
}

void Tuner::count(ModuleOp converted, Trial &trial) {
  TagSet fp8;
  for (unsigned tag : findSubOps(converted)) {
    fp8.insert(tag);
    trial.fp8Macs += macs.lookup(tag);
  }
  trial.fp8 = fp8.size();
  trial.low = 0;
  TagSet low;
  for (unsigned tag : findLowOps(converted, pristineOps)) {
    if (fp8.contains(tag))
      continue;
    low.insert(tag);
    ++trial.low;
    trial.lowMacs += macs.lookup(tag);
  }
  trial.cost = 0;
  CostLevel sub =
      config.weightFormat.empty() ? CostLevel::FP8 : CostLevel::WeightOnly;
  trial.bytes = trial.weightBytes = 0;
  trial.upper.assign(config.upperFormats.size(), 0);
  trial.upperMacs.assign(config.upperFormats.size(), 0);
  for (auto [tag, w] : opWork) {
    CostLevel level = fp8.contains(tag)   ? sub
                      : low.contains(tag) ? CostLevel::Bits16
                                          : CostLevel::FP32;
    unsigned bits = config.weightBits;
    if (auto upper = upperFormatOf.find(tag);
        fp8.contains(tag) && upper != upperFormatOf.end()) {
      bits = config.upperFormats[upper->second].second;
      ++trial.upper[upper->second];
      trial.upperMacs[upper->second] += macs.lookup(tag);
    }
    trial.cost += estimateSeconds(w, level, bits);
    trial.bytes += estimateBytes(w, level, bits);
    OpWork weights;
    weights.elements = weights.weightElements = w.weightElements;
    trial.weightBytes += estimateBytes(weights, level, bits);
  }
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

FailureOr<Trial> Tuner::trial(const TagSet &red, const TagSet &demoted,
                              std::string what) {
  auto start = std::chrono::steady_clock::now();
  FailureOr<OwningOpRef<ModuleOp>> converted =
      builder.convert(annotate(red, demoted), what);
  if (failed(converted))
    return failure();
  double convertSeconds = secondsSince(start);
  Trial counts;
  count(**converted, counts);
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
  result.takeCounts(counts);
  result.what = std::move(what);
  result.kept = red.size();
  result.demoted = demoted.size();
  result.seconds = secondsSince(start);
  result.convertSeconds = convertSeconds;
  result.compileSeconds = compileSeconds;
  result.runSeconds = runSeconds;
  trials.push_back(result);
  report(result);
  return result;
}

void Tuner::report(const Trial &trial) {
  if (!config.progress || quietTrials)
    return;
  std::string counts =
      fp8Search ? llvm::formatv("{0,3} in {1}, {2,4} in 16 bits", trial.fp8,
                                subWord(), trial.low)
                      .str()
                : llvm::formatv("{0,4} ops in 16 bits", trial.low).str();
  log << llvm::formatv("amp-tune: trial {0,2}: {1,-36} {2}, rel_l2 {3,-9} {4} "
                       "({5:f1} s)\n",
                       trials.size(), trial.what, counts,
                       formatMetric(trial.relL2),
                       trial.meets ? "meets" : "misses", trial.seconds);
  log.flush();
}

FailureOr<bool> Tuner::meets(const TagSet &red, const TagSet &demoted,
                             std::string what) {
  FailureOr<Trial> t = trial(red, demoted, std::move(what));
  if (failed(t))
    return failure();
  return t->meets;
}

Tuner::TagSet Tuner::topK(ArrayRef<Candidate> ranked, unsigned k) {
  TagSet keep;
  for (const Candidate &c : ranked.take_front(k))
    keep.insert(c.tag);
  return keep;
}

/// Candidates for the ops of `tags`, in tag order.
static std::vector<Candidate> makeCandidates(ArrayRef<unsigned> tags,
                                             ArrayRef<Operation *> ops) {
  std::vector<Candidate> candidates;
  for (unsigned tag : tags) {
    Candidate c;
    c.tag = tag;
    c.name = ops[tag]->getName().getStringRef().str();
    c.location = describeLocation(ops[tag]->getLoc());
    candidates.push_back(std::move(c));
  }
  return candidates;
}

LogicalResult Tuner::searchFP32(OwningOpRef<ModuleOp> converted,
                                double convertSeconds, const TagSet &demoted,
                                TuneResult &result) {
  result.candidates =
      makeCandidates(findLowOps(*converted, pristineOps), pristineOps);
  if (config.progress)
    log << "amp-tune: " << result.candidates.size()
        << " ops run in 16 bits when nothing is kept in FP32"
        << (demoted.empty() ? "" : " (and no contraction in " + subWord() + ")")
        << "\n";

  // Sensitivity, with the reference's outputs; the FP32 model must meet
  // the tolerance itself.
  if (failed(measureSensitivity(
          std::move(converted), convertSeconds, result.candidates,
          /*fp8=*/false, {}, demoted,
          demoted.empty()
              ? "every candidate in 16 bits"
              : "no " + subWord() + "; every candidate in 16 bits")))
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
  for (Candidate &c : result.candidates)
    c.saving = estimateSaving(opWork.lookup(c.tag), CostLevel::Bits16);
  rankByValue(result.candidates);
  unsigned n = result.candidates.size();
  auto finish = [&](unsigned kept) {
    result.kept = kept;
    for (const Candidate &c : ArrayRef(result.candidates).take_front(kept))
      result.keptTags.push_back(c.tag);
    return success();
  };
  if (trials.back().meets || n == 0) {
    if (!trials.back().meets) {
      errs << "amp-tune: error: the conversion runs no op in 16 bits, and "
              "its outputs still miss the tolerance\n";
      return failure();
    }
    return finish(0);
  }
  std::string suffix = demoted.empty() ? "" : ", no " + subWord();
  FailureOr<unsigned> bisected =
      bisectByValue(result.candidates, demoted, suffix);
  if (failed(bisected))
    return failure();
  unsigned hi = *bisected;

  // Greedy: move kept ops back to 16 bits, most valuable first. Moving
  // back the most valuable alone gives the `lo` set, which missed: start
  // with the one before it.
  ArrayRef<Candidate> kept = ArrayRef(result.candidates).take_front(hi);
  llvm::DenseMap<unsigned, const Candidate *> byTag;
  std::vector<unsigned> order;
  for (const Candidate &c : kept)
    byTag[c.tag] = &c;
  // Not those that miss alone (they would miss here too), nor those that
  // save nothing (the trial would buy nothing).
  for (const Candidate &c : llvm::reverse(kept.drop_back()))
    if (c.aloneMeets && c.saving > 0)
      order.push_back(c.tag);
  TagSet held = topK(result.candidates, hi);
  FailureOr<std::vector<unsigned>> releasedTags = refineGreedy(
      held, order, config.refineTrials,
      [&](const TagSet &keep, unsigned tag) -> FailureOr<bool> {
        return meets(keep, demoted,
                     llvm::formatv("{0} in FP32, {1} back{2}", keep.size(),
                                   byTag[tag]->name, suffix)
                         .str());
      });
  if (failed(releasedTags))
    return failure();
  std::vector<Candidate> keptOps, released;
  for (const Candidate &c : kept)
    if (held.contains(c.tag))
      keptOps.push_back(c);
  for (unsigned tag : *releasedTags)
    released.push_back(*byTag[tag]);
  // The ranking with what stays in FP32 first.
  std::vector<Candidate> rest(result.candidates.begin() + hi,
                              result.candidates.end());
  llvm::append_range(rest, released);
  rankByValue(rest);
  std::vector<Candidate> ranked = keptOps;
  llvm::append_range(ranked, rest);
  result.candidates = std::move(ranked);
  return finish(keptOps.size());
}

LogicalResult Tuner::searchFP8(const TagSet &red, bool measured,
                               TuneResult &result) {
  std::vector<Candidate> &ranked = result.fp8Candidates;
  // Whether every contraction in FP8 (with `red` in FP32) meets: measured
  // means it was the first run, which missed.
  bool allMeet = false;
  if (!measured) {
    // The FP8 contractions with `red` in FP32, and their sensitivities.
    auto start = std::chrono::steady_clock::now();
    FailureOr<OwningOpRef<ModuleOp>> converted =
        builder.convert(annotate(red), "the model with FP32 ops kept");
    if (failed(converted))
      return failure();
    ranked = makeCandidates(findSubOps(**converted), pristineOps);
    if (failed(measureSensitivity(
            std::move(*converted), secondsSince(start), ranked, /*fp8=*/true,
            red, {},
            llvm::formatv("{0} in FP32, every contraction in {1}", red.size(),
                          subWord())
                .str())))
      return failure();
    allMeet = trials.back().meets;
  }
  // Most error per multiply-add first: moving those to 16 bits buys the
  // most accuracy for the fewest FP8 multiply-adds lost.
  auto perMac = [&](const Candidate &c) {
    return c.sensitivity / std::max<int64_t>(1, macs.lookup(c.tag));
  };
  std::stable_sort(ranked.begin(), ranked.end(),
                   [&](const Candidate &a, const Candidate &b) {
                     return perMac(a) > perMac(b);
                   });
  unsigned n = ranked.size();
  if (n == 0 || allMeet)
    return success();

  // Bisection: `lo` moved misses (the run above), `hi` moved meets (every
  // contraction in 16 bits with `red` in FP32: what the 16-bit search
  // found).
  FailureOr<Bisection> bisection =
      bisectRanking(0, n, [&](unsigned k) -> FailureOr<bool> {
        return meets(red, topK(ranked, k),
                     llvm::formatv("{0} in FP32, {1} of {2} {3} in 16 bits",
                                   red.size(), k, n, subWord())
                         .str());
      });
  if (failed(bisection))
    return failure();
  unsigned lo = bisection->lo, hi = bisection->hi;

  // Greedy: move the moved contractions back to FP8, largest first.
  std::vector<Candidate> moved(ranked.begin(), ranked.begin() + hi);
  llvm::stable_sort(moved, [&](const Candidate &a, const Candidate &b) {
    return macs.lookup(a.tag) > macs.lookup(b.tag);
  });
  llvm::DenseMap<unsigned, const Candidate *> byTag;
  std::vector<unsigned> order;
  for (const Candidate &c : moved) {
    order.push_back(c.tag);
    byTag[c.tag] = &c;
  }
  TagSet demoted = topK(ranked, hi), missed = topK(ranked, lo);
  FailureOr<std::vector<unsigned>> released = refineGreedy(
      demoted, order, config.refineTrials,
      [&](const TagSet &attempt, unsigned tag) -> FailureOr<bool> {
        return meets(red, attempt,
                     llvm::formatv("{0} in FP32, {1} in 16 bits, {2} back",
                                   red.size(), attempt.size(),
                                   byTag[tag]->location)
                         .str());
      },
      // The `lo` set is known to miss, and so is nothing moved: the first
      // run.
      [&](const TagSet &attempt) {
        return attempt.empty() || attempt == missed;
      });
  if (failed(released))
    return failure();
  for (const Candidate &c : ranked)
    if (demoted.contains(c.tag))
      result.demotedTags.push_back(c.tag);
  // The ranking with the moved ones first.
  std::stable_partition(ranked.begin(), ranked.end(), [&](const Candidate &c) {
    return demoted.contains(c.tag);
  });
  return success();
}

LogicalResult Tuner::initialize() {
  if (initialized)
    return success();
  initialized = true;
  return builder.initialize(getProbeSymbols());
}

FailureOr<ObservedRanges> Tuner::calibrate() {
  if (failed(initialize()))
    return failure();
  OwningOpRef<ModuleOp> instrumented = prepared.clone();
  RangeRecorder recorder;
  if (!recorder.instrument(*instrumented)) {
    errs << "amp-tune: error: cannot instrument the model to record its "
            "ranges\n";
    return failure();
  }
  OwningOpRef<ModuleOp> modules[] = {std::move(instrumented)};
  auto functions = builder.compile(modules, {"FP32 (recording ranges)"});
  if (failed(functions))
    return failure();
  recorder.activate();
  // One sample at a time: the recorder is not shared between threads.
  for (size_t s = 0; s < model.samples.size(); ++s) {
    RunRequest request{functions->front().get(), s};
    if (failed(builder.run(request, "the FP32 model (recording ranges)")))
      return failure();
  }
  return recorder.ranges();
}

/// The contractions `t` ran at an upper weight-only format.
static unsigned countUpper(const Trial &t) {
  unsigned n = 0;
  for (unsigned u : t.upper)
    n += u;
  return n;
}

FailureOr<TuneResult> Tuner::run() {
  auto start = std::chrono::steady_clock::now();
  TuneResult result;
  for (auto [tag, n] : macs)
    result.totalMacs += n;
  for (auto [tag, w] : opWork)
    result.fp32Cost += estimateSeconds(w, CostLevel::FP32);

  if (failed(initialize()))
    return failure();

  auto finish = [&]() -> FailureOr<TuneResult> {
    TagSet red(result.keptTags.begin(), result.keptTags.end());
    TagSet demoted(result.demotedTags.begin(), result.demotedTags.end());
    result.upperFormatOf = upperFormatOf;
    result.upperFormats.clear();
    for (const auto &format : config.upperFormats)
      result.upperFormats.push_back(format.first);
    unsigned upper = 0;
    for (auto [tag, format] : upperFormatOf)
      upper += !red.contains(tag);
    for (const Trial &t : trials)
      if (t.meets && t.kept == red.size() && t.demoted == demoted.size() &&
          countUpper(t) == upper) {
        result.low = t.low;
        result.chosen = t;
      }
    if (!trials.empty())
      result.lowestCost = trials.front().cost;
    result.compilation = builder.getStatistics();
    result.threads = builder.getNumThreads();
    result.trials = trials;
    result.seconds = secondsSince(start);
    return result;
  };

  // The unconstrained conversion: its FP8 contractions decide whether the
  // search has two levels or three.
  auto convertStart = std::chrono::steady_clock::now();
  FailureOr<OwningOpRef<ModuleOp>> converted = builder.convert({}, "the model");
  double convertSeconds = secondsSince(convertStart);
  if (failed(converted))
    return failure();
  std::vector<unsigned> fp8Tags = findSubOps(**converted);
  // The 16-bit type: bf16 if the conversion has any, else f16.
  lowType = Float16Type::get(prepared.getContext());
  forEachBodyOp(**converted, [&](Operation *op) {
    for (Type type : op->getResultTypes())
      if (getElementTypeOrSelf(type).isBF16())
        lowType = getElementTypeOrSelf(type);
  });
  result.lowType = lowType;
  if (fp8Tags.empty()) {
    if (failed(searchFP32(std::move(*converted), convertSeconds, {}, result)))
      return failure();
    return finish();
  }

  // Three levels. (a) Everything as the conversion has it, with probes on
  // the FP8 contractions.
  fp8Search = true;
  forEachBodyOp(**converted, [&](Operation *op) {
    for (Type type : op->getOperandTypes())
      if (!result.fp8Type && isFP8(type))
        result.fp8Type = getElementTypeOrSelf(type);
  });
  if (!config.weightFormat.empty()) {
    result.fp8Type = Type();
    result.subName = config.weightFormat;
  } else {
    llvm::raw_string_ostream(result.subName) << result.fp8Type;
  }
  if (config.progress)
    log << "amp-tune: " << fp8Tags.size() << " contractions run "
        << (config.weightFormat.empty() ? "in FP8"
                                        : "with " + result.subName + " weights")
        << " when nothing is kept in 16 bits or FP32; the others in " << lowType
        << "\n";
  result.fp8Candidates = makeCandidates(fp8Tags, pristineOps);
  if (failed(measureSensitivity(std::move(*converted), convertSeconds,
                                result.fp8Candidates, /*fp8=*/true, {}, {},
                                "every contraction in " + subWord())))
    return failure();
  if (trials.back().meets)
    return finish();

  // (b) FP32 against 16 bits, with no FP8.
  TagSet allFP8(fp8Tags.begin(), fp8Tags.end());
  convertStart = std::chrono::steady_clock::now();
  converted =
      builder.convert(annotate({}, allFP8), "the model without " + subWord());
  if (failed(converted) ||
      failed(searchFP32(std::move(*converted), secondsSince(convertStart),
                        allFP8, result)))
    return failure();

  // (c) FP8 against 16 bits, with (b)'s ops in FP32 (the sensitivities of
  // (a) stand if (b) kept nothing).
  TagSet red(result.keptTags.begin(), result.keptTags.end());
  if (failed(searchFP8(red, /*measured=*/red.empty(), result)))
    return failure();
  // (d) The upper weight-only formats for what (c) moved.
  if (failed(searchUpperFormats(red, result)))
    return failure();
  return finish();
}
