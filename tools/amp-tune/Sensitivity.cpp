//===- Sensitivity.cpp - How much error each candidate op adds -----------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The sensitivity run of amp-tune (step 2 in Tuner.h): the FP32 model and a
// conversion, both with a probe on every candidate's result, compiled
// together and run on every sample; a candidate's sensitivity is the error
// of its result less the largest error of the candidates upstream of it.
//
//===----------------------------------------------------------------------===//

#include "Tuner.h"

#include "amp/Runner/Probes.h"

#include "llvm/ADT/DenseMap.h"

#include <chrono>
#include <cmath>

using namespace mlir;
using namespace mlir::amp;
using namespace mlir::amp::runner;
using namespace mlir::amp::tune;

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

} // namespace

using OpsByTag = llvm::DenseMap<unsigned, Operation *>;

/// The probe points' ops in `module`: the op of each tag in `tags` that has
/// the pristine op's name or, with `epilogues` (an FP8 conversion), the last
/// op of the tag with one float result of the pristine op's shape. An FP8
/// contraction becomes narrowings, the contraction on FP8 operands and an
/// epilogue, all with its location: its value is the epilogue's.
static OpsByTag findProbedOps(ModuleOp module, const ItemSet &tags,
                              ArrayRef<Operation *> pristineOps,
                              bool epilogues) {
  OpsByTag found;
  forEachBodyOp(module, [&](Operation *op) {
    std::optional<unsigned> tag = getTag(op);
    if (!tag || !tags.contains(*tag))
      return;
    Operation *pristine = pristineOps[*tag];
    if (!epilogues) {
      if (op->getName() == pristine->getName())
        found[*tag] = op;
      return;
    }
    if (op->getNumResults() != 1 || pristine->getNumResults() != 1)
      return;
    auto type = dyn_cast<RankedTensorType>(op->getResult(0).getType());
    auto want = dyn_cast<RankedTensorType>(pristine->getResult(0).getType());
    if (type && want && type.getShape() == want.getShape() &&
        isFloatValueType(type) && !isFP8(type))
      found[*tag] = op;
  });
  return found;
}

namespace {
/// The probes of a sensitivity run: one per float ranked-tensor result of
/// a candidate found in both models.
struct ProbeLayout {
  std::vector<ProbePoint> referencePoints, convertedPoints;
  std::vector<unsigned> probeCandidate; // probe id -> index in candidates
};
} // namespace

static bool isProbedType(Type type) {
  return isa<RankedTensorType>(type) && isFloatValueType(type);
}

static ProbeLayout layOutProbes(ArrayRef<Candidate> candidates,
                                const OpsByTag &referenceOps,
                                const OpsByTag &convertedOps) {
  ProbeLayout layout;
  for (auto [index, c] : llvm::enumerate(candidates)) {
    Operation *r = referenceOps.lookup(c.tag);
    Operation *t = convertedOps.lookup(c.tag);
    if (!r || !t || r->getNumResults() != t->getNumResults())
      continue;
    for (unsigned i = 0; i < r->getNumResults(); ++i) {
      if (!isProbedType(r->getResult(i).getType()) ||
          !isProbedType(t->getResult(i).getType()))
        continue;
      layout.referencePoints.push_back({r, i});
      layout.convertedPoints.push_back({t, i});
      layout.probeCandidate.push_back(index);
    }
  }
  return layout;
}

/// The tags of the nearest candidates upstream of each candidate, through
/// other ops (at most 256 ops looked at per candidate).
static std::vector<SmallVector<unsigned, 2>>
findUpstreamCandidates(ArrayRef<Candidate> candidates,
                       const OpsByTag &referenceOps, const ItemSet &tags) {
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
  return upstream;
}

/// Errors per candidate from the probes, then what each adds to the errors
/// of the candidates it reads: its sensitivity.
static void assignSensitivities(std::vector<Candidate> &candidates,
                                ArrayRef<unsigned> probeCandidate,
                                const ErrorProbes &probes,
                                ArrayRef<SmallVector<unsigned, 2>> upstream) {
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
}

LogicalResult Tuner::measureSensitivity(OwningOpRef<ModuleOp> converted,
                                        double convertSeconds,
                                        std::vector<Candidate> &candidates,
                                        bool fp8, const TagSet &red,
                                        const TagSet &demoted,
                                        std::string what) {
  auto start = std::chrono::steady_clock::now();
  Trial all;
  count(*converted, all);
  // The probe points: every float ranked-tensor result of a candidate, in
  // the reference (the prepared module) and in the converted module.
  TagSet tags;
  for (const Candidate &c : candidates)
    tags.insert(c.tag);
  OwningOpRef<ModuleOp> reference = prepared.clone();
  OpsByTag referenceOps = findProbedOps(*reference, tags, pristineOps, false);
  ProbeLayout layout = layOutProbes(
      candidates, referenceOps,
      findProbedOps(*converted, tags, pristineOps, /*epilogues=*/fp8));
  // (Found before the reference is lowered.)
  std::vector<SmallVector<unsigned, 2>> upstream =
      findUpstreamCandidates(candidates, referenceOps, tags);

  // Both models in one compilation (their new kernels compiled together),
  // then both on each sample at once: probe ids [0, n) are the
  // reference's, [n, 2n) the converted model's.
  size_t numProbes = layout.referencePoints.size();
  insertProbes(*reference, layout.referencePoints);
  insertProbes(*converted, layout.convertedPoints, numProbes);
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

  // The reference's outputs are kept for the trials (from the first run).
  bool keepReference = this->reference.empty();
  std::vector<std::vector<HostTensor>> referenceOutputs, convertedOutputs;
  for (size_t s = 0; s < model.samples.size(); ++s) {
    probes.start();
    RunRequest requests[] = {{(*functions)[0].get(), s},
                             {(*functions)[1].get(), s}};
    auto outputs = builder.run(requests, "the FP32 and converted models");
    if (failed(outputs))
      return failure();
    probes.compare();
    referenceOutputs.push_back(std::move((*outputs)[0]));
    convertedOutputs.push_back(std::move((*outputs)[1]));
  }
  // (After the comparison: the rebuilt models' probes report too.)
  if (builder.checksRebuilds() &&
      (failed(builder.checkRebuild(std::move(rebuilds[0]), referenceOutputs,
                                   "the FP32 model (with probes)")) ||
       failed(builder.checkRebuild(std::move(rebuilds[1]), convertedOutputs,
                                   "the converted model (with probes)"))))
    return failure();
  if (keepReference) {
    this->reference = std::move(referenceOutputs);
    if (failed(checkReference()))
      return failure();
  }
  assignSensitivities(candidates, layout.probeCandidate, probes, upstream);

  Trial evaluated = evaluate(convertedOutputs);
  evaluated.what = std::move(what);
  evaluated.kept = red.size();
  evaluated.demoted = demoted.size();
  evaluated.takeCounts(all);
  evaluated.convertSeconds = convertSeconds;
  evaluated.compileSeconds = compileSeconds;
  evaluated.runSeconds = secondsSince(start) - compileSeconds;
  evaluated.seconds = convertSeconds + secondsSince(start);
  trials.push_back(evaluated);
  report(evaluated);
  return success();
}
