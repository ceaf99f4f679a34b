// --amp-gpu-conv-to-matmul on FP8 convolutions (the form of FP8 mixed
// precision, docs/fp8.md): the matmul reads B K-major.
//
// RUN: amp-opt %s --amp-gpu-conv-to-matmul --split-input-file | FileCheck %s

// FP8 (the form of FP8 mixed precision): the matmul takes B K-major, read
// as (n, k), the only layout of wgmma's FP8 forms. An FHWC filter is F x K
// already; an HWCF filter is transposed (folded when it is a constant).
// CHECK-LABEL: func.func @conv_nhwc_fp8
// CHECK:         %[[GA:.+]] = linalg.generic {{.*}} outs(%{{.+}} : tensor<36x72xf8E4M3FN>)
// CHECK:         %[[FK:.+]] = tensor.collapse_shape %{{.+}} {{\[}}[0], [1, 2, 3]] : tensor<16x3x3x8xf8E4M3FN> into tensor<16x72xf8E4M3FN>
// CHECK:         linalg.matmul indexing_maps = [#{{.+}}, #[[NK:.+]], #{{.+}}] {amp.kernel = "conv2d"} ins(%[[GA]], %[[FK]] : tensor<36x72xf8E4M3FN>, tensor<16x72xf8E4M3FN>) outs(%{{.+}} : tensor<36x16xf32>)
// CHECK:         %[[T:.+]] = linalg.transpose ins(%{{.+}} : tensor<72x16xf8E5M2>) outs(%{{.+}} : tensor<16x72xf8E5M2>) permutation = [1, 0]
// CHECK:         linalg.matmul indexing_maps = [#{{.+}}, #[[NK]], #{{.+}}] {amp.kernel = "conv2d"} ins(%{{.+}}, %[[T]] : tensor<36x72xf8E5M2>, tensor<16x72xf8E5M2>)
func.func @conv_nhwc_fp8(%x: tensor<1x8x8x8xf8E4M3FN>, %w: tensor<16x3x3x8xf8E4M3FN>,
                         %x5: tensor<1x8x8x8xf8E5M2>, %w5: tensor<3x3x8x16xf8E5M2>,
                         %o: tensor<1x6x6x16xf32>) -> (tensor<1x6x6x16xf32>, tensor<1x6x6x16xf32>) {
  %0 = linalg.conv_2d_nhwc_fhwc ins(%x, %w : tensor<1x8x8x8xf8E4M3FN>, tensor<16x3x3x8xf8E4M3FN>)
         outs(%o : tensor<1x6x6x16xf32>) -> tensor<1x6x6x16xf32>
  %1 = linalg.conv_2d_nhwc_hwcf ins(%x5, %w5 : tensor<1x8x8x8xf8E5M2>, tensor<3x3x8x16xf8E5M2>)
         outs(%o : tensor<1x6x6x16xf32>) -> tensor<1x6x6x16xf32>
  return %0, %1 : tensor<1x6x6x16xf32>, tensor<1x6x6x16xf32>
}

// -----

// NCHW, batch 1: the filter is A (F x K); the gather is B, built as
// pixels x K (K-major).
// CHECK-LABEL: func.func @conv_nchw_fp8
// CHECK:         %[[F:.+]] = tensor.collapse_shape %{{.+}} {{\[}}[0], [1, 2, 3]] : tensor<16x8x3x3xf8E4M3FN> into tensor<16x72xf8E4M3FN>
// CHECK:         %[[G:.+]] = linalg.generic {{.*}} outs(%{{.+}} : tensor<36x72xf8E4M3FN>)
// CHECK:         linalg.matmul indexing_maps = {{.*}} ins(%[[F]], %[[G]] : tensor<16x72xf8E4M3FN>, tensor<36x72xf8E4M3FN>) outs(%{{.+}} : tensor<16x36xf32>)
func.func @conv_nchw_fp8(%x: tensor<1x8x8x8xf8E4M3FN>, %w: tensor<16x8x3x3xf8E4M3FN>,
                         %o: tensor<1x16x6x6xf32>) -> tensor<1x16x6x6xf32> {
  %0 = linalg.conv_2d_nchw_fchw ins(%x, %w : tensor<1x8x8x8xf8E4M3FN>, tensor<16x8x3x3xf8E4M3FN>)
         outs(%o : tensor<1x16x6x6xf32>) -> tensor<1x16x6x6xf32>
  return %0 : tensor<1x16x6x6xf32>
}
