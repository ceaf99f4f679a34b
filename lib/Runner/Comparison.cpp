//===- Comparison.cpp - Error metrics between two runs --------------------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// One pass over the elements collects the maxima and the sums the norms need;
// a second pass over the rows compares the argmax. Non-finite values make the
// norms non-finite, which is what a report about them should show.
//
//===----------------------------------------------------------------------===//

#include "amp/Runner/Comparison.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>

using namespace mlir::amp::runner;

/// Index of the largest value of `tensor` in [begin, begin + size); NaN is
/// larger than everything, the first index wins ties.
static int64_t argmax(const HostTensor &tensor, int64_t begin, int64_t size) {
  int64_t best = begin;
  double bestValue = tensor.get(begin);
  for (int64_t i = begin + 1; i < begin + size; ++i) {
    double value = tensor.get(i);
    if (std::isnan(bestValue))
      break;
    if (std::isnan(value) || value > bestValue) {
      best = i;
      bestValue = value;
    }
  }
  return best - begin;
}

/// True if the row of `tensor` at [begin, begin + size) is one-hot: its
/// element `best` within 1e-6 of 1, the others within 1e-6 of 0.
static bool isOneHot(const HostTensor &tensor, int64_t begin, int64_t size,
                     int64_t best) {
  constexpr double kTolerance = 1e-6;
  for (int64_t i = 0; i < size; ++i) {
    double value = tensor.get(begin + i);
    double expected = i == best ? 1.0 : 0.0;
    if (!(std::fabs(value - expected) <= kTolerance))
      return false;
  }
  return true;
}

void ErrorAccumulator::add(const HostTensor &reference,
                           const HostTensor &test) {
  assert(reference.getShape() == test.getShape() && "shapes differ");
  int64_t n = reference.getNumElements();

  double maxAbsRef = 0.0;
  for (int64_t i = 0; i < n; ++i) {
    double r = reference.get(i);
    if (std::isfinite(r)) {
      maxAbsRef = std::max(maxAbsRef, std::fabs(r));
      partial.referenceMin = std::min(partial.referenceMin, r);
      partial.referenceMax = std::max(partial.referenceMax, r);
    }
  }
  // Elements much smaller than the output's largest one are compared
  // against a floor, so that zeros of a ReLU do not dominate max_rel_err.
  double relFloor =
      maxAbsRef > 0.0 ? 1e-3 * maxAbsRef : std::numeric_limits<double>::min();

  for (int64_t i = 0; i < n; ++i) {
    double r = reference.get(i), t = test.get(i);
    if (!std::isfinite(t))
      ++partial.nonfinite;
    if (!std::isfinite(r))
      ++partial.referenceNonfinite;
    double diff = std::fabs(t - r);
    if (std::isnan(diff)) {
      // Equal infinities (or both NaN) are no error; anything else is.
      bool same = (std::isnan(t) && std::isnan(r)) || t == r;
      diff = same ? 0.0 : INFINITY;
    }
    partial.maxAbsErr = std::max(partial.maxAbsErr, diff);
    partial.maxRelErr =
        std::max(partial.maxRelErr, diff / std::max(std::fabs(r), relFloor));
    sumSquaredDiff += diff * diff;
    sumSquaredRef += r * r;
    sumSquaredTest += t * t;
    dot += t * r;
  }
  partial.numElements += n;

  // Argmax over the last dimension, row by row.
  llvm::ArrayRef<int64_t> shape = reference.getShape();
  int64_t rowSize = shape.empty() ? 1 : shape.back();
  if (rowSize == 0)
    return;
  for (int64_t begin = 0; begin < n; begin += rowSize) {
    ++partial.numRows;
    int64_t best = argmax(reference, begin, rowSize);
    if (best == argmax(test, begin, rowSize))
      ++partial.argmaxAgreeRows;
    if (rowSize > 1 && isOneHot(reference, begin, rowSize, best))
      ++partial.referenceOneHotRows;
  }
}

void ErrorAccumulator::merge(const ErrorAccumulator &other) {
  partial.numElements += other.partial.numElements;
  partial.maxAbsErr = std::max(partial.maxAbsErr, other.partial.maxAbsErr);
  partial.maxRelErr = std::max(partial.maxRelErr, other.partial.maxRelErr);
  partial.numRows += other.partial.numRows;
  partial.argmaxAgreeRows += other.partial.argmaxAgreeRows;
  partial.nonfinite += other.partial.nonfinite;
  partial.referenceNonfinite += other.partial.referenceNonfinite;
  partial.referenceMin =
      std::min(partial.referenceMin, other.partial.referenceMin);
  partial.referenceMax =
      std::max(partial.referenceMax, other.partial.referenceMax);
  partial.referenceOneHotRows += other.partial.referenceOneHotRows;
  sumSquaredDiff += other.sumSquaredDiff;
  sumSquaredRef += other.sumSquaredRef;
  sumSquaredTest += other.sumSquaredTest;
  dot += other.dot;
}

ErrorMetrics ErrorAccumulator::getMetrics() const {
  ErrorMetrics metrics = partial;
  if (sumSquaredRef > 0.0)
    metrics.relL2Err = std::sqrt(sumSquaredDiff / sumSquaredRef);
  else
    metrics.relL2Err = sumSquaredDiff > 0.0 ? INFINITY : 0.0;
  if (sumSquaredRef > 0.0 && sumSquaredTest > 0.0)
    metrics.cosine =
        dot / (std::sqrt(sumSquaredRef) * std::sqrt(sumSquaredTest));
  else
    // Two zero tensors are identical; a zero and a non-zero one are not.
    metrics.cosine = sumSquaredRef == sumSquaredTest ? 1.0 : 0.0;
  return metrics;
}

ErrorMetrics mlir::amp::runner::compare(const HostTensor &reference,
                                        const HostTensor &test) {
  ErrorAccumulator accumulator;
  accumulator.add(reference, test);
  return accumulator.getMetrics();
}

DegenerateReference
mlir::amp::runner::classifyReference(const ErrorMetrics &metrics) {
  if (metrics.referenceNonfinite > 0)
    return DegenerateReference::NonFinite;
  // (A single element is no pattern: one sample of a scalar output.)
  if (metrics.numElements > 1 && metrics.referenceMin == metrics.referenceMax)
    return metrics.referenceMin == 0 ? DegenerateReference::Zero
                                     : DegenerateReference::Constant;
  if (metrics.numRows > 0 && metrics.referenceOneHotRows == metrics.numRows)
    return DegenerateReference::OneHot;
  return DegenerateReference::None;
}

llvm::StringRef
mlir::amp::runner::stringifyDegenerateReference(DegenerateReference kind) {
  switch (kind) {
  case DegenerateReference::None:
    return "none";
  case DegenerateReference::NonFinite:
    return "nonfinite";
  case DegenerateReference::Zero:
    return "zero";
  case DegenerateReference::Constant:
    return "constant";
  case DegenerateReference::OneHot:
    return "one-hot";
  }
  return "none";
}

std::string
mlir::amp::runner::describeDegenerateReference(DegenerateReference kind,
                                               const ErrorMetrics &metrics) {
  std::string text;
  llvm::raw_string_ostream os(text);
  switch (kind) {
  case DegenerateReference::None:
    break;
  case DegenerateReference::NonFinite:
    os << "the FP32 reference has " << metrics.referenceNonfinite
       << " NaN or infinite values: no error can be measured where the model "
          "overflows in FP32 already; use inputs in the range the model "
          "expects (--inputs, --input-range)";
    break;
  case DegenerateReference::Zero:
    os << "the FP32 reference is 0 in every element of every sample: it "
          "shows no error (any relative error is 0 or infinite); use real "
          "samples (--inputs), another --input-range, or fewer layers";
    break;
  case DegenerateReference::Constant:
    os << "the FP32 reference is " << llvm::format("%g", metrics.referenceMin)
       << " in every element of every sample: it does not depend on the "
          "inputs, so it shows no error in how they are computed; use real "
          "samples (--inputs), --randomize-weights for placeholder weights, "
          "or fewer layers";
    break;
  case DegenerateReference::OneHot:
    os << "the FP32 reference is one-hot in every row of every sample (a "
          "saturated softmax): any conversion that keeps the argmax matches "
          "it exactly; use real samples or trained weights (--inputs), a "
          "smaller --input-range, or fewer layers (compare the logits)";
    break;
  }
  return text;
}
