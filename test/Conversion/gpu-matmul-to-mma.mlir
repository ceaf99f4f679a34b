// RUN: amp-opt %s --amp-gpu-matmul-to-mma --split-input-file | FileCheck %s
// RUN: amp-opt %s --amp-gpu-matmul-to-mma="kind=wgmma" --split-input-file | FileCheck %s --check-prefix=WGMMA
// RUN: amp-opt %s --amp-gpu-matmul-to-mma="kind=none simt-f32" --split-input-file | FileCheck %s --check-prefix=SIMT
// RUN: amp-opt %s --amp-gpu-matmul-to-mma="mma-sync-k-tile=32 mma-sync-stages=3 mma-sync-prefetch=false" --split-input-file | FileCheck %s --check-prefix=K32
// RUN: amp-opt %s --amp-gpu-matmul-to-mma --split-input-file | FileCheck %s --check-prefix=PF

// Aligned rows: cp.async staging, ldmatrix, mma.sync, masked epilogue.
// CHECK-LABEL: func.func @matmul_f16_aligned
// CHECK-NOT:     linalg.matmul
// CHECK:         gpu.launch blocks({{.*}}) in ({{.*}} = %[[GX:.+]], {{.*}} = %[[GY:.+]], {{.*}}) threads({{.*}}) in ({{.*}} = %[[T:.+]], {{.*}}) dynamic_shared_memory_size
// CHECK:           gpu.dynamic_shared_memory
// CHECK:           nvgpu.device_async_copy {{.*}}, 8, {{.*}} {bypassL1} : memref<256x64xf16> to memref<4x128x72xf16, #gpu.address_space<workgroup>>
// CHECK:           nvvm.cp.async.wait.group 2
// CHECK:           nvgpu.ldmatrix {{.*}} {numTiles = 4 : i32, transpose = false}
// CHECK:           nvgpu.ldmatrix {{.*}} {numTiles = 4 : i32, transpose = true}
// Four k16 steps of 4x4 m16n8k16 tiles per K tile of 64 (the default), two
// per K tile of 32.
// CHECK-COUNT-64:  nvgpu.mma.sync({{.*}}) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
// CHECK-NOT:       nvgpu.mma.sync
// CHECK:           arith.addf
// CHECK:           gpu.terminator
// Fragments prefetched (the default): step 0 of tile 0 loaded before the
// loop and carried; in the loop, the refill of a stage, then the next
// step's ldmatrix before each step's mma.sync; before the last step, the
// wait and barrier for the next tile and its step-0 fragments.
// PF-LABEL:     func.func @matmul_f16_aligned
// PF:             nvvm.cp.async.wait.group 2
// PF-NEXT:        gpu.barrier
// PF:             scf.if {{.*}} -> (vector<4x2xf16>, vector<4x2xf16>, vector<4x2xf16>, vector<4x2xf16>, vector<4x2xf16>, vector<4x2xf16>)
// PF:             scf.for {{.*}} -> ({{.*}}vector<4x2xf16>) {
// PF:               nvvm.cp.async.commit.group
// PF:               nvgpu.ldmatrix
// PF:               nvgpu.mma.sync
// PF:               nvvm.cp.async.wait.group 2
// PF-NEXT:          gpu.barrier
// PF:               scf.if {{.*}} -> (vector<4x2xf16>, vector<4x2xf16>, vector<4x2xf16>, vector<4x2xf16>, vector<4x2xf16>, vector<4x2xf16>)
// PF:               nvgpu.mma.sync
// PF:               scf.yield
// K32-LABEL:     func.func @matmul_f16_aligned
// K32:           nvgpu.device_async_copy {{.*}} : memref<256x64xf16> to memref<3x128x40xf16, #gpu.address_space<workgroup>>
// K32:           nvvm.cp.async.wait.group 1
// K32-COUNT-32:  nvgpu.mma.sync
// K32-NOT:       nvgpu.mma.sync
// K32:           gpu.terminator
// WGMMA-LABEL: func.func @matmul_f16_aligned
// WGMMA:         call @ampTensorMap2D_f16
// WGMMA:         gpu.launch
// WGMMA:           nvgpu.mbarrier.init
// WGMMA:           nvvm.setmaxregister decrease 40
// WGMMA:           nvgpu.mbarrier.try_wait.parity
// WGMMA:           nvgpu.mbarrier.arrive.expect_tx
// WGMMA:           nvgpu.tma.async.load
// WGMMA:           nvvm.setmaxregister increase 232
// WGMMA:           nvgpu.mbarrier.try_wait.parity
// WGMMA:           nvgpu.warpgroup.generate.descriptor
// WGMMA:           nvgpu.warpgroup.mma {{.*}} {transposeB}
// WGMMA:           nvgpu.mbarrier.arrive
// WGMMA:           nvvm.barrier
// WGMMA:           nvgpu.warpgroup.mma.store
func.func @matmul_f16_aligned(%a: memref<256x64xf16>, %b: memref<64x512xf16>,
                              %c: memref<256x512xf32>) {
  linalg.matmul ins(%a, %b : memref<256x64xf16>, memref<64x512xf16>)
                outs(%c : memref<256x512xf32>)
  return
}

// -----

// Rows that are not 16-byte aligned (K = 37): staged element by element,
// still on Tensor Cores; wgmma needs aligned rows and falls back.
// CHECK-LABEL: func.func @matmul_f16_odd
// CHECK:         gpu.launch
// CHECK-NOT:       nvgpu.device_async_copy
// CHECK:           scf.for
// CHECK:             memref.load %{{.*}} : memref<100x37xf16>
// CHECK:           nvgpu.mma.sync
// WGMMA-LABEL: func.func @matmul_f16_odd
// WGMMA-NOT:     nvgpu.warpgroup.mma
// WGMMA:         nvgpu.mma.sync
func.func @matmul_f16_odd(%a: memref<100x37xf16>, %b: memref<37x50xf16>,
                          %c: memref<100x50xf32>) {
  linalg.matmul ins(%a, %b : memref<100x37xf16>, memref<37x50xf16>)
                outs(%c : memref<100x50xf32>)
  return
}

// -----

// bf16: the NVVM mma op on packed registers (nvgpu.mma.sync has no bf16).
// CHECK-LABEL: func.func @matmul_bf16
// CHECK:         nvgpu.ldmatrix {{.*}} -> vector<4x2xbf16>
// CHECK:         nvvm.mma.sync {{.*}} {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, multiplicandAPtxType = #nvvm.mma_type<bf16>, multiplicandBPtxType = #nvvm.mma_type<bf16>, shape = #nvvm.shape<m = 16, n = 8, k = 16>}
func.func @matmul_bf16(%a: memref<128x64xbf16>, %b: memref<64x128xbf16>,
                       %c: memref<128x128xf32>) {
  linalg.matmul ins(%a, %b : memref<128x64xbf16>, memref<64x128xbf16>)
                outs(%c : memref<128x128xf32>)
  return
}

// -----

// Batches map to the grid's z dimension; dynamic sizes guard the launch.
// CHECK-LABEL: func.func @batch_matmul_dynamic
// CHECK:         %[[B:.+]] = memref.dim %{{.*}}, %c0
// CHECK:         scf.if
// CHECK:           gpu.launch blocks({{.*}}) in ({{.*}}, {{.*}}, %{{.*}} = %[[B]])
// CHECK:             nvgpu.mma.sync
// WGMMA-LABEL: func.func @batch_matmul_dynamic
// WGMMA-NOT:     nvgpu.warpgroup.mma
// WGMMA:         nvgpu.mma.sync
func.func @batch_matmul_dynamic(%a: memref<?x?x?xf16>, %b: memref<?x?x?xf16>,
                                %c: memref<?x?x?xf32>) {
  linalg.batch_matmul ins(%a, %b : memref<?x?x?xf16>, memref<?x?x?xf16>)
                      outs(%c : memref<?x?x?xf32>)
  return
}

// -----

// A batch of whole tiles takes the wgmma kernel through 2-D views.
// WGMMA-LABEL: func.func @batch_matmul_wgmma
// WGMMA:         memref.collapse_shape %{{.*}} {{\[}}[0, 1], [2]] : memref<2x128x64xf16> into memref<256x64xf16>
// WGMMA:         nvgpu.warpgroup.mma
func.func @batch_matmul_wgmma(%a: memref<2x128x64xf16>, %b: memref<2x64x256xf16>,
                              %c: memref<2x128x256xf32>) {
  linalg.batch_matmul ins(%a, %b : memref<2x128x64xf16>, memref<2x64x256xf16>)
                      outs(%c : memref<2x128x256xf32>)
  return
}

// -----

// Left to the generic path: FP32, mixed input types, transposed operands,
// tensors.
// CHECK-LABEL: func.func @negative_not_tensor_core
// CHECK-NOT:     gpu.launch
// CHECK-COUNT-4: linalg.matmul
func.func @negative_not_tensor_core(%a32: memref<64x64xf32>, %a: memref<64x64xf16>,
                                    %b: memref<64x64xbf16>, %c: memref<64x64xf32>,
                                    %t: tensor<64x64xf16>, %tc: tensor<64x64xf32>)
    -> tensor<64x64xf32> {
  linalg.matmul ins(%a32, %a32 : memref<64x64xf32>, memref<64x64xf32>)
                outs(%c : memref<64x64xf32>)
  linalg.matmul ins(%a, %b : memref<64x64xf16>, memref<64x64xbf16>)
                outs(%c : memref<64x64xf32>)
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>,
                                 affine_map<(m, n, k) -> (k, n)>,
                                 affine_map<(m, n, k) -> (m, n)>]
                ins(%a, %a : memref<64x64xf16>, memref<64x64xf16>)
                outs(%c : memref<64x64xf32>)
  %r = linalg.matmul ins(%t, %t : tensor<64x64xf16>, tensor<64x64xf16>)
                     outs(%tc : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}

// -----

// A fill of C right before the matmul folds into the epilogue: no separate
// fill, no read of C.
// CHECK-LABEL: func.func @matmul_after_fill
// CHECK-SAME:      %[[INIT:[^:]+]]: f32
// CHECK-NOT:     linalg.fill
// CHECK:         gpu.launch
// CHECK:           nvgpu.mma.sync
// CHECK-NOT:       memref.load %{{.*}} : memref<64x64xf32>
// CHECK:           %[[S:.+]] = arith.addf %[[INIT]], %{{.*}} : f32
// CHECK:           memref.store %[[S]], %{{.*}} : memref<64x64xf32>
func.func @matmul_after_fill(%a: memref<64x64xf16>, %b: memref<64x64xf16>,
                             %c: memref<64x64xf32>, %init: f32) {
  linalg.fill ins(%init : f32) outs(%c : memref<64x64xf32>)
  linalg.matmul ins(%a, %b : memref<64x64xf16>, memref<64x64xf16>)
                outs(%c : memref<64x64xf32>)
  return
}

// -----

// With simt-f32, FP32 matmuls get the tiled SIMT kernel (8x8 FMAs per
// thread and K step); with kind=none, the f16 ones stay.
// SIMT-LABEL: func.func @matmul_f32_simt
// SIMT:         gpu.launch blocks({{.*}}) threads({{.*}}) in (%{{[^,]+}} = %c256
// SIMT:           scf.for
// SIMT-COUNT-64:    math.fma
// SIMT:           gpu.barrier
// SIMT:         linalg.matmul ins(%{{.*}} : memref<64x64xf16>, memref<64x64xf16>)
func.func @matmul_f32_simt(%a: memref<100x70xf32>, %b: memref<70x90xf32>,
                           %c: memref<100x90xf32>, %h: memref<64x64xf16>,
                           %ch: memref<64x64xf32>) {
  linalg.matmul ins(%a, %b : memref<100x70xf32>, memref<70x90xf32>)
                outs(%c : memref<100x90xf32>)
  linalg.matmul ins(%h, %h : memref<64x64xf16>, memref<64x64xf16>)
                outs(%ch : memref<64x64xf32>)
  return
}
