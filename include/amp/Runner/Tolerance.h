//===- Tolerance.h - Error bounds the converted outputs must meet -*- C++
//-*-===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A tolerance is a list of bounds on the error metrics of every output, as
// `amp-run --check` and `amp-tune --tolerance` spell it:
// "rel_l2=1e-3,argmax=1". Keys: max_abs, max_rel, rel_l2 (at most), cosine,
// argmax (agreement rate, at least), nonfinite (count, at most).
//
//===----------------------------------------------------------------------===//

#ifndef AMP_RUNNER_TOLERANCE_H
#define AMP_RUNNER_TOLERANCE_H

#include "amp/Runner/Comparison.h"

#include "mlir/Support/LLVM.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

namespace mlir {
namespace amp {
namespace runner {

/// One bound of a tolerance.
struct Bound {
  enum class Kind { MaxAbs, MaxRel, RelL2, Cosine, Argmax, Nonfinite };
  Kind kind;
  std::string key;
  double value;

  /// The metric this bound reads, and whether it must be at most (true) or
  /// at least (false) the bound.
  double measure(const ErrorMetrics &metrics) const;
  bool isUpperBound() const {
    return kind != Kind::Cosine && kind != Kind::Argmax;
  }
  /// True if `metrics` meet the bound (NaN never does).
  bool holds(const ErrorMetrics &metrics) const;
};

/// Parses "key=value,..."; on a bad key or value writes
/// "<tool>: error: ..." naming `option` to `errs`.
FailureOr<SmallVector<Bound>> parseTolerance(StringRef text, StringRef tool,
                                             StringRef option,
                                             llvm::raw_ostream &errs);

/// The outputs, by name, that break a bound of `bounds`, one line each
/// ("result0: rel_l2 = 0.1, expected <= 0.001").
SmallVector<std::string> checkTolerance(ArrayRef<Bound> bounds,
                                        ArrayRef<std::string> names,
                                        ArrayRef<ErrorMetrics> metrics);

/// A metric for people: `digits` significant digits, or "nan"/"inf".
std::string formatMetric(double value, int digits = 3);

} // namespace runner
} // namespace amp
} // namespace mlir

#endif // AMP_RUNNER_TOLERANCE_H
