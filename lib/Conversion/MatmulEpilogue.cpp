//===- MatmulEpilogue.cpp - Elementwise consumers in a matmul's epilogue --===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A matmul's result C is usually read once, by an elementwise linalg.generic
// (after --amp-gpu-fuse-elementwise: bias, batch-norm scale and shift,
// activation, residual add, the cast to f16 and a transpose, all in one).
// The matmul kernels compute that generic in their epilogue: each thread
// that has the final value of C[b, row, col] evaluates the generic's payload
// for the element that reads it, loading the generic's other inputs there,
// and stores the generic's outputs instead of C. The generic (its kernel)
// and, when nothing else reads C, C's buffer are gone.
//
// The generic may read C through reshapes (an NHWC convolution's matmul
// writes [N*H*W, F] and the generic reads [N, H, W, F]) and with any
// permutation (a transposed output): the element's position in C's
// row-major buffer is delinearized over the shape the generic reads.
//
// Every kernel writes C through accumulateIntoC (bounds-checked) or
// accumulateIntoCInBounds, which add the fill value or C's old value and
// then store C or compute the fused consumer. The operand sources of the
// consumer's other inputs are OperandSource.cpp's; nothing here calls the
// driver (MatmulOperands.cpp).
//
//===----------------------------------------------------------------------===//

#include "MatmulKernels.h"
#include "MemRefViews.h"

#include "mlir/Dialect/Affine/Utils.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace mlir::amp;
using namespace mlir::amp::detail;

/// Whether `v` is available before `point` or can be made so by moving the
/// view and allocation ops that define it (same block) before `point`;
/// records those ops in `toMove`, operands first.
static bool collectHoistable(Value v, Operation *point,
                             SmallVectorImpl<Operation *> &toMove) {
  Operation *def = v.getDefiningOp();
  if (!def) {
    auto arg = cast<BlockArgument>(v);
    return arg.getOwner()->getParentOp()->isAncestor(point);
  }
  if (def->getBlock() != point->getBlock())
    return def->getBlock()->getParentOp()->isAncestor(point) &&
           !point->isAncestor(def);
  if (def->isBeforeInBlock(point) || llvm::is_contained(toMove, def))
    return true;
  if (!isa<memref::AllocOp, memref::CollapseShapeOp, memref::ExpandShapeOp,
           memref::SubViewOp, memref::CastOp, arith::ConstantOp,
           memref::GetGlobalOp>(def))
    return false;
  for (Value operand : def->getOperands())
    if (!collectHoistable(operand, point, toMove))
      return false;
  toMove.push_back(def);
  return true;
}

std::optional<MatmulEpilogue>
mlir::amp::detail::matchEpilogue(RewriterBase &rewriter, linalg::LinalgOp op) {
  Value c = op.getDpsInits()[0];
  Value root = reshapeRoot(c, ReshapeRoot::AnyBuffer);
  if (!root || !isRowMajor(c) || !isRowMajor(root))
    return std::nullopt;
  Block *block = op->getBlock();

  // Every reader of C's buffer; the first elementwise generic after `op`
  // is the candidate.
  linalg::GenericOp consumer;
  OpOperand *cOperand = nullptr;
  bool otherReaders = false;
  for (Value view : reshapesOf(root)) {
    for (OpOperand &use : view.getUses()) {
      Operation *user = use.getOwner();
      if (user == op.getOperation() ||
          isa<memref::CollapseShapeOp, memref::ExpandShapeOp,
              memref::DeallocOp>(user))
        continue;
      auto generic = dyn_cast<linalg::GenericOp>(user);
      bool candidate = generic && generic->getBlock() == block &&
                       op->isBeforeInBlock(generic) &&
                       generic.hasPureBufferSemantics() &&
                       generic.getNumLoops() ==
                           generic.getNumParallelLoops() &&
                       generic.isDpsInput(&use) &&
                       isPermutationUpToUnitDims(generic, &use);
      if (candidate && (!consumer || generic->isBeforeInBlock(consumer))) {
        if (consumer)
          otherReaders = true;
        consumer = generic;
        cOperand = &use;
        continue;
      }
      otherReaders = true;
    }
  }
  if (!consumer)
    return std::nullopt;
  // C once among the consumer's operands (and never written by it).
  for (OpOperand &operand : consumer->getOpOperands())
    if (&operand != cOperand && bufferRoot(operand.get()) == root)
      return std::nullopt;

  // The epilogue writes the consumer's outputs while other blocks of the
  // kernel still read A and B: they must not overlap. An output may be an
  // input of the consumer only if read at the same element (in place).
  SmallVector<Value> inputRoots, outputRoots;
  for (OpOperand *input : consumer.getDpsInputOperands())
    if (input != cOperand && isa<BaseMemRefType>(input->get().getType()))
      inputRoots.push_back(bufferRoot(input->get()));
  Value aRoot = bufferRoot(op.getDpsInputs()[0]);
  Value bRoot = bufferRoot(op.getDpsInputs()[1]);
  for (OpOperand &output : consumer.getDpsInitsMutable()) {
    Value outRoot = bufferRoot(output.get());
    if (outRoot == aRoot || outRoot == bRoot)
      return std::nullopt;
    for (OpOperand *input : consumer.getDpsInputOperands())
      if (input != cOperand && bufferRoot(input->get()) == outRoot &&
          (input->get() != output.get() ||
           consumer.getMatchingIndexingMap(input) !=
               consumer.getMatchingIndexingMap(&output)))
        return std::nullopt;
    outputRoots.push_back(outRoot);
  }

  // Nothing between `op` and the consumer may write what the consumer
  // reads, nor touch what it writes; C may only be read (then C is
  // stored too).
  for (Operation *x = op->getNextNode(); x != consumer.getOperation();
       x = x->getNextNode()) {
    if (isMemoryEffectFree(x) ||
        isa<memref::AllocOp, memref::CollapseShapeOp, memref::ExpandShapeOp,
            memref::SubViewOp, memref::CastOp>(x))
      continue;
    bool writes = mayWriteMemory(x);
    for (Value touched : touchedBuffers(x)) {
      if (llvm::is_contained(outputRoots, touched))
        return std::nullopt;
      if (touched == root) {
        if (writes)
          return std::nullopt;
        otherReaders = true;
      }
      if (writes && llvm::is_contained(inputRoots, touched))
        return std::nullopt;
    }
  }

  // The consumer's operands must exist when the kernel runs.
  SmallVector<Operation *> toMove;
  for (Value operand : consumer->getOperands())
    if (!collectHoistable(operand, op.getOperation(), toMove))
      return std::nullopt;
  for (Operation *def : toMove)
    rewriter.moveOpBefore(def, op.getOperation());

  MatmulEpilogue epilogue;
  epilogue.consumer = consumer;
  epilogue.cOperand = cOperand;
  epilogue.storeC = otherReaders;
  for (OpOperand *input : consumer.getDpsInputOperands())
    if (input != cOperand && isa<BaseMemRefType>(input->get().getType()))
      epilogue.inputs[input->getOperandNumber()] =
          matchOperandSource(input->get(), op);
  return epilogue;
}

/// The indices of `value` (a row-major memref of `linear`'s buffer) at the
/// row-major position `linear`.
static SmallVector<Value> delinearize(IndexBuilder &ib, Value memref,
                                      Value linear) {
  auto type = cast<MemRefType>(memref.getType());
  SmallVector<Value> indices(type.getRank());
  Value rest = linear;
  for (int64_t d = type.getRank() - 1; d >= 0; --d) {
    if (d == 0) {
      indices[d] = rest;
      break;
    }
    int64_t size = type.getDimSize(d);
    Value sizeValue =
        ShapedType::isDynamic(size) ? ib.dim(memref, d) : ib.c(size);
    indices[d] = ib.b.createOrFold<arith::RemUIOp>(ib.loc, rest, sizeValue);
    rest = ib.b.createOrFold<arith::DivUIOp>(ib.loc, rest, sizeValue);
  }
  return indices;
}

void PendingStores::emit(OpBuilder &b, Location loc) const {
  for (const Store &s : stores)
    memref::StoreOp::create(b, loc, s.value, s.memref, s.indices);
}

bool MatmulEpilogue::writesFP8() const {
  linalg::GenericOp generic = consumer;
  return llvm::any_of(generic.getDpsInits(), [](Value v) {
    return isa<Float8E4M3FNType, Float8E5M2Type>(getElementTypeOrSelf(v));
  });
}

void MatmulEpilogue::emit(OpBuilder &b, Location loc, const MatmulOperands &mm,
                          Value batchIv, Value row, Value col, Value sum,
                          PendingStores *pending) const {
  auto store = [&](Value value, Value memref, SmallVector<Value> indices) {
    if (pending)
      pending->stores.push_back({value, memref, std::move(indices)});
    else
      memref::StoreOp::create(b, loc, value, memref, indices);
  };
  linalg::GenericOp consumer = this->consumer;
  IndexBuilder ib{b, loc};
  Value view = cOperand->get();
  SmallVector<Value> viewIndices;
  if (view == mm.cMat) {
    viewIndices = withBatch(batchIv, {row, col});
  } else {
    Value rows = row;
    if (batchIv)
      rows = ib.add(b.createOrFold<arith::MulIOp>(loc, batchIv, mm.m), row);
    Value linear =
        ib.add(b.createOrFold<arith::MulIOp>(loc, rows, mm.n), col);
    viewIndices = delinearize(ib, view, linear);
  }
  if (storeC)
    store(sum, mm.cMat, withBatch(batchIv, {row, col}));

  // The consumer's loop indices: C's map is a permutation (up to unit
  // dimensions).
  SmallVector<Value> iters =
      loopIndicesAt(b, loc, consumer, cOperand, viewIndices);

  Block &body = consumer.getRegion().front();
  IRMapping mapping;
  for (OpOperand &operand : consumer->getOpOperands()) {
    BlockArgument arg = body.getArgument(operand.getOperandNumber());
    if (&operand == cOperand) {
      mapping.map(arg, sum);
      continue;
    }
    if (arg.use_empty())
      continue;
    Value value = operand.get();
    if (!isa<BaseMemRefType>(value.getType())) {
      mapping.map(arg, value); // a scalar input
      continue;
    }
    SmallVector<Value> at = applyMap(
        b, loc, consumer.getMatchingIndexingMap(&operand), iters);
    auto source = inputs.find(operand.getOperandNumber());
    mapping.map(arg, source != inputs.end()
                         ? source->second.load(b, loc, at)
                         : memref::LoadOp::create(b, loc, value, at)
                               .getResult());
  }
  for (Operation &payload : body.without_terminator()) {
    if (auto index = dyn_cast<linalg::IndexOp>(payload)) {
      mapping.map(index.getResult(), iters[index.getDim()]);
      continue;
    }
    b.clone(payload, mapping);
  }
  auto yield = cast<linalg::YieldOp>(body.getTerminator());
  for (auto [i, output] : llvm::enumerate(consumer.getDpsInitsMutable()))
    store(mapping.lookupOrDefault(yield.getOperand(i)), output.get(),
          applyMap(b, loc, consumer.getMatchingIndexingMap(&output), iters));
}

void mlir::amp::detail::finishEpilogue(RewriterBase &rewriter,
                                       const MatmulEpilogue &epilogue,
                                       Value c) {
  rewriter.eraseOp(epilogue.consumer);
  for (auto &[number, source] : epilogue.inputs)
    finishOperandSource(rewriter, source);
  if (epilogue.storeC)
    return;
  // Nothing reads C any more: its buffer, views and deallocations go.
  if (Value root = reshapeRoot(c, ReshapeRoot::AnyBuffer))
    eraseIfUnused(rewriter, root);
}

//===----------------------------------------------------------------------===//
// The writes of C
//===----------------------------------------------------------------------===//

/// `acc` added to C's element at `idx` (to the folded fill's value when
/// the kernel took the fill).
static Value addToC(OpBuilder &b, Location loc, const MatmulOperands &mm,
                    ArrayRef<Value> idx, Value acc) {
  Value old = mm.init
                  ? mm.init
                  : memref::LoadOp::create(b, loc, mm.cMat, idx).getResult();
  return arith::AddFOp::create(b, loc, old, acc);
}

void mlir::amp::detail::accumulateIntoCInBounds(OpBuilder &b, Location loc,
                                                const MatmulOperands &mm,
                                                Value batchIv, Value row,
                                                Value col, Value acc,
                                                PendingStores &pending) {
  SmallVector<Value> idx = withBatch(batchIv, {row, col});
  Value sum = addToC(b, loc, mm, idx, acc);
  if (mm.epilogue) {
    mm.epilogue->emit(b, loc, mm, batchIv, row, col, sum, &pending);
    return;
  }
  pending.stores.push_back({sum, mm.cMat, idx});
}

void mlir::amp::detail::accumulateIntoC(OpBuilder &b, Location loc,
                                        const MatmulOperands &mm, Value batchIv,
                                        Value row, Value col, Value acc) {
  IndexBuilder ib{b, loc};
  Value inBounds = ib.land(ib.lt(row, mm.m), ib.lt(col, mm.n));
  auto ifOp = scf::IfOp::create(b, loc, inBounds, /*withElseRegion=*/false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&ifOp.getThenRegion().front());
  SmallVector<Value> idx = withBatch(batchIv, {row, col});
  Value sum = addToC(b, loc, mm, idx, acc);
  if (mm.epilogue) {
    mm.epilogue->emit(b, loc, mm, batchIv, row, col, sum);
    return;
  }
  memref::StoreOp::create(b, loc, sum, mm.cMat, idx);
}
