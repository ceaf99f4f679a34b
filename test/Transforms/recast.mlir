// --amp-recast on linalg layers with float types: data inputs are converted
// to `type`, the accumulator to `accumulate-type`, results back to f32;
// conversions of constants and fills fold.
// RUN: amp-opt %s --split-input-file --amp-recast | FileCheck %s
// RUN: amp-opt %s --split-input-file --amp-recast=type=bf16 | FileCheck %s --check-prefix=BF16
// A generic payload cannot accumulate in f16 (recast-invalid.mlir): the f8
// runs select the named ops.
// RUN: amp-opt %s --split-input-file "--amp-recast=type=f8E4M3FN accumulate-type=f16 ops=linalg.matmul,linalg.conv_2d_nchw_fchw" | FileCheck %s --check-prefix=F8
// RUN: amp-opt %s --split-input-file "--amp-recast=type=f8E5M2 accumulate-type=bf16 ops=linalg.matmul" | FileCheck %s --check-prefix=E5M2

// CHECK-LABEL: func.func @matmul_f16_acc_f32
// CHECK-SAME: (%[[A:.+]]: tensor<8x16xf32>, %[[B:.+]]: tensor<16x4xf32>) -> tensor<8x4xf32>
// CHECK-DAG: %[[A16:.+]] = arith.truncf %[[A]] : tensor<8x16xf32> to tensor<8x16xf16>
// CHECK-DAG: %[[B16:.+]] = arith.truncf %[[B]] : tensor<16x4xf32> to tensor<16x4xf16>
// CHECK: %[[M:.+]] = linalg.matmul ins(%[[A16]], %[[B16]] : tensor<8x16xf16>, tensor<16x4xf16>) outs(%{{.+}} : tensor<8x4xf32>) -> tensor<8x4xf32>
// CHECK: return %[[M]] : tensor<8x4xf32>
// BF16-LABEL: func.func @matmul_f16_acc_f32
// BF16: linalg.matmul ins(%{{.+}}, %{{.+}} : tensor<8x16xbf16>, tensor<16x4xbf16>) outs(%{{.+}} : tensor<8x4xf32>)
// F8-LABEL: func.func @matmul_f16_acc_f32
// F8: %[[ZERO:.+]] = arith.constant 0.000000e+00 : f16
// F8: %[[INIT:.+]] = linalg.fill ins(%[[ZERO]] : f16) outs(%{{.+}} : tensor<8x4xf16>)
// F8: %[[M:.+]] = linalg.matmul ins(%{{.+}}, %{{.+}} : tensor<8x16xf8E4M3FN>, tensor<16x4xf8E4M3FN>) outs(%[[INIT]] : tensor<8x4xf16>) -> tensor<8x4xf16>
// F8: %[[R:.+]] = arith.extf %[[M]] : tensor<8x4xf16> to tensor<8x4xf32>
// F8: return %[[R]]
// E5M2-LABEL: func.func @matmul_f16_acc_f32
// E5M2: linalg.matmul ins(%{{.+}}, %{{.+}} : tensor<8x16xf8E5M2>, tensor<16x4xf8E5M2>) outs(%{{.+}} : tensor<8x4xbf16>)
func.func @matmul_f16_acc_f32(%a: tensor<8x16xf32>, %b: tensor<16x4xf32>) -> tensor<8x4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8x4xf32>) -> tensor<8x4xf32>
  %0 = linalg.matmul ins(%a, %b : tensor<8x16xf32>, tensor<16x4xf32>) outs(%f : tensor<8x4xf32>) -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

// -----

// Weights are constants: they fold into constants of the new type, and the
// FP32 ones go away.
// CHECK-LABEL: func.func @conv_weights_fold
// CHECK-NOT: tensor<4x3x3x3xf32>
// CHECK: %[[W:.+]] = arith.constant dense<5.000000e-01> : tensor<4x3x3x3xf16>
// CHECK: linalg.conv_2d_nchw_fchw {{.*}} ins(%{{.+}}, %[[W]] : tensor<1x3x10x10xf16>, tensor<4x3x3x3xf16>) outs(%{{.+}} : tensor<1x4x8x8xf32>)
// CHECK-NOT: tensor<4x3x3x3xf32>
// F8-LABEL: func.func @conv_weights_fold
// F8: arith.constant dense<5.000000e-01> : tensor<4x3x3x3xf8E4M3FN>
func.func @conv_weights_fold(%x: tensor<1x3x10x10xf32>, %init: tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32> {
  %w = arith.constant dense<0.5> : tensor<4x3x3x3xf32>
  %0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%x, %w : tensor<1x3x10x10xf32>, tensor<4x3x3x3xf32>) outs(%init : tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  return %0 : tensor<1x4x8x8xf32>
}

// -----

// Every convolution and matmul kind is a layer: depthwise convolutions and
// batch matmuls too.
// CHECK-LABEL: func.func @depthwise_and_batch_matmul
// CHECK: linalg.depthwise_conv_2d_nchw_chw {{.*}} ins(%{{.+}}, %{{.+}} : tensor<1x4x6x6xf16>, tensor<4x3x3xf16>) outs(%{{.+}} : tensor<1x4x4x4xf32>)
// CHECK: linalg.batch_matmul ins(%{{.+}}, %{{.+}} : tensor<2x4x8xf16>, tensor<2x8x4xf16>) outs(%{{.+}} : tensor<2x4x4xf32>)
func.func @depthwise_and_batch_matmul(%x: tensor<1x4x6x6xf32>, %w: tensor<4x3x3xf32>, %i: tensor<1x4x4x4xf32>,
                                      %a: tensor<2x4x8xf32>, %b: tensor<2x8x4xf32>, %c: tensor<2x4x4xf32>)
    -> (tensor<1x4x4x4xf32>, tensor<2x4x4xf32>) {
  %0 = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%x, %w : tensor<1x4x6x6xf32>, tensor<4x3x3xf32>) outs(%i : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  %1 = linalg.batch_matmul ins(%a, %b : tensor<2x4x8xf32>, tensor<2x8x4xf32>) outs(%c : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  return %0, %1 : tensor<1x4x4x4xf32>, tensor<2x4x4xf32>
}

// -----

// A linalg.generic that computes a matmul is a matmul layer: its inputs
// become f16 and its payload still accumulates in f32.
// CHECK-LABEL: func.func @generic_matmul
// CHECK: linalg.generic {{.*}} ins(%{{.+}}, %{{.+}} : tensor<8x16xf16>, tensor<16x4xf16>) outs(%{{.+}} : tensor<8x4xf32>)
// CHECK: ^bb0(%[[X:.+]]: f16, %[[Y:.+]]: f16, %[[ACC:.+]]: f32):
// CHECK-DAG: arith.extf %[[X]] : f16 to f32
// CHECK-DAG: arith.extf %[[Y]] : f16 to f32
// CHECK: arith.mulf {{.*}} : f32
func.func @generic_matmul(%a: tensor<8x16xf32>, %b: tensor<16x4xf32>, %c: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %0 = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<8x16xf32>, tensor<16x4xf32>) outs(%c : tensor<8x4xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %m = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

// -----

// Only layers change: elementwise ops, and poolings (not selected by
// default), keep their types.
// CHECK-LABEL: func.func @negative_not_a_layer
// CHECK-NOT: f16
// CHECK: linalg.generic
// CHECK: linalg.pooling_nchw_max {{.*}} ins(%{{.+}}, %{{.+}} : tensor<1x4x8x8xf32>, tensor<2x2xf32>)
// CHECK-NOT: f16
func.func @negative_not_a_layer(%x: tensor<1x4x8x8xf32>, %i: tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32> {
  %e = tensor.empty() : tensor<1x4x8x8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(n, c, h, w) -> (n, c, h, w)>, affine_map<(n, c, h, w) -> (n, c, h, w)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x : tensor<1x4x8x8xf32>) outs(%e : tensor<1x4x8x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.mulf %in, %in : f32
    linalg.yield %m : f32
  } -> tensor<1x4x8x8xf32>
  %w = tensor.empty() : tensor<2x2xf32>
  %0 = linalg.pooling_nchw_max {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>}
      ins(%r, %w : tensor<1x4x8x8xf32>, tensor<2x2xf32>) outs(%i : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  return %0 : tensor<1x4x4x4xf32>
}

// -----

// A layer that is not FP32 is recast from the types it has, and its result
// goes back to its own type.
// CHECK-LABEL: func.func @from_f16
// CHECK: linalg.matmul ins(%{{.+}}, %{{.+}} : tensor<8x8xf16>, tensor<8x8xf16>) outs(%{{.+}} : tensor<8x8xf32>)
// BF16-LABEL: func.func @from_f16
// BF16-DAG: arith.extf %{{.+}} : tensor<8x8xf16> to tensor<8x8xf32>
// BF16-DAG: arith.truncf %{{.+}} : tensor<8x8xf32> to tensor<8x8xbf16>
// BF16: linalg.matmul ins(%{{.+}}, %{{.+}} : tensor<8x8xbf16>, tensor<8x8xbf16>) outs(%{{.+}} : tensor<8x8xf32>)
// BF16: arith.truncf %{{.+}} : tensor<8x8xf32> to tensor<8x8xf16>
func.func @from_f16(%a: tensor<8x8xf16>, %c: tensor<8x8xf16>) -> tensor<8x8xf16> {
  %0 = linalg.matmul ins(%a, %a : tensor<8x8xf16>, tensor<8x8xf16>) outs(%c : tensor<8x8xf16>) -> tensor<8x8xf16>
  return %0 : tensor<8x8xf16>
}
