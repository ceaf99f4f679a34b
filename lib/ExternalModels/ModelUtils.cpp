//===- ModelUtils.cpp - Building blocks of amp's external models ----------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "ModelUtils.h"

#include "amp/Utils/CastUtils.h"
#include "amp/Utils/TypeUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Transforms/RegionUtils.h"

using namespace mlir;
using namespace mlir::amp;

Color models::classifyPayload(Region &region) {
  Color result = Color::gray;
  region.walk([&](Operation *op) {
    if (op->hasTrait<OpTrait::IsTerminator>())
      return;
    Color color = Color::gray;
    if (auto iface = dyn_cast<MixedPrecisionOpInterface>(op))
      color = iface.getDefaultColor();
    else if (!isFloatCast(op) && !isFloatConstant(op) &&
             llvm::any_of(op->getResultTypes(), hasFloatElementType))
      color = Color::red; // Unknown float math: keep it in FP32.
    if (auto mul = dyn_cast<arith::MulFOp>(op);
        mul && mul.getLhs() == mul.getRhs())
      color = Color::red; // x * x is pow(x, 2).
    if (color == Color::red)
      result = Color::red;
  });
  return result;
}

LogicalResult models::retypePayload(RewriterBase &rewriter, Operation *op,
                                    Region &region, FloatType from,
                                    FloatType to,
                                    function_ref<bool(BlockArgument)> retypeArg) {
  // Values captured from above: use converted copies made before `op`. The
  // uses are found by walking the region (not the value's use list, which
  // may hold thousands of uses in other payloads).
  DenseMap<Value, Value> converted;
  region.walk([&](Operation *inner) {
    for (OpOperand &operand : inner->getOpOperands()) {
      Value value = operand.get();
      if (getScalarType(value.getType()) != from ||
          region.isAncestor(value.getParentRegion()))
        continue;
      Value &copy = converted[value];
      if (!copy) {
        OpBuilder::InsertionGuard guard(rewriter);
        rewriter.setInsertionPoint(op);
        copy = materializeElementType(rewriter, op->getLoc(), value, to,
                                      /*preferTosa=*/false);
      }
      rewriter.modifyOpInPlace(inner, [&] { operand.set(copy); });
    }
  });

  SmallVector<Operation *> madeConstants;
  for (Block &block : region) {
    for (BlockArgument arg : block.getArguments())
      if (getScalarType(arg.getType()) == from && retypeArg(arg))
        arg.setType(withElementType(arg.getType(), to));

    for (Operation &inner : llvm::make_early_inc_range(block)) {
      if (inner.getNumRegions() != 0)
        return failure();
      if (isFloatConstant(&inner) &&
          getScalarType(inner.getResult(0).getType()) == from) {
        // Only the payload reads it: converted in place.
        setElementTypeInPlace(rewriter, inner.getResult(0), to);
        madeConstants.push_back(&inner);
        continue;
      }
      rewriter.modifyOpInPlace(&inner, [&] {
        for (OpResult result : inner.getResults())
          if (getScalarType(result.getType()) == from)
            result.setType(withElementType(result.getType(), to));
      });
      // A cast whose two sides now agree is a no-op.
      if (Value source = getFloatCastSource(&inner))
        if (source.getType() == inner.getResult(0).getType())
          rewriter.replaceOp(&inner, source);
    }
  }

  // A converted constant of the payload, or a copy of a captured value,
  // whose only readers were casts that became no-ops (the payload's own
  // truncf/extf pair around it) is left unused: erase it, and the casts and
  // constants it was made of, down to the captured value.
  for (Operation *made : madeConstants)
    if (made->use_empty())
      rewriter.eraseOp(made);
  for (auto [value, copy] : converted) {
    Operation *def = copy.getDefiningOp();
    while (def && def->use_empty() && def != value.getDefiningOp() &&
           (isFloatCast(def) || isFloatConstant(def))) {
      Value source = isFloatCast(def) ? def->getOperand(0) : Value();
      rewriter.eraseOp(def);
      def = source ? source.getDefiningOp() : nullptr;
    }
  }
  return success();
}

void models::widenArguments(RewriterBase &rewriter, Region &region,
                            FloatType wide,
                            function_ref<bool(BlockArgument)> widenArg) {
  for (Block &block : region) {
    rewriter.setInsertionPointToStart(&block);
    for (BlockArgument arg : block.getArguments()) {
      if (!widenArg(arg) || getScalarType(arg.getType()) == wide)
        continue;
      Value widened =
          createFloatCast(rewriter, arg.getLoc(), arg, wide, /*preferTosa=*/false);
      rewriter.replaceAllUsesExcept(arg, widened, widened.getDefiningOp());
    }
  }
}

//===----------------------------------------------------------------------===//
// FP8 contractions
//===----------------------------------------------------------------------===//

Value models::createZeroAccumulator(RewriterBase &rewriter, Location loc,
                                    RankedTensorType type) {
  Value empty = tensor::EmptyOp::create(rewriter, loc, type.getShape(),
                                        type.getElementType());
  Value zero = arith::ConstantOp::create(
      rewriter, loc, rewriter.getFloatAttr(type.getElementType(), 0.0));
  return linalg::FillOp::create(rewriter, loc, zero, empty).getResult(0);
}

/// True if `attr` is a float (or float tensor) attribute of zeros only.
static bool isZeroAttr(Attribute attr) {
  if (auto f = dyn_cast_or_null<FloatAttr>(attr))
    return f.getValue().isZero();
  auto dense = dyn_cast_or_null<DenseFPElementsAttr>(attr);
  if (!dense)
    return false;
  if (dense.isSplat())
    return dense.getSplatValue<APFloat>().isZero();
  return llvm::all_of(dense.getValues<APFloat>(),
                      [](const APFloat &v) { return v.isZero(); });
}

bool models::isZeroTensor(Value value) {
  Operation *def = value.getDefiningOp();
  if (!def)
    return false;
  if (auto fill = dyn_cast<linalg::FillOp>(def)) {
    Attribute attr;
    return matchPattern(fill.getInputs().front(), m_Constant(&attr)) &&
           isZeroAttr(attr);
  }
  if (auto constant = dyn_cast<tosa::ConstOp>(def))
    return isZeroAttr(constant.getValues());
  Attribute attr;
  return matchPattern(value, m_Constant(&attr)) && isZeroAttr(attr);
}

bool models::isStaticF32Tensor(Value value) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  return type && type.hasStaticShape() && type.getElementType().isF32();
}

ArrayAttr models::getKMajorMatmulMaps(MLIRContext *ctx, bool batch) {
  unsigned offset = batch ? 1 : 0;
  auto d = [&](unsigned i) { return getAffineDimExpr(i, ctx); };
  SmallVector<AffineExpr> lead;
  if (batch)
    lead.push_back(d(0));
  auto map = [&](unsigned x, unsigned y) {
    SmallVector<AffineExpr> results(lead);
    results.push_back(d(offset + x));
    results.push_back(d(offset + y));
    return AffineMapAttr::get(AffineMap::get(3 + offset, 0, results, ctx));
  };
  // (m, n, k) = dimensions 0, 1, 2 after the batch.
  return ArrayAttr::get(ctx, {map(0, 2), map(1, 2), map(0, 1)});
}
