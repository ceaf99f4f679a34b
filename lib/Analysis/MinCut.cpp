//===- MinCut.cpp - Minimum s-t cut by maximum flow -----------------------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "amp/Analysis/MinCut.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::amp;

void MinCutGraph::clear() {
  edges.clear();
  for (auto &list : adjacency)
    list.clear();
  adjacency.resize(2);
}

void MinCutGraph::addEdge(unsigned from, unsigned to, int64_t capacity) {
  if (capacity <= 0 || from == to)
    return;
  adjacency[from].push_back(edges.size());
  edges.push_back({to, std::min(capacity, kInfinite)});
  adjacency[to].push_back(edges.size());
  edges.push_back({from, 0});
}

bool MinCutGraph::buildLevels() {
  level.assign(adjacency.size(), -1);
  queue.assign(1, kSource);
  level[kSource] = 0;
  for (size_t head = 0; head < queue.size(); ++head) {
    unsigned node = queue[head];
    for (unsigned e : adjacency[node]) {
      const Edge &edge = edges[e];
      if (edge.capacity > 0 && level[edge.to] < 0) {
        level[edge.to] = level[node] + 1;
        queue.push_back(edge.to);
      }
    }
  }
  return level[kSink] >= 0;
}

int64_t MinCutGraph::blockingFlow() {
  // Depth-first along level-increasing edges, without recursion (a chain of
  // gray ops may be long); `next` skips edges already found useless.
  int64_t total = 0;
  path.clear();
  unsigned node = kSource;
  while (true) {
    if (node == kSink) {
      int64_t pushed = kInfinite;
      for (unsigned e : path)
        pushed = std::min(pushed, edges[e].capacity);
      for (unsigned e : path) {
        edges[e].capacity -= pushed;
        edges[e ^ 1].capacity += pushed;
      }
      total = std::min(total + pushed, kInfinite);
      path.clear();
      node = kSource;
      continue;
    }
    bool advanced = false;
    for (unsigned &i = next[node]; i < adjacency[node].size(); ++i) {
      const Edge &edge = edges[adjacency[node][i]];
      if (edge.capacity > 0 && level[edge.to] == level[node] + 1) {
        path.push_back(adjacency[node][i]);
        node = edge.to;
        advanced = true;
        break;
      }
    }
    if (advanced)
      continue;
    if (node == kSource)
      return total;
    // A dead end: no path to the sink goes through `node` in this phase.
    level[node] = -1;
    unsigned e = path.pop_back_val();
    node = edges[e ^ 1].to;
    ++next[node];
  }
}

int64_t MinCutGraph::solve() {
  int64_t flow = 0;
  while (buildLevels()) {
    next.assign(adjacency.size(), 0);
    flow = std::min(flow + blockingFlow(), kInfinite);
  }
  // The sink side: nodes that reach the sink through residual edges (an edge
  // u -> v with capacity left lets u reach v).
  sinkSide.assign(adjacency.size(), false);
  queue.assign(1, kSink);
  sinkSide[kSink] = true;
  for (size_t head = 0; head < queue.size(); ++head) {
    unsigned node = queue[head];
    for (unsigned e : adjacency[node]) {
      // edges[e ^ 1] runs from edges[e].to into `node`.
      unsigned from = edges[e].to;
      if (!sinkSide[from] && edges[e ^ 1].capacity > 0) {
        sinkSide[from] = true;
        queue.push_back(from);
      }
    }
  }
  return flow;
}
