// FP8 contractions (the form of FP8 mixed precision: B stored K-major, read
// as (n, k)) on the wgmma kernel: TMA boxes of 128-byte rows of K for A and
// B, four m64nNk32 wgmmas per K step with descriptors 32 bytes apart, no
// transposeB (K-major is the FP8 forms' only layout).
//
// RUN: amp-opt %s --amp-gpu-matmul-to-mma="kind=wgmma" --split-input-file -verify-diagnostics | FileCheck %s
// RUN: not amp-opt %s --amp-gpu-matmul-to-mma="kind=mma-sync" --split-input-file 2>&1 | FileCheck %s --check-prefix=MMASYNC

// MMASYNC: error: amp-gpu-matmul-to-mma: an FP8 matmul needs the wgmma kernel (kind=wgmma, sm_90a)

#mA = affine_map<(m, n, k) -> (m, k)>
#mB = affine_map<(m, n, k) -> (n, k)>
#mC = affine_map<(m, n, k) -> (m, n)>

// CHECK-LABEL: func.func @matmul_e4m3
// CHECK:         call @ampTensorMap2D_f8E4M3FN(%{{.+}}, %c128{{.*}}, %c128{{.*}})
// CHECK:         call @ampTensorMap2D_f8E4M3FN(%{{.+}}, %c256{{.*}}, %c128{{.*}})
// CHECK:         gpu.launch
// A 128x128 and B 256x128 bytes per stage: 48 KiB of transactions.
// CHECK:           nvgpu.mbarrier.arrive.expect_tx %{{.+}}, %c49152
// CHECK:           nvgpu.tma.async.load {{.*}} -> memref<128x128xf8E4M3FN, #gpu.address_space<workgroup>>
// CHECK:           nvgpu.tma.async.load {{.*}} -> memref<256x128xf8E4M3FN, #gpu.address_space<workgroup>>
// CHECK-COUNT-4:   nvgpu.warpgroup.mma %{{.+}}, %{{.+}}, %{{.+}} {waitGroup = 3 : i64} : <tensor = memref<64x32xf8E4M3FN, #gpu.address_space<workgroup>>>, <tensor = memref<32x256xf8E4M3FN, #gpu.address_space<workgroup>>>
// CHECK-NOT:       transposeB
// CHECK:           nvvm.wgmma.wait.group.sync.aligned 0
// CHECK:       } {amp.kernel = "matmul_wgmma_e4m3"}
func.func @matmul_e4m3(%a: memref<256x512xf8E4M3FN>, %b: memref<384x512xf8E4M3FN>, %c: memref<256x384xf32>) {
  %z = arith.constant 0.0 : f32
  linalg.fill ins(%z : f32) outs(%c : memref<256x384xf32>)
  linalg.matmul indexing_maps = [#mA, #mB, #mC] ins(%a, %b : memref<256x512xf8E4M3FN>, memref<384x512xf8E4M3FN>) outs(%c : memref<256x384xf32>)
  return
}

// -----

#mA = affine_map<(m, n, k) -> (m, k)>
#mB = affine_map<(m, n, k) -> (n, k)>
#mC = affine_map<(m, n, k) -> (m, n)>

// Mixed e5m2 x e4m3, N <= 128: 128-column tiles; partial tiles are fine
// (TMA zero fill along K, masked epilogue).
// CHECK-LABEL: func.func @matmul_e5m2_e4m3_narrow
// CHECK:         call @ampTensorMap2D_f8E5M2
// CHECK:         call @ampTensorMap2D_f8E4M3FN(%{{.+}}, %c128{{.*}}, %c128{{.*}})
// CHECK:         nvgpu.warpgroup.mma {{.*}} : <tensor = memref<64x32xf8E5M2, #gpu.address_space<workgroup>>>, <tensor = memref<32x128xf8E4M3FN, #gpu.address_space<workgroup>>>
// CHECK:       } {amp.kernel = "matmul_wgmma_e5m2"}
func.func @matmul_e5m2_e4m3_narrow(%a: memref<200x48xf8E5M2>, %b: memref<72x48xf8E4M3FN>, %c: memref<200x72xf32>) {
  linalg.matmul indexing_maps = [#mA, #mB, #mC] ins(%a, %b : memref<200x48xf8E5M2>, memref<72x48xf8E4M3FN>) outs(%c : memref<200x72xf32>)
  return
}

// -----

#bA = affine_map<(b, m, n, k) -> (b, m, k)>
#bB = affine_map<(b, m, n, k) -> (b, n, k)>
#bC = affine_map<(b, m, n, k) -> (b, m, n)>

// Batches flatten into rows (B as batch * N rows of K): no whole tiles
// needed (K is the inner dimension of both operands).
// CHECK-LABEL: func.func @batch_matmul_e4m3
// CHECK:         memref.collapse_shape %{{.*}} {{\[}}[0, 1], [2]] : memref<3x100x48xf8E4M3FN> into memref<300x48xf8E4M3FN>
// CHECK:         memref.collapse_shape %{{.*}} {{\[}}[0, 1], [2]] : memref<3x72x48xf8E4M3FN> into memref<216x48xf8E4M3FN>
// CHECK:         nvgpu.warpgroup.mma
func.func @batch_matmul_e4m3(%a: memref<3x100x48xf8E4M3FN>, %b: memref<3x72x48xf8E4M3FN>, %c: memref<3x100x72xf32>) {
  linalg.batch_matmul indexing_maps = [#bA, #bB, #bC] ins(%a, %b : memref<3x100x48xf8E4M3FN>, memref<3x72x48xf8E4M3FN>) outs(%c : memref<3x100x72xf32>)
  return
}

// -----

#mA = affine_map<(m, n, k) -> (m, k)>
#mB = affine_map<(m, n, k) -> (n, k)>
#mC = affine_map<(m, n, k) -> (m, n)>

// TMA needs 16-byte aligned rows: K = 40 stays a linalg op (the generic
// path computes it, converting FP8 in SIMT code), with a remark.
// CHECK-LABEL: func.func @matmul_e4m3_unaligned_k
// CHECK-NOT:     gpu.launch
// CHECK:         linalg.matmul
func.func @matmul_e4m3_unaligned_k(%a: memref<64x40xf8E4M3FN>, %b: memref<64x40xf8E4M3FN>, %c: memref<64x64xf32>) {
  // expected-remark @+1 {{FP8 matmul not mapped to wgmma (TMA needs static K, a multiple of 16, identity layouts, and batches without computed operands): computed by a SIMT kernel}}
  linalg.matmul indexing_maps = [#mA, #mB, #mC] ins(%a, %b : memref<64x40xf8E4M3FN>, memref<64x40xf8E4M3FN>) outs(%c : memref<64x64xf32>)
  return
}

// -----

#mA = affine_map<(m, n, k) -> (m, k)>
#mB = affine_map<(m, n, k) -> (n, k)>
#mC = affine_map<(m, n, k) -> (m, n)>
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>

// The epilogue: the inverse scales, a bias, ReLU and the narrowing of the
// next layer's input to FP8. Rows inside C compute the lane's elements
// first and store them after (the conversions then pair up).
// CHECK-LABEL: func.func @epilogue_narrows
// CHECK:         gpu.launch
// CHECK:           scf.if
// CHECK-COUNT-8:     arith.truncf %{{.+}} : f32 to f8E4M3FN
// CHECK-COUNT-8:     memref.store %{{.+}} : memref<256x256xf8E4M3FN>
// CHECK:           } else {
// CHECK:       } {amp.kernel = "matmul_wgmma_e4m3_bias_relu_max_clamp"}
func.func @epilogue_narrows(%a: memref<256x128xf8E4M3FN>, %b: memref<256x128xf8E4M3FN>, %bias: memref<256xf32>, %out: memref<256x256xf8E4M3FN>) {
  %z = arith.constant 0.0 : f32
  %inv = arith.constant 0.001 : f32
  %s = arith.constant 2.0 : f32
  %lo = arith.constant -448.0 : f32
  %hi = arith.constant 448.0 : f32
  %c = memref.alloc() : memref<256x256xf32>
  linalg.fill ins(%z : f32) outs(%c : memref<256x256xf32>)
  linalg.matmul indexing_maps = [#mA, #mB, #mC] ins(%a, %b : memref<256x128xf8E4M3FN>, memref<256x128xf8E4M3FN>) outs(%c : memref<256x256xf32>)
  linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c, %bias : memref<256x256xf32>, memref<256xf32>) outs(%out : memref<256x256xf8E4M3FN>) {
  ^bb0(%x: f32, %bv: f32, %o: f8E4M3FN):
    %0 = arith.mulf %x, %inv : f32
    %1 = arith.addf %0, %bv : f32
    %2 = arith.maximumf %1, %z : f32
    %3 = arith.mulf %2, %s : f32
    %4 = arith.maximumf %3, %lo : f32
    %5 = arith.minimumf %4, %hi : f32
    %6 = arith.truncf %5 : f32 to f8E4M3FN
    linalg.yield %6 : f8E4M3FN
  }
  memref.dealloc %c : memref<256x256xf32>
  return
}
