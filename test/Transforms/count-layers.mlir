// --amp-count-layers reports the selected ops in program order with their
// indices and locations, and a summary; it changes nothing.
// RUN: amp-opt %s --split-input-file --amp-count-layers=ops=convolution,matmul --verify-diagnostics | FileCheck %s --check-prefix=IR
// RUN: amp-opt %s --split-input-file --amp-count-layers=remarks=false | FileCheck %s --check-prefix=IR
// RUN: amp-opt %s --split-input-file "--amp-count-layers=ops=linalg.pooling_nchw_max,tosa.conv2d" -o /dev/null 2>&1 | FileCheck %s --check-prefix=NAMES
// RUN: amp-opt %s --split-input-file --amp-count-layers -o /dev/null 2>&1 | FileCheck %s --check-prefix=ALL

// IR-LABEL: func.func @cnn
// IR: linalg.conv_2d_nchw_fchw
// IR: linalg.pooling_nchw_max
// IR: linalg.matmul
// IR: tosa.conv2d

// NAMES: remark: layer 0: linalg.pooling_nchw_max (pooling)
// NAMES: remark: layer 1: tosa.conv2d (convolution)
// NAMES: remark: 2 layers (ops=linalg.pooling_nchw_max,tosa.conv2d): 1 linalg.pooling_nchw_max, 1 tosa.conv2d

// Without ops=, every op counts, except the payloads of linalg ops.
// ALL: remark: op 0: func.func
// ALL: remark: op 1: linalg.conv_2d_nchw_fchw (convolution)
// ALL: remark: op 2: tensor.empty
// ALL: remark: 8 ops: 1 func.func, 1 linalg.conv_2d_nchw_fchw, 1 tensor.empty, 1 linalg.pooling_nchw_max, 1 linalg.matmul, 1 tosa.conv2d, 1 linalg.conv_2d_nhwc_hwcf, 1 func.return
// ALL: remark: 3 ops: 1 func.func, 1 linalg.generic, 1 func.return

// expected-remark@+1 {{4 layers (ops=convolution,matmul): 1 linalg.conv_2d_nchw_fchw, 1 linalg.matmul, 1 tosa.conv2d, 1 linalg.conv_2d_nhwc_hwcf}}
module {
  func.func @cnn(%x: tensor<1x2x6x6xf32>, %w: tensor<2x2x3x3xf32>, %i: tensor<1x2x4x4xf32>, %p: tensor<1x2x2x2xf32>,
                 %a: tensor<4x4xf32>, %t: tensor<1x6x6x2xf32>, %tw: tensor<2x3x3x2xf32>, %tb: tensor<2xf32>, %zp: tensor<1xf32>,
                 %hw: tensor<3x3x2x2xf32>)
      -> (tensor<1x2x2x2xf32>, tensor<4x4xf32>, tensor<1x4x4x2xf32>) {
    // expected-remark@+1 {{layer 0: linalg.conv_2d_nchw_fchw (convolution)}}
    %0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
        ins(%x, %w : tensor<1x2x6x6xf32>, tensor<2x2x3x3xf32>) outs(%i : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
    %win = tensor.empty() : tensor<2x2xf32>
    %1 = linalg.pooling_nchw_max {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>}
        ins(%0, %win : tensor<1x2x4x4xf32>, tensor<2x2xf32>) outs(%p : tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
    // expected-remark@+1 {{layer 1: linalg.matmul (matmul)}}
    %2 = linalg.matmul ins(%a, %a : tensor<4x4xf32>, tensor<4x4xf32>) outs(%a : tensor<4x4xf32>) -> tensor<4x4xf32>
    // expected-remark@+1 {{layer 2: tosa.conv2d (convolution)}}
    %3 = tosa.conv2d %t, %tw, %tb, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>}
        : (tensor<1x6x6x2xf32>, tensor<2x3x3x2xf32>, tensor<2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4x2xf32>
    // expected-remark@+1 {{layer 3: linalg.conv_2d_nhwc_hwcf (convolution)}}
    %4 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
        ins(%t, %hw : tensor<1x6x6x2xf32>, tensor<3x3x2x2xf32>) outs(%3 : tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32>
    return %1, %2, %4 : tensor<1x2x2x2xf32>, tensor<4x4xf32>, tensor<1x4x4x2xf32>
  }
}

// -----

// A generic is a layer only when it computes one; the summary says when
// there are none.
// IR-LABEL: func.func @negative_elementwise_generic
// expected-remark@+1 {{0 layers (ops=convolution,matmul)}}
module {
  func.func @negative_elementwise_generic(%x: tensor<4xf32>) -> tensor<4xf32> {
    %0 = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
        ins(%x : tensor<4xf32>) outs(%x : tensor<4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %m = arith.mulf %in, %in : f32
      linalg.yield %m : f32
    } -> tensor<4xf32>
    return %0 : tensor<4xf32>
  }
}
