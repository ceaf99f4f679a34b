// A two-layer MLP whose hidden activations reach about 1.3e5 on inputs in
// [0, 1): fine in FP32, `inf` everywhere once the first matmul's output is
// f16 (largest finite 65504). The scale brings them back to about 130
// before the second matmul, which is safe in f16.
func.func @mlp(%x: tensor<8x64xf32>) -> tensor<8x16xf32> {
  %w1 = arith.constant dense<4000.0> : tensor<64x64xf32>
  %w2 = arith.constant dense<0.01> : tensor<64x16xf32>
  %scale = arith.constant dense<1.0e-3> : tensor<8x64xf32>
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<8x64xf32>
  %i1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<8x64xf32>) -> tensor<8x64xf32>
  %h = linalg.matmul ins(%x, %w1 : tensor<8x64xf32>, tensor<64x64xf32>)
                     outs(%i1 : tensor<8x64xf32>) -> tensor<8x64xf32>
  %s = linalg.mul ins(%h, %scale : tensor<8x64xf32>, tensor<8x64xf32>)
                  outs(%e1 : tensor<8x64xf32>) -> tensor<8x64xf32>
  %e2 = tensor.empty() : tensor<8x16xf32>
  %i2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<8x16xf32>) -> tensor<8x16xf32>
  %y = linalg.matmul ins(%s, %w2 : tensor<8x64xf32>, tensor<64x16xf32>)
                     outs(%i2 : tensor<8x16xf32>) -> tensor<8x16xf32>
  return %y : tensor<8x16xf32>
}
