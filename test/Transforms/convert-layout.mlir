// --amp-convert-layout rewrites each NCHW layer to its channels-last form.
// With propagate=false the four transposes of each layer stay, which shows
// the rewrite itself; the default run folds and cancels them
// (convert-layout-propagation.mlir).
// RUN: amp-opt %s --split-input-file --amp-convert-layout=propagate=false | FileCheck %s --check-prefix=RAW
// RUN: amp-opt %s --split-input-file --amp-convert-layout | FileCheck %s
// RUN: amp-opt %s --split-input-file --amp-convert-layout=filter=fhwc | FileCheck %s --check-prefix=FHWC

// RAW-LABEL: func.func @conv_2d_nchw_fchw
// RAW-SAME: (%[[X:.+]]: tensor<1x3x10x12xf32>, %[[W:.+]]: tensor<4x3x3x3xf32>, %[[I:.+]]: tensor<1x4x8x10xf32>)
// RAW: %[[XT:.+]] = linalg.transpose ins(%[[X]] : tensor<1x3x10x12xf32>) outs(%{{.+}} : tensor<1x10x12x3xf32>) permutation = [0, 2, 3, 1]
// RAW: %[[WT:.+]] = linalg.transpose ins(%[[W]] : tensor<4x3x3x3xf32>) outs(%{{.+}} : tensor<3x3x3x4xf32>) permutation = [2, 3, 1, 0]
// RAW: %[[IT:.+]] = linalg.transpose ins(%[[I]] : tensor<1x4x8x10xf32>) outs(%{{.+}} : tensor<1x8x10x4xf32>) permutation = [0, 2, 3, 1]
// RAW: %[[C:.+]] = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%[[XT]], %[[WT]] : tensor<1x10x12x3xf32>, tensor<3x3x3x4xf32>) outs(%[[IT]] : tensor<1x8x10x4xf32>) -> tensor<1x8x10x4xf32>
// RAW: %[[R:.+]] = linalg.transpose ins(%[[C]] : tensor<1x8x10x4xf32>) outs(%{{.+}} : tensor<1x4x8x10xf32>) permutation = [0, 3, 1, 2]
// RAW: return %[[R]] : tensor<1x4x8x10xf32>
// CHECK-LABEL: func.func @conv_2d_nchw_fchw
// CHECK: linalg.conv_2d_nhwc_hwcf
// FHWC-LABEL: func.func @conv_2d_nchw_fchw
// FHWC: %[[WT:.+]] = linalg.transpose ins(%{{.+}} : tensor<4x3x3x3xf32>) outs(%{{.+}} : tensor<4x3x3x3xf32>) permutation = [0, 2, 3, 1]
// FHWC: linalg.conv_2d_nhwc_fhwc {{.*}} ins(%{{.+}}, %[[WT]] : tensor<1x10x12x3xf32>, tensor<4x3x3x3xf32>) outs(%{{.+}} : tensor<1x8x10x4xf32>)
func.func @conv_2d_nchw_fchw(%x: tensor<1x3x10x12xf32>, %w: tensor<4x3x3x3xf32>, %i: tensor<1x4x8x10xf32>) -> tensor<1x4x8x10xf32> {
  %0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%x, %w : tensor<1x3x10x12xf32>, tensor<4x3x3x3xf32>) outs(%i : tensor<1x4x8x10xf32>) -> tensor<1x4x8x10xf32>
  return %0 : tensor<1x4x8x10xf32>
}

// -----

// RAW-LABEL: func.func @depthwise
// RAW: linalg.transpose ins(%{{.+}} : tensor<4x3x3xf32>) outs(%{{.+}} : tensor<3x3x4xf32>) permutation = [1, 2, 0]
// RAW: linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%{{.+}}, %{{.+}} : tensor<1x9x9x4xf32>, tensor<3x3x4xf32>) outs(%{{.+}} : tensor<1x4x4x4xf32>)
// FHWC-LABEL: func.func @depthwise
// FHWC: linalg.depthwise_conv_2d_nhwc_hwc
func.func @depthwise(%x: tensor<1x4x9x9xf32>, %w: tensor<4x3x3xf32>, %i: tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32> {
  %0 = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>}
      ins(%x, %w : tensor<1x4x9x9xf32>, tensor<4x3x3xf32>) outs(%i : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  return %0 : tensor<1x4x4x4xf32>
}

// -----

// The pooling window only gives a shape: it is not transposed.
// RAW-LABEL: func.func @poolings
// RAW-SAME: %[[WIN:[a-z0-9]+]]: tensor<2x3xf32>
// RAW: linalg.pooling_nhwc_max {{.*}} ins(%{{.+}}, %[[WIN]] : tensor<1x8x9x4xf32>, tensor<2x3xf32>) outs(%{{.+}} : tensor<1x4x3x4xf32>)
// RAW: linalg.pooling_nhwc_sum {{.*}} ins(%{{.+}}, %[[WIN]] : tensor<1x8x9x4xf32>, tensor<2x3xf32>) outs(%{{.+}} : tensor<1x4x3x4xf32>)
func.func @poolings(%x: tensor<1x4x8x9xf32>, %win: tensor<2x3xf32>, %i: tensor<1x4x4x3xf32>) -> (tensor<1x4x4x3xf32>, tensor<1x4x4x3xf32>) {
  %0 = linalg.pooling_nchw_max {dilations = dense<1> : vector<2xi64>, strides = dense<[2, 3]> : vector<2xi64>}
      ins(%x, %win : tensor<1x4x8x9xf32>, tensor<2x3xf32>) outs(%i : tensor<1x4x4x3xf32>) -> tensor<1x4x4x3xf32>
  %1 = linalg.pooling_nchw_sum {dilations = dense<1> : vector<2xi64>, strides = dense<[2, 3]> : vector<2xi64>}
      ins(%x, %win : tensor<1x4x8x9xf32>, tensor<2x3xf32>) outs(%i : tensor<1x4x4x3xf32>) -> tensor<1x4x4x3xf32>
  return %0, %1 : tensor<1x4x4x3xf32>, tensor<1x4x4x3xf32>
}

// -----

// Dynamic sizes go through tensor.dim.
// RAW-LABEL: func.func @dynamic_batch
// RAW: %[[N:.+]] = tensor.dim %{{.+}}, %{{.+}} : tensor<?x3x8x8xf32>
// RAW: tensor.empty(%[[N]]) : tensor<?x8x8x3xf32>
// RAW: linalg.conv_2d_nhwc_hwcf {{.*}} -> tensor<?x6x6x4xf32>
func.func @dynamic_batch(%x: tensor<?x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %i: tensor<?x4x6x6xf32>) -> tensor<?x4x6x6xf32> {
  %0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%x, %w : tensor<?x3x8x8xf32>, tensor<4x3x3x3xf32>) outs(%i : tensor<?x4x6x6xf32>) -> tensor<?x4x6x6xf32>
  return %0 : tensor<?x4x6x6xf32>
}

// -----

// Annotations on a layer carry over.
// RAW-LABEL: func.func @annotation_kept
// RAW: linalg.conv_2d_nhwc_hwcf {amp.color = #amp.color<red>,
func.func @annotation_kept(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %i: tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32> {
  %0 = linalg.conv_2d_nchw_fchw {amp.color = #amp.color<red>, dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%x, %w : tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) outs(%i : tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  return %0 : tensor<1x4x6x6xf32>
}

// -----

// Layers that are channels-last already, on buffers, or not convolutions
// or poolings stay as they are.
// RAW-LABEL: func.func @negative_left_alone
// RAW-NOT: linalg.transpose
// RAW: linalg.conv_2d_nhwc_hwcf
// RAW: linalg.conv_2d_nchw_fchw ins(%{{.+}}, %{{.+}} : memref<1x3x8x8xf32>, memref<4x3x3x3xf32>)
// RAW: linalg.matmul
// RAW-NOT: linalg.transpose
func.func @negative_left_alone(%x: tensor<1x8x8x3xf32>, %w: tensor<3x3x3x4xf32>, %i: tensor<1x6x6x4xf32>,
                               %bx: memref<1x3x8x8xf32>, %bw: memref<4x3x3x3xf32>, %bi: memref<1x4x6x6xf32>,
                               %a: tensor<4x4xf32>) -> (tensor<1x6x6x4xf32>, tensor<4x4xf32>) {
  %0 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%x, %w : tensor<1x8x8x3xf32>, tensor<3x3x3x4xf32>) outs(%i : tensor<1x6x6x4xf32>) -> tensor<1x6x6x4xf32>
  linalg.conv_2d_nchw_fchw ins(%bx, %bw : memref<1x3x8x8xf32>, memref<4x3x3x3xf32>) outs(%bi : memref<1x4x6x6xf32>)
  %1 = linalg.matmul ins(%a, %a : tensor<4x4xf32>, tensor<4x4xf32>) outs(%a : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %0, %1 : tensor<1x6x6x4xf32>, tensor<4x4xf32>
}
