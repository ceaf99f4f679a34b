// The cleanup after the channels-last rewrite: filter transposes fold into
// constants, init transposes into fills and empties, and the transpose back
// to NCHW after a layer moves down through elementwise generics and pads
// until it cancels against the next layer's transpose to NHWC. Only the
// transposes at the edges of the converted region stay.
// RUN: amp-opt %s --split-input-file --amp-convert-layout | FileCheck %s

#id = affine_map<(n, c, h, w) -> (n, c, h, w)>
#chan = affine_map<(n, c, h, w) -> (c)>
#bcast = affine_map<(n, c, h, w) -> (0, c, h, w)>

// CHECK-DAG: #[[BCAST:.+]] = affine_map<(d0, d1, d2, d3) -> (0, d1, d2, d3)>
// CHECK-DAG: #[[CHAN:.+]] = affine_map<(d0, d1, d2, d3) -> (d3)>
// CHECK-DAG: #[[ID:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @conv_bias_relu_pad_conv
// CHECK-SAME: (%[[X:.+]]: tensor<1x1x8x8xf32>) -> tensor<1x4x6x6xf32>
// The input edge.
// CHECK: %[[XT:.+]] = linalg.transpose ins(%[[X]] : tensor<1x1x8x8xf32>) outs(%{{.+}} : tensor<1x8x8x1xf32>) permutation = [0, 2, 3, 1]
// The filter is a new constant in HWCF order.
// CHECK: %[[W1:.+]] = arith.constant dense<{{\[\[\[\[}}1.000000e+00, 5.000000e+00]], {{\[\[}}2.000000e+00, 6.000000e+00]]], {{\[\[\[}}3.000000e+00, 7.000000e+00]], {{\[\[}}4.000000e+00, 8.000000e+00]]]]> : tensor<2x2x1x2xf32>
// CHECK: %[[F1:.+]] = linalg.fill ins(%{{.+}} : f32) outs(%{{.+}} : tensor<1x7x7x2xf32>)
// CHECK: %[[C1:.+]] = linalg.conv_2d_nhwc_hwcf {{.*}} ins(%[[XT]], %[[W1]] : tensor<1x8x8x1xf32>, tensor<2x2x1x2xf32>) outs(%[[F1]] : tensor<1x7x7x2xf32>)
// CHECK-NOT: linalg.transpose
// The bias and ReLU read NHWC: the channel is loop d3 now.
// CHECK: %[[R:.+]] = linalg.generic {indexing_maps = [#[[BCAST]], #[[CHAN]], #[[ID]]], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%[[C1]], %{{.+}} : tensor<1x7x7x2xf32>, tensor<2xf32>) outs(%{{.+}} : tensor<1x7x7x2xf32>)
// CHECK-NOT: linalg.transpose
// The padding follows the layout.
// CHECK: %[[P:.+]] = tensor.pad %[[R]] low[0, 0, 1, 0] high[0, 1, 0, 0]
// CHECK: } : tensor<1x7x7x2xf32> to tensor<1x8x8x2xf32>
// CHECK-NOT: linalg.transpose
// CHECK: %[[C2:.+]] = linalg.conv_2d_nhwc_hwcf {{.*}} ins(%[[P]], %{{.+}} : tensor<1x8x8x2xf32>, tensor<3x3x2x4xf32>)
// The output edge.
// CHECK: %[[OUT:.+]] = linalg.transpose ins(%[[C2]] : tensor<1x6x6x4xf32>) outs(%{{.+}} : tensor<1x4x6x6xf32>) permutation = [0, 3, 1, 2]
// CHECK: return %[[OUT]]
func.func @conv_bias_relu_pad_conv(%x: tensor<1x1x8x8xf32>) -> tensor<1x4x6x6xf32> {
  %zero = arith.constant 0.0 : f32
  %w1 = arith.constant dense<[[[[1.0, 2.0], [3.0, 4.0]]], [[[5.0, 6.0], [7.0, 8.0]]]]> : tensor<2x1x2x2xf32>
  %w2 = arith.constant dense<0.5> : tensor<4x2x3x3xf32>
  %bias = arith.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %e1 = tensor.empty() : tensor<1x2x7x7xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<1x2x7x7xf32>) -> tensor<1x2x7x7xf32>
  %c1 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%x, %w1 : tensor<1x1x8x8xf32>, tensor<2x1x2x2xf32>) outs(%f1 : tensor<1x2x7x7xf32>) -> tensor<1x2x7x7xf32>
  %r = linalg.generic {indexing_maps = [#bcast, #chan, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c1, %bias : tensor<1x2x7x7xf32>, tensor<2xf32>) outs(%c1 : tensor<1x2x7x7xf32>) {
  ^bb0(%in: f32, %b: f32, %out: f32):
    %s = arith.addf %in, %b : f32
    %m = arith.maximumf %s, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x2x7x7xf32>
  %p = tensor.pad %r low[0, 0, 0, 1] high[0, 0, 1, 0] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<1x2x7x7xf32> to tensor<1x2x8x8xf32>
  %e2 = tensor.empty() : tensor<1x4x6x6xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  %c2 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%p, %w2 : tensor<1x2x8x8xf32>, tensor<4x2x3x3xf32>) outs(%f2 : tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  return %c2 : tensor<1x4x6x6xf32>
}

// -----

// A residual block: the add of two converted branches computes in NHWC;
// a broadcast bias used as init (as in VGG) is computed in NHWC directly;
// linalg.index of the channel follows the renamed loops; both convolutions
// share the transpose of their input.
// CHECK-LABEL: func.func @residual_and_bias_init
// CHECK: %[[B:.+]] = linalg.generic {{.*}} ins(%{{.+}} : tensor<4xf32>) outs(%{{.+}} : tensor<1x6x6x4xf32>)
// CHECK: %[[XT:.+]] = linalg.transpose {{.*}} permutation = [0, 2, 3, 1]
// CHECK: %[[C1:.+]] = linalg.conv_2d_nhwc_hwcf {{.*}} ins(%[[XT]], %{{.+}} : {{.*}}) outs(%[[B]] : tensor<1x6x6x4xf32>)
// CHECK-NOT: permutation = [0, 2, 3, 1]
// CHECK: %[[C2:.+]] = linalg.conv_2d_nhwc_hwcf {{.*}} ins(%[[XT]], %{{.+}} : {{.*}}) outs(%[[B]] : tensor<1x6x6x4xf32>)
// CHECK: %[[ADD:.+]] = linalg.generic {{.*}} ins(%[[C1]], %[[C2]] : tensor<1x6x6x4xf32>, tensor<1x6x6x4xf32>) outs(%{{.+}} : tensor<1x6x6x4xf32>)
// CHECK: linalg.index 3 : index
// CHECK: linalg.transpose ins(%[[ADD]] : tensor<1x6x6x4xf32>) outs(%{{.+}} : tensor<1x4x6x6xf32>) permutation = [0, 3, 1, 2]
// CHECK-NOT: linalg.transpose
#id = affine_map<(n, c, h, w) -> (n, c, h, w)>
#chan = affine_map<(n, c, h, w) -> (c)>
func.func @residual_and_bias_init(%x: tensor<1x3x8x8xf32>, %w1: tensor<4x3x3x3xf32>, %w2: tensor<4x3x3x3xf32>, %bias: tensor<4xf32>) -> tensor<1x4x6x6xf32> {
  %e = tensor.empty() : tensor<1x4x6x6xf32>
  %b = linalg.generic {indexing_maps = [#chan, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%bias : tensor<4xf32>) outs(%e : tensor<1x4x6x6xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<1x4x6x6xf32>
  %c1 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%x, %w1 : tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) outs(%b : tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  %c2 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%x, %w2 : tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) outs(%b : tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  %add = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c1, %c2 : tensor<1x4x6x6xf32>, tensor<1x4x6x6xf32>) outs(%e : tensor<1x4x6x6xf32>) {
  ^bb0(%a: f32, %c: f32, %out: f32):
    %i = linalg.index 1 : index
    %ii = arith.index_cast %i : index to i32
    %fi = arith.sitofp %ii : i32 to f32
    %s = arith.addf %a, %c : f32
    %t = arith.addf %s, %fi : f32
    linalg.yield %t : f32
  } -> tensor<1x4x6x6xf32>
  return %add : tensor<1x4x6x6xf32>
}

// -----

// A pad whose region reads its indices gets them in the new order.
// CHECK-LABEL: func.func @pad_region_indices
// CHECK: tensor.pad %{{.+}} low[0, 1, 1, 0] high[0, 1, 1, 0] {
// CHECK: ^bb0(%[[N:.+]]: index, %[[H:.+]]: index, %[[W:.+]]: index, %[[C:.+]]: index):
// CHECK: arith.index_cast %[[C]] : index to i32
func.func @pad_region_indices(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %i: tensor<1x4x6x6xf32>, %w2: tensor<4x4x3x3xf32>, %i2: tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32> {
  %c1 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%x, %w : tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) outs(%i : tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  %p = tensor.pad %c1 low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%n: index, %c: index, %h: index, %ww: index):
    %ci = arith.index_cast %c : index to i32
    %cf = arith.sitofp %ci : i32 to f32
    tensor.yield %cf : f32
  } : tensor<1x4x6x6xf32> to tensor<1x4x8x8xf32>
  %c2 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%p, %w2 : tensor<1x4x8x8xf32>, tensor<4x4x3x3xf32>) outs(%i2 : tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  return %c2 : tensor<1x4x6x6xf32>
}

// -----

// A reduction (the mean of a squeeze-and-excitation block) reads the NHWC
// result through a permuted map and keeps its own output: no transpose is
// left at all.
// CHECK-DAG: #[[NHWC_READ:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d2, d3, d1)>
// CHECK-LABEL: func.func @reduction_absorbs
// CHECK-NOT: permutation = [0, 3, 1, 2]
// CHECK: linalg.generic {indexing_maps = [#[[NHWC_READ]], #{{.+}}], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%{{.+}} : tensor<1x6x6x4xf32>) outs(%{{.+}} : tensor<1x4xf32>)
// CHECK-NOT: permutation = [0, 3, 1, 2]
#id = affine_map<(n, c, h, w) -> (n, c, h, w)>
func.func @reduction_absorbs(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %i: tensor<1x4x6x6xf32>, %acc: tensor<1x4xf32>) -> tensor<1x4xf32> {
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%x, %w : tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) outs(%i : tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  %m = linalg.generic {indexing_maps = [#id, affine_map<(n, c, h, w) -> (n, c)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%c : tensor<1x4x6x6xf32>) outs(%acc : tensor<1x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %out : f32
    linalg.yield %s : f32
  } -> tensor<1x4xf32>
  return %m : tensor<1x4xf32>
}

// -----

// A transpose stays in front of ops it cannot move through (a reshape) and
// of the function's results.
// CHECK-LABEL: func.func @negative_edge_before_reshape
// CHECK: %[[C:.+]] = linalg.conv_2d_nhwc_hwcf
// CHECK: %[[T:.+]] = linalg.transpose ins(%[[C]] : tensor<1x6x6x4xf32>) outs(%{{.+}} : tensor<1x4x6x6xf32>) permutation = [0, 3, 1, 2]
// CHECK: tensor.collapse_shape %[[T]]
// CHECK: return %[[T]]
func.func @negative_edge_before_reshape(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %i: tensor<1x4x6x6xf32>) -> (tensor<1x4x6x6xf32>, tensor<4x36xf32>) {
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%x, %w : tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) outs(%i : tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  %r = tensor.collapse_shape %c [[0, 1], [2, 3]] : tensor<1x4x6x6xf32> into tensor<4x36xf32>
  return %c, %r : tensor<1x4x6x6xf32>, tensor<4x36xf32>
}

// -----

// A generic whose other input is NCHW gains nothing from computing in NHWC:
// it reads the converted result through a permuted map and keeps its
// layout, and no transpose is left after the layer.
// CHECK-DAG: #[[READ:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d2, d3, d1)>
// CHECK-LABEL: func.func @mixed_layouts
// CHECK: %[[C:.+]] = linalg.conv_2d_nhwc_hwcf
// CHECK: linalg.generic {indexing_maps = [#[[READ]], {{.*}}} ins(%[[C]], %{{.+}} : tensor<1x6x6x4xf32>, tensor<1x4x6x6xf32>) outs(%{{.+}} : tensor<1x4x6x6xf32>)
// CHECK-NOT: permutation = [0, 3, 1, 2]
#id = affine_map<(n, c, h, w) -> (n, c, h, w)>
func.func @mixed_layouts(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %i: tensor<1x4x6x6xf32>, %y: tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32> {
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%x, %w : tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) outs(%i : tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  %e = tensor.empty() : tensor<1x4x6x6xf32>
  %g = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c, %y : tensor<1x4x6x6xf32>, tensor<1x4x6x6xf32>) outs(%e : tensor<1x4x6x6xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<1x4x6x6xf32>
  return %g : tensor<1x4x6x6xf32>
}

// -----

// After --amp-mixed-precision, casts on tensors sit between the layers: the
// transpose moves through them (and through arith ops with constant
// operands) too.
// CHECK-LABEL: func.func @through_casts
// CHECK: %[[C1:.+]] = linalg.conv_2d_nhwc_hwcf {{.*}} -> tensor<1x6x6x4xf32>
// CHECK: %[[T:.+]] = arith.truncf %[[C1]] : tensor<1x6x6x4xf32> to tensor<1x6x6x4xf16>
// CHECK: %[[M:.+]] = arith.maximumf %[[T]], %{{.+}} : tensor<1x6x6x4xf16>
// CHECK: linalg.conv_2d_nhwc_hwcf {{.*}} ins(%[[M]], %{{.+}} : tensor<1x6x6x4xf16>, tensor<3x3x4x4xf16>)
// CHECK-COUNT-1: linalg.transpose {{.*}} permutation = [0, 3, 1, 2]
// CHECK-NOT: linalg.transpose
func.func @through_casts(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %i: tensor<1x4x6x6xf32>,
                         %w2: tensor<4x4x3x3xf16>, %i2: tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32> {
  %zero = arith.constant dense<0.0> : tensor<1x4x6x6xf16>
  %c1 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%x, %w : tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) outs(%i : tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  %t = arith.truncf %c1 : tensor<1x4x6x6xf32> to tensor<1x4x6x6xf16>
  %m = arith.maximumf %t, %zero : tensor<1x4x6x6xf16>
  %c2 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%m, %w2 : tensor<1x4x6x6xf16>, tensor<4x4x3x3xf16>) outs(%i2 : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  return %c2 : tensor<1x4x4x4xf32>
}
