//===- Passes.h - amp GPU lowering passes and pipeline ----------*- C++ -*-===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The passes of the GPU lowering (declared in Passes.td), the reusable
// rewrites behind them, and `--amp-gpu-pipeline`.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_CONVERSION_PASSES_H
#define AMP_CONVERSION_PASSES_H

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassOptions.h"

namespace mlir {
class RewriterBase;

namespace amp {

/// The Tensor Core instruction family a matmul kernel is built with.
enum class MmaKind { MmaSync, Wgmma };

/// The K tiling of the mma.sync kernel (128x256 block tiles, 16 warps):
/// `blockK` columns of A (rows of B) per shared-memory stage, 32 or 64, and
/// `stages` such stages in flight (2 or more; at most what fits in 227 KiB).
/// With `prefetchFragments`, each warp loads the fragments of the next k16
/// step into registers before the current step's mma.sync, across K tiles
/// too (the barrier then precedes a tile's last step, not its first).
struct MmaSyncTiling {
  int64_t blockK = 64;
  int64_t stages = 4;
  bool prefetchFragments = true;
  /// Bytes of dynamic shared memory the kernel needs.
  int64_t sharedBytes() const;
  /// Whether the kernel can be built with this tiling; otherwise `message`
  /// says why.
  bool isValid(std::string &message) const;
};

#define GEN_PASS_DECL
#include "amp/Conversion/Passes.h.inc"

//===----------------------------------------------------------------------===//
// Reusable rewrites
//===----------------------------------------------------------------------===//

/// Whether `op` (a linalg.matmul or linalg.batch_matmul on memrefs) can be
/// replaced by a Tensor Core kernel: default indexing maps, A and B of the
/// same 16-bit float type (f16 or bf16), C of f32; or an FP8 contraction
/// (isFP8Matmul).
bool isTensorCoreMatmul(linalg::LinalgOp op);

/// Whether `op` is a contraction of FP8 mixed precision on memrefs
/// (docs/fp8.md): a linalg.matmul with maps (m, k), (n, k), (m, n) or a
/// linalg.batch_matmul with (b, m, k), (b, n, k), (b, m, n), i.e. B stored
/// K-major as N x K, A and B of f8E4M3FN or f8E5M2, C of f32. Only the
/// wgmma kernel (sm_90a) computes them.
bool isFP8Matmul(linalg::LinalgOp op);

/// Whether `op` is a linalg.matmul or linalg.batch_matmul on memrefs with
/// default maps and f32 A, B and C (the FP32 baseline).
bool isSimtF32Matmul(linalg::LinalgOp op);

/// Replaces `op` (for which isSimtF32Matmul holds) by a tiled SIMT
/// gpu.launch (128x128 block tiles, 8x8 outputs per thread, FMA).
LogicalResult rewriteMatmulToSimtKernel(RewriterBase &rewriter,
                                        linalg::LinalgOp op);

/// Whether `op` is a linalg.matmul on memrefs (default maps, f32, f16 or
/// bf16 inputs, f32 output) with a static M of at most `maxM` rows: a
/// matrix-vector product that the skinny kernel computes at the speed of
/// reading B.
bool isSkinnyMatmul(linalg::LinalgOp op, int64_t maxM);

/// Replaces `op` (for which isSkinnyMatmul holds) by the skinny SIMT
/// kernel: 32 columns per block, K split over the block's warps and, for
/// narrow B, over blocks (the last block of a column group then adds the
/// splits in order). A and B are read through their producers where these
/// can be evaluated (a cast of an f32 weight argument: rounded in
/// registers).
LogicalResult rewriteMatmulToSkinnyKernel(RewriterBase &rewriter,
                                          linalg::LinalgOp op, int64_t maxM);

/// Replaces `op` (for which isTensorCoreMatmul holds) by a gpu.launch that
/// computes it on Tensor Cores with the given instruction family. A wgmma
/// request for a matmul the wgmma kernel does not take (see the pass
/// description) builds the mma.sync kernel; `usedKind` says which one was
/// built.
LogicalResult rewriteMatmulToTensorCoreKernel(RewriterBase &rewriter,
                                              linalg::LinalgOp op, MmaKind kind,
                                              MmaKind *usedKind = nullptr,
                                              MmaSyncTiling tiling = {});

/// Rewrites a 2-D convolution on tensors (NHWC HWCF/FHWC or NCHW FCHW, f16,
/// bf16 or f32 inputs and an f32 output, static shapes) into an im2col
/// gather generic (a constant padding of the input folded in) and a
/// linalg.matmul / linalg.batch_matmul.
LogicalResult rewriteConvAsMatmul(RewriterBase &rewriter,
                                  linalg::LinalgOp conv);

/// The patterns of --amp-gpu-fuse-elementwise (after its generalization of
/// named elementwise ops): elementwise fusion of generic producers into
/// generic consumers, reshapes folded into generics by expansion, and the
/// canonicalizations they need. Named contractions are never fused into.
void populateAmpGPUFusionPatterns(RewritePatternSet &patterns);

/// Fusion through data movement by recomputing values where they are read
/// (part of populateAmpGPUFusionPatterns): generic inputs that are
/// insert_slices or reshapes/slices of elementwise results are read in the
/// body, slices of generics fold into indexing maps, and tensor.extract in
/// a generic's body moves through slices, reshapes, insert_slice, fills and
/// elementwise generics to what they are made of.
void populateAmpGPUIndexedReadFusionPatterns(RewritePatternSet &patterns);

/// Patterns of --amp-gpu-expand-math that expand math ops without a PTX
/// instruction (exp, log, tanh, erf, sin, pow, ...) into arithmetic and the
/// math ops that have one: upstream's polynomial approximations and math
/// expansions, plus log10. They expect f32 (or f64 where upstream's
/// expansions allow it); run the f16/bf16-to-f32 extension first.
void populateGPUMathExpansionPatterns(RewritePatternSet &patterns);

/// --amp-expand-fp8: arith.truncf and arith.extf to and from f8E4M3FN and
/// f8E5M2 as integer arithmetic (for CPU code and SIMT GPU code, which have
/// no FP8 instructions).
void populateAmpExpandFP8Patterns(RewritePatternSet &patterns);

/// Reduces the argument of every f32 math.sin and math.cos under `root` to
/// [-pi, pi] (x - j * 2pi with 2pi in three parts, Cody-Waite), so that
/// upstream's polynomial approximation, which reduces with a single f32
/// pi/2 (an error of about 6e-8 * |x|), stays within 2e-7 of the true value
/// for |x| up to about 1e5. Run it before populateGPUMathExpansionPatterns.
void reduceTrigonometricArguments(Operation *root);

/// Patterns of --amp-gpu-expand-math that map the math ops PTX has
/// instructions for (fma, sqrt, absf, floor, ceil, trunc, round, roundeven,
/// copysign, integer abs and bit counts, isnan/isinf/isfinite) to LLVM
/// intrinsics that the NVPTX back end lowers to single instructions, in a
/// form that the GPU-to-NVVM lowering keeps (never libdevice).
void populateGPUMathToLLVMIntrinsicPatterns(RewritePatternSet &patterns);

/// Patterns of --amp-gpu-lower-fp8: arith.truncf to FP8 and arith.extf from
/// FP8 (scalars, 1-D vectors) as NVVM's FP8 conversions (cvt on sm_89+).
void populateAmpGPULowerFP8Patterns(RewritePatternSet &patterns);

/// The attribute on a gpu.launch that says what the kernel computes (e.g.
/// "matmul_mma_sync_bias_relu", "softmax"); --amp-gpu-name-kernels names
/// the outlined kernel after it.
constexpr llvm::StringLiteral kKernelNameAttrName = "amp.kernel";

/// A short description of what `op`'s payload computes, for kernel names:
/// "reduce" for reductions, else words such as bias, scale, add, relu,
/// relu6, clamp, gelu, tanh, sigmoid, silu, exp, div, cast, transpose
/// (at most four, in payload order).
std::string describePayload(linalg::LinalgOp op);

/// What the kernel of `op` computes: its amp.kernel attribute, the
/// description of a generic's payload, or a named op's name.
std::string describeLinalgOp(linalg::LinalgOp op);

/// The unit attribute on runtime function declarations whose calls only read
/// host memory and memref descriptors, never device data written by queued
/// GPU work (amp's tensor-map and device-constant functions): such a call
/// needs no stream synchronization (--amp-gpu-elide-host-syncs).
constexpr llvm::StringLiteral kHostOnlyAttrName = "amp.host_only";

/// Patterns of --amp-gpu-elide-host-syncs: a blocking gpu.wait followed only
/// by memory-effect-free ops and calls to `amp.host_only` functions up to a
/// `gpu.wait async` without operands is removed, and the new chain is
/// continued from the waited tokens.
void populateGPUElideHostSyncsPatterns(RewritePatternSet &patterns);

/// Replaces an outermost scf.parallel without results by a flat 1-D
/// gpu.launch with `blockSize` threads per block.
LogicalResult convertParallelLoopToLaunch(RewriterBase &rewriter,
                                          scf::ParallelOp loop,
                                          int64_t blockSize);

//===----------------------------------------------------------------------===//
// The pipeline
//===----------------------------------------------------------------------===//

/// Options of `--amp-gpu-pipeline`.
struct AmpGPUPipelineOptions
    : public PassPipelineOptions<AmpGPUPipelineOptions> {
  PassOptions::Option<std::string> chip{
      *this, "chip",
      llvm::cl::desc("Target GPU: sm_80, sm_86, sm_89, sm_90 (mma.sync) or "
                     "sm_90a (wgmma)"),
      llvm::cl::init("sm_80")};
  PassOptions::Option<std::string> features{
      *this, "features",
      llvm::cl::desc("PTX features; empty picks +ptx80 (sm_80..sm_90a)"),
      llvm::cl::init("")};
  PassOptions::Option<std::string> format{
      *this, "format",
      llvm::cl::desc("Embedded GPU code: isa (PTX, JIT-compiled by the "
                     "driver), bin (cubin, needs ptxas) or fatbin (needs "
                     "ptxas and fatbinary)"),
      llvm::cl::init("fatbin")};
  PassOptions::Option<int> optLevel{
      *this, "opt-level",
      llvm::cl::desc("Optimization level of the NVPTX back end (0-3)"),
      llvm::cl::init(3)};
  PassOptions::Option<std::string> toolkit{
      *this, "toolkit",
      llvm::cl::desc("CUDA toolkit root for ptxas and fatbinary (format bin "
                     "and fatbin; PTX needs none, math never uses "
                     "libdevice); empty uses CUDA_ROOT/CUDA_HOME/CUDA_PATH "
                     "or /usr/local/cuda, then ptxas on PATH"),
      llvm::cl::init("")};
  PassOptions::Option<bool> tensorCores{
      *this, "tensor-cores",
      llvm::cl::desc("Map f16/bf16 x f16/bf16 -> f32 matmuls and convolutions "
                     "to Tensor Core kernels (false: everything SIMT)"),
      llvm::cl::init(true)};
  PassOptions::Option<int64_t> blockSize{
      *this, "block-size",
      llvm::cl::desc("Threads per block of the generic (SIMT) kernels"),
      llvm::cl::init(256)};
  PassOptions::Option<int64_t> mmaSyncKTile{
      *this, "mma-sync-k-tile",
      llvm::cl::desc("K columns per shared-memory stage of the mma.sync "
                     "kernel (32 or 64)"),
      llvm::cl::init(MmaSyncTiling().blockK)};
  PassOptions::Option<int64_t> mmaSyncStages{
      *this, "mma-sync-stages",
      llvm::cl::desc("Shared-memory stages in flight in the mma.sync kernel"),
      llvm::cl::init(MmaSyncTiling().stages)};
  PassOptions::Option<bool> mmaSyncPrefetch{
      *this, "mma-sync-prefetch",
      llvm::cl::desc("Load the next k16 step's fragments into registers "
                     "before the current step's mma.sync"),
      llvm::cl::init(MmaSyncTiling().prefetchFragments)};
};

/// Checks the options of `--amp-gpu-pipeline`; on failure `message` says
/// what is wrong.
LogicalResult verifyGPUPipelineOptions(const AmpGPUPipelineOptions &options,
                                       std::string &message);

/// Builds `--amp-gpu-pipeline`: TOSA to linalg, convolutions to matmuls,
/// bufferization, Tensor Core kernels, the generic SIMT kernels, device
/// memory, outlining, NVVM lowering and serialization, and the host lowering
/// to the LLVM dialect. The options must have been verified.
void buildAmpGPUPipeline(OpPassManager &pm,
                         const AmpGPUPipelineOptions &options);

/// Registers `--amp-gpu-pipeline`.
void registerAmpGPUPipeline();

#define GEN_PASS_REGISTRATION
#include "amp/Conversion/Passes.h.inc"

} // namespace amp
} // namespace mlir

#endif // AMP_CONVERSION_PASSES_H
