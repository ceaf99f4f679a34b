//===- ConstantPayloads.h - Evaluate constant payload parts -----*- C++ -*-===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The part of a linalg.generic payload that reads only constants (constant
// input tensors, scalar constants) and loop indices is the same on every
// run: it is evaluated ahead of time, once, into a new constant (a tensor
// over the loops it varies with, read through its own indexing map, or a
// scalar in the payload when it does not vary). What is left reads the
// op's real inputs. An inference batch norm as torch-mlir writes it,
//
//   (x - mean) * rsqrt(var + eps) * gamma + beta
//
// becomes `(x - mean) * scale + beta` with `scale = rsqrt(var + eps) *
// gamma` per channel: the rsqrt that made the op red is gone, and the op is
// an ordinary gray one. Every value is computed with the rounding of its own
// type (FP32), as it would be at run time; the one reassociation is that of
// a product by several constants, `(x * a) * b` into `x * (a * b)` (a
// relative error of an ulp, never a cancellation). Sums are not
// reassociated: `x * scale + (beta - mean * scale)` would cancel when the
// mean is large against the deviation. Nothing is folded into the weights
// of the contraction before it, and a payload that decompresses stored
// weights (reads 8-bit or narrower constants: a weight-only dequantization)
// is left as it is.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_TRANSFORMS_CONSTANTPAYLOADS_H
#define AMP_TRANSFORMS_CONSTANTPAYLOADS_H

#include "mlir/IR/Operation.h"

#include <cstdint>

namespace mlir {
namespace amp {

/// What foldConstantPayloads did.
struct ConstantPayloadStats {
  /// linalg.generic ops rewritten, and the payload values evaluated ahead
  /// of time in them.
  unsigned ops = 0, values = 0;
};

/// The largest constant a value of a payload is evaluated into, in
/// elements, beyond the elements of the constants it reads (a value that
/// only loop indices decide, or one that combines constants along two
/// dimensions into a larger table).
constexpr int64_t kMaxConstantPayloadElements = 1 << 16;

/// Evaluates ahead of time the parts of the payloads of the linalg.generic
/// ops nested in `root` that read only constants and loop indices (see
/// above). Ops with dynamic shapes, or whose payloads hold no such part,
/// are left alone.
ConstantPayloadStats
foldConstantPayloads(Operation *root,
                     int64_t maxElements = kMaxConstantPayloadElements);

} // namespace amp
} // namespace mlir

#endif // AMP_TRANSFORMS_CONSTANTPAYLOADS_H
