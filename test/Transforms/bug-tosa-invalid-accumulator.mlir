// RUN: amp-opt %s --amp-mixed-precision --verify-diagnostics | FileCheck %s

// Regression test (found by amp-graphgen with the numerics check): an
// annotation asked a tosa.matmul for f16 inputs with a bf16 accumulator, a
// pair TOSA does not define; the rewritten op verified, but its lowering
// (tosa-to-linalg) made invalid IR. The TOSA models now refuse accumulator
// types TOSA does not allow for the input type: the op stays in FP32.

// CHECK-LABEL: func.func @matmul_f16_bf16_acc_stays_f32
// CHECK: tosa.matmul %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}} {amp.precision = #amp.precision<accumulate = bf16, output = f16>} : (tensor<1x2x5xf32>, tensor<1x5x5xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2x5xf32>
func.func @matmul_f16_bf16_acc_stays_f32(%a: tensor<1x2x5xf32>, %b: tensor<1x5x5xf32>) -> tensor<1x2x5xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  // expected-remark@+1 {{'tosa.matmul' stays in FP32: it could not be rebuilt in 'f16'}}
  %0 = tosa.matmul %a, %b, %zp, %zp {amp.precision = #amp.precision<accumulate = bf16, output = f16>} : (tensor<1x2x5xf32>, tensor<1x5x5xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2x5xf32>
  return %0 : tensor<1x2x5xf32>
}

// CHECK-LABEL: func.func @conv_f16_bf16_acc_stays_f32
// CHECK: tosa.conv2d {{.*}} : (tensor<1x4x4x2xf32>, tensor<2x1x1x2xf32>, tensor<2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4x2xf32>
func.func @conv_f16_bf16_acc_stays_f32(%x: tensor<1x4x4x2xf32>, %w: tensor<2x1x1x2xf32>, %bias: tensor<2xf32>) -> tensor<1x4x4x2xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  // expected-remark@+1 {{'tosa.conv2d' stays in FP32: it could not be rebuilt in 'f16'}}
  %0 = tosa.conv2d %x, %w, %bias, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>, amp.precision = #amp.precision<accumulate = bf16, output = f16>} : (tensor<1x4x4x2xf32>, tensor<2x1x1x2xf32>, tensor<2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4x2xf32>
  return %0 : tensor<1x4x4x2xf32>
}

// Weights and bias that only the conv reads would be converted in place: the
// failed rewrite gives them back their FP32 values.
// CHECK-LABEL: func.func @conv_constant_weights_restored
// CHECK: %[[W:.+]] = "tosa.const"() <{values = dense<2.500000e-01> : tensor<2x1x1x2xf32>}>
// CHECK: %[[B:.+]] = "tosa.const"() <{values = dense<5.000000e-01> : tensor<2xf32>}>
// CHECK: tosa.conv2d %{{.+}}, %[[W]], %[[B]], {{.*}} -> tensor<1x4x4x2xf32>
func.func @conv_constant_weights_restored(%x: tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32> {
  %w = "tosa.const"() <{values = dense<0.25> : tensor<2x1x1x2xf32>}> : () -> tensor<2x1x1x2xf32>
  %bias = "tosa.const"() <{values = dense<0.5> : tensor<2xf32>}> : () -> tensor<2xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  // expected-remark@+1 {{'tosa.conv2d' stays in FP32: it could not be rebuilt in 'f16'}}
  %0 = tosa.conv2d %x, %w, %bias, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>, amp.precision = #amp.precision<accumulate = bf16, output = f16>} : (tensor<1x4x4x2xf32>, tensor<2x1x1x2xf32>, tensor<2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4x2xf32>
  return %0 : tensor<1x4x4x2xf32>
}
