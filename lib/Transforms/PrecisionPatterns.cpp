//===- PrecisionPatterns.cpp - Rewrite patterns to a decided precision ----===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "amp/Transforms/PrecisionPatterns.h"

#include "amp/IR/AmpDialect.h"
#include "amp/Utils/CastUtils.h"
#include "amp/Utils/TypeUtils.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace mlir::amp;

namespace {

bool isTosa(Operation *op) {
  return op && isa_and_nonnull<tosa::TosaDialect>(op->getDialect());
}

/// `value` with element type `elementType`, for `consumer`: itself, the
/// source of a widening, an existing cast that dominates `consumer`, or a
/// new cast (a new constant, empty tensor or fill for those) made right
/// after `value`'s definition, where every other consumer can share it.
Value getInType(PatternRewriter &rewriter, Value value, Type elementType,
                Operation *consumer) {
  if (getScalarType(value.getType()) == elementType)
    return value;
  if (Value source = getWideningSource(value, elementType))
    return source; // An exact widening: no round trip.
  Operation *def = value.getDefiningOp();
  Block *block = def ? def->getBlock() : cast<BlockArgument>(value).getOwner();
  Operation *ancestor = block->findAncestorOpInBlock(*consumer);
  for (Operation *user : value.getUsers())
    if (user != consumer && isFloatCast(user) &&
        getScalarType(user->getResult(0).getType()) == elementType &&
        user->getBlock() == block && ancestor &&
        user->isBeforeInBlock(ancestor))
      return user->getResult(0);
  OpBuilder::InsertionGuard guard(rewriter);
  if (def)
    rewriter.setInsertionPointAfter(def);
  else
    rewriter.setInsertionPointToStart(block);
  Location loc = def ? def->getLoc() : value.getLoc();
  if (isRematerializable(def))
    return materializeElementType(rewriter, loc, value, elementType,
                                  /*preferTosa=*/false);
  return createFloatCast(rewriter, loc, value, elementType,
                         isTosa(def) || isTosa(consumer));
}

struct ConvertToDecidedPrecision : public RewritePattern {
  ConvertToDecidedPrecision(MLIRContext *ctx, PrecisionDecisionFn decide,
                            PatternBenefit benefit)
      : RewritePattern(MatchAnyOpTypeTag(), benefit, ctx),
        decide(std::move(decide)) {}

  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    auto iface = dyn_cast<MixedPrecisionOpInterface>(op);
    if (!iface)
      return failure();
    std::optional<OpDecision> decision = decide(op);
    if (!decision || !decision->lowPrecision || !decision->computeType ||
        !decision->accumulateType)
      return rewriter.notifyMatchFailure(op, "no low-precision decision");

    // The type each float operand is read in.
    SmallVector<std::pair<unsigned, Type>> wanted;
    for (OpOperand &operand : op->getOpOperands()) {
      Type type = operand.get().getType();
      if (!isCastableFloatType(type))
        continue;
      Type want;
      if (iface.isAccumulatorOperand(operand))
        want = decision->accumulateType;
      else if (iface.isDataOperand(operand))
        want = decision->computeType;
      else
        continue;
      if (getScalarType(type) != want)
        wanted.push_back({operand.getOperandNumber(), want});
    }
    Type native = iface.getConvertedResultElementType(decision->computeType,
                                                      decision->accumulateType);
    bool resultsNative = llvm::all_of(op->getResultTypes(), [&](Type type) {
      return !isCastableFloatType(type) || getScalarType(type) == native;
    });
    if (wanted.empty() && resultsNative)
      return rewriter.notifyMatchFailure(op, "already in its precision");

    SmallVector<Value> operands(op->getOperands());
    for (auto [index, type] : wanted)
      operands[index] = getInType(rewriter, operands[index], type, op);
    SmallVector<Type> oldTypes(op->getResultTypes());
    rewriter.setInsertionPoint(op);
    FailureOr<Operation *> newOp = iface.rewriteInPrecision(
        rewriter, operands, decision->computeType, decision->accumulateType);
    if (failed(newOp))
      return rewriter.notifyMatchFailure(op, "its model cannot rewrite it");

    // Old users read the new results in their old types.
    rewriter.setInsertionPointAfter(*newOp);
    SmallVector<Value> replacements;
    for (auto [index, oldType] : llvm::enumerate(oldTypes)) {
      Value result = (*newOp)->getResult(index);
      if (result.getType() == oldType) {
        replacements.push_back(result);
        continue;
      }
      Value view = createFloatCast(rewriter, op->getLoc(), result,
                                   getScalarType(oldType), isTosa(*newOp));
      if (*newOp == op)
        rewriter.replaceAllUsesExcept(result, view, view.getDefiningOp());
      replacements.push_back(view);
    }
    if (*newOp != op)
      rewriter.replaceOp(op, replacements);
    return success();
  }

  PrecisionDecisionFn decide;
};

/// A narrowing float cast of an exact widening back to the widening's source
/// type is that source: the round trip a rewrite leaves when a consumer was
/// rewritten before its producer (the greedy driver's order is not the
/// program's). Also for tosa.cast, which upstream does not fold.
struct FoldCastRoundTrip : public RewritePattern {
  FoldCastRoundTrip(MLIRContext *ctx, PatternBenefit benefit)
      : RewritePattern(MatchAnyOpTypeTag(), benefit, ctx) {}

  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    Value wide = getFloatCastSource(op);
    if (!wide)
      return failure();
    Type resultType = op->getResult(0).getType();
    Value source = getWideningSource(wide, getScalarType(resultType));
    if (!source || source.getType() != resultType)
      return failure(); // Not an exact widening: the round trip loses bits.
    rewriter.replaceOp(op, source);
    return success();
  }
};

/// A float cast of a float constant to a 16-bit type is a constant in that
/// type (amp's
/// conversion of constants: dense, splat and resources; values beyond the
/// type's range clamp, as materializeElementType does for the rewrite, whose
/// plan has kept such constants' consumers in FP32 unless told to clamp).
struct FoldCastOfConstant : public RewritePattern {
  FoldCastOfConstant(MLIRContext *ctx, PatternBenefit benefit)
      : RewritePattern(MatchAnyOpTypeTag(), benefit, ctx) {}

  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    Value source = getFloatCastSource(op);
    if (!source || !isFloatConstant(source.getDefiningOp()) ||
        getScalarType(op->getResult(0).getType()).getIntOrFloatBitWidth() != 16)
      return failure(); // Only into the conversion's 16-bit types.
    rewriter.setInsertionPoint(op);
    Value constant =
        materializeElementType(rewriter, op->getLoc(), source,
                               getScalarType(op->getResult(0).getType()),
                               /*preferTosa=*/false);
    if (!constant.getDefiningOp() || isFloatCast(constant.getDefiningOp()))
      return failure();
    rewriter.replaceOp(op, constant);
    return success();
  }
};

} // namespace

void mlir::amp::populateAmpMixedPrecisionPatterns(RewritePatternSet &patterns,
                                                  PrecisionDecisionFn decide,
                                                  PatternBenefit benefit) {
  patterns.add<ConvertToDecidedPrecision>(patterns.getContext(),
                                          std::move(decide), benefit);
  patterns.add<FoldCastRoundTrip, FoldCastOfConstant>(patterns.getContext(),
                                                      benefit);
}

PrecisionDecisionFn mlir::amp::getAnnotatedDecisions() {
  return [](Operation *op) -> std::optional<OpDecision> {
    auto precision = op->getAttrOfType<PrecisionAttr>(
        AmpDialect::PrecisionAttrHelper::getNameStr());
    FloatType compute =
        precision ? precision.getComputeFloatType() : FloatType();
    if (!compute || compute.isF32())
      return std::nullopt;
    OpDecision decision;
    decision.lowPrecision = true;
    decision.computeType = compute;
    auto iface = dyn_cast<MixedPrecisionOpInterface>(op);
    decision.accumulateType = iface && iface.hasSeparateAccumulator()
                                  ? precision.getAccumulateFloatType()
                                  : compute;
    decision.outputType = precision.getOutputFloatType();
    return decision;
  };
}
