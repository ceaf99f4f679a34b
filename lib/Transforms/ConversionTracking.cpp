//===- ConversionTracking.cpp - The ops a conversion makes ----------------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// See ConversionTracking.h.
//
//===----------------------------------------------------------------------===//

#include "ConversionTracking.h"

#include "CastCache.h"

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
} // namespace

Attribute conversion::getConstantOperandValue(Value value) {
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

void conversion::deduplicateCasts(Operation *root, const TrackedOps &casts,
                                  RewriterBase &rewriter) {
  DenseMap<std::pair<Value, Type>, SmallVector<Operation *, 2>> groups;
  for (Operation *op : casts.live()) {
    if (isa<MixedPrecisionOpInterface>(op->getParentOp()))
      continue;
    groups[{op->getOperand(0), op->getResult(0).getType()}].push_back(op);
  }
  replaceDominatedMembers(root, groups, rewriter);
}

void conversion::deduplicateConstants(Operation *root,
                                      const TrackedOps &constants,
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
