//===- Tolerance.cpp - Error bounds the converted outputs must meet -------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "amp/Runner/Tolerance.h"

#include "llvm/Support/FormatVariadic.h"

#include <cmath>
#include <cstdio>
#include <iterator>

using namespace mlir;
using namespace mlir::amp::runner;

double Bound::measure(const ErrorMetrics &m) const {
  switch (kind) {
  case Kind::MaxAbs:
    return m.maxAbsErr;
  case Kind::MaxRel:
    return m.maxRelErr;
  case Kind::RelL2:
    return m.relL2Err;
  case Kind::Cosine:
    return m.cosine;
  case Kind::Argmax:
    return m.argmaxAgreeRate();
  case Kind::Nonfinite:
    return static_cast<double>(m.nonfinite);
  }
  return NAN;
}

bool Bound::holds(const ErrorMetrics &metrics) const {
  double actual = measure(metrics);
  // NaN compares false both ways: it always breaks a bound.
  return isUpperBound() ? actual <= value : actual >= value;
}

FailureOr<SmallVector<Bound>>
mlir::amp::runner::parseTolerance(StringRef text, StringRef tool,
                                  StringRef option, llvm::raw_ostream &errs) {
  static const std::pair<StringRef, Bound::Kind> kKeys[] = {
      {"max_abs", Bound::Kind::MaxAbs},
      {"max_abs_err", Bound::Kind::MaxAbs},
      {"max_rel", Bound::Kind::MaxRel},
      {"max_rel_err", Bound::Kind::MaxRel},
      {"rel_l2", Bound::Kind::RelL2},
      {"rel_l2_err", Bound::Kind::RelL2},
      {"cosine", Bound::Kind::Cosine},
      {"argmax", Bound::Kind::Argmax},
      {"argmax_agree", Bound::Kind::Argmax},
      {"nonfinite", Bound::Kind::Nonfinite}};
  SmallVector<Bound> bounds;
  SmallVector<StringRef> items;
  text.split(items, ',', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  for (StringRef item : items) {
    auto [key, valueText] = item.split('=');
    key = key.trim();
    const auto *it = llvm::find_if(
        kKeys, [&](const auto &entry) { return entry.first == key; });
    double value;
    if (it == std::end(kKeys)) {
      errs << tool << ": error: unknown " << option << " key '" << key
           << "'; expected max_abs, max_rel, rel_l2, cosine, argmax or "
              "nonfinite\n";
      return failure();
    }
    if (valueText.trim().getAsDouble(value)) {
      errs << tool << ": error: " << option << " " << key
           << " needs a number, got '" << valueText << "'\n";
      return failure();
    }
    bounds.push_back({it->second, key.str(), value});
  }
  return bounds;
}

SmallVector<std::string>
mlir::amp::runner::checkTolerance(ArrayRef<Bound> bounds,
                                  ArrayRef<std::string> names,
                                  ArrayRef<ErrorMetrics> metrics) {
  SmallVector<std::string> failures;
  for (const Bound &bound : bounds)
    for (auto [name, m] : llvm::zip(names, metrics))
      if (!bound.holds(m))
        failures.push_back(
            llvm::formatv(
                "{0}: {1} = {2}, expected {3} {4}", name, bound.key,
                formatMetric(bound.measure(m)),
                bound.isUpperBound() ? "<=" : ">=", formatMetric(bound.value))
                .str());
  return failures;
}

std::string mlir::amp::runner::formatMetric(double value, int digits) {
  if (std::isnan(value))
    return "nan";
  if (std::isinf(value))
    return value > 0 ? "inf" : "-inf";
  char buffer[32];
  std::snprintf(buffer, sizeof(buffer), "%.*g", digits, value);
  return buffer;
}
