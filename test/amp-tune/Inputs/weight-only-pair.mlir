// Two contractions with constant weights (splats: tests replace them with
// --randomize-weights): @f returns the first one's result as it is, and
// adds a twentieth of the second one's to the input. A weight-only format
// shows its full error in the first output and a twentieth of it in the
// second.
func.func @f(%x: tensor<4x256xf32>) -> (tensor<4x64xf32>, tensor<4x256xf32>) {
  %zero = arith.constant 0.0 : f32
  %w1 = arith.constant dense<0.01> : tensor<256x64xf32>
  %e1 = tensor.empty() : tensor<4x64xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<4x64xf32>) -> tensor<4x64xf32>
  %direct = linalg.matmul ins(%x, %w1 : tensor<4x256xf32>, tensor<256x64xf32>) outs(%f1 : tensor<4x64xf32>) -> tensor<4x64xf32>
  %w2 = arith.constant dense<0.02> : tensor<256x256xf32>
  %e2 = tensor.empty() : tensor<4x256xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<4x256xf32>) -> tensor<4x256xf32>
  %branch = linalg.matmul ins(%x, %w2 : tensor<4x256xf32>, tensor<256x256xf32>) outs(%f2 : tensor<4x256xf32>) -> tensor<4x256xf32>
  %e3 = tensor.empty() : tensor<4x256xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%x, %branch : tensor<4x256xf32>, tensor<4x256xf32>) outs(%e3 : tensor<4x256xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %c = arith.constant 0.05 : f32
    %s = arith.mulf %b, %c : f32
    %r = arith.addf %a, %s : f32
    linalg.yield %r : f32
  } -> tensor<4x256xf32>
  return %direct, %sum : tensor<4x64xf32>, tensor<4x256xf32>
}
