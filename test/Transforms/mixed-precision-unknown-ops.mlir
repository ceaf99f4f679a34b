// RUN: amp-opt %s --allow-unregistered-dialect --amp-mixed-precision --verify-diagnostics | FileCheck %s --check-prefix=RED
// RUN: amp-opt %s --allow-unregistered-dialect --amp-mixed-precision=unknown-ops=gray | FileCheck %s --check-prefix=GRAY
// RUN: amp-opt %s --allow-unregistered-dialect --amp-mixed-precision=gray=foo.scale | FileCheck %s --check-prefix=GRAY

// An op amp knows nothing about stays in FP32 (with a remark) by default; it
// can be told to follow its inputs. The registered ops around it convert.
// RED-LABEL: func.func @unknown_op
// RED: %[[M:.+]] = linalg.matmul
// RED: %[[S:.+]] = "foo.scale"(%[[M]]) : (tensor<8x8xf32>) -> tensor<8x8xf32>
// RED: %[[S16:.+]] = arith.truncf %[[S]]
// RED: linalg.matmul ins(%[[S16]]
// GRAY-LABEL: func.func @unknown_op
// GRAY: %[[M:.+]] = linalg.matmul
// GRAY: %[[M16:.+]] = arith.truncf %[[M]]
// GRAY: %[[S:.+]] = "foo.scale"(%[[M16]]) : (tensor<8x8xf16>) -> tensor<8x8xf16>
// GRAY: linalg.matmul ins(%[[S]]
func.func @unknown_op(%a: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %m = linalg.matmul ins(%a, %a : tensor<8x8xf32>, tensor<8x8xf32>) outs(%a : tensor<8x8xf32>) -> tensor<8x8xf32>
  // expected-remark@+1 {{'foo.scale' has no mixed-precision color: it stays in FP32 (choose one with green=, gray=, red= or amp.color)}}
  %s = "foo.scale"(%m) : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %r = linalg.matmul ins(%s, %a : tensor<8x8xf32>, tensor<8x8xf32>) outs(%a : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %r : tensor<8x8xf32>
}

// Ops without float data are not unknown ops: no remark.
// RED-LABEL: func.func @no_float_data
func.func @no_float_data(%i: i32) -> i32 {
  %r = "foo.count"(%i) : (i32) -> i32
  return %r : i32
}
