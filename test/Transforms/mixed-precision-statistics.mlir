// Pass statistics exist only in an LLVM built with statistics (assertions or
// LLVM_FORCE_ENABLE_STATS); Debian's release build compiles them out. The
// report (see mixed-precision-report.mlir) carries the same numbers.
// REQUIRES: pass-statistics
// RUN: amp-opt %s --amp-mixed-precision --mlir-pass-statistics -o /dev/null 2>&1 | FileCheck %s

// CHECK: AmpMixedPrecisionPass
// CHECK-DAG: (S) 4 casts
// CHECK-DAG: (S) 1 folded-constants
// CHECK-DAG: (S) 2 green-ops
// CHECK-DAG: (S) 1 gray-ops-low
// CHECK-DAG: (S) 2 red-ops

func.func @mlp(%x: tensor<16x16xf32>) -> (tensor<16x16xf32>, tensor<16x16xf32>) {
  %w = arith.constant dense<0.5> : tensor<16x16xf32>
  %0 = linalg.matmul ins(%x, %w : tensor<16x16xf32>, tensor<16x16xf32>) outs(%x : tensor<16x16xf32>) -> tensor<16x16xf32>
  %1 = tosa.tanh %0 : (tensor<16x16xf32>) -> tensor<16x16xf32>
  %2 = tosa.exp %1 : (tensor<16x16xf32>) -> tensor<16x16xf32>
  %3 = linalg.matmul {amp.color = #amp.color<red>} ins(%1, %w : tensor<16x16xf32>, tensor<16x16xf32>) outs(%x : tensor<16x16xf32>) -> tensor<16x16xf32>
  %4 = linalg.matmul ins(%1, %3 : tensor<16x16xf32>, tensor<16x16xf32>) outs(%x : tensor<16x16xf32>) -> tensor<16x16xf32>
  return %2, %4 : tensor<16x16xf32>, tensor<16x16xf32>
}
