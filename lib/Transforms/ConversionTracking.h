//===- ConversionTracking.h - The ops a conversion makes --------*- C++ -*-===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Internal to lib/Transforms (MixedPrecision.cpp and the files it is split
// into): insertion-ordered sets of the ops the rewrite of a function makes,
// the listener that keeps them current as ops are erased, and the
// deduplication of the casts and constants made.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_LIB_TRANSFORMS_CONVERSIONTRACKING_H
#define AMP_LIB_TRANSFORMS_CONVERSIONTRACKING_H

#include "amp/Utils/CastUtils.h"
#include "amp/Utils/IRKeyInfo.h"

#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/Hashing.h"

namespace mlir {
namespace amp {
namespace conversion {


/// An insertion-ordered set of ops that forgets an op when it is erased (see
/// ConversionListener), so that no pointer to an erased op is followed:
/// models erase ops (a rolled-back clone with the casts in its payload, casts
/// that became no-ops), and so does the deduplication of casts.
class TrackedOps {
public:
  bool insert(Operation *op) {
    auto [it, inserted] = index.try_emplace(op, ops.size());
    if (inserted)
      ops.push_back(op);
    return inserted;
  }
  bool contains(Operation *op) const { return index.contains(op); }
  void forget(Operation *op) {
    auto it = index.find(op);
    if (it == index.end())
      return;
    ops[it->second] = nullptr;
    index.erase(it);
  }
  /// Slots in insertion order; a forgotten op leaves a null slot.
  size_t slots() const { return ops.size(); }
  Operation *operator[](size_t i) const { return ops[i]; }
  /// The ops not forgotten, in insertion order.
  SmallVector<Operation *> live() const {
    SmallVector<Operation *> result;
    for (Operation *op : ops)
      if (op)
        result.push_back(op);
    return result;
  }

private:
  SmallVector<Operation *> ops;
  DenseMap<Operation *, size_t, OpKeyInfo> index;
};

/// The ops the cast cache tracks, in three insertion-ordered lists (as
/// TrackedOps), and every op forget() must look at, behind one hash lookup
/// per op: the cache asks, for each input of each op it converts, which
/// lists hold it.
class TrackedLists {
public:
  enum List : unsigned {
    /// Casts made here (views and casts of operands).
    OwnCasts,
    /// Constants and empty tensors made here or converted in place (but
    /// not those only their converted reader reads: noteConvertedInPlace).
    Created,
    /// Constants and empty tensors read by converted ops: candidates of
    /// eraseDead.
    Rematerialized,
    NumLists
  };
  /// Which lists hold an op.
  struct Membership {
    bool in(List list) const { return mask & (1u << list); }
    bool any() const { return mask != 0; }
    unsigned mask = 0;
  };

  Membership get(Operation *op) const {
    auto it = entries.find(op);
    if (it == entries.end())
      return {};
    return {it->second.mask};
  }
  bool contains(List list, Operation *op) const { return get(op).in(list); }
  /// Adds `op` to `list` (once).
  void insert(List list, Operation *op) {
    Entry &entry = entries[op];
    if (entry.mask & (1u << list))
      return;
    entry.mask |= 1u << list;
    entry.slot[list] = ops[list].size();
    ops[list].push_back(op);
  }
  /// Remembers `op` without a list: forget() looks at it.
  void markKnown(Operation *op) { entries.try_emplace(op); }
  /// Sizes the table for about `n` ops at once instead of growing it.
  void reserve(size_t n) { entries.reserve(n); }
  /// Takes `op` out of `list` (its slot becomes null).
  void remove(List list, Operation *op) {
    auto it = entries.find(op);
    if (it == entries.end() || !(it->second.mask & (1u << list)))
      return;
    ops[list][it->second.slot[list]] = nullptr;
    it->second.mask &= ~(1u << list);
  }
  /// Takes `op` out of every list and forgets it; false if it was unknown.
  bool forget(Operation *op) {
    auto it = entries.find(op);
    if (it == entries.end())
      return false;
    for (unsigned list = 0; list < NumLists; ++list)
      if (it->second.mask & (1u << list))
        ops[list][it->second.slot[list]] = nullptr;
    entries.erase(it);
    return true;
  }
  /// Slots of `list` in insertion order; a removed op leaves a null slot.
  size_t slots(List list) const { return ops[list].size(); }
  Operation *at(List list, size_t i) const { return ops[list][i]; }
  /// The ops of `list`, in insertion order.
  SmallVector<Operation *> live(List list) const {
    SmallVector<Operation *> result;
    for (Operation *op : ops[list])
      if (op)
        result.push_back(op);
    return result;
  }

private:
  struct Entry {
    unsigned mask = 0;
    uint32_t slot[NumLists] = {};
  };
  DenseMap<Operation *, Entry, OpKeyInfo> entries;
  SmallVector<Operation *> ops[NumLists];
};

class CastCache;

/// Sees every op the conversion inserts and erases: records the float casts
/// inserted, wherever they come from (the cast cache, or a model casting a
/// value its payload captures), and forgets erased ops in every list that
/// holds them.
struct ConversionListener : public RewriterBase::Listener {
  void notifyOperationInserted(Operation *op,
                               OpBuilder::InsertPoint) override {
    // The payload of the op being rewritten (a rebuilt linalg body) goes
    // with that op; deduplication leaves payloads alone.
    if (trialRoot && op->getParentOp() == trialRoot)
      return;
    if (isFloatCast(op))
      casts.insert(op);
    else if (op->getNumOperands() == 0 && op->hasTrait<OpTrait::ConstantLike>())
      constants.insert(op);
    if (trial)
      trial->insert(op);
  }
  void notifyOperationErased(Operation *op) override;

  TrackedOps casts;
  /// Constants the models create (zero points, 16-bit literals).
  TrackedOps constants;
  /// Keys (getTrialKey) of the rewrites that verified.
  DenseSet<llvm::hash_code> goodTrials;
  CastCache *cache = nullptr;
  /// Set during a trial rewrite (see rewriteVerified): what it inserts, and
  /// the op it rewrites.
  TrackedOps *trial = nullptr;
  Operation *trialRoot = nullptr;
};

/// The value of a constant operand, or null (read directly from the

/// The value of a constant operand, or null (read directly from the
/// constants amp knows, not through the fold hook that m_Constant calls).
Attribute getConstantOperandValue(Value value);

/// Keeps one cast per (value, type): a cast dominated by an equal one is
/// replaced by it. Casts inside payloads (linalg bodies) are left alone.
void deduplicateCasts(Operation *root, const TrackedOps &casts,
                      RewriterBase &rewriter);

/// Keeps one of the constants the conversion made per (op name, type,
/// value): one dominated by an equal one is replaced by it (models make a
/// zero point per op, a TOSA model with many matmuls many equal ones).
void deduplicateConstants(Operation *root, const TrackedOps &constants,
                          RewriterBase &rewriter);

} // namespace conversion
} // namespace amp
} // namespace mlir

#endif // AMP_LIB_TRANSFORMS_CONVERSIONTRACKING_H
