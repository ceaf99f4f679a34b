//===- Calibration.h - Record the value ranges of a model's ops -*- C++ -*-===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// `amp-run --calibrate`: the FP32 model is instrumented with a probe
// (amp/Runner/Probes.h) after every observed value and at the start of every
// function for its float tensor arguments (see
// amp/Analysis/ObservedRanges.h for which values and how they are keyed);
// the recorder below accumulates each value's range over every call and
// sample.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_RUNNER_CALIBRATION_H
#define AMP_RUNNER_CALIBRATION_H

#include "amp/Analysis/ObservedRanges.h"
#include "amp/Runner/Probes.h"

#include "mlir/IR/BuiltinOps.h"

#include <string>
#include <utility>
#include <vector>

namespace mlir {
namespace amp {
namespace runner {

/// Collects the ranges the probes of one instrumented module report.
class RangeRecorder : public ProbeSink {
public:
  /// Inserts the probes into every function of `module` (which must be the
  /// model as parsed: the keys are computed on it) and declares the probe
  /// functions. Returns false, with an error on `module`, if it cannot.
  bool instrument(ModuleOp module);

  /// What was observed so far.
  const ObservedRanges &ranges() const { return observed; }

  void observe(int64_t id, ArrayRef<double> values) override;

private:
  ObservedRanges observed;
  /// Probe id -> (function, index, whether it is an argument).
  struct Probe {
    std::string function;
    unsigned index;
    bool argument;
  };
  std::vector<Probe> probes;
};

} // namespace runner
} // namespace amp
} // namespace mlir

#endif // AMP_RUNNER_CALIBRATION_H
