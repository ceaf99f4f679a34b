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
    ProbePoint probe;
    Probe key;
  };
  std::vector<Point> points;
  for (auto fn : module.getOps<func::FuncOp>()) {
    if (fn.isExternal())
      continue;
    std::string name = fn.getSymName().str();
    std::vector<ObservedRange> &arguments = observed.argumentEntries(name);
    for (BlockArgument arg : fn.getArguments()) {
      auto type = dyn_cast<RankedTensorType>(arg.getType());
      if (!type || !isa<FloatType>(type.getElementType()))
        continue;
      unsigned position = arg.getArgNumber();
      if (arguments.size() <= position)
        arguments.resize(position + 1);
      arguments[position].op = kObservedArgumentName.str();
      arguments[position].location = describeLocation(arg.getLoc());
      points.push_back({{nullptr, 0, arg}, {name, position, true}});
    }
    std::vector<ObservedRange> &entries = observed.entries(name);
    forEachObservedValue(
        fn, [&](Operation *op, unsigned result, unsigned index) {
          if (entries.size() <= index)
            entries.resize(index + 1);
          entries[index].op = op->getName().getStringRef().str();
          entries[index].location = describeLocation(op->getLoc());
          entries[index].result = result;
          points.push_back({{op, result}, {name, index, false}});
        });
  }
  std::vector<ProbePoint> probePoints;
  for (const Point &p : points) {
    probePoints.push_back(p.probe);
    probes.push_back(p.key);
  }
  insertProbes(module, probePoints);
  return true;
}

void RangeRecorder::observe(int64_t id, ArrayRef<double> values) {
  if (id < 0 || static_cast<size_t>(id) >= probes.size())
    return;
  const Probe &probe = probes[id];
  ObservedRange &range =
      probe.argument ? observed.argumentEntries(probe.function)[probe.index]
                     : observed.entries(probe.function)[probe.index];
  for (double value : values)
    range.add(value);
}
