// A linalg.matmul of FP32 inputs with few rows (the GPU tests convert it to
// mixed precision): the skinny kernel.
func.func @main(%a: tensor<3x45xf32>, %b: tensor<45x70xf32>) -> tensor<3x70xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3x70xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<3x70xf32>) -> tensor<3x70xf32>
  %r = linalg.matmul ins(%a, %b : tensor<3x45xf32>, tensor<45x70xf32>) outs(%c : tensor<3x70xf32>) -> tensor<3x70xf32>
  return %r : tensor<3x70xf32>
}
