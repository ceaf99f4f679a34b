// RUN: amp-opt %s --amp-gpu-fuse-elementwise | FileCheck %s

// Transposes of constant weights (a classifier's x * W^T) are folded into
// constants holding the permuted data, so the GPU does not transpose the
// weights on every call.

// CHECK-LABEL: func.func @transpose_2d
// CHECK: %[[W:.+]] = arith.constant dense<{{\[}}[1.000000e+00, 4.000000e+00], [2.000000e+00, 5.000000e+00], [3.000000e+00, 6.000000e+00]]> : tensor<3x2xf16>
// CHECK-NOT: linalg.transpose
// CHECK-NOT: linalg.generic
// CHECK: linalg.matmul ins(%{{.+}}, %[[W]] :
func.func @transpose_2d(%x: tensor<4x3xf16>) -> tensor<4x2xf32> {
  %w = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf16>
  %e = tensor.empty() : tensor<3x2xf16>
  %t = linalg.transpose ins(%w : tensor<2x3xf16>) outs(%e : tensor<3x2xf16>) permutation = [1, 0]
  %z = arith.constant 0.0 : f32
  %o = tensor.empty() : tensor<4x2xf32>
  %f = linalg.fill ins(%z : f32) outs(%o : tensor<4x2xf32>) -> tensor<4x2xf32>
  %m = linalg.matmul ins(%x, %t : tensor<4x3xf16>, tensor<3x2xf16>) outs(%f : tensor<4x2xf32>) -> tensor<4x2xf32>
  return %m : tensor<4x2xf32>
}

// A 3-D permutation written as a generic (out[k][i][j] = in[i][j][k]).
// CHECK-LABEL: func.func @permute_3d
// CHECK: arith.constant dense<{{\[}}{{\[}}[0.000000e+00, 2.000000e+00], [4.000000e+00, 6.000000e+00], [8.000000e+00, 1.000000e+01]], {{\[}}[1.000000e+00, 3.000000e+00], [5.000000e+00, 7.000000e+00], [9.000000e+00, 1.100000e+01]]]> : tensor<2x3x2xf32>
// CHECK-NOT: linalg.generic
func.func @permute_3d() -> tensor<2x3x2xf32> {
  %c = arith.constant dense<[[[0.0, 1.0], [2.0, 3.0]], [[4.0, 5.0], [6.0, 7.0]], [[8.0, 9.0], [10.0, 11.0]]]> : tensor<3x2x2xf32>
  %e = tensor.empty() : tensor<2x3x2xf32>
  %t = linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (i, j, k)>, affine_map<(i, j, k) -> (k, i, j)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%c : tensor<3x2x2xf32>) outs(%e : tensor<2x3x2xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<2x3x2xf32>
  return %t : tensor<2x3x2xf32>
}

// A splat is resized; a permutation of a non-constant stays.
// CHECK-LABEL: func.func @splat_and_argument
// CHECK: arith.constant dense<2.000000e+00> : tensor<3x2xf32>
// CHECK: linalg.generic
func.func @splat_and_argument(%a: tensor<2x3xf32>) -> (tensor<3x2xf32>, tensor<3x2xf32>) {
  %w = arith.constant dense<2.0> : tensor<2x3xf32>
  %e = tensor.empty() : tensor<3x2xf32>
  %t = linalg.transpose ins(%w : tensor<2x3xf32>) outs(%e : tensor<3x2xf32>) permutation = [1, 0]
  %e2 = tensor.empty() : tensor<3x2xf32>
  %u = linalg.transpose ins(%a : tensor<2x3xf32>) outs(%e2 : tensor<3x2xf32>) permutation = [1, 0]
  return %t, %u : tensor<3x2xf32>, tensor<3x2xf32>
}
