// A linalg.matmul of FP32 inputs (the GPU tests convert it to mixed precision).
func.func @main(%a: tensor<136x520xf32>, %b: tensor<520x264xf32>) -> tensor<136x264xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<136x264xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<136x264xf32>) -> tensor<136x264xf32>
  %r = linalg.matmul ins(%a, %b : tensor<136x520xf32>, tensor<520x264xf32>) outs(%c : tensor<136x264xf32>) -> tensor<136x264xf32>
  return %r : tensor<136x264xf32>
}
