// RUN: amp-opt %s --amp-mixed-precision=gray-strategy=fewest-casts --split-input-file | FileCheck %s
// RUN: amp-opt %s --amp-mixed-precision=gray-strategy=fewest-casts --split-input-file | amp-opt --verify-roundtrip > /dev/null

// Green linalg named ops: f16 inputs, f32 init (accumulator), f32 result.

// CHECK-LABEL: func.func @matmul_f32_to_f16_acc_f32
// CHECK-SAME: (%[[A:.+]]: tensor<16x32xf32>, %[[B:.+]]: tensor<32x8xf32>, %[[C:.+]]: tensor<16x8xf32>) -> tensor<16x8xf32>
// CHECK-DAG: %[[A16:.+]] = arith.truncf %[[A]] : tensor<16x32xf32> to tensor<16x32xf16>
// CHECK-DAG: %[[B16:.+]] = arith.truncf %[[B]] : tensor<32x8xf32> to tensor<32x8xf16>
// CHECK: %[[R:.+]] = linalg.matmul ins(%[[A16]], %[[B16]] : tensor<16x32xf16>, tensor<32x8xf16>) outs(%[[C]] : tensor<16x8xf32>) -> tensor<16x8xf32>
// CHECK: return %[[R]] : tensor<16x8xf32>
func.func @matmul_f32_to_f16_acc_f32(%a: tensor<16x32xf32>, %b: tensor<32x8xf32>, %c: tensor<16x8xf32>) -> tensor<16x8xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<16x32xf32>, tensor<32x8xf32>) outs(%c : tensor<16x8xf32>) -> tensor<16x8xf32>
  return %0 : tensor<16x8xf32>
}

// -----

// CHECK-LABEL: func.func @batch_matmul
// CHECK: linalg.batch_matmul ins(%{{.+}}, %{{.+}} : tensor<2x16x32xf16>, tensor<2x32x8xf16>) outs(%{{.+}} : tensor<2x16x8xf32>)
func.func @batch_matmul(%a: tensor<2x16x32xf32>, %b: tensor<2x32x8xf32>, %c: tensor<2x16x8xf32>) -> tensor<2x16x8xf32> {
  %0 = linalg.batch_matmul ins(%a, %b : tensor<2x16x32xf32>, tensor<2x32x8xf32>) outs(%c : tensor<2x16x8xf32>) -> tensor<2x16x8xf32>
  return %0 : tensor<2x16x8xf32>
}

// -----

// CHECK-LABEL: func.func @batch_reduce_matmul
// CHECK: linalg.batch_reduce_matmul ins(%{{.+}}, %{{.+}} : tensor<2x16x32xf16>, tensor<2x32x8xf16>) outs(%{{.+}} : tensor<16x8xf32>)
func.func @batch_reduce_matmul(%a: tensor<2x16x32xf32>, %b: tensor<2x32x8xf32>, %c: tensor<16x8xf32>) -> tensor<16x8xf32> {
  %0 = linalg.batch_reduce_matmul ins(%a, %b : tensor<2x16x32xf32>, tensor<2x32x8xf32>) outs(%c : tensor<16x8xf32>) -> tensor<16x8xf32>
  return %0 : tensor<16x8xf32>
}

// -----

// CHECK-LABEL: func.func @matvec_vecmat_dot
// CHECK: linalg.matvec ins(%{{.+}}, %{{.+}} : tensor<16x32xf16>, tensor<32xf16>) outs(%{{.+}} : tensor<16xf32>)
// CHECK: linalg.vecmat ins(%{{.+}}, %{{.+}} : tensor<16xf16>, tensor<16x32xf16>) outs(%{{.+}} : tensor<32xf32>)
// CHECK: linalg.dot ins(%{{.+}}, %{{.+}} : tensor<32xf16>, tensor<32xf16>) outs(%{{.+}} : tensor<f32>)
func.func @matvec_vecmat_dot(%m: tensor<16x32xf32>, %v: tensor<32xf32>, %u: tensor<16xf32>, %w: tensor<32xf32>, %s: tensor<f32>) -> (tensor<16xf32>, tensor<32xf32>, tensor<f32>) {
  %0 = linalg.matvec ins(%m, %v : tensor<16x32xf32>, tensor<32xf32>) outs(%u : tensor<16xf32>) -> tensor<16xf32>
  %1 = linalg.vecmat ins(%u, %m : tensor<16xf32>, tensor<16x32xf32>) outs(%w : tensor<32xf32>) -> tensor<32xf32>
  %2 = linalg.dot ins(%v, %w : tensor<32xf32>, tensor<32xf32>) outs(%s : tensor<f32>) -> tensor<f32>
  return %0, %1, %2 : tensor<16xf32>, tensor<32xf32>, tensor<f32>
}

// -----

// A transposed matmul (indexing_maps) and linalg.contract.
// CHECK-LABEL: func.func @matmul_transposed_and_contract
// CHECK: linalg.matmul indexing_maps = {{.*}} ins(%{{.+}}, %{{.+}} : tensor<16x32xf16>, tensor<8x32xf16>) outs(%{{.+}} : tensor<16x8xf32>)
// CHECK: linalg.contract indexing_maps = {{.*}} ins(%{{.+}}, %{{.+}} : tensor<16x32xf16>, tensor<32x8xf16>) outs(%{{.+}} : tensor<16x8xf32>)
func.func @matmul_transposed_and_contract(%a: tensor<16x32xf32>, %bt: tensor<8x32xf32>, %b: tensor<32x8xf32>, %c: tensor<16x8xf32>) -> (tensor<16x8xf32>, tensor<16x8xf32>) {
  %0 = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%a, %bt : tensor<16x32xf32>, tensor<8x32xf32>) outs(%c : tensor<16x8xf32>) -> tensor<16x8xf32>
  %1 = linalg.contract indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%a, %b : tensor<16x32xf32>, tensor<32x8xf32>) outs(%c : tensor<16x8xf32>) -> tensor<16x8xf32>
  return %0, %1 : tensor<16x8xf32>, tensor<16x8xf32>
}

// -----

// Convolutions of every layout, depthwise included.
// CHECK-LABEL: func.func @convolutions
// CHECK: linalg.conv_1d ins(%{{.+}}, %{{.+}} : tensor<18xf16>, tensor<3xf16>) outs(%{{.+}} : tensor<16xf32>)
// CHECK: linalg.conv_2d_nchw_fchw {{.*}} ins(%{{.+}}, %{{.+}} : tensor<1x3x16x16xf16>, tensor<8x3x3x3xf16>) outs(%{{.+}} : tensor<1x8x14x14xf32>)
// CHECK: linalg.conv_2d_nhwc_hwcf {{.*}} ins(%{{.+}}, %{{.+}} : tensor<1x16x16x3xf16>, tensor<3x3x3x8xf16>) outs(%{{.+}} : tensor<1x14x14x8xf32>)
// CHECK: linalg.depthwise_conv_2d_nchw_chw {{.*}} ins(%{{.+}}, %{{.+}} : tensor<1x8x16x16xf16>, tensor<8x3x3xf16>) outs(%{{.+}} : tensor<1x8x14x14xf32>)
// CHECK: linalg.conv_3d_ndhwc_dhwcf {{.*}} ins(%{{.+}}, %{{.+}} : tensor<1x6x6x6x2xf16>, tensor<3x3x3x2x4xf16>) outs(%{{.+}} : tensor<1x4x4x4x4xf32>)
func.func @convolutions(%i1: tensor<18xf32>, %f1: tensor<3xf32>, %o1: tensor<16xf32>,
                        %i2: tensor<1x3x16x16xf32>, %f2: tensor<8x3x3x3xf32>, %o2: tensor<1x8x14x14xf32>,
                        %i3: tensor<1x16x16x3xf32>, %f3: tensor<3x3x3x8xf32>, %o3: tensor<1x14x14x8xf32>,
                        %i4: tensor<1x8x16x16xf32>, %f4: tensor<8x3x3xf32>,
                        %i5: tensor<1x6x6x6x2xf32>, %f5: tensor<3x3x3x2x4xf32>, %o5: tensor<1x4x4x4x4xf32>)
    -> (tensor<16xf32>, tensor<1x8x14x14xf32>, tensor<1x14x14x8xf32>, tensor<1x8x14x14xf32>, tensor<1x4x4x4x4xf32>) {
  %0 = linalg.conv_1d ins(%i1, %f1 : tensor<18xf32>, tensor<3xf32>) outs(%o1 : tensor<16xf32>) -> tensor<16xf32>
  %1 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%i2, %f2 : tensor<1x3x16x16xf32>, tensor<8x3x3x3xf32>) outs(%o2 : tensor<1x8x14x14xf32>) -> tensor<1x8x14x14xf32>
  %2 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%i3, %f3 : tensor<1x16x16x3xf32>, tensor<3x3x3x8xf32>) outs(%o3 : tensor<1x14x14x8xf32>) -> tensor<1x14x14x8xf32>
  %3 = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%i4, %f4 : tensor<1x8x16x16xf32>, tensor<8x3x3xf32>) outs(%o2 : tensor<1x8x14x14xf32>) -> tensor<1x8x14x14xf32>
  %4 = linalg.conv_3d_ndhwc_dhwcf {dilations = dense<1> : tensor<3xi64>, strides = dense<1> : tensor<3xi64>}
    ins(%i5, %f5 : tensor<1x6x6x6x2xf32>, tensor<3x3x3x2x4xf32>) outs(%o5 : tensor<1x4x4x4x4xf32>) -> tensor<1x4x4x4x4xf32>
  return %0, %1, %2, %3, %4 : tensor<16xf32>, tensor<1x8x14x14xf32>, tensor<1x14x14x8xf32>, tensor<1x8x14x14xf32>, tensor<1x4x4x4x4xf32>
}

// -----

// Max pooling is gray: it follows a low input, and its window operand (read
// only for its shape) is not cast.
// CHECK-LABEL: func.func @max_pooling_follows_conv
// CHECK: %[[CONV:.+]] = linalg.conv_2d_nchw_fchw
// CHECK: %[[LOW:.+]] = arith.truncf %[[CONV]] : tensor<1x8x14x14xf32> to tensor<1x8x14x14xf16>
// CHECK: %[[POOL:.+]] = linalg.pooling_nchw_max {{.*}} ins(%[[LOW]], %{{.+}} : tensor<1x8x14x14xf16>, tensor<2x2xf32>) outs(%{{.+}} : tensor<1x8x7x7xf16>)
// CHECK: linalg.conv_2d_nchw_fchw {{.*}} ins(%[[POOL]], %{{.+}} : tensor<1x8x7x7xf16>, tensor<4x8x1x1xf16>)
func.func @max_pooling_follows_conv(%i: tensor<1x3x16x16xf32>, %f: tensor<8x3x3x3xf32>, %o: tensor<1x8x14x14xf32>,
                                    %win: tensor<2x2xf32>, %p: tensor<1x8x7x7xf32>, %f2: tensor<4x8x1x1xf32>, %o2: tensor<1x4x7x7xf32>) -> tensor<1x4x7x7xf32> {
  %0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%i, %f : tensor<1x3x16x16xf32>, tensor<8x3x3x3xf32>) outs(%o : tensor<1x8x14x14xf32>) -> tensor<1x8x14x14xf32>
  %e = tensor.empty() : tensor<1x8x7x7xf32>
  %1 = linalg.pooling_nchw_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
    ins(%0, %win : tensor<1x8x14x14xf32>, tensor<2x2xf32>) outs(%e : tensor<1x8x7x7xf32>) -> tensor<1x8x7x7xf32>
  %2 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%1, %f2 : tensor<1x8x7x7xf32>, tensor<4x8x1x1xf32>) outs(%o2 : tensor<1x4x7x7xf32>) -> tensor<1x4x7x7xf32>
  return %2 : tensor<1x4x7x7xf32>
}

// -----

// Sum pooling accumulates: red, even after a low-precision producer.
// CHECK-LABEL: func.func @negative_sum_pooling_stays_f32
// CHECK: linalg.pooling_nchw_sum {{.*}} ins(%{{.+}}, %{{.+}} : tensor<1x8x14x14xf32>, tensor<2x2xf32>) outs(%{{.+}} : tensor<1x8x7x7xf32>)
func.func @negative_sum_pooling_stays_f32(%i: tensor<1x3x16x16xf32>, %f: tensor<8x3x3x3xf32>, %o: tensor<1x8x14x14xf32>,
                                          %win: tensor<2x2xf32>, %p: tensor<1x8x7x7xf32>) -> tensor<1x8x7x7xf32> {
  %0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%i, %f : tensor<1x3x16x16xf32>, tensor<8x3x3x3xf32>) outs(%o : tensor<1x8x14x14xf32>) -> tensor<1x8x14x14xf32>
  %1 = linalg.pooling_nchw_sum {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
    ins(%0, %win : tensor<1x8x14x14xf32>, tensor<2x2xf32>) outs(%p : tensor<1x8x7x7xf32>) -> tensor<1x8x7x7xf32>
  return %1 : tensor<1x8x7x7xf32>
}

// -----

// Named elementwise ops: linalg.exp and linalg.reciprocal are red,
// linalg.add is gray and runs in f16 because a matmul reads it; the red ops
// share one cast back up.
// CHECK-LABEL: func.func @named_elementwise
// CHECK: %[[M:.+]] = linalg.matmul
// CHECK: %[[M16:.+]] = arith.truncf %[[M]]
// CHECK: %[[ADD:.+]] = linalg.add ins(%[[M16]], %[[M16]] : tensor<8x8xf16>, tensor<8x8xf16>) outs(%{{.+}} : tensor<8x8xf16>)
// CHECK: %[[UP:.+]] = arith.extf %[[ADD]] : tensor<8x8xf16> to tensor<8x8xf32>
// CHECK-NOT: arith.extf
// CHECK: linalg.exp ins(%[[UP]] : tensor<8x8xf32>) outs(%{{.+}} : tensor<8x8xf32>)
// CHECK: linalg.reciprocal ins(%[[UP]] : tensor<8x8xf32>) outs(%{{.+}} : tensor<8x8xf32>)
// CHECK: linalg.matmul ins(%[[ADD]], %{{.+}} : tensor<8x8xf16>, tensor<8x8xf16>)
func.func @named_elementwise(%a: tensor<8x8xf32>, %b: tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>) {
  %m = linalg.matmul ins(%a, %b : tensor<8x8xf32>, tensor<8x8xf32>) outs(%a : tensor<8x8xf32>) -> tensor<8x8xf32>
  %e = tensor.empty() : tensor<8x8xf32>
  %0 = linalg.add ins(%m, %m : tensor<8x8xf32>, tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
  %1 = linalg.exp ins(%0 : tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
  %2 = linalg.reciprocal ins(%0 : tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
  %3 = linalg.matmul ins(%0, %b : tensor<8x8xf32>, tensor<8x8xf32>) outs(%a : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %1, %2, %3 : tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>
}
