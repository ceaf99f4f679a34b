//===- CostModel.cpp - What an op costs, per precision --------------------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "CostModel.h"

#include "Tuner.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/DenseSet.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::amp::tune;

namespace {
/// Multiply-adds per second (two FLOPs each) and bytes per second.
constexpr double kFP32Macs = 67e12 / 2;
constexpr double kBits16Macs = 989e12 / 2;
constexpr double kFP8Macs = 1979e12 / 2;
constexpr double kBandwidth = 3.35e12;
} // namespace

/// The elements of `type` if it is a float tensor of static shape.
static int64_t floatElements(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor || !tensor.hasStaticShape() ||
      !isa<FloatType>(tensor.getElementType()))
    return 0;
  return tensor.getNumElements();
}

/// Ops a GPU kernel applies on the way in or out of a contraction: every
/// loop of a linalg op parallel, elementwise ops, padding, reshapes.
static bool isElementwise(Operation *op) {
  if (isa<tensor::PadOp, tensor::ExpandShapeOp, tensor::CollapseShapeOp,
          linalg::TransposeOp, linalg::BroadcastOp>(op))
    return true;
  if (op->hasTrait<OpTrait::Elementwise>())
    return true;
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  return linalgOp && linalgOp.getNumParallelLoops() == linalgOp.getNumLoops();
}

/// An op with multiply-adds that is not elementwise: a contraction.
static bool isContraction(Operation *op) {
  std::optional<int64_t> macs = op ? estimateMacs(op) : std::nullopt;
  return macs && *macs > 0 && !isElementwise(op);
}

/// Whether elementwise `op` is a contraction's epilogue (a contraction
/// reached through elementwise producers) or prologue (its one user is
/// one).
static bool fusesWithContraction(Operation *op) {
  if (!isElementwise(op))
    return false;
  if (op->hasOneUse() && isContraction(*op->user_begin()))
    return true;
  SmallVector<Operation *> work = {op};
  llvm::DenseSet<Operation *> seen = {op};
  while (!work.empty()) {
    Operation *next = work.pop_back_val();
    for (Value operand : next->getOperands()) {
      Operation *def = operand.getDefiningOp();
      if (!def || !seen.insert(def).second)
        continue;
      if (isContraction(def))
        return true;
      if (isElementwise(def) && seen.size() < 64)
        work.push_back(def);
    }
  }
  return false;
}

OpWork mlir::amp::tune::measureWork(Operation *op) {
  OpWork work;
  if (std::optional<int64_t> macs = estimateMacs(op); macs && *macs > 0)
    work.macs = *macs;
  work.fused = fusesWithContraction(op);
  work.contraction = isContraction(op);
  for (Value operand : op->getOperands()) {
    int64_t n = floatElements(operand.getType());
    work.elements += n;
    if (operand.getDefiningOp<arith::ConstantOp>())
      work.weightElements += n;
  }
  for (Type type : op->getResultTypes())
    work.elements += floatElements(type);
  return work;
}

double mlir::amp::tune::estimateBytes(const OpWork &work, CostLevel level,
                                      unsigned weightBits) {
  double elements = static_cast<double>(work.elements);
  switch (level) {
  case CostLevel::FP32:
    return 4 * elements;
  case CostLevel::Bits16:
    return 2 * elements;
  case CostLevel::FP8:
    return 1.5 * elements; // FP8 operands, 16-bit results: about half each
  case CostLevel::WeightOnly: {
    double weights = static_cast<double>(work.weightElements);
    return 2 * (elements - weights) + weights * weightBits / 8.0;
  }
  }
  return 4 * elements;
}

double mlir::amp::tune::estimateSeconds(const OpWork &work, CostLevel level,
                                        unsigned weightBits) {
  if (work.fused)
    return 0;
  double rate = level == CostLevel::FP32  ? kFP32Macs
                : level == CostLevel::FP8 ? kFP8Macs
                                          : kBits16Macs;
  double compute = static_cast<double>(work.macs) / rate;
  double memory = estimateBytes(work, level, weightBits) / kBandwidth;
  return std::max(compute, memory);
}

const char *mlir::amp::tune::getCostModelName() {
  return "H100 SXM roofline, epilogues fused";
}
