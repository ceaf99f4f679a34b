//===- KernelNames.cpp - Kernels named for what they compute --------------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A profile of a model is only useful when its kernels say which layer they
// are. Every kernel the pipeline builds carries `amp.kernel` (what it
// computes: "conv2d_mma_sync_bias_relu", "softmax", "add_relu"), set where
// it is made: the matmul kernels from the matmul (or the convolution it
// came from) and its fused epilogue, the row kernels from their members,
// the SIMT kernels by --amp-gpu-linalg-to-loops from the linalg op they
// come from. --amp-gpu-name-kernels then gives every gpu.launch the
// function and module name `<function>_<n>_<what>` (n counts the kernels
// of the function in order), which kernel outlining uses: the PTX, Nsight
// and `amp-emulate --trace/--profile` show it.
//
//===----------------------------------------------------------------------===//

#include "amp/Conversion/Passes.h"

#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/SetVector.h"

namespace mlir {
namespace amp {
#define GEN_PASS_DEF_AMPGPULINALGTOLOOPSPASS
#define GEN_PASS_DEF_AMPGPUNAMEKERNELSPASS
#include "amp/Conversion/Passes.h.inc"
} // namespace amp
} // namespace mlir

using namespace mlir;
using namespace mlir::amp;

//===----------------------------------------------------------------------===//
// Describing computations
//===----------------------------------------------------------------------===//

/// Whether `v` is a float constant equal to `x`.
static bool isConstantFloat(Value v, double x) {
  APFloat value(0.0);
  if (!matchPattern(v, m_ConstantFloat(&value)))
    return false;
  bool lost;
  value.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven, &lost);
  return value.convertToDouble() == x;
}

std::string mlir::amp::describePayload(linalg::LinalgOp op) {
  if (op.getNumReductionLoops() > 0)
    return "reduce";
  Block *body = op.getBlock();
  llvm::SetVector<StringRef> words;
  bool exp = false, div = false, mul = false;
  // An input read with fewer loops than the op has is broadcast (a bias, a
  // batch-norm scale), else it is a full operand (a residual).
  auto isBroadcastArg = [&](Value v) {
    auto arg = dyn_cast<BlockArgument>(v);
    if (!arg || arg.getOwner() != body ||
        arg.getArgNumber() >= op.getNumDpsInputs())
      return false;
    AffineMap map =
        op.getMatchingIndexingMap(op.getDpsInputOperand(arg.getArgNumber()));
    return map.getNumResults() < op.getNumLoops();
  };
  for (Operation &inner : body->without_terminator()) {
    if (isa<arith::AddFOp, arith::SubFOp>(inner)) {
      bool bias = llvm::any_of(inner.getOperands(), isBroadcastArg);
      words.insert(bias ? "bias" : isa<arith::AddFOp>(inner) ? "add" : "sub");
    } else if (isa<arith::MulFOp>(inner)) {
      bool scale = llvm::any_of(inner.getOperands(), isBroadcastArg);
      if (scale)
        words.insert("scale");
      mul = true;
    } else if (isa<arith::DivFOp>(inner)) {
      div = true;
    } else if (auto max = dyn_cast<arith::MaximumFOp>(inner)) {
      if (isConstantFloat(max.getRhs(), 0) || isConstantFloat(max.getLhs(), 0))
        words.insert("relu");
      else
        words.insert("max");
    } else if (auto min = dyn_cast<arith::MinimumFOp>(inner)) {
      words.insert(isConstantFloat(min.getRhs(), 6) ||
                           isConstantFloat(min.getLhs(), 6)
                       ? "relu6"
                       : "clamp");
    } else if (isa<math::ExpOp>(inner)) {
      exp = true;
    } else if (isa<math::TanhOp>(inner)) {
      words.insert("tanh");
    } else if (isa<math::ErfOp>(inner)) {
      words.insert("gelu");
    } else if (isa<math::RsqrtOp, math::SqrtOp>(inner)) {
      words.insert("rsqrt");
    } else if (isa<math::PowFOp>(inner)) {
      words.insert("pow");
    } else if (isa<arith::SelectOp>(inner)) {
      words.insert("select");
    }
  }
  if (exp && div)
    words.insert(mul ? "silu" : "sigmoid");
  else if (exp)
    words.insert("exp");
  else if (div)
    words.insert("div");
  // relu6 is a clamp of a relu.
  if (words.contains("relu6"))
    words.remove("relu");
  if (words.empty()) {
    bool casts = llvm::any_of(body->without_terminator(), [](Operation &o) {
      return isa<arith::TruncFOp, arith::ExtFOp, arith::SIToFPOp,
                 arith::FPToSIOp, arith::UIToFPOp, arith::FPToUIOp>(o);
    });
    bool permuted = llvm::any_of(op.getIndexingMapsArray(), [&](AffineMap m) {
      return !m.isMinorIdentity() && !m.isIdentity() &&
             m.getNumResults() == op.getNumLoops();
    });
    if (casts)
      words.insert("cast");
    words.insert(permuted ? "transpose" : casts ? "" : "copy");
    words.remove("");
  }
  std::string name;
  unsigned count = 0;
  for (StringRef w : words) {
    if (count++ == 4)
      break;
    if (!name.empty())
      name += "_";
    name += w;
  }
  return name;
}

std::string mlir::amp::describeLinalgOp(linalg::LinalgOp op) {
  if (auto name = op->getAttrOfType<StringAttr>(kKernelNameAttrName))
    return name.getValue().str();
  if (isa<linalg::GenericOp>(op.getOperation()))
    return describePayload(op);
  // A named op: its name without the dialect.
  return op->getName().stripDialect().str();
}

//===----------------------------------------------------------------------===//
// --amp-gpu-linalg-to-loops
//===----------------------------------------------------------------------===//

namespace {
struct AmpGPULinalgToLoopsPass
    : public amp::impl::AmpGPULinalgToLoopsPassBase<AmpGPULinalgToLoopsPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<linalg::LinalgOp> ops;
    getOperation()->walk([&](linalg::LinalgOp op) {
      if (op.hasPureBufferSemantics() &&
          !op->getParentOfType<gpu::LaunchOp>())
        ops.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (linalg::LinalgOp op : ops) {
      std::string what = describeLinalgOp(op);
      rewriter.setInsertionPoint(op);
      FailureOr<linalg::LinalgLoops> loops =
          linalg::linalgOpToParallelLoops(rewriter, op);
      if (failed(loops)) {
        op->emitError("amp-gpu-linalg-to-loops: cannot lower this op to "
                      "loops");
        return signalPassFailure();
      }
      if (!loops->empty() && !what.empty())
        if (auto outer = dyn_cast<scf::ParallelOp>(loops->front()))
          outer->setAttr(kKernelNameAttrName, rewriter.getStringAttr(what));
      rewriter.eraseOp(op);
    }
  }
};
} // namespace

//===----------------------------------------------------------------------===//
// --amp-gpu-name-kernels
//===----------------------------------------------------------------------===//

namespace {
struct AmpGPUNameKernelsPass
    : public amp::impl::AmpGPUNameKernelsPassBase<AmpGPUNameKernelsPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    llvm::StringSet<> used;
    for (Operation &op : *module.getBody())
      if (auto sym = dyn_cast<SymbolOpInterface>(op))
        used.insert(sym.getName());
    MLIRContext *ctx = &getContext();
    module.walk([&](FunctionOpInterface fn) {
      unsigned index = 0;
      fn.walk([&](gpu::LaunchOp launch) {
        std::string what = "kernel";
        if (auto attr = launch->getAttrOfType<StringAttr>(kKernelNameAttrName))
          what = attr.getValue().str();
        std::string name = (fn.getName() + "_" + Twine(index++) + "_" + what)
                               .str();
        // Unique among the module's symbols (kernel modules included).
        std::string unique = name;
        for (unsigned n = 1; used.contains(unique); ++n)
          unique = name + "_" + std::to_string(n);
        used.insert(unique);
        auto sym = FlatSymbolRefAttr::get(ctx, unique);
        launch.setFunctionAttr(sym);
        launch.setModuleAttr(sym);
        launch->removeAttr(kKernelNameAttrName);
      });
    });
  }
};
} // namespace
