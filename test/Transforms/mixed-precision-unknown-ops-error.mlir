// RUN: amp-opt %s --allow-unregistered-dialect --amp-mixed-precision=unknown-ops=error --verify-diagnostics

func.func @unknown_op(%a: tensor<8x8xf32>) -> tensor<8x8xf32> {
  // expected-error@+1 {{'foo.scale' has no mixed-precision color (unknown-ops=error); give it one with green=, gray=, red= or an amp.color annotation}}
  %s = "foo.scale"(%a) : (tensor<8x8xf32>) -> tensor<8x8xf32>
  return %s : tensor<8x8xf32>
}
