//===- amp-graph-fuzzer.cpp - Structured fuzzing of amp -------------------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A libFuzzer target whose input bytes drive the graph generator (every
// random choice reads the next bytes), so that coverage feedback from amp's
// code steers the shape of valid FP32 graphs. Each graph is checked as
// GraphCheck.h says; a broken contract, or a generated module that does not
// verify (a generator bug), aborts with the module.
//
//===----------------------------------------------------------------------===//

#include "FuzzCommon.h"
#include "GraphCheck.h"

#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

using namespace mlir::amp::fuzz;

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  mlir::DialectRegistry registry;
  registerFuzzDialects(registry);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size == 0)
    return 0;
  // The first byte picks the generator's options; the rest drives it.
  GeneratorOptions options;
  options.unregisteredOps = data[0] & 1;
  options.dynamicShapes = data[0] & 2;
  options.tosa = !(data[0] & 4);
  options.maxOpsPerFunction = 8 + (data[0] >> 3);
  ByteEntropy entropy(data + 1, size - 1);
  CaseResult result = runGeneratedCase(entropy, options);
  if (!result.generatorError.empty()) {
    llvm::errs() << "amp-graph-fuzzer: the generator wrote invalid IR: "
                 << result.generatorError << "\n"
                 << result.input << "\n";
    std::abort();
  }
  if (!result.violations.empty()) {
    for (const Violation &v : result.violations)
      llvm::errs() << "amp-graph-fuzzer: contract violated with option set '"
                   << v.optionSet << "': " << v.what << "\n";
    llvm::errs() << "---- input ----\n" << result.input << "---- end ----\n";
    std::abort();
  }
  return 0;
}
