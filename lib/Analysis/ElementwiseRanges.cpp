//===- ElementwiseRanges.cpp - Ranges of elementwise ops ------------------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The transfer functions of the elementwise ops of arith, math and tosa
// (RangeEvaluator.h), one table per family: arithmetic (interval
// arithmetic on the operands' ranges), conversions (the values stay;
// integers converted to floats are recorded for the exact-integer check),
// and monotone math functions and clamps (the bounds map to bounds).
//
//===----------------------------------------------------------------------===//

#include "RangeEvaluator.h"

#include "amp/Utils/ConversionMemo.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::amp;
using namespace mlir::amp::floatrange;

std::optional<FloatRange> RangeEvaluator::evaluateArithmetic(Operation *op) {
  return llvm::TypeSwitch<Operation *, std::optional<FloatRange>>(op)
      .Case<arith::AddFOp, arith::AddIOp, tosa::AddOp>(
          [&](auto) { return binary(op, add); })
      .Case<arith::SubFOp, arith::SubIOp, tosa::SubOp>(
          [&](auto) { return binary(op, sub); })
      .Case<arith::MulFOp, arith::MulIOp, tosa::MulOp>(
          [&](auto) { return binary(op, multiply); })
      .Case<arith::DivFOp>([&](auto) { return binary(op, divide); })
      .Case<arith::MaximumFOp, arith::MaxNumFOp, arith::MaxSIOp,
            tosa::MaximumOp>([&](auto) { return binary(op, maximum); })
      .Case<arith::MinimumFOp, arith::MinNumFOp, arith::MinSIOp,
            tosa::MinimumOp>([&](auto) { return binary(op, minimum); })
      .Case<arith::NegFOp, tosa::NegateOp>(
          [&](auto) { return unary(op, negate); })
      .Case<math::AbsFOp, tosa::AbsOp>(
          [&](auto) { return unary(op, absolute); })
      .Default([](Operation *) { return std::nullopt; });
}

std::optional<FloatRange> RangeEvaluator::evaluateConversion(Operation *op) {
  return llvm::TypeSwitch<Operation *, std::optional<FloatRange>>(op)
      .Case<arith::SIToFPOp, arith::UIToFPOp, tosa::CastOp>(
          [&](Operation *cast) {
            return noteConversion(cast->getOperand(0), operand(cast, 0));
          })
      .Case<arith::ExtFOp, arith::TruncFOp, arith::FPToSIOp, arith::FPToUIOp,
            arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtSIOp,
            arith::ExtUIOp, arith::TruncIOp, arith::BitcastOp>(
          [&](auto) { return operand(op, 0); })
      .Default([](Operation *) { return std::nullopt; });
}

std::optional<FloatRange> RangeEvaluator::evaluateMath(Operation *op) {
  return llvm::TypeSwitch<Operation *, std::optional<FloatRange>>(op)
      .Case<math::ExpOp, tosa::ExpOp>([&](auto) {
        return monotone(op, [](double x) { return std::exp(x); });
      })
      .Case<math::TanhOp, tosa::TanhOp>([&](auto) {
        return monotone(op, [](double x) { return std::tanh(x); });
      })
      .Case<tosa::SigmoidOp>([&](auto) {
        return monotone(op, [](double x) { return 1 / (1 + std::exp(-x)); });
      })
      .Case<math::SqrtOp>([&](auto) {
        FloatRange a = operand(op, 0);
        if (!isKnown(a) || a.getLo() < 0)
          return FloatRange::unbounded();
        return monotone(op, [](double x) { return std::sqrt(x); });
      })
      // Clamps: the bounds are attributes.
      .Case<tosa::ClampOp>([&](tosa::ClampOp c) {
        auto lo = dyn_cast<FloatAttr>(c.getMinValAttr());
        auto hi = dyn_cast<FloatAttr>(c.getMaxValAttr());
        if (!lo || !hi)
          return FloatRange::unbounded();
        return clamp(operand(op, 0), getFloatAttrValue(lo),
                     getFloatAttrValue(hi));
      })
      .Default([](Operation *) { return std::nullopt; });
}
