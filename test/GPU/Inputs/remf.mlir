// x % y elementwise (arith.remf, C's fmod), as ONNX Mod with fmod=1 and
// torch.fmod import: remf.test feeds it hard cases.
func.func @model(%x: tensor<512xf32>, %y: tensor<512xf32>) -> tensor<512xf32> {
  %e = tensor.empty() : tensor<512xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x, %y : tensor<512xf32>, tensor<512xf32>) outs(%e : tensor<512xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.remf %a, %b : f32
    linalg.yield %m : f32
  } -> tensor<512xf32>
  return %r : tensor<512xf32>
}
