// --amp-expand-fp8: FP8 truncf/extf become integer arithmetic (their
// numbers are checked against APFloat by unittests/Utils/FP8ConversionTest,
// which compiles and runs this expansion on every encoding and rounding
// boundary); what is not an FP8 conversion in round-to-nearest-even is left.
// RUN: amp-opt %s --amp-expand-fp8 | FileCheck %s

// CHECK-LABEL: func.func @trunc_e4m3(
// CHECK-SAME: %[[X:.+]]: f32
// CHECK: %[[U:.+]] = arith.bitcast %[[X]] : f32 to i32
// The largest finite value of E4M3FN is 0x7e (126): saturation.
// CHECK: %[[MAX:.+]] = arith.constant 126 : i32
// CHECK: arith.minui %{{.+}}, %[[MAX]] : i32
// CHECK: %[[B:.+]] = arith.trunci %{{.+}} : i32 to i8
// CHECK: %[[R:.+]] = arith.bitcast %[[B]] : i8 to f8E4M3FN
// CHECK: return %[[R]] : f8E4M3FN
func.func @trunc_e4m3(%x: f32) -> f8E4M3FN {
  %0 = arith.truncf %x : f32 to f8E4M3FN
  return %0 : f8E4M3FN
}

// E5M2 overflows to infinity, 0x7c (124).
// CHECK-LABEL: func.func @trunc_e5m2_tensor(
// CHECK: arith.bitcast %{{.+}} : tensor<8xf32> to tensor<8xi32>
// CHECK: arith.constant dense<124> : tensor<8xi32>
// CHECK: arith.trunci %{{.+}} : tensor<8xi32> to tensor<8xi8>
// CHECK: arith.bitcast %{{.+}} : tensor<8xi8> to tensor<8xf8E5M2>
func.func @trunc_e5m2_tensor(%x: tensor<8xf32>) -> tensor<8xf8E5M2> {
  %0 = arith.truncf %x : tensor<8xf32> to tensor<8xf8E5M2>
  return %0 : tensor<8xf8E5M2>
}

// CHECK-LABEL: func.func @ext_e5m2(
// CHECK: %[[B:.+]] = arith.bitcast %{{.+}} : vector<4xf8E5M2> to vector<4xi8>
// CHECK: arith.extui %[[B]] : vector<4xi8> to vector<4xi32>
// CHECK: %[[R:.+]] = arith.bitcast %{{.+}} : vector<4xi32> to vector<4xf32>
// CHECK: return %[[R]] : vector<4xf32>
func.func @ext_e5m2(%x: vector<4xf8E5M2>) -> vector<4xf32> {
  %0 = arith.extf %x : vector<4xf8E5M2> to vector<4xf32>
  return %0 : vector<4xf32>
}

// From f16: through an exact extension to f32.
// CHECK-LABEL: func.func @trunc_from_f16(
// CHECK: %[[W:.+]] = arith.extf %{{.+}} : f16 to f32
// CHECK: arith.bitcast %[[W]] : f32 to i32
func.func @trunc_from_f16(%x: f16) -> f8E5M2 {
  %0 = arith.truncf %x : f16 to f8E5M2
  return %0 : f8E5M2
}

// To f16: through f32, which holds every FP8 value.
// CHECK-LABEL: func.func @ext_to_f16(
// CHECK: %[[F:.+]] = arith.bitcast %{{.+}} : i32 to f32
// CHECK: arith.truncf %[[F]] : f32 to f16
func.func @ext_to_f16(%x: f8E4M3FN) -> f16 {
  %0 = arith.extf %x : f8E4M3FN to f16
  return %0 : f16
}

// CHECK-LABEL: func.func @other_rounding(
// CHECK: arith.truncf %{{.+}} to_nearest_away : f32 to f8E4M3FN
func.func @other_rounding(%x: f32) -> f8E4M3FN {
  %0 = arith.truncf %x to_nearest_away : f32 to f8E4M3FN
  return %0 : f8E4M3FN
}

// CHECK-LABEL: func.func @not_fp8(
// CHECK-NEXT: arith.truncf %{{.+}} : f32 to f16
func.func @not_fp8(%x: f32) -> f16 {
  %0 = arith.truncf %x : f32 to f16
  return %0 : f16
}
