//===- ScalarOps.h - What the scalar instruction families share -*- C++ -*-===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Internal to the emulator: the lane loop of the scalar instruction families
// (Arithmetic.cpp, FloatArithmetic.cpp, Conversions.cpp, Memory.cpp,
// WarpCollectives.cpp) and the float helpers several of them use (defined
// in FloatArithmetic.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef AMP_EMULATOR_SCALAROPS_H
#define AMP_EMULATOR_SCALAROPS_H

#include "Executor.h"

#include <algorithm>

namespace amp {
namespace emu {

/// Runs the statement after it once per lane `l` of `mask` (a variable of
/// the enclosing function).
#define FOR_LANES                                                              \
  for (uint32_t m_ = mask; m_; m_ &= m_ - 1)                                   \
    if (int l = __builtin_ctz(m_); true)

/// `v` clamped to the range of a signed integer of `bits` bits.
inline int64_t saturate(int64_t v, int bits) {
  int64_t lo = -(int64_t(1) << (bits - 1)), hi = (int64_t(1) << (bits - 1)) - 1;
  return std::min(std::max(v, lo), hi);
}

/// Float comparison of setp/set (ordered and unordered operators).
bool compareFloat(CmpOp c, double x, double y);
/// The value of a float of type `t` held in `bits`.
double floatValue(uint64_t bits, Type t);
bool isSubnormalBits(uint64_t bits, Type t);
/// Bits of `t` for the exact value `e`, rounded in `mode`.
uint64_t roundExact(const Exact &e, Type t, Rounding mode);
/// The canonical NaN PTX arithmetic returns in `t`.
uint64_t canonicalNaN(Type t);
/// `v` rounded to nearest even in `t`.
uint64_t encodeFloat(double v, Type t);
/// Flushes subnormal inputs or results of `t` (.ftz).
uint64_t flush(uint64_t bits, Type t);
/// One scalar float operation on `t` (not a pair), on raw bits.
uint64_t floatOp(Op op, Type t, uint32_t flags, Rounding mode, uint64_t ab,
                 uint64_t bb, uint64_t cb);
/// The same on a .f16x2 / .bf16x2 pair (lower and upper halves).
uint64_t floatOpAnyWidth(Op op, Type t, uint32_t flags, Rounding mode,
                         uint64_t a, uint64_t b, uint64_t c);

} // namespace emu
} // namespace amp

#endif // AMP_EMULATOR_SCALAROPS_H
