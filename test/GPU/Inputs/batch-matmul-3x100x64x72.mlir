// A linalg.batch_matmul of FP32 inputs (the GPU tests convert it to mixed precision).
func.func @main(%a: tensor<3x100x64xf32>, %b: tensor<3x64x72xf32>) -> tensor<3x100x72xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3x100x72xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<3x100x72xf32>) -> tensor<3x100x72xf32>
  %r = linalg.batch_matmul ins(%a, %b : tensor<3x100x64xf32>, tensor<3x64x72xf32>) outs(%c : tensor<3x100x72xf32>) -> tensor<3x100x72xf32>
  return %r : tensor<3x100x72xf32>
}
