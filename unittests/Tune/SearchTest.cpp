//===- SearchTest.cpp - amp-tune's bisection and greedy refinement --------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The search steps against fake oracles: a threshold on the prefix length
// for the bisection, a set of items that must stay held for the greedy
// pass. Each test counts the trials the search asked for.
//
//===----------------------------------------------------------------------===//

#include "Search.h"

#include "gtest/gtest.h"

#include <algorithm>

using namespace mlir::amp::tune;

namespace {

/// A prefix of the ranking meets when it holds at least `need` items.
struct Threshold {
  unsigned need;
  std::vector<unsigned> asked;
  llvm::FailureOr<bool> operator()(unsigned k) {
    asked.push_back(k);
    return k >= need;
  }
};

TEST(BisectRankingTest, FindsTheBoundaryInLogTrials) {
  for (unsigned n : {1u, 2u, 3u, 7u, 64u, 1000u}) {
    for (unsigned need = 1; need <= n; need += std::max(1u, n / 9)) {
      Threshold oracle{need, {}};
      auto result = bisectRanking(0, n, std::ref(oracle));
      ASSERT_TRUE(llvm::succeeded(result));
      EXPECT_EQ(result->hi, need) << "n=" << n;
      EXPECT_EQ(result->lo, need - 1) << "n=" << n;
      // hi was shown to meet by a trial unless it is the n it started from.
      EXPECT_EQ(result->hiChecked, need != n) << "n=" << n;
      unsigned bound = 1;
      while ((1u << bound) < n)
        ++bound;
      EXPECT_LE(oracle.asked.size(), bound) << "n=" << n;
      // Never asks for the ends, which the caller knows.
      for (unsigned k : oracle.asked)
        EXPECT_TRUE(k > 0 && k < n);
    }
  }
}

TEST(BisectRankingTest, NothingToBisect) {
  Threshold oracle{0, {}};
  auto result = bisectRanking(3, 4, std::ref(oracle));
  ASSERT_TRUE(llvm::succeeded(result));
  EXPECT_EQ(result->lo, 3u);
  EXPECT_EQ(result->hi, 4u);
  EXPECT_FALSE(result->hiChecked);
  EXPECT_TRUE(oracle.asked.empty());
}

TEST(BisectRankingTest, StopsAtTheFirstFailedTrial) {
  unsigned calls = 0;
  auto result = bisectRanking(0, 100, [&](unsigned) -> llvm::FailureOr<bool> {
    ++calls;
    return llvm::failure();
  });
  EXPECT_TRUE(llvm::failed(result));
  EXPECT_EQ(calls, 1u);
}

/// An attempt meets when it still holds every item of `needed`.
struct MustHold {
  ItemSet needed;
  std::vector<unsigned> tried;
  llvm::FailureOr<bool> operator()(const ItemSet &attempt, unsigned item) {
    tried.push_back(item);
    return llvm::all_of(needed,
                        [&](unsigned n) { return attempt.contains(n); });
  }
};

TEST(RefineGreedyTest, ReleasesWhatIsNotNeededInOrder) {
  ItemSet held = {1, 2, 3, 4, 5};
  MustHold oracle{{2, 4}, {}};
  auto released = refineGreedy(held, {5, 4, 3, 2, 1}, 10, std::ref(oracle));
  ASSERT_TRUE(llvm::succeeded(released));
  EXPECT_EQ(*released, (std::vector<unsigned>{5, 3, 1}));
  EXPECT_EQ(held, (ItemSet{2, 4}));
  EXPECT_EQ(oracle.tried, (std::vector<unsigned>{5, 4, 3, 2, 1}));
}

TEST(RefineGreedyTest, TheBudgetCountsSkippedAttempts) {
  ItemSet held = {1, 2, 3, 4};
  MustHold oracle{{}, {}};
  // The attempt without 1 is known to miss: skipped, but it costs a trial
  // of the budget of 3, so 4 is never tried.
  auto released = refineGreedy(
      held, {1, 2, 3, 4}, 3, std::ref(oracle), [](const ItemSet &attempt) {
        return !attempt.contains(1) && attempt.size() == 3;
      });
  ASSERT_TRUE(llvm::succeeded(released));
  EXPECT_EQ(oracle.tried, (std::vector<unsigned>{2, 3}));
  EXPECT_EQ(*released, (std::vector<unsigned>{2, 3}));
  EXPECT_EQ(held, (ItemSet{1, 4}));
}

TEST(RefineGreedyTest, ItemsNotHeldAreNotTried) {
  ItemSet held = {7};
  MustHold oracle{{}, {}};
  auto released = refineGreedy(held, {3, 7}, 5, std::ref(oracle));
  ASSERT_TRUE(llvm::succeeded(released));
  EXPECT_EQ(oracle.tried, (std::vector<unsigned>{7}));
  EXPECT_TRUE(held.empty());
}

TEST(RefineGreedyTest, AFailedTrialFailsTheSearchAndKeepsHeld) {
  ItemSet held = {1, 2};
  auto released = refineGreedy(
      held, {1, 2}, 5, [](const ItemSet &, unsigned) -> llvm::FailureOr<bool> {
        return llvm::failure();
      });
  EXPECT_TRUE(llvm::failed(released));
  EXPECT_EQ(held, (ItemSet{1, 2}));
}

} // namespace
