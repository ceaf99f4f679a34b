//===- CastPlacement.cpp - Where gray ops run: the byte-cost problem ------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// See CastPlacement.h. Free ops joined by values form groups
// (llvm::IntEqClasses); each group is decided on its own: in FP32 when it
// touches nothing low, in the target type when it touches nothing in FP32
// (and nothing is penalized), otherwise by a minimum cut of its graph.
//
//===----------------------------------------------------------------------===//

#include "amp/Analysis/CastPlacement.h"

#include "llvm/ADT/IntEqClasses.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::amp;

unsigned CastPlacementProblem::addOp(int64_t elements) {
  ops.push_back({elements});
  return ops.size() - 1;
}

unsigned CastPlacementProblem::addValue(int64_t elements, int producer) {
  values.push_back({elements, producer});
  return values.size() - 1;
}

void CastPlacementProblem::addReader(unsigned id, int reader) {
  Value &value = values[id];
  if (reader >= 0) {
    if (value.readers.empty() ||
        value.readers.back() != static_cast<unsigned>(reader))
      value.readers.push_back(reader);
    return;
  }
  value.readLow |= reader == Low;
  value.readHigh |= reader == High;
}

void CastPlacementProblem::anchor(unsigned value) {
  values[value].anchored = true;
}

void CastPlacementProblem::penalize(unsigned value) {
  values[value].penalized = true;
}

void CastPlacementProblem::joinReaders(unsigned value) {
  values[value].joined = true;
}

bool CastPlacementProblem::isReadLow(unsigned id) const {
  const Value &value = values[id];
  return value.readLow || llvm::any_of(value.readers, [&](unsigned reader) {
           return ops[reader].low;
         });
}

/// Lists `items` by class, classes in order, items in order within a class
/// (a counting sort): returns the start of each class in `sorted`.
static std::vector<unsigned>
sortByClass(llvm::ArrayRef<std::pair<unsigned, unsigned>> items,
            unsigned numClasses, std::vector<unsigned> &sorted) {
  std::vector<unsigned> start(numClasses + 1, 0);
  for (auto [group, item] : items)
    ++start[group + 1];
  for (unsigned c = 0; c < numClasses; ++c)
    start[c + 1] += start[c];
  std::vector<unsigned> next(start.begin(), start.end() - 1);
  sorted.assign(items.size(), 0);
  for (auto [group, item] : items)
    sorted[next[group]++] = item;
  return start;
}

void CastPlacementProblem::solve() {
  numCuts = 0;
  if (ops.empty())
    return;
  // Groups: a value joins its producer and its readers.
  llvm::IntEqClasses classes(ops.size());
  auto memberOf = [](const Value &value) -> int {
    if (value.producer >= 0)
      return value.producer;
    return value.readers.empty() ? -1 : static_cast<int>(value.readers.front());
  };
  for (const Value &value : values) {
    int first = memberOf(value);
    if (!value.joins() || first < 0)
      continue;
    for (unsigned reader : value.readers)
      classes.join(first, reader);
  }
  classes.compress();
  unsigned numClasses = classes.getNumClasses();

  // Per group: does it touch the target type, FP32, a penalty?
  std::vector<bool> anchored(numClasses, false), touchesHigh(numClasses, false),
      penalized(numClasses, false);
  std::vector<std::pair<unsigned, unsigned>> opsByClass, valuesByClass;
  for (unsigned op = 0; op < ops.size(); ++op)
    opsByClass.push_back({classes[op], op});
  for (auto [id, value] : llvm::enumerate(values)) {
    if (!value.joins()) {
      // No edges; read low by a fixed op, it is low for each free reader.
      if (value.readLow)
        for (unsigned reader : value.readers)
          anchored[classes[reader]] = true;
      continue;
    }
    int member = memberOf(value);
    if (member < 0)
      continue;
    unsigned group = classes[member];
    valuesByClass.push_back({group, static_cast<unsigned>(id)});
    if (value.producer == Low || value.anchored || value.readLow)
      anchored[group] = true;
    if (value.producer == High || value.readHigh)
      touchesHigh[group] = true;
    if (value.penalized)
      penalized[group] = true;
  }
  std::vector<unsigned> members, groupValues;
  std::vector<unsigned> memberStart =
      sortByClass(opsByClass, numClasses, members);
  std::vector<unsigned> valueStart =
      sortByClass(valuesByClass, numClasses, groupValues);

  std::vector<unsigned> nodeOf(ops.size());
  for (unsigned group = 0; group < numClasses; ++group) {
    auto groupMembers = llvm::ArrayRef(members).slice(
        memberStart[group], memberStart[group + 1] - memberStart[group]);
    // Nothing low: FP32. Nothing in FP32 to pay for: all low.
    if (!anchored[group] || (!touchesHigh[group] && !penalized[group])) {
      for (unsigned op : groupMembers)
        ops[op].low = anchored[group];
      continue;
    }
    solveGroup(groupMembers,
               llvm::ArrayRef(groupValues)
                   .slice(valueStart[group],
                          valueStart[group + 1] - valueStart[group]),
               nodeOf);
    ++numCuts;
  }
}

void CastPlacementProblem::solveGroup(llvm::ArrayRef<unsigned> members,
                                      llvm::ArrayRef<unsigned> groupValues,
                                      std::vector<unsigned> &nodeOf) {
  // Source: FP32; sink: the target type. A node on the sink side runs low.
  graph.clear();
  for (unsigned op : members)
    nodeOf[op] = graph.addNode();
  // Staying in FP32 costs the difference of its bytes.
  for (unsigned op : members)
    graph.addEdge(nodeOf[op], MinCutGraph::kSink,
                  kOpBytesPerElement * ops[op].elements);
  auto nodeOfSide = [&](int side) {
    return side >= 0 ? nodeOf[side]
                     : side == High ? MinCutGraph::kSource : MinCutGraph::kSink;
  };
  for (unsigned id : groupValues) {
    const Value &value = values[id];
    if (value.producer == Any)
      continue; // Given to each reader in its type: no cast.
    unsigned producer = nodeOfSide(value.producer);
    int64_t castBytes = kCastBytesPerElement * value.elements;
    llvm::SmallVector<unsigned, 4> readers;
    for (unsigned reader : value.readers)
      readers.push_back(nodeOf[reader]);
    if (value.readLow)
      readers.push_back(MinCutGraph::kSink);
    if (value.readHigh)
      readers.push_back(MinCutGraph::kSource);
    // One cast down, shared by every reader in the target type: paid when
    // the producer is in FP32 and some reader is low.
    if (producer != MinCutGraph::kSink &&
        llvm::any_of(readers, [](unsigned r) { return r != MinCutGraph::kSource; })) {
      unsigned down = graph.addNode();
      graph.addEdge(producer, down, castBytes);
      for (unsigned reader : readers)
        graph.addEdge(down, reader, MinCutGraph::kInfinite);
    }
    // One cast up, shared by every FP32 reader.
    if (producer != MinCutGraph::kSource &&
        llvm::any_of(readers, [](unsigned r) { return r != MinCutGraph::kSink; })) {
      unsigned up = graph.addNode();
      graph.addEdge(up, producer, castBytes);
      for (unsigned reader : readers)
        graph.addEdge(reader, up, MinCutGraph::kInfinite);
    }
  }
  // A penalized value: any free op that makes or reads it low pays.
  for (unsigned id : groupValues) {
    const Value &value = values[id];
    if (!value.penalized)
      continue;
    unsigned penalty = graph.addNode();
    graph.addEdge(MinCutGraph::kSource, penalty,
                  kLargeGrowthBytesPerElement * value.elements);
    if (value.producer >= 0)
      graph.addEdge(penalty, nodeOf[value.producer], MinCutGraph::kInfinite);
    for (unsigned reader : value.readers)
      graph.addEdge(penalty, nodeOf[reader], MinCutGraph::kInfinite);
  }
  graph.solve();
  for (unsigned op : members)
    ops[op].low = graph.isOnSinkSide(nodeOf[op]);
}
