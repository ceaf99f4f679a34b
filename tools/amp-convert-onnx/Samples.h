//===- Samples.h - Calibration and tuning on sample inputs ------*- C++ -*-===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// amp-convert-onnx --inputs and --tolerance: the imported model is run by
// amp's own tools, as a user would run them on the .mlir file:
//
//   amp-run model.mlir --inputs=SAMPLES --calibrate=ranges.json
//   amp-tune model.mlir --tolerance=T [--inputs=SAMPLES]
//            --pipeline='amp-mixed-precision{... ranges=ranges.json}'
//
// The ranges become the plan's `ranges=`, and amp-tune's annotations are
// copied onto the imported module, so that the plan decides what the
// tuned model would run (docs/onnx.md, "Calibrated and tuned").
//
//===----------------------------------------------------------------------===//

#ifndef AMP_CONVERT_ONNX_SAMPLES_H
#define AMP_CONVERT_ONNX_SAMPLES_H

#include "mlir/IR/BuiltinOps.h"

#include <string>

namespace amp {
namespace onnxexport {

/// What the samples step runs.
struct SampleOptions {
  /// This program's argv[0]: amp-run and amp-tune are looked for beside it
  /// (the build tree's bin/ or the installation's), then on PATH.
  const char *argv0 = nullptr;
  /// An .npz or .npy file, or a folder of them (amp-run --inputs).
  std::string inputs;
  /// amp-tune --tolerance; empty: no tuning.
  std::string tolerance;
  /// The options of the conversion that the tuner's trials run (without
  /// ranges=, which the calibration adds).
  std::string conversionOptions;
  /// Only errors on standard error (the tools' progress is kept back).
  bool quiet = false;
};

/// Calibrates and tunes `module` as `options` say. On success,
/// `planOptions` gains `ranges=FILE` when there were inputs, and the ops
/// of `module` carry amp-tune's annotations when there was a tolerance.
/// `workDir` holds the files the tools read and write; it must outlive the
/// plan (the ranges file is read by it). On failure, `error` says why.
mlir::LogicalResult runSampleTools(mlir::ModuleOp module,
                                   const SampleOptions &options,
                                   const std::string &workDir,
                                   std::string &planOptions,
                                   std::string &error);

} // namespace onnxexport
} // namespace amp

#endif // AMP_CONVERT_ONNX_SAMPLES_H
