// RUN: amp-opt %s --allow-unregistered-dialect --amp-mixed-precision="gray=foo.pair" --verify-diagnostics | FileCheck %s

// An unknown op told to follow its inputs whose rewrite fails (here a
// region op, which the default rewrite cannot retype) stays as it was, with
// a remark; the IR stays valid.
// CHECK-LABEL: func.func @region_op
// CHECK: "foo.pair"(%{{.+}}) ({
// CHECK: }) : (tensor<8x8xf32>) -> tensor<8x8xf32>
func.func @region_op(%a: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %m = linalg.matmul ins(%a, %a : tensor<8x8xf32>, tensor<8x8xf32>) outs(%a : tensor<8x8xf32>) -> tensor<8x8xf32>
  // expected-remark@+1 {{'foo.pair' stays in FP32: it could not be rebuilt in 'f16'}}
  %s = "foo.pair"(%m) ({
    "foo.yield"() : () -> ()
  }) : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %r = linalg.matmul ins(%s, %a : tensor<8x8xf32>, tensor<8x8xf32>) outs(%a : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %r : tensor<8x8xf32>
}
