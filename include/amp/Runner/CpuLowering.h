//===- CpuLowering.h - Lower a tensor-level model for the CPU ---*- C++ -*-===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The pass pipeline amp-run uses to take a module of tosa, linalg, tensor,
// arith and math ops on tensors (FP32 or mixed precision) to the LLVM
// dialect for the host CPU, and what a context needs to run it.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_RUNNER_CPULOWERING_H
#define AMP_RUNNER_CPULOWERING_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/Timing.h"

namespace mlir {
class DialectRegistry;
class OpPassManager;

namespace amp {
namespace runner {

/// Adds to `pm` (anchored on builtin.module) the lowering to the LLVM
/// dialect:
///  1. TOSA to linalg, tensor and arith; elementwise ops on tensors
///     (the casts amp inserts) to linalg; all linalg ops generalized, the
///     FP8 inputs of reductions decoded once (--amp-cpu-decode-fp8) and
///     their loops ordered by --amp-cpu-loop-order; constants flattened
///     (--amp-flatten-constants) so that LLVM gets flat arrays;
///  2. one-shot bufferization across function boundaries (identity layouts
///     at the boundaries) and ownership-based deallocation;
///  3. linalg to loops, then scf/affine/memref to control flow;
///  4. FP8 (f8E4M3FN, f8E5M2) casts expanded to integer code
///     (--amp-expand-fp8); f16/bf16: math ops on them are extended to f32,
///     arith ops emulated in f32 with a rounding after each op
///     (arith.extf/truncf), bf16 casts expanded to integer code, so no
///     soft-float runtime is needed;
///  5. everything to the LLVM dialect.
/// Numerically, a low-precision op computes in f32 and rounds its result,
/// which is what hardware without native 16-bit arithmetic does too.
void buildCpuLoweringPipeline(OpPassManager &pm);

/// The pipeline in two halves: steps 1-2 and the conversion of linalg to
/// loops (with `scf.parallel` for the parallel dimensions if
/// `parallelLoops`; amp-tune's kernel cache outlines the nests then)...
void buildCpuLoweringToLoops(OpPassManager &pm, bool parallelLoops = false);
/// ... and the rest, from the loops to the LLVM dialect.
void buildCpuLoweringToLLVM(OpPassManager &pm);

/// Lowers `module` with the pipeline, every loop nest directly in a function
/// outlined after step 3 into a kernel of its own (KernelOutlining.h). The
/// kernels are never inlined: LLVM compiles each as it would alone, as
/// amp-tune's kernel cache does, so both give the same bits (inlined, a
/// kernel's math functions, such as `pow`, may be evaluated differently
/// where LLVM sees their operands as constants). Fails after diagnostics.
LogicalResult runCpuLowering(ModuleOp module, TimingScope &timing);

/// Checks that `module` holds only LLVM dialect ops after the pipeline; the
/// passes leave ops they do not know in place (with unrealized casts
/// around them), so emits an error on the first such op.
LogicalResult verifyLoweredForCpu(ModuleOp module);

/// Registers the dialects the pipeline produces and the interface models
/// (bufferization, deallocation, translation to LLVM IR) it relies on.
void registerCpuLoweringDependencies(DialectRegistry &registry);

} // namespace runner
} // namespace amp
} // namespace mlir

#endif // AMP_RUNNER_CPULOWERING_H
