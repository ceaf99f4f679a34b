// The three benchmarking passes compose with --amp-mixed-precision in one
// pipeline, in either order, and the result verifies (every RUN line parses
// its output again). On the corpus CNNs: only the two edge transposes stay.
// RUN: amp-opt %s --amp-count-layers=remarks=false --amp-convert-layout "--amp-recast=type=i8 ops=matmul" --amp-mixed-precision | FileCheck %s
// RUN: amp-opt %s --amp-mixed-precision --amp-convert-layout --amp-recast=type=bf16 | amp-opt | FileCheck %s --check-prefix=MIXED-FIRST
// RUN: amp-opt %s --pass-pipeline="builtin.module(amp-convert-layout{filter=fhwc skip-layers=-1},amp-mixed-precision{target-type=bf16},amp-recast{type=f8E4M3FN accumulate-type=f16 ops=matmul},canonicalize,cse)" | amp-opt | FileCheck %s --check-prefix=PIPELINE
// RUN: amp-opt %corpus/linalg/resnet18.mlir --amp-convert-layout --amp-recast=type=f16 --amp-mixed-precision 2>/dev/null | FileCheck %s --check-prefix=CORPUS
// RUN: amp-opt %corpus/linalg/mobilenet_v2.mlir --amp-mixed-precision --amp-convert-layout=filter=fhwc "--amp-recast=type=i8 ops=linalg.matmul" 2>/dev/null | FileCheck %s --check-prefix=CORPUS
// RUN: amp-opt %corpus/linalg/efficientnet_b0.mlir --amp-convert-layout --amp-mixed-precision 2>/dev/null | FileCheck %s --check-prefix=CORPUS
// RUN: amp-opt %corpus/linalg/resnet50.mlir --amp-convert-layout 2>/dev/null | FileCheck %s --check-prefix=CORPUS
// RUN: amp-opt %corpus/linalg/vgg16.mlir --amp-convert-layout --amp-mixed-precision 2>/dev/null | FileCheck %s --check-prefix=CORPUS

// Layout first: NHWC convolutions with f16 inputs (mixed precision), the
// matmul in i8 (recast), transposes only at the edges.
// CHECK-LABEL: func.func @cnn
// CHECK: linalg.transpose {{.*}} permutation = [0, 2, 3, 1]
// CHECK: linalg.conv_2d_nhwc_hwcf {{.*}} ins(%{{.+}}, %{{.+}} : tensor<1x8x8x3xf16>, tensor<3x3x3x4xf16>) outs(%{{.+}} : tensor<1x6x6x4xf32>)
// CHECK: linalg.pooling_nhwc_max
// CHECK: linalg.transpose {{.*}} permutation = [0, 3, 1, 2]
// CHECK: linalg.matmul ins(%{{.+}}, %{{.+}} : tensor<4x9xi8>, tensor<9x2xi8>) outs(%{{.+}} : tensor<4x2xi32>)
// CHECK-NOT: linalg.transpose
// CHECK: return %{{.+}} : tensor<4x2xf32>

// Mixed precision first: the layout conversion keeps the f16 types, recast
// moves the convolution to bf16 from there.
// MIXED-FIRST-LABEL: func.func @cnn
// MIXED-FIRST: linalg.conv_2d_nhwc_hwcf {{.*}} ins(%{{.+}}, %{{.+}} : tensor<1x8x8x3xbf16>, tensor<3x3x3x4xbf16>) outs(%{{.+}} : tensor<1x6x6x4xf32>)
// MIXED-FIRST: linalg.matmul ins(%{{.+}}, %{{.+}} : tensor<4x9xbf16>, tensor<9x2xbf16>)
// MIXED-FIRST: return %{{.+}} : tensor<4x2xf32>

// PIPELINE-LABEL: func.func @cnn
// PIPELINE: linalg.conv_2d_nhwc_fhwc {{.*}} ins(%{{.+}}, %{{.+}} : tensor<1x8x8x3xbf16>, tensor<4x3x3x3xbf16>)
// PIPELINE: linalg.pooling_nchw_max
// PIPELINE: linalg.matmul ins(%{{.+}}, %{{.+}} : tensor<4x9xf8E4M3FN>, tensor<9x2xf8E4M3FN>) outs(%{{.+}} : tensor<4x2xf16>)

// CORPUS-LABEL: func.func @forward
// CORPUS-COUNT-2: linalg.transpose
// CORPUS-NOT: linalg.transpose
// CORPUS-NOT: _nchw_
// CORPUS: return

func.func @cnn(%x: tensor<1x3x8x8xf32>, %b: tensor<9x2xf32>) -> tensor<4x2xf32> {
  %zero = arith.constant 0.0 : f32
  %lowest = arith.constant -3.40282347E+38 : f32
  %w = arith.constant dense<0.5> : tensor<4x3x3x3xf32>
  %e = tensor.empty() : tensor<1x4x6x6xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%x, %w : tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) outs(%f : tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  %ep = tensor.empty() : tensor<1x4x3x3xf32>
  %fp = linalg.fill ins(%lowest : f32) outs(%ep : tensor<1x4x3x3xf32>) -> tensor<1x4x3x3xf32>
  %win = tensor.empty() : tensor<2x2xf32>
  %p = linalg.pooling_nchw_max {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>}
      ins(%c, %win : tensor<1x4x6x6xf32>, tensor<2x2xf32>) outs(%fp : tensor<1x4x3x3xf32>) -> tensor<1x4x3x3xf32>
  %flat = tensor.collapse_shape %p [[0, 1], [2, 3]] : tensor<1x4x3x3xf32> into tensor<4x9xf32>
  %em = tensor.empty() : tensor<4x2xf32>
  %fm = linalg.fill ins(%zero : f32) outs(%em : tensor<4x2xf32>) -> tensor<4x2xf32>
  %m = linalg.matmul ins(%flat, %b : tensor<4x9xf32>, tensor<9x2xf32>) outs(%fm : tensor<4x2xf32>) -> tensor<4x2xf32>
  return %m : tensor<4x2xf32>
}
