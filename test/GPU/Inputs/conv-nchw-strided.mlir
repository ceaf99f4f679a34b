// A strided 3x3 NCHW convolution, FP32.
func.func @main(%x: tensor<1x16x15x15xf32>, %w: tensor<24x16x3x3xf32>) -> tensor<1x24x7x7xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x24x7x7xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<1x24x7x7xf32>) -> tensor<1x24x7x7xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
         ins(%x, %w : tensor<1x16x15x15xf32>, tensor<24x16x3x3xf32>)
         outs(%c : tensor<1x24x7x7xf32>) -> tensor<1x24x7x7xf32>
  return %r : tensor<1x24x7x7xf32>
}
