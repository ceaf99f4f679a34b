// A two-layer MLP with a ReLU (linalg.max) between the matmuls: the input of
// test/Transforms/plan-apply-edit.test.
func.func @mlp(%x: tensor<8x64xf32>, %w1: tensor<64x64xf32>, %w2: tensor<64x16xf32>) -> tensor<8x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<8x64xf32>
  %i1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<8x64xf32>) -> tensor<8x64xf32>
  %h = linalg.matmul ins(%x, %w1 : tensor<8x64xf32>, tensor<64x64xf32>) outs(%i1 : tensor<8x64xf32>) -> tensor<8x64xf32>
  %r = linalg.max ins(%h, %i1 : tensor<8x64xf32>, tensor<8x64xf32>) outs(%e1 : tensor<8x64xf32>) -> tensor<8x64xf32>
  %e2 = tensor.empty() : tensor<8x16xf32>
  %i2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<8x16xf32>) -> tensor<8x16xf32>
  %y = linalg.matmul ins(%r, %w2 : tensor<8x64xf32>, tensor<64x16xf32>) outs(%i2 : tensor<8x16xf32>) -> tensor<8x16xf32>
  return %y : tensor<8x16xf32>
}
