//===- InitAmp.cpp - Register amp's dialect, models and passes ------------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "amp/InitAmp.h"

#include "amp/ExternalModels/ExternalModels.h"
#include "amp/IR/AmpDialect.h"
#include "amp/Transforms/Passes.h"

#include "mlir/IR/DialectRegistry.h"

void mlir::amp::registerAmpDialects(DialectRegistry &registry) {
  registry.insert<AmpDialect>();
  registerExternalModels(registry);
}

void mlir::amp::registerAmpPasses() { registerAmpTransformsPasses(); }
