// --amp-recast on TOSA layers follows TOSA 1.0's type rules (output,
// accumulation and bias types), uses tosa.cast for the conversions, and
// produces IR that TOSA's validation accepts for the profiles and extensions
// involved.
// DEFINE: %{validate} = %mlir-opt --tosa-attach-target="specification_version=1.0 profiles=pro_int,pro_fp extensions=bf16,fp8e4m3,fp8e5m2" --tosa-validate -o /dev/null
// RUN: amp-opt %s --amp-recast | FileCheck %s
// RUN: amp-opt %s --amp-recast | %{validate}
// RUN: amp-opt %s "--amp-recast=type=f16 accumulate-type=f16" | FileCheck %s --check-prefix=F16ACC
// RUN: amp-opt %s "--amp-recast=type=f16 accumulate-type=f16" | %{validate}
// RUN: amp-opt %s --amp-recast=type=bf16 | FileCheck %s --check-prefix=BF16
// RUN: amp-opt %s --amp-recast=type=bf16 | %{validate}
// RUN: amp-opt %s "--amp-recast=type=f8E4M3FN accumulate-type=f16" | FileCheck %s --check-prefix=F8
// RUN: amp-opt %s "--amp-recast=type=f8E4M3FN accumulate-type=f16" | %{validate}
// RUN: amp-opt %s "--amp-recast=type=f8E5M2 accumulate-type=f16" | %{validate}
// RUN: amp-opt %s --amp-recast=type=i8 | FileCheck %s --check-prefix=I8
// RUN: amp-opt %s --amp-recast=type=i8 | %{validate}

// CHECK-LABEL: func.func @conv2d
// CHECK: %[[X:.+]] = tosa.cast %{{.+}} : (tensor<1x8x8x3xf32>) -> tensor<1x8x8x3xf16>
// CHECK-DAG: %[[W:.+]] = "tosa.const"() <{values = dense<5.000000e-01> : tensor<4x3x3x3xf16>}>
// CHECK-DAG: %[[B:.+]] = "tosa.const"() <{values = dense<2.500000e-01> : tensor<4xf16>}>
// CHECK-DAG: %[[ZP:.+]] = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf16>}>
// CHECK: %[[C:.+]] = tosa.conv2d %[[X]], %[[W]], %[[B]], %[[ZP]], %[[ZP]] {acc_type = f32, {{.*}}} : ({{.*}}) -> tensor<1x8x8x4xf16>
// CHECK: %[[R:.+]] = tosa.cast %[[C]] : (tensor<1x8x8x4xf16>) -> tensor<1x8x8x4xf32>
// CHECK: return %[[R]]
// F16ACC-LABEL: func.func @conv2d
// F16ACC: tosa.conv2d {{.*}} {acc_type = f16, {{.*}}} : ({{.*}}) -> tensor<1x8x8x4xf16>
// BF16-LABEL: func.func @conv2d
// BF16: tosa.conv2d {{.*}} {acc_type = f32, {{.*}}} : (tensor<1x8x8x3xbf16>, tensor<4x3x3x3xbf16>, tensor<4xbf16>, tensor<1xbf16>, tensor<1xbf16>) -> tensor<1x8x8x4xbf16>
// F8-LABEL: func.func @conv2d
// F8: tosa.conv2d {{.*}} {acc_type = f16, {{.*}}} : (tensor<1x8x8x3xf8E4M3FN>, tensor<4x3x3x3xf8E4M3FN>, tensor<4xf16>, tensor<1xf8E4M3FN>, tensor<1xf8E4M3FN>) -> tensor<1x8x8x4xf16>
// I8-LABEL: func.func @conv2d
// I8: %[[X:.+]] = tosa.cast %{{.+}} : (tensor<1x8x8x3xf32>) -> tensor<1x8x8x3xi8>
// I8: tosa.conv2d %[[X]], {{.*}} {acc_type = i32, {{.*}}} : (tensor<1x8x8x3xi8>, tensor<4x3x3x3xi8>, tensor<4xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x8x8x4xi32>
// I8: tosa.cast %{{.+}} : (tensor<1x8x8x4xi32>) -> tensor<1x8x8x4xf32>
func.func @conv2d(%x: tensor<1x8x8x3xf32>) -> tensor<1x8x8x4xf32> {
  %w = "tosa.const"() <{values = dense<0.5> : tensor<4x3x3x3xf32>}> : () -> tensor<4x3x3x3xf32>
  %b = "tosa.const"() <{values = dense<0.25> : tensor<4xf32>}> : () -> tensor<4xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>}
      : (tensor<1x8x8x3xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x8x8x4xf32>
  return %0 : tensor<1x8x8x4xf32>
}

// CHECK-LABEL: func.func @depthwise_conv2d
// CHECK: tosa.depthwise_conv2d {{.*}} {acc_type = f32, {{.*}}} : (tensor<1x8x8x4xf16>, tensor<3x3x4x1xf16>, tensor<4xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x8x8x4xf16>
// I8-LABEL: func.func @depthwise_conv2d
// I8: tosa.depthwise_conv2d {{.*}} : (tensor<1x8x8x4xi8>, tensor<3x3x4x1xi8>, tensor<4xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x8x8x4xi32>
func.func @depthwise_conv2d(%x: tensor<1x8x8x4xf32>, %w: tensor<3x3x4x1xf32>) -> tensor<1x8x8x4xf32> {
  %b = "tosa.const"() <{values = dense<0.0> : tensor<4xf32>}> : () -> tensor<4xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.depthwise_conv2d %x, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>}
      : (tensor<1x8x8x4xf32>, tensor<3x3x4x1xf32>, tensor<4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x8x8x4xf32>
  return %0 : tensor<1x8x8x4xf32>
}

// The result of tosa.matmul has the accumulation type.
// CHECK-LABEL: func.func @matmul
// CHECK: %[[M:.+]] = tosa.matmul {{.*}} : (tensor<1x4x8xf16>, tensor<1x8x2xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x4x2xf32>
// CHECK: return %[[M]]
// F16ACC-LABEL: func.func @matmul
// F16ACC: tosa.matmul {{.*}} -> tensor<1x4x2xf16>
// F16ACC: tosa.cast %{{.+}} : (tensor<1x4x2xf16>) -> tensor<1x4x2xf32>
// BF16-LABEL: func.func @matmul
// BF16: tosa.matmul {{.*}} : (tensor<1x4x8xbf16>, tensor<1x8x2xbf16>, tensor<1xbf16>, tensor<1xbf16>) -> tensor<1x4x2xf32>
// F8-LABEL: func.func @matmul
// F8: tosa.matmul {{.*}} : (tensor<1x4x8xf8E4M3FN>, tensor<1x8x2xf8E4M3FN>, tensor<1xf8E4M3FN>, tensor<1xf8E4M3FN>) -> tensor<1x4x2xf16>
// I8-LABEL: func.func @matmul
// I8: tosa.matmul {{.*}} : (tensor<1x4x8xi8>, tensor<1x8x2xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x4x2xi32>
func.func @matmul(%a: tensor<1x4x8xf32>, %b: tensor<1x8x2xf32>) -> tensor<1x4x2xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.matmul %a, %b, %zp, %zp : (tensor<1x4x8xf32>, tensor<1x8x2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x2xf32>
  return %0 : tensor<1x4x2xf32>
}

// TOSA poolings are layers but not selected by default.
// CHECK-LABEL: func.func @negative_pool_not_selected
// CHECK: tosa.max_pool2d {{.*}} : (tensor<1x8x8x4xf32>) -> tensor<1x4x4x4xf32>
func.func @negative_pool_not_selected(%x: tensor<1x8x8x4xf32>) -> tensor<1x4x4x4xf32> {
  %0 = tosa.max_pool2d %x {kernel = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<1x8x8x4xf32>) -> tensor<1x4x4x4xf32>
  return %0 : tensor<1x4x4x4xf32>
}
