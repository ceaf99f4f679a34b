//===- CostModel.h - What an op costs, per precision ------------*- C++ -*-===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// amp-tune's objective: the time the user pays for, estimated per op by a
// roofline on a modeled GPU (an H100 SXM), and summed over the model. An op
// takes the longer of its multiply-adds at the rate of its precision and
// the bytes it reads and writes at the memory bandwidth. An elementwise op
// next to a contraction (its epilogue: bias, activation, residual; or the
// padding before it) costs nothing of its own, as in amp's GPU pipeline,
// which fuses epilogues and folds padding into implicit-GEMM convolutions.
// No launch overhead, no cast: the model ranks what to give back, it does
// not predict a measured time.
//
// Rates (NVIDIA H100 SXM5 datasheet, dense): FP32 on CUDA cores 67
// TFLOP/s; f16/bf16 Tensor Cores 989 TFLOP/s; FP8 1979 TFLOP/s; HBM3
// 3.35 TB/s. A multiply-add is two FLOPs.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_TOOLS_AMP_TUNE_COSTMODEL_H
#define AMP_TOOLS_AMP_TUNE_COSTMODEL_H

#include "mlir/IR/Operation.h"

#include <cstdint>

namespace mlir::amp::tune {

/// The precisions an op can be priced at.
enum class CostLevel { FP32, Bits16, FP8, WeightOnly };

/// What the model knows of an op: its multiply-adds (0 for ops whose model
/// gives none), the float tensor elements it reads and writes, and whether
/// it runs inside a contraction's kernel (its bytes are not its own).
struct OpWork {
  int64_t macs = 0;
  int64_t elements = 0;
  /// Of `elements`, those of constant operands (a contraction's weight).
  int64_t weightElements = 0;
  bool fused = false;
  /// Whether it is a contraction (multiply-adds, not elementwise).
  bool contraction = false;
};

/// The work of `op` (its operands and results with static shapes), in the
/// FP32 model it belongs to.
OpWork measureWork(Operation *op);

/// The bytes `work` reads and writes at `level`: elements of 4, 2 or 1
/// bytes (FP8 results are written in 16 bits: counted at 2); weight-only,
/// 16-bit activations and weights of `weightBits` (scales not counted).
double estimateBytes(const OpWork &work, CostLevel level,
                     unsigned weightBits = 16);

/// The modeled seconds `work` takes at `level`: the longer of its
/// multiply-adds on Tensor Cores in 16 bits, FP8 (weight-only formats
/// multiply in 16 bits) or on CUDA cores in FP32, and its bytes.
double estimateSeconds(const OpWork &work, CostLevel level,
                       unsigned weightBits = 16);

/// What moving an op from FP32 to `level` saves, in modeled seconds.
inline double estimateSaving(const OpWork &work, CostLevel level) {
  return estimateSeconds(work, CostLevel::FP32) - estimateSeconds(work, level);
}

/// The name of the modeled machine, for reports.
const char *getCostModelName();

} // namespace mlir::amp::tune

#endif // AMP_TOOLS_AMP_TUNE_COSTMODEL_H
