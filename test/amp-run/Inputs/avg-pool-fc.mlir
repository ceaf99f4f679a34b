// A global average pool written as a sum over the 7x7 window and a division
// by 49, then a fully connected layer. On inputs near 1850 the sum reaches
// about 9e4, beyond f16 (65504); the mean is about 1850 again.
#nhwc = affine_map<(n, h, w, c) -> (n, h, w, c)>
#nc = affine_map<(n, h, w, c) -> (n, c)>
#id = affine_map<(n, c) -> (n, c)>
func.func @avg_pool_fc(%x: tensor<1x7x7x64xf32>) -> tensor<1x10xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x64xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1x64xf32>) -> tensor<1x64xf32>
  %sum = linalg.generic {indexing_maps = [#nhwc, #nc], iterator_types = ["parallel", "reduction", "reduction", "parallel"]}
      ins(%x : tensor<1x7x7x64xf32>) outs(%init : tensor<1x64xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %acc, %in : f32
    linalg.yield %s : f32
  } -> tensor<1x64xf32>
  %c49 = arith.constant 49.0 : f32
  %mean = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%sum : tensor<1x64xf32>) outs(%e : tensor<1x64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %d = arith.divf %in, %c49 : f32
    linalg.yield %d : f32
  } -> tensor<1x64xf32>
  %w = arith.constant dense<0.01> : tensor<64x10xf32>
  %e2 = tensor.empty() : tensor<1x10xf32>
  %z2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<1x10xf32>) -> tensor<1x10xf32>
  %fc = linalg.matmul ins(%mean, %w : tensor<1x64xf32>, tensor<64x10xf32>) outs(%z2 : tensor<1x10xf32>) -> tensor<1x10xf32>
  return %fc : tensor<1x10xf32>
}
