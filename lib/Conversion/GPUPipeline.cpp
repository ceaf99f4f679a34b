//===- GPUPipeline.cpp - The --amp-gpu-pipeline pass pipeline -------------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// From a (mixed-precision) linalg/TOSA module on tensors to host LLVM-dialect
// code with the kernels embedded as gpu.binary:
//
//   1. TOSA -> linalg/tensor/arith (a no-op on pure linalg input);
//   2. 16-bit convolutions -> im2col + matmul;
//   3. elementwise fusion, one-shot bufferization, buffer deallocation;
//   4. 16-bit x 16-bit -> f32 matmuls -> Tensor Core kernels (mma.sync, or
//      wgmma on sm_90a); FP8 matmuls -> wgmma e4m3/e5m2 (sm_90a only:
//      checked first);
//   5. every other linalg op -> parallel loops -> flat 1-D SIMT kernels;
//      independent ones merged into one launch;
//   6. buffers and weights into GPU memory, leftover host code into
//      single-thread kernels;
//   7. kernel outlining, math in kernels expanded (no libdevice), NVVM
//      lowering, serialization (PTX/cubin/fatbin), and the host lowering to
//      the LLVM dialect (mgpu* runtime calls).
//
//===----------------------------------------------------------------------===//

#include "amp/Conversion/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Conversion/TosaToLinalg/TosaToLinalg.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/Transforms/Passes.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"

using namespace mlir;
using namespace mlir::amp;

LogicalResult
mlir::amp::verifyGPUPipelineOptions(const AmpGPUPipelineOptions &options,
                                    std::string &message) {
  llvm::raw_string_ostream os(message);
  StringRef chip = options.chip;
  bool knownChip = llvm::StringSwitch<bool>(chip)
                       .Cases({"sm_80", "sm_86", "sm_87", "sm_89"}, true)
                       .Cases({"sm_90", "sm_90a"}, true)
                       .Default(false);
  if (!knownChip) {
    os << "amp-gpu-pipeline: unsupported chip '" << chip
       << "' (expected sm_80, sm_86, sm_87, sm_89, sm_90 or sm_90a; Tensor "
          "Core mma.sync m16n8k16 needs sm_80 or newer)";
    return failure();
  }
  StringRef format = options.format;
  if (format != "isa" && format != "bin" && format != "fatbin") {
    os << "amp-gpu-pipeline: unsupported format '" << format
       << "' (expected isa, bin or fatbin)";
    return failure();
  }
  if (options.optLevel < 0 || options.optLevel > 3) {
    os << "amp-gpu-pipeline: opt-level must be in [0, 3], got "
       << options.optLevel;
    return failure();
  }
  if (options.blockSize <= 0 || options.blockSize > 1024) {
    os << "amp-gpu-pipeline: block-size must be in [1, 1024], got "
       << options.blockSize;
    return failure();
  }
  std::string tilingProblem;
  if (!MmaSyncTiling{options.mmaSyncKTile, options.mmaSyncStages,
                     options.mmaSyncPrefetch}
           .isValid(
          tilingProblem)) {
    os << "amp-gpu-pipeline: " << tilingProblem;
    return failure();
  }
  StringRef features = options.features;
  if (!features.empty() && !features.starts_with("+ptx")) {
    os << "amp-gpu-pipeline: features must name a PTX version such as "
          "'+ptx80', got '"
       << features << "'";
    return failure();
  }
  if (!options.toolkit.empty() &&
      !llvm::sys::fs::is_directory(options.toolkit.getValue())) {
    os << "amp-gpu-pipeline: toolkit '" << options.toolkit
       << "' is not a directory";
    return failure();
  }
  return success();
}

/// The CUDA toolkit to use: the option, the usual environment variables, or
/// NVIDIA's default location; empty when none is found.
static std::string resolveToolkit(StringRef option) {
  if (!option.empty())
    return option.str();
  for (const char *var : {"CUDA_ROOT", "CUDA_HOME", "CUDA_PATH"})
    if (std::optional<std::string> value = llvm::sys::Process::GetEnv(var))
      if (llvm::sys::fs::is_directory(*value))
        return *value;
  if (llvm::sys::fs::is_directory("/usr/local/cuda"))
    return "/usr/local/cuda";
  return "";
}

/// The toolkit gpu-module-to-binary gets. It needs one for ptxas and
/// fatbinary (format bin, fatbin), never for libdevice: --amp-gpu-expand-math
/// leaves no libdevice call. But given a toolkit, it links libdevice (a no-op
/// then) and reports an error when the toolkit has none; so PTX builds get
/// the toolkit only where libdevice is there, and the PTX is the same with or
/// without one.
static std::string serializationToolkit(const AmpGPUPipelineOptions &options) {
  std::string toolkit = resolveToolkit(options.toolkit);
  if (toolkit.empty() || options.format.getValue() != "isa")
    return toolkit;
  SmallString<256> libdevice(toolkit);
  llvm::sys::path::append(libdevice, "nvvm", "libdevice", "libdevice.10.bc");
  return llvm::sys::fs::is_regular_file(libdevice) ? toolkit : "";
}

namespace {
/// Stands in for the pipeline when its options are invalid: reports the
/// problem as an error at the module.
struct InvalidGPUPipelineOptionsPass
    : public PassWrapper<InvalidGPUPipelineOptionsPass,
                         OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(InvalidGPUPipelineOptionsPass)

  explicit InvalidGPUPipelineOptionsPass(std::string message)
      : message(std::move(message)) {}
  StringRef getArgument() const override {
    return "amp-gpu-pipeline-invalid-options";
  }
  void runOnOperation() override {
    getOperation()->emitError(message);
    signalPassFailure();
  }
  std::string message;
};
} // namespace

void mlir::amp::buildAmpGPUPipeline(OpPassManager &pm,
                                    const AmpGPUPipelineOptions &options) {
  bool wgmma = options.chip.getValue() == "sm_90a";
  std::string features =
      options.features.empty() ? "+ptx80" : options.features.getValue();

  // 0. Calls inlined: fusion and the kernels' epilogues work within a
  // function (a model written as one function per layer, like the corpus's
  // ResNet block, would keep a kernel per function boundary).
  pm.addPass(createInlinerPass());
  pm.addPass(createSymbolDCEPass());
  // FP8 contractions need sm_90a's wgmma: an error for any other chip.
  AmpGPUCheckFP8PassOptions fp8;
  fp8.chip = options.chip;
  pm.addPass(createAmpGPUCheckFP8Pass(fp8));

  // 1. TOSA to linalg.
  // Without TOSA validation: mixed-precision casts (e.g. i64 -> f16) are
  // outside the TOSA profiles but lower fine.
  tosa::addTosaToLinalgPasses(pm, TosaToLinalgOptions(),
                              TosaToLinalgNamedOptions(), std::nullopt);
  pm.addNestedPass<func::FuncOp>(createTosaToTensorPass());
  pm.addNestedPass<func::FuncOp>(createTosaToArithPass());
  pm.addPass(createCanonicalizerPass());

  // 2-3. Convolutions to matmuls, fusion, bufferization.
  pm.addPass(createAmpGPUConvToMatmulPass());
  pm.addNestedPass<func::FuncOp>(createConvertElementwiseToLinalgPass());
  pm.addNestedPass<func::FuncOp>(createAmpGPUFuseElementwisePass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(bufferization::createEmptyTensorEliminationPass());
  pm.addPass(bufferization::createEmptyTensorToAllocTensorPass());
  bufferization::OneShotBufferizePassOptions bufferize;
  bufferize.bufferizeFunctionBoundaries = true;
  bufferize.functionBoundaryTypeConversion =
      bufferization::LayoutMapOption::IdentityLayoutMap;
  pm.addPass(bufferization::createOneShotBufferizePass(bufferize));
  pm.addPass(createCanonicalizerPass());
  bufferization::BufferDeallocationPipelineOptions dealloc;
  bufferization::buildBufferDeallocationPipeline(pm, dealloc);
  // bufferization.clone -> alloc + copy (the copies become GPU copies).
  pm.addPass(createConvertBufferizationToMemRefPass());

  // Copies whose readers can read the source instead.
  pm.addNestedPass<func::FuncOp>(createAmpGPUForwardCopiesPass());

  // 4. Tensor Core kernels (and the tiled FP32 matmul kernel).
  AmpGPUMatmulToMmaPassOptions mma;
  mma.kind = !options.tensorCores ? "none" : wgmma ? "wgmma" : "mma-sync";
  mma.simtF32 = true;
  mma.mmaSyncKTile = options.mmaSyncKTile;
  mma.mmaSyncStages = options.mmaSyncStages;
  mma.mmaSyncPrefetch = options.mmaSyncPrefetch;
  pm.addPass(createAmpGPUMatmulToMmaPass(mma));

  // 5. Row reductions (softmax, norms, pooling) as one kernel each; then
  // everything else: parallel loops -> SIMT kernels.
  pm.addPass(createAmpGPURowReductionsPass());
  // (Launches right away: canonicalization would rebuild the loops without
  // their amp.kernel names.)
  pm.addNestedPass<func::FuncOp>(createAmpGPULinalgToLoopsPass());
  AmpGPUParallelLoopsToLaunchPassOptions loops;
  loops.blockSize = options.blockSize;
  pm.addPass(createAmpGPUParallelLoopsToLaunchPass(loops));
  pm.addPass(createCanonicalizerPass());
  // Independent SIMT and row kernels side by side in one launch.
  pm.addNestedPass<func::FuncOp>(createAmpGPUMergeLaunchesPass());

  // 6. Device memory.
  pm.addPass(createAmpGPUDeviceMemoryPass());
  pm.addPass(createCanonicalizerPass());

  // 7. Outlining and the NVVM lowering (the shape of upstream's
  // gpu-lower-to-nvvm-pipeline, with our target and toolkit).
  // Outline first: the nvgpu lowering must not see host values that feed
  // kernels (they would reach the kernels as half-converted LLVM values).
  pm.addPass(createGpuLaunchSinkIndexComputationsPass());
  pm.addPass(createAmpGPUNameKernelsPass());
  pm.addPass(createGpuKernelOutliningPass());
  // Math in kernels: expanded or mapped to PTX instructions, never libdevice
  // (the PTX is the same with or without a toolkit and links nothing).
  pm.addNestedPass<gpu::GPUModuleOp>(createAmpGPUExpandMathPass());
  // FP8 conversions in kernels: PTX cvt (sm_90a here: checked above).
  pm.addNestedPass<gpu::GPUModuleOp>(createAmpGPULowerFP8Pass());
  // One stream per host function: launches, allocations and copies are
  // queued on it and waited for before returning.
  pm.addNestedPass<func::FuncOp>(createGpuAsyncRegionPass());
  // ...except around amp's host-only runtime calls (TMA descriptors, weight
  // uploads), where gpu-async-region would synchronize and restart it.
  pm.addNestedPass<func::FuncOp>(createAmpGPUElideHostSyncsPass());
  pm.addPass(createConvertNVGPUToNVVMPass());
  pm.addPass(createConvertVectorToSCFPass());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(createConvertNVVMToLLVMPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  GpuNVVMAttachTargetOptions target;
  target.chip = options.chip;
  target.features = features;
  target.optLevel = options.optLevel;
  pm.addPass(createGpuNVVMAttachTarget(target));
  pm.addPass(createLowerAffinePass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertIndexToLLVMPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());

  pm.addNestedPass<gpu::GPUModuleOp>(createStripDebugInfoPass());
  // n-D vector ops (fragments) need the full vector lowering first.
  pm.addNestedPass<gpu::GPUModuleOp>(createConvertVectorToLLVMPass());
  pm.addNestedPass<gpu::GPUModuleOp>(createConvertGpuOpsToNVVMOps());
  pm.addNestedPass<gpu::GPUModuleOp>(createAmpGPUExternDynamicSharedPass());
  pm.addNestedPass<gpu::GPUModuleOp>(LLVM::createNVVMOptimizeForTargetPass());
  pm.addNestedPass<gpu::GPUModuleOp>(createCanonicalizerPass());
  pm.addNestedPass<gpu::GPUModuleOp>(createCSEPass());
  pm.addNestedPass<gpu::GPUModuleOp>(createReconcileUnrealizedCastsPass());

  pm.addPass(createGpuToLLVMConversionPass());
  GpuModuleToBinaryPassOptions binary;
  binary.compilationTarget = options.format;
  binary.toolkitPath = serializationToolkit(options);
  pm.addPass(createGpuModuleToBinaryPass(binary));
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
}

void mlir::amp::registerAmpGPUPipeline() {
  PassPipelineRegistration<AmpGPUPipelineOptions>(
      "amp-gpu-pipeline",
      "Lower a (mixed-precision) linalg/TOSA module to host LLVM-dialect code "
      "with embedded NVIDIA GPU binaries: Tensor Core kernels (mma.sync, or "
      "wgmma on sm_90a) for f16/bf16 matmuls and convolutions, SIMT kernels "
      "for everything else",
      [](OpPassManager &pm, const AmpGPUPipelineOptions &options) {
        std::string message;
        if (failed(verifyGPUPipelineOptions(options, message))) {
          pm.addPass(std::make_unique<InvalidGPUPipelineOptionsPass>(message));
          return;
        }
        buildAmpGPUPipeline(pm, options);
      });
}
