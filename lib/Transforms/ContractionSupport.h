//===- ContractionSupport.h - What the contraction stages share -*- C++ -*-===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Helpers of the two stages that rewrite contractions before the plan: FP8
// (FP8Contractions.cpp) and weight-only (WeightOnly.cpp). Both find a
// contraction's constant weight through transposes, build elementwise
// linalg.generic ops that read a value permuted, and detach what their
// rewrite leaves unused.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_LIB_TRANSFORMS_CONTRACTIONSUPPORT_H
#define AMP_LIB_TRANSFORMS_CONTRACTIONSUPPORT_H

#include "mlir/IR/AffineMap.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/DenseSet.h"

#include <optional>

namespace mlir {
namespace amp {

/// A constant reached through transposes: its value and the permutation
/// from it to the value read (dimension i of the value is dimension
/// permutation[i] of the constant).
struct ConstantSource {
  Operation *constOp;
  Attribute attr;
  SmallVector<int64_t> permutation;
};

/// The float constant (not a scalar) `value` is, read through transposes
/// (linalg.transpose, tosa.transpose, a permuting linalg.generic copy).
std::optional<ConstantSource> findConstant(Value value);

/// The affine map of a linalg.generic over the dimensions of a value of
/// rank `permutation.size()` that reads an operand permuted by
/// `permutation` (dimension i of the result is dimension permutation[i] of
/// the operand).
AffineMap getPermutedReadMap(ArrayRef<int64_t> permutation, MLIRContext *ctx);

/// Collects the ops a rewrite inserts.
struct InsertedOps : public RewriterBase::Listener {
  void notifyOperationInserted(Operation *op, OpBuilder::InsertPoint) override {
    ops.push_back(op);
  }
  SmallVector<Operation *> ops;
};

/// Removes `op` from the IR (its results unused) and, transitively, the
/// producers that become unused and have no side effects, except `keep`.
/// They stay alive in `detached`.
void detachDead(Operation *op, const llvm::DenseSet<Operation *> &keep,
                SmallVector<Operation *> &detached);

/// Erases the ops a failed rewrite made (`inserted.ops` from `first` on)
/// that nothing uses, calling `forget` on each before it goes (to drop it
/// from the caches that hold its results). Ops inside another such op go
/// with it.
void eraseUnusedSince(RewriterBase &rewriter, InsertedOps &inserted,
                      size_t first,
                      llvm::function_ref<void(Operation *)> forget = {});

/// Drops the entries of `cache` (a map to Values) that `op` defines.
template <typename Map>
void forgetResultsOf(Map &cache, Operation *op) {
  for (auto it = cache.begin(); it != cache.end();) {
    if (it->second && it->second.getDefiningOp() == op)
      it = cache.erase(it);
    else
      ++it;
  }
}

} // namespace amp
} // namespace mlir

#endif // AMP_LIB_TRANSFORMS_CONTRACTIONSUPPORT_H
