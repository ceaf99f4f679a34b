// A linalg.matmul of FP32 inputs with few rows (the GPU tests convert it to
// mixed precision): the skinny kernel.
func.func @main(%a: tensor<16x520xf32>, %b: tensor<520x33xf32>) -> tensor<16x33xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x33xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<16x33xf32>) -> tensor<16x33xf32>
  %r = linalg.matmul ins(%a, %b : tensor<16x520xf32>, tensor<520x33xf32>) outs(%c : tensor<16x33xf32>) -> tensor<16x33xf32>
  return %r : tensor<16x33xf32>
}
