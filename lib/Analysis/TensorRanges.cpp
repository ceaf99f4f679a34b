//===- TensorRanges.cpp - Ranges of data movement and reductions ----------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The transfer functions of the ops on whole tensors (RangeEvaluator.h), one
// table per family: data movement of tensor and tosa (the elements stay:
// slices, reshapes, inserts, concatenations, pads, selects; an empty tensor
// has none), and the reductions and contractions of tosa, bounded by the
// extent of the reduced axis.
//
//===----------------------------------------------------------------------===//

#include "RangeEvaluator.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::amp;
using namespace mlir::amp::floatrange;

std::optional<FloatRange> RangeEvaluator::evaluateDataMovement(Operation *op) {
  return llvm::TypeSwitch<Operation *, std::optional<FloatRange>>(op)
      // No elements to read.
      .Case<tensor::EmptyOp>([](auto) { return FloatRange::noElements(); })
      .Case<tensor::ExtractSliceOp, tensor::CollapseShapeOp,
            tensor::ExpandShapeOp, tensor::CastOp, tensor::ExtractOp,
            tensor::ReshapeOp, tensor::SplatOp, tosa::ReshapeOp,
            tosa::TransposeOp, tosa::SliceOp, tosa::TileOp, tosa::IdentityOp,
            tosa::ReverseOp, tosa::GatherOp>(
          [&](auto) { return operand(op, 0); })
      .Case<tensor::InsertSliceOp, tensor::InsertOp>([&](Operation *insert) {
        return FloatRange::unite(operand(insert, 0), operand(insert, 1));
      })
      .Case<tensor::FromElementsOp, tosa::ConcatOp>([&](Operation *collect) {
        FloatRange r = FloatRange::noElements();
        for (Value v : collect->getOperands())
          r = FloatRange::unite(r, lookup(v));
        return r;
      })
      .Case<tensor::PadOp>([&](tensor::PadOp pad) {
        auto yield = cast<tensor::YieldOp>(pad.getBody()->getTerminator());
        return FloatRange::unite(lookup(pad.getSource()),
                                 lookup(yield.getValue()));
      })
      .Case<arith::SelectOp>([&](auto) {
        return FloatRange::join(operand(op, 1), operand(op, 2));
      })
      .Default([](Operation *) { return std::nullopt; });
}

/// The number of elements `op` reduces into each result element along
/// `axis` of its operand (negative if unknown).
static int64_t getAxisExtent(Value operand, int64_t axis) {
  auto type = dyn_cast<ShapedType>(operand.getType());
  if (!type || !type.hasRank() || axis < 0 || axis >= type.getRank() ||
      type.isDynamicDim(axis))
    return -1;
  return type.getDimSize(axis);
}

std::optional<FloatRange> RangeEvaluator::evaluateReduction(Operation *op) {
  return llvm::TypeSwitch<Operation *, std::optional<FloatRange>>(op)
      .Case<tosa::ReduceMaxOp, tosa::ReduceMinOp>([&](auto) {
        FloatRange a = operand(op, 0);
        return FloatRange::get(a.getLo(), a.getHi(), false, false);
      })
      .Case<tosa::ReduceSumOp>([&](tosa::ReduceSumOp r) {
        return sumOf(operand(op, 0), getAxisExtent(r.getInput(), r.getAxis()));
      })
      .Case<tosa::MatMulOp>([&](tosa::MatMulOp m) {
        return sumOf(multiply(lookup(m.getA()), lookup(m.getB())),
                     getAxisExtent(m.getA(), 2));
      })
      .Default([](Operation *) { return std::nullopt; });
}
