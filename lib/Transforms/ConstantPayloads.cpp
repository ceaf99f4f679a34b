//===- ConstantPayloads.cpp - Fold constant payload parts -----------------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// See ConstantPayloads.h. For one linalg.generic:
//
//  1. Products by several constants in the payload are regrouped, so that
//     the constant factors form one value of their own.
//  2. Every payload value is marked constant or not (PayloadEvaluation.h).
//  3. The largest constant values that a non-constant op (or the yield)
//     reads are evaluated at every point of their loops, into a scalar
//     constant in the payload (a value that does not vary, or a splat) or a
//     new constant input; inputs nothing reads any more are dropped.
//
// This file holds the rewrite (steps 1 and 3) and the pass.
//
//===----------------------------------------------------------------------===//

#include "PayloadEvaluation.h"

#include "amp/Transforms/ConstantPayloads.h"
#include "amp/Transforms/Passes.h"
#include "amp/Utils/LinalgUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::amp;
using namespace mlir::amp::payloads;

namespace {

/// Regroups `(x * a) * b` (and divisions by constants) into `x * (a * b)`
/// where a and b are constant and the inner product has no other reader,
/// so that the constant factors form one value. Returns true if it changed
/// the payload.
bool regroupConstantFactors(RewriterBase &rewriter, linalg::GenericOp op,
                            const ConstantPayload &payload,
                            int64_t maxElements) {
  bool changed = false;
  Block &body = op.getRegion().front();
  // (x op1 a) op2 b, with op in {mul, div by}: the factor of x.
  auto split = [&](Operation *inner, Value &x, Value &factor, bool &divides) {
    if (auto mul = dyn_cast<arith::MulFOp>(inner)) {
      bool lhs = payload.isConstant(mul.getLhs());
      bool rhs = payload.isConstant(mul.getRhs());
      if (lhs == rhs)
        return false;
      x = lhs ? mul.getRhs() : mul.getLhs();
      factor = lhs ? mul.getLhs() : mul.getRhs();
      divides = false;
      return true;
    }
    if (auto div = dyn_cast<arith::DivFOp>(inner)) {
      if (payload.isConstant(div.getLhs()) || !payload.isConstant(div.getRhs()))
        return false;
      x = div.getLhs();
      factor = div.getRhs();
      divides = true;
      return true;
    }
    return false;
  };
  for (Operation &outer :
       llvm::make_early_inc_range(body.without_terminator())) {
    Value inner, b, x, a;
    bool divB, divA;
    if (!split(&outer, inner, b, divB))
      continue;
    Operation *innerOp = inner.getDefiningOp();
    if (!innerOp || innerOp->getBlock() != &body || !inner.hasOneUse() ||
        !split(innerOp, x, a, divA) || !outer.getResult(0).getType().isF32())
      continue;
    // The combined factor varies with the loops of both: not a table
    // larger than they are (or than the limit).
    int64_t combined =
        payload.getCount(payload.getDims(a) | payload.getDims(b));
    if (combined > std::max({maxElements,
                             payload.getCount(payload.getDims(a)),
                             payload.getCount(payload.getDims(b))}))
      continue;
    // x * a * b = x * (a * b); x * a / b = x * (a / b);
    // x / a * b = x * (b / a); x / a / b = x / (a * b).
    rewriter.setInsertionPoint(&outer);
    Location loc = outer.getLoc();
    Value factor;
    bool divides = false;
    if (!divA && !divB)
      factor = arith::MulFOp::create(rewriter, loc, a, b);
    else if (!divA)
      factor = arith::DivFOp::create(rewriter, loc, a, b);
    else if (!divB)
      factor = arith::DivFOp::create(rewriter, loc, b, a);
    else {
      factor = arith::MulFOp::create(rewriter, loc, a, b);
      divides = true;
    }
    Value result = divides ? arith::DivFOp::create(rewriter, loc, x, factor)
                                 .getResult()
                           : arith::MulFOp::create(rewriter, loc, x, factor)
                                 .getResult();
    rewriter.replaceOp(&outer, result);
    rewriter.eraseOp(innerOp);
    changed = true;
  }
  return changed;
}

/// A quick test, before the analysis: whether some op of the payload other
/// than a constant or an index reads only constant inputs, constants and
/// indices (most payloads have none: an elementwise op of activations, a
/// bias add).
bool hasConstantPart(linalg::GenericOp op) {
  if (op->getNumRegions() != 1 || !op.getRegion().hasOneBlock())
    return false;
  Block &body = op.getRegion().front();
  // (Not the DPS accessors: they build an attribute on each call.)
  unsigned numInputs = getFirstInitNumber(op);
  // (The first such op reads leaves alone: no need to follow chains.)
  auto isConstantValue = [&](Value value) {
    if (auto arg = dyn_cast<BlockArgument>(value)) {
      if (arg.getOwner() != &body || arg.getArgNumber() >= numInputs)
        return false;
      Operation *def = op->getOperand(arg.getArgNumber()).getDefiningOp();
      return def && def->hasTrait<OpTrait::ConstantLike>();
    }
    Operation *def = value.getDefiningOp();
    return def && (def->hasTrait<OpTrait::ConstantLike>() ||
                   isa<linalg::IndexOp>(def));
  };
  for (Operation &inner : body.without_terminator()) {
    if (inner.hasTrait<OpTrait::ConstantLike>() ||
        isa<linalg::IndexOp>(inner) || inner.getNumOperands() == 0 ||
        !llvm::all_of(inner.getOperands(), isConstantValue))
      continue;
    return true;
  }
  return false;
}

/// Whether `op` decompresses stored weights: it reads a constant of 2- to
/// 8-bit integers or 8-bit floats (a weight-only dequantization,
/// docs/weight-only.md). Evaluating it would store the weights wide again.
bool isDecompression(linalg::GenericOp op) {
  return llvm::any_of(op->getOperands(), [](Value operand) {
    Operation *def = operand.getDefiningOp();
    auto type = dyn_cast<ShapedType>(operand.getType());
    if (!def || !def->hasTrait<OpTrait::ConstantLike>() || !type)
      return false;
    Type element = type.getElementType();
    if (isa<FloatType>(element))
      return element.getIntOrFloatBitWidth() == 8;
    return element.isInteger() && element.getIntOrFloatBitWidth() >= 2 &&
           element.getIntOrFloatBitWidth() <= 8;
  });
}

/// The analysis of the constant part of `op`'s payload, with its constant
/// factors regrouped first; null if the op has nothing to fold.
std::unique_ptr<ConstantPayload> analyzePayload(RewriterBase &rewriter,
                                                linalg::GenericOp op,
                                                int64_t maxElements) {
  if (!hasConstantPart(op) || isDecompression(op))
    return nullptr;
  auto payload = std::make_unique<ConstantPayload>(op, maxElements);
  if (!payload->analyze())
    return nullptr;
  if (regroupConstantFactors(rewriter, op, *payload, maxElements)) {
    payload = std::make_unique<ConstantPayload>(op, maxElements);
    payload->analyze();
  }
  return payload;
}

/// The constants the op reads from outside, to erase those that end up
/// unread.
llvm::SetVector<Operation *> collectOuterConstants(linalg::GenericOp op) {
  Block &body = op.getRegion().front();
  llvm::SetVector<Operation *> outerDefs;
  auto noteOuter = [&](Value value) {
    if (Operation *def = value.getDefiningOp();
        def && !op->isAncestor(def) && def->hasTrait<OpTrait::ConstantLike>())
      outerDefs.insert(def);
  };
  for (Value input : op.getDpsInputs())
    noteOuter(input);
  body.walk([&](Operation *inner) {
    for (Value operand : inner->getOperands())
      noteOuter(operand);
  });
  return outerDefs;
}

/// The roots of `payload` that evaluate, with their values as constants of
/// the shape of their loops.
SmallVector<std::pair<Value, DenseElementsAttr>>
evaluateRoots(ConstantPayload &payload) {
  // Every root is evaluated before any is replaced (their programs share
  // values).
  SmallVector<std::pair<Value, DenseElementsAttr>> evaluated;
  for (auto [root, dims] : payload.getRoots()) {
    std::optional<std::vector<ScalarValue>> values =
        payload.evaluate(root, dims);
    if (!values)
      continue;
    auto type = RankedTensorType::get(payload.getShape(dims), root.getType());
    evaluated.push_back({root, buildElements(type, *values)});
  }
  return evaluated;
}

/// Replaces the folded values of `op`'s payload: splat inputs read by the
/// rest of the payload and roots that are the same everywhere by scalars in
/// the payload, the others by the arguments of new constant inputs, through
/// the loops they vary with. Returns the new inputs and their maps.
SmallVector<std::pair<Value, AffineMap>> replaceFoldedValues(
    RewriterBase &rewriter, linalg::GenericOp op,
    const ConstantPayload &payload,
    ArrayRef<std::pair<BlockArgument, ScalarValue>> splatLeaves,
    ArrayRef<std::pair<Value, DenseElementsAttr>> evaluated) {
  Block &body = op.getRegion().front();
  Location loc = op.getLoc();
  // (One scalar per value: splat means and betas are often all zero.)
  llvm::SmallDenseMap<Attribute, Value, 4> scalars;
  auto replaceByScalar = [&](Value value, TypedAttr attr) {
    Value &scalar = scalars[attr];
    if (!scalar) {
      rewriter.setInsertionPointToStart(&body);
      scalar = arith::ConstantOp::create(rewriter, value.getLoc(), attr);
    }
    rewriter.replaceAllUsesWith(value, scalar);
  };
  for (auto [arg, splat] : splatLeaves)
    replaceByScalar(arg, getScalarAttr(arg.getType(), splat));
  SmallVector<std::pair<Value, AffineMap>> newInputs;
  SmallVector<Value> readers;
  for (auto [root, dense] : evaluated) {
    if (dense.isSplat()) {
      replaceByScalar(root, cast<TypedAttr>(dense.getSplatValue<Attribute>()));
      continue;
    }
    rewriter.setInsertionPoint(op);
    Value constant = arith::ConstantOp::create(rewriter, loc, dense);
    SmallVector<AffineExpr> exprs;
    for (unsigned d = 0; d < op.getNumLoops(); ++d)
      if (payload.getDims(root) & (DimSet(1) << d))
        exprs.push_back(rewriter.getAffineDimExpr(d));
    newInputs.push_back({constant, AffineMap::get(op.getNumLoops(), 0, exprs,
                                                  rewriter.getContext())});
    readers.push_back(root);
  }

  // The new inputs' arguments come after the old inputs'.
  unsigned numInputs = op.getNumDpsInputs();
  for (auto [index, root] : llvm::enumerate(readers)) {
    BlockArgument arg =
        body.insertArgument(numInputs + index, root.getType(), root.getLoc());
    rewriter.replaceAllUsesWith(root, arg);
  }
  return newInputs;
}

/// Erases the ops of `body` that nothing reads, the last first.
void eraseDeadPayloadOps(RewriterBase &rewriter, Block &body) {
  for (Operation *inner = body.getTerminator()->getPrevNode(); inner;) {
    Operation *previous = inner->getPrevNode();
    if (isOpTriviallyDead(inner))
      rewriter.eraseOp(inner);
    inner = previous;
  }
}

/// What only the folded values read goes; the identities the rest now
/// shows (x - 0, x * 1) fold away.
void simplifyPayload(RewriterBase &rewriter, Block &body) {
  eraseDeadPayloadOps(rewriter, body);
  for (Operation &inner :
       llvm::make_early_inc_range(body.without_terminator())) {
    SmallVector<OpFoldResult, 1> results;
    if (inner.getNumResults() != 1 || failed(inner.fold(results)) ||
        results.size() != 1 || !isa<Value>(results[0]))
      continue;
    rewriter.replaceAllUsesWith(inner.getResult(0), cast<Value>(results[0]));
    rewriter.eraseOp(&inner);
  }
  eraseDeadPayloadOps(rewriter, body);
}

/// Replaces `op` by a generic with its region, without the inputs nothing
/// reads any more (where the loops' sizes do not depend on them), and with
/// `newInputs` after the others.
void rebuildGeneric(RewriterBase &rewriter, linalg::GenericOp op,
                    ArrayRef<std::pair<Value, AffineMap>> newInputs) {
  Block &body = op.getRegion().front();
  SmallVector<OpOperand *> dropped;
  for (OpOperand *input : op.getDpsInputOperands()) {
    if (!op.getMatchingBlockArgument(input).use_empty())
      continue;
    dropped.push_back(input);
    if (!op.canOpOperandsBeDropped(dropped))
      dropped.pop_back();
  }
  SmallVector<Value> inputs;
  SmallVector<AffineMap> maps;
  SmallVector<unsigned> erasedArgs;
  for (OpOperand *input : op.getDpsInputOperands()) {
    if (llvm::is_contained(dropped, input)) {
      erasedArgs.push_back(input->getOperandNumber());
      continue;
    }
    inputs.push_back(input->get());
    maps.push_back(op.getMatchingIndexingMap(input));
  }
  for (auto [value, map] : newInputs) {
    inputs.push_back(value);
    maps.push_back(map);
  }
  for (OpOperand &init : op.getDpsInitsMutable())
    maps.push_back(op.getMatchingIndexingMap(&init));
  for (unsigned arg : llvm::reverse(erasedArgs))
    body.eraseArgument(arg);

  rewriter.setInsertionPoint(op);
  // The op's own attributes (annotations, a library call) are kept.
  SmallVector<NamedAttribute> attrs(op->getDiscardableAttrs());
  auto newOp = linalg::GenericOp::create(
      rewriter, op.getLoc(), op.getResultTypes(), inputs, op.getDpsInits(),
      maps, op.getIteratorTypesArray(), op.getDoc().value_or(""),
      op.getLibraryCall().value_or(""), /*bodyBuild=*/nullptr, attrs);
  rewriter.inlineRegionBefore(op.getRegion(), newOp.getRegion(),
                              newOp.getRegion().end());
  rewriter.replaceOp(op, newOp->getResults());
}

/// Folds the constant part of one op's payload; returns the number of
/// values evaluated (0: the op is unchanged).
unsigned foldPayload(RewriterBase &rewriter, linalg::GenericOp op,
                     int64_t maxElements) {
  std::unique_ptr<ConstantPayload> payload =
      analyzePayload(rewriter, op, maxElements);
  if (!payload)
    return 0;
  llvm::SetVector<Operation *> outerDefs = collectOuterConstants(op);
  SmallVector<std::pair<Value, DenseElementsAttr>> evaluated =
      evaluateRoots(*payload);
  // (Splat inputs become scalars only in an op rebuilt anyway.)
  if (evaluated.empty())
    return 0;
  SmallVector<std::pair<BlockArgument, ScalarValue>> splatLeaves =
      payload->getSplatLeaves();
  unsigned folded = evaluated.size() + splatLeaves.size();

  SmallVector<std::pair<Value, AffineMap>> newInputs =
      replaceFoldedValues(rewriter, op, *payload, splatLeaves, evaluated);
  simplifyPayload(rewriter, op.getRegion().front());
  rebuildGeneric(rewriter, op, newInputs);
  // The constants only the old op read (its statistics, a captured eps).
  for (Operation *def : outerDefs)
    if (isOpTriviallyDead(def))
      rewriter.eraseOp(def);
  return folded;
}

} // namespace

ConstantPayloadStats mlir::amp::foldConstantPayloads(Operation *root,
                                                     int64_t maxElements) {
  ConstantPayloadStats stats;
  SmallVector<linalg::GenericOp> generics;
  walkTensorOps(root, [&](Operation *op) {
    if (auto generic = dyn_cast<linalg::GenericOp>(op))
      generics.push_back(generic);
    return WalkResult::advance();
  });
  IRRewriter rewriter(root->getContext());
  for (linalg::GenericOp op : generics) {
    // A payload without a constant part is seen once, without a rewrite.
    if (unsigned values = foldPayload(rewriter, op, maxElements)) {
      ++stats.ops;
      stats.values += values;
    }
  }
  return stats;
}

//===----------------------------------------------------------------------===//
// --amp-fold-constant-payloads
//===----------------------------------------------------------------------===//

namespace mlir {
namespace amp {
#define GEN_PASS_DEF_AMPFOLDCONSTANTPAYLOADSPASS
#include "amp/Transforms/Passes.h.inc"
} // namespace amp
} // namespace mlir

namespace {
struct AmpFoldConstantPayloadsPass
    : public amp::impl::AmpFoldConstantPayloadsPassBase<
          AmpFoldConstantPayloadsPass> {
  using Base::Base;

  LogicalResult initialize(MLIRContext *ctx) override {
    if (maxElements < 0)
      return emitError(UnknownLoc::get(ctx))
             << "amp-fold-constant-payloads: max-elements must be "
                "non-negative, got "
             << static_cast<int64_t>(maxElements);
    return success();
  }

  void runOnOperation() override {
    ConstantPayloadStats stats =
        amp::foldConstantPayloads(getOperation(), maxElements);
    numOps += stats.ops;
    numValues += stats.values;
  }
};
} // namespace
