// The benchmarking passes and amp.layout_config work from the plugin in a
// stock mlir-opt too.
// RUN: %mlir-opt %s --load-dialect-plugin=%amp_plugin --load-pass-plugin=%amp_plugin \
// RUN:   --pass-pipeline="builtin.module(amp-count-layers{remarks=false},amp-convert-layout,amp-recast{type=i8})" | FileCheck %s

// CHECK-LABEL: func.func @conv
// CHECK: linalg.conv_2d_nhwc_hwcf {{.*}} ins(%{{.+}}, %{{.+}} : tensor<1x8x8x3xi8>, tensor<3x3x3x4xi8>) outs(%{{.+}} : tensor<1x6x6x4xi32>)
// CHECK-LABEL: func.func @reference
// CHECK: linalg.conv_2d_nchw_fchw {{.*}} ins(%{{.+}}, %{{.+}} : tensor<1x3x8x8xi8>, tensor<4x3x3x3xi8>)
func.func @conv(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %i: tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32> {
  %0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%x, %w : tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) outs(%i : tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  return %0 : tensor<1x4x6x6xf32>
}
func.func @reference(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %i: tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
    attributes {amp.layout_config = #amp.layout_config<ops = []>} {
  %0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%x, %w : tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) outs(%i : tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  return %0 : tensor<1x4x6x6xf32>
}
