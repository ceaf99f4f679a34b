// amp.layout_config on a module or function gives --amp-convert-layout its
// settings for the layers inside; the nearest annotation wins, and indices
// count the layers of that scope only.
// RUN: amp-opt %s --split-input-file --amp-convert-layout --verify-diagnostics | FileCheck %s

// The module asks for FHWC filters and skips its first layer; @reference
// opts out; @own has its own settings.
// CHECK-LABEL: func.func @model
// CHECK: linalg.conv_2d_nchw_fchw
// CHECK: linalg.conv_2d_nhwc_fhwc
// CHECK-LABEL: func.func @reference
// CHECK-NOT: linalg.transpose
// CHECK: linalg.conv_2d_nchw_fchw
// CHECK-LABEL: func.func @own
// CHECK: linalg.conv_2d_nhwc_hwcf
// CHECK: linalg.pooling_nchw_max
module attributes {amp.layout_config = #amp.layout_config<filter = fhwc, skip_layers = [0]>} {
  func.func @model(%x: tensor<1x3x8x8xf32>, %w: tensor<3x3x3x3xf32>, %i: tensor<1x3x6x6xf32>, %w2: tensor<4x3x3x3xf32>, %i2: tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32> {
    %0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
        ins(%x, %w : tensor<1x3x8x8xf32>, tensor<3x3x3x3xf32>) outs(%i : tensor<1x3x6x6xf32>) -> tensor<1x3x6x6xf32>
    %1 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
        ins(%0, %w2 : tensor<1x3x6x6xf32>, tensor<4x3x3x3xf32>) outs(%i2 : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
    return %1 : tensor<1x4x4x4xf32>
  }
  func.func @reference(%x: tensor<1x3x8x8xf32>, %w: tensor<3x3x3x3xf32>, %i: tensor<1x3x6x6xf32>) -> tensor<1x3x6x6xf32>
      attributes {amp.layout_config = #amp.layout_config<ops = []>} {
    %0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
        ins(%x, %w : tensor<1x3x8x8xf32>, tensor<3x3x3x3xf32>) outs(%i : tensor<1x3x6x6xf32>) -> tensor<1x3x6x6xf32>
    return %0 : tensor<1x3x6x6xf32>
  }
  func.func @own(%x: tensor<1x3x8x8xf32>, %w: tensor<3x3x3x3xf32>, %i: tensor<1x3x6x6xf32>, %win: tensor<2x2xf32>, %p: tensor<1x3x3x3xf32>) -> tensor<1x3x3x3xf32>
      attributes {amp.layout_config = #amp.layout_config<ops = ["linalg.conv_2d_nchw_fchw"]>} {
    %0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
        ins(%x, %w : tensor<1x3x8x8xf32>, tensor<3x3x3x3xf32>) outs(%i : tensor<1x3x6x6xf32>) -> tensor<1x3x6x6xf32>
    %1 = linalg.pooling_nchw_max {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>}
        ins(%0, %win : tensor<1x3x6x6xf32>, tensor<2x2xf32>) outs(%p : tensor<1x3x3x3xf32>) -> tensor<1x3x3x3xf32>
    return %1 : tensor<1x3x3x3xf32>
  }
}

// -----

// Scope indices are checked like the option's.
// expected-error@+1 {{amp.layout_config: skip-layers index -2 is out of range (there is 1 layer)}}
func.func @bad_index(%x: tensor<1x3x8x8xf32>, %w: tensor<3x3x3x3xf32>, %i: tensor<1x3x6x6xf32>) -> tensor<1x3x6x6xf32>
    attributes {amp.layout_config = #amp.layout_config<skip_layers = [-2]>} {
  %0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%x, %w : tensor<1x3x8x8xf32>, tensor<3x3x3x3xf32>) outs(%i : tensor<1x3x6x6xf32>) -> tensor<1x3x6x6xf32>
  return %0 : tensor<1x3x6x6xf32>
}

// -----

// Op names in a scope are checked when the pass uses them.
// expected-error@+1 {{amp.layout_config: unknown op name 'linalg.conv_2d_nchw_fchv' in ops= (did you mean 'linalg.conv_2d_nchw_fchw'?)}}
func.func @bad_name() attributes {amp.layout_config = #amp.layout_config<ops = ["linalg.conv_2d_nchw_fchv"]>} {
  return
}

// -----

// expected-error@+1 {{amp.layout_config: 'matmul' in ops= has no layout to convert (expected convolution, pooling or op names)}}
func.func @bad_kind() attributes {amp.layout_config = #amp.layout_config<ops = ["matmul"]>} {
  return
}
