// A linalg.matmul of FP32 inputs with few rows (the GPU tests convert it to
// mixed precision): the skinny kernel.
func.func @main(%a: tensor<1x1001xf32>, %b: tensor<1001x300xf32>) -> tensor<1x300xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x300xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<1x300xf32>) -> tensor<1x300xf32>
  %r = linalg.matmul ins(%a, %b : tensor<1x1001xf32>, tensor<1001x300xf32>) outs(%c : tensor<1x300xf32>) -> tensor<1x300xf32>
  return %r : tensor<1x300xf32>
}
