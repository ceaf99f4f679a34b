//===- MinCut.h - Minimum s-t cut by maximum flow ----------------*- C++
//-*-===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// An exact minimum s-t cut of a directed graph with integer capacities, by
// Dinic's maximum-flow algorithm (BFS levels, then blocking flows along
// level-increasing edges): O(V^2 E) in the worst case, and in practice a few
// phases on the small graphs the precision plan builds (one per group of
// connected gray ops).
//
//===----------------------------------------------------------------------===//

#ifndef AMP_ANALYSIS_MINCUT_H
#define AMP_ANALYSIS_MINCUT_H

#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <limits>

namespace mlir {
namespace amp {

class MinCutGraph {
public:
  /// A capacity no cut may pay.
  static constexpr int64_t kInfinite = std::numeric_limits<int64_t>::max() / 4;
  /// The source and the sink.
  static constexpr unsigned kSource = 0, kSink = 1;

  MinCutGraph() : adjacency(2) {}

  /// Back to the source and the sink alone; the buffers are kept (one graph
  /// solves many small cuts).
  void clear();

  unsigned addNode() {
    adjacency.emplace_back();
    return adjacency.size() - 1;
  }
  unsigned getNumNodes() const { return adjacency.size(); }
  /// Adds an edge `from` -> `to` that a cut separating them (from on the
  /// source side, to on the sink side) pays `capacity` for.
  void addEdge(unsigned from, unsigned to, int64_t capacity);

  /// Computes a maximum flow, which is the value of a minimum cut.
  int64_t solve();
  /// After solve(): true if `node` is on the sink side of the minimum cut
  /// with the smallest sink side (it can still reach the sink in the residual
  /// graph), so that ties go to the source side.
  bool isOnSinkSide(unsigned node) const { return sinkSide[node]; }

private:
  struct Edge {
    unsigned to;
    int64_t capacity;
  };
  bool buildLevels();
  int64_t blockingFlow();

  llvm::SmallVector<Edge, 0> edges;
  /// Edge indices per node; edge i ^ 1 is the reverse of edge i.
  llvm::SmallVector<llvm::SmallVector<unsigned, 4>, 0> adjacency;
  llvm::SmallVector<int, 0> level;
  llvm::SmallVector<unsigned, 0> next;
  llvm::SmallVector<bool, 0> sinkSide;
  /// Scratch of the searches.
  llvm::SmallVector<unsigned, 0> queue, path;
};

} // namespace amp
} // namespace mlir

#endif // AMP_ANALYSIS_MINCUT_H
