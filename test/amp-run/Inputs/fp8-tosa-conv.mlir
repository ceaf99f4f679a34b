// A TOSA convolution (padding, stride, bias) and a classifier matmul whose
// weights are an argument, for FP8 tests: in FP8 the convolution becomes a
// padded, narrowed linalg.conv_2d_nhwc_fhwc with the bias in its epilogue,
// and the matmul a linalg.batch_matmul scaled by calibrated ranges.
func.func @net(%x: tensor<1x9x9x4xf32>, %fc: tensor<1x64x10xf32>) -> tensor<1x2x10xf32> {
  %w = "tosa.const"() <{values = dense<0.5> : tensor<8x3x3x4xf32>}> : () -> tensor<8x3x3x4xf32>
  %bias = "tosa.const"() <{values = dense<[0.5, -0.25, 0.125, 1.0, -1.0, 0.75, 0.0, 2.0]> : tensor<8xf32>}> : () -> tensor<8xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %c = tosa.conv2d %x, %w, %bias, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 2, 2>}
         : (tensor<1x9x9x4xf32>, tensor<8x3x3x4xf32>, tensor<8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x5x5x8xf32>
  %r = tosa.clamp %c {max_val = 3.4028235e38 : f32, min_val = 0.0 : f32} : (tensor<1x5x5x8xf32>) -> tensor<1x5x5x8xf32>
  %start = tosa.const_shape {values = dense<[0, 0, 0, 0]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %size = tosa.const_shape {values = dense<[1, 4, 4, 8]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %s = tosa.slice %r, %start, %size : (tensor<1x5x5x8xf32>, !tosa.shape<4>, !tosa.shape<4>) -> tensor<1x4x4x8xf32>
  %shape = tosa.const_shape {values = dense<[1, 2, 64]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %f = tosa.reshape %s, %shape : (tensor<1x4x4x8xf32>, !tosa.shape<3>) -> tensor<1x2x64xf32>
  %y = tosa.matmul %f, %fc, %zp, %zp : (tensor<1x2x64xf32>, tensor<1x64x10xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2x10xf32>
  return %y : tensor<1x2x10xf32>
}
