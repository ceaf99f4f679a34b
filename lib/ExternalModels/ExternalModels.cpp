//===- ExternalModels.cpp - Register all amp external models --------------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "amp/ExternalModels/ExternalModels.h"

void mlir::amp::registerExternalModels(DialectRegistry &registry) {
  registerArithExternalModels(registry);
  registerLinalgExternalModels(registry);
  registerMathExternalModels(registry);
  registerTensorExternalModels(registry);
  registerTosaExternalModels(registry);
  registerLayerExternalModels(registry);
}
