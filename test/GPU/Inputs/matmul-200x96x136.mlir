// A linalg.matmul of FP32 inputs (the GPU tests convert it to mixed precision).
func.func @main(%a: tensor<200x96xf32>, %b: tensor<96x136xf32>) -> tensor<200x136xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<200x136xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<200x136xf32>) -> tensor<200x136xf32>
  %r = linalg.matmul ins(%a, %b : tensor<200x96xf32>, tensor<96x136xf32>) outs(%c : tensor<200x136xf32>) -> tensor<200x136xf32>
  return %r : tensor<200x136xf32>
}
