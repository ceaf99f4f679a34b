// RUN: amp-opt %s --amp-gpu-matmul-to-mma="kind=wgmma simt-f32" --split-input-file | FileCheck %s
// RUN: amp-opt %s --amp-gpu-matmul-to-mma="kind=wgmma simt-f32 skinny-max-m=0" --split-input-file | FileCheck %s --check-prefix=OFF

// One row, wide B (280 column blocks): K is split over 4 blocks; each block
// writes its sums to a workspace, fences and counts itself done on its
// column group's counter (zeroed by a memset before the launch); the last
// block of the group adds the 4 splits in order and writes init + sum (the
// fill is folded). One kernel.
// CHECK-LABEL: func.func @gemv_f32_split_k
// CHECK-NOT:     linalg.fill
// CHECK:         %[[WS:.+]] = memref.alloc() : memref<4x1x8960xf32>
// CHECK:         %[[CNT:.+]] = memref.alloc(%{{.+}}) : memref<?xi32>
// CHECK:         gpu.memset %[[CNT]], %{{.+}} : memref<?xi32>, i32
// CHECK:         gpu.launch blocks({{.*}}) in ({{.*}} = %c280, {{.*}} = %c4{{(_[0-9]+)?}}, {{.*}}) threads({{.*}}) in ({{.*}} = %c256, {{.*}}) dynamic_shared_memory_size
// CHECK:           scf.if
// CHECK:             scf.for
// CHECK:               memref.load %{{.*}} : memref<1536x8960xf32>
// CHECK:               memref.load %{{.*}} : memref<1x1536xf32>
// CHECK:               math.fma
// CHECK:           memref.view {{.*}} to memref<8x1x32xf32, #gpu.address_space<workgroup>>
// CHECK:           gpu.barrier
// CHECK:           memref.store %{{.*}}, %[[WS]]
// CHECK:           nvvm.memory.barrier <gpu>
// CHECK:           memref.atomic_rmw addi %{{.+}}, %[[CNT]]
// CHECK:           arith.cmpi eq, %{{.+}}, %c3_i32
// CHECK:           scf.if
// CHECK:             memref.load %[[WS]][%c0
// CHECK:             memref.load %[[WS]][%c1
// CHECK:             memref.load %[[WS]][%c2
// CHECK:             memref.load %[[WS]][%c3
// CHECK:             arith.addf %cst
// CHECK:             memref.store {{.*}} : memref<1x8960xf32>
// CHECK-NOT:     gpu.launch
// CHECK:         memref.dealloc %[[WS]]
// CHECK:         memref.dealloc %[[CNT]]
// OFF-LABEL: func.func @gemv_f32_split_k
// OFF-NOT:     memref.alloc
// OFF:         gpu.launch
func.func @gemv_f32_split_k(%a: memref<1x1536xf32>, %b: memref<1536x8960xf32>,
                            %c: memref<1x8960xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<1x8960xf32>)
  linalg.matmul ins(%a, %b : memref<1x1536xf32>, memref<1536x8960xf32>)
                outs(%c : memref<1x8960xf32>)
  return
}

// -----

// Few column blocks and a short K: one split, the block adds its sums into
// C itself (C += A * B, no fill); 16-bit inputs are widened to f32. Each
// thread's K loop takes 4 rows of B per iteration (4 rows x 4 accumulators),
// then the remaining rows one by one.
// CHECK-LABEL: func.func @skinny_bf16_one_split
// CHECK-NOT:     memref.alloc
// CHECK:         gpu.launch
// CHECK:           scf.for
// CHECK:             arith.extf %{{.*}} : bf16 to f32
// CHECK-COUNT-16:    math.fma
// CHECK-NOT:         math.fma
// CHECK:           scf.for
// CHECK-COUNT-4:     math.fma
// CHECK-NOT:         math.fma
// CHECK:           gpu.barrier
// CHECK:           memref.load %{{.*}} : memref<4x100xf32>
// CHECK:           arith.addf
// CHECK:           memref.store {{.*}} : memref<4x100xf32>
// CHECK-NOT:     gpu.launch
// CHECK:         return
func.func @skinny_bf16_one_split(%a: memref<4x37xbf16>, %b: memref<37x100xbf16>,
                                 %c: memref<4x100xf32>) {
  linalg.matmul ins(%a, %b : memref<4x37xbf16>, memref<37x100xbf16>)
                outs(%c : memref<4x100xf32>)
  return
}

// -----

// A weight given as an f32 argument and rounded to f16 for this matmul only:
// the kernel reads the f32 argument and rounds in registers; the rounding
// kernel and its buffer are gone.
#id = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @gemv_f16_fused_rounding
// CHECK-SAME:    %[[W:[^:]+]]: memref<512x64xf32>
// CHECK-NOT:     linalg.generic
// CHECK-NOT:     memref.alloc() : memref<512x64xf16>
// CHECK:         gpu.launch
// CHECK:           memref.load %[[W]]
// CHECK:           arith.truncf %{{.*}} : f32 to f16
// CHECK:           arith.extf %{{.*}} : f16 to f32
// CHECK:           math.fma
// CHECK-NOT:     memref.dealloc %{{.*}} : memref<512x64xf16>
func.func @gemv_f16_fused_rounding(%a: memref<1x512xf16>, %w: memref<512x64xf32>,
                                   %c: memref<1x64xf32>) {
  %b = memref.alloc() : memref<512x64xf16>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%w : memref<512x64xf32>) outs(%b : memref<512x64xf16>) {
  ^bb0(%in: f32, %out: f16):
    %t = arith.truncf %in : f32 to f16
    linalg.yield %t : f16
  }
  linalg.matmul ins(%a, %b : memref<1x512xf16>, memref<512x64xf16>)
                outs(%c : memref<1x64xf32>)
  memref.dealloc %b : memref<512x64xf16>
  return
}

// -----

// The rounded copy is read by something else too: the kernel still rounds
// the f32 argument itself, and the copy stays for its other reader.
#id = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @rounded_weight_shared
// CHECK-SAME:    %[[W:[^:]+]]: memref<512x64xf32>
// CHECK:         %[[B:.+]] = memref.alloc() : memref<512x64xf16>
// CHECK:         linalg.generic
// CHECK:         gpu.launch
// CHECK:           memref.load %[[W]]
// CHECK:           arith.truncf
// CHECK:         memref.copy %[[B]]
func.func @rounded_weight_shared(%a: memref<1x512xf16>, %w: memref<512x64xf32>,
                                          %c: memref<1x64xf32>, %out: memref<512x64xf16>) {
  %b = memref.alloc() : memref<512x64xf16>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%w : memref<512x64xf32>) outs(%b : memref<512x64xf16>) {
  ^bb0(%in: f32, %out2: f16):
    %t = arith.truncf %in : f32 to f16
    linalg.yield %t : f16
  }
  linalg.matmul ins(%a, %b : memref<1x512xf16>, memref<512x64xf16>)
                outs(%c : memref<1x64xf32>)
  memref.copy %b, %out : memref<512x64xf16> to memref<512x64xf16>
  memref.dealloc %b : memref<512x64xf16>
  return
}

// -----

// 17 rows, or a dynamic M: the tiled kernels.
// CHECK-LABEL: func.func @negative_17_rows
// CHECK:         gpu.launch
// CHECK:           nvgpu.warpgroup.mma
// CHECK-LABEL: func.func @negative_dynamic_rows
// CHECK:         gpu.launch
// CHECK:           nvgpu.warpgroup.mma
func.func @negative_17_rows(%a: memref<17x64xf16>, %b: memref<64x128xf16>,
                            %c: memref<17x128xf32>) {
  linalg.matmul ins(%a, %b : memref<17x64xf16>, memref<64x128xf16>)
                outs(%c : memref<17x128xf32>)
  return
}
func.func @negative_dynamic_rows(%a: memref<?x64xf16>, %b: memref<64x128xf16>,
                                 %c: memref<?x128xf32>) {
  linalg.matmul ins(%a, %b : memref<?x64xf16>, memref<64x128xf16>)
                outs(%c : memref<?x128xf32>)
  return
}
