// A three-layer MLP (bias, ReLU) for FP8 tests: with --randomize-weights,
// its three matmuls run in FP8 once calibrated, the bias adds and ReLUs as
// the 16-bit plan decides.
func.func @mlp(%x: tensor<16x64xf32>) -> tensor<16x32xf32> {
  %w1 = arith.constant dense<0.5> : tensor<64x128xf32>
  %w2 = arith.constant dense<0.5> : tensor<128x128xf32>
  %w3 = arith.constant dense<0.5> : tensor<128x32xf32>
  %b = arith.constant dense<0.25> : tensor<16x128xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x128xf32>
  %i = linalg.fill ins(%zero : f32) outs(%e : tensor<16x128xf32>) -> tensor<16x128xf32>
  %h1 = linalg.matmul ins(%x, %w1 : tensor<16x64xf32>, tensor<64x128xf32>)
                      outs(%i : tensor<16x128xf32>) -> tensor<16x128xf32>
  %a1 = linalg.add ins(%h1, %b : tensor<16x128xf32>, tensor<16x128xf32>)
                   outs(%e : tensor<16x128xf32>) -> tensor<16x128xf32>
  %zeros = linalg.fill ins(%zero : f32) outs(%e : tensor<16x128xf32>) -> tensor<16x128xf32>
  %r1 = linalg.max ins(%a1, %zeros : tensor<16x128xf32>, tensor<16x128xf32>)
                   outs(%e : tensor<16x128xf32>) -> tensor<16x128xf32>
  %h2 = linalg.matmul ins(%r1, %w2 : tensor<16x128xf32>, tensor<128x128xf32>)
                      outs(%i : tensor<16x128xf32>) -> tensor<16x128xf32>
  %r2 = linalg.max ins(%h2, %zeros : tensor<16x128xf32>, tensor<16x128xf32>)
                   outs(%e : tensor<16x128xf32>) -> tensor<16x128xf32>
  %e3 = tensor.empty() : tensor<16x32xf32>
  %i3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<16x32xf32>) -> tensor<16x32xf32>
  %y = linalg.matmul ins(%r2, %w3 : tensor<16x128xf32>, tensor<128x32xf32>)
                     outs(%i3 : tensor<16x32xf32>) -> tensor<16x32xf32>
  return %y : tensor<16x32xf32>
}
