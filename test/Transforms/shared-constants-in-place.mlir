// RUN: amp-opt %s --amp-mixed-precision --split-input-file --verify-diagnostics | FileCheck %s

// Constants that several ops read are converted in place when every reader
// reads them in the same type (a data operand or a zero point in its compute
// type): one 16-bit constant, no FP32 one left and no copy per reader.

// CHECK-LABEL: func.func @bias_and_zero_point_shared
// CHECK-NOT: xf32>}>
// CHECK: %[[B:.+]] = "tosa.const"() <{values = dense<1.000980e-01> : tensor<2xf16>}>
// CHECK: %[[Z:.+]] = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf16>}>
// CHECK-NOT: "tosa.const"() <{values = dense<{{.*}}> : tensor<2xf16>}>
// CHECK: tosa.conv2d %{{.+}}, %{{.+}}, %[[B]], %[[Z]], %[[Z]]
// CHECK: tosa.conv2d %{{.+}}, %{{.+}}, %[[B]], %[[Z]], %[[Z]]
func.func @bias_and_zero_point_shared(%x: tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32> {
  %w = "tosa.const"() <{values = dense<0.25> : tensor<2x1x1x2xf32>}> : () -> tensor<2x1x1x2xf32>
  %b = "tosa.const"() <{values = dense<0.1001> : tensor<2xf32>}> : () -> tensor<2xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x4x4x2xf32>, tensor<2x1x1x2xf32>, tensor<2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4x2xf32>
  %w2 = "tosa.const"() <{values = dense<0.5> : tensor<2x1x1x2xf32>}> : () -> tensor<2x1x1x2xf32>
  %1 = tosa.conv2d %0, %w2, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x4x4x2xf32>, tensor<2x1x1x2xf32>, tensor<2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4x2xf32>
  return %1 : tensor<1x4x4x2xf32>
}

// -----

// A later reader whose rewrite fails (an accumulator TOSA does not define
// for f16 inputs) stays in FP32 and reads the bias with its FP32 value, not
// the f16 rounding the first convolution reads.

// CHECK-LABEL: func.func @later_reader_fails
// CHECK: %[[B16:.+]] = "tosa.const"() <{values = dense<1.000980e-01> : tensor<2xf16>}>
// CHECK: %[[B32:.+]] = "tosa.const"() <{values = dense<1.001000e-01> : tensor<2xf32>}>
// CHECK: tosa.conv2d %{{.+}}, %{{.+}}, %[[B16]], {{.*}} -> tensor<1x4x4x2xf16>
// CHECK: tosa.conv2d %{{.+}}, %{{.+}}, %[[B32]], {{.*}} : (tensor<1x4x4x2xf32>, tensor<2x1x1x2xf32>, tensor<2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4x2xf32>
func.func @later_reader_fails(%x: tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32> {
  %w = "tosa.const"() <{values = dense<0.25> : tensor<2x1x1x2xf32>}> : () -> tensor<2x1x1x2xf32>
  %b = "tosa.const"() <{values = dense<0.1001> : tensor<2xf32>}> : () -> tensor<2xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %zp2 = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x4x4x2xf32>, tensor<2x1x1x2xf32>, tensor<2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4x2xf32>
  %w2 = "tosa.const"() <{values = dense<0.5> : tensor<2x1x1x2xf32>}> : () -> tensor<2x1x1x2xf32>
  // expected-remark@+1 {{'tosa.conv2d' stays in FP32: it could not be rebuilt in 'f16'}}
  %1 = tosa.conv2d %0, %w2, %b, %zp2, %zp2 {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>, amp.precision = #amp.precision<accumulate = bf16, output = f16>} : (tensor<1x4x4x2xf32>, tensor<2x1x1x2xf32>, tensor<2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4x2xf32>
  return %1 : tensor<1x4x4x2xf32>
}

// -----

// A constant that a later op reads in FP32 keeps its FP32 value: the
// convolution reads a 16-bit copy.

// CHECK-LABEL: func.func @later_reader_in_fp32
// CHECK-DAG: %[[B32:.+]] = "tosa.const"() <{values = dense<1.001000e-01> : tensor<2xf32>}>
// CHECK-DAG: %[[B16:.+]] = "tosa.const"() <{values = dense<1.000980e-01> : tensor<2xf16>}>
// CHECK: tosa.conv2d %{{.+}}, %{{.+}}, %[[B16]]
// CHECK: tosa.add %{{.+}}, %[[B32]] {amp.color = #amp.color<red>} : (tensor<2xf32>, tensor<2xf32>)
func.func @later_reader_in_fp32(%x: tensor<1x4x4x2xf32>, %y: tensor<2xf32>) -> (tensor<1x4x4x2xf32>, tensor<2xf32>) {
  %w = "tosa.const"() <{values = dense<0.25> : tensor<2x1x1x2xf32>}> : () -> tensor<2x1x1x2xf32>
  %b = "tosa.const"() <{values = dense<0.1001> : tensor<2xf32>}> : () -> tensor<2xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x4x4x2xf32>, tensor<2x1x1x2xf32>, tensor<2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4x2xf32>
  %1 = tosa.add %y, %b {amp.color = #amp.color<red>} : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %0, %1 : tensor<1x4x4x2xf32>, tensor<2xf32>
}
