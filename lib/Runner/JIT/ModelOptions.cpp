//===- ModelOptions.cpp - The model and input options of the runner tools ===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "amp/Runner/ModelOptions.h"

using namespace mlir;
using namespace mlir::amp::runner;
namespace cl = llvm::cl;

ModelOptions::ModelOptions(llvm::StringRef verb)
    : inputFile(cl::Positional, cl::desc("<model.mlir>"), cl::init("-"),
                cl::cat(modelCategory)),
      entry("entry", cl::value_desc("name"), cl::cat(modelCategory)),
      shapes("shape",
             cl::desc("Static shape of a dynamic argument, as INDEX:DIMS "
                      "(e.g. 0:1x3x224x224); may be repeated"),
             cl::value_desc("index:dims"), cl::cat(modelCategory)),
      randomizeWeights(
          "randomize-weights",
          cl::desc("Replace the weights (float constants of rank >= 2 read "
                   "by contractions) by seeded random values scaled by "
                   "their fan-in (for models without trained weights)"),
          cl::cat(modelCategory)),
      sharedLibs("shared-libs",
                 cl::desc("Libraries to load for symbols the model calls"),
                 cl::CommaSeparated, cl::cat(modelCategory)),
      inputs("inputs",
             cl::desc("Sample inputs from NumPy files: an .npz file (arrays "
                      "arr_0, arr_1, ... or named after the arguments), an "
                      ".npy file (one-argument models), or a folder of them, "
                      "one call each (default: one call on seeded random "
                      "inputs)"),
             cl::value_desc("file-or-folder"), cl::cat(inputCategory)),
      seed("seed", cl::desc("Seed of the random inputs and weights"),
           cl::init(0), cl::cat(inputCategory)),
      inputSeed("input-seed",
                cl::desc("Seed of the random inputs that are not weights "
                         "(default: --seed): other inputs for the same "
                         "weights, e.g. to calibrate on samples other than "
                         "those a comparison runs on"),
                cl::init(0), cl::cat(inputCategory)),
      inputRange("input-range",
                 cl::desc("Random float inputs are uniform in [lo, hi)"),
                 cl::value_desc("lo,hi"), cl::init("-1,1"),
                 cl::cat(inputCategory)),
      intRange("int-range",
               cl::desc("Random integer inputs (i8, i32, i64) are uniform "
                        "in [lo, hi)"),
               cl::value_desc("lo,hi"), cl::init("0,2"),
               cl::cat(inputCategory)),
      entryDescription(("Function to " + verb +
                        " (default: the only public function with tensor "
                        "arguments)")
                           .str()) {
  entry.setDescription(entryDescription);
}

FailureOr<ModelSetup> ModelOptions::getSetup(llvm::raw_ostream &errs) const {
  FailureOr<SmallVector<ArgumentShape>> parsedShapes =
      parseShapes(shapes, errs);
  if (failed(parsedShapes))
    return failure();
  auto floatRange = parseFloatRange(inputRange);
  auto integerRange = parseIntRange(intRange);
  if (!floatRange || !integerRange) {
    errs << getToolName() << ": error: invalid "
         << (floatRange ? "--int-range" : "--input-range")
         << "; expected lo,hi with lo < hi\n";
    return failure();
  }
  ModelSetup setup;
  setup.entry = entry;
  setup.shapes = std::move(*parsedShapes);
  setup.randomizeWeights = randomizeWeights;
  setup.seed = seed;
  if (inputSeed.getNumOccurrences())
    setup.inputSeed = inputSeed;
  setup.floatRange = *floatRange;
  setup.intRange = *integerRange;
  setup.inputs = inputs;
  return setup;
}
