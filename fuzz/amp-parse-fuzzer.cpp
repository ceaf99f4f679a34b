//===- amp-parse-fuzzer.cpp - Fuzz amp through the MLIR parser ------------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A libFuzzer target: the input bytes are parsed as an MLIR module; when it
// parses and verifies, every option set of FuzzCommon.h runs on it and the
// contract is checked (no crash, success or a diagnostic, the result
// verifies, signatures kept, a second run changes nothing).
//
// An input that contains the text "allow-unregistered-dialect" (as the RUN
// line of a test that needs it does) is parsed with unregistered dialects
// allowed.
//
// Built with -fsanitize=fuzzer when AMP_ENABLE_FUZZERS is on; otherwise
// linked with FuzzerMain.cpp, which runs the inputs named on the command line
// (a regression run of the seed corpus and the saved crashers).
//
//===----------------------------------------------------------------------===//

#include "FuzzCommon.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include "llvm/Support/raw_ostream.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

using namespace mlir;
using namespace mlir::amp::fuzz;

/// Bigger inputs are skipped: the largest model of the corpus is ~150 KB.
static constexpr size_t kMaxInputSize = 256 * 1024;

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  DialectRegistry registry;
  registerFuzzDialects(registry);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > kMaxInputSize)
    return 0;
  // The MLIR lexer finds the end of its buffer by a NUL after it (files and
  // MemoryBuffers have one); libFuzzer's bytes have none, so they are copied.
  std::string text(reinterpret_cast<const char *>(data), size);
  std::unique_ptr<MLIRContext> ctx =
      createFuzzContext(llvm::StringRef(text).contains("allow-unregistered-dialect"));
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(
      text, ParserConfig(ctx.get(), /*verifyAfterParse=*/true));
  // AMP_FUZZ_VERBOSE=1 says which inputs reach the pass (to see what a seed
  // corpus covers).
  static const bool verbose = std::getenv("AMP_FUZZ_VERBOSE");
  if (verbose)
    llvm::errs() << (module ? "parsed" : "rejected") << " (" << size
                 << " bytes)\n";
  if (!module)
    return 0;
  for (const OptionSet &set : getOptionSets()) {
    CheckResult result = checkConversion(*module, set);
    if (!result.violation.empty())
      reportViolation(result.violation, set.name, *module);
  }
  return 0;
}
