//===- GraphCheck.h - Check amp on one generated graph ----------*- C++ -*-===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// One case of the structured fuzzers: generate a module from an Entropy,
// parse and verify it, sprinkle amp annotations and policies over it (from
// the same Entropy), then check the contract of FuzzCommon.h for every
// option set, requiring the pass to succeed (a generated graph holds nothing
// the pass may reject).
//
//===----------------------------------------------------------------------===//

#ifndef AMP_FUZZ_GRAPHCHECK_H
#define AMP_FUZZ_GRAPHCHECK_H

#include "GraphGenerator.h"

#include <string>
#include <vector>

namespace mlir {
namespace amp {
namespace fuzz {

/// A broken contract: the option set and what broke.
struct Violation {
  std::string optionSet;
  std::string what;
};

/// The outcome of one case.
struct CaseResult {
  /// The module the pass saw (after annotation), printed.
  std::string input;
  /// Set when the generated text did not parse or verify: a bug of the
  /// generator, with the parser's message.
  std::string generatorError;
  std::vector<Violation> violations;
  unsigned numOps = 0;
  bool usesUnregistered = false;
};

/// Runs one case. `annotate` adds amp.color/amp.precision annotations to
/// random ops and an amp.policy to some modules; without `check` the pass is
/// not run (to print a case).
CaseResult runGeneratedCase(Entropy &entropy, const GeneratorOptions &options,
                            bool annotate = true, bool check = true);

} // namespace fuzz
} // namespace amp
} // namespace mlir

#endif // AMP_FUZZ_GRAPHCHECK_H
