// RUN: amp-opt %s --amp-gpu-conv-to-matmul --split-input-file | FileCheck %s

// NHWC: im2col, then one matmul over batch * output pixels.
// CHECK-LABEL: func.func @conv_nhwc_hwcf_f16
// CHECK-NOT:     linalg.conv_2d
// CHECK:         %[[COL:.+]] = linalg.generic {{.*}} ins(%{{.*}} : tensor<1x16x16x32xf16>) outs(%{{.*}} : tensor<1x196x288xf16>)
// CHECK:         %[[A:.+]] = tensor.collapse_shape %[[COL]] {{\[}}[0, 1], [2]] : tensor<1x196x288xf16> into tensor<196x288xf16>
// CHECK:         %[[MM:.+]] = linalg.matmul ins(%[[A]], %{{.*}} : tensor<196x288xf16>, tensor<288x64xf16>) outs(%{{.*}} : tensor<196x64xf32>)
// CHECK:         tensor.expand_shape %[[MM]]
func.func @conv_nhwc_hwcf_f16(%x: tensor<1x16x16x32xf16>, %w: tensor<3x3x32x64xf16>,
                              %o: tensor<1x14x14x64xf32>) -> tensor<1x14x14x64xf32> {
  %0 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%x, %w : tensor<1x16x16x32xf16>, tensor<3x3x32x64xf16>)
         outs(%o : tensor<1x14x14x64xf32>) -> tensor<1x14x14x64xf32>
  return %0 : tensor<1x14x14x64xf32>
}

// -----

// NCHW (strided): the filter is broadcast over the batch of a batch matmul.
// CHECK-LABEL: func.func @conv_nchw_fchw_f16_strided
// CHECK:         %[[COL:.+]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<2x288x49xf16>)
// CHECK:         %[[F:.+]] = linalg.broadcast ins(%{{.*}} : tensor<64x288xf16>) outs(%{{.*}} : tensor<2x64x288xf16>) dimensions = [0]
// CHECK:         linalg.batch_matmul ins(%[[F]], %[[COL]] : tensor<2x64x288xf16>, tensor<2x288x49xf16>) outs(%{{.*}} : tensor<2x64x49xf32>)
func.func @conv_nchw_fchw_f16_strided(%x: tensor<2x32x16x16xf16>, %w: tensor<64x32x3x3xf16>,
                                      %o: tensor<2x64x7x7xf32>) -> tensor<2x64x7x7xf32> {
  %0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
         ins(%x, %w : tensor<2x32x16x16xf16>, tensor<64x32x3x3xf16>)
         outs(%o : tensor<2x64x7x7xf32>) -> tensor<2x64x7x7xf32>
  return %0 : tensor<2x64x7x7xf32>
}

// -----

// FHWC filters are transposed to HWCF first; bf16 works the same way.
// CHECK-LABEL: func.func @conv_nhwc_fhwc_bf16
// CHECK:         linalg.transpose
// CHECK:         linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<36x72xbf16>, tensor<72x16xbf16>)
func.func @conv_nhwc_fhwc_bf16(%x: tensor<1x8x8x8xbf16>, %w: tensor<16x3x3x8xbf16>,
                               %o: tensor<1x6x6x16xf32>) -> tensor<1x6x6x16xf32> {
  %0 = linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%x, %w : tensor<1x8x8x8xbf16>, tensor<16x3x3x8xbf16>)
         outs(%o : tensor<1x6x6x16xf32>) -> tensor<1x6x6x16xf32>
  return %0 : tensor<1x6x6x16xf32>
}

// -----

// FP32 convolutions (the SIMT baseline) and depthwise ones stay.
// CHECK-LABEL: func.func @negative_conv_f32_and_depthwise
// CHECK:         linalg.conv_2d_nhwc_hwcf
// CHECK:         linalg.depthwise_conv_2d_nhwc_hwc
// CHECK-NOT:     linalg.matmul
func.func @negative_conv_f32_and_depthwise(%x: tensor<1x8x8x8xf32>, %w: tensor<3x3x8x8xf32>,
                                           %o: tensor<1x6x6x8xf32>, %xh: tensor<1x8x8x8xf16>,
                                           %wd: tensor<3x3x8xf16>, %od: tensor<1x6x6x8xf32>)
    -> (tensor<1x6x6x8xf32>, tensor<1x6x6x8xf32>) {
  %0 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%x, %w : tensor<1x8x8x8xf32>, tensor<3x3x8x8xf32>)
         outs(%o : tensor<1x6x6x8xf32>) -> tensor<1x6x6x8xf32>
  %1 = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%xh, %wd : tensor<1x8x8x8xf16>, tensor<3x3x8xf16>)
         outs(%od : tensor<1x6x6x8xf32>) -> tensor<1x6x6x8xf32>
  return %0, %1 : tensor<1x6x6x8xf32>, tensor<1x6x6x8xf32>
}
