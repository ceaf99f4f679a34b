// RUN: amp-opt %s --split-input-file --allow-unregistered-dialect --verify-diagnostics \
// RUN:   --amp-mixed-precision=keep-io-types=false | FileCheck %s

// Regression test (found by amp-graphgen): with keep-io-types=false the pass
// changed a public function's signature, then looked for its call sites; when
// they could not be found (an unregistered op with a region may hide symbol
// uses) it changed none of them and produced invalid IR ('func.call' op
// operand type mismatch). A signature now changes only when every use of the
// function is a call that is updated with it; otherwise it is kept, with a
// remark.

// CHECK-LABEL: func.func @callee
// CHECK-SAME: (%{{.+}}: tensor<4x4xf32>, %{{.+}}: tensor<4x4xf32>) -> tensor<4x4xf32>
// expected-remark@+1 {{keep-io-types=false: the signature of @callee is kept: not all of its uses are calls that can be updated}}
func.func @callee(%a: tensor<4x4xf32>, %init: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %m = linalg.matmul ins(%a, %a : tensor<4x4xf32>, tensor<4x4xf32>) outs(%init : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %m : tensor<4x4xf32>
}
// CHECK-LABEL: func.func @caller
// CHECK: call @callee(%{{.+}}, %{{.+}}) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
// expected-remark@+1 {{1 op of 1 kind has no mixed-precision color and stays in FP32: foo.region (1)}}
func.func @caller(%x: tensor<4x4xf32>, %i: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %r = call @callee(%x, %i) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %u = "foo.region"(%r) ({
    "foo.yield"() : () -> ()
  }) : (tensor<4x4xf32>) -> tensor<4x4xf32>
  return %u : tensor<4x4xf32>
}

// -----

// The function's symbol is used by something other than a call.
// CHECK-LABEL: func.func @referenced
// CHECK-SAME: (%{{.+}}: tensor<4x4xf32>, %{{.+}}: tensor<4x4xf32>) -> tensor<4x4xf32>
// expected-remark@+1 {{keep-io-types=false: the signature of @referenced is kept}}
func.func @referenced(%a: tensor<4x4xf32>, %init: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %m = linalg.matmul ins(%a, %a : tensor<4x4xf32>, tensor<4x4xf32>) outs(%init : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %m : tensor<4x4xf32>
}
func.func @user() {
  "foo.register"() {fn = @referenced} : () -> ()
  return
}

// -----

// When every use is a call, the signature and the calls change together.
// CHECK-LABEL: func.func @callee
// CHECK-SAME: (%{{.+}}: tensor<4x4xf16>, %{{.+}}: tensor<4x4xf32>) -> tensor<4x4xf32>
func.func @callee(%a: tensor<4x4xf32>, %init: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %m = linalg.matmul ins(%a, %a : tensor<4x4xf32>, tensor<4x4xf32>) outs(%init : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %m : tensor<4x4xf32>
}
// CHECK-LABEL: func.func @caller
// CHECK: %[[LOW:.+]] = arith.truncf
// CHECK: call @callee(%[[LOW]], %{{.+}}) : (tensor<4x4xf16>, tensor<4x4xf32>) -> tensor<4x4xf32>
func.func @caller(%x: tensor<4x4xf32>, %i: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %e = math.exp %x : tensor<4x4xf32>
  %r = call @callee(%e, %i) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  return %r : tensor<4x4xf32>
}
