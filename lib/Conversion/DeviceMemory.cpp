//===- DeviceMemory.cpp - Keep a bufferized model in GPU memory -----------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// After the compute of a bufferized model has been mapped to gpu.launch ops,
// its host code still allocates with memref.alloc, reads weights from host
// globals and may copy or loop over buffers. This pass moves all of that to
// the GPU: heap buffers become gpu.alloc, weights are uploaded once through
// the runtime (ampDeviceConstant_<type>, cached per global), buffer copies
// become gpu.memcpy or copy kernels, and any other host op that reads or
// writes a device buffer runs in a single-thread kernel.
//
// Stack buffers (memref.alloca) are host buffers, and so are the ownership
// bookkeeping arrays of buffer deallocation (and its dealloc_helper).
//
//===----------------------------------------------------------------------===//

#include "amp/Conversion/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace mlir {
namespace amp {
#define GEN_PASS_DEF_AMPGPUDEVICEMEMORYPASS
#include "amp/Conversion/Passes.h.inc"
} // namespace amp
} // namespace mlir

using namespace mlir;
using namespace mlir::amp;

/// The buffer a memref value is a view of.
static Value rootBuffer(Value v) {
  while (Operation *def = v.getDefiningOp()) {
    if (auto view = dyn_cast<ViewLikeOpInterface>(def)) {
      v = view.getViewSource();
      continue;
    }
    if (auto cast = dyn_cast<memref::CastOp>(def)) {
      v = cast.getSource();
      continue;
    }
    break;
  }
  return v;
}

/// Whether every use of `v` (through views) is a host access or a call to
/// the deallocation helper: the ownership bookkeeping of buffer
/// deallocation.
static bool onlyBookkeepingUses(Value v) {
  for (Operation *user : v.getUsers()) {
    if (user->getParentOfType<gpu::LaunchOp>())
      return false;
    if (isa<memref::LoadOp, memref::StoreOp, memref::DeallocOp, memref::DimOp,
            memref::ExtractAlignedPointerAsIndexOp>(user))
      continue;
    if (auto call = dyn_cast<func::CallOp>(user))
      if (call.getCallee().starts_with("dealloc_helper"))
        continue;
    if (isa<ViewLikeOpInterface, memref::CastOp>(user) &&
        user->getNumResults() == 1 && onlyBookkeepingUses(user->getResult(0)))
      continue;
    return false;
  }
  return true;
}

/// Whether `v` (a memref) lives on the host: a stack buffer, or one of the
/// i1/index arrays that buffer deallocation keeps its bookkeeping in.
static bool isHostBuffer(Value v) {
  Value root = rootBuffer(v);
  Operation *def = root.getDefiningOp();
  if (isa_and_nonnull<memref::AllocaOp>(def))
    return true;
  if (!isa_and_nonnull<memref::AllocOp>(def))
    return false;
  Type elt = cast<MemRefType>(root.getType()).getElementType();
  return (elt.isInteger(1) || elt.isIndex()) && onlyBookkeepingUses(root);
}

/// Whether `op` or an op nested in it reads or writes a device buffer.
static bool touchesDeviceMemory(Operation *op) {
  WalkResult result = op->walk([&](Operation *nested) {
    if (isa<gpu::LaunchOp>(nested))
      return WalkResult::skip();
    auto iface = dyn_cast<MemoryEffectOpInterface>(nested);
    if (!iface)
      return WalkResult::advance();
    SmallVector<MemoryEffects::EffectInstance> effects;
    iface.getEffects(effects);
    for (const MemoryEffects::EffectInstance &effect : effects) {
      if (!isa<MemoryEffects::Read, MemoryEffects::Write>(effect.getEffect()))
        continue;
      Value v = effect.getValue();
      if (v && isa<BaseMemRefType>(v.getType()) && !isHostBuffer(v))
        return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return result.wasInterrupted();
}

static bool containsLaunch(Operation *op) {
  return op->walk([](gpu::LaunchOp) { return WalkResult::interrupt(); })
      .wasInterrupted();
}

/// Moves the ops `ops` (consecutive in one block, in order, none of whose
/// results is used after the last) into a new single-thread gpu.launch in
/// their place; returns it.
static gpu::LaunchOp wrapInSingleThreadKernel(RewriterBase &rewriter,
                                              ArrayRef<Operation *> ops) {
  Location loc = ops.front()->getLoc();
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(ops.front());
  Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
  auto launch =
      gpu::LaunchOp::create(rewriter, loc, one, one, one, one, one, one);
  launch->setAttr(kKernelNameAttrName, rewriter.getStringAttr("host_code"));
  rewriter.setInsertionPointToStart(&launch.getBody().front());
  auto term = gpu::TerminatorOp::create(rewriter, loc);
  for (Operation *op : ops)
    rewriter.moveOpBefore(op, term);
  return launch;
}

static gpu::LaunchOp wrapInSingleThreadKernel(RewriterBase &rewriter,
                                              Operation *op) {
  return wrapInSingleThreadKernel(rewriter, ArrayRef<Operation *>{op});
}

/// Whether `op` may run inside a single-thread kernel: device code that
/// neither manages buffers nor calls the host.
static bool canRunOnDevice(Operation *op) {
  if (op->hasTrait<OpTrait::IsTerminator>() || containsLaunch(op))
    return false;
  if (isa<memref::AllocOp, memref::AllocaOp, memref::DeallocOp,
          memref::GetGlobalOp, func::CallOp>(op))
    return false;
  return !isa<gpu::GPUDialect>(op->getDialect());
}

/// Whether `op` can move above ops it does not depend on: it reads and
/// writes no memory (allocating is fine) and has no regions.
static bool canHoist(Operation *op) {
  if (op->getNumRegions() != 0 || op->hasTrait<OpTrait::IsTerminator>())
    return false;
  if (isPure(op))
    return true;
  auto iface = dyn_cast<MemoryEffectOpInterface>(op);
  if (!iface)
    return false;
  SmallVector<MemoryEffects::EffectInstance> effects;
  iface.getEffects(effects);
  return llvm::all_of(effects, [](const MemoryEffects::EffectInstance &e) {
    return isa<MemoryEffects::Allocate>(e.getEffect());
  });
}

/// The host code that computes with a value read from device memory by
/// `start`: `start` and the ops after it, up to the point where none of
/// their results is used any more. After canonicalization folds the loops
/// of a 1-element (or rank-0) op away, that is its whole body: the load,
/// the arithmetic, the store. Ops in between that do not depend on it and
/// touch no memory (constants, allocations) move above `start`. Fails when
/// a value escapes to code that must stay on the host (a terminator, a
/// buffer allocation, a call).
static FailureOr<SmallVector<Operation *>>
collectDeviceComputation(RewriterBase &rewriter, Operation *start) {
  SmallVector<Operation *> group{start};
  SmallPtrSet<Operation *, 8> members{start};
  Block *block = start->getBlock();
  auto escapes = [&]() {
    for (Operation *op : group)
      for (Value result : op->getResults())
        for (Operation *user : result.getUsers()) {
          Operation *ancestor = block->findAncestorOpInBlock(*user);
          if (!ancestor || !members.contains(ancestor))
            return true;
        }
    return false;
  };
  Operation *next = start->getNextNode();
  while (escapes()) {
    if (!next)
      return failure();
    Operation *op = next;
    next = op->getNextNode();
    bool dependsOnGroup = llvm::any_of(op->getOperands(), [&](Value v) {
      Operation *def = v.getDefiningOp();
      return def && members.contains(def);
    });
    if (!dependsOnGroup && canHoist(op)) {
      rewriter.moveOpBefore(op, start);
      continue;
    }
    if (!canRunOnDevice(op))
      return failure();
    group.push_back(op);
    members.insert(op);
  }
  return group;
}

/// Replaces a memref.copy by a device-to-device gpu.memcpy when both sides
/// are contiguous, else by a parallel copy kernel.
static void convertCopy(RewriterBase &rewriter, memref::CopyOp copy,
                        int64_t blockSize) {
  Location loc = copy.getLoc();
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(copy);
  auto srcType = cast<MemRefType>(copy.getSource().getType());
  auto dstType = cast<MemRefType>(copy.getTarget().getType());
  if (srcType.getLayout().isIdentity() && dstType.getLayout().isIdentity() &&
      srcType == dstType) {
    gpu::MemcpyOp::create(rewriter, loc, TypeRange{}, ValueRange{},
                          copy.getTarget(), copy.getSource());
    rewriter.eraseOp(copy);
    return;
  }
  SmallVector<Value> lbs, ubs, steps;
  Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
  Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
  for (int64_t d = 0; d < srcType.getRank(); ++d) {
    lbs.push_back(zero);
    ubs.push_back(
        rewriter.createOrFold<memref::DimOp>(loc, copy.getSource(), d));
    steps.push_back(one);
  }
  if (srcType.getRank() == 0) {
    Value v = memref::LoadOp::create(rewriter, loc, copy.getSource());
    auto store = memref::StoreOp::create(rewriter, loc, v, copy.getTarget());
    rewriter.eraseOp(copy);
    wrapInSingleThreadKernel(rewriter, v.getDefiningOp());
    rewriter.moveOpAfter(store, v.getDefiningOp());
    return;
  }
  auto loop = scf::ParallelOp::create(
      rewriter, loc, lbs, ubs, steps,
      [&](OpBuilder &b, Location l, ValueRange ivs) {
        Value v = memref::LoadOp::create(b, l, copy.getSource(), ivs);
        memref::StoreOp::create(b, l, v, copy.getTarget(), ivs);
      });
  loop->setAttr(kKernelNameAttrName, rewriter.getStringAttr("copy"));
  rewriter.eraseOp(copy);
  (void)convertParallelLoopToLaunch(rewriter, loop, blockSize);
}

/// The runtime function that returns the device copy of a constant of
/// element type `elt`: `ampDeviceConstant_<elt>(memref<*xelt>) ->
/// memref<*xelt>`.
static FailureOr<func::FuncOp> getDeviceConstantFn(ModuleOp module, Type elt) {
  std::string suffix;
  llvm::raw_string_ostream os(suffix);
  elt.print(os);
  static const char *const kSupported[] = {"f16", "bf16", "f8E4M3FN", "f8E5M2",
                                           "f32", "f64",  "i1",       "i8",
                                           "i16", "i32",  "i64",      "index"};
  if (!llvm::is_contained(kSupported, suffix))
    return failure();
  std::string name = "ampDeviceConstant_" + suffix;
  if (auto fn = module.lookupSymbol<func::FuncOp>(name))
    return fn;
  OpBuilder b(module.getBodyRegion());
  b.setInsertionPointToStart(module.getBody());
  auto unranked = UnrankedMemRefType::get(elt, Attribute());
  auto fn = func::FuncOp::create(b, module.getLoc(), name,
                                 b.getFunctionType({unranked}, {unranked}));
  fn.setPrivate();
  // It reads the host global only (and waits for its own upload): no stream
  // synchronization is needed before it.
  fn->setAttr(kHostOnlyAttrName, b.getUnitAttr());
  return fn;
}

/// Moves the runtime calls of `fn` (ampDeviceConstant_*, ampTensorMap2D_*)
/// and the pure ops feeding them as early in their block as their operands
/// allow. Host calls end the asynchronous GPU regions that gpu-async-region
/// builds; hoisted to the top, they leave the kernels on one stream.
static void hoistRuntimeCalls(func::FuncOp fn) {
  SmallVector<func::CallOp> calls;
  fn.walk([&](func::CallOp call) {
    if (call.getCallee().starts_with("amp") &&
        !call->getParentOfType<gpu::LaunchOp>())
      calls.push_back(call);
  });
  for (func::CallOp call : calls) {
    Block *block = call->getBlock();
    // The pure ops of the same block that the call needs, in order.
    SetVector<Operation *> slice;
    std::function<bool(Operation *)> collect = [&](Operation *op) {
      for (Value operand : op->getOperands()) {
        Operation *def = operand.getDefiningOp();
        if (!def || def->getBlock() != block || slice.contains(def))
          continue;
        if (!isPure(def) || def->getNumRegions() != 0)
          return false;
        if (!collect(def))
          return false;
        slice.insert(def);
      }
      return true;
    };
    if (!collect(call))
      continue;
    // The earliest point after every definition the slice depends on.
    Operation *after = nullptr;
    auto consider = [&](Value v) {
      Operation *def = v.getDefiningOp();
      if (!def || def->getBlock() != block || slice.contains(def))
        return;
      if (!after || after->isBeforeInBlock(def))
        after = def;
    };
    for (Operation *op : slice)
      llvm::for_each(op->getOperands(), consider);
    llvm::for_each(call->getOperands(), consider);
    // Place the slice (in dependence order) and the call right there.
    Operation *prev = after;
    auto place = [&](Operation *op) {
      if (prev)
        op->moveAfter(prev);
      else
        op->moveBefore(&block->front());
      prev = op;
    };
    for (Operation *op : slice)
      place(op);
    place(call);
  }
}

namespace {
struct AmpGPUDeviceMemoryPass
    : public amp::impl::AmpGPUDeviceMemoryPassBase<AmpGPUDeviceMemoryPass> {
  using Base::Base;

  void runOnOperation() override;

private:
  LogicalResult runOnBlock(RewriterBase &rewriter, Block &block);
};
} // namespace

LogicalResult AmpGPUDeviceMemoryPass::runOnBlock(RewriterBase &rewriter,
                                                 Block &block) {
  // Ops after the current one may move (into a kernel, or above it): the
  // next op is taken once the current one is done.
  Operation *op = block.empty() ? nullptr : &block.front();
  while (op) {
    Operation *next = op->getNextNode();
    if (auto copy = dyn_cast<memref::CopyOp>(op)) {
      // What replaces the copy goes in its place.
      if (!isHostBuffer(copy.getSource()) || !isHostBuffer(copy.getTarget())) {
        convertCopy(rewriter, copy, /*blockSize=*/256);
        ++numWrapped;
      }
      op = next;
      continue;
    }
    // Kernels and the runtime's own operations on device buffers (fills,
    // copies) stay host calls.
    if (isa<gpu::LaunchOp, gpu::MemsetOp, gpu::MemcpyOp>(op) ||
        !touchesDeviceMemory(op)) {
      op = next;
      continue;
    }
    if (containsLaunch(op)) {
      for (Region &region : op->getRegions())
        for (Block &nested : region)
          if (failed(runOnBlock(rewriter, nested)))
            return failure();
      op = next;
      continue;
    }
    // The op and the host code that computes with what it reads (the
    // whole body of a 1-element op whose loops were folded away) run in a
    // single-thread kernel.
    FailureOr<SmallVector<Operation *>> group =
        op->hasTrait<OpTrait::IsTerminator>()
            ? FailureOr<SmallVector<Operation *>>(failure())
            : collectDeviceComputation(rewriter, op);
    if (failed(group)) {
      return op->emitError()
             << "amp-gpu-device-memory: this op reads GPU memory and its "
                "result is used on the host; only whole-buffer code can run "
                "on the GPU";
    }
    op = wrapInSingleThreadKernel(rewriter, *group)->getNextNode();
    ++numWrapped;
  }
  return success();
}

void AmpGPUDeviceMemoryPass::runOnOperation() {
  ModuleOp module = getOperation();
  IRRewriter rewriter(&getContext());
  SmallVector<func::FuncOp> funcs(module.getOps<func::FuncOp>());
  for (func::FuncOp fn : funcs) {
    // The helper of bufferization-lower-deallocations works on host
    // bookkeeping buffers only.
    if (fn.isExternal() || fn.getName().starts_with("dealloc_helper"))
      continue;

    // Public functions are the entry points of the compiled model: give them
    // the C interface (pointers to memref descriptors) harnesses call.
    if (fn.isPublic())
      fn->setAttr("llvm.emit_c_interface", UnitAttr::get(&getContext()));

    // Host code that touches device buffers runs on the GPU.
    for (Block &block : fn.getBody())
      if (failed(runOnBlock(rewriter, block)))
        return signalPassFailure();

    // Heap buffers live on the GPU.
    fn.walk([&](memref::AllocOp alloc) {
      if (isHostBuffer(alloc.getResult()))
        return;
      rewriter.setInsertionPoint(alloc);
      auto gpuAlloc = gpu::AllocOp::create(
          rewriter, alloc.getLoc(), alloc.getType(), /*asyncToken=*/Type(),
          /*asyncDependencies=*/ValueRange{}, alloc.getDynamicSizes(),
          alloc.getSymbolOperands(), /*hostShared=*/false);
      rewriter.replaceOp(alloc, gpuAlloc.getMemref());
      ++numAllocs;
    });
    fn.walk([&](memref::DeallocOp dealloc) {
      if (isHostBuffer(dealloc.getMemref()))
        return;
      rewriter.setInsertionPoint(dealloc);
      gpu::DeallocOp::create(rewriter, dealloc.getLoc(), TypeRange{},
                             ValueRange{}, dealloc.getMemref());
      rewriter.eraseOp(dealloc);
    });

    // Weights: a device copy, uploaded once by the runtime.
    WalkResult result = fn.walk([&](memref::GetGlobalOp get) {
      if (get->getParentOfType<gpu::LaunchOp>())
        return WalkResult::advance();
      auto type = cast<MemRefType>(get.getType());
      FailureOr<func::FuncOp> upload =
          getDeviceConstantFn(module, type.getElementType());
      if (failed(upload)) {
        get.emitError() << "amp-gpu-device-memory: no device upload for "
                           "globals of element type "
                        << type.getElementType();
        return WalkResult::interrupt();
      }
      auto global = SymbolTable::lookupNearestSymbolFrom<memref::GlobalOp>(
          get, get.getNameAttr());
      if (global && !global.getConstant())
        get.emitWarning() << "amp-gpu-device-memory: the mutable global "
                          << get.getName()
                          << " is copied to the GPU once; host writes after "
                             "the first call are not seen";
      Location loc = get.getLoc();
      rewriter.setInsertionPointAfter(get);
      Value unranked = memref::CastOp::create(
          rewriter, loc, (*upload).getFunctionType().getInput(0),
          get.getResult());
      auto call =
          func::CallOp::create(rewriter, loc, *upload, ValueRange{unranked});
      Value ranked =
          memref::CastOp::create(rewriter, loc, type, call.getResult(0));
      rewriter.replaceAllUsesExcept(get.getResult(), ranked,
                                    unranked.getDefiningOp());
      ++numGlobals;
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      return signalPassFailure();
    hoistRuntimeCalls(fn);
  }
}
