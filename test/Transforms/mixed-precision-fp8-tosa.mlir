// --amp-mixed-precision with an FP8 target (docs/fp8.md) on TOSA: TOSA's FP8
// contractions accumulate in f16, not f32, so they become linalg ops on FP8
// operands with an f32 accumulator. The activations' ranges are those of the
// arguments in Inputs/fp8-ranges-tosa.json.
// RUN: amp-opt %s --split-input-file "--amp-mixed-precision=target-type=f8E4M3FN ranges=%S/Inputs/fp8-ranges-tosa.json" 2>/dev/null | FileCheck %s
// RUN: amp-opt %s --split-input-file "--amp-mixed-precision=target-type=f8E4M3FN weight-scales=per-channel ranges=%S/Inputs/fp8-ranges-tosa.json" 2>/dev/null | FileCheck %s --check-prefix=CHANNEL
// RUN: amp-opt %s --split-input-file "--amp-mixed-precision=target-type=f8E5M2 fallback-type=bf16 ranges=%S/Inputs/fp8-ranges-tosa.json" 2>/dev/null | FileCheck %s --check-prefix=E5M2
// RUN: amp-opt %s --split-input-file "--amp-mixed-precision=target-type=f8E4M3FN ranges=%S/Inputs/fp8-ranges-tosa.json" 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK

// tosa.matmul -> linalg.batch_matmul with B K-major ([N, W, C]); A observed
// up to 3.5, margin 2: 448 / 7 = 64.
// CHECK-DAG: #[[$BMK:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
// CHECK-DAG: #[[$BNK:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>
// CHECK-DAG: #[[$BMN:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
// CHECK-LABEL: func.func @tosa_matmul(
// CHECK-SAME: %[[A:.+]]: tensor<2x3x4xf32>
// CHECK: %[[A8:.+]] = linalg.generic {{.*}} ins(%[[A]] : tensor<2x3x4xf32>) outs(%{{.+}} : tensor<2x3x4xf8E4M3FN>)
// CHECK: arith.constant 6.400000e+01 : f32
// CHECK: %[[B8:.+]] = arith.constant dense<4.480000e+02> : tensor<2x5x4xf8E4M3FN>
// CHECK: %[[ACC:.+]] = linalg.fill ins(%{{.+}} : f32) outs(%{{.+}} : tensor<2x3x5xf32>)
// CHECK: %[[MM:.+]] = linalg.batch_matmul indexing_maps = [#[[$BMK]], #[[$BNK]], #[[$BMN]]] ins(%[[A8]], %[[B8]] : tensor<2x3x4xf8E4M3FN>, tensor<2x5x4xf8E4M3FN>) outs(%[[ACC]] : tensor<2x3x5xf32>)
// CHECK: linalg.generic {{.*}} ins(%[[MM]] : tensor<2x3x5xf32>)
// CHECK: arith.constant 1.74386169E-5 : f32
// CHECK-NOT: tosa.matmul
// CHANNEL-LABEL: func.func @tosa_matmul(
// CHANNEL: arith.constant dense<1.74386169E-5> : tensor<5xf32>
// E5M2-LABEL: func.func @tosa_matmul(
// E5M2: linalg.batch_matmul {{.*}} : tensor<2x3x4xf8E5M2>, tensor<2x5x4xf8E5M2>) outs(%{{.+}} : tensor<2x3x5xf32>)
func.func @tosa_matmul(%a: tensor<2x3x4xf32>) -> tensor<2x3x5xf32> {
  %b = "tosa.const"() <{values = dense<0.5> : tensor<2x4x5xf32>}> : () -> tensor<2x4x5xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.matmul %a, %b, %zp, %zp : (tensor<2x3x4xf32>, tensor<2x4x5xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x3x5xf32>
  return %0 : tensor<2x3x5xf32>
}

// -----

// tosa.conv2d -> tensor.pad of the FP32 input (the padding is zeros, and
// zero scales to zero), its narrowing, linalg.conv_2d_nhwc_fhwc (OHWI
// weights are FHWC: K-major) and an epilogue that adds the bias.
// CHECK-DAG: #[[$ID:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-DAG: #[[$F:.+]] = affine_map<(d0, d1, d2, d3) -> (d3)>
// CHECK-LABEL: func.func @tosa_conv2d(
// CHECK-SAME: %[[X:.+]]: tensor<1x7x7x3xf32>
// CHECK: %[[W8:.+]] = arith.constant dense<4.480000e+02> : tensor<8x3x3x3xf8E4M3FN>
// CHECK: %[[BIAS:.+]] = "tosa.const"() <{values = dense<[1.000000e+00, {{.*}}]> : tensor<8xf32>}>
// CHECK: %[[PAD:.+]] = tensor.pad %[[X]] low[0, 1, 1, 0] high[0, 1, 1, 0]
// CHECK: } : tensor<1x7x7x3xf32> to tensor<1x9x9x3xf32>
// CHECK: %[[X8:.+]] = linalg.generic {{.*}} ins(%[[PAD]] : tensor<1x9x9x3xf32>) outs(%{{.+}} : tensor<1x9x9x3xf8E4M3FN>)
// CHECK: %[[CONV:.+]] = linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%[[X8]], %[[W8]] : tensor<1x9x9x3xf8E4M3FN>, tensor<8x3x3x3xf8E4M3FN>) outs(%{{.+}} : tensor<1x4x4x8xf32>)
// CHECK: linalg.generic {indexing_maps = [#[[$ID]], #[[$F]], #[[$ID]]], {{.*}} ins(%[[CONV]], %[[BIAS]] : tensor<1x4x4x8xf32>, tensor<8xf32>)
// CHECK: %[[R:.+]] = arith.mulf
// CHECK: arith.addf %[[R]], %{{.+}} : f32
// CHECK-NOT: tosa.conv2d
// Per channel: the inverse scales and the bias, both along F.
// CHANNEL-LABEL: func.func @tosa_conv2d(
// CHANNEL: linalg.generic {indexing_maps = [#{{.+}}, #[[$CF:.+]], #[[$CF]], #{{.+}}], {{.*}} ins(%{{.+}}, %{{.+}}, %{{.+}} : tensor<1x4x4x8xf32>, tensor<8xf32>, tensor<8xf32>)
func.func @tosa_conv2d(%x: tensor<1x7x7x3xf32>) -> tensor<1x4x4x8xf32> {
  %w = "tosa.const"() <{values = dense<0.125> : tensor<8x3x3x3xf32>}> : () -> tensor<8x3x3x3xf32>
  %bias = "tosa.const"() <{values = dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]> : tensor<8xf32>}> : () -> tensor<8xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.conv2d %x, %w, %bias, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 2, 2>}
         : (tensor<1x7x7x3xf32>, tensor<8x3x3x3xf32>, tensor<8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4x8xf32>
  return %0 : tensor<1x4x4x8xf32>
}

// -----

// No range for the activation: the matmul stays TOSA, in the fallback type
// (f16 inputs, TOSA's f32 accumulator as the 16-bit plan makes it).
// CHECK-LABEL: func.func @tosa_no_scale(
// CHECK: tosa.matmul %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}} : (tensor<2x3x4xf16>, tensor<2x4x5xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<2x3x5xf32>
// REMARK: remark: 'tosa.matmul' runs in f16, not f8E4M3FN: operand 0 has no scale: no range observed on sample inputs (ranges=) and no static range proven bounded and reached
// E5M2-LABEL: func.func @tosa_no_scale(
// E5M2: tosa.matmul {{.*}} : (tensor<2x3x4xbf16>, tensor<2x4x5xbf16>, tensor<1xbf16>, tensor<1xbf16>) -> tensor<2x3x5xf32>
func.func @tosa_no_scale(%a: tensor<2x3x4xf32>) -> tensor<2x3x5xf32> {
  %b = "tosa.const"() <{values = dense<0.5> : tensor<2x4x5xf32>}> : () -> tensor<2x4x5xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.matmul %a, %b, %zp, %zp : (tensor<2x3x4xf32>, tensor<2x4x5xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x3x5xf32>
  return %0 : tensor<2x3x5xf32>
}
