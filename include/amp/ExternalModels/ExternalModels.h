//===- ExternalModels.h - amp interfaces for upstream ops -------*- C++ -*-===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Registration of the external models that attach MixedPrecisionOpInterface
// to upstream ops, one function per dialect, and LayerOpInterface (one
// function for all dialects). Each adds a dialect extension to the registry,
// so the models are attached when the dialect is loaded.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_EXTERNALMODELS_EXTERNALMODELS_H
#define AMP_EXTERNALMODELS_EXTERNALMODELS_H

namespace mlir {
class DialectRegistry;

namespace amp {
void registerArithExternalModels(DialectRegistry &registry);
void registerLinalgExternalModels(DialectRegistry &registry);
void registerMathExternalModels(DialectRegistry &registry);
void registerTensorExternalModels(DialectRegistry &registry);
void registerTosaExternalModels(DialectRegistry &registry);
/// LayerOpInterface on linalg structured ops and TOSA convolutions, matmul
/// and poolings.
void registerLayerExternalModels(DialectRegistry &registry);

/// Registers all of the above.
void registerExternalModels(DialectRegistry &registry);
} // namespace amp
} // namespace mlir

#endif // AMP_EXTERNALMODELS_EXTERNALMODELS_H
