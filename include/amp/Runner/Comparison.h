//===- Comparison.h - Error metrics between two runs ------------*- C++ -*-===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The numbers amp-run reports for an output of the converted model against
// the same output of the FP32 model (the reference), and for all outputs
// together. The definitions are those of docs/amp-run.md:
//
//   max_abs_err  max |t - r|
//   max_rel_err  max |t - r| / max(|r|, 1e-3 * max |r|)
//   rel_l2_err   ||t - r||_2 / ||r||_2
//   cosine       <t, r> / (||t||_2 ||r||_2)
//   argmax_agree the argmax over the last dimension agrees in every row
//   nonfinite    number of NaN/Inf values in t
//
//===----------------------------------------------------------------------===//

#ifndef AMP_RUNNER_COMPARISON_H
#define AMP_RUNNER_COMPARISON_H

#include "amp/Runner/HostTensor.h"

namespace mlir {
namespace amp {
namespace runner {

/// The error of a test tensor against a reference tensor.
struct ErrorMetrics {
  int64_t numElements = 0;
  double maxAbsErr = 0.0;
  double maxRelErr = 0.0;
  double relL2Err = 0.0;
  double cosine = 1.0;
  /// Rows (slices along the last dimension) and how many of them have the
  /// same argmax in both tensors.
  int64_t numRows = 0;
  int64_t argmaxAgreeRows = 0;
  /// NaN/Inf values in the test and in the reference tensor.
  int64_t nonfinite = 0;
  int64_t referenceNonfinite = 0;

  bool argmaxAgree() const { return argmaxAgreeRows == numRows; }
  double argmaxAgreeRate() const {
    return numRows ? static_cast<double>(argmaxAgreeRows) / numRows : 1.0;
  }
};

/// Accumulates the metrics of one or several (reference, test) pairs; the
/// accumulation of all outputs gives the overall numbers (norms and the
/// cosine over the concatenation of all outputs, maxima over all elements).
class ErrorAccumulator {
public:
  /// Adds a pair. Both tensors have the same shape; element kinds may differ.
  void add(const HostTensor &reference, const HostTensor &test);
  /// Adds everything another accumulator has seen.
  void merge(const ErrorAccumulator &other);
  /// The metrics of everything added so far.
  ErrorMetrics getMetrics() const;

private:
  ErrorMetrics partial;
  double sumSquaredDiff = 0.0, sumSquaredRef = 0.0, sumSquaredTest = 0.0,
         dot = 0.0;
};

/// The metrics of one pair.
ErrorMetrics compare(const HostTensor &reference, const HostTensor &test);

} // namespace runner
} // namespace amp
} // namespace mlir

#endif // AMP_RUNNER_COMPARISON_H
