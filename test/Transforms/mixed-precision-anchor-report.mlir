// RUN: amp-opt %s --pass-pipeline="builtin.module(func.func(amp-mixed-precision{report=%t.json}))" --verify-diagnostics
// RUN: not test -e %t.json

// expected-error@+1 {{report= needs amp-mixed-precision to run on a module, not on each function}}
func.func @f(%a: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %m = linalg.matmul ins(%a, %a : tensor<8x8xf32>, tensor<8x8xf32>) outs(%a : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %m : tensor<8x8xf32>
}
