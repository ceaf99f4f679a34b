//===- Samples.h - Sample inputs of a model for amp-run ---------*- C++ -*-===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Where amp-run's inputs come from: NumPy files (`--inputs`), each sample one
// call of the entry function, checked against its signature; or seeded
// random values.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_RUNNER_SAMPLES_H
#define AMP_RUNNER_SAMPLES_H

#include "amp/Runner/JitFunction.h"

#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace mlir {
namespace amp {
namespace runner {

/// The inputs of one call: a tensor per argument of the entry.
struct Sample {
  std::string name; // the file (and member) it came from, or "random"
  std::vector<HostTensor> inputs;
};

/// Reads samples for `entry` (whose signature is `signature`) from `path`:
///  - an .npz file: one sample, an array per argument;
///  - an .npy file: one sample of a one-argument entry;
///  - a folder: every .npz file in it, and for a one-argument entry every
///    .npy file, in name order, one sample each.
/// An array goes to argument i when its name is `arr_<i>` (numpy.savez's
/// positional names), `<i>` or `arg<i>`, or the name the argument's
/// location gives it (`%x: tensor<...> loc("x")`). Every argument needs one
/// array, every array one argument, with the argument's shape and dtype;
/// errors name the file, the array and the argument.
llvm::Expected<std::vector<Sample>>
loadSamples(llvm::StringRef path, func::FuncOp entry,
            const FunctionSignature &signature);

} // namespace runner
} // namespace amp
} // namespace mlir

#endif // AMP_RUNNER_SAMPLES_H
