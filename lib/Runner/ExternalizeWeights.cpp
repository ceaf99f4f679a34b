//===- ExternalizeWeights.cpp - Large constants out of LLVM IR ------------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The --amp-externalize-weights pass: large constant globals of an
// LLVM-dialect module become external declarations whose bytes live in
// weights.bin, defined by an assembler file that includes it (.incbin).
//
//===----------------------------------------------------------------------===//

#include "amp/Runner/InitializerBytes.h"
#include "amp/Runner/Passes.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir {
namespace amp {
#define GEN_PASS_DEF_AMPEXTERNALIZEWEIGHTSPASS
#include "amp/Runner/Passes.h.inc"
} // namespace amp
} // namespace mlir

using namespace mlir;

namespace {

/// A symbol name as GNU as reads it: quoted, with quotes and backslashes
/// escaped.
std::string asmSymbol(StringRef name) {
  std::string quoted = "\"";
  for (char c : name) {
    if (c == '"' || c == '\\')
      quoted += '\\';
    quoted += c;
  }
  return quoted + "\"";
}

struct AmpExternalizeWeightsPass
    : public amp::impl::AmpExternalizeWeightsPassBase<
          AmpExternalizeWeightsPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (dir.empty()) {
      module.emitError("amp-externalize-weights needs dir=<folder>");
      return signalPassFailure();
    }
    SmallVector<std::pair<LLVM::GlobalOp, ElementsAttr>> globals;
    for (auto global : module.getOps<LLVM::GlobalOp>()) {
      auto value = dyn_cast_or_null<ElementsAttr>(global.getValueOrNull());
      if (!global.getConstant() || !value ||
          !cast<ShapedType>(value.getType()).hasStaticShape())
        continue;
      auto type = cast<ShapedType>(value.getType());
      uint64_t bytes =
          type.getNumElements() * ((type.getElementTypeBitWidth() + 7) / 8);
      if (bytes >= minBytes)
        globals.push_back({global, value});
    }

    if (std::error_code error = llvm::sys::fs::create_directories(dir)) {
      module.emitError() << "cannot create '" << dir
                         << "': " << error.message();
      return signalPassFailure();
    }
    SmallString<256> binPath(dir), asmPath(dir);
    llvm::sys::path::append(binPath, "weights.bin");
    llvm::sys::path::append(asmPath, "weights.s");
    SmallString<256> absoluteBin(binPath);
    llvm::sys::fs::make_absolute(absoluteBin);
    std::error_code error;
    llvm::raw_fd_ostream bin(binPath, error, llvm::sys::fs::OF_None);
    if (!error) {
      llvm::raw_fd_ostream source(asmPath, error, llvm::sys::fs::OF_Text);
      if (!error) {
        if (failed(externalize(globals, bin, source, absoluteBin)))
          return signalPassFailure();
        return;
      }
    }
    module.emitError() << "cannot write the weights to '" << dir
                       << "': " << error.message();
    signalPassFailure();
  }

  LogicalResult
  externalize(ArrayRef<std::pair<LLVM::GlobalOp, ElementsAttr>> globals,
              llvm::raw_fd_ostream &bin, llvm::raw_ostream &source,
              StringRef binPath) {
    source << "# Weights of the model, moved out of its LLVM IR by "
              "--amp-externalize-weights.\n"
           << "\t.section .rodata.amp_weights,\"a\",@progbits\n";
    uint64_t offset = 0;
    for (auto [global, value] : globals) {
      std::string why;
      FailureOr<uint64_t> size =
          amp::runner::getInitializerByteSize(value, why);
      if (failed(size))
        return global.emitError() << "cannot move the initializer of @"
                                  << global.getSymName() << " out: " << why;
      std::vector<char> bytes(*size);
      amp::runner::copyInitializerBytes(value, bytes.data());
      uint64_t alignment = std::max<uint64_t>(64, global.getAlignment()
                                                      ? *global.getAlignment()
                                                      : 0);
      uint64_t padding = (alignment - offset % alignment) % alignment;
      for (uint64_t i = 0; i < padding; ++i)
        bin << '\0';
      offset += padding;
      std::string symbol = asmSymbol(global.getSymName());
      source << "\t.p2align " << llvm::Log2_64(alignment) << "\n"
             << "\t.globl " << symbol << "\n"
             << "\t.hidden " << symbol << "\n"
             << "\t.type " << symbol << ", @object\n"
             << "\t.size " << symbol << ", " << bytes.size() << "\n"
             << symbol << ":\n"
             << "\t.incbin " << asmSymbol(binPath) << ", " << offset << ", "
             << bytes.size() << "\n";
      bin.write(bytes.data(), bytes.size());
      offset += bytes.size();

      global.removeValueAttr();
      global.setLinkage(LLVM::Linkage::External);
      global.setVisibility_(LLVM::Visibility::Hidden);
      global.setDsoLocal(true);
      ++numExternalized;
      numBytes += bytes.size();
    }
    source << "\t.section .note.GNU-stack,\"\",@progbits\n";
    if (bin.has_error())
      return getOperation().emitError()
             << "cannot write '" << binPath << "': " << bin.error().message();
    return success();
  }
};

} // namespace
