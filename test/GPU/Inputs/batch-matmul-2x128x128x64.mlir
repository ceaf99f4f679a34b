// A linalg.batch_matmul of FP32 inputs (the GPU tests convert it to mixed precision).
func.func @main(%a: tensor<2x128x128xf32>, %b: tensor<2x128x64xf32>) -> tensor<2x128x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x128x64xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<2x128x64xf32>) -> tensor<2x128x64xf32>
  %r = linalg.batch_matmul ins(%a, %b : tensor<2x128x128xf32>, tensor<2x128x64xf32>) outs(%c : tensor<2x128x64xf32>) -> tensor<2x128x64xf32>
  return %r : tensor<2x128x64xf32>
}
