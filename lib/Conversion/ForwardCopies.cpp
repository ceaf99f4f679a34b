//===- ForwardCopies.cpp - Readers of a copy read its source --------------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The --amp-gpu-forward-copies pass. Bufferization leaves copies whose
// target is a fresh buffer that later ops only read: a slice of a result
// copied out before a cast, a tensor copied before an elementwise op. On
// the GPU each is a kernel (or a device copy) and a buffer. When nothing
// writes the source before the last reader, the readers read the source
// (a strided view is fine for them) and the copy is gone.
//
//===----------------------------------------------------------------------===//

#include "MemRefViews.h"
#include "amp/Conversion/Passes.h"

namespace mlir {
namespace amp {
#define GEN_PASS_DEF_AMPGPUFORWARDCOPIESPASS
#include "amp/Conversion/Passes.h.inc"
} // namespace amp
} // namespace mlir

using namespace mlir;
using namespace mlir::amp;
using namespace mlir::amp::detail;

/// Forwards `source` to the readers of `target` if the conditions of the
/// file header hold; erases `copy` and `target`'s buffer then.
static bool forward(RewriterBase &rewriter, Operation *copy, Value source,
                    Value target) {
  auto alloc = target.getDefiningOp<memref::AllocOp>();
  if (!alloc || alloc->getBlock() != copy->getBlock())
    return false;
  auto sourceType = cast<MemRefType>(source.getType());
  auto targetType = cast<MemRefType>(target.getType());
  if (sourceType.getShape() != targetType.getShape() ||
      sourceType.getElementType() != targetType.getElementType() ||
      sourceType.getMemorySpace() != targetType.getMemorySpace())
    return false;
  SmallVector<OpOperand *> reads;
  SmallVector<Operation *> deallocs;
  Operation *lastReader = copy;
  for (OpOperand &use : target.getUses()) {
    Operation *user = use.getOwner();
    if (user == copy)
      continue;
    if (isa<memref::DeallocOp>(user)) {
      deallocs.push_back(user);
      continue;
    }
    auto linalgOp = dyn_cast<linalg::LinalgOp>(user);
    if (!linalgOp || !linalgOp.isDpsInput(&use) ||
        user->getBlock() != copy->getBlock() || !copy->isBeforeInBlock(user))
      return false;
    reads.push_back(&use);
    if (lastReader->isBeforeInBlock(user))
      lastReader = user;
  }
  if (reads.empty())
    return false;
  Value sourceRoot = bufferRoot(source);
  for (Operation *x = copy->getNextNode(); x != lastReader;
       x = x->getNextNode())
    for (Value written : writtenBuffers(x))
      if (written == sourceRoot)
        return false;
  for (OpOperand *use : reads)
    rewriter.modifyOpInPlace(use->getOwner(), [&] { use->set(source); });
  rewriter.eraseOp(copy);
  for (Operation *dealloc : deallocs)
    rewriter.eraseOp(dealloc);
  rewriter.eraseOp(alloc);
  return true;
}

namespace {
struct AmpGPUForwardCopiesPass
    : public amp::impl::AmpGPUForwardCopiesPassBase<AmpGPUForwardCopiesPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<Operation *> copies;
    getOperation()->walk([&](Operation *op) {
      if (isa<memref::CopyOp>(op) ||
          (isa<linalg::CopyOp>(op) &&
           cast<linalg::CopyOp>(op).hasPureBufferSemantics()))
        copies.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (Operation *op : copies) {
      Value source, target;
      if (auto memrefCopy = dyn_cast<memref::CopyOp>(op)) {
        source = memrefCopy.getSource();
        target = memrefCopy.getTarget();
      } else {
        auto linalgCopy = cast<linalg::CopyOp>(op);
        source = linalgCopy.getInputs()[0];
        target = linalgCopy.getOutputs()[0];
      }
      if (forward(rewriter, op, source, target))
        ++numForwarded;
    }
  }
};
} // namespace
