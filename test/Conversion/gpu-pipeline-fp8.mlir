// The PTX of FP8 models (the form FP8 mixed precision writes: FP8 weights
// stored K-major, activations narrowed by clamp and truncf, contractions
// on FP8 operands with f32 accumulators, the inverse scales after) on
// sm_90a: wgmma m64nNk32 with e4m3/e5m2 inputs and f32 accumulators fed by
// TMA, the narrowing cvt.rn.satfinite.e4m3x2.f32 in the kernel that
// produces the activation (a SIMT kernel for the model's input, the
// previous matmul's epilogue after that), FP8 extensions as
// cvt.rn.f16x2.e4m3x2 where a SIMT kernel computes an FP8 contraction.
//
// RUN: amp-opt %s --amp-gpu-pipeline="chip=sm_90a format=isa" | %extract-ptx | FileCheck %s
// RUN: amp-opt %s --amp-gpu-pipeline="chip=sm_90a format=isa" | %extract-ptx | FileCheck %s --check-prefix=KERNELS

// CHECK: .target sm_90a
// CHECK-DAG: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// CHECK-DAG: wgmma.fence.sync.aligned
// The FP8 forms have no transpose operands: d, a-desc, b-desc, scale-d,
// imm-scale-a, imm-scale-b.
// CHECK-DAG: wgmma.mma_async.sync.aligned.m64n256k32.f32.e4m3.e4m3 {{{.*}}}, %rd{{[0-9]+}}, %rd{{[0-9]+}}, p, 1,  1;
// CHECK-DAG: wgmma.mma_async.sync.aligned.m64n128k32.f32.e5m2.e5m2 {{{.*}}}, %rd{{[0-9]+}}, %rd{{[0-9]+}}, p, 1,  1;
// CHECK-DAG: cvt.rn.satfinite.e4m3x2.f32
// CHECK-DAG: cvt.rn.satfinite.e5m2x2.f32
// CHECK-DAG: cvt.rn.f16x2.e4m3x2
// CHECK-NOT: wgmma.mma_async.sync.aligned.m64n{{[0-9]+}}k32.f32.e4m3.e4m3 {{{.*}}}, %rd{{[0-9]+}}, %rd{{[0-9]+}}, p, 1,  1,

// Kernels: the model input's narrowing, the first layer with the second
// layer's narrowing in its epilogue, the second layer; the e5m2 matmul; the
// convolution (an implicit GEMM: the producer warpgroup gathers A); the
// FP8 matmul TMA cannot load (K = 40) on a SIMT kernel.
// KERNELS-DAG: .entry mlp_{{[0-9]+}}_max_clamp(
// KERNELS-DAG: .entry mlp_{{[0-9]+}}_matmul_wgmma_e4m3_bias_relu_max_clamp(
// KERNELS-DAG: .entry mlp_{{[0-9]+}}_matmul_wgmma_e4m3_bias(
// KERNELS-DAG: .entry gemm_e5m2_{{[0-9]+}}_max_clamp(
// KERNELS-DAG: .entry gemm_e5m2_{{[0-9]+}}_matmul_wgmma_e5m2(
// KERNELS-DAG: .entry conv_{{[0-9]+}}_conv2d_wgmma_e4m3_bias_relu(
// KERNELS-DAG: .entry unaligned_{{[0-9]+}}_matmul(

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>
#mA = affine_map<(m, n, k) -> (m, k)>
#mB = affine_map<(m, n, k) -> (n, k)>
#mC = affine_map<(m, n, k) -> (m, n)>

func.func @mlp(%x: tensor<256x512xf32>, %w1: tensor<512x512xf8E4M3FN>,
               %w2: tensor<256x512xf8E4M3FN>, %b1: tensor<512xf32>,
               %b2: tensor<256xf32>) -> tensor<256x256xf32> {
  %s = arith.constant 448.0 : f32
  %lo = arith.constant -448.0 : f32
  %hi = arith.constant 448.0 : f32
  %inv = arith.constant 0.0001 : f32
  %z = arith.constant 0.0 : f32
  %e8 = tensor.empty() : tensor<256x512xf8E4M3FN>
  %x8 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<256x512xf32>) outs(%e8 : tensor<256x512xf8E4M3FN>) {
  ^bb0(%a: f32, %o: f8E4M3FN):
    %0 = arith.mulf %a, %s : f32
    %1 = arith.maximumf %0, %lo : f32
    %2 = arith.minimumf %1, %hi : f32
    %3 = arith.truncf %2 : f32 to f8E4M3FN
    linalg.yield %3 : f8E4M3FN
  } -> tensor<256x512xf8E4M3FN>
  %e1 = tensor.empty() : tensor<256x512xf32>
  %acc1 = linalg.fill ins(%z : f32) outs(%e1 : tensor<256x512xf32>) -> tensor<256x512xf32>
  %m1 = linalg.matmul indexing_maps = [#mA, #mB, #mC]
      ins(%x8, %w1 : tensor<256x512xf8E4M3FN>, tensor<512x512xf8E4M3FN>)
      outs(%acc1 : tensor<256x512xf32>) -> tensor<256x512xf32>
  %h8 = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%m1, %b1 : tensor<256x512xf32>, tensor<512xf32>) outs(%e8 : tensor<256x512xf8E4M3FN>) {
  ^bb0(%a: f32, %b: f32, %o: f8E4M3FN):
    %0 = arith.mulf %a, %inv : f32
    %1 = arith.addf %0, %b : f32
    %2 = arith.maximumf %1, %z : f32
    %3 = arith.mulf %2, %s : f32
    %4 = arith.maximumf %3, %lo : f32
    %5 = arith.minimumf %4, %hi : f32
    %6 = arith.truncf %5 : f32 to f8E4M3FN
    linalg.yield %6 : f8E4M3FN
  } -> tensor<256x512xf8E4M3FN>
  %e2 = tensor.empty() : tensor<256x256xf32>
  %acc2 = linalg.fill ins(%z : f32) outs(%e2 : tensor<256x256xf32>) -> tensor<256x256xf32>
  %m2 = linalg.matmul indexing_maps = [#mA, #mB, #mC]
      ins(%h8, %w2 : tensor<256x512xf8E4M3FN>, tensor<256x512xf8E4M3FN>)
      outs(%acc2 : tensor<256x256xf32>) -> tensor<256x256xf32>
  %y = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%m2, %b2 : tensor<256x256xf32>, tensor<256xf32>) outs(%e2 : tensor<256x256xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %0 = arith.mulf %a, %inv : f32
    %1 = arith.addf %0, %b : f32
    linalg.yield %1 : f32
  } -> tensor<256x256xf32>
  return %y : tensor<256x256xf32>
}

func.func @gemm_e5m2(%x: tensor<128x64xf32>, %b: tensor<128x64xf8E5M2>) -> tensor<128x128xf32> {
  %z = arith.constant 0.0 : f32
  %lo = arith.constant -57344.0 : f32
  %hi = arith.constant 57344.0 : f32
  %e8 = tensor.empty() : tensor<128x64xf8E5M2>
  %a = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<128x64xf32>) outs(%e8 : tensor<128x64xf8E5M2>) {
  ^bb0(%v: f32, %o: f8E5M2):
    %0 = arith.maximumf %v, %lo : f32
    %1 = arith.minimumf %0, %hi : f32
    %2 = arith.truncf %1 : f32 to f8E5M2
    linalg.yield %2 : f8E5M2
  } -> tensor<128x64xf8E5M2>
  %e = tensor.empty() : tensor<128x128xf32>
  %acc = linalg.fill ins(%z : f32) outs(%e : tensor<128x128xf32>) -> tensor<128x128xf32>
  %0 = linalg.matmul indexing_maps = [#mA, #mB, #mC]
      ins(%a, %b : tensor<128x64xf8E5M2>, tensor<128x64xf8E5M2>)
      outs(%acc : tensor<128x128xf32>) -> tensor<128x128xf32>
  return %0 : tensor<128x128xf32>
}

func.func @conv(%x: tensor<1x16x16x32xf32>, %w: tensor<64x3x3x32xf8E4M3FN>, %b: tensor<64xf32>) -> tensor<1x14x14x64xf32> {
  %s = arith.constant 448.0 : f32
  %lo = arith.constant -448.0 : f32
  %hi = arith.constant 448.0 : f32
  %inv = arith.constant 0.0001 : f32
  %z = arith.constant 0.0 : f32
  %e8 = tensor.empty() : tensor<1x16x16x32xf8E4M3FN>
  %x8 = linalg.generic {indexing_maps = [affine_map<(n, h, w, c) -> (n, h, w, c)>, affine_map<(n, h, w, c) -> (n, h, w, c)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x : tensor<1x16x16x32xf32>) outs(%e8 : tensor<1x16x16x32xf8E4M3FN>) {
  ^bb0(%a: f32, %o: f8E4M3FN):
    %0 = arith.mulf %a, %s : f32
    %1 = arith.maximumf %0, %lo : f32
    %2 = arith.minimumf %1, %hi : f32
    %3 = arith.truncf %2 : f32 to f8E4M3FN
    linalg.yield %3 : f8E4M3FN
  } -> tensor<1x16x16x32xf8E4M3FN>
  %e = tensor.empty() : tensor<1x14x14x64xf32>
  %acc = linalg.fill ins(%z : f32) outs(%e : tensor<1x14x14x64xf32>) -> tensor<1x14x14x64xf32>
  %c = linalg.conv_2d_nhwc_fhwc ins(%x8, %w : tensor<1x16x16x32xf8E4M3FN>, tensor<64x3x3x32xf8E4M3FN>)
      outs(%acc : tensor<1x14x14x64xf32>) -> tensor<1x14x14x64xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(n, h, w, f) -> (n, h, w, f)>, affine_map<(n, h, w, f) -> (f)>, affine_map<(n, h, w, f) -> (n, h, w, f)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c, %b : tensor<1x14x14x64xf32>, tensor<64xf32>) outs(%e : tensor<1x14x14x64xf32>) {
  ^bb0(%a: f32, %bv: f32, %o: f32):
    %0 = arith.mulf %a, %inv : f32
    %1 = arith.addf %0, %bv : f32
    %2 = arith.maximumf %1, %z : f32
    linalg.yield %2 : f32
  } -> tensor<1x14x14x64xf32>
  return %y : tensor<1x14x14x64xf32>
}

func.func @unaligned(%a: tensor<64x40xf8E4M3FN>, %b: tensor<64x40xf8E4M3FN>) -> tensor<64x64xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x64xf32>
  %acc = linalg.fill ins(%z : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %0 = linalg.matmul indexing_maps = [#mA, #mB, #mC]
      ins(%a, %b : tensor<64x40xf8E4M3FN>, tensor<64x40xf8E4M3FN>)
      outs(%acc : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}
