// ops= and skip-layers= of --amp-recast. The indices are those that
// --amp-count-layers prints for the same ops= list.
// RUN: amp-opt %s --amp-count-layers=ops=convolution,matmul -o /dev/null 2>&1 | FileCheck %s --check-prefix=COUNT
// RUN: amp-opt %s --amp-recast=skip-layers=0,-1 | FileCheck %s --check-prefix=SKIP
// RUN: amp-opt %s --amp-recast=skip-layers=1,2 | FileCheck %s --check-prefix=SKIP12
// RUN: amp-opt %s --amp-recast=ops=matmul | FileCheck %s --check-prefix=MATMUL
// RUN: amp-opt %s --amp-recast=ops=linalg.conv_2d_nchw_fchw,linalg.pooling_nchw_max | FileCheck %s --check-prefix=NAMES
// RUN: amp-opt %s "--amp-recast=ops=matmul skip-layers=-1" | FileCheck %s --check-prefix=MATMUL-SKIP
// RUN: amp-opt %s --pass-pipeline="builtin.module(func.func(amp-recast{skip-layers=0}))" | FileCheck %s --check-prefix=FUNC

// COUNT: remark: layer 0: linalg.matmul (matmul)
// COUNT: remark: layer 1: linalg.conv_2d_nchw_fchw (convolution)
// COUNT: remark: layer 2: linalg.matmul (matmul)
// COUNT: remark: layer 3: linalg.matmul (matmul)
// COUNT: remark: 4 layers (ops=convolution,matmul): 3 linalg.matmul, 1 linalg.conv_2d_nchw_fchw

// SKIP-LABEL: func.func @layers
// SKIP: linalg.matmul ins({{.*}} : tensor<4x4xf32>, tensor<4x4xf32>)
// SKIP: linalg.conv_2d_nchw_fchw {{.*}} ins({{.*}} : tensor<1x2x6x6xf16>, tensor<2x2x3x3xf16>)
// SKIP: linalg.pooling_nchw_max {{.*}} ins({{.*}} : tensor<1x2x4x4xf32>,
// SKIP: linalg.matmul ins({{.*}} : tensor<4x4xf16>, tensor<4x4xf16>)
// SKIP-LABEL: func.func @other
// SKIP: linalg.matmul ins({{.*}} : tensor<4x4xf32>, tensor<4x4xf32>)

// SKIP12-LABEL: func.func @layers
// SKIP12: linalg.matmul ins({{.*}} : tensor<4x4xf16>, tensor<4x4xf16>)
// SKIP12: linalg.conv_2d_nchw_fchw {{.*}} ins({{.*}} : tensor<1x2x6x6xf32>, tensor<2x2x3x3xf32>)
// SKIP12: linalg.matmul ins({{.*}} : tensor<4x4xf32>, tensor<4x4xf32>)
// SKIP12-LABEL: func.func @other
// SKIP12: linalg.matmul ins({{.*}} : tensor<4x4xf16>, tensor<4x4xf16>)

// MATMUL-LABEL: func.func @layers
// MATMUL: linalg.matmul ins({{.*}} : tensor<4x4xf16>, tensor<4x4xf16>)
// MATMUL: linalg.conv_2d_nchw_fchw {{.*}} ins({{.*}} : tensor<1x2x6x6xf32>, tensor<2x2x3x3xf32>)
// MATMUL: linalg.matmul ins({{.*}} : tensor<4x4xf16>, tensor<4x4xf16>)
// MATMUL-LABEL: func.func @other
// MATMUL: linalg.matmul ins({{.*}} : tensor<4x4xf16>, tensor<4x4xf16>)

// NAMES-LABEL: func.func @layers
// NAMES: linalg.matmul ins({{.*}} : tensor<4x4xf32>, tensor<4x4xf32>)
// NAMES: linalg.conv_2d_nchw_fchw {{.*}} ins({{.*}} : tensor<1x2x6x6xf16>, tensor<2x2x3x3xf16>)
// NAMES: linalg.pooling_nchw_max {{.*}} ins({{.*}} : tensor<1x2x4x4xf16>, tensor<2x2xf32>) outs({{.*}} : tensor<1x2x2x2xf32>)

// The last matmul of the module is the one in @other.
// MATMUL-SKIP-LABEL: func.func @layers
// MATMUL-SKIP: linalg.matmul ins({{.*}} : tensor<4x4xf16>, tensor<4x4xf16>)
// MATMUL-SKIP: linalg.matmul ins({{.*}} : tensor<4x4xf16>, tensor<4x4xf16>)
// MATMUL-SKIP-LABEL: func.func @other
// MATMUL-SKIP: linalg.matmul ins({{.*}} : tensor<4x4xf32>, tensor<4x4xf32>)

// Run on each function, the indices count the layers of that function.
// FUNC-LABEL: func.func @layers
// FUNC: linalg.matmul ins({{.*}} : tensor<4x4xf32>, tensor<4x4xf32>)
// FUNC: linalg.conv_2d_nchw_fchw {{.*}} ins({{.*}} : tensor<1x2x6x6xf16>, tensor<2x2x3x3xf16>)
// FUNC-LABEL: func.func @other
// FUNC: linalg.matmul ins({{.*}} : tensor<4x4xf32>, tensor<4x4xf32>)

func.func @layers(%a: tensor<4x4xf32>, %x: tensor<1x2x6x6xf32>, %w: tensor<2x2x3x3xf32>,
                  %i: tensor<1x2x4x4xf32>, %p: tensor<1x2x2x2xf32>) -> (tensor<4x4xf32>, tensor<1x2x2x2xf32>) {
  %0 = linalg.matmul ins(%a, %a : tensor<4x4xf32>, tensor<4x4xf32>) outs(%a : tensor<4x4xf32>) -> tensor<4x4xf32>
  %1 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%x, %w : tensor<1x2x6x6xf32>, tensor<2x2x3x3xf32>) outs(%i : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %win = tensor.empty() : tensor<2x2xf32>
  %2 = linalg.pooling_nchw_max {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>}
      ins(%1, %win : tensor<1x2x4x4xf32>, tensor<2x2xf32>) outs(%p : tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  %3 = linalg.matmul ins(%0, %a : tensor<4x4xf32>, tensor<4x4xf32>) outs(%a : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %3, %2 : tensor<4x4xf32>, tensor<1x2x2x2xf32>
}

func.func @other(%a: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %0 = linalg.matmul ins(%a, %a : tensor<4x4xf32>, tensor<4x4xf32>) outs(%a : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}
