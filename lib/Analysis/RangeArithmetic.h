//===- RangeArithmetic.h - Interval arithmetic on FloatRange ----*- C++ -*-===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The interval arithmetic the transfer functions of the range analysis
// (RangeEvaluator.h) are written in: monotone functions of one or two
// ranges, the ops built from them (add, sub, mul, div, max, min, neg, abs,
// clamp), sums of a number of elements, and the limit on what a float
// constant's bounds prove. All inline: they run per op of every payload.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_LIB_ANALYSIS_RANGEARITHMETIC_H
#define AMP_LIB_ANALYSIS_RANGEARITHMETIC_H

#include "amp/Analysis/FloatRange.h"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>

namespace mlir {
namespace amp {
namespace floatrange {

inline constexpr double kInf = std::numeric_limits<double>::infinity();

/// x * y with 0 * inf = 0 (a zero factor bounds the product).
inline double mul(double x, double y) { return x == 0 || y == 0 ? 0 : x * y; }

/// A range is usable by a transfer function once it is an interval.
inline bool isKnown(const FloatRange &r) { return r.isInterval(); }

/// f applied to every element of `a`, f monotone: the bounds map to bounds,
/// and stay attained.
template <typename F> FloatRange applyMonotone(const FloatRange &a, F f) {
  if (!isKnown(a))
    return FloatRange::unbounded();
  double x = f(a.getLo()), y = f(a.getHi());
  if (x <= y)
    return FloatRange::get(x, y, a.isLoAttained(), a.isHiAttained());
  return FloatRange::get(y, x, a.isHiAttained(), a.isLoAttained());
}

/// f applied elementwise to `a` and `b`, f monotone in each argument (add,
/// sub, mul, max, min): the extremes are at corners. With one operand a
/// point, f is a monotone function of the other, whose attained bounds
/// carry over.
template <typename F>
FloatRange applyBinary(const FloatRange &a, const FloatRange &b, F f) {
  if (!isKnown(a) || !isKnown(b))
    return FloatRange::unbounded();
  if (b.isPoint())
    return applyMonotone(a, [&](double x) { return f(x, b.getLo()); });
  if (a.isPoint())
    return applyMonotone(b, [&](double y) { return f(a.getLo(), y); });
  double c[] = {f(a.getLo(), b.getLo()), f(a.getLo(), b.getHi()),
                f(a.getHi(), b.getLo()), f(a.getHi(), b.getHi())};
  for (double v : c)
    if (std::isnan(v))
      return FloatRange::unbounded();
  return FloatRange::get(*std::min_element(std::begin(c), std::end(c)),
                         *std::max_element(std::begin(c), std::end(c)), false,
                         false);
}

inline FloatRange add(const FloatRange &a, const FloatRange &b) {
  return applyBinary(a, b, [](double x, double y) { return x + y; });
}
inline FloatRange sub(const FloatRange &a, const FloatRange &b) {
  return applyBinary(a, b, [](double x, double y) { return x - y; });
}
inline FloatRange multiply(const FloatRange &a, const FloatRange &b) {
  return applyBinary(a, b, mul);
}
inline FloatRange maximum(const FloatRange &a, const FloatRange &b) {
  return applyBinary(a, b, [](double x, double y) { return std::max(x, y); });
}
inline FloatRange minimum(const FloatRange &a, const FloatRange &b) {
  return applyBinary(a, b, [](double x, double y) { return std::min(x, y); });
}
inline FloatRange divide(const FloatRange &a, const FloatRange &b) {
  if (!isKnown(a) || !isKnown(b) || (b.getLo() <= 0 && b.getHi() >= 0))
    return FloatRange::unbounded();
  return applyBinary(a, b, [](double x, double y) { return x / y; });
}
inline FloatRange negate(const FloatRange &a) {
  return applyMonotone(a, [](double x) { return -x; });
}
inline FloatRange absolute(const FloatRange &a) {
  if (!isKnown(a))
    return FloatRange::unbounded();
  if (a.getLo() >= 0)
    return a;
  if (a.getHi() <= 0)
    return negate(a);
  double hi = std::max(-a.getLo(), a.getHi());
  bool attained = (-a.getLo() == hi && a.isLoAttained()) ||
                  (a.getHi() == hi && a.isHiAttained());
  return FloatRange::get(0, hi, false, attained);
}
inline FloatRange clamp(const FloatRange &a, double lo, double hi) {
  return applyMonotone(a, [&](double x) { return std::clamp(x, lo, hi); });
}
/// The sum of `n` elements of `a` (n < 0: unknown count).
inline FloatRange sumOf(const FloatRange &a, int64_t n) {
  if (!isKnown(a))
    return FloatRange::unbounded();
  double count = n < 0 ? kInf : static_cast<double>(n);
  return FloatRange::get(mul(count, a.getLo()), mul(count, a.getHi()),
                         a.isPoint() && n >= 0, a.isPoint() && n >= 0);
}

/// `range` of a float constant whose bounds beyond `limit` are no proof.
inline FloatRange limitConstant(const FloatRange &range, double limit,
                                bool isFloat) {
  if (!isFloat || !range.isInterval())
    return range;
  return FloatRange::get(
      range.getLo(), range.getHi(),
      range.isLoAttained() && std::abs(range.getLo()) <= limit,
      range.isHiAttained() && std::abs(range.getHi()) <= limit);
}

} // namespace floatrange
} // namespace amp
} // namespace mlir

#endif // AMP_LIB_ANALYSIS_RANGEARITHMETIC_H
