// A matmul of odd sizes (200 x 136 x 96) and what follows it in a
// transformer's FFN or an MLP: bias, GELU (erf form), a residual add. Every
// kernel kind computes the elementwise part in its epilogue.
#bias = affine_map<(i, j) -> (j)>
#id = affine_map<(i, j) -> (i, j)>
func.func @main(%x: tensor<200x136xf32>, %w: tensor<136x96xf32>, %b: tensor<96xf32>,
                %r: tensor<200x96xf32>) -> tensor<200x96xf32> {
  %zero = arith.constant 0.0 : f32
  %half = arith.constant 0.5 : f32
  %one = arith.constant 1.0 : f32
  %rsqrt2 = arith.constant 0.70710678 : f32
  %e = tensor.empty() : tensor<200x96xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<200x96xf32>) -> tensor<200x96xf32>
  %m = linalg.matmul ins(%x, %w : tensor<200x136xf32>, tensor<136x96xf32>) outs(%c : tensor<200x96xf32>) -> tensor<200x96xf32>
  %y = linalg.generic {indexing_maps = [#id, #bias, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%m, %b, %r : tensor<200x96xf32>, tensor<96xf32>, tensor<200x96xf32>) outs(%e : tensor<200x96xf32>) {
  ^bb0(%in: f32, %bi: f32, %res: f32, %o: f32):
    %s = arith.addf %in, %bi : f32
    %t = arith.mulf %s, %rsqrt2 : f32
    %erf = math.erf %t : f32
    %p = arith.addf %erf, %one : f32
    %g = arith.mulf %s, %p : f32
    %g2 = arith.mulf %g, %half : f32
    %out = arith.addf %g2, %res : f32
    linalg.yield %out : f32
  } -> tensor<200x96xf32>
  return %y : tensor<200x96xf32>
}
