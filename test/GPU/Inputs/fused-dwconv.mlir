// A depthwise convolution (NCHW, 3x3, stride 2, zero padding 1) and the
// batch norm and SiLU after it, as in MobileNet and EfficientNet blocks:
// one row kernel, the padding a bounds check, the rest over its rows.
#id = affine_map<(n, c, h, w) -> (n, c, h, w)>
#ch = affine_map<(n, c, h, w) -> (c)>
func.func @main(%x: tensor<1x40x15x15xf32>, %f: tensor<40x3x3xf32>,
                %scale: tensor<40xf32>, %shift: tensor<40xf32>) -> tensor<1x40x8x8xf32> {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x40x15x15xf32> to tensor<1x40x17x17xf32>
  %e = tensor.empty() : tensor<1x40x8x8xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<1x40x8x8xf32>) -> tensor<1x40x8x8xf32>
  %y = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
         ins(%p, %f : tensor<1x40x17x17xf32>, tensor<40x3x3xf32>) outs(%c : tensor<1x40x8x8xf32>) -> tensor<1x40x8x8xf32>
  %z = linalg.generic {indexing_maps = [#id, #ch, #ch, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%y, %scale, %shift : tensor<1x40x8x8xf32>, tensor<40xf32>, tensor<40xf32>) outs(%e : tensor<1x40x8x8xf32>) {
  ^bb0(%in: f32, %s: f32, %t: f32, %o: f32):
    %a = arith.mulf %in, %s : f32
    %b = arith.addf %a, %t : f32
    %n = arith.negf %b : f32
    %ex = math.exp %n : f32
    %d = arith.addf %ex, %one : f32
    %sig = arith.divf %one, %d : f32
    %silu = arith.mulf %b, %sig : f32
    linalg.yield %silu : f32
  } -> tensor<1x40x8x8xf32>
  return %z : tensor<1x40x8x8xf32>
}
