//===- FuzzCommon.h - What amp's fuzzers check ------------------*- C++ -*-===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The contract every fuzzer of amp checks on a module that verifies, for each
// of a fixed list of option sets of --amp-mixed-precision:
//  1. the pass does not crash (the sanitizers check memory and UB);
//  2. it succeeds, or fails after emitting an error (never silently);
//  3. on success the module verifies;
//  4. function signatures are kept (keep-io-types=true) or only change FP32
//     to the target type (keep-io-types=false);
//  5. a second run succeeds and changes nothing.
// A violation is printed with the module and aborts, which libFuzzer records
// as a crash and the generator driver reports with its seed.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_FUZZ_FUZZCOMMON_H
#define AMP_FUZZ_FUZZCOMMON_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <memory>
#include <string>

namespace mlir {
class MLIRContext;
namespace amp {
namespace fuzz {

/// One configuration of the pass that the fuzzers run.
struct OptionSet {
  /// Short name, for messages.
  const char *name;
  /// The pass pipeline on the module, e.g. "amp-mixed-precision{...}".
  const char *pipeline;
  /// True when the pipeline keeps function signatures.
  bool keepIOTypes;
};

/// The option sets the fuzzers run: f16 and bf16, both gray strategies,
/// keep-io-types=false, clamp-constants, unknown-ops=gray, accumulation and
/// output in the target type, skip-layers and min-macs, and the pass
/// scheduled on functions instead of the module.
llvm::ArrayRef<OptionSet> getOptionSets();

/// Registers the dialects the fuzzers parse (those of amp-opt that amp's
/// tests and corpus use, amp's own and the test dialect with a user policy)
/// and amp's passes. Idempotent.
void registerFuzzDialects(DialectRegistry &registry);

/// Creates a context for one fuzz input: the dialects above, no
/// multithreading, diagnostics not printed.
std::unique_ptr<MLIRContext> createFuzzContext(bool allowUnregistered);

/// What checkConversion found.
struct CheckResult {
  /// Empty if the contract holds; otherwise what broke.
  std::string violation;
  /// True if the pass converted (false: it failed with a diagnostic).
  bool converted = false;
  /// The first error the pass emitted when it failed.
  std::string error;
};

/// Runs `set` on a clone of `module` and checks the contract above. When
/// `requireSuccess` is true a failure of the pass is a violation too (for
/// inputs that hold nothing the pass may reject).
CheckResult checkConversion(ModuleOp module, const OptionSet &set,
                            bool requireSuccess = false);

/// Prints `what` and `module` to stderr and aborts.
[[noreturn]] void reportViolation(llvm::StringRef what, llvm::StringRef set,
                                  ModuleOp module);

} // namespace fuzz
} // namespace amp
} // namespace mlir

#endif // AMP_FUZZ_FUZZCOMMON_H
