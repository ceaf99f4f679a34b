//===- ContractionSupport.cpp - What the contraction stages share --------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "ContractionSupport.h"

#include "amp/Utils/CastUtils.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
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
