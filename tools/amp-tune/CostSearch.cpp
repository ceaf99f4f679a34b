//===- CostSearch.cpp - What an op in 16 bits is worth --------------------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The ranking of amp-tune's FP32 search (step 3 in Tuner.h): a knapsack
// over the ops that save time in 16 bits, by the cost model (CostModel.h),
// with the error budget as its capacity. An op's weight is the squared
// error it adds at the outputs (errors of independent roundings add in
// squares), measured by a trial with it alone in 16 bits for the ops that
// save most, the error it adds to its own result (the sensitivity) for the
// rest. Greedy by value (saving per squared error) is the ranking; the
// bisection over it finds how much of the budget the ranking may spend, and
// trials confirm it.
//
//===----------------------------------------------------------------------===//

#include "Tuner.h"

#include "llvm/Support/FormatVariadic.h"

#include <chrono>

#include <algorithm>
#include <cmath>
#include <limits>

using namespace mlir;
using namespace mlir::amp;
using namespace mlir::amp::tune;

double mlir::amp::tune::getValue(const Candidate &c) {
  constexpr double inf = std::numeric_limits<double>::infinity();
  // Alone too much, or a result that is not finite with its neighbours in
  // 16 bits (an overflow that an op alone may not show): no budget buys it.
  if (!c.aloneMeets || !std::isfinite(c.sensitivity))
    return 0;
  // Free of error: nothing to keep it for.
  double error = c.impact >= 0 ? c.impact : c.sensitivity;
  if (error == 0)
    return inf;
  // Nothing saved: nothing to spend the budget on.
  if (!(c.saving > 0))
    return 0;
  return c.saving / (error * error);
}

void mlir::amp::tune::rankByValue(std::vector<Candidate> &candidates) {
  std::stable_sort(candidates.begin(), candidates.end(),
                   [](const Candidate &a, const Candidate &b) {
                     double va = getValue(a), vb = getValue(b);
                     if (va != vb)
                       return va < vb;
                     return a.sensitivity > b.sensitivity ||
                            (a.sensitivity == b.sensitivity &&
                             a.error > b.error);
                   });
}

LogicalResult Tuner::measureImpacts(std::vector<Candidate> &candidates,
                                    const TagSet &demoted, StringRef suffix) {
  // Contractions only: they hold the time; an elementwise op in 16 bits
  // alone among FP32 neighbours would be measured beside casts it does
  // not have in the model (and one that follows its inputs stays FP32).
  SmallVector<Candidate *> priced;
  for (Candidate &c : candidates)
    if (c.saving > 0 && opWork.lookup(c.tag).contraction)
      priced.push_back(&c);
  llvm::stable_sort(priced, [](const Candidate *a, const Candidate *b) {
    return a->saving > b->saving;
  });
  if (priced.size() > config.impactTrials)
    priced.resize(config.impactTrials);
  if (priced.empty())
    return success();
  TagSet all;
  for (const Candidate &c : candidates)
    all.insert(c.tag);
  auto start = std::chrono::steady_clock::now();
  quietTrials = true;
  unsigned alone = 0;
  for (Candidate *c : priced) {
    TagSet red = all;
    red.erase(c->tag);
    FailureOr<Trial> t =
        trial(red, demoted,
              llvm::formatv("{0} alone in 16 bits{1}", c->name, suffix).str());
    if (failed(t)) {
      quietTrials = false;
      return failure();
    }
    // An op that follows its neighbours stays in FP32 among FP32 ones:
    // that trial says nothing of it.
    if (t->low == 0 && t->fp8 == 0)
      continue;
    c->impact = t->relL2;
    c->aloneMeets = t->meets;
    alone += !t->meets;
  }
  quietTrials = false;
  if (config.progress)
    log << llvm::formatv("amp-tune: trials {0}-{1}: each of the {2} "
                         "contractions that "
                         "save most in 16 bits alone in 16 bits; {3} of them "
                         "miss the tolerance alone ({4:f1} s)\n",
                         trials.size() - priced.size() + 1, trials.size(),
                         priced.size(), alone, secondsSince(start));
  return success();
}

FailureOr<unsigned> Tuner::bisectByValue(std::vector<Candidate> &candidates,
                                         const TagSet &demoted,
                                         StringRef suffix) {
  if (failed(measureImpacts(candidates, demoted, suffix)))
    return failure();
  rankByValue(candidates);
  unsigned n = candidates.size();
  // Those worth nothing in 16 bits (they save nothing, or miss alone) are
  // kept first: try that alone, everything that saves in 16 bits.
  unsigned lo = 0;
  while (lo < n && getValue(candidates[lo]) == 0)
    ++lo;
  if (lo > 0 && lo < n) {
    FailureOr<Trial> t = trial(
        topK(candidates, lo), demoted,
        llvm::formatv("{0} worth nothing in 16 bits in FP32{1}", lo, suffix)
            .str());
    if (failed(t))
      return failure();
    if (t->meets)
      return lo;
  } else if (lo == n) {
    lo = 0;
  }

  // Bisection over the ranking: `lo` kept misses, `hi` kept meets (all of
  // them kept is checked when the search gets there).
  FailureOr<Bisection> bisection =
      bisectRanking(lo, n, [&](unsigned k) -> FailureOr<bool> {
        return meets(
            topK(candidates, k), demoted,
            llvm::formatv("{0} of least value in FP32{1}", k, suffix).str());
      });
  if (failed(bisection))
    return failure();
  if (!bisection->hiChecked) {
    FailureOr<Trial> t = trial(topK(candidates, n), demoted,
                               ("every candidate in FP32" + suffix).str());
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
  return bisection->hi;
}
