//===- Calibration.cpp - Record the value ranges of a model's ops ---------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "amp/Runner/Calibration.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

using namespace mlir;
using namespace mlir::amp;
using namespace mlir::amp::runner;

bool RangeRecorder::instrument(ModuleOp module) {
  struct Point {
    Operation *op;
    unsigned result;
    std::string function;
    unsigned index;
  };
  std::vector<Point> points;
  for (auto fn : module.getOps<func::FuncOp>()) {
    if (fn.isExternal())
      continue;
    std::string name = fn.getSymName().str();
    std::vector<ObservedRange> &entries = observed.entries(name);
    forEachObservedValue(
        fn, [&](Operation *op, unsigned result, unsigned index) {
          if (entries.size() <= index)
            entries.resize(index + 1);
          entries[index].op = op->getName().getStringRef().str();
          entries[index].location = describeLocation(op->getLoc());
          entries[index].result = result;
          points.push_back({op, result, name, index});
        });
  }
  std::vector<ProbePoint> probePoints;
  for (const Point &p : points) {
    probePoints.push_back({p.op, p.result});
    probes.push_back({p.function, p.index});
  }
  insertProbes(module, probePoints);
  return true;
}

void RangeRecorder::observe(int64_t id, ArrayRef<double> values) {
  if (id < 0 || static_cast<size_t>(id) >= probes.size())
    return;
  auto &[function, index] = probes[id];
  ObservedRange &range = observed.entries(function)[index];
  for (double value : values)
    range.add(value);
}
