// --amp-recast to integer types: a plain conversion with no scale. Inputs
// are clamped to the integer range and rounded toward zero (arith.fptosi),
// constants fold the same way, the accumulator is i32, results come back
// with arith.sitofp.
// RUN: amp-opt %s --split-input-file --amp-recast=type=i8 | FileCheck %s
// RUN: amp-opt %s --split-input-file --amp-recast=type=i4 | FileCheck %s --check-prefix=I4

// CHECK-LABEL: func.func @matmul_i8_acc_i32
// CHECK-SAME: (%[[A:.+]]: tensor<4x8xf32>) -> tensor<4x2xf32>
// CHECK-DAG: %[[LO:.+]] = arith.constant dense<-1.280000e+02> : tensor<4x8xf32>
// CHECK-DAG: %[[HI:.+]] = arith.constant dense<1.270000e+02> : tensor<4x8xf32>
// CHECK: %[[MAX:.+]] = arith.maxnumf %[[A]], %[[LO]] : tensor<4x8xf32>
// CHECK: %[[MIN:.+]] = arith.minnumf %[[MAX]], %[[HI]] : tensor<4x8xf32>
// CHECK: %[[A8:.+]] = arith.fptosi %[[MIN]] : tensor<4x8xf32> to tensor<4x8xi8>
// Weights fold: 2.7 -> 2, -3.5 -> -3 (toward zero), 300 -> 127, -1e9 -> -128.
// CHECK: %[[B8:.+]] = arith.constant dense<{{\[}}[2, -3], [127, -128], [0, 1], [0, 0], [0, 0], [0, 0], [0, 0], [0, 0]]> : tensor<8x2xi8>
// CHECK: %[[ZERO:.+]] = arith.constant 0 : i32
// CHECK: %[[INIT:.+]] = linalg.fill ins(%[[ZERO]] : i32) outs(%{{.+}} : tensor<4x2xi32>)
// CHECK: %[[M:.+]] = linalg.matmul ins(%[[A8]], %[[B8]] : tensor<4x8xi8>, tensor<8x2xi8>) outs(%[[INIT]] : tensor<4x2xi32>) -> tensor<4x2xi32>
// CHECK: %[[R:.+]] = arith.sitofp %[[M]] : tensor<4x2xi32> to tensor<4x2xf32>
// CHECK: return %[[R]] : tensor<4x2xf32>
// I4-LABEL: func.func @matmul_i8_acc_i32
// I4-DAG: arith.constant dense<-8.000000e+00> : tensor<4x8xf32>
// I4-DAG: arith.constant dense<7.000000e+00> : tensor<4x8xf32>
// I4: arith.fptosi %{{.+}} : tensor<4x8xf32> to tensor<4x8xi4>
// I4: arith.constant dense<{{\[}}[2, -3], [7, -8], [0, 1], [0, 0], [0, 0], [0, 0], [0, 0], [0, 0]]> : tensor<8x2xi4>
// I4: linalg.matmul ins(%{{.+}}, %{{.+}} : tensor<4x8xi4>, tensor<8x2xi4>) outs(%{{.+}} : tensor<4x2xi32>)
func.func @matmul_i8_acc_i32(%a: tensor<4x8xf32>) -> tensor<4x2xf32> {
  %b = arith.constant dense<[[2.7, -3.5], [300.0, -1.0e9], [0.2, 1.9], [0.0, 0.0], [0.0, 0.0], [0.0, 0.0], [0.0, 0.0], [0.0, 0.0]]> : tensor<8x2xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x2xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x2xf32>) -> tensor<4x2xf32>
  %0 = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x2xf32>) outs(%f : tensor<4x2xf32>) -> tensor<4x2xf32>
  return %0 : tensor<4x2xf32>
}

// -----

// A non-constant accumulator is converted at runtime too, clamped to the i32
// range (the bounds are the largest f32 values that fit).
// CHECK-LABEL: func.func @conv_runtime_init
// CHECK-DAG: arith.constant dense<-2.14748365E+9> : tensor<1x4x8x8xf32>
// CHECK-DAG: arith.constant dense<2.14748352E+9> : tensor<1x4x8x8xf32>
// CHECK: %[[INIT:.+]] = arith.fptosi %{{.+}} : tensor<1x4x8x8xf32> to tensor<1x4x8x8xi32>
// CHECK: linalg.conv_2d_nchw_fchw {{.*}} ins(%{{.+}}, %{{.+}} : tensor<1x3x10x10xi8>, tensor<4x3x3x3xi8>) outs(%[[INIT]] : tensor<1x4x8x8xi32>)
// CHECK: arith.sitofp %{{.+}} : tensor<1x4x8x8xi32> to tensor<1x4x8x8xf32>
func.func @conv_runtime_init(%x: tensor<1x3x10x10xf32>, %w: tensor<4x3x3x3xf32>, %init: tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32> {
  %0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%x, %w : tensor<1x3x10x10xf32>, tensor<4x3x3x3xf32>) outs(%init : tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  return %0 : tensor<1x4x8x8xf32>
}

// -----

// Dynamic shapes: the clamp bounds are splats of the runtime sizes.
// CHECK-LABEL: func.func @matmul_dynamic
// CHECK: %[[D:.+]] = tensor.dim %{{.+}}, %{{.+}} : tensor<?x8xf32>
// CHECK: tensor.splat %{{.+}}[%[[D]]] : tensor<?x8xf32>
// CHECK: arith.fptosi %{{.+}} : tensor<?x8xf32> to tensor<?x8xi8>
// CHECK: linalg.matmul ins(%{{.+}}, %{{.+}} : tensor<?x8xi8>, tensor<8x2xi8>) outs(%{{.+}} : tensor<?x2xi32>)
func.func @matmul_dynamic(%a: tensor<?x8xf32>, %b: tensor<8x2xf32>, %c: tensor<?x2xf32>) -> tensor<?x2xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<?x8xf32>, tensor<8x2xf32>) outs(%c : tensor<?x2xf32>) -> tensor<?x2xf32>
  return %0 : tensor<?x2xf32>
}
