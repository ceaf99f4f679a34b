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
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"

/// Runs amp-opt from `input` to `output`. MLIR reads a large input file
/// through a memory mapping, and opening the output truncates it: with both
/// naming one file (`amp-opt m.mlir --pass -o m.mlir`), the parser would
/// read a truncated mapping (SIGBUS above ~16 KiB). Such an output is
/// written next to the file and renamed over it once amp-opt succeeded.
static mlir::LogicalResult runInPlaceSafe(int argc, char **argv,
                                          const std::string &input,
                                          const std::string &output,
                                          mlir::DialectRegistry &registry) {
  bool sameFile = input != "-" && output != "-" &&
                  llvm::sys::fs::exists(output) &&
                  llvm::sys::fs::equivalent(input, output);
  if (!sameFile)
    return mlir::MlirOptMain(argc, argv, input, output, registry);
  llvm::SmallString<256> model(output);
  llvm::sys::path::remove_filename(model);
  llvm::sys::path::append(model,
                          llvm::sys::path::filename(output) + ".amp-opt-%%%%%%");
  llvm::SmallString<256> temp;
  int fd;
  if (std::error_code ec =
          llvm::sys::fs::createUniqueFile(model, fd, temp)) {
    llvm::errs() << "amp-opt: cannot create a file next to '" << output
                 << "' to write it in place: " << ec.message() << "\n";
    return mlir::failure();
  }
  llvm::sys::Process::SafelyCloseFileDescriptor(fd);
  mlir::LogicalResult result =
      mlir::MlirOptMain(argc, argv, input, temp, registry);
  if (mlir::succeeded(result)) {
    if (std::error_code ec = llvm::sys::fs::rename(temp, output)) {
      llvm::errs() << "amp-opt: cannot replace '" << output
                   << "': " << ec.message() << "\n";
      result = mlir::failure();
    }
  }
  if (mlir::failed(result))
    llvm::sys::fs::remove(temp);
  return result;
}

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

  auto [input, output] = mlir::registerAndParseCLIOptions(
      argc, argv, "amp: automatic mixed precision for MLIR\n", registry);
  return mlir::asMainReturnCode(
      runInPlaceSafe(argc, argv, input, output, registry));
}
