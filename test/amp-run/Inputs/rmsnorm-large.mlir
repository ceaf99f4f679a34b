// An RMSNorm over scaled activations that reach about 1e5 on inputs in
// [0, 1): fine in FP32, where the norm brings them back to about 1; in f16
// (largest finite 65504) the scaled values are `inf` and the outputs NaN.
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @rmsnorm(%x: tensor<4x64xf32>, %w: tensor<64x256xf32>) -> tensor<4x256xf32> {
  %zero = arith.constant 0.0 : f32
  %scale = arith.constant 5000.0 : f32
  %n = arith.constant 256.0 : f32
  %eps = arith.constant 1.0e-5 : f32
  %e = tensor.empty() : tensor<4x256xf32>
  %i = linalg.fill ins(%zero : f32) outs(%e : tensor<4x256xf32>) -> tensor<4x256xf32>
  %h0 = linalg.matmul ins(%x, %w : tensor<4x64xf32>, tensor<64x256xf32>)
                      outs(%i : tensor<4x256xf32>) -> tensor<4x256xf32>
  %h = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%h0 : tensor<4x256xf32>) outs(%e : tensor<4x256xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.mulf %a, %scale : f32
    linalg.yield %s : f32
  } -> tensor<4x256xf32>
  %sq = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%h : tensor<4x256xf32>) outs(%e : tensor<4x256xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.mulf %a, %a : f32
    linalg.yield %m : f32
  } -> tensor<4x256xf32>
  %er = tensor.empty() : tensor<4xf32>
  %ir = linalg.fill ins(%zero : f32) outs(%er : tensor<4xf32>) -> tensor<4xf32>
  %ss = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%sq : tensor<4x256xf32>) outs(%ir : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %a, %o : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  %y = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%h, %ss : tensor<4x256xf32>, tensor<4xf32>) outs(%e : tensor<4x256xf32>) {
  ^bb0(%a: f32, %s: f32, %o: f32):
    %m = arith.divf %s, %n : f32
    %v = arith.addf %m, %eps : f32
    %r = math.rsqrt %v : f32
    %y = arith.mulf %a, %r : f32
    linalg.yield %y : f32
  } -> tensor<4x256xf32>
  return %y : tensor<4x256xf32>
}
