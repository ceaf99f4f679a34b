//===- TrialRewrite.cpp - Rewriting one op, verified ----------------------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// See TrialRewrite.h.
//
//===----------------------------------------------------------------------===//

#include "TrialRewrite.h"

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
using namespace mlir::amp::conversion;

namespace {

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

} // namespace

CaptureHandler::CaptureHandler(MLIRContext *ctx) : ctx(ctx) {
  id = ctx->getDiagEngine().registerHandler(
      [](Diagnostic &diag) -> LogicalResult {
        if (!captureSink)
          return failure(); // Not ours: let the next handler report it.
        captureSink->push_back(diag.str());
        return success();
      });
}

CaptureHandler::~CaptureHandler() { ctx->getDiagEngine().eraseHandler(id); }

namespace {

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

} // namespace

FailureOr<Operation *>
conversion::rewriteVerified(Operation *&op, RewriterBase &rewriter,
                            ConversionListener &listener, ValueRange operands,
                            const OpDecision &decision, std::string &why) {
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
