//===- FloatRange.cpp - Value ranges of float and integer data ------------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// See FloatRange.h. This file holds the lattice value, FloatRange: its
// constructors, join and union, and printing; and the limits of float types
// that ranges are checked against. The transfer functions are in
// RangeEvaluator.h and the files it lists; the two drivers in
// FloatRangeAnalysis.cpp (a DataFlowSolver) and FloatRangeMap.cpp (one
// walk).
//
//===----------------------------------------------------------------------===//

#include "amp/Analysis/FloatRange.h"

#include "RangeArithmetic.h"

#include "llvm/Support/Format.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace mlir::amp;
using floatrange::kInf;

//===----------------------------------------------------------------------===//
// FloatRange
//===----------------------------------------------------------------------===//

FloatRange FloatRange::unbounded() { return get(-kInf, kInf, false, false); }

FloatRange FloatRange::noElements() {
  FloatRange r;
  r.kind = Kind::NoElements;
  return r;
}

FloatRange FloatRange::point(double value) {
  return get(value, value, true, true);
}

FloatRange FloatRange::get(double lo, double hi, bool loAttained,
                           bool hiAttained) {
  FloatRange r;
  r.kind = Kind::Interval;
  if (std::isnan(lo) || std::isnan(hi) || lo > hi) {
    lo = -kInf;
    hi = kInf;
    loAttained = hiAttained = false;
  }
  r.lo = lo;
  r.hi = hi;
  // An infinite bound is never a proof of anything.
  r.loAttained = loAttained && std::isfinite(lo);
  r.hiAttained = hiAttained && std::isfinite(hi);
  return r;
}

bool FloatRange::isBounded() const {
  return isInterval() && std::isfinite(lo) && std::isfinite(hi);
}

bool FloatRange::isPoint() const {
  return isInterval() && lo == hi && loAttained && hiAttained;
}

std::optional<double> FloatRange::getAttainedMaxAbs() const {
  if (!isInterval())
    return std::nullopt;
  std::optional<double> result;
  if (loAttained)
    result = std::abs(lo);
  if (hiAttained)
    result = std::max(result.value_or(0.0), std::abs(hi));
  return result;
}

FloatRange FloatRange::join(const FloatRange &lhs, const FloatRange &rhs) {
  if (lhs.isUninitialized() || lhs.hasNoElements())
    return rhs.isUninitialized() ? lhs : rhs;
  if (rhs.isUninitialized() || rhs.hasNoElements())
    return lhs;
  return get(std::min(lhs.lo, rhs.lo), std::max(lhs.hi, rhs.hi),
             lhs.lo == rhs.lo && lhs.loAttained && rhs.loAttained,
             lhs.hi == rhs.hi && lhs.hiAttained && rhs.hiAttained);
}

FloatRange FloatRange::unite(const FloatRange &lhs, const FloatRange &rhs) {
  if (!lhs.isInterval())
    return rhs.isUninitialized() ? lhs : rhs;
  if (!rhs.isInterval())
    return lhs;
  double lo = std::min(lhs.lo, rhs.lo), hi = std::max(lhs.hi, rhs.hi);
  return get(
      lo, hi,
      (lhs.lo == lo && lhs.loAttained) || (rhs.lo == lo && rhs.loAttained),
      (lhs.hi == hi && lhs.hiAttained) || (rhs.hi == hi && rhs.hiAttained));
}

bool FloatRange::operator==(const FloatRange &other) const {
  if (kind != other.kind)
    return false;
  if (!isInterval())
    return true;
  return lo == other.lo && hi == other.hi && loAttained == other.loAttained &&
         hiAttained == other.hiAttained;
}

void FloatRange::print(raw_ostream &os) const {
  switch (kind) {
  case Kind::Uninitialized:
    os << "<uninitialized>";
    return;
  case Kind::NoElements:
    os << "<no elements>";
    return;
  case Kind::Interval:
    break;
  }
  auto bound = [&](double value) {
    if (std::isinf(value))
      os << (value < 0 ? "-inf" : "inf");
    else
      os << llvm::format("%g", value);
  };
  os << (loAttained ? "[" : "(");
  bound(lo);
  os << ", ";
  bound(hi);
  os << (hiAttained ? "]" : ")");
}

raw_ostream &mlir::amp::operator<<(raw_ostream &os, const FloatRange &range) {
  range.print(os);
  return os;
}

double mlir::amp::getExactIntegerLimit(FloatType type) {
  return std::ldexp(1.0, type.getFPMantissaWidth());
}

double mlir::amp::getLargestFinite(FloatType type) {
  // Asked per value checked: the common types without building an APFloat.
  if (type.isF16())
    return 65504.0;
  if (type.isF32())
    return static_cast<double>(std::numeric_limits<float>::max());
  if (type.isBF16())
    return 0x1.fep127; // (2 - 2^-7) * 2^127
  return llvm::APFloat::getLargest(type.getFloatSemantics()).convertToDouble();
}
