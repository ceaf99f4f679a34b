//===- PrecisionPlan.cpp - Decide the precision of every op ---------------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// See PrecisionPlan.h for the algorithm: this file runs its phases in order
// (PlanState.h, one file each) and answers the rewrite's queries. Only FP32
// values are converted; ops whose float data are of other types (f64, f8,
// already 16-bit) are left alone.
//
//===----------------------------------------------------------------------===//

#include "PlanState.h"

#include "amp/IR/AmpDialect.h"
#include "amp/Utils/TypeUtils.h"

#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

using namespace mlir;
using namespace mlir::amp;
using namespace mlir::amp::plan;

//===----------------------------------------------------------------------===//
// Helpers the phases share
//===----------------------------------------------------------------------===//

bool plan::isSourceElementType(Type type) {
  return getScalarType(type).isF32();
}

bool plan::isConvertible(Value value) {
  // isCastableFloatType and an f32 element, without interface lookups: asked
  // for every operand and result of every op.
  Type type = value.getType();
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return tensor.getElementType().isF32();
  if (auto vector = dyn_cast<VectorType>(type))
    return vector.getElementType().isF32();
  return type.isF32();
}

bool plan::isPublicFunction(Operation *op) {
  auto func = dyn_cast<FunctionOpInterface>(op);
  return func && !func.isExternal() &&
         SymbolTable::getSymbolVisibility(op) ==
             SymbolTable::Visibility::Public;
}

std::optional<unsigned> PlanState::findNear(Operation *op, size_t near) const {
  // Producers and users are most often the ops just before and after.
  constexpr size_t kWindow = 4;
  if (near < ops.size() && ops[near] == op)
    return near;
  for (size_t distance = 1; distance <= kWindow; ++distance) {
    if (near >= distance && near - distance < ops.size() &&
        ops[near - distance] == op)
      return near - distance;
    if (near + distance < ops.size() && ops[near + distance] == op)
      return near + distance;
  }
  return std::nullopt;
}

std::optional<unsigned> PlanState::findIndex(Operation *op,
                                             std::optional<size_t> near) const {
  if (near)
    if (std::optional<unsigned> i = findNear(op, *near))
      return i;
  if (index.empty()) {
    index.reserve(ops.size());
    for (auto [i, known] : llvm::enumerate(ops))
      index[known] = i;
  }
  auto it = index.find(op);
  if (it == index.end())
    return std::nullopt;
  return it->second;
}

//===----------------------------------------------------------------------===//
// The plan
//===----------------------------------------------------------------------===//

PrecisionPlan::PrecisionPlan(Operation *root,
                             const MixedPrecisionOptions &options)
    : state(std::make_unique<PlanState>(root, options)) {
  MLIRContext *ctx = root->getContext();
  state->colorName =
      StringAttr::get(ctx, AmpDialect::ColorAttrHelper::getNameStr());
  state->precisionName =
      StringAttr::get(ctx, AmpDialect::PrecisionAttrHelper::getNameStr());
}

PrecisionPlan::~PrecisionPlan() = default;

LogicalResult PrecisionPlan::runColors() {
  PlanInputs inputs;
  ColorTally tally;
  collectOps(*state, inputs, tally, /*withInputs=*/false);
  if (failed(tally.colored))
    return failure();
  applySkipLayers(*state);
  return assignPrecisions(*state);
}

LogicalResult PrecisionPlan::run() {
  // What only planning reads goes when it is done, before the rewrite
  // allocates; each phase frees its own tables as it returns (the peak
  // memory of a big function is that of the largest phase, not their sum).
  PlanInputs inputs;
  ColorTally tally;
  collectOps(*state, inputs, tally);
  if (failed(tally.colored))
    return failure();
  summarizeUncolored(*state, tally);
  applySkipLayers(*state);
  if (failed(assignPrecisions(*state)))
    return failure();
  applyRanges(*state, inputs);
  runSweeps(*state, inputs);
  if (state->options.grayStrategy == GrayStrategy::MinBytes)
    placeCasts(*state, inputs);
  return success();
}

//===----------------------------------------------------------------------===//
// Queries
//===----------------------------------------------------------------------===//

ArrayRef<Operation *> PrecisionPlan::getOps() const { return state->ops; }

const OpDecision &PrecisionPlan::getDecision(size_t i) const {
  return state->infos[i].decision;
}

std::optional<unsigned>
PrecisionPlan::findIndex(Operation *op, std::optional<size_t> near) const {
  return state->findIndex(op, near);
}

ArrayRef<unsigned> PrecisionPlan::getDataOperands(size_t i) const {
  return state->getDataOperands(i);
}

ArrayRef<unsigned> PrecisionPlan::getAccumulatorOperands(size_t i) const {
  return state->getAccumulatorOperands(i);
}

const RangeSummary &PrecisionPlan::getConstantSummary() const {
  return state->constantSummary;
}

bool PrecisionPlan::isAccumulatorOperand(Operation *op,
                                         OpOperand &operand) const {
  std::optional<unsigned> i = findIndex(op);
  return i && llvm::is_contained(getAccumulatorOperands(*i),
                                 operand.getOperandNumber());
}

bool PrecisionPlan::isDataOperand(Operation *op, OpOperand &operand) const {
  std::optional<unsigned> i = findIndex(op);
  return i &&
         llvm::is_contained(getDataOperands(*i), operand.getOperandNumber());
}

bool PrecisionPlan::isConvertedLater(Operation *user, unsigned operandNumber,
                                     size_t i) const {
  std::optional<unsigned> j = findIndex(user, i);
  return j && *j > i && state->infos[*j].decision.lowPrecision &&
         (llvm::is_contained(getDataOperands(*j), operandNumber) ||
          llvm::is_contained(getAccumulatorOperands(*j), operandNumber));
}
