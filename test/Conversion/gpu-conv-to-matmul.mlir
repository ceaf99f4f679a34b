// RUN: amp-opt %s --amp-gpu-conv-to-matmul --split-input-file | FileCheck %s
// RUN: amp-opt %s --amp-gpu-conv-to-matmul=include-f32=false --split-input-file | FileCheck %s --check-prefix=NOF32

// NHWC: a gather (no operands: it reads the input with tensor.extract at
// the position it computes) and one matmul over batch * output pixels.
// CHECK-LABEL: func.func @conv_nhwc_hwcf_f16
// CHECK-SAME:    (%[[X:[^:]+]]: tensor<1x16x16x32xf16>
// CHECK-NOT:     linalg.conv_2d
// CHECK:         %[[COL:.+]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<196x288xf16>)
// CHECK:           linalg.index 0
// CHECK:           tensor.extract %[[X]]
// CHECK:         %[[B:.+]] = tensor.collapse_shape %{{.*}} {{\[}}[0, 1, 2], [3]] : tensor<3x3x32x64xf16> into tensor<288x64xf16>
// CHECK:         %[[MM:.+]] = linalg.matmul {amp.kernel = "conv2d"} ins(%[[COL]], %[[B]] : tensor<196x288xf16>, tensor<288x64xf16>) outs(%{{.*}} : tensor<196x64xf32>)
// CHECK:         tensor.expand_shape %[[MM]] {{\[}}[0, 1, 2], [3]] output_shape [1, 14, 14, 64]
func.func @conv_nhwc_hwcf_f16(%x: tensor<1x16x16x32xf16>, %w: tensor<3x3x32x64xf16>,
                              %o: tensor<1x14x14x64xf32>) -> tensor<1x14x14x64xf32> {
  %0 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%x, %w : tensor<1x16x16x32xf16>, tensor<3x3x32x64xf16>)
         outs(%o : tensor<1x14x14x64xf32>) -> tensor<1x14x14x64xf32>
  return %0 : tensor<1x14x14x64xf32>
}

// -----

// NCHW, strided, batch 2: the filter is broadcast over the batch of a
// batch matmul; the gather's position uses the strides.
// CHECK-LABEL: func.func @conv_nchw_fchw_f16_strided
// CHECK:         %[[COL:.+]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<2x288x49xf16>)
// CHECK:           arith.muli %{{.+}}, %c2
// CHECK:         %[[F:.+]] = linalg.broadcast ins(%{{.*}} : tensor<64x288xf16>) outs(%{{.*}} : tensor<2x64x288xf16>) dimensions = [0]
// CHECK:         linalg.batch_matmul {amp.kernel = "conv2d"} ins(%[[F]], %[[COL]] : tensor<2x64x288xf16>, tensor<2x288x49xf16>) outs(%{{.*}} : tensor<2x64x49xf32>)
func.func @conv_nchw_fchw_f16_strided(%x: tensor<2x32x16x16xf16>, %w: tensor<64x32x3x3xf16>,
                                      %o: tensor<2x64x7x7xf32>) -> tensor<2x64x7x7xf32> {
  %0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
         ins(%x, %w : tensor<2x32x16x16xf16>, tensor<64x32x3x3xf16>)
         outs(%o : tensor<2x64x7x7xf32>) -> tensor<2x64x7x7xf32>
  return %0 : tensor<2x64x7x7xf32>
}

// -----

// NCHW with batch 1: a plain matmul, filter first.
// CHECK-LABEL: func.func @conv_nchw_batch1
// CHECK:         %[[COL:.+]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<288x196xf16>)
// CHECK:         linalg.matmul {amp.kernel = "conv2d"} ins(%{{.*}}, %[[COL]] : tensor<64x288xf16>, tensor<288x196xf16>) outs(%{{.*}} : tensor<64x196xf32>)
func.func @conv_nchw_batch1(%x: tensor<1x32x16x16xf16>, %w: tensor<64x32x3x3xf16>,
                            %o: tensor<1x64x14x14xf32>) -> tensor<1x64x14x14xf32> {
  %0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%x, %w : tensor<1x32x16x16xf16>, tensor<64x32x3x3xf16>)
         outs(%o : tensor<1x64x14x14xf32>) -> tensor<1x64x14x14xf32>
  return %0 : tensor<1x64x14x14xf32>
}

// -----

// A zero padding of the input, behind mixed precision's cast of the padded
// tensor: the gather reads the f32 input, yields zero outside it, and
// rounds what it reads. Dilation 2.
// CHECK-LABEL: func.func @padded_and_cast
// CHECK-SAME:    (%[[X:[^:]+]]: tensor<1x8x8x4xf32>
// CHECK:         linalg.generic {{.*}} outs(%{{.*}} : tensor<64x36xf16>)
// CHECK:           arith.cmpi sge
// CHECK:           arith.cmpi slt
// CHECK:           %[[V:.+]] = tensor.extract %[[X]]
// CHECK:           %[[P:.+]] = arith.select %{{.+}}, %[[V]], %{{.+}} : f32
// CHECK:           arith.truncf %[[P]] : f32 to f16
// CHECK:         linalg.matmul
func.func @padded_and_cast(%x: tensor<1x8x8x4xf32>, %w: tensor<3x3x4x8xf16>,
                           %o: tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32> {
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 2, 2, 0] high[0, 2, 2, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x8x8x4xf32> to tensor<1x12x12x4xf32>
  %e = tensor.empty() : tensor<1x12x12x4xf16>
  %h = linalg.generic {indexing_maps = [affine_map<(a, b, c, d) -> (a, b, c, d)>, affine_map<(a, b, c, d) -> (a, b, c, d)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%p : tensor<1x12x12x4xf32>) outs(%e : tensor<1x12x12x4xf16>) {
  ^bb0(%in: f32, %out: f16):
    %t = arith.truncf %in : f32 to f16
    linalg.yield %t : f16
  } -> tensor<1x12x12x4xf16>
  %0 = linalg.conv_2d_nhwc_hwcf {dilations = dense<2> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%h, %w : tensor<1x12x12x4xf16>, tensor<3x3x4x8xf16>)
         outs(%o : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  return %0 : tensor<1x8x8x8xf32>
}

// -----

// FHWC: a constant filter is transposed at compile time; bf16 works the
// same way.
// CHECK-LABEL: func.func @conv_nhwc_fhwc_bf16_constant
// CHECK:         %[[B:.+]] = arith.constant dense<{{\[\[}}1.000000e+00, 3.000000e+00], [2.000000e+00, 4.000000e+00]]> : tensor<2x2xbf16>
// CHECK-NOT:     linalg.transpose
// CHECK:         linalg.matmul {{.*}} ins(%{{.*}}, %[[B]] : tensor<16x2xbf16>, tensor<2x2xbf16>)
func.func @conv_nhwc_fhwc_bf16_constant(%x: tensor<1x4x4x2xbf16>, %o: tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32> {
  %w = arith.constant dense<[[[[1.0, 2.0]]], [[[3.0, 4.0]]]]> : tensor<2x1x1x2xbf16>
  %0 = linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%x, %w : tensor<1x4x4x2xbf16>, tensor<2x1x1x2xbf16>)
         outs(%o : tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32>
  return %0 : tensor<1x4x4x2xf32>
}

// -----

// An FHWC filter that is not a constant: transposed by a linalg.transpose.
// CHECK-LABEL: func.func @conv_nhwc_fhwc_argument
// CHECK:         linalg.transpose ins(%{{.*}} : tensor<16x72xbf16>) outs(%{{.*}} : tensor<72x16xbf16>) permutation = [1, 0]
// CHECK:         linalg.matmul {{.*}} ins(%{{.*}}, %{{.*}} : tensor<36x72xbf16>, tensor<72x16xbf16>)
func.func @conv_nhwc_fhwc_argument(%x: tensor<1x8x8x8xbf16>, %w: tensor<16x3x3x8xbf16>,
                                   %o: tensor<1x6x6x16xf32>) -> tensor<1x6x6x16xf32> {
  %0 = linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%x, %w : tensor<1x8x8x8xbf16>, tensor<16x3x3x8xbf16>)
         outs(%o : tensor<1x6x6x16xf32>) -> tensor<1x6x6x16xf32>
  return %0 : tensor<1x6x6x16xf32>
}

// -----

// FP32 convolutions (the SIMT baseline) become matmuls too, unless
// include-f32=false. A depthwise convolution becomes a reduction generic
// over (n, oh, ow, c) rows and (kh, kw) columns that reads the input in its
// payload and the filter as an operand (--amp-gpu-row-reductions gives it
// a kernel).
// CHECK-LABEL: func.func @conv_f32_and_depthwise
// CHECK-SAME:    %[[XH:[^:]+]]: tensor<1x8x8x8xf16>, %[[WD:[^:]+]]: tensor<3x3x8xf16>
// CHECK:         linalg.matmul {amp.kernel = "conv2d"} ins(%{{.*}}, %{{.*}} : tensor<36x72xf32>, tensor<72x8xf32>)
// CHECK:         linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%[[WD]] : tensor<3x3x8xf16>) outs(%{{.*}} : tensor<1x6x6x8xf32>) attrs = {amp.kernel = "dwconv2d"}
// CHECK:           tensor.extract %[[XH]]
// CHECK:           arith.extf
// CHECK:           arith.mulf
// CHECK:           arith.addf
// CHECK-NOT:     linalg.depthwise_conv_2d_nhwc_hwc
// NOF32-LABEL:   func.func @conv_f32_and_depthwise
// NOF32:         linalg.conv_2d_nhwc_hwcf
// NOF32-NOT:     linalg.matmul
func.func @conv_f32_and_depthwise(%x: tensor<1x8x8x8xf32>, %w: tensor<3x3x8x8xf32>,
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

