//===- Magnitude.h - Growth of values relative to the inputs ----*- C++ -*-===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// What the range analysis (FloatRange.h) cannot bound, because activations
// come from arguments of unknown range, it can still compare: a sum over 49
// elements is up to 49 times larger than its terms, and a division by 49
// brings it back. A value's *growth* is a bound on the magnitude of its
// elements when every element of every function argument has magnitude at
// most 1 and constants (weights, scales) have their own values:
//
//  - arguments: 1; constants: their largest magnitude; empty tensors: 0;
//  - data movement, casts, negation, max/min, select: as their operands;
//  - add/sub: the sum; mul: the product; division by a constant: the
//    quotient (|x| / min |c|);
//  - sum reductions multiply by the number of elements they sum (a linalg
//    reduction with an `addf` combiner, `tosa.reduce_sum`); contractions
//    by their reduction length times the weights' magnitude (`tosa.matmul`,
//    `tosa.conv2d`, ..., and the payload `acc + a * b` of linalg ops);
//    max/min reductions and pooling keep it;
//  - normalizations reset it to 1: `linalg.softmax`, a division by a value
//    computed from a sum reduction (softmax written out, layer norm), a
//    product with the reciprocal or rsqrt of one (RMS norm);
//  - exponentials, logarithms, powers and erf (all red): 1, their result's
//    scale is not their input's (exp(x - max) in a softmax is at most 1);
//  - saturating ops (clamps, tanh, sigmoid) keep the growth of their input:
//    they claim nothing (an element that overflowed to inf before a clamp
//    or a tanh saturates to the right value anyway, so narrowing before
//    them is harmless).
//
// A growth is not a range and proves nothing: it says where values are
// *relatively* large. The precision plan uses it to narrow values after the
// op that brings them back down rather than before (see PrecisionPlan.h).
// Growths saturate at 1e300; an op with regions other than a structured op
// (control flow) and an op without a transfer function give the largest
// growth among their float operands (1 without any).
//
// The map is lazy: a value's growth is computed on the first query, with
// the growths of everything it is computed from (an iterative walk up its
// producers, each op once); a plan that asks nothing walks nothing.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_ANALYSIS_MAGNITUDE_H
#define AMP_ANALYSIS_MAGNITUDE_H

#include "amp/Utils/IRKeyInfo.h"
#include "mlir/IR/Operation.h"
#include "llvm/ADT/DenseMap.h"

#include <cstdint>

namespace mlir {
namespace amp {

/// The growth of a value relative to the function's inputs, and what kind
/// of value it is for the normalizations.
struct Magnitude {
  enum class Kind : uint8_t {
    /// Any other value.
    Plain,
    /// A sum reduction, or a value computed from one by scaling, adding a
    /// constant (an epsilon), a square root or data movement: dividing by
    /// it normalizes.
    Reduction,
    /// The reciprocal or rsqrt of a Reduction: multiplying by it
    /// normalizes.
    InverseReduction,
  };
  double growth = 1;
  /// For a constant (or data movement of one): the smallest magnitude of
  /// its elements, which bounds what a division by it gives.
  double least = 0;
  bool isConstant = false;
  Kind kind = Kind::Plain;
};

/// The growth of the values of one function (or any op with regions),
/// computed on demand.
class MagnitudeMap {
public:
  /// The largest growth recorded (larger ones saturate).
  static constexpr double kMaxGrowth = 1e300;

  Magnitude lookup(Value value);
  /// The largest growth among the float results of `op` (1 without any).
  double getResultGrowth(Operation *op);
  /// False if `op`, reading the float value `input`, certainly has a result
  /// growth (getResultGrowth) of at least `input`'s: it only adds, moves or
  /// takes the largest of what it reads (a bias add, a ReLU, a reshape, a
  /// payload of such ops whose yields read `input`). True if it may be
  /// smaller (a product, a division, a root, an exponential, a contraction).
  /// Structural: no growth is computed.
  static bool mayShrink(Operation *op, Value input);

private:
  /// Computes the results of `op`, whose operands are known.
  void evaluate(Operation *op);
  /// The growth of a value that must already be known (or is a block
  /// argument, or unknown: 1).
  Magnitude known(Value value) const;

  llvm::DenseMap<Value, Magnitude, ValueKeyInfo> magnitudes;
};

} // namespace amp
} // namespace mlir

#endif // AMP_ANALYSIS_MAGNITUDE_H
