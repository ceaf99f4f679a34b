// RUN: amp-opt %s --amp-gpu-matmul-to-mma --split-input-file | FileCheck %s

// The mixed-precision cast of a matmul's result (a linalg.generic that only
// rounds C to f16) is folded into the kernel's epilogue: the kernel stores
// the rounded sums into the f16 buffer, moved before the kernel, and the
// cast's own kernel is gone.
// CHECK-LABEL: func.func @rounded_result
// CHECK:         %[[OUT:.+]] = memref.alloc() : memref<256x128xf16>
// CHECK:         gpu.launch
// CHECK:           nvgpu.mma.sync
// CHECK:           arith.truncf %{{.*}} : f32 to f16
// CHECK:           memref.store %{{.*}}, %[[OUT]]
// CHECK-NOT:     linalg.generic
// CHECK:         return %[[OUT]]
func.func @rounded_result(%a: memref<256x64xf16>, %b: memref<64x128xf16>) -> memref<256x128xf16> {
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<256x128xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<256x128xf32>)
  linalg.matmul ins(%a, %b : memref<256x64xf16>, memref<64x128xf16>)
                outs(%c : memref<256x128xf32>)
  %out = memref.alloc() : memref<256x128xf16>
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%c : memref<256x128xf32>) outs(%out : memref<256x128xf16>) {
  ^bb0(%in: f32, %o: f16):
    %t = arith.truncf %in : f32 to f16
    linalg.yield %t : f16
  }
  memref.dealloc %c : memref<256x128xf32>
  return %out : memref<256x128xf16>
}

// -----

// C is also read elsewhere: the f32 result stays, and so does the cast.
// CHECK-LABEL: func.func @result_also_used
// CHECK:         gpu.launch
// CHECK:         linalg.generic
// CHECK:           arith.truncf
func.func @result_also_used(%a: memref<256x64xf16>, %b: memref<64x128xf16>,
                            %keep: memref<256x128xf32>) -> memref<256x128xf16> {
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<256x128xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<256x128xf32>)
  linalg.matmul ins(%a, %b : memref<256x64xf16>, memref<64x128xf16>)
                outs(%c : memref<256x128xf32>)
  %out = memref.alloc() : memref<256x128xf16>
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%c : memref<256x128xf32>) outs(%out : memref<256x128xf16>) {
  ^bb0(%in: f32, %o: f16):
    %t = arith.truncf %in : f32 to f16
    linalg.yield %t : f16
  }
  memref.copy %c, %keep : memref<256x128xf32> to memref<256x128xf32>
  return %out : memref<256x128xf16>
}

// -----

// The generic does more than round (a bias add): not folded.
// CHECK-LABEL: func.func @not_only_rounding
// CHECK:         gpu.launch
// CHECK:         linalg.generic
// CHECK:           arith.addf
// CHECK:           arith.truncf
func.func @not_only_rounding(%a: memref<256x64xf16>, %b: memref<64x128xf16>) -> memref<256x128xf16> {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %c = memref.alloc() : memref<256x128xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<256x128xf32>)
  linalg.matmul ins(%a, %b : memref<256x64xf16>, memref<64x128xf16>)
                outs(%c : memref<256x128xf32>)
  %out = memref.alloc() : memref<256x128xf16>
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%c : memref<256x128xf32>) outs(%out : memref<256x128xf16>) {
  ^bb0(%in: f32, %o: f16):
    %s = arith.addf %in, %one : f32
    %t = arith.truncf %s : f32 to f16
    linalg.yield %t : f16
  }
  return %out : memref<256x128xf16>
}
