// RUN: amp-opt %s --split-input-file --amp-flatten-constants | FileCheck %s

// CHECK-LABEL: func.func @dense_weight
// CHECK: %[[FLAT:.+]] = arith.constant dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00, 5.000000e+00, 6.000000e+00]> : tensor<6xf32>
// CHECK: %[[W:.+]] = tensor.expand_shape %[[FLAT]] {{\[}}[0, 1, 2]] output_shape [1, 2, 3] : tensor<6xf32> into tensor<1x2x3xf32>
// CHECK: return %[[W]]
func.func @dense_weight() -> tensor<1x2x3xf32> {
  %w = arith.constant dense<[[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]]> : tensor<1x2x3xf32>
  return %w : tensor<1x2x3xf32>
}

// -----

// Splats are flattened too; rank-1 and scalar constants are left alone.
// CHECK-LABEL: func.func @splat_and_rank1
// CHECK-DAG: %[[SPLAT:.+]] = arith.constant dense<5.000000e-01> : tensor<8xf16>
// CHECK-DAG: tensor.expand_shape %[[SPLAT]] {{\[}}[0, 1]] output_shape [2, 4]
// CHECK-DAG: arith.constant dense<[1, 2]> : tensor<2xi32>
// CHECK-DAG: arith.constant 3.000000e+00 : f32
func.func @splat_and_rank1() -> (tensor<2x4xf16>, tensor<2xi32>, f32) {
  %s = arith.constant dense<0.5> : tensor<2x4xf16>
  %v = arith.constant dense<[1, 2]> : tensor<2xi32>
  %f = arith.constant 3.0 : f32
  return %s, %v, %f : tensor<2x4xf16>, tensor<2xi32>, f32
}
