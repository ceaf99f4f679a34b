// NCHW convolutions: batch 2 (a batch matmul, the filter broadcast over
// the batch), 3x3 with dilation 2 and padding 2, then a sigmoid; and batch
// 1 (a matmul whose B is the gather), 1x1 with stride 2, then a bias.
#id = affine_map<(n, c, h, w) -> (n, c, h, w)>
#ch = affine_map<(n, c, h, w) -> (c)>
func.func @main(%x: tensor<2x16x12x12xf32>, %f: tensor<24x16x3x3xf32>,
                %x1: tensor<1x32x15x15xf32>, %f1: tensor<48x32x1x1xf32>,
                %b1: tensor<48xf32>) -> (tensor<2x24x12x12xf32>, tensor<1x48x8x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %p = tensor.pad %x low[0, 0, 2, 2] high[0, 0, 2, 2] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<2x16x12x12xf32> to tensor<2x16x16x16xf32>
  %e = tensor.empty() : tensor<2x24x12x12xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<2x24x12x12xf32>) -> tensor<2x24x12x12xf32>
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<2> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%p, %f : tensor<2x16x16x16xf32>, tensor<24x16x3x3xf32>) outs(%c : tensor<2x24x12x12xf32>) -> tensor<2x24x12x12xf32>
  %s = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%y : tensor<2x24x12x12xf32>) outs(%e : tensor<2x24x12x12xf32>) {
  ^bb0(%in: f32, %o: f32):
    %n = arith.negf %in : f32
    %ex = math.exp %n : f32
    %d = arith.addf %ex, %one : f32
    %r = arith.divf %one, %d : f32
    linalg.yield %r : f32
  } -> tensor<2x24x12x12xf32>
  %e1 = tensor.empty() : tensor<1x48x8x8xf32>
  %c1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<1x48x8x8xf32>) -> tensor<1x48x8x8xf32>
  %y1 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
         ins(%x1, %f1 : tensor<1x32x15x15xf32>, tensor<48x32x1x1xf32>) outs(%c1 : tensor<1x48x8x8xf32>) -> tensor<1x48x8x8xf32>
  %z1 = linalg.generic {indexing_maps = [#id, #ch, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%y1, %b1 : tensor<1x48x8x8xf32>, tensor<48xf32>) outs(%e1 : tensor<1x48x8x8xf32>) {
  ^bb0(%in: f32, %bi: f32, %o: f32):
    %a = arith.addf %in, %bi : f32
    linalg.yield %a : f32
  } -> tensor<1x48x8x8xf32>
  return %s, %z1 : tensor<2x24x12x12xf32>, tensor<1x48x8x8xf32>
}
