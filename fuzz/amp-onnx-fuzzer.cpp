//===- amp-onnx-fuzzer.cpp - Fuzz amp-import-onnx on protobuf bytes -------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A libFuzzer target: the input bytes are a serialized ONNX ModelProto
// (seeds: the models test/amp-import-onnx/Inputs/make_models.py writes, and
// libonnx-testdata's). The importer must either return a module that
// verifies or report errors, never crash, hang or leave an error list empty
// on failure.
//
// Built with -fsanitize=fuzzer when AMP_ENABLE_FUZZERS is on; otherwise
// linked with FuzzerMain.cpp, which runs the files named on the command line.
//
//===----------------------------------------------------------------------===//

#include "OnnxImporter.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"

#include "llvm/Support/raw_ostream.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>

using namespace mlir;
using namespace amp::onnximport;

/// Bigger inputs are skipped: they only slow the fuzzer down.
static constexpr size_t kMaxInputSize = 1 << 20;

extern "C" int LLVMFuzzerInitialize(int *, char ***) { return 0; }

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > kMaxInputSize)
    return 0;
  DialectRegistry registry;
  registerImportDialects(registry);
  MLIRContext context(registry);
  context.printOpOnDiagnostic(false);
  std::vector<std::string> errors;
  ImportOptions options; // No model folder: external data is an error.
  OwningOpRef<ModuleOp> module = importOnnxModel(
      context, ArrayRef<char>(reinterpret_cast<const char *>(data), size),
      options, errors);
  static const bool verbose = std::getenv("AMP_FUZZ_VERBOSE");
  if (verbose)
    llvm::errs() << (module ? "imported" : "rejected") << " (" << size
                 << " bytes)" << (errors.empty() ? "" : ": " + errors[0])
                 << "\n";
  if (!module && errors.empty()) {
    llvm::errs() << "amp-onnx-fuzzer: the import failed without an error\n";
    std::abort();
  }
  if (module && failed(verify(*module))) {
    llvm::errs() << "amp-onnx-fuzzer: the imported module does not verify\n";
    std::abort();
  }
  return 0;
}
