//===- CpuLowering.cpp - Lower a tensor-level model for the CPU -----------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The pipeline is built from the upstream passes' C++ constructors, so that
// amp-run does not depend on the global pass registry.
//
//===----------------------------------------------------------------------===//

#include "amp/Runner/CpuLowering.h"

#include "amp/Conversion/Passes.h"
#include "amp/Runner/KernelOutlining.h"
#include "amp/Runner/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Conversion/TosaToLinalg/TosaToLinalg.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Transforms/BufferDeallocationOpInterfaceImpl.h"
#include "mlir/Dialect/Arith/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/FuncBufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/ControlFlow/Transforms/BufferDeallocationOpInterfaceImpl.h"
#include "mlir/Dialect/ControlFlow/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Index/IR/IndexDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/Linalg/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Transforms/AllocationOpInterfaceImpl.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/BufferDeallocationOpInterfaceImpl.h"
#include "mlir/Dialect/SCF/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"

using namespace mlir;

void mlir::amp::runner::buildCpuLoweringToLoops(OpPassManager &pm,
                                                bool parallelLoops) {
  // 1. Everything into linalg.generic, with loops in a cache-friendly order.
  OpPassManager &tosa = pm.nest<func::FuncOp>();
  tosa.addPass(tosa::createTosaToLinalgNamed());
  tosa.addPass(tosa::createTosaToLinalg());
  tosa.addPass(createTosaToTensorPass());
  tosa.addPass(createTosaToArithPass());
  tosa.addPass(createConvertElementwiseToLinalgPass());
  tosa.addPass(createLinalgGeneralizeNamedOpsPass());
  tosa.addPass(amp::createAmpCpuDecodeFP8Pass());
  tosa.addPass(amp::createAmpCpuLoopOrderPass());
  tosa.addPass(amp::createAmpFlattenConstantsPass());

  // 2. Buffers; the caller owns (and frees) what the entry returns.
  bufferization::OneShotBufferizePassOptions bufferize;
  bufferize.bufferizeFunctionBoundaries = true;
  bufferize.functionBoundaryTypeConversion =
      bufferization::LayoutMapOption::IdentityLayoutMap;
  pm.addPass(bufferization::createOneShotBufferizePass(bufferize));
  bufferization::buildBufferDeallocationPipeline(pm);
  pm.addPass(createConvertBufferizationToMemRefPass());

  // 3. Loops (scf.parallel for parallel dimensions if asked: scf-to-cf
  // makes the same loops of them), then control flow.
  if (parallelLoops)
    pm.addNestedPass<func::FuncOp>(createConvertLinalgToParallelLoopsPass());
  else
    pm.addNestedPass<func::FuncOp>(createConvertLinalgToLoopsPass());
}

void mlir::amp::runner::buildCpuLoweringToLLVM(OpPassManager &pm) {
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createSCFToControlFlowPass());

  // 4. FP8 conversions as integer arithmetic; 16-bit floats computed in
  // f32.
  pm.addPass(amp::createAmpExpandFP8Pass());
  pm.addPass(math::createMathExtendToSupportedTypes());
  arith::ArithEmulateUnsupportedFloatsOptions emulate;
  emulate.sourceTypeStrs = {"f16", "bf16"};
  emulate.targetTypeStr = "f32";
  pm.addPass(arith::createArithEmulateUnsupportedFloats(emulate));
  arith::ArithExpandOpsPassOptions expand;
  expand.includeBf16 = true;
  pm.addPass(arith::createArithExpandOpsPass(expand));

  // 5. LLVM.
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createConvertMathToLibmPass());
  pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertControlFlowToLLVMPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(createConvertIndexToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
}

void mlir::amp::runner::buildCpuLoweringPipeline(OpPassManager &pm) {
  buildCpuLoweringToLoops(pm);
  buildCpuLoweringToLLVM(pm);
}

LogicalResult mlir::amp::runner::runCpuLowering(ModuleOp module,
                                                TimingScope &timing) {
  PassManager toLoops(module.getContext());
  buildCpuLoweringToLoops(toLoops);
  toLoops.enableTiming(timing);
  if (failed(toLoops.run(module)))
    return failure();
  SymbolTable symbols(module);
  SmallVector<func::FuncOp> functions(module.getOps<func::FuncOp>());
  SmallVector<OutlinedKernel> kernels;
  for (func::FuncOp function : functions)
    outlineLoopNests(function, symbols, OutlineOptions(), &kernels);
  SmallVector<std::string> names;
  for (OutlinedKernel &kernel : kernels)
    names.push_back(kernel.kernel.getSymName().str());
  PassManager toLLVM(module.getContext());
  buildCpuLoweringToLLVM(toLLVM);
  toLLVM.enableTiming(timing);
  if (failed(toLLVM.run(module)) || failed(verifyLoweredForCpu(module)))
    return failure();
  for (const std::string &name : names)
    if (auto kernel = module.lookupSymbol<LLVM::LLVMFuncOp>(name))
      kernel.setNoInline(true);
  return success();
}

LogicalResult mlir::amp::runner::verifyLoweredForCpu(ModuleOp module) {
  // The casts only surround the op that was not lowered: report that one.
  Operation *leftover = nullptr, *cast = nullptr;
  module.walk([&](Operation *op) {
    if (op == module.getOperation() || isa<LLVM::LLVMDialect>(op->getDialect()))
      return WalkResult::advance();
    if (isa<UnrealizedConversionCastOp>(op)) {
      if (!cast)
        cast = op;
      return WalkResult::advance();
    }
    leftover = op;
    return WalkResult::interrupt();
  });
  if (Operation *op = leftover ? leftover : cast)
    return op->emitError() << "'" << op->getName()
                           << "' is left after the CPU lowering: amp-run "
                              "cannot compile it";
  return success();
}

void mlir::amp::runner::registerCpuLoweringDependencies(
    DialectRegistry &registry) {
  registry
      .insert<affine::AffineDialect, arith::ArithDialect,
              bufferization::BufferizationDialect, cf::ControlFlowDialect,
              func::FuncDialect, index::IndexDialect, LLVM::LLVMDialect,
              linalg::LinalgDialect, math::MathDialect, memref::MemRefDialect,
              scf::SCFDialect, tensor::TensorDialect, tosa::TosaDialect>();

  arith::registerBufferizableOpInterfaceExternalModels(registry);
  arith::registerBufferDeallocationOpInterfaceExternalModels(registry);
  bufferization::func_ext::registerBufferizableOpInterfaceExternalModels(
      registry);
  cf::registerBufferizableOpInterfaceExternalModels(registry);
  cf::registerBufferDeallocationOpInterfaceExternalModels(registry);
  linalg::registerBufferizableOpInterfaceExternalModels(registry);
  memref::registerAllocationOpInterfaceExternalModels(registry);
  scf::registerBufferizableOpInterfaceExternalModels(registry);
  scf::registerBufferDeallocationOpInterfaceExternalModels(registry);
  tensor::registerBufferizableOpInterfaceExternalModels(registry);

  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
}
