// A linalg.matmul of FP32 inputs (the GPU tests convert it to mixed precision).
func.func @main(%a: tensor<33x17xf32>, %b: tensor<17x45xf32>) -> tensor<33x45xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<33x45xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<33x45xf32>) -> tensor<33x45xf32>
  %r = linalg.matmul ins(%a, %b : tensor<33x17xf32>, tensor<17x45xf32>) outs(%c : tensor<33x45xf32>) -> tensor<33x45xf32>
  return %r : tensor<33x45xf32>
}
