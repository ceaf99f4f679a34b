// RUN: amp-opt %s --amp-mixed-precision --split-input-file | FileCheck %s

// A constant that only one converted op reads, in one type, is converted in
// place (no copy, nothing FP32 left); a constant that other ops read too, or
// that the op also reads in another type, gets a converted copy and keeps
// its FP32 original for them.

// CHECK-LABEL: func.func @weights_only_the_conv_reads
// CHECK: %[[W:.+]] = "tosa.const"() <{values = dense<2.500000e-01> : tensor<2x1x1x2xf16>}>
// CHECK-NOT: tensor<2x1x1x2xf32>
// CHECK: tosa.conv2d %{{.+}}, %[[W]], {{.*}} -> tensor<1x4x4x2xf16>
func.func @weights_only_the_conv_reads(%x: tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32> {
  %w = "tosa.const"() <{values = dense<0.25> : tensor<2x1x1x2xf32>}> : () -> tensor<2x1x1x2xf32>
  %bias = "tosa.const"() <{values = dense<0.5> : tensor<2xf32>}> : () -> tensor<2xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.conv2d %x, %w, %bias, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x4x4x2xf32>, tensor<2x1x1x2xf32>, tensor<2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4x2xf32>
  return %0 : tensor<1x4x4x2xf32>
}

// -----

// Read by the matmul in f16 and by the FP32 exp: an f16 copy for the matmul.
// CHECK-LABEL: func.func @shared_with_an_fp32_op
// CHECK-DAG: %[[W:.+]] = arith.constant dense<2.500000e-01> : tensor<4x4xf32>
// CHECK-DAG: %[[W16:.+]] = arith.constant dense<2.500000e-01> : tensor<4x4xf16>
// CHECK: linalg.matmul ins(%{{.+}}, %[[W16]] : tensor<4x4xf16>, tensor<4x4xf16>)
// CHECK: linalg.exp ins(%[[W]] : tensor<4x4xf32>)
func.func @shared_with_an_fp32_op(%a: tensor<4x4xf32>, %c: tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>) {
  %w = arith.constant dense<0.25> : tensor<4x4xf32>
  %m = linalg.matmul ins(%a, %w : tensor<4x4xf32>, tensor<4x4xf32>) outs(%c : tensor<4x4xf32>) -> tensor<4x4xf32>
  %e = linalg.exp ins(%w : tensor<4x4xf32>) outs(%c : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %m, %e : tensor<4x4xf32>, tensor<4x4xf32>
}

// -----

// Read as an f16 input and as the FP32 accumulator of one matmul: the input
// is a copy, the accumulator the FP32 original.
// CHECK-LABEL: func.func @input_and_accumulator
// CHECK-DAG: %[[W:.+]] = arith.constant dense<2.500000e-01> : tensor<4x4xf32>
// CHECK-DAG: %[[W16:.+]] = arith.constant dense<2.500000e-01> : tensor<4x4xf16>
// CHECK: linalg.matmul ins(%{{.+}}, %[[W16]] : tensor<4x4xf16>, tensor<4x4xf16>) outs(%[[W]] : tensor<4x4xf32>)
func.func @input_and_accumulator(%a: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %w = arith.constant dense<0.25> : tensor<4x4xf32>
  %m = linalg.matmul ins(%a, %w : tensor<4x4xf32>, tensor<4x4xf32>) outs(%w : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %m : tensor<4x4xf32>
}

// -----

// Read twice by one op in f16: converted once, in place.
// CHECK-LABEL: func.func @read_twice
// CHECK: %[[W:.+]] = arith.constant dense<2.500000e-01> : tensor<4x4xf16>
// CHECK-NOT: tensor<4x4xf32> = arith.constant
// CHECK: linalg.matmul ins(%[[W]], %[[W]] : tensor<4x4xf16>, tensor<4x4xf16>)
func.func @read_twice(%c: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %w = arith.constant dense<0.25> : tensor<4x4xf32>
  %m = linalg.matmul ins(%w, %w : tensor<4x4xf32>, tensor<4x4xf32>) outs(%c : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %m : tensor<4x4xf32>
}
