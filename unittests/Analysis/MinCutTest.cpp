//===- MinCutTest.cpp - Minimum s-t cuts by maximum flow ------------------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// MinCutGraph: the value of the cut, which side each node is on, ties (the
// smallest sink side), infinite edges, and a graph cleared and reused.
//
//===----------------------------------------------------------------------===//

#include "amp/Analysis/MinCut.h"

#include <gtest/gtest.h>

using namespace mlir::amp;

namespace {

constexpr unsigned S = MinCutGraph::kSource, T = MinCutGraph::kSink;

TEST(MinCutTest, PathCutsItsCheapestEdge) {
  MinCutGraph graph;
  unsigned a = graph.addNode(), b = graph.addNode();
  graph.addEdge(S, a, 5);
  graph.addEdge(a, b, 2);
  graph.addEdge(b, T, 7);
  EXPECT_EQ(graph.solve(), 2);
  EXPECT_FALSE(graph.isOnSinkSide(a));
  EXPECT_TRUE(graph.isOnSinkSide(b));
}

TEST(MinCutTest, ParallelPathsAddUp) {
  MinCutGraph graph;
  unsigned a = graph.addNode(), b = graph.addNode();
  graph.addEdge(S, a, 3);
  graph.addEdge(a, T, 4);
  graph.addEdge(S, b, 6);
  graph.addEdge(b, T, 1);
  graph.addEdge(a, b, 10);
  // Flow: S-a-T 3, S-b-T 1: 4.
  EXPECT_EQ(graph.solve(), 4);
}

TEST(MinCutTest, TiesGoToTheSourceSide) {
  // S -> a costs 3, a -> T costs 3: either cut is minimal; the node that can
  // no longer reach the sink goes to the source side.
  MinCutGraph graph;
  unsigned a = graph.addNode();
  graph.addEdge(S, a, 3);
  graph.addEdge(a, T, 3);
  EXPECT_EQ(graph.solve(), 3);
  EXPECT_FALSE(graph.isOnSinkSide(a));
}

TEST(MinCutTest, InfiniteEdgesAreNeverCut) {
  MinCutGraph graph;
  unsigned a = graph.addNode(), b = graph.addNode();
  graph.addEdge(S, a, 8);
  graph.addEdge(a, b, MinCutGraph::kInfinite);
  graph.addEdge(b, T, 5);
  EXPECT_EQ(graph.solve(), 5);
  // a and b stay together, on the source side.
  EXPECT_FALSE(graph.isOnSinkSide(a));
  EXPECT_FALSE(graph.isOnSinkSide(b));
}

TEST(MinCutTest, IgnoresEmptyAndSelfEdges) {
  MinCutGraph graph;
  unsigned a = graph.addNode();
  graph.addEdge(S, a, 0);
  graph.addEdge(a, a, 9);
  graph.addEdge(a, T, 1);
  EXPECT_EQ(graph.solve(), 0);
  EXPECT_TRUE(graph.isOnSinkSide(a));
}

TEST(MinCutTest, ClearedGraphsAreReused) {
  MinCutGraph graph;
  unsigned a = graph.addNode();
  graph.addEdge(S, a, 2);
  graph.addEdge(a, T, 9);
  EXPECT_EQ(graph.solve(), 2);
  graph.clear();
  EXPECT_EQ(graph.getNumNodes(), 2u);
  unsigned b = graph.addNode();
  graph.addEdge(S, b, 9);
  graph.addEdge(b, T, 4);
  EXPECT_EQ(graph.solve(), 4);
  EXPECT_FALSE(graph.isOnSinkSide(b));
}

TEST(MinCutTest, LongChainIsLinearInPhases) {
  // A chain of 10,000 nodes, each also joined to the sink: one phase per
  // distinct path length at most; the cut is the first edge.
  MinCutGraph graph;
  unsigned previous = S;
  for (int i = 0; i < 10000; ++i) {
    unsigned node = graph.addNode();
    graph.addEdge(previous, node, i == 0 ? 1 : 100);
    graph.addEdge(node, T, 1000);
    previous = node;
  }
  EXPECT_EQ(graph.solve(), 1);
}

} // namespace
