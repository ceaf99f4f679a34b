//===- CastCache.h - One cast per value and type ----------------*- C++ -*-===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Internal to lib/Transforms: the cache through which the rewrite of a
// function fetches the operands of the ops it converts (MixedPrecision.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef AMP_LIB_TRANSFORMS_CASTCACHE_H
#define AMP_LIB_TRANSFORMS_CASTCACHE_H

#include "ConversionTracking.h"

#include "amp/Transforms/MixedPrecision.h"

#include "ConversionReport.h"

#include "amp/IR/AmpDialect.h"
#include "amp/Utils/CastUtils.h"
#include "amp/Utils/ConversionMemo.h"
#include "amp/Utils/IRKeyInfo.h"
#include "amp/Utils/TypeUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Transforms/ControlFlowSinkUtils.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/xxhash.h"

namespace mlir {
namespace amp {
namespace conversion {

class CastCache {
  static constexpr TrackedLists::List OwnCasts = TrackedLists::OwnCasts;
  static constexpr TrackedLists::List Created = TrackedLists::Created;
  static constexpr TrackedLists::List Rematerialized =
      TrackedLists::Rematerialized;

public:
  explicit CastCache(RewriterBase &rewriter) : rewriter(rewriter) {}

  /// Sizes the tables for a function of about `numOps` converted ops (each
  /// reads about one constant or empty tensor).
  void reserve(size_t numOps) { tracked.reserve(numOps); }

  /// Returns `value` with element type `elementType`, for use by `consumer`.
  Value get(Value value, Type elementType, Operation *consumer) {
    if (getScalarType(value.getType()) == elementType)
      return value;
    auto key = std::make_pair(value, elementType);
    if (auto it = cache.find(key); it != cache.end())
      return it->second;
    Operation *def = value.getDefiningOp();
    // A cast of a cast: an exact widening, or a narrowing made here, folds
    // back to its source rather than making a round trip.
    if (Value source = getFloatCastSource(def))
      if (getScalarType(source.getType()) == elementType &&
          (tracked.contains(OwnCasts, def) || isWidening(def))) {
        // The function's own widening may lose its last user: a candidate
        // of eraseDead, like the ops made here.
        if (!tracked.contains(OwnCasts, def))
          release(def);
        return source;
      }

    OpBuilder::InsertionGuard guard(rewriter);
    if (def) {
      rewriter.setInsertionPointAfter(def);
    } else {
      // Casts of block arguments go at the start of the block, in the order
      // they are asked for.
      Block *block = cast<BlockArgument>(value).getOwner();
      auto last = lastArgumentCast.find(block);
      if (last != lastArgumentCast.end())
        rewriter.setInsertionPointAfter(last->second);
      else
        rewriter.setInsertionPointToStart(block);
    }
    Location loc = def ? def->getLoc() : value.getLoc();
    Value result;
    if (isRematerializable(def)) {
      result = materializeElementType(rewriter, loc, value, elementType,
                                      /*preferTosa=*/false);
      tracked.insert(Rematerialized, def);
      tracked.insert(Created, result.getDefiningOp());
    } else {
      // tosa.cast in TOSA code: a TOSA producer or a TOSA consumer.
      bool preferTosa = isTosaOp(def) || isTosaOp(consumer);
      result = createFloatCast(rewriter, loc, value, elementType, preferTosa);
      tracked.insert(OwnCasts, result.getDefiningOp());
    }
    if (!def)
      lastArgumentCast[cast<BlockArgument>(value).getOwner()] =
          result.getDefiningOp();
    record(value, result);
    return result;
  }

  /// A constant or empty tensor converted in place, and what it was.
  struct InPlaceConversion {
    Operation *op;
    /// The value of a constant (null for an empty tensor): an Attribute,
    /// cast to TypedAttr (an interface lookup) only when it is used.
    Attribute oldValue;
    Type oldType;
  };

  /// True if `op` is one of the ops of `conversions`.
  static bool isConvertedInPlace(ArrayRef<InPlaceConversion> conversions,
                                 Operation *op) {
    return llvm::any_of(conversions, [&](const InPlaceConversion &conversion) {
      return conversion.op == op;
    });
  }

  /// True if `value` is an FP32 constant or empty tensor that only
  /// `consumer` reads (or, for a constant, that `othersReadAlike` says the
  /// others read as the consumer does) and that no converted copy of
  /// exists: if the consumer reads it in `elementType` wherever it reads it,
  /// it can be converted in place, with no new op and no dead one left to
  /// erase (a model's weights are most of its constants, and most empty
  /// tensors are the init of one elementwise op).
  bool canConvertInPlace(Value value, Type elementType, Operation *consumer,
                         function_ref<bool()> othersReadAlike) {
    Operation *def = value.getDefiningOp();
    if (!def || !isFloatType(elementType) ||
        !getScalarType(value.getType()).isF32() ||
        cache.contains({value, elementType}))
      return false;
    if (isa<tensor::EmptyOp>(def))
      return isOnlyReadBy(value, consumer);
    return isFloatConstant(def) &&
           (isOnlyReadBy(value, consumer) || othersReadAlike());
  }
  /// Converts what canConvertInPlace accepted (nothing if it has that type
  /// already: an op may read it twice); `undo` gets what restoreInPlace
  /// needs, and noteConvertedInPlace what it records once the consumer is
  /// rewritten.
  void convertInPlace(Value value, Type elementType,
                      SmallVectorImpl<InPlaceConversion> &undo) {
    if (getScalarType(value.getType()) == elementType)
      return;
    Operation *def = value.getDefiningOp();
    undo.push_back({def,
                    isa<tensor::EmptyOp>(def) ? Attribute()
                                              : getConstantAttr(def),
                    value.getType()});
    setElementTypeInPlace(rewriter, value, cast<FloatType>(elementType));
  }

  /// Takes back convertInPlace (the consumer's rewrite failed).
  void restoreInPlace(ArrayRef<InPlaceConversion> undo) {
    for (const InPlaceConversion &entry : undo) {
      if (entry.oldValue)
        setConstantValue(rewriter, entry.op, cast<TypedAttr>(entry.oldValue));
      else
        rewriter.modifyOpInPlace(entry.op, [&] {
          entry.op->getResult(0).setType(entry.oldType);
        });
    }
  }

  /// Records a constant or empty tensor converted in place for `reader`,
  /// whose rewrite succeeded. If only `reader` reads it, it stays read by it
  /// to the end (a rewritten op is not erased later, and the cleanup erases
  /// only what the conversion made or left dead): it is counted, not tracked
  /// (a table insertion per weight of a model). Otherwise it is tracked as
  /// created (the rewrite may no longer read it), and a constant that later
  /// ops read too keeps its FP32 value (noteShared).
  void noteConvertedInPlace(const InPlaceConversion &conversion,
                            Operation *reader) {
    Value value = conversion.op->getResult(0);
    bool onlyReader = isOnlyReadBy(value, reader);
    if (onlyReader && !value.use_empty()) {
      // (As countLiveConstants counts the tracked ones: the op is left as
      // it is now.)
      if (isFloatConstant(conversion.op))
        ++keptConstants;
      return;
    }
    tracked.insert(Created, conversion.op);
    if (conversion.oldValue && !onlyReader)
      noteShared(conversion);
  }

  /// Keeps the FP32 value of a constant converted in place that later ops
  /// read too (canConvertInPlace's `othersReadAlike`), for getOriginal.
  void noteShared(const InPlaceConversion &conversion) {
    sharedOriginals[conversion.op] = cast<TypedAttr>(conversion.oldValue);
  }

  /// True if `value` is a constant noted by noteShared.
  bool isShared(Value value) const {
    if (sharedOriginals.empty())
      return false;
    Operation *def = value.getDefiningOp();
    return def && sharedOriginals.contains(def);
  }

  /// For a reader of a constant noted by noteShared whose rewrite failed:
  /// a copy of the constant with its FP32 value, right after it (made on
  /// the first request); `value` itself for any other value.
  Value getOriginal(Value value) {
    Operation *def = value.getDefiningOp();
    auto it = def ? sharedOriginals.find(def) : sharedOriginals.end();
    if (it == sharedOriginals.end())
      return value;
    Type f32 = getScalarType(it->second.getType());
    if (auto cached = cache.find({value, f32}); cached != cache.end())
      return cached->second;
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointAfter(def);
    Value copy = createConstantLike(rewriter, def, it->second);
    tracked.insert(Created, copy.getDefiningOp());
    record(value, copy);
    return copy;
  }

  /// The cast of the new result `value` back to `elementType` (its old
  /// type) right after its definition: made on the first request.
  Value getView(Value value, Type elementType) {
    if (auto it = cache.find({value, elementType}); it != cache.end())
      return it->second;
    return makeView(value, elementType);
  }

  /// Creates the cast of the new result `value` back to `elementType` (its
  /// old type) right after its definition.
  Value makeView(Value value, Type elementType) {
    OpBuilder::InsertionGuard guard(rewriter);
    Operation *def = value.getDefiningOp();
    rewriter.setInsertionPointAfter(def);
    Value view = createFloatCast(rewriter, def->getLoc(), value, elementType,
                                 isTosaOp(def));
    tracked.insert(OwnCasts, view.getDefiningOp());
    record(value, view);
    return view;
  }

  /// Remembers the constants and empty tensors `op` reads (also inside its
  /// payload), which its rewrite may leave without users; those converted
  /// in place for it (`inPlace`) are recorded after its rewrite
  /// (noteConvertedInPlace).
  void noteInputsOf(Operation *op, ArrayRef<InPlaceConversion> inPlace) {
    auto note = [&](Value value) {
      Operation *def = value.getDefiningOp();
      if (!def || isConvertedInPlace(inPlace, def))
        return;
      if (isRematerializable(def))
        tracked.insert(Rematerialized, def);
    };
    for (Value operand : op->getOperands())
      note(operand);
    // Values its payload captures (noted once: insert ignores repeats).
    for (Region &region : op->getRegions())
      region.walk([&](Operation *inner) {
        for (Value operand : inner->getOperands())
          if (Operation *def = operand.getDefiningOp();
              def && !op->isAncestor(def))
            note(operand);
      });
  }

  /// Erases the casts, constants and empty tensors made here, and the
  /// originals they replaced, that are no longer used; and then, in turn,
  /// the casts made here, constants and empty tensors that only they used
  /// (an empty tensor converted in place whose view was its only user).
  /// Erases those of `defs` (the producers an op read before it was
  /// rewritten) that nothing uses any more, and in turn what only they used:
  /// the FP32 constants, empty tensors and casts a converted op no longer
  /// reads go while the conversion runs, instead of living until eraseDead
  /// (peak memory on a big function). Only constants and the ops made here
  /// are erased now: an op of the function itself (an empty tensor) may be
  /// one the conversion has not reached yet (blocks need not be in dominance
  /// order), so it is left to eraseDead. `defs` may name ops erased since:
  /// only those still in a list are looked at (erasing forgets); no op is
  /// created meanwhile, so `erased` cannot confuse a new op with an erased
  /// one.
  void eraseDeadInputs(ArrayRef<Operation *> defs) {
    auto now = [&](Operation *op, TrackedLists::Membership member) {
      return member.in(OwnCasts) || member.in(Created) || isFloatConstant(op);
    };
    SmallVector<Operation *> worklist;
    // (Only casts, constants, empty tensors and fills are ever in a list:
    // the other producers, converted ops, are not looked up.)
    for (Operation *def : defs)
      if (isFloatCast(def) || isRematerializable(def))
        if (TrackedLists::Membership member = tracked.get(def);
            member.any() && now(def, member))
          worklist.push_back(def);
    SmallPtrSet<Operation *, 8> erased;
    while (!worklist.empty()) {
      Operation *next = worklist.pop_back_val();
      if (erased.contains(next) || !next->use_empty())
        continue;
      SmallPtrSet<Operation *, 4> inputs;
      for (Value operand : next->getOperands()) {
        Operation *def = operand.getDefiningOp();
        if (!def)
          continue;
        if (now(def, tracked.get(def)))
          inputs.insert(def);
        else if (isRematerializable(def))
          tracked.insert(Rematerialized, def); // For eraseDead.
      }
      erased.insert(next);
      rewriter.eraseOp(next);
      worklist.append(inputs.begin(), inputs.end());
    }
  }

  void eraseDead() {
    // Casts made here may feed each other (f16 <-> bf16 goes through f32):
    // erase in reverse creation order. Erasing forgets the op (its slot
    // becomes null), so the lists are read by index. No op is created
    // meanwhile, so `erased` cannot confuse a new op with an erased one.
    DenseSet<Operation *> erased;
    SmallVector<Operation *> worklist;
    auto eraseIfDead = [&](Operation *op) {
      worklist.push_back(op);
      while (!worklist.empty()) {
        Operation *next = worklist.pop_back_val();
        if (erased.contains(next) || !next->use_empty())
          continue;
        SmallPtrSet<Operation *, 4> defs;
        // A float cast of the function's own feeding a dead one died with
        // the conversion too (a truncf whose only user was a bypassed extf).
        for (Value operand : next->getOperands())
          if (Operation *def = operand.getDefiningOp();
              def && (tracked.contains(OwnCasts, def) ||
                      isRematerializable(def) ||
                      isFloatCast(def)))
            defs.insert(def);
        erased.insert(next);
        rewriter.eraseOp(next);
        worklist.append(defs.begin(), defs.end());
      }
    };
    // (An op still in a list is alive: erasing it would have emptied its
    // slot. Most are used: tested before the worklist.)
    for (TrackedLists::List list : {OwnCasts, Created, Rematerialized})
      for (size_t i = tracked.slots(list); i-- > 0;)
        if (Operation *op = tracked.at(list, i); op && op->use_empty())
          eraseIfDead(op);
  }

  /// Moves every cast made here whose users all lie in one region that runs
  /// at most once each time its op runs (an scf.if branch) to the start of
  /// that region, as deep as its users allow: a branch not taken casts
  /// nothing. Casts are created next to their source; the sharing of a cast
  /// by all its users is kept (a cast with users in two regions stays).
  /// Reverse creation order: a cast that feeds another (f16 <-> bf16 through
  /// f32) follows it in.
  void sinkIntoBranches() {
    for (size_t i = tracked.slots(OwnCasts); i-- > 0;)
      if (Operation *castOp = tracked.at(OwnCasts, i))
        while (Region *region = getSinkRegion(castOp))
          castOp->moveBefore(&region->front(), region->front().begin());
  }

  /// A converted op's old users read its new result through a widening
  /// cast made here (a view); those that are casts back to the new result's
  /// type (the user's own truncf or tosa.cast, now a round trip) read the new
  /// result itself instead.
  void foldRoundTrips() {
    for (size_t i = 0; i < tracked.slots(OwnCasts); ++i) {
      Operation *view = tracked.at(OwnCasts, i);
      if (!view || !isWidening(view))
        continue;
      Value low = view->getOperand(0);
      for (Operation *user : llvm::make_early_inc_range(
               view->getResult(0).getUsers()))
        if (getFloatCastSource(user) && user->getResult(0).getType() ==
                                            low.getType())
          rewriter.replaceOp(user, low);
    }
  }

  /// Makes `op` a candidate of eraseDead.
  void release(Operation *op) { tracked.insert(Rematerialized, op); }

  /// Forgets `op`, which is being erased, and the cache entries of its
  /// results.
  void forget(Operation *op) {
    // Most erased ops (payloads, rewritten originals) are unknown here: one
    // lookup decides.
    if (!tracked.forget(op))
      return;
    sharedOriginals.erase(op);
    if (Block *block = op->getBlock()) {
      auto last = lastArgumentCast.find(block);
      if (last != lastArgumentCast.end() && last->second == op)
        lastArgumentCast.erase(last);
    }
    for (Value result : op->getResults()) {
      Type resultType = getScalarType(result.getType());
      for (Type type : keyTypes) {
        auto it = cache.find({result, type});
        if (it == cache.end())
          continue;
        Value other = it->second;
        cache.erase(it);
        auto back = cache.find({other, resultType});
        if (back != cache.end() && back->second == result)
          cache.erase(back);
      }
    }
  }

  /// The bytes the live casts read and write.
  int64_t countLiveCastBytes() const {
    int64_t bytes = 0;
    for (Operation *op : tracked.live(OwnCasts))
      if (!op->use_empty())
        bytes += getStaticElementCount(op->getResult(0).getType()) *
                 (getScalarType(op->getOperand(0).getType())
                      .getIntOrFloatBitWidth() +
                  getScalarType(op->getResult(0).getType())
                      .getIntOrFloatBitWidth()) /
                 8;
    return bytes;
  }

  int64_t countLiveCasts() const {
    return llvm::count_if(tracked.live(OwnCasts),
                          [](Operation *op) { return !op->use_empty(); });
  }
  int64_t countLiveConstants() const {
    return llvm::count_if(tracked.live(Created), isFloatConstant) +
           keptConstants;
  }

private:
  /// The region of a RegionBranchOpInterface op, run at most once per run of
  /// the op, that holds every user of `op` while `op` is outside it; null if
  /// there is none.
  static Region *getSinkRegion(Operation *op) {
    Block *block = op->getBlock();
    Operation *branchOp = nullptr;
    Region *region = nullptr;
    for (Operation *user : op->getUsers()) {
      Operation *ancestor = block->findAncestorOpInBlock(*user);
      if (!ancestor || ancestor == user ||
          (branchOp && ancestor != branchOp))
        return nullptr;
      branchOp = ancestor;
      Region *userRegion = user->getParentRegion();
      while (userRegion->getParentOp() != branchOp)
        userRegion = userRegion->getParentOp()->getParentRegion();
      if (region && userRegion != region)
        return nullptr;
      region = userRegion;
    }
    auto branch = dyn_cast_or_null<RegionBranchOpInterface>(branchOp);
    if (!branch)
      return nullptr;
    SmallVector<Region *, 2> singlyExecuted;
    getSinglyExecutedRegionsToSink(branch, singlyExecuted);
    return llvm::is_contained(singlyExecuted, region) ? region : nullptr;
  }

  static bool isWidening(Operation *cast) {
    Type from = getScalarType(cast->getOperand(0).getType());
    Type to = getScalarType(cast->getResult(0).getType());
    return from.getIntOrFloatBitWidth() < to.getIntOrFloatBitWidth();
  }

  void record(Value original, Value converted) {
    for (Value value : {original, converted})
      if (Operation *def = value.getDefiningOp())
        tracked.markKnown(def);
      else
        tracked.markKnown(
            cast<BlockArgument>(value).getOwner()->getParentOp());
    Type originalType = getScalarType(original.getType());
    Type convertedType = getScalarType(converted.getType());
    cache[{original, convertedType}] = converted;
    cache[{converted, originalType}] = original;
    for (Type type : {originalType, convertedType})
      if (!llvm::is_contained(keyTypes, type))
        keyTypes.push_back(type);
  }

  RewriterBase &rewriter;
  /// (value, element type) -> the value with that element type. Every entry
  /// has its mirror (converted, original type) -> original.
  DenseMap<std::pair<Value, Type>, Value> cache;
  /// The element types used in keys of `cache` (a handful).
  SmallVector<Type, 4> keyTypes;
  /// Constants converted in place that only their reader reads (see
  /// noteConvertedInPlace).
  int64_t keptConstants = 0;
  /// noteShared: constants converted in place -> their FP32 values.
  DenseMap<Operation *, TypedAttr, OpKeyInfo> sharedOriginals;
  /// The casts made here, the ops created or converted in place, the
  /// rematerializable inputs of converted ops, and every op defining a value
  /// of `cache` or the last cast of arguments of a block.
  TrackedLists tracked;
  DenseMap<Block *, Operation *> lastArgumentCast;
};

} // namespace conversion
} // namespace amp
} // namespace mlir

#endif // AMP_LIB_TRANSFORMS_CASTCACHE_H
