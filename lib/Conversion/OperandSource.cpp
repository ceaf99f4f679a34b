//===- OperandSource.cpp - Operands computed where the kernels load them --===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A matmul operand is often produced by an elementwise or gather generic
// right before the matmul: a convolution's im2col gather (ConvToMatmul.cpp),
// mixed precision's cast of an activation or an f32 weight, a transpose
// (attention's K^T), a broadcast (a filter over a batch). Each would be a
// kernel writing a buffer that the matmul kernel then reads. Instead, the
// matmul kernels evaluate the producer where they load the operand: the
// element the kernel needs is mapped to the producer's loop indices (through
// reshapes of its buffer and its permutation map), the producer's inputs are
// loaded there (and evaluated the same way when another generic produced
// them, up to a few levels: a gather of a cast of the input), and its
// payload is applied. The producer's kernel and buffer are gone when nothing
// else reads them. For a convolution this is an implicit GEMM: the input
// tiles come straight from the activation tensor, the padding as a bounds
// check.
//
// The matmul kernels, their epilogue's inputs (MatmulEpilogue.cpp) and the
// row kernels (RowKernel.cpp) load their operands through an OperandSource
// (KernelSupport.h); this file calls only MemRefViews.h's buffer queries
// (and the inline IndexBuilder).
//
//===----------------------------------------------------------------------===//

#include "KernelSupport.h"
#include "MemRefViews.h"

#include "mlir/Dialect/Affine/Utils.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::amp;
using namespace mlir::amp::detail;

/// Producers nested deeper than this are loaded, not evaluated.
constexpr unsigned kMaxProducerDepth = 3;
/// A producer that reads its inputs through affine maps (a cast, a
/// transpose, a broadcast; not a gather that computes where it reads) is
/// evaluated only for operands of at most this many elements, or that the
/// kernel reads at most twice (B when M fits one or two block rows). It turns the
/// kernel's 16-byte cp.async (or TMA) loads of 16-bit data into loads and
/// conversions of the source (strided ones for a transpose), every block
/// tile re-reading them: worth a kernel launch for small operands, not for
/// large GEMMs, where the producer's own memory-bound kernel costs less.
constexpr int64_t kMaxEvaluatedElementwise = int64_t(1) << 20;

/// Payloads with more operations on values (not counting constants and
/// index arithmetic) are not evaluated per load.
constexpr unsigned kMaxProducerOps = 32;

/// The generic that computes every element of `value`'s buffer, if it can
/// be evaluated at `point` instead: the only op writing the buffer, an
/// all-parallel generic with one output read with a permutation map, in
/// `point`'s block before it, small, and such that nothing between it and
/// `point` writes what it reads.
static linalg::GenericOp findProducer(Value value, Operation *point) {
  Value root = reshapeRoot(value, ReshapeRoot::Allocation);
  if (!root || !isRowMajor(value) || !isRowMajor(root))
    return {};
  linalg::GenericOp producer;
  for (Value view : reshapesOf(root)) {
    for (OpOperand &use : view.getUses()) {
      Operation *user = use.getOwner();
      if (isa<memref::CollapseShapeOp, memref::ExpandShapeOp,
              memref::DeallocOp>(user))
        continue;
      auto generic = dyn_cast<linalg::GenericOp>(user);
      if (generic && generic.isDpsInit(&use)) {
        if (producer)
          return {};
        producer = generic;
        continue;
      }
      // Any other user must only read the buffer.
      if (llvm::is_contained(writtenBuffers(user), root))
        return {};
    }
  }
  if (!producer || producer->getBlock() != point->getBlock() ||
      !producer->isBeforeInBlock(point) ||
      !producer.hasPureBufferSemantics() || producer.getNumDpsInits() != 1 ||
      producer.getNumLoops() != producer.getNumParallelLoops() ||
      !isRowMajor(producer.getDpsInits()[0]) ||
      !isPermutationUpToUnitDims(producer, producer.getDpsInitOperand(0)))
    return {};
  Block &body = producer.getRegion().front();
  if (!body.getArgument(producer.getNumDpsInputs()).use_empty())
    return {};
  unsigned valueOps = llvm::count_if(body, [](Operation &op) {
    return !isa<arith::ConstantOp, linalg::IndexOp, linalg::YieldOp>(op) &&
           !llvm::all_of(op.getResultTypes(),
                         [](Type t) { return t.isIndex() || t.isInteger(1); });
  });
  if (valueOps > kMaxProducerOps)
    return {};
  // What it reads must not change before `point`; it reads its inputs and
  // whatever its payload loads.
  SmallVector<Value> reads = touchedBuffers(producer);
  llvm::erase(reads, root);
  for (Operation *x = producer->getNextNode(); x != point;
       x = x->getNextNode())
    for (Value written : writtenBuffers(x))
      if (written == root || llvm::is_contained(reads, written))
        return {};
  return producer;
}

/// The sizes of `memref`'s dimensions as index values.
static SmallVector<Value> sizesOf(IndexBuilder &ib, Value memref) {
  auto type = cast<MemRefType>(memref.getType());
  SmallVector<Value> sizes;
  for (int64_t d = 0; d < type.getRank(); ++d)
    sizes.push_back(type.isDynamicDim(d) ? ib.dim(memref, d)
                                         : ib.c(type.getDimSize(d)));
  return sizes;
}

/// Finds the producers of `memref` and of what they read, `depth` levels
/// deep, before the kernel exists (its partly built body would be in the
/// way of findProducer's checks).
static void collectProducers(Value memref, Operation *point, unsigned depth,
                             DenseMap<Value, linalg::GenericOp> &producers) {
  if (depth >= kMaxProducerDepth || producers.count(memref))
    return;
  linalg::GenericOp producer = findProducer(memref, point);
  producers[memref] = producer;
  if (!producer)
    return;
  for (OpOperand *input : producer.getDpsInputOperands())
    if (isa<BaseMemRefType>(input->get().getType()))
      collectProducers(input->get(), point, depth + 1, producers);
  producer.getRegion().walk([&](memref::LoadOp load) {
    collectProducers(load.getMemRef(), point, depth + 1, producers);
  });
}

namespace {
/// Emits evaluations; records the producers it evaluated.
struct Evaluator {
  OpBuilder &b;
  Location loc;
  const DenseMap<Value, linalg::GenericOp> &producers;
  SmallVectorImpl<linalg::GenericOp> &used;
  IndexBuilder ib{b, loc};

  Value load(Value memref, ValueRange indices, unsigned depth) {
    linalg::GenericOp producer = producers.lookup(memref);
    if (!producer)
      return memref::LoadOp::create(b, loc, memref, indices);
    if (!llvm::is_contained(used, producer))
      used.push_back(producer);
    OpOperand *out = producer.getDpsInitOperand(0);
    Value view = out->get();
    SmallVector<Value> viewIndices;
    if (view == memref) {
      viewIndices.assign(indices.begin(), indices.end());
    } else {
      // The element's row-major position, in the producer's view.
      SmallVector<Value> sizes = sizesOf(ib, memref);
      Value linear = ib.c(0);
      for (auto [i, size] : llvm::zip(indices, sizes))
        linear = ib.add(b.createOrFold<arith::MulIOp>(loc, linear, size), i);
      SmallVector<Value> viewSizes = sizesOf(ib, view);
      viewIndices.resize(viewSizes.size());
      for (int64_t d = static_cast<int64_t>(viewSizes.size()) - 1; d >= 0;
           --d) {
        if (d == 0) {
          viewIndices[d] = linear;
          break;
        }
        viewIndices[d] =
            b.createOrFold<arith::RemUIOp>(loc, linear, viewSizes[d]);
        linear = b.createOrFold<arith::DivUIOp>(loc, linear, viewSizes[d]);
      }
    }
    SmallVector<Value> iters =
        loopIndicesAt(b, loc, producer, out, viewIndices);

    Block &body = producer.getRegion().front();
    IRMapping mapping;
    for (OpOperand *input : producer.getDpsInputOperands()) {
      BlockArgument arg = body.getArgument(input->getOperandNumber());
      if (arg.use_empty())
        continue;
      Value v = input->get();
      if (!isa<BaseMemRefType>(v.getType())) {
        mapping.map(arg, v);
        continue;
      }
      mapping.map(arg, load(v,
                            applyMap(b, loc,
                                     producer.getMatchingIndexingMap(input),
                                     iters),
                            depth + 1));
    }
    for (Operation &op : body.without_terminator()) {
      if (auto index = dyn_cast<linalg::IndexOp>(op)) {
        mapping.map(index.getResult(), iters[index.getDim()]);
        continue;
      }
      if (auto inner = dyn_cast<memref::LoadOp>(op)) {
        SmallVector<Value> at;
        for (Value i : inner.getIndices())
          at.push_back(mapping.lookupOrDefault(i));
        mapping.map(inner.getResult(),
                    load(mapping.lookupOrDefault(inner.getMemRef()), at,
                         depth + 1));
        continue;
      }
      b.clone(op, mapping);
    }
    return mapping.lookupOrDefault(body.getTerminator()->getOperand(0));
  }
};
} // namespace

/// Whether `producer` reads its inputs through its indexing maps only (a
/// cast, a transpose, a broadcast), not by loads it computes (a gather).
static bool isAffineProducer(linalg::GenericOp producer) {
  bool loads = false;
  producer.getRegion().walk([&](Operation *op) {
    loads |= isa<memref::LoadOp, linalg::IndexOp>(op);
  });
  return !loads;
}

/// Whether the producer's first buffer input is contiguous along the
/// operand's rows (a transpose): a kernel should then walk the operand's
/// tile row by row for coalesced loads.
static bool readsRowsContiguously(linalg::GenericOp producer, Value operand) {
  if (producer.getDpsInits()[0] != operand)
    return false;
  unsigned rank = cast<MemRefType>(operand.getType()).getRank();
  if (rank < 2)
    return false;
  AffineMap outMap =
      producer.getMatchingIndexingMap(producer.getDpsInitOperand(0));
  auto rowDim = dyn_cast<AffineDimExpr>(outMap.getResult(rank - 2));
  auto colDim = dyn_cast<AffineDimExpr>(outMap.getResult(rank - 1));
  if (!rowDim || !colDim)
    return false;
  unsigned rowLoop = rowDim.getPosition(), colLoop = colDim.getPosition();
  for (OpOperand *input : producer.getDpsInputOperands()) {
    auto type = dyn_cast<MemRefType>(input->get().getType());
    if (!type || type.getRank() == 0)
      continue;
    AffineExpr last =
        producer.getMatchingIndexingMap(input).getResults().back();
    return last.isFunctionOfDim(rowLoop) && !last.isFunctionOfDim(colLoop);
  }
  return false;
}

OperandSource mlir::amp::detail::matchOperandSource(Value operand,
                                                    Operation *matmul,
                                                    bool affine,
                                                    int64_t rereads) {
  OperandSource source;
  source.buffer = operand;
  source.matmul = matmul;
  collectProducers(operand, matmul, 0, source.producers);
  source.producer = source.producers.lookup(operand);
  if (source.producer && isAffineProducer(source.producer)) {
    auto type = cast<MemRefType>(operand.getType());
    bool fewElements = type.hasStaticShape() &&
                       type.getNumElements() <= kMaxEvaluatedElementwise;
    if (!affine || !(fewElements || rereads <= 2)) {
      source.producer = {};
      source.producers.clear();
    }
  }
  if (source.producer) {
    source.rowsContiguous = readsRowsContiguously(source.producer, operand);
    source.gather = !isAffineProducer(source.producer);
  }
  return source;
}

Value OperandSource::load(OpBuilder &b, Location loc,
                          ValueRange indices) const {
  if (!producer)
    return memref::LoadOp::create(b, loc, buffer, indices);
  Evaluator eval{b, loc, producers, evaluated};
  return eval.load(buffer, indices, 0);
}

void mlir::amp::detail::finishOperandSource(RewriterBase &rewriter,
                                            const OperandSource &source) {
  finishOperandSources(rewriter, {&source});
}

void mlir::amp::detail::finishOperandSources(
    RewriterBase &rewriter, ArrayRef<const OperandSource *> sources) {
  // Each producer once: the operands of one kernel may have evaluated the
  // same one (A and B computed by one generic), and the first erasure
  // would leave the second a dangling op.
  llvm::SetVector<Operation *> producers;
  for (const OperandSource *source : sources)
    for (linalg::GenericOp producer : source->evaluated)
      producers.insert(producer.getOperation());
  // Erase the evaluated producers whose buffers nothing reads any more,
  // outermost first (which may leave the inner ones unread).
  for (Operation *op : producers) {
    auto producer = cast<linalg::GenericOp>(op);
    Value out = producer.getDpsInits()[0];
    Value root = reshapeRoot(out, ReshapeRoot::Allocation);
    if (!root)
      continue;
    bool read = false;
    for (Value view : reshapesOf(root))
      for (Operation *user : view.getUsers())
        if (user != producer.getOperation() &&
            !isa<memref::CollapseShapeOp, memref::ExpandShapeOp,
                 memref::DeallocOp>(user))
          read = true;
    if (read)
      continue;
    rewriter.eraseOp(producer);
    eraseIfUnused(rewriter, root);
  }
}
