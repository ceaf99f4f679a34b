// The pass also runs nested on each function; then each function is
// converted on its own and keeps its signature.
// RUN: amp-opt %s --pass-pipeline="builtin.module(func.func(amp-mixed-precision))" | FileCheck %s --check-prefixes=CHECK,NESTED
// On a module, it converts every function nested in it, also in inner
// symbol tables.
// RUN: amp-opt %s --amp-mixed-precision | FileCheck %s --check-prefixes=CHECK,MODULE

// CHECK-LABEL: func.func @f(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32>
// CHECK: linalg.matmul ins(%{{.+}}, %{{.+}} : tensor<8x8xf16>, tensor<8x8xf16>)
func.func @f(%a: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %m = linalg.matmul ins(%a, %a : tensor<8x8xf32>, tensor<8x8xf32>) outs(%a : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %m : tensor<8x8xf32>
}

// CHECK-LABEL: module @inner
// NESTED: linalg.matmul ins(%{{.+}}, %{{.+}} : tensor<8x8xf32>, tensor<8x8xf32>)
// MODULE: linalg.matmul ins(%{{.+}}, %{{.+}} : tensor<8x8xf16>, tensor<8x8xf16>)
module @inner {
  func.func @g(%a: tensor<8x8xf32>) -> tensor<8x8xf32> {
    %m = linalg.matmul ins(%a, %a : tensor<8x8xf32>, tensor<8x8xf32>) outs(%a : tensor<8x8xf32>) -> tensor<8x8xf32>
    return %m : tensor<8x8xf32>
  }
}
