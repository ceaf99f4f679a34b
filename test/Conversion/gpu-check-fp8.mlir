// FP8 contractions need FP8 Tensor Cores (wgmma e4m3/e5m2, sm_90a): for any
// other chip the GPU pipeline reports an error naming the chip and the op,
// at every FP8 contraction, or at the first FP8 op when there is none.
//
// RUN: split-file %s %t
// RUN: amp-opt %t/check.mlir -split-input-file --amp-gpu-check-fp8="chip=sm_80" -verify-diagnostics
// RUN: amp-opt %t/check.mlir -split-input-file --amp-gpu-check-fp8="chip=sm_90a" | FileCheck %s --check-prefix=SM90A
// The pipeline runs it first.
// RUN: amp-opt %t/pipeline-sm86.mlir --amp-gpu-pipeline="chip=sm_86 format=isa" -verify-diagnostics
// RUN: amp-opt %t/pipeline-sm89.mlir --amp-gpu-pipeline="chip=sm_89 format=isa" -verify-diagnostics
// RUN: amp-opt %t/pipeline-sm90.mlir --amp-gpu-pipeline="chip=sm_90 format=isa" -verify-diagnostics

//--- check.mlir
// SM90A-LABEL: func.func @matmul_e4m3
// SM90A: linalg.matmul
func.func @matmul_e4m3(%a: tensor<64x128xf8E4M3FN>, %b: tensor<32x128xf8E4M3FN>,
                       %c: tensor<64x32xf32>) -> tensor<64x32xf32> {
  // expected-error @+1 {{'linalg.matmul' with f8E4M3FN operands needs FP8 Tensor Cores (wgmma e4m3/e5m2, sm_90a); chip sm_80 has none: compile for chip=sm_90a, or convert the model with a 16-bit target type}}
  %0 = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b : tensor<64x128xf8E4M3FN>, tensor<32x128xf8E4M3FN>)
      outs(%c : tensor<64x32xf32>) -> tensor<64x32xf32>
  return %0 : tensor<64x32xf32>
}

// -----

// Every contraction is reported, convolutions and TOSA too.
func.func @conv_and_tosa(%x: tensor<1x8x8x16xf8E5M2>, %w: tensor<32x3x3x16xf8E5M2>,
                         %acc: tensor<1x6x6x32xf32>, %a: tensor<1x4x8xf8E4M3FN>,
                         %b: tensor<1x8x4xf8E4M3FN>) -> (tensor<1x6x6x32xf32>, tensor<1x4x4xf16>) {
  // expected-error @+1 {{'linalg.conv_2d_nhwc_fhwc' with f8E5M2 operands needs FP8 Tensor Cores}}
  %0 = linalg.conv_2d_nhwc_fhwc ins(%x, %w : tensor<1x8x8x16xf8E5M2>, tensor<32x3x3x16xf8E5M2>)
      outs(%acc : tensor<1x6x6x32xf32>) -> tensor<1x6x6x32xf32>
  %za = "tosa.const"() <{values = dense<0.0> : tensor<1xf8E4M3FN>}> : () -> tensor<1xf8E4M3FN>
  // expected-error @+1 {{'tosa.matmul' with f8E4M3FN operands needs FP8 Tensor Cores}}
  %1 = tosa.matmul %a, %b, %za, %za : (tensor<1x4x8xf8E4M3FN>, tensor<1x8x4xf8E4M3FN>, tensor<1xf8E4M3FN>, tensor<1xf8E4M3FN>) -> tensor<1x4x4xf16>
  return %0, %1 : tensor<1x6x6x32xf32>, tensor<1x4x4xf16>
}

// -----

// Without a contraction, the first op with FP8 values.
func.func @narrowing_only(%x: tensor<16xf32>) -> tensor<16xf32> {
  // expected-error @+1 {{'arith.truncf' on f8E4M3FN values: the GPU pipeline supports FP8 on sm_90a only (chip sm_80)}}
  %0 = arith.truncf %x : tensor<16xf32> to tensor<16xf8E4M3FN>
  %1 = arith.extf %0 : tensor<16xf8E4M3FN> to tensor<16xf32>
  return %1 : tensor<16xf32>
}

// -----

// SM90A-LABEL: func.func @no_fp8
func.func @no_fp8(%a: tensor<8x8xf16>, %b: tensor<8x8xf16>, %c: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<8x8xf16>, tensor<8x8xf16>) outs(%c : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

//--- pipeline-sm86.mlir
func.func @f(%a: tensor<64x128xf8E4M3FN>, %b: tensor<32x128xf8E4M3FN>, %c: tensor<64x32xf32>) -> tensor<64x32xf32> {
  // expected-error @+1 {{'linalg.matmul' with f8E4M3FN operands needs FP8 Tensor Cores (wgmma e4m3/e5m2, sm_90a); chip sm_86 has none}}
  %0 = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b : tensor<64x128xf8E4M3FN>, tensor<32x128xf8E4M3FN>) outs(%c : tensor<64x32xf32>) -> tensor<64x32xf32>
  return %0 : tensor<64x32xf32>
}

//--- pipeline-sm89.mlir
func.func @f(%a: tensor<64x128xf8E4M3FN>, %b: tensor<32x128xf8E4M3FN>, %c: tensor<64x32xf32>) -> tensor<64x32xf32> {
  // expected-error @+1 {{chip sm_89 has none}}
  %0 = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b : tensor<64x128xf8E4M3FN>, tensor<32x128xf8E4M3FN>) outs(%c : tensor<64x32xf32>) -> tensor<64x32xf32>
  return %0 : tensor<64x32xf32>
}

//--- pipeline-sm90.mlir
func.func @f(%a: tensor<64x128xf8E4M3FN>, %b: tensor<32x128xf8E4M3FN>, %c: tensor<64x32xf32>) -> tensor<64x32xf32> {
  // expected-error @+1 {{chip sm_90 has none}}
  %0 = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b : tensor<64x128xf8E4M3FN>, tensor<32x128xf8E4M3FN>) outs(%c : tensor<64x32xf32>) -> tensor<64x32xf32>
  return %0 : tensor<64x32xf32>
}
