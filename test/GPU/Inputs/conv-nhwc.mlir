// A 3x3 NHWC convolution with bias and ReLU, FP32.
func.func @main(%x: tensor<2x18x18x32xf32>, %w: tensor<3x3x32x48xf32>) -> tensor<2x16x16x48xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x16x16x48xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<2x16x16x48xf32>) -> tensor<2x16x16x48xf32>
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%x, %w : tensor<2x18x18x32xf32>, tensor<3x3x32x48xf32>)
         outs(%c : tensor<2x16x16x48xf32>) -> tensor<2x16x16x48xf32>
  %relu = linalg.generic {indexing_maps = [affine_map<(n, h, w, c) -> (n, h, w, c)>, affine_map<(n, h, w, c) -> (n, h, w, c)>],
                          iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
         ins(%r : tensor<2x16x16x48xf32>) outs(%e : tensor<2x16x16x48xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %in, %zero : f32
    linalg.yield %m : f32
  } -> tensor<2x16x16x48xf32>
  return %relu : tensor<2x16x16x48xf32>
}
