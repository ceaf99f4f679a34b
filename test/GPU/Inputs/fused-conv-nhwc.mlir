// An NHWC convolution, 3x3, stride 2, zero padding 1, on a 17x17x24 input
// (odd sizes), then batch norm (per-channel scale and shift) and ReLU6: an
// implicit GEMM whose gather reads the unpadded input, the rest in its
// epilogue.
#id = affine_map<(n, h, w, c) -> (n, h, w, c)>
#ch = affine_map<(n, h, w, c) -> (c)>
func.func @main(%x: tensor<1x17x17x24xf32>, %f: tensor<3x3x24x40xf32>,
                %scale: tensor<40xf32>, %shift: tensor<40xf32>) -> tensor<1x9x9x40xf32> {
  %zero = arith.constant 0.0 : f32
  %six = arith.constant 6.0 : f32
  %p = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x17x17x24xf32> to tensor<1x19x19x24xf32>
  %e = tensor.empty() : tensor<1x9x9x40xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<1x9x9x40xf32>) -> tensor<1x9x9x40xf32>
  %y = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
         ins(%p, %f : tensor<1x19x19x24xf32>, tensor<3x3x24x40xf32>) outs(%c : tensor<1x9x9x40xf32>) -> tensor<1x9x9x40xf32>
  %z = linalg.generic {indexing_maps = [#id, #ch, #ch, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%y, %scale, %shift : tensor<1x9x9x40xf32>, tensor<40xf32>, tensor<40xf32>) outs(%e : tensor<1x9x9x40xf32>) {
  ^bb0(%in: f32, %s: f32, %t: f32, %o: f32):
    %a = arith.mulf %in, %s : f32
    %b = arith.addf %a, %t : f32
    %r = arith.maximumf %b, %zero : f32
    %r6 = arith.minimumf %r, %six : f32
    linalg.yield %r6 : f32
  } -> tensor<1x9x9x40xf32>
  return %z : tensor<1x9x9x40xf32>
}
