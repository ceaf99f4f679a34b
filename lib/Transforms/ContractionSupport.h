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

#include "amp/Analysis/MixedPrecisionOptions.h"
#include "amp/Transforms/FP8Contractions.h"

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

/// The permutation an FP8Builder::narrow of `value` (read as operand
/// `number` of `op`, permuted by `permutation`, empty for none) applies,
/// in full; none unless `value` is an f32 tensor of static shape and of
/// the operand's rank.
std::optional<SmallVector<int64_t>>
getNarrowPermutation(Operation *op, unsigned number, Value value,
                     ArrayRef<int64_t> permutation);

/// A linalg.generic that reads `value` permuted by `permutation` and maps
/// each element with `body` to an element of type `elementType`.
Value buildPermutedMap(
    RewriterBase &rewriter, Location loc, Value value,
    ArrayRef<int64_t> permutation, Type elementType,
    llvm::function_ref<Value(OpBuilder &, Location, Value)> body);

/// The epilogue of a rewritten contraction, built right after
/// `accumulator`: accumulator * factor + bias + addend, elementwise. The
/// factor is `channelFactors[c]` for the channel c along `channelDim` when
/// given, else `uniformFactor` (no multiplication without one). A bias of
/// size 1 broadcasts. Null if `channelDim` or the factors do not fit.
Value buildContractionEpilogue(RewriterBase &rewriter, Location loc,
                               Value accumulator, int64_t channelDim,
                               ArrayRef<float> channelFactors,
                               std::optional<float> uniformFactor, Value bias,
                               Value addend);

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

/// Puts `replacement` in the place of contraction `op`'s result: what the
/// rewrite inserted (`inserted.ops` from `first` on) becomes fixed for the
/// plan, the old result's observed magnitude carries over, every use
/// moves.
void adoptReplacement(RewriterBase &rewriter, Operation *op,
                      Value replacement, const InsertedOps &inserted,
                      size_t first, const MixedPrecisionOptions &options,
                      FP8Conversion &result);

/// Records `op` as converted with `decision` (its inputs low, accumulated
/// and given back in f32) and detaches it and what only it used.
void recordConverted(Operation *op, OpDecision decision, FP8Record record,
                     FP8Conversion &result);

class PrecisionPlan;

/// One run of a contraction stage (FP8, weight-only) over `root`: the
/// candidates among the ops the plan colors, their fallbacks (with the
/// remarks about them) and their rewrites.
class ContractionStage {
public:
  ContractionStage(Operation *root, const MixedPrecisionOptions &options,
                   FP8Conversion &result)
      : root(root), options(options), result(result) {}
  virtual ~ContractionStage() = default;

  /// Colors `root`, then finds the candidates, rewrites them and sums up
  /// the fallbacks.
  LogicalResult run();

protected:
  /// The contractions of `colors` the stage can take; a fallback for each
  /// one that asked for it and cannot.
  virtual void findCandidates(PrecisionPlan &colors) = 0;
  virtual void rewriteCandidates() = 0;
  /// One remark for the fallbacks that had none.
  virtual void summarizeFallbacks() = 0;

  Operation *root;
  const MixedPrecisionOptions &options;
  FP8Conversion &result;
};

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
