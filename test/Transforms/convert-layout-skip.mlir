// skip-layers leaves chosen layers in NCHW; the indices are those that
// --amp-count-layers prints for the same ops= list (by default every
// convolution and pooling).
// RUN: amp-opt %s --amp-count-layers=ops=convolution,pooling -o /dev/null 2>&1 | FileCheck %s --check-prefix=COUNT
// RUN: amp-opt %s --amp-convert-layout=skip-layers=1 | FileCheck %s --check-prefix=SKIP1
// RUN: amp-opt %s --amp-convert-layout=skip-layers=0,-1 | FileCheck %s --check-prefix=EDGES
// RUN: amp-opt %s "--amp-convert-layout=ops=convolution skip-layers=-1" | FileCheck %s --check-prefix=CONV

// COUNT: layer 0: linalg.conv_2d_nchw_fchw (convolution)
// COUNT: layer 1: linalg.pooling_nchw_max (pooling)
// COUNT: layer 2: linalg.conv_2d_nchw_fchw (convolution)

// The pooling stays NCHW: transposes around it, none between the others.
// SKIP1-LABEL: func.func @chain
// SKIP1: %[[C1:.+]] = linalg.conv_2d_nhwc_hwcf
// SKIP1: %[[T1:.+]] = linalg.transpose ins(%[[C1]] : tensor<1x6x6x4xf32>) {{.*}} permutation = [0, 3, 1, 2]
// SKIP1: %[[P:.+]] = linalg.pooling_nchw_max {{.*}} ins(%[[T1]],
// SKIP1: %[[T2:.+]] = linalg.transpose ins(%[[P]] : tensor<1x4x3x3xf32>) {{.*}} permutation = [0, 2, 3, 1]
// SKIP1: %[[C2:.+]] = linalg.conv_2d_nhwc_hwcf {{.*}} ins(%[[T2]],

// The first and the last layer stay; the pooling in between is converted.
// EDGES-LABEL: func.func @chain
// EDGES: linalg.conv_2d_nchw_fchw
// EDGES: linalg.pooling_nhwc_max
// EDGES: linalg.conv_2d_nchw_fchw

// With ops=convolution the pooling is no layer: index -1 is the second
// convolution.
// CONV-LABEL: func.func @chain
// CONV: linalg.conv_2d_nhwc_hwcf
// CONV: linalg.pooling_nchw_max
// CONV: linalg.conv_2d_nchw_fchw

func.func @chain(%x: tensor<1x3x8x8xf32>, %w1: tensor<4x3x3x3xf32>, %i1: tensor<1x4x6x6xf32>, %win: tensor<2x2xf32>,
                 %i2: tensor<1x4x3x3xf32>, %w2: tensor<8x4x1x1xf32>, %i3: tensor<1x8x3x3xf32>) -> tensor<1x8x3x3xf32> {
  %c1 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%x, %w1 : tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) outs(%i1 : tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  %p = linalg.pooling_nchw_max {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>}
      ins(%c1, %win : tensor<1x4x6x6xf32>, tensor<2x2xf32>) outs(%i2 : tensor<1x4x3x3xf32>) -> tensor<1x4x3x3xf32>
  %c2 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%p, %w2 : tensor<1x4x3x3xf32>, tensor<8x4x1x1xf32>) outs(%i3 : tensor<1x8x3x3xf32>) -> tensor<1x8x3x3xf32>
  return %c2 : tensor<1x8x3x3xf32>
}
