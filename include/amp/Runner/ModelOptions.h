//===- ModelOptions.h - Model options of the runner tools -----*- C++ -*-===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The command-line options amp-run and amp-tune share, in their "Model" and
// "Inputs" groups: the model file, its entry and dynamic shapes, random
// weights, libraries, and where the samples come from. A tool holds one
// ModelOptions in its options struct (the options live in main's frame, not
// in globals) and turns it into a ModelSetup with getSetup.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_RUNNER_MODELOPTIONS_H
#define AMP_RUNNER_MODELOPTIONS_H

#include "amp/Runner/ToolSupport.h"

#include "llvm/Support/CommandLine.h"

#include <string>

namespace mlir {
namespace amp {
namespace runner {

struct ModelOptions {
  /// `verb` completes the entry's description: "Function to <verb>".
  explicit ModelOptions(llvm::StringRef verb);

  llvm::cl::OptionCategory modelCategory{"Model"};
  llvm::cl::OptionCategory inputCategory{"Inputs"};
  llvm::cl::opt<std::string> inputFile;
  llvm::cl::opt<std::string> entry;
  llvm::cl::list<std::string> shapes;
  llvm::cl::opt<bool> randomizeWeights;
  llvm::cl::list<std::string> sharedLibs;
  llvm::cl::opt<std::string> inputs;
  llvm::cl::opt<uint64_t> seed;
  llvm::cl::opt<uint64_t> inputSeed;
  llvm::cl::opt<std::string> inputRange;
  llvm::cl::opt<std::string> intRange;

  /// The setup these options describe; on a bad --shape, --input-range or
  /// --int-range, an error on `errs` ("<tool>: error: ...") and failure.
  FailureOr<ModelSetup> getSetup(llvm::raw_ostream &errs) const;

private:
  std::string entryDescription;
};

} // namespace runner
} // namespace amp
} // namespace mlir

#endif // AMP_RUNNER_MODELOPTIONS_H
