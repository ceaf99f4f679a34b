//===- ContractionSupport.cpp - What the contraction stages share --------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "ContractionSupport.h"

#include "amp/Analysis/PrecisionPlan.h"
#include "amp/Utils/CastUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace mlir::amp;

/// The permutation of a transpose `op` (dimension i of its result is
/// dimension p[i] of its input) and its input, if it is one: linalg.transpose,
/// tosa.transpose, or a linalg.generic that copies its only input with a
/// permuted indexing map.
static std::optional<std::pair<Value, SmallVector<int64_t>>>
getTranspose(Operation *op) {
  if (auto transpose = dyn_cast<linalg::TransposeOp>(op))
    return std::make_pair(transpose.getInput(),
                          llvm::to_vector(transpose.getPermutation()));
  if (auto transpose = dyn_cast<tosa::TransposeOp>(op))
    return std::make_pair(
        transpose.getInput1(),
        llvm::map_to_vector(transpose.getPerms(),
                            [](int32_t p) -> int64_t { return p; }));
  auto generic = dyn_cast<linalg::GenericOp>(op);
  if (!generic || generic.getNumDpsInputs() != 1 ||
      generic.getNumDpsInits() != 1 || !generic.hasPureTensorSemantics() ||
      generic.getNumParallelLoops() != generic.getNumLoops())
    return std::nullopt;
  Block &body = generic.getRegion().front();
  auto yield = cast<linalg::YieldOp>(body.getTerminator());
  if (body.getOperations().size() != 1 ||
      yield.getValues().front() != body.getArgument(0))
    return std::nullopt;
  AffineMap in = generic.getIndexingMapsArray()[0];
  AffineMap out = generic.getIndexingMapsArray()[1];
  if (!in.isPermutation() || !out.isIdentity())
    return std::nullopt;
  // value[d] = input[d_{in(0)}, d_{in(1)}, ...]: input dimension j is value
  // dimension in(j), so value dimension i is input dimension in^-1(i).
  SmallVector<int64_t> permutation(in.getNumResults());
  for (unsigned j = 0; j < in.getNumResults(); ++j)
    permutation[in.getDimPosition(j)] = j;
  return std::make_pair(generic.getDpsInputOperand(0)->get(), permutation);
}

std::optional<ConstantSource> mlir::amp::findConstant(Value value) {
  SmallVector<int64_t> permutation; // value dim i -> source dim
  auto rank = cast<ShapedType>(value.getType()).getRank();
  permutation = llvm::to_vector(llvm::seq<int64_t>(0, rank));
  while (Operation *def = value.getDefiningOp()) {
    if (isFloatConstant(def)) {
      Attribute attr = getConstantAttr(def);
      if (!attr || isa<FloatAttr>(attr))
        return std::nullopt;
      return ConstantSource{def, attr, permutation};
    }
    std::optional<std::pair<Value, SmallVector<int64_t>>> transpose =
        getTranspose(def);
    if (!transpose)
      return std::nullopt;
    for (int64_t &p : permutation)
      p = transpose->second[p];
    value = transpose->first;
  }
  return std::nullopt;
}

AffineMap mlir::amp::getPermutedReadMap(ArrayRef<int64_t> permutation,
                                        MLIRContext *ctx) {
  SmallVector<AffineExpr> results(permutation.size());
  for (auto [i, p] : llvm::enumerate(permutation))
    results[p] = getAffineDimExpr(i, ctx);
  return AffineMap::get(permutation.size(), 0, results, ctx);
}

void mlir::amp::detachDead(Operation *op,
                          const llvm::DenseSet<Operation *> &keep,
                          SmallVector<Operation *> &detached) {
  SmallVector<Operation *> worklist = {op};
  while (!worklist.empty()) {
    Operation *dead = worklist.pop_back_val();
    SmallVector<Operation *> producers;
    dead->walk([&](Operation *inner) {
      for (Value operand : inner->getOperands())
        if (Operation *def = operand.getDefiningOp();
            def && !dead->isAncestor(def))
          producers.push_back(def);
    });
    dead->dropAllReferences();
    dead->remove();
    detached.push_back(dead);
    for (Operation *def : producers)
      if (!keep.contains(def) && def->getBlock() && def->use_empty() &&
          isMemoryEffectFree(def) && !llvm::is_contained(worklist, def))
        worklist.push_back(def);
  }
}

void mlir::amp::eraseUnusedSince(RewriterBase &rewriter, InsertedOps &inserted,
                                 size_t first,
                                 llvm::function_ref<void(Operation *)> forget) {
  ArrayRef<Operation *> made = ArrayRef(inserted.ops).drop_front(first);
  llvm::DenseSet<Operation *> all(made.begin(), made.end());
  // The outermost ones (found before any is erased); users come after
  // their producers, so the last made goes first.
  SmallVector<Operation *> outermost;
  for (Operation *op : made)
    if (!all.contains(op->getParentOp()))
      outermost.push_back(op);
  for (Operation *op : llvm::reverse(outermost)) {
    if (!op->use_empty())
      continue;
    if (forget)
      forget(op);
    rewriter.eraseOp(op);
  }
  inserted.ops.resize(first);
}

Value mlir::amp::buildPermutedMap(
    RewriterBase &rewriter, Location loc, Value value,
    ArrayRef<int64_t> permutation, Type elementType,
    llvm::function_ref<Value(OpBuilder &, Location, Value)> body) {
  MLIRContext *ctx = rewriter.getContext();
  auto valueType = cast<RankedTensorType>(value.getType());
  SmallVector<int64_t> shape;
  for (int64_t p : permutation)
    shape.push_back(valueType.getDimSize(p));
  Value empty = tensor::EmptyOp::create(rewriter, loc, shape, elementType);
  int64_t rank = shape.size();
  SmallVector<AffineMap> maps = {getPermutedReadMap(permutation, ctx),
                                 AffineMap::getMultiDimIdentityMap(rank, ctx)};
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      rewriter, loc, TypeRange{empty.getType()}, ValueRange{value},
      ValueRange{empty}, maps, iterators,
      [&](OpBuilder &b, Location loc, ValueRange args) {
        linalg::YieldOp::create(b, loc, body(b, loc, args[0]));
      });
  return generic.getResult(0);
}

Value mlir::amp::buildContractionEpilogue(RewriterBase &rewriter, Location loc,
                                          Value accumulator, int64_t channelDim,
                                          ArrayRef<float> channelFactors,
                                          std::optional<float> uniformFactor,
                                          Value bias, Value addend) {
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPointAfterValue(accumulator);
  MLIRContext *ctx = rewriter.getContext();
  auto type = cast<RankedTensorType>(accumulator.getType());
  int64_t rank = type.getRank();
  if (channelDim < 0 || channelDim >= rank)
    return {};
  int64_t channels = type.getDimSize(channelDim);
  AffineMap identity = AffineMap::getMultiDimIdentityMap(rank, ctx);
  AffineMap channelMap =
      AffineMap::get(rank, 0, getAffineDimExpr(channelDim, ctx), ctx);
  AffineMap firstMap =
      AffineMap::get(rank, 0, getAffineConstantExpr(0, ctx), ctx);
  SmallVector<Value> inputs = {accumulator};
  SmallVector<AffineMap> maps = {identity};
  bool perChannel = !channelFactors.empty();
  if (perChannel) {
    if (static_cast<int64_t>(channelFactors.size()) != channels)
      return {};
    auto vectorType = RankedTensorType::get({channels}, rewriter.getF32Type());
    inputs.push_back(arith::ConstantOp::create(
        rewriter, loc, DenseElementsAttr::get(vectorType, channelFactors)));
    maps.push_back(channelMap);
  }
  if (bias) {
    auto biasType = cast<RankedTensorType>(bias.getType());
    inputs.push_back(bias);
    maps.push_back(biasType.getDimSize(0) == 1 && channels != 1 ? firstMap
                                                                : channelMap);
  }
  if (addend) {
    inputs.push_back(addend);
    maps.push_back(identity);
  }
  maps.push_back(identity);
  Value empty = tensor::EmptyOp::create(rewriter, loc, type.getShape(),
                                        type.getElementType());
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      rewriter, loc, TypeRange{type}, inputs, ValueRange{empty}, maps,
      iterators, [&](OpBuilder &b, Location loc, ValueRange args) {
        unsigned next = 1;
        Value result = args[0];
        if (perChannel)
          result = arith::MulFOp::create(b, loc, result, args[next++]);
        else if (uniformFactor)
          result = arith::MulFOp::create(
              b, loc, result,
              arith::ConstantOp::create(b, loc,
                                        b.getF32FloatAttr(*uniformFactor)));
        if (bias)
          result = arith::AddFOp::create(b, loc, result, args[next++]);
        if (addend)
          result = arith::AddFOp::create(b, loc, result, args[next++]);
        linalg::YieldOp::create(b, loc, result);
      });
  return generic.getResult(0);
}

void mlir::amp::adoptReplacement(RewriterBase &rewriter, Operation *op,
                                 Value replacement, const InsertedOps &inserted,
                                 size_t first,
                                 const MixedPrecisionOptions &options,
                                 FP8Conversion &result) {
  for (Operation *made : ArrayRef(inserted.ops).drop_front(first))
    result.fixedOps.insert(made);
  Value old = op->getResult(0);
  if (options.observedMaxAbs)
    if (std::optional<double> observed =
            options.observedMaxAbs(cast<OpResult>(old)))
      result.observed[replacement] = *observed;
  rewriter.replaceAllUsesWith(old, replacement);
}

void mlir::amp::recordConverted(Operation *op, OpDecision decision,
                                FP8Record record, FP8Conversion &result) {
  decision.lowPrecision = true;
  decision.accumulateType = decision.outputType =
      Float32Type::get(op->getContext());
  result.converted.push_back(
      {op->getName(), op->getLoc(), decision, std::move(record)});
  detachDead(op, result.fixedOps, result.detached);
}

std::optional<SmallVector<int64_t>>
mlir::amp::getNarrowPermutation(Operation *op, unsigned number, Value value,
                                ArrayRef<int64_t> permutation) {
  auto valueType = dyn_cast<RankedTensorType>(value.getType());
  Value operand = op->getOperand(number);
  if (!valueType || !valueType.hasStaticShape() ||
      !valueType.getElementType().isF32() ||
      valueType.getRank() != cast<ShapedType>(operand.getType()).getRank())
    return std::nullopt;
  SmallVector<int64_t> perm(permutation);
  if (perm.empty())
    perm = llvm::to_vector(llvm::seq<int64_t>(0, valueType.getRank()));
  if (static_cast<int64_t>(perm.size()) != valueType.getRank())
    return std::nullopt;
  return perm;
}

LogicalResult ContractionStage::run() {
  PrecisionPlan colors(root, options);
  if (failed(colors.runColors()))
    return failure();
  findCandidates(colors);
  rewriteCandidates();
  summarizeFallbacks();
  return success();
}
