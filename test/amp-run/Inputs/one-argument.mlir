// A one-argument FP32 model: a matmul with a constant weight (for .npy
// samples).
func.func @project(%x: tensor<4x16xf32>) -> tensor<4x8xf32> {
  %w = arith.constant dense<0.125> : tensor<16x8xf32>
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<4x8xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<4x8xf32>) -> tensor<4x8xf32>
  %y = linalg.matmul ins(%x, %w : tensor<4x16xf32>, tensor<16x8xf32>)
                     outs(%init : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}
