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

#include <cmath>
#include <string>

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
  /// The smallest and largest finite element of the reference (equal for a
  /// constant reference; +inf and -inf when it has none).
  double referenceMin = INFINITY, referenceMax = -INFINITY;
  /// Rows (of at least two elements) in which the reference is a saturated
  /// one-hot distribution: one element within 1e-6 of 1, the others within
  /// 1e-6 of 0 (a softmax whose inputs lie far apart).
  int64_t referenceOneHotRows = 0;

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

/// Why a reference output cannot show an error of the converted model, if
/// it cannot: a comparison with it passes (or fails) whatever the
/// conversion does, so it is no evidence.
enum class DegenerateReference {
  None,
  /// NaN or infinite values in the reference.
  NonFinite,
  /// Every element of every sample is 0.
  Zero,
  /// Every element of every sample is the same (non-zero) value.
  Constant,
  /// A saturated softmax: one-hot in every row of every sample.
  OneHot,
};

/// Classifies the reference of `metrics` (accumulated over every sample).
DegenerateReference classifyReference(const ErrorMetrics &metrics);
/// A short name for JSON ("nonfinite", "zero", "constant", "one-hot").
llvm::StringRef stringifyDegenerateReference(DegenerateReference kind);
/// What the reference is and what to change, for a warning ("the FP32
/// reference is 0 everywhere ...; use real samples ...").
std::string describeDegenerateReference(DegenerateReference kind,
                                        const ErrorMetrics &metrics);

} // namespace runner
} // namespace amp
} // namespace mlir

#endif // AMP_RUNNER_COMPARISON_H
