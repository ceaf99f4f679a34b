// RUN: amp-opt %s --pass-pipeline="builtin.module(func.func(amp-mixed-precision{keep-io-types=false}))" --verify-diagnostics | FileCheck %s

// Running on one function, the pass cannot update call sites elsewhere: it
// keeps the signature and says so.
// CHECK: func.func @f(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32>
// expected-warning@+1 {{keep-io-types=false changes signatures only when amp-mixed-precision runs on a module (call sites must change too): the signature of this function is kept}}
func.func @f(%a: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %m = linalg.matmul ins(%a, %a : tensor<8x8xf32>, tensor<8x8xf32>) outs(%a : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %m : tensor<8x8xf32>
}
