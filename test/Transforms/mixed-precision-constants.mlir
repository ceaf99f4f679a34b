// RUN: amp-opt %s --amp-mixed-precision --split-input-file --verify-diagnostics | FileCheck %s
// RUN: amp-opt %s --amp-mixed-precision=clamp-constants=true --split-input-file 2>/dev/null | FileCheck %s --check-prefix=CLAMP

// Dense weights fold into a new 16-bit constant; the FP32 one is gone.
// CHECK-LABEL: func.func @dense_weights
// CHECK: %[[W:.+]] = arith.constant dense<{{\[}}[1.000000e+00, 2.000000e+00, 3.000000e+00], [9.997550e-02, 1.999510e-01, 3.000490e-01]]> : tensor<2x3xf16>
// CHECK: linalg.matmul ins(%{{.+}}, %[[W]] : tensor<4x2xf16>, tensor<2x3xf16>)
// CHECK-NOT: tensor<2x3xf32>
func.func @dense_weights(%a: tensor<4x2xf32>, %c: tensor<4x3xf32>) -> tensor<4x3xf32> {
  %w = arith.constant dense<[[1.0, 2.0, 3.0], [0.1, 0.2, 0.3]]> : tensor<2x3xf32>
  %0 = linalg.matmul ins(%a, %w : tensor<4x2xf32>, tensor<2x3xf32>) outs(%c : tensor<4x3xf32>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// -----

// Splat weights and tosa.const fold too.
// CHECK-LABEL: func.func @splat_and_tosa_const
// CHECK-DAG: arith.constant dense<1.250000e-01> : tensor<8x8xf16>
// CHECK-DAG: "tosa.const"() <{values = dense<-2.500000e-01> : tensor<1x8x8xf16>}>
func.func @splat_and_tosa_const(%a: tensor<8x8xf32>, %b: tensor<1x8x8xf32>) -> (tensor<8x8xf32>, tensor<1x8x8xf32>) {
  %w = arith.constant dense<0.125> : tensor<8x8xf32>
  %0 = linalg.matmul ins(%a, %w : tensor<8x8xf32>, tensor<8x8xf32>) outs(%a : tensor<8x8xf32>) -> tensor<8x8xf32>
  %t = "tosa.const"() <{values = dense<-0.25> : tensor<1x8x8xf32>}> : () -> tensor<1x8x8xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %1 = tosa.matmul %b, %t, %zp, %zp : (tensor<1x8x8xf32>, tensor<1x8x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x8x8xf32>
  return %0, %1 : tensor<8x8xf32>, tensor<1x8x8xf32>
}

// -----

// dense_resource weights become a 16-bit dense_resource blob.
// CHECK-LABEL: func.func @resource_weights
// CHECK: %[[W:.+]] = arith.constant dense_resource<w0_f16> : tensor<2x2xf16>
// CHECK: linalg.matmul ins(%{{.+}}, %[[W]] : tensor<2x2xf16>, tensor<2x2xf16>)
// CHECK: w0_f16: "0x02000000003C004000420044"
func.func @resource_weights(%a: tensor<2x2xf32>, %c: tensor<2x2xf32>) -> tensor<2x2xf32> {
  %w = arith.constant dense_resource<w0> : tensor<2x2xf32>
  %0 = linalg.matmul ins(%a, %w : tensor<2x2xf32>, tensor<2x2xf32>) outs(%c : tensor<2x2xf32>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}
{-#
  dialect_resources: {
    builtin: {
      w0: "0x040000000000803F000000400000404000008040"
    }
  }
#-}

// -----

// A weight beyond f16's range keeps its consumer in FP32, with a remark;
// clamp-constants clamps it instead.
// CHECK-LABEL: func.func @overflow_keeps_consumer_fp32
// CHECK: linalg.matmul ins(%arg0, %{{.+}} : tensor<2x2xf32>, tensor<2x2xf32>)
// CLAMP-LABEL: func.func @overflow_keeps_consumer_fp32
// CLAMP: arith.constant dense<{{\[}}[6.550400e+04, 1.000000e+00], [1.000000e+00, 1.000000e+00]]> : tensor<2x2xf16>
func.func @overflow_keeps_consumer_fp32(%a: tensor<2x2xf32>, %c: tensor<2x2xf32>) -> tensor<2x2xf32> {
  // expected-remark@+1 {{constant does not fit 'f16' (1 overflow, 0 flush to zero): its consumers stay in FP32}}
  %w = arith.constant dense<[[1.0e5, 1.0], [1.0, 1.0]]> : tensor<2x2xf32>
  %0 = linalg.matmul ins(%a, %w : tensor<2x2xf32>, tensor<2x2xf32>) outs(%c : tensor<2x2xf32>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

// -----

// An epsilon that flushes to zero in f16 keeps its consumer in FP32.
// CHECK-LABEL: func.func @epsilon_flush_keeps_consumer_fp32
// CHECK: %[[M:.+]] = linalg.matmul
// CHECK: tosa.add %[[M]], %{{.+}} : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
// CLAMP-LABEL: func.func @epsilon_flush_keeps_consumer_fp32
// CLAMP: tosa.add %{{.+}}, %{{.+}} : (tensor<2x2xf16>, tensor<2x2xf16>) -> tensor<2x2xf16>
func.func @epsilon_flush_keeps_consumer_fp32(%a: tensor<2x2xf32>, %b: tensor<2x2xf32>, %c: tensor<2x2xf32>) -> tensor<2x2xf32> {
  %m = linalg.matmul ins(%a, %b : tensor<2x2xf32>, tensor<2x2xf32>) outs(%c : tensor<2x2xf32>) -> tensor<2x2xf32>
  // expected-remark@+1 {{constant does not fit 'f16' (0 overflow, 4 flush to zero): its consumers stay in FP32}}
  %eps = arith.constant dense<1.0e-12> : tensor<2x2xf32>
  %s = tosa.add %m, %eps : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  %r = linalg.matmul ins(%s, %b : tensor<2x2xf32>, tensor<2x2xf32>) outs(%c : tensor<2x2xf32>) -> tensor<2x2xf32>
  return %r : tensor<2x2xf32>
}

// -----

// Splat constants count all their elements.
// CHECK-LABEL: func.func @tiny_weights_fit_bf16_not_f16
// CHECK: linalg.matmul ins(%arg0, %{{.+}} : tensor<2x2xf32>, tensor<2x2xf32>)
func.func @tiny_weights_fit_bf16_not_f16(%a: tensor<2x2xf32>, %c: tensor<2x2xf32>) -> tensor<2x2xf32> {
  // expected-remark@+1 {{constant does not fit 'f16' (0 overflow, 4 flush to zero)}}
  %w = arith.constant dense<1.0e-12> : tensor<2x2xf32>
  %0 = linalg.matmul ins(%a, %w : tensor<2x2xf32>, tensor<2x2xf32>) outs(%c : tensor<2x2xf32>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

// -----

// One trained weight far below the others flushes to zero: negligible next to
// the tensor's largest value, so the matmul still converts (the value becomes
// 0 in f16, as round-to-nearest gives it, under clamp-constants as well).
// CHECK-LABEL: func.func @negligible_weight_flushes
// CHECK: %[[W:.+]] = arith.constant dense<{{\[}}[5.000000e-01, 0.000000e+00], [-0.000000e+00, 2.500000e-01]]> : tensor<2x2xf16>
// CHECK: linalg.matmul ins(%{{.+}}, %[[W]] : tensor<2x2xf16>, tensor<2x2xf16>)
// CLAMP-LABEL: func.func @negligible_weight_flushes
// CLAMP: arith.constant dense<{{\[}}[5.000000e-01, 0.000000e+00], [-0.000000e+00, 2.500000e-01]]> : tensor<2x2xf16>
func.func @negligible_weight_flushes(%a: tensor<2x2xf32>, %c: tensor<2x2xf32>) -> tensor<2x2xf32> {
  %w = arith.constant dense<[[0.5, 1.0e-9], [-3.0e-12, 0.25]]> : tensor<2x2xf32>
  %0 = linalg.matmul ins(%a, %w : tensor<2x2xf32>, tensor<2x2xf32>) outs(%c : tensor<2x2xf32>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

// -----

// The same values in a tensor of only tiny values are not negligible.
// CHECK-LABEL: func.func @all_tiny_weights_keep_fp32
// CHECK: linalg.matmul ins(%arg0, %{{.+}} : tensor<2x2xf32>, tensor<2x2xf32>)
func.func @all_tiny_weights_keep_fp32(%a: tensor<2x2xf32>, %c: tensor<2x2xf32>) -> tensor<2x2xf32> {
  // expected-remark@+1 {{constant does not fit 'f16' (0 overflow, 3 flush to zero): its consumers stay in FP32}}
  %w = arith.constant dense<[[2.0e-9, 1.0e-9], [-3.0e-12, 0.0]]> : tensor<2x2xf32>
  %0 = linalg.matmul ins(%a, %w : tensor<2x2xf32>, tensor<2x2xf32>) outs(%c : tensor<2x2xf32>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}
