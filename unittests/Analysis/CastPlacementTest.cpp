//===- CastPlacementTest.cpp - The byte-cost problem of min-bytes ---------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// CastPlacementProblem without IR: isolated ops, casts placed upstream,
// values read on both sides, ties, values made anew for each reader,
// growth penalties, fixed sides. Byte costs as CastPlacement.h names them:
// staying in FP32 costs 2 bytes per element an op moves, a cast 6 per
// element of its value, a penalty 12.
//
//===----------------------------------------------------------------------===//

#include "amp/Analysis/CastPlacement.h"

#include <gtest/gtest.h>

using namespace mlir::amp;

namespace {

using P = CastPlacementProblem;

TEST(CastPlacementTest, AnOpBetweenLowOpsRunsLowWithoutACut) {
  P problem;
  unsigned x = problem.addOp(200);
  unsigned in = problem.addValue(100, P::Low);
  problem.addReader(in, x);
  unsigned out = problem.addValue(100, x);
  problem.addReader(out, P::Low);
  problem.solve();
  EXPECT_TRUE(problem.runsLow(x));
  EXPECT_EQ(problem.getNumCuts(), 0u);
}

TEST(CastPlacementTest, AGroupThatTouchesNothingLowStaysInFP32) {
  P problem;
  unsigned x = problem.addOp(200);
  unsigned in = problem.addValue(100, P::High);
  problem.addReader(in, x);
  unsigned out = problem.addValue(100, x);
  problem.addReader(out, P::High);
  problem.solve();
  EXPECT_FALSE(problem.runsLow(x));
  EXPECT_EQ(problem.getNumCuts(), 0u);
}

TEST(CastPlacementTest, CastsUpstreamWhenThatMovesFewerBytes) {
  // Low: a cast down of the input, 600. FP32: 400 for the op and a cast
  // down of its result, 600.
  P problem;
  unsigned x = problem.addOp(200);
  unsigned in = problem.addValue(100, P::High);
  problem.addReader(in, x);
  unsigned out = problem.addValue(100, x);
  problem.addReader(out, P::Low);
  problem.solve();
  EXPECT_TRUE(problem.runsLow(x));
  EXPECT_TRUE(problem.isReadLow(in));
  EXPECT_EQ(problem.getNumCuts(), 1u);
}

TEST(CastPlacementTest, AValueReadInBothTypesKeepsItsOpInFP32) {
  // FP32: 400 and one cast down, 600; low: a cast down and a cast up, 1200.
  P problem;
  unsigned x = problem.addOp(200);
  unsigned in = problem.addValue(100, P::High);
  problem.addReader(in, x);
  unsigned out = problem.addValue(100, x);
  problem.addReader(out, P::High);
  problem.addReader(out, P::Low);
  problem.solve();
  EXPECT_FALSE(problem.runsLow(x));
  EXPECT_TRUE(problem.isReadLow(out));
  EXPECT_FALSE(problem.isReadLow(in));
}

TEST(CastPlacementTest, TiesGoToFP32) {
  // Low: a cast down of 100 elements, 600; FP32: 2 * 150 and a cast down of
  // 50 elements, 600.
  P problem;
  unsigned x = problem.addOp(150);
  unsigned in = problem.addValue(100, P::High);
  problem.addReader(in, x);
  unsigned out = problem.addValue(50, x);
  problem.addReader(out, P::Low);
  problem.solve();
  EXPECT_FALSE(problem.runsLow(x));
}

TEST(CastPlacementTest, ChainsAreOneGroup) {
  // FP32 input, three ops, a low reader at the end: one cut, cast first.
  P problem;
  unsigned in = problem.addValue(100, P::High);
  unsigned previous = in;
  unsigned ops[3];
  for (unsigned &op : ops) {
    op = problem.addOp(200);
    problem.addReader(previous, op);
    previous = problem.addValue(100, op);
  }
  problem.addReader(previous, P::Low);
  problem.solve();
  for (unsigned op : ops)
    EXPECT_TRUE(problem.runsLow(op));
  EXPECT_EQ(problem.getNumCuts(), 1u);
}

TEST(CastPlacementTest, ValuesMadeForEachReaderJoinNoGroup) {
  // A constant read by two ops: x serves a low reader, y an FP32 one. The
  // constant does not make y's group touch the target type.
  P problem;
  unsigned constant = problem.addValue(1000, P::Any);
  unsigned x = problem.addOp(1010), y = problem.addOp(1010);
  problem.addReader(constant, x);
  problem.addReader(constant, y);
  unsigned xOut = problem.addValue(10, x);
  problem.addReader(xOut, P::Low);
  unsigned yOut = problem.addValue(10, y);
  problem.addReader(yOut, P::High);
  problem.solve();
  EXPECT_TRUE(problem.runsLow(x));
  EXPECT_FALSE(problem.runsLow(y));
}

TEST(CastPlacementTest, AConstantReadLowByAFixedOpIsLowForItsReaders) {
  // Read low by a fixed op, the constant is low for x too: x runs low and
  // casts its small result up (60) rather than moving 1010 elements in FP32
  // (2020).
  for (bool fixedLowReader : {true, false}) {
    P problem;
    unsigned constant = problem.addValue(1000, P::Any);
    if (fixedLowReader)
      problem.addReader(constant, P::Low);
    unsigned x = problem.addOp(1010);
    problem.addReader(constant, x);
    unsigned out = problem.addValue(10, x);
    problem.addReader(out, P::High);
    problem.solve();
    EXPECT_EQ(problem.runsLow(x), fixedLowReader);
  }
}

TEST(CastPlacementTest, PenaltiesKeepALargeValueInFP32) {
  // y makes a large value v that x brings back down. Without the penalty
  // the chain between two low ops runs low; with it, handling v low costs
  // 12000, more than both ops in FP32 (4040) and two small casts (120).
  for (bool penalize : {false, true}) {
    P problem;
    unsigned in = problem.addValue(10, P::Low);
    unsigned y = problem.addOp(1010);
    problem.addReader(in, y);
    unsigned v = problem.addValue(1000, y);
    unsigned x = problem.addOp(1010);
    problem.addReader(v, x);
    unsigned out = problem.addValue(10, x);
    problem.addReader(out, P::Low);
    if (penalize)
      problem.penalize(v);
    problem.solve();
    EXPECT_EQ(problem.runsLow(y), !penalize);
    EXPECT_EQ(problem.runsLow(x), !penalize);
    EXPECT_EQ(problem.getNumCuts(), penalize ? 1u : 0u);
  }
}

TEST(CastPlacementTest, AnchoredValuesMakeAGroupTouchTheTargetType) {
  // A green op's FP32 output (producer High) anchored: its reader x is cut,
  // and stays in FP32 (casting its input down would cost more).
  for (bool anchored : {false, true}) {
    P problem;
    unsigned in = problem.addValue(100, P::High);
    if (anchored)
      problem.anchor(in);
    unsigned x = problem.addOp(200);
    problem.addReader(in, x);
    unsigned out = problem.addValue(100, x);
    problem.addReader(out, P::High);
    problem.solve();
    EXPECT_FALSE(problem.runsLow(x));
    EXPECT_EQ(problem.getNumCuts(), anchored ? 1u : 0u);
  }
}

TEST(CastPlacementTest, ReadersAddedTwiceCountOnce) {
  P problem;
  unsigned x = problem.addOp(300);
  unsigned in = problem.addValue(100, P::High);
  problem.addReader(in, x);
  problem.addReader(in, x);
  unsigned out = problem.addValue(100, x);
  problem.addReader(out, P::Low);
  problem.solve();
  // Low: one cast down of `in` (600) against 600 + 600 in FP32.
  EXPECT_TRUE(problem.runsLow(x));
}

} // namespace
