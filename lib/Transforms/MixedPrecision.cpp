//===- MixedPrecision.cpp - Carry out a precision plan --------------------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Rewrites a function as its PrecisionPlan says, one op at a time in
// program order:
//  - the operands of a low-precision op are fetched through a cast cache
//    (one cast per value and type; constants and empty tensors are rebuilt
//    instead of cast; a cast of a cast folds back to the original value);
//  - the op is rebuilt by its model and verified; if the model or the
//    verifier refuses, the op is left as it was, with a remark;
//  - each result whose type changed is read as it is by the users the plan
//    converts later (they are given that operand in the type they read it
//    in when their turn comes), and through a cast back to its old type (a
//    view) by all others. A user whose rewrite then fails reads it through
//    the view too. So every op reads valid types once it has been visited,
//    and the whole function is valid at the end.
// Casts and constants nobody uses are erased at the end, and so is what a
// refused rewrite made.
//
//===----------------------------------------------------------------------===//

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

using namespace mlir;
using namespace mlir::amp;

void ConversionStats::merge(const ConversionStats &other) {
  casts += other.casts;
  castBytes += other.castBytes;
  grayBytes += other.grayBytes;
  redBytes += other.redBytes;
  foldedConstants += other.foldedConstants;
  constantBytesBefore += other.constantBytesBefore;
  constantBytesAfter += other.constantBytesAfter;
  converted += other.converted;
  fp8 += other.fp8;
  unknown += other.unknown;
  green += other.green;
  grayLow += other.grayLow;
  grayHigh += other.grayHigh;
  red += other.red;
  constants.merge(other.constants);
}

namespace {

//===----------------------------------------------------------------------===//
// Diagnostics of trial verification
//===----------------------------------------------------------------------===//

/// While a CaptureScope is alive on a thread, the diagnostics emitted on
/// that thread are collected instead of reported. Other threads are not
/// affected, so trial verification is safe while functions are converted in
/// parallel.
thread_local SmallVectorImpl<std::string> *captureSink = nullptr;

struct CaptureScope {
  explicit CaptureScope(SmallVectorImpl<std::string> &sink) {
    previous = captureSink;
    captureSink = &sink;
  }
  ~CaptureScope() { captureSink = previous; }
  SmallVectorImpl<std::string> *previous;
};

/// Registers, for its lifetime, the context handler that serves
/// CaptureScope.
struct CaptureHandler {
  explicit CaptureHandler(MLIRContext *ctx) : ctx(ctx) {
    id = ctx->getDiagEngine().registerHandler(
        [](Diagnostic &diag) -> LogicalResult {
          if (!captureSink)
            return failure(); // Not ours: let the next handler report it.
          captureSink->push_back(diag.str());
          return success();
        });
  }
  ~CaptureHandler() { ctx->getDiagEngine().eraseHandler(id); }
  MLIRContext *ctx;
  DiagnosticEngine::HandlerID id;
};

//===----------------------------------------------------------------------===//
// Tracking the ops the conversion makes
//===----------------------------------------------------------------------===//

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
/// constants amp knows, not through the fold hook that m_Constant calls).
Attribute getConstantOperandValue(Value value) {
  Operation *def = value.getDefiningOp();
  if (!def)
    return {};
  if (isa<arith::ConstantOp, tosa::ConstOp>(def))
    return getConstantAttr(def);
  // ConstantLike ops have no operands: a cheap test before the trait
  // lookup, which searches the op's trait list.
  if (def->getNumOperands() != 0 || !def->hasTrait<OpTrait::ConstantLike>())
    return {};
  Attribute attr;
  (void)matchPattern(value, m_Constant(&attr));
  return attr;
}

/// Replaces every member of each group (equal ops: same value, in creation
/// order) that an other member dominates by that member. In one block, the
/// first in block order stands for all (linear, no dominance query); only the
/// blocks' first members are compared with dominance, and there are few.
template <typename Key>
void replaceDominatedMembers(
    Operation *root, DenseMap<Key, SmallVector<Operation *, 2>> &groups,
    RewriterBase &rewriter) {
  std::optional<DominanceInfo> dominance;
  for (auto &[key, members] : groups) {
    if (members.size() < 2)
      continue;
    SmallVector<Operation *, 2> firsts; // One per block, in member order.
    DenseMap<Block *, size_t> firstOf;
    for (Operation *op : members) {
      auto [it, inserted] = firstOf.try_emplace(op->getBlock(), firsts.size());
      if (inserted)
        firsts.push_back(op);
      else if (op->isBeforeInBlock(firsts[it->second]))
        firsts[it->second] = op;
    }
    for (Operation *op : members) {
      Operation *first = firsts[firstOf[op->getBlock()]];
      if (op != first)
        rewriter.replaceOp(op, first->getResults());
    }
    if (firsts.size() < 2)
      continue;
    if (!dominance)
      dominance.emplace(root);
    for (Operation *&op : firsts) {
      if (!op)
        continue;
      for (Operation *&other : firsts) {
        if (!other || other == op || !dominance->properlyDominates(op, other))
          continue;
        rewriter.replaceOp(other, op->getResults());
        other = nullptr;
      }
    }
  }
}

/// Keeps one cast per (value, type): a cast dominated by an equal one is
/// replaced by it. Casts inside payloads (linalg bodies) are left alone.
void deduplicateCasts(Operation *root, const TrackedOps &casts,
                      RewriterBase &rewriter) {
  DenseMap<std::pair<Value, Type>, SmallVector<Operation *, 2>> groups;
  for (Operation *op : casts.live()) {
    if (isa<MixedPrecisionOpInterface>(op->getParentOp()))
      continue;
    groups[{op->getOperand(0), op->getResult(0).getType()}].push_back(op);
  }
  replaceDominatedMembers(root, groups, rewriter);
}

/// Keeps one of the constants the conversion made per (op name, type,
/// value): one dominated by an equal one is replaced by it (models make a
/// zero point per op, a TOSA model with many matmuls many equal ones).
void deduplicateConstants(Operation *root, const TrackedOps &constants,
                          RewriterBase &rewriter) {
  using Key = std::tuple<OperationName, Type, Attribute>;
  DenseMap<Key, SmallVector<Operation *, 2>> groups;
  for (Operation *op : constants.live()) {
    // Scalars in payloads (linalg bodies) belong to their op: one block each.
    if (isa<MixedPrecisionOpInterface>(op->getParentOp()) ||
        op->getNumResults() != 1)
      continue;
    Attribute value = getConstantOperandValue(op->getResult(0));
    if (!value)
      continue;
    groups[{op->getName(), op->getResult(0).getType(), value}].push_back(op);
  }
  replaceDominatedMembers(root, groups, rewriter);
}

//===----------------------------------------------------------------------===//
// Cast cache
//===----------------------------------------------------------------------===//

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

void ConversionListener::notifyOperationErased(Operation *op) {
  // Only casts are in `casts` (a type test spares most erased ops a lookup).
  if (isa<arith::ExtFOp, arith::TruncFOp, tosa::CastOp>(op))
    casts.forget(op);
  else if (op->getNumOperands() == 0)
    constants.forget(op);
  if (trial)
    trial->forget(op);
  if (cache)
    cache->forget(op);
}

//===----------------------------------------------------------------------===//
// Rewriting one op
//===----------------------------------------------------------------------===//

/// Verifies `op` and the ops nested in it: their invariants, traits and
/// custom verifiers, but not dominance, which mlir::verify would check by
/// recomputing the order of the whole block after every insertion (quadratic
/// over a function). The rewrite only retypes an op and its payload, so
/// dominance cannot change.
LogicalResult verifyLocally(Operation *op) {
  WalkResult result = op->walk<WalkOrder::PreOrder>([](Operation *nested) {
    if (failed(nested->getName().verifyInvariants(nested)))
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  if (result.wasInterrupted())
    return failure();
  result = op->walk([](Operation *nested) {
    if (failed(nested->getName().verifyRegionInvariants(nested)))
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

/// The attributes and properties of an op, to restore them after a failed
/// trial. Taken for every op rewritten, so without building a dictionary of
/// its properties (getAttrDictionary): the properties are copied as they
/// are.
class AttributeSnapshot {
public:
  explicit AttributeSnapshot(Operation *op)
      : op(op), name(op->getName()), discardable(op->getRawDictionaryAttrs()),
        size(op->getPropertiesStorageSize()) {
    if (size == 0)
      return;
    // Most ops' properties fit the inline buffer: no allocation per op.
    storage = size <= static_cast<int>(sizeof(inlineStorage))
                  ? inlineStorage
                  : static_cast<char *>(llvm::allocate_buffer(
                        size, alignof(std::max_align_t)));
    op->getName().initOpProperties(OpaqueProperties(storage),
                                   op->getPropertiesStorage());
  }
  /// (The op may be gone by now: a failed trial of an op with regions puts
  /// a copy in its place. Only what was read at construction is used.)
  ~AttributeSnapshot() {
    if (!storage)
      return;
    name.destroyOpProperties(OpaqueProperties(storage));
    if (storage != inlineStorage)
      llvm::deallocate_buffer(storage, size, alignof(std::max_align_t));
  }
  AttributeSnapshot(const AttributeSnapshot &) = delete;
  AttributeSnapshot &operator=(const AttributeSnapshot &) = delete;

  bool changed() const {
    return op->getRawDictionaryAttrs() != discardable ||
           (storage && !op->getName().compareOpProperties(
                           OpaqueProperties(storage),
                           op->getPropertiesStorage()));
  }
  void restore() {
    op->setDiscardableAttrs(discardable);
    if (storage)
      op->copyProperties(OpaqueProperties(storage));
  }

private:
  Operation *op;
  OperationName name;
  DictionaryAttr discardable;
  int size;
  char *storage = nullptr;
  alignas(std::max_align_t) char inlineStorage[128];
};

/// While alive, records in `ops` every op inserted through `listener` (a
/// trial rewrite), so that a failed trial can take back what it made.
struct TrialScope {
  TrialScope(ConversionListener &listener, Operation *root)
      : listener(listener) {
    listener.trial = &ops;
    listener.trialRoot = root;
  }
  ~TrialScope() {
    listener.trial = nullptr;
    listener.trialRoot = nullptr;
  }
  ConversionListener &listener;
  TrackedOps ops;
};

/// Appends to `words` what a trial key sees of an operand: its type, and its
/// value if it is a constant.
void describeOperand(Value value, SmallVectorImpl<size_t> &words) {
  words.append({reinterpret_cast<size_t>(value.getType().getAsOpaquePointer()),
                reinterpret_cast<size_t>(
                    getConstantOperandValue(value).getAsOpaquePointer())});
}

/// Appends to `words` the structure of `op` up to the identity of values:
/// its name, attributes, properties, result types, its operands (as
/// describeOperand, or, for a value defined inside the op being described,
/// as the position of its definition in `local`, or, for an operand equal to
/// the one at its position in `described`, as that: the caller describes
/// those) and its regions, recursively.
void describeOp(Operation *op, llvm::SmallDenseMap<Value, unsigned, 16> &local,
                SmallVectorImpl<size_t> &words, bool nested = false,
                ValueRange described = {}) {
  auto define = [&](Value value) {
    local.try_emplace(value, local.size());
    words.push_back(
        reinterpret_cast<size_t>(value.getType().getAsOpaquePointer()));
  };
  words.append({reinterpret_cast<size_t>(op->getName().getAsOpaquePointer()),
                reinterpret_cast<size_t>(
                    op->getRawDictionaryAttrs().getAsOpaquePointer()),
                static_cast<size_t>(op->hashProperties()), op->getNumOperands(),
                op->getNumRegions()});
  for (auto [number, operand] : llvm::enumerate(op->getOperands())) {
    // (Nothing is defined inside the op before its payload is described.)
    auto it = local.empty() ? local.end() : local.find(operand);
    if (it != local.end()) {
      words.append({0, it->second});
    } else if (number < described.size() && described[number] == operand) {
      // Kept by the rewrite: described with the new operands.
      words.push_back(2);
    } else {
      words.push_back(1);
      describeOperand(operand, words);
    }
  }
  // The results of the op described are used outside it only: no operand
  // inside refers to them, and they take no number.
  for (Value result : op->getResults()) {
    if (nested)
      define(result);
    else
      words.push_back(
          reinterpret_cast<size_t>(result.getType().getAsOpaquePointer()));
  }
  for (Region &region : op->getRegions()) {
    words.push_back(region.getBlocks().size());
    for (Block &block : region) {
      words.push_back(block.getNumArguments());
      for (BlockArgument arg : block.getArguments())
        define(arg);
      for (Operation &inner : block)
        describeOp(&inner, local, words, /*nested=*/true);
    }
  }
}

/// What decides the rewrite of an op: its structure (describeOp: types,
/// attributes, constant operands, regions), its parent's name, the operands
/// it gets and the types of the decision. Models are deterministic: two ops
/// with one key are rewritten alike, so the result of the second is valid if
/// that of the first was (a thousand equal layers are verified once).
llvm::hash_code getTrialKey(Operation *op, ValueRange operands,
                            const OpDecision &decision) {
  llvm::SmallDenseMap<Value, unsigned, 16> local;
  SmallVector<size_t, 64> words;
  describeOp(op, local, words, /*nested=*/false, operands);
  for (Value operand : operands)
    describeOperand(operand, words);
  words.append(
      {reinterpret_cast<size_t>(
           op->getParentOp()->getName().getAsOpaquePointer()),
       reinterpret_cast<size_t>(decision.computeType.getAsOpaquePointer()),
       reinterpret_cast<size_t>(decision.accumulateType.getAsOpaquePointer())});
  // xxh3 over the words' bytes: a third of hash_combine_range's
  // instructions on a key of a few dozen words.
  return llvm::hash_code(llvm::xxh3_64bits(ArrayRef<uint8_t>(
      reinterpret_cast<const uint8_t *>(words.data()),
      words.size() * sizeof(size_t))));
}

/// Rebuilds `op` through its model and verifies the result. On failure the
/// IR is as before (the op restored, what the model inserted around it
/// erased), `op` is the restored op and `why` says what went wrong.
///
/// Models change ops in place where they can (TOSA ops, linalg payloads
/// retyped). The attributes, operands and result types are restored from a
/// snapshot; an op with regions is restored from a detached copy taken
/// before the trial. An op whose trial key verified before is neither
/// copied nor verified: its rewrite is equal to one that verified.
FailureOr<Operation *> rewriteVerified(Operation *&op, RewriterBase &rewriter,
                                       ConversionListener &listener,
                                       ValueRange operands,
                                       const OpDecision &decision,
                                       std::string &why) {
  SmallVector<Value> oldOperands(op->getOperands());
  SmallVector<Type> oldTypes(op->getResultTypes());
  AttributeSnapshot oldAttrs(op);
  llvm::hash_code trialKey = getTrialKey(op, operands, decision);
  bool knownGood = listener.goodTrials.contains(trialKey);
  Operation *backup = nullptr;
  auto iface = getMixedPrecisionInterface(op);
  if (iface && op->getNumRegions() != 0 && !knownGood)
    backup = op->clone();

  SmallVector<std::string> messages;
  FailureOr<Operation *> newOp = failure();
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(op);
  TrialScope trial(listener, op);
  // Models fail before changing an op's regions; the verifier may refuse
  // what they made.
  bool refused = false;
  {
    CaptureScope scope(messages);
    if (iface)
      newOp = iface.rewriteInPrecision(rewriter, operands, decision.computeType,
                                       decision.accumulateType);
    else
      newOp = amp::detail::rewriteResultsInPlace(op, rewriter, operands,
                                            decision.computeType);
    if (succeeded(newOp) && !knownGood && failed(verifyLocally(*newOp))) {
      if (*newOp != op)
        rewriter.eraseOp(*newOp);
      else
        refused = true;
      newOp = failure();
    }
  }
  if (succeeded(newOp)) {
    listener.goodTrials.insert(trialKey);
    if (backup)
      backup->destroy();
    return newOp;
  }

  // Restore the op (a model may fail after changing it in place, or the
  // verifier may refuse the change), then erase, last first, what the trial
  // inserted and nothing uses any more (zero points, empty inits, casts of
  // captured values).
  Operation *restored = op;
  if (backup && !refused) {
    // The model failed, or made a new op: this one is as it was.
    backup->destroy();
    backup = nullptr;
  }
  if (backup) {
    // The op's regions were changed in place: the copy takes its place
    // (its regions are payloads, which hold no op the plan still has to
    // visit).
    rewriter.setInsertionPoint(op);
    rewriter.insert(backup);
    rewriter.replaceOp(op, backup->getResults());
    restored = backup;
  } else {
    bool changed = !llvm::equal(op->getOperands(), oldOperands) ||
                   !llvm::equal(op->getResultTypes(), oldTypes) ||
                   oldAttrs.changed();
    if (changed) {
      rewriter.modifyOpInPlace(op, [&] {
        op->setOperands(oldOperands);
        for (auto [result, type] : llvm::zip(op->getResults(), oldTypes))
          result.setType(type);
        oldAttrs.restore();
      });
    }
  }
  for (size_t i = trial.ops.slots(); i-- > 0;)
    if (Operation *inserted = trial.ops[i];
        inserted && inserted != restored && inserted->use_empty())
      rewriter.eraseOp(inserted);
  op = restored;
  why = messages.empty() ? "its model cannot compute in these types"
                         : messages.front();
  return failure();
}

/// Converted results that users still to be converted read as they are,
/// with their old element type: a user whose rewrite fails reads them
/// through a view instead. The first result of an op of the plan converted
/// in place (most of them) is kept by the op's index, with no hashing; the
/// others by value.
class PendingTypes {
public:
  explicit PendingTypes(const PrecisionPlan &plan)
      : plan(plan), byIndex(plan.getOps().size()) {}

  /// Notes `result`, a result of getOps()[i] or of the op that replaced it,
  /// with its old element type (the first note of a value is kept).
  void add(Value result, size_t i, Type oldType) {
    auto opResult = cast<OpResult>(result);
    if (opResult.getResultNumber() == 0 &&
        opResult.getOwner() == plan.getOps()[i]) {
      if (!byIndex[i])
        byIndex[i] = oldType;
      return;
    }
    byValue.try_emplace(result, oldType);
  }

  /// The old element type of `value` if it was noted, else null. `near` is
  /// the index of an op that reads it. (An op converted in place stays
  /// while the conversion runs: the op at its index is still it.)
  Type lookup(Value value, size_t near) const {
    if (auto result = dyn_cast<OpResult>(value);
        result && result.getResultNumber() == 0)
      if (std::optional<unsigned> i = plan.findIndex(result.getOwner(), near);
          i && byIndex[*i])
        return byIndex[*i];
    return byValue.lookup(value);
  }

private:
  const PrecisionPlan &plan;
  std::vector<Type> byIndex;
  DenseMap<Value, Type, ValueKeyInfo> byValue;
};

/// True if `op` already has the operand and result types its rewrite would
/// give it (the pass ran before).
bool isAlreadyConverted(Operation *op, ValueRange operands,
                        const OpDecision &decision) {
  if (!llvm::equal(op->getOperands(), operands))
    return false;
  Type native = decision.computeType;
  if (auto iface = getMixedPrecisionInterface(op))
    native = iface.getConvertedResultElementType(decision.computeType,
                                                 decision.accumulateType);
  return llvm::all_of(op->getResultTypes(), [&](Type type) {
    return !hasFloatElementType(type) || getScalarType(type) == native;
  });
}

int64_t countFloatConstantBytes(Operation *root) {
  int64_t bytes = 0;
  root->walk([&](Operation *op) {
    if (!isFloatConstant(op))
      return;
    bytes += getConstantByteSize(getConstantAttr(op));
  });
  return bytes;
}

/// The remark of `remarks=true`: color, reason and types of one op.
void emitDecisionRemark(Operation *op, const OpDecision &decision) {
  InFlightDiagnostic diag = mlir::emitRemark(op->getLoc());
  diag << "amp: " << stringifyColor(decision.color) << " ("
       << stringifyReason(decision.reason) << "), ";
  if (!decision.lowPrecision) {
    diag << "stays in FP32";
  } else {
    diag << "inputs " << decision.computeType;
    if (decision.color == Color::green)
      diag << ", accumulate " << decision.accumulateType << ", output "
           << decision.outputType;
  }
  if (std::string why = describeRangeReason(decision); !why.empty())
    diag << "; " << why;
}

std::string getFunctionName(Operation *root) {
  if (auto symbol = dyn_cast<SymbolOpInterface>(root))
    return symbol.getName().str();
  return root->getName().getStringRef().str();
}

} // namespace

//===----------------------------------------------------------------------===//
// Converting a function
//===----------------------------------------------------------------------===//

namespace {
/// One round of the conversion: plans `root` and rewrites it.
LogicalResult convertOnce(Operation *root, const MixedPrecisionOptions &options,
                          FunctionConversion *result,
                          ArrayRef<Operation *> disposableCasts) {
  // A layer's bounds, zero points and activation types are converted once
  // per function, not once per layer.
  ConversionMemo memo;
  ConversionMemo::Scope memoScope(memo);

  FunctionConversion local;
  FunctionConversion &out = result ? *result : local;
  out.function = getFunctionName(root);

  // FP8 first: the contractions it converts (and the ops it makes) are
  // left alone by the plan, which decides everything else in the fallback
  // type (options.target).
  FP8Conversion fp8;
  if (failed(convertContractionsToFP8(root, options, fp8)))
    return failure();
  MixedPrecisionOptions afterFP8;
  const MixedPrecisionOptions *planOptions = &options;
  if (options.fp8Type || !fp8.converted.empty() || !fp8.fallbacks.empty()) {
    afterFP8 = options;
    afterFP8.fixedOps = &fp8.fixedOps;
    // skip-layers counted the green ops before some became FP8.
    afterFP8.skippedOps = &fp8.skippedOps;
    if (!fp8.observed.empty() && options.observedMaxAbs)
      afterFP8.observedMaxAbs = [&fp8, observed = options.observedMaxAbs](
                                    OpResult value) -> std::optional<double> {
        auto it = fp8.observed.find(value);
        if (it != fp8.observed.end())
          return it->second;
        return observed(value);
      };
    planOptions = &afterFP8;
  }
  for (FP8Conversion::Converted &converted : fp8.converted) {
    ++out.stats.fp8;
    ++out.stats.green;
    ++out.stats.converted;
    out.stats.constants.merge(converted.record.constants);
    if (options.recordDecisions)
      out.records.push_back(
          {converted.opName, converted.location, converted.decision,
           std::make_shared<FP8Record>(std::move(converted.record))});
  }

  PrecisionPlan plan(root, *planOptions);
  if (failed(plan.run()))
    return failure();

  CaptureHandler captureHandler(root->getContext());
  ConversionListener listener;
  IRRewriter rewriter(root->getContext(), &listener);
  CastCache casts(rewriter);
  casts.reserve(plan.getOps().size());
  listener.cache = &casts;
  for (Operation *castOp : disposableCasts)
    casts.release(castOp);

  int64_t movedElements = 0; // Of the op being recorded.
  auto addRecord = [&](OpRecord &record) {
    const OpDecision &d = record.decision;
    ConversionStats &stats = out.stats;
    int64_t bytes =
        movedElements *
        (d.lowPrecision ? d.computeType.getIntOrFloatBitWidth() / 8 : 4);
    if (d.color == Color::gray)
      stats.grayBytes += bytes;
    else if (d.color == Color::red)
      stats.redBytes += bytes;
    stats.unknown += d.unknown;
    if (d.color == Color::green && d.lowPrecision)
      ++stats.green;
    else if (d.color == Color::gray)
      ++(d.lowPrecision ? stats.grayLow : stats.grayHigh);
    else if (d.color == Color::red)
      ++stats.red;
    if (options.recordDecisions)
      out.records.push_back(std::move(record));
  };
  if (options.recordDecisions)
    out.records.reserve(plan.getOps().size());
  PendingTypes pendingTypes(plan);
  for (auto [planIndex, planOp] : llvm::enumerate(plan.getOps())) {
    // A failed rewrite may restore the op as a new one.
    Operation *op = planOp;
    const OpDecision &decision = plan.getDecision(planIndex);
    OpRecord record{op->getName(), op->getLoc(), decision};
    // A contraction that asked for FP8 and runs in the fallback type says
    // why.
    if (!fp8.fallbacks.empty()) {
      auto it = fp8.fallbacks.find(op);
      if (it != fp8.fallbacks.end()) {
        if (decision.color == Color::green && decision.lowPrecision)
          record.decision.reason = it->second.first;
        record.fp8 = std::make_shared<FP8Record>(it->second.second);
      }
    }
    // The elements a gray or red op reads and writes (data operands, float
    // results), before its rewrite changes them.
    movedElements = 0;
    if (decision.color != Color::green) {
      for (unsigned i : plan.getDataOperands(planIndex))
        movedElements += getStaticElementCount(op->getOperand(i).getType());
      for (Type type : op->getResultTypes())
        if (isCastableFloatType(type))
          movedElements += getStaticElementCount(type);
    }
    if (options.remarks && options.diagnostics)
      emitDecisionRemark(op, decision);
    if (!decision.lowPrecision) {
      addRecord(record);
      continue;
    }

    // The type each converted operand is read in, in operand order (casts
    // of block arguments are placed in the order they are asked for); both
    // lists are sorted.
    SmallVector<Value> operands(op->getOperands());
    SmallVector<std::pair<unsigned, Type>, 4> reads;
    ArrayRef<unsigned> accumulators = plan.getAccumulatorOperands(planIndex);
    ArrayRef<unsigned> data = plan.getDataOperands(planIndex);
    while (!accumulators.empty() || !data.empty()) {
      bool takeAccumulator =
          data.empty() ||
          (!accumulators.empty() && accumulators.front() < data.front());
      ArrayRef<unsigned> &list = takeAccumulator ? accumulators : data;
      reads.push_back({list.front(), takeAccumulator ? decision.accumulateType
                                                     : decision.computeType});
      list = list.drop_front();
    }
    // Constant zero points take the compute type too.
    if (auto iface = getMixedPrecisionInterface(op)) {
      size_t numReads = reads.size();
      for (OpOperand &operand : op->getOpOperands())
        if (getScalarType(operand.get()).isF32() &&
            iface.isZeroPointOperand(operand) &&
            isFloatConstant(operand.get().getDefiningOp()))
          reads.push_back({operand.getOperandNumber(), decision.computeType});
      if (reads.size() != numReads)
        llvm::sort(reads, llvm::less_first());
    }
    // A constant or empty tensor only this op reads, in one type, is
    // converted in place once the op is known to need it (below); other
    // operands get a cast or a converted copy.
    auto readInOneType = [&](Value value, Type type) {
      for (auto [number, operand] : llvm::enumerate(op->getOperands())) {
        if (operand != value)
          continue;
        auto it = llvm::find_if(
            reads, [&, number = number](const auto &read) {
              return read.first == number;
            });
        if (it == reads.end() || it->second != type)
          return false;
      }
      return true;
    };
    // A constant that later ops read too is converted in place as well if
    // each of them reads it only as this op does: a data operand (or a
    // constant zero point) in `type` (a layer's bias and zero points, read
    // by its convolutions).
    auto othersReadAlike = [&](Value value, Type type) {
      for (OpOperand &use : value.getUses()) {
        Operation *user = use.getOwner();
        if (user == op)
          continue;
        std::optional<unsigned> j = plan.findIndex(user, planIndex);
        if (!j || *j <= planIndex)
          return false;
        const OpDecision &later = plan.getDecision(*j);
        if (!later.lowPrecision || later.computeType != type)
          return false;
        if (llvm::is_contained(plan.getDataOperands(*j),
                               use.getOperandNumber()))
          continue;
        auto iface = getMixedPrecisionInterface(user);
        if (!iface || !iface.isZeroPointOperand(use))
          return false;
      }
      return true;
    };
    SmallVector<std::pair<unsigned, Type>, 2> inPlace;
    for (auto [i, type] : reads) {
      Value value = operands[i];
      if (casts.canConvertInPlace(
              value, type, op,
              [&, type = type] { return othersReadAlike(value, type); }) &&
          readInOneType(value, type))
        inPlace.push_back({i, type});
      else
        operands[i] = casts.get(value, type, op);
    }
    // An op with an FP32 constant left to convert, or that reads a result
    // converted before it (or a constant converted in place for it) as it
    // is, is not converted yet.
    // (The type test first: it fails for an op still to convert, and spares
    // the table lookups.)
    if (inPlace.empty() && isAlreadyConverted(op, operands, decision) &&
        llvm::none_of(op->getOperands(), [&](Value v) {
          return pendingTypes.lookup(v, planIndex) || casts.isShared(v);
        })) {
      addRecord(record);
      continue;
    }
    SmallVector<CastCache::InPlaceConversion, 2> convertedInPlace;
    for (auto [i, type] : inPlace)
      casts.convertInPlace(operands[i], type, convertedInPlace);

    SmallVector<Type> oldTypes(op->getResultTypes());
    casts.noteInputsOf(op, convertedInPlace);
    // (A constant converted in place for the op is read by its rewrite.)
    SmallVector<Operation *, 4> inputDefs;
    for (Value operand : op->getOperands())
      if (Operation *def = operand.getDefiningOp();
          def && !CastCache::isConvertedInPlace(convertedInPlace, def))
        inputDefs.push_back(def);
    std::string why;
    FailureOr<Operation *> newOp =
        rewriteVerified(op, rewriter, listener, operands, decision, why);
    if (failed(newOp)) {
      casts.restoreInPlace(convertedInPlace);
      // It was to read some converted results as they are: it reads them
      // through a view in their old type instead; and a constant an earlier
      // reader converted in place for both of them, through a copy with its
      // FP32 value.
      for (OpOperand &operand : op->getOpOperands()) {
        Value old = operand.get();
        Value to = casts.getOriginal(old);
        if (Type oldType = pendingTypes.lookup(old, planIndex))
          to = casts.getView(old, oldType);
        if (to != old)
          rewriter.modifyOpInPlace(op, [&] { operand.set(to); });
      }
      if (options.diagnostics)
        mlir::emitRemark(op->getLoc()) << "'" << op->getName()
                         << "' stays in FP32: it could not be rebuilt in "
                         << decision.computeType << " (" << why << ")";
      record.decision.lowPrecision = false;
      record.decision.reason = Reason::UnsupportedTypes;
      addRecord(record);
      continue;
    }

    for (auto [index, oldType] : llvm::enumerate(oldTypes)) {
      Value newResult = (*newOp)->getResult(index);
      Value oldResult = op->getResult(index);
      if (newResult.getType() == oldType) {
        if (*newOp != op)
          rewriter.replaceAllUsesWith(oldResult, newResult);
        continue;
      }
      // Users the plan converts later read the new result itself (their
      // cast, if they read it in another type, is made when they are);
      // the others read it through a view in its old type.
      Value view;
      bool direct = false;
      for (OpOperand &use : llvm::make_early_inc_range(oldResult.getUses())) {
        Operation *user = use.getOwner();
        if (view && user == view.getDefiningOp())
          continue;
        Value to;
        if (plan.isConvertedLater(user, use.getOperandNumber(), planIndex)) {
          to = newResult;
          direct = true;
        } else {
          if (!view)
            view = casts.getView(newResult, getScalarType(oldType));
          to = view;
        }
        if (use.get() != to)
          rewriter.modifyOpInPlace(user, [&] { use.set(to); });
      }
      if (direct)
        pendingTypes.add(newResult, planIndex, getScalarType(oldType));
    }
    for (const CastCache::InPlaceConversion &conversion : convertedInPlace)
      casts.noteConvertedInPlace(conversion, *newOp);
    if (*newOp != op)
      rewriter.eraseOp(op);
    casts.eraseDeadInputs(inputDefs);
    ++out.stats.converted;
    addRecord(record);
  }

  casts.foldRoundTrips();
  deduplicateCasts(root, listener.casts, rewriter);
  deduplicateConstants(root, listener.constants, rewriter);
  casts.eraseDead();
  casts.sinkIntoBranches();
  out.stats.casts = casts.countLiveCasts();
  out.stats.castBytes = casts.countLiveCastBytes();
  out.stats.foldedConstants = casts.countLiveConstants();
  out.stats.constants.merge(plan.getConstantSummary());
  return success();
}

} // namespace

bool FunctionConversion::decidedByRanges() const {
  // A constant that does not fit, or a +-FLT_MAX sentinel written as the
  // target's largest value (which the range analysis reads as unbounded in
  // FP32, and as that finite value once converted).
  if (!stats.constants.fits() || stats.constants.numSentinel)
    return true;
  return llvm::any_of(records, [](const OpRecord &record) {
    switch (record.decision.reason) {
    case Reason::ValueOutOfRange:
    case Reason::IntegerNotExact:
    case Reason::ObservedRange:
    case Reason::ConstantOutOfRange:
      return true;
    default:
      return false;
    }
  });
}

void FunctionConversion::mergeLaterRound(const FunctionConversion &later) {
  llvm::DenseMap<std::pair<Location, OperationName>, size_t> byOp;
  for (auto [i, record] : llvm::enumerate(records))
    byOp.try_emplace({record.location, record.opName}, i);
  for (const OpRecord &record : later.records) {
    if (!record.decision.lowPrecision)
      continue;
    auto it = byOp.find({record.location, record.opName});
    if (it != byOp.end() && !records[it->second].decision.lowPrecision)
      records[it->second].decision = record.decision;
  }
  // The later round planned the whole function as it is now: its counts
  // are those of the result, but for what only the first round saw.
  ConversionStats merged = later.stats;
  merged.converted += stats.converted;
  // The contractions converted to FP8 take no part in later rounds.
  merged.fp8 += stats.fp8;
  merged.green += stats.fp8;
  merged.constants = stats.constants;
  merged.constantBytesBefore = stats.constantBytesBefore;
  stats = merged;
}

LogicalResult mlir::amp::convertToMixedPrecision(
    Operation *root, const MixedPrecisionOptions &options,
    FunctionConversion *result, ArrayRef<Operation *> disposableCasts) {
  FunctionConversion local;
  FunctionConversion &out = result ? *result : local;
  MixedPrecisionOptions first = options;
  first.recordDecisions |= options.fixedPoint; // decidedByRanges reads them
  if (options.countConstantBytes)
    out.stats.constantBytesBefore = countFloatConstantBytes(root);
  if (failed(convertOnce(root, first, &out, disposableCasts)))
    return failure();
  MixedPrecisionOptions quiet = first;
  quiet.diagnostics = false;
  for (int round = 1; options.fixedPoint && round < kMaxConversionRounds &&
                      out.decidedByRanges();
       ++round) {
    OperationFingerPrint before(root);
    FunctionConversion again;
    if (failed(convertOnce(root, quiet, &again, {})))
      return failure();
    if (OperationFingerPrint(root) == before)
      break;
    out.mergeLaterRound(again);
  }
  if (!options.recordDecisions)
    out.records.clear();
  if (options.countConstantBytes)
    out.stats.constantBytesAfter = countFloatConstantBytes(root);
  return success();
}
