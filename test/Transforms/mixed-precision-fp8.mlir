// --amp-mixed-precision with an FP8 target (docs/fp8.md) on linalg: green
// contractions with scales run in FP8 with f32 accumulation, in the form the
// GPU lowering expects; everything else as the 16-bit plan decides. The
// activations' ranges are those of the arguments in Inputs/fp8-ranges.json.
// RUN: amp-opt %s --split-input-file "--amp-mixed-precision=target-type=f8E4M3FN ranges=%S/Inputs/fp8-ranges.json" 2>/dev/null | FileCheck %s
// RUN: amp-opt %s --split-input-file "--amp-mixed-precision=target-type=f8E4M3FN ranges=%S/Inputs/fp8-ranges.json" 2>/dev/null | amp-opt --split-input-file > /dev/null
// RUN: amp-opt %s --split-input-file "--amp-mixed-precision=target-type=f8E5M2 ranges=%S/Inputs/fp8-ranges.json" 2>/dev/null | FileCheck %s --check-prefix=E5M2
// RUN: amp-opt %s --split-input-file "--amp-mixed-precision=target-type=f8E4M3FN weight-scales=per-channel ranges=%S/Inputs/fp8-ranges.json" 2>/dev/null | FileCheck %s --check-prefix=CHANNEL
// RUN: amp-opt %s --split-input-file "--amp-mixed-precision=target-type=f8E4M3FN fallback-type=bf16 ranges=%S/Inputs/fp8-ranges.json" 2>/dev/null | FileCheck %s --check-prefix=BF16
// RUN: amp-opt %s --split-input-file "--amp-mixed-precision=target-type=f8E4M3FN skip-layers=0 ranges=%S/Inputs/fp8-ranges.json" 2>/dev/null | FileCheck %s --check-prefix=SKIP
// RUN: amp-opt %s --split-input-file "--amp-mixed-precision=target-type=f8E4M3FN fp8-min-macs=30 ranges=%S/Inputs/fp8-ranges.json" 2>/dev/null | FileCheck %s --check-prefix=MACS
// RUN: amp-opt %s --split-input-file "--amp-mixed-precision=target-type=f8E4M3FN ranges=%S/Inputs/fp8-ranges.json" 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK
// RUN: amp-opt %s --split-input-file "--amp-mixed-precision=target-type=f8E4M3FN remarks=true ranges=%S/Inputs/fp8-ranges.json" 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARKS

// A weight (a constant) is scaled by 448 / its largest magnitude (8 -> 56)
// and stored K-major (3x4: B transposed once, at compile time; 3 * 56 = 168
// ties to the even 160); the activation %x, observed up to |x| = 2, times
// the margin 2, gets the scale 448 / 4 = 112 in one elementwise generic;
// the matmul reads B as (n, k) and accumulates in f32; the epilogue
// multiplies by 1 / (112 * 56).
// CHECK-DAG: #[[$ID:.+]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[$MK:.+]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG: #[[$NK:.+]] = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK-DAG: #[[$MN:.+]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func.func @matmul(
// CHECK-SAME: %[[X:.+]]: tensor<2x4xf32>
// CHECK: %[[E:.+]] = tensor.empty() : tensor<2x4xf8E4M3FN>
// CHECK: %[[X8:.+]] = linalg.generic {indexing_maps = [#[[$ID]], #[[$ID]]], iterator_types = ["parallel", "parallel"]} ins(%[[X]] : tensor<2x4xf32>) outs(%[[E]] : tensor<2x4xf8E4M3FN>)
// CHECK-DAG: %[[S:.+]] = arith.constant 1.120000e+02 : f32
// CHECK-DAG: %[[LO:.+]] = arith.constant -4.480000e+02 : f32
// CHECK-DAG: %[[HI:.+]] = arith.constant 4.480000e+02 : f32
// CHECK: %[[M:.+]] = arith.mulf %{{.+}}, %[[S]] : f32
// CHECK: %[[A:.+]] = arith.maximumf %[[M]], %[[LO]] : f32
// CHECK: %[[B:.+]] = arith.minimumf %[[A]], %[[HI]] : f32
// CHECK: %[[T:.+]] = arith.truncf %[[B]] : f32 to f8E4M3FN
// CHECK: linalg.yield %[[T]] : f8E4M3FN
// CHECK: %[[W8:.+]] = arith.constant dense<{{\[\[}}5.600000e+01, 2.240000e+02, 0.000000e+00, -2.800000e+01], [-1.120000e+02, 1.400000e+01, 1.600000e+02, 5.600000e+01], [2.800000e+01, -5.600000e+01, 1.120000e+02, 4.480000e+02]]> : tensor<3x4xf8E4M3FN>
// CHECK: %[[ACC:.+]] = linalg.fill ins(%{{.+}} : f32) outs(%{{.+}} : tensor<2x3xf32>)
// CHECK: %[[MM:.+]] = linalg.matmul indexing_maps = [#[[$MK]], #[[$NK]], #[[$MN]]] ins(%[[X8]], %[[W8]] : tensor<2x4xf8E4M3FN>, tensor<3x4xf8E4M3FN>) outs(%[[ACC]] : tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK: %[[Y:.+]] = linalg.generic {indexing_maps = [#[[$ID]], #[[$ID]]], iterator_types = ["parallel", "parallel"]} ins(%[[MM]] : tensor<2x3xf32>)
// CHECK: %[[INV:.+]] = arith.constant 1.59438772E-4 : f32
// CHECK: arith.mulf %{{.+}}, %[[INV]] : f32
// CHECK: return %[[Y]] : tensor<2x3xf32>
// With f8E5M2, the same form with 57344 for 448.
// E5M2-LABEL: func.func @matmul(
// E5M2: arith.constant 1.433600e+04 : f32
// E5M2: arith.constant -5.734400e+04 : f32
// E5M2: arith.constant 5.734400e+04 : f32
// E5M2: arith.truncf %{{.+}} : f32 to f8E5M2
// E5M2: arith.constant dense<{{.*}}5.734400e+04]]> : tensor<3x4xf8E5M2>
// E5M2: linalg.matmul indexing_maps = {{.*}} : tensor<2x4xf8E5M2>, tensor<3x4xf8E5M2>) outs(%{{.+}} : tensor<2x3xf32>)
func.func @matmul(%x: tensor<2x4xf32>) -> tensor<2x3xf32> {
  %w = arith.constant dense<[[1.0, -2.0, 0.5], [4.0, 0.25, -1.0], [0.0, 3.0, 2.0], [-0.5, 1.0, 8.0]]> : tensor<4x3xf32>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x3xf32>
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<2x3xf32>) -> tensor<2x3xf32>
  %0 = linalg.matmul ins(%x, %w : tensor<2x4xf32>, tensor<4x3xf32>) outs(%c : tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// Per-channel weight scales (weight-scales=per-channel): one per column of
// B (448 / 4, 448 / 3, 448 / 8), each column's largest magnitude maps to
// 448, and the epilogue reads one inverse per output channel.
// CHANNEL-DAG: #[[$ID:.+]] = affine_map<(d0, d1) -> (d0, d1)>
// CHANNEL-DAG: #[[$N:.+]] = affine_map<(d0, d1) -> (d1)>
// CHANNEL-LABEL: func.func @matmul_per_channel(
// CHANNEL: %[[W8:.+]] = arith.constant dense<{{\[\[}}1.120000e+02, 4.480000e+02, 0.000000e+00, -5.600000e+01], [-2.880000e+02, 3.600000e+01, 4.480000e+02, 1.440000e+02], [2.800000e+01, -5.600000e+01, 1.120000e+02, 4.480000e+02]]> : tensor<3x4xf8E4M3FN>
// CHANNEL: %[[MM:.+]] = linalg.matmul {{.*}}ins(%{{.+}}, %[[W8]] :
// CHANNEL: %[[INV:.+]] = arith.constant dense<[7.97193861E-5, 5.97895414E-5, 1.59438772E-4]> : tensor<3xf32>
// CHANNEL: linalg.generic {indexing_maps = [#[[$ID]], #[[$N]], #[[$ID]]], {{.*}} ins(%[[MM]], %[[INV]] : tensor<2x3xf32>, tensor<3xf32>)
// CHANNEL: arith.mulf %{{.+}}, %{{.+}} : f32
// CHECK-LABEL: func.func @matmul_per_channel(
// CHECK: arith.constant dense<{{.*}}> : tensor<3x4xf8E4M3FN>
// CHECK-NOT: tensor<3xf32>
// CHECK: return
func.func @matmul_per_channel(%x: tensor<2x4xf32>) -> tensor<2x3xf32> {
  %w = arith.constant dense<[[1.0, -2.0, 0.5], [4.0, 0.25, -1.0], [0.0, 3.0, 2.0], [-0.5, 1.0, 8.0]]> : tensor<4x3xf32>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x3xf32>
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<2x3xf32>) -> tensor<2x3xf32>
  %0 = linalg.matmul ins(%x, %w : tensor<2x4xf32>, tensor<4x3xf32>) outs(%c : tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// CHECK-DAG: #[[$BMK:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
// CHECK-DAG: #[[$BNK:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>
// CHECK-DAG: #[[$BMN:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
// CHECK-LABEL: func.func @batch_matmul(
// CHECK: arith.constant 2.240000e+02 : f32
// CHECK: %[[W8:.+]] = arith.constant dense<4.480000e+02> : tensor<2x3x4xf8E4M3FN>
// CHECK: linalg.batch_matmul indexing_maps = [#[[$BMK]], #[[$BNK]], #[[$BMN]]] ins(%{{.+}}, %[[W8]] : tensor<2x2x4xf8E4M3FN>, tensor<2x3x4xf8E4M3FN>) outs(%{{.+}} : tensor<2x2x3xf32>)
func.func @batch_matmul(%x: tensor<2x2x4xf32>) -> tensor<2x2x3xf32> {
  %w = arith.constant dense<0.5> : tensor<2x4x3xf32>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x2x3xf32>
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<2x2x3xf32>) -> tensor<2x2x3xf32>
  %0 = linalg.batch_matmul ins(%x, %w : tensor<2x2x4xf32>, tensor<2x4x3xf32>) outs(%c : tensor<2x2x3xf32>) -> tensor<2x2x3xf32>
  return %0 : tensor<2x2x3xf32>
}

// -----

// An HWCF filter is stored FHWC (K-major), and the convolution becomes
// linalg.conv_2d_nhwc_fhwc with the same strides and dilations.
// CHECK-LABEL: func.func @conv_nhwc_hwcf(
// CHECK: arith.truncf %{{.+}} : f32 to f8E4M3FN
// CHECK: %[[W8:.+]] = arith.constant dense<4.480000e+02> : tensor<4x3x3x2xf8E4M3FN>
// CHECK: linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%{{.+}}, %[[W8]] : tensor<1x6x6x2xf8E4M3FN>, tensor<4x3x3x2xf8E4M3FN>) outs(%{{.+}} : tensor<1x4x4x4xf32>)
// CHECK: arith.constant 2.49123082E-6 : f32
// Per channel: along F, dimension 3 of the NHWC result.
// CHANNEL-DAG: #[[$C3:.+]] = affine_map<(d0, d1, d2, d3) -> (d3)>
// CHANNEL-LABEL: func.func @conv_nhwc_hwcf(
// CHANNEL: linalg.conv_2d_nhwc_fhwc
// CHANNEL: arith.constant dense<2.49123082E-6> : tensor<4xf32>
// CHANNEL: linalg.generic {indexing_maps = [#{{.+}}, #[[$C3]], #{{.+}}]
func.func @conv_nhwc_hwcf(%x: tensor<1x6x6x2xf32>) -> tensor<1x4x4x4xf32> {
  %w = arith.constant dense<0.25> : tensor<3x3x2x4xf32>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x4x4x4xf32>
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  %0 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%x, %w : tensor<1x6x6x2xf32>, tensor<3x3x2x4xf32>) outs(%c : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  return %0 : tensor<1x4x4x4xf32>
}

// -----

// CHECK-LABEL: func.func @conv_nchw_fchw(
// CHECK: %[[W8:.+]] = arith.constant dense<-4.480000e+02> : tensor<4x2x3x3xf8E4M3FN>
// CHECK: linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%{{.+}}, %[[W8]] : tensor<1x2x6x6xf8E4M3FN>, tensor<4x2x3x3xf8E4M3FN>) outs(%{{.+}} : tensor<1x4x2x2xf32>)
// CHANNEL-DAG: #[[$C1:.+]] = affine_map<(d0, d1, d2, d3) -> (d1)>
// CHANNEL-LABEL: func.func @conv_nchw_fchw(
// CHANNEL: linalg.generic {indexing_maps = [#{{.+}}, #[[$C1]], #{{.+}}]
func.func @conv_nchw_fchw(%x: tensor<1x2x6x6xf32>) -> tensor<1x4x2x2xf32> {
  %w = arith.constant dense<-0.5> : tensor<4x2x3x3xf32>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x4x2x2xf32>
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32>
  %0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>}
         ins(%x, %w : tensor<1x2x6x6xf32>, tensor<4x2x3x3xf32>) outs(%c : tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32>
  return %0 : tensor<1x4x2x2xf32>
}

// -----

// Both operands are activations with calibrated ranges: B (observed up to
// 7, so 448 / 14 = 32) is narrowed at run time into the K-major layout.
// CHECK-DAG: #[[$T:.+]] = affine_map<(d0, d1) -> (d1, d0)>
// CHECK-LABEL: func.func @activation_times_activation(
// CHECK-SAME: %[[A:[^:]+]]: tensor<2x4xf32>, %[[B:[^:]+]]: tensor<4x3xf32>
// CHECK: %[[B8:.+]] = linalg.generic {indexing_maps = [#[[$T]], #{{.+}}], {{.*}} ins(%[[B]] : tensor<4x3xf32>) outs(%{{.+}} : tensor<3x4xf8E4M3FN>)
// CHECK: arith.constant 3.200000e+01 : f32
// CHECK: %[[A8:.+]] = linalg.generic {{.*}} ins(%[[A]] : tensor<2x4xf32>) outs(%{{.+}} : tensor<2x4xf8E4M3FN>)
// CHECK: arith.constant 1.120000e+02 : f32
// CHECK: linalg.matmul {{.*}}ins(%[[A8]], %[[B8]] : tensor<2x4xf8E4M3FN>, tensor<3x4xf8E4M3FN>)
// CHECK: arith.constant 2.7901787E-4 : f32
func.func @activation_times_activation(%a: tensor<2x4xf32>, %b: tensor<4x3xf32>) -> tensor<2x3xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x3xf32>
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<2x3xf32>) -> tensor<2x3xf32>
  %0 = linalg.matmul ins(%a, %b : tensor<2x4xf32>, tensor<4x3xf32>) outs(%c : tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// B is an activation without a calibrated or proven range: no scale is
// guessed, the matmul runs in the fallback type (f16 by default, bf16 with
// fallback-type=bf16), with a remark and a report entry.
// CHECK-LABEL: func.func @no_scale(
// CHECK-NOT: f8E4M3FN
// CHECK: linalg.matmul ins(%{{.+}}, %{{.+}} : tensor<2x4xf16>, tensor<4x3xf16>) outs(%{{.+}} : tensor<2x3xf32>)
// BF16-LABEL: func.func @no_scale(
// BF16: linalg.matmul ins(%{{.+}}, %{{.+}} : tensor<2x4xbf16>, tensor<4x3xbf16>) outs(%{{.+}} : tensor<2x3xf32>)
// REMARK: remark: 'linalg.matmul' runs in f16, not f8E4M3FN: operand 1 has no scale: no range observed on sample inputs (ranges=) and no static range proven bounded and reached
func.func @no_scale(%a: tensor<2x4xf32>, %b: tensor<4x3xf32>) -> tensor<2x3xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x3xf32>
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<2x3xf32>) -> tensor<2x3xf32>
  %0 = linalg.matmul ins(%a, %b : tensor<2x4xf32>, tensor<4x3xf32>) outs(%c : tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// Without a calibrated range, a static range the analysis proves bounded
// and reached: the broadcast constant reaches |x| = 6 (no margin): 448 / 6.
// CHECK-LABEL: func.func @static_range(
// CHECK: %[[X:.+]] = linalg.broadcast
// CHECK: linalg.generic {{.*}} ins(%[[X]] : tensor<2x4xf32>) outs(%{{.+}} : tensor<2x4xf8E4M3FN>)
// CHECK: arith.constant 74.6666641 : f32
// CHECK: linalg.matmul indexing_maps
func.func @static_range(%s: tensor<2x4xf32>) -> tensor<2x3xf32> {
  %v = arith.constant dense<[1.0, -6.0, 3.0, 0.5]> : tensor<4xf32>
  %eb = tensor.empty() : tensor<2x4xf32>
  %x = linalg.broadcast ins(%v : tensor<4xf32>) outs(%eb : tensor<2x4xf32>) dimensions = [0]
  %w = arith.constant dense<0.5> : tensor<4x3xf32>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x3xf32>
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<2x3xf32>) -> tensor<2x3xf32>
  %0 = linalg.matmul ins(%x, %w : tensor<2x4xf32>, tensor<4x3xf32>) outs(%c : tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// A matmul that accumulates onto a non-zero init: the FP8 contraction
// starts from zeros and the epilogue adds the init after the scales.
// CHECK-LABEL: func.func @init_added(
// CHECK-SAME: %{{[^:]+}}: tensor<2x4xf32>, %[[INIT:[^:]+]]: tensor<2x3xf32>
// CHECK: %[[MM:.+]] = linalg.matmul indexing_maps
// CHECK: linalg.generic {{.*}} ins(%[[MM]], %[[INIT]] : tensor<2x3xf32>, tensor<2x3xf32>)
// CHECK: %[[R:.+]] = arith.mulf
// CHECK: arith.addf %[[R]], %{{.+}} : f32
func.func @init_added(%x: tensor<2x4xf32>, %init: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %w = arith.constant dense<0.5> : tensor<4x3xf32>
  %0 = linalg.matmul ins(%x, %w : tensor<2x4xf32>, tensor<4x3xf32>) outs(%init : tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// Two matmuls read %x with the same scale: one narrowing serves both.
// CHECK-LABEL: func.func @shared_activation(
// CHECK: %[[X8:.+]] = linalg.generic {{.*}} outs(%{{.+}} : tensor<2x4xf8E4M3FN>)
// CHECK-NOT: tensor<2x4xf8E4M3FN>) {
// CHECK: linalg.matmul {{.*}}ins(%[[X8]], %{{.+}} :
// CHECK-NOT: tensor<2x4xf8E4M3FN>) {
// CHECK: linalg.matmul {{.*}}ins(%[[X8]], %{{.+}} :
func.func @shared_activation(%x: tensor<2x4xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>) {
  %w1 = arith.constant dense<0.5> : tensor<4x3xf32>
  %w2 = arith.constant dense<-2.0> : tensor<4x3xf32>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x3xf32>
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<2x3xf32>) -> tensor<2x3xf32>
  %0 = linalg.matmul ins(%x, %w1 : tensor<2x4xf32>, tensor<4x3xf32>) outs(%c : tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = linalg.matmul ins(%x, %w2 : tensor<2x4xf32>, tensor<4x3xf32>) outs(%c : tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0, %1 : tensor<2x3xf32>, tensor<2x3xf32>
}

// -----

// A weight that a generic transposes (as torch-mlir writes linear layers):
// it is a constant all the same, folded in its own layout, which is
// already K-major (N x K).
// CHECK-LABEL: func.func @transposed_weight(
// CHECK: %[[W8:.+]] = arith.constant dense<{{\[\[}}2.800000e+01, 5.600000e+01, 8.000000e+01, 1.120000e+02], [1.440000e+02, 1.600000e+02, 1.920000e+02, 2.240000e+02], [-2.800000e+01, -5.600000e+01, -8.000000e+01, -4.480000e+02]]> : tensor<3x4xf8E4M3FN>
// CHECK-NOT: tensor<4x3xf32>
// CHECK: linalg.matmul {{.*}}ins(%{{.+}}, %[[W8]] :
#id = affine_map<(d0, d1) -> (d0, d1)>
#t = affine_map<(d0, d1) -> (d1, d0)>
func.func @transposed_weight(%x: tensor<2x4xf32>) -> tensor<2x3xf32> {
  %w = arith.constant dense<[[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0], [-1.0, -2.0, -3.0, -16.0]]> : tensor<3x4xf32>
  %et = tensor.empty() : tensor<4x3xf32>
  %wt = linalg.generic {indexing_maps = [#t, #id], iterator_types = ["parallel", "parallel"]}
          ins(%w : tensor<3x4xf32>) outs(%et : tensor<4x3xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<4x3xf32>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x3xf32>
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<2x3xf32>) -> tensor<2x3xf32>
  %0 = linalg.matmul ins(%x, %wt : tensor<2x4xf32>, tensor<4x3xf32>) outs(%c : tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// A depthwise convolution has no FP8 form (nothing for Tensor Cores): it
// runs in the fallback type, without a remark unless remarks=true.
// CHECK-LABEL: func.func @depthwise_no_form(
// CHECK: linalg.depthwise_conv_2d_nchw_chw {{.*}} ins(%{{.+}}, %{{.+}} : tensor<1x2x6x6xf16>, tensor<2x3x3xf16>)
// REMARKS: remark: 'linalg.depthwise_conv_2d_nchw_chw' runs in f16, not f8E4M3FN: it has no FP8 form (FP8 runs matmul, batch_matmul and 2-D convolutions with static f32 shapes)
func.func @depthwise_no_form(%x: tensor<1x2x6x6xf32>) -> tensor<1x2x4x4xf32> {
  %w = arith.constant dense<0.5> : tensor<2x3x3xf32>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x2x4x4xf32>
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %0 = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%x, %w : tensor<1x2x6x6xf32>, tensor<2x3x3xf32>) outs(%c : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  return %0 : tensor<1x2x4x4xf32>
}

// -----

// Per-op annotations: compute = f16 forces 16 bits, red forces FP32, and
// compute = f8E5M2 forces FP8 (here E5M2 within an E4M3FN conversion).
// CHECK-LABEL: func.func @annotations(
// CHECK: arith.truncf %{{.+}} : f32 to f8E5M2
// CHECK: linalg.matmul {amp.precision = #amp.precision<compute = f16, accumulate = f32, output = f16>} ins(%{{.+}}, %{{.+}} : tensor<2x4xf16>, tensor<4x3xf16>)
// CHECK: linalg.matmul {amp.color = #amp.color<red>} ins(%{{.+}}, %{{.+}} : tensor<2x4xf32>, tensor<4x3xf32>)
// CHECK: linalg.matmul indexing_maps = {{.*}} : tensor<2x4xf8E5M2>, tensor<3x4xf8E5M2>) outs(%{{.+}} : tensor<2x3xf32>)
// With fp8-min-macs, the annotated op still runs in FP8 (24 MACs < 30).
// MACS-LABEL: func.func @annotations(
// MACS: tensor<2x4xf8E5M2>, tensor<3x4xf8E5M2>
func.func @annotations(%x: tensor<2x4xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>) {
  %w = arith.constant dense<0.5> : tensor<4x3xf32>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x3xf32>
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<2x3xf32>) -> tensor<2x3xf32>
  %0 = linalg.matmul {amp.precision = #amp.precision<compute = f16, accumulate = f32, output = f16>}
         ins(%x, %w : tensor<2x4xf32>, tensor<4x3xf32>) outs(%c : tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = linalg.matmul {amp.color = #amp.color<red>}
         ins(%x, %w : tensor<2x4xf32>, tensor<4x3xf32>) outs(%c : tensor<2x3xf32>) -> tensor<2x3xf32>
  %2 = linalg.matmul {amp.precision = #amp.precision<compute = f8E5M2, accumulate = f32, output = f32>}
         ins(%x, %w : tensor<2x4xf32>, tensor<4x3xf32>) outs(%c : tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0, %1, %2 : tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>
}

// -----

// skip-layers counts the green ops before any becomes FP8: skip-layers=0
// keeps the first matmul in FP32, the second runs in FP8 (with the
// default, both do), and the third, whose input has no range, in f16.
// CHECK-LABEL: func.func @skip_first(
// CHECK: linalg.matmul indexing_maps = {{.*}} : tensor<2x4xf8E4M3FN>, tensor<4x4xf8E4M3FN>)
// CHECK: linalg.matmul indexing_maps = {{.*}} : tensor<2x4xf8E4M3FN>, tensor<4x4xf8E4M3FN>)
// CHECK: linalg.matmul ins(%{{.+}}, %{{.+}} : tensor<2x4xf16>, tensor<4x3xf16>)
// SKIP-LABEL: func.func @skip_first(
// SKIP: linalg.matmul ins(%{{.+}}, %{{.+}} : tensor<2x4xf32>, tensor<4x4xf32>)
// SKIP: linalg.matmul indexing_maps = {{.*}} : tensor<2x4xf8E4M3FN>, tensor<4x4xf8E4M3FN>)
// SKIP: linalg.matmul ins(%{{.+}}, %{{.+}} : tensor<2x4xf16>, tensor<4x3xf16>)
// fp8-min-macs=30: the 4x4 matmuls (32 MACs) run in FP8, 24 MACs do not.
// MACS-LABEL: func.func @skip_first(
// MACS-COUNT-2: tensor<2x4xf8E4M3FN>, tensor<4x4xf8E4M3FN>)
func.func @skip_first(%x: tensor<2x4xf32>) -> tensor<2x3xf32> {
  %w1 = arith.constant dense<0.5> : tensor<4x4xf32>
  %w2 = arith.constant dense<0.25> : tensor<4x4xf32>
  %w3 = arith.constant dense<2.0> : tensor<4x3xf32>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x4xf32>
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<2x4xf32>) -> tensor<2x4xf32>
  %e3 = tensor.empty() : tensor<2x3xf32>
  %c3 = linalg.fill ins(%z : f32) outs(%e3 : tensor<2x3xf32>) -> tensor<2x3xf32>
  %0 = linalg.matmul ins(%x, %w1 : tensor<2x4xf32>, tensor<4x4xf32>) outs(%c : tensor<2x4xf32>) -> tensor<2x4xf32>
  %1 = linalg.matmul ins(%x, %w2 : tensor<2x4xf32>, tensor<4x4xf32>) outs(%c : tensor<2x4xf32>) -> tensor<2x4xf32>
  %2 = linalg.add ins(%0, %1 : tensor<2x4xf32>, tensor<2x4xf32>) outs(%e : tensor<2x4xf32>) -> tensor<2x4xf32>
  %3 = linalg.matmul ins(%2, %w3 : tensor<2x4xf32>, tensor<4x3xf32>) outs(%c3 : tensor<2x3xf32>) -> tensor<2x3xf32>
  return %3 : tensor<2x3xf32>
}

// -----

// Three levels: an FP8 matmul, a gray add that the 16-bit plan keeps in
// FP32 (the epilogue's result is FP32), and a matmul without a scale in
// the fallback type.
// CHECK-LABEL: func.func @fallback_gray(
// CHECK: %[[MM:.+]] = linalg.matmul indexing_maps = {{.*}} : tensor<2x4xf8E4M3FN>, tensor<4x4xf8E4M3FN>) outs(%{{.+}} : tensor<2x4xf32>)
// CHECK: %[[Y:.+]] = linalg.generic {{.*}} ins(%[[MM]] : tensor<2x4xf32>)
// CHECK: %[[ADD:.+]] = linalg.add ins(%[[Y]], %{{.+}} : tensor<2x4xf32>, tensor<2x4xf32>)
// CHECK: %[[ADD16:.+]] = arith.truncf %[[ADD]] : tensor<2x4xf32> to tensor<2x4xf16>
// CHECK: linalg.matmul ins(%[[ADD16]], %{{.+}} : tensor<2x4xf16>, tensor<4x3xf16>)
// BF16-LABEL: func.func @fallback_gray(
// BF16: arith.truncf %{{.+}} : tensor<2x4xf32> to tensor<2x4xbf16>
// BF16: linalg.matmul ins(%{{.+}}, %{{.+}} : tensor<2x4xbf16>, tensor<4x3xbf16>)
func.func @fallback_gray(%x: tensor<2x4xf32>, %y: tensor<2x4xf32>) -> tensor<2x3xf32> {
  %w = arith.constant dense<0.5> : tensor<4x4xf32>
  %w2 = arith.constant dense<0.25> : tensor<4x3xf32>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x4xf32>
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<2x4xf32>) -> tensor<2x4xf32>
  %e3 = tensor.empty() : tensor<2x3xf32>
  %c3 = linalg.fill ins(%z : f32) outs(%e3 : tensor<2x3xf32>) -> tensor<2x3xf32>
  %0 = linalg.matmul ins(%x, %w : tensor<2x4xf32>, tensor<4x4xf32>) outs(%c : tensor<2x4xf32>) -> tensor<2x4xf32>
  %1 = linalg.add ins(%0, %y : tensor<2x4xf32>, tensor<2x4xf32>) outs(%e : tensor<2x4xf32>) -> tensor<2x4xf32>
  %2 = linalg.matmul ins(%1, %w2 : tensor<2x4xf32>, tensor<4x3xf32>) outs(%c3 : tensor<2x3xf32>) -> tensor<2x3xf32>
  return %2 : tensor<2x3xf32>
}
