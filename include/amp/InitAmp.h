//===- InitAmp.h - Register amp's dialect, models and passes ----*- C++ -*-===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Entry points for tools and plugins that want amp: the dialect with its
// external models, and the passes.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_INITAMP_H
#define AMP_INITAMP_H

namespace mlir {
class DialectRegistry;

namespace amp {
/// Registers the amp dialect and the external models that attach amp's
/// interfaces to upstream ops (linalg, tosa, arith, math, tensor). Does not
/// register the upstream dialects themselves.
void registerAmpDialects(DialectRegistry &registry);

/// Registers what `--amp-gpu-pipeline` needs beyond the dialects it parses:
/// bufferization and value-bounds external models, the ConvertToLLVM
/// interfaces used inside gpu.module, the NVVM target attribute interface,
/// and the LLVM IR translations that gpu-module-to-binary serializes with.
/// Does not register the upstream dialects themselves.
void registerAmpGPUDependencies(DialectRegistry &registry);

/// Registers amp's passes and pass pipelines (including `--amp-gpu-pipeline`)
/// with the global registry.
void registerAmpPasses();
} // namespace amp
} // namespace mlir

#endif // AMP_INITAMP_H
