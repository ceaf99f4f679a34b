// A user policy given as a pass option, and reported as the reason.
// RUN: amp-opt %s "--amp-mixed-precision=policy=#amp_test.conv_mac_threshold<100000> report=-" -o /dev/null | FileCheck %s

// CHECK: "op": "tosa.conv2d"
// CHECK-NEXT: "loc": "{{.*}}mixed-precision-user-policy-option.mlir:[[@LINE+6]]:{{[0-9]+}}"
// CHECK-NEXT: "color": "gray"
// CHECK-NEXT: "reason": "policy"
// CHECK-NEXT: "converted": false
func.func @f(%in: tensor<1x8x8x4xf32>, %w: tensor<6x3x3x4xf32>, %b: tensor<6xf32>) -> tensor<1x6x6x6xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.conv2d %in, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x8x8x4xf32>, tensor<6x3x3x4xf32>, tensor<6xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x6x6x6xf32>
  return %0 : tensor<1x6x6x6xf32>
}
