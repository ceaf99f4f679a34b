//===- AmpPlugin.cpp - amp as a plugin for a stock mlir-opt ---------------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Exports both plugin entry points, so that
//   mlir-opt --load-dialect-plugin=AmpPlugin.so --load-pass-plugin=AmpPlugin.so
// knows the amp dialect (with its external models) and amp's passes.
//
//===----------------------------------------------------------------------===//

#include "amp/InitAmp.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/Plugins/DialectPlugin.h"
#include "mlir/Tools/Plugins/PassPlugin.h"
#include "llvm/Config/llvm-config.h"

extern "C" LLVM_ATTRIBUTE_WEAK ::mlir::DialectPluginLibraryInfo
mlirGetDialectPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "AmpPlugin", LLVM_VERSION_STRING,
          [](mlir::DialectRegistry *registry) {
            mlir::amp::registerAmpDialects(*registry);
          }};
}

extern "C" LLVM_ATTRIBUTE_WEAK ::mlir::PassPluginLibraryInfo
mlirGetPassPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "AmpPlugin", LLVM_VERSION_STRING,
          []() { mlir::amp::registerAmpPasses(); }};
}
