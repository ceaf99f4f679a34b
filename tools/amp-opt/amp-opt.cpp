//===- amp-opt.cpp - The amp optimizer driver -----------------------------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// An mlir-opt for amp: the dialects amp reads and produces, amp's passes, and
// the upstream passes they are combined with (canonicalization, TOSA to
// linalg, bufferization, the GPU/NVVM lowering).
//
//===----------------------------------------------------------------------===//

#include "amp/InitAmp.h"
#include "amp/Runner/Passes.h"

#include "AmpTestDialect.h"
#include "TestPasses.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Func/Transforms/Passes.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/LLVMIR/Transforms/Passes.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Passes.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Transforms/Passes.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/Dialect/Tosa/Transforms/Passes.h"
#include "mlir/Dialect/Transform/IR/TransformDialect.h"
#include "mlir/Dialect/Transform/Transforms/Passes.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  registry.insert<
      mlir::affine::AffineDialect, mlir::arith::ArithDialect,
      mlir::bufferization::BufferizationDialect, mlir::cf::ControlFlowDialect,
      mlir::func::FuncDialect, mlir::gpu::GPUDialect,
      mlir::linalg::LinalgDialect, mlir::LLVM::LLVMDialect,
      mlir::math::MathDialect, mlir::memref::MemRefDialect,
      mlir::NVVM::NVVMDialect, mlir::nvgpu::NVGPUDialect, mlir::scf::SCFDialect,
      mlir::tensor::TensorDialect, mlir::tosa::TosaDialect,
      mlir::transform::TransformDialect, mlir::vector::VectorDialect>();
  mlir::amp::registerAmpDialects(registry);
  mlir::amp::registerAmpGPUDependencies(registry);
  mlir::amp::test::registerAmpTestDialect(registry);

  // amp's passes and the upstream ones they are combined with.
  mlir::amp::registerAmpPasses();
  mlir::amp::test::registerTestPrecisionPatternsPass();
  // amp-run's CPU lowering pass, for its tests.
  mlir::amp::registerAmpRunnerPasses();
  mlir::registerTransformsPasses();
  mlir::registerConversionPasses();
  mlir::registerLinalgPasses();
  mlir::tosa::registerTosaPasses();
  mlir::bufferization::registerBufferizationPasses();
  // The CPU reference lowering of amp-compile (--target cpu).
  mlir::bufferization::registerBufferizationPipelines();
  mlir::LLVM::registerLLVMRequestCWrappersPass();
  mlir::arith::registerArithPasses();
  mlir::func::registerFuncPasses();
  mlir::memref::registerMemRefPasses();
  mlir::registerSCFPasses();
  mlir::tensor::registerTensorPasses();
  mlir::registerGPUPasses();
  mlir::transform::registerTransformPasses();

  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "amp: automatic mixed precision for MLIR\n", registry));
}
