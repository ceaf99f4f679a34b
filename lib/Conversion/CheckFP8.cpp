//===- CheckFP8.cpp - FP8 only where the GPU has FP8 Tensor Cores ---------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// --amp-gpu-check-fp8: the GPU pipeline computes FP8 contractions with
// wgmma's e4m3/e5m2 forms, which only sm_90a has (sm_80/86/87 have no FP8
// instructions at all, sm_89 and sm_90 have the cvt forms but no wgmma).
// For any other chip, an FP8 model is an error that names the chip and the
// op, before anything is lowered.
//
//===----------------------------------------------------------------------===//

#include "amp/Conversion/Passes.h"

#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/TypeUtilities.h"

namespace mlir {
namespace amp {
#define GEN_PASS_DEF_AMPGPUCHECKFP8PASS
#include "amp/Conversion/Passes.h.inc"
} // namespace amp
} // namespace mlir

using namespace mlir;
using namespace mlir::amp;

/// The FP8 element type among the operand and result types of `op`, if any.
static Type fp8TypeOf(Operation *op);

/// `type` as the IR writes it (a diagnostic would quote it).
static std::string typeName(Type type) {
  std::string name;
  llvm::raw_string_ostream os(name);
  type.print(os);
  return name;
}

static Type fp8TypeOf(Operation *op) {
  for (TypeRange types :
       {TypeRange(op->getOperandTypes()), TypeRange(op->getResultTypes())})
    for (Type t : types)
      if (Type elt = getElementTypeOrSelf(t);
          isa<Float8E4M3FNType, Float8E5M2Type>(elt))
        return elt;
  return {};
}

/// Whether `op` is a contraction or convolution (what runs on Tensor
/// Cores).
static bool isContraction(Operation *op) {
  if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op))
    return linalg::isaContractionOpInterface(linalgOp) ||
           linalg::isaConvolutionOpInterface(linalgOp);
  return isa<tosa::MatMulOp, tosa::Conv2DOp, tosa::Conv3DOp,
             tosa::DepthwiseConv2DOp, tosa::TransposeConv2DOp>(op);
}

namespace {
struct AmpGPUCheckFP8Pass
    : public amp::impl::AmpGPUCheckFP8PassBase<AmpGPUCheckFP8Pass> {
  using Base::Base;

  void runOnOperation() override {
    if (chip == "sm_90a")
      return;
    bool failedAny = false;
    Operation *firstOther = nullptr;
    getOperation()->walk([&](Operation *op) {
      Type fp8 = fp8TypeOf(op);
      if (!fp8)
        return;
      if (!isContraction(op)) {
        if (!firstOther)
          firstOther = op;
        return;
      }
      op->emitError() << "'" << op->getName() << "' with " << typeName(fp8)
                      << " operands needs FP8 Tensor Cores (wgmma e4m3/e5m2, "
                         "sm_90a); chip "
                      << chip
                      << " has none: compile for chip=sm_90a, or convert "
                         "the model with a 16-bit target type";
      failedAny = true;
    });
    if (!failedAny && firstOther) {
      firstOther->emitError()
          << "'" << firstOther->getName() << "' on "
          << typeName(fp8TypeOf(firstOther))
          << " values: the GPU pipeline supports FP8 on sm_90a only (chip "
          << chip << ")";
      failedAny = true;
    }
    if (failedAny)
      signalPassFailure();
  }
};
} // namespace
