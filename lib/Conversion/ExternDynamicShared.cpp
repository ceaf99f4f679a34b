//===- ExternDynamicShared.cpp - Dynamic shared memory as .extern ---------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Gives the zero-sized shared-memory globals that stand for the dynamic
// shared memory external linkage, so that the NVPTX back end declares them
// `.extern .shared ... []` (placed after the static shared variables)
// instead of demoting them to one-byte static variables. See the pass
// description in Passes.td.
//
//===----------------------------------------------------------------------===//

#include "amp/Conversion/Passes.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

namespace mlir {
namespace amp {
#define GEN_PASS_DEF_AMPGPUEXTERNDYNAMICSHAREDPASS
#include "amp/Conversion/Passes.h.inc"
} // namespace amp
} // namespace mlir

using namespace mlir;

namespace {
struct AmpGPUExternDynamicSharedPass
    : public amp::impl::AmpGPUExternDynamicSharedPassBase<
          AmpGPUExternDynamicSharedPass> {
  void runOnOperation() override {
    getOperation()->walk([](LLVM::GlobalOp global) {
      if (global.getAddrSpace() !=
          static_cast<unsigned>(NVVM::NVVMMemorySpace::Shared))
        return;
      auto array = dyn_cast<LLVM::LLVMArrayType>(global.getGlobalType());
      if (!array || array.getNumElements() != 0 || global.getValueOrNull() ||
          global.getInitializerBlock())
        return;
      global.setLinkage(LLVM::Linkage::External);
    });
  }
};
} // namespace
