// RUN: amp-opt %s --amp-mixed-precision="gray-strategy=fewest-casts keep-io-types=false" -o %t.once.mlir
// RUN: amp-opt %t.once.mlir --amp-mixed-precision="gray-strategy=fewest-casts keep-io-types=false" -o %t.twice.mlir
// RUN: diff %t.once.mlir %t.twice.mlir
// RUN: FileCheck %s --input-file=%t.once.mlir

// Regression test (found by amp-graphgen: "a second run changed the IR"):
// with keep-io-types=false the signatures changed after every function had
// been converted, so a caller converted before its callee's result became
// f16 kept FP32 code that a second run then converted (and its call site
// held an extf/truncf round trip). Callees are now converted and their
// signatures updated before their callers.

// CHECK-LABEL: func.func @caller
// CHECK: %[[R:.+]] = call @callee(%{{.+}}) : (tensor<8x8xf16>) -> tensor<8x8xf16>
// CHECK-NOT: arith.extf
// CHECK: %[[T:.+]] = math.tanh %[[R]] : tensor<8x8xf16>
// CHECK: return %[[T]] : tensor<8x8xf16>
func.func @caller(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %r = call @callee(%x) : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %t = math.tanh %r : tensor<8x8xf32>
  return %t : tensor<8x8xf32>
}

// CHECK-LABEL: func.func @callee
// CHECK-SAME: (%{{.+}}: tensor<8x8xf16>) -> tensor<8x8xf16>
func.func @callee(%a: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x8xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
  %m = linalg.matmul ins(%a, %a : tensor<8x8xf32>, tensor<8x8xf32>) outs(%init : tensor<8x8xf32>) -> tensor<8x8xf32>
  %n = math.absf %m : tensor<8x8xf32>
  return %n : tensor<8x8xf32>
}
