// Models whose FP32 output cannot show an error of a conversion, one per
// kind amp-run and amp-tune flag (--entry picks one), and a softmax that is
// fine on inputs in [-1, 1) but saturates (one-hot rows) on [-1000, 1000).
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>

// 0 everywhere: min(|x|, 0) after a matmul.
func.func @zeros(%x: tensor<4x16xf32>, %w: tensor<16x8xf32>) -> tensor<4x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x8xf32>
  %i = linalg.fill ins(%zero : f32) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %m = linalg.matmul ins(%x, %w : tensor<4x16xf32>, tensor<16x8xf32>) outs(%i : tensor<4x8xf32>) -> tensor<4x8xf32>
  %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%m : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %b = math.absf %a : f32
    %c = arith.minimumf %b, %zero : f32
    linalg.yield %c : f32
  } -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}

// The same value everywhere: the matmul times 0, plus 3.
func.func @constant(%x: tensor<4x16xf32>, %w: tensor<16x8xf32>) -> tensor<4x8xf32> {
  %zero = arith.constant 0.0 : f32
  %three = arith.constant 3.0 : f32
  %e = tensor.empty() : tensor<4x8xf32>
  %i = linalg.fill ins(%zero : f32) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %m = linalg.matmul ins(%x, %w : tensor<4x16xf32>, tensor<16x8xf32>) outs(%i : tensor<4x8xf32>) -> tensor<4x8xf32>
  %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%m : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %b = arith.mulf %a, %zero : f32
    %c = arith.addf %b, %three : f32
    linalg.yield %c : f32
  } -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}

// A softmax over the matmul's rows.
func.func @softmax(%x: tensor<4x16xf32>, %w: tensor<16x8xf32>) -> tensor<4x8xf32> {
  %zero = arith.constant 0.0 : f32
  %lowest = arith.constant -3.40282347E+38 : f32
  %e = tensor.empty() : tensor<4x8xf32>
  %er = tensor.empty() : tensor<4xf32>
  %i = linalg.fill ins(%zero : f32) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %m = linalg.matmul ins(%x, %w : tensor<4x16xf32>, tensor<16x8xf32>) outs(%i : tensor<4x8xf32>) -> tensor<4x8xf32>
  %imax = linalg.fill ins(%lowest : f32) outs(%er : tensor<4xf32>) -> tensor<4xf32>
  %max = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%m : tensor<4x8xf32>) outs(%imax : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.maximumf %a, %o : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  %exp = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%m, %max : tensor<4x8xf32>, tensor<4xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %d = arith.subf %a, %b : f32
    %r = math.exp %d : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %isum = linalg.fill ins(%zero : f32) outs(%er : tensor<4xf32>) -> tensor<4xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%exp : tensor<4x8xf32>) outs(%isum : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.addf %a, %o : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  %p = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%exp, %sum : tensor<4x8xf32>, tensor<4xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.divf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  return %p : tensor<4x8xf32>
}

// exp of the matmul: infinite in FP32 already on inputs in [100, 200).
func.func @overflow(%x: tensor<4x16xf32>, %w: tensor<16x8xf32>) -> tensor<4x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x8xf32>
  %i = linalg.fill ins(%zero : f32) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %m = linalg.matmul ins(%x, %w : tensor<4x16xf32>, tensor<16x8xf32>) outs(%i : tensor<4x8xf32>) -> tensor<4x8xf32>
  %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%m : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = math.exp %a : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}
