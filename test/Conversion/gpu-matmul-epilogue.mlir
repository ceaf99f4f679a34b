// RUN: amp-opt %s --amp-gpu-matmul-to-mma=simt-f32=true --split-input-file | FileCheck %s

// The elementwise consumer of a matmul's result runs in the kernel's
// epilogue: here only the mixed-precision cast. The kernel stores the
// rounded sums into the f16 buffer (moved before the kernel); the cast's
// generic, C's buffer and its deallocation are gone.
// CHECK-LABEL: func.func @rounded_result
// CHECK-NOT:     memref.alloc() : memref<256x128xf32>
// CHECK:         %[[OUT:.+]] = memref.alloc() : memref<256x128xf16>
// CHECK:         gpu.launch
// CHECK:           nvgpu.mma.sync
// CHECK:           arith.truncf %{{.*}} : f32 to f16
// CHECK:           memref.store %{{.*}}, %[[OUT]]
// CHECK-NOT:     linalg.generic
// CHECK-NOT:     memref.dealloc
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

// Bias (broadcast along the rows), ReLU and the cast: the bias is loaded
// at the element's column.
// CHECK-LABEL: func.func @bias_relu_cast
// CHECK-SAME:    %[[BIAS:[^:]+]]: memref<128xf32>
// CHECK:         gpu.launch
// CHECK:           %[[COL:.+]] = arith.addi
// CHECK:           memref.load %[[BIAS]][%{{.+}}]
// CHECK:           arith.addf
// CHECK:           arith.maximumf
// CHECK:           arith.truncf
// CHECK:           memref.store
// CHECK-NOT:     linalg.generic
func.func @bias_relu_cast(%a: memref<256x64xf16>, %b: memref<64x128xf16>, %bias: memref<128xf32>) -> memref<256x128xf16> {
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<256x128xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<256x128xf32>)
  linalg.matmul ins(%a, %b : memref<256x64xf16>, memref<64x128xf16>)
                outs(%c : memref<256x128xf32>)
  %out = memref.alloc() : memref<256x128xf16>
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%c, %bias : memref<256x128xf32>, memref<128xf32>) outs(%out : memref<256x128xf16>) {
  ^bb0(%in: f32, %bi: f32, %o: f16):
    %s = arith.addf %in, %bi : f32
    %r = arith.maximumf %s, %zero : f32
    %t = arith.truncf %r : f32 to f16
    linalg.yield %t : f16
  }
  return %out : memref<256x128xf16>
}

// -----

// An NHWC convolution's matmul writes [N*H*W, F]; the consumer reads the
// [N, H, W, F] buffer and writes it transposed (NCHW) with a residual
// input: the element's position in C is delinearized over [1, 7, 7, 64].
// CHECK-LABEL: func.func @reshaped_transposed_residual
// CHECK-SAME:    %[[RES:[^:]+]]: memref<1x64x7x7xf32>
// CHECK:         %[[OUT:.+]] = memref.alloc() : memref<1x64x7x7xf32>
// CHECK:         gpu.launch
// CHECK:           arith.remui %{{.+}}, %c7
// CHECK:           arith.divui %{{.+}}, %c7
// CHECK:           memref.load %[[RES]]
// CHECK:           memref.store %{{.+}}, %[[OUT]]
// CHECK-NOT:     linalg.generic
func.func @reshaped_transposed_residual(%a: memref<49x32xf16>, %b: memref<32x64xf16>, %res: memref<1x64x7x7xf32>) -> memref<1x64x7x7xf32> {
  %zero = arith.constant 0.0 : f32
  %c4 = memref.alloc() : memref<1x7x7x64xf32>
  %c = memref.collapse_shape %c4 [[0, 1, 2], [3]] : memref<1x7x7x64xf32> into memref<49x64xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<49x64xf32>)
  linalg.matmul ins(%a, %b : memref<49x32xf16>, memref<32x64xf16>)
                outs(%c : memref<49x64xf32>)
  %out = memref.alloc() : memref<1x64x7x7xf32>
  linalg.generic {indexing_maps = [affine_map<(n, h, w, f) -> (n, h, w, f)>,
                                   affine_map<(n, h, w, f) -> (n, f, h, w)>,
                                   affine_map<(n, h, w, f) -> (n, f, h, w)>],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c4, %res : memref<1x7x7x64xf32>, memref<1x64x7x7xf32>) outs(%out : memref<1x64x7x7xf32>) {
  ^bb0(%in: f32, %r: f32, %o: f32):
    %s = arith.addf %in, %r : f32
    linalg.yield %s : f32
  }
  return %out : memref<1x64x7x7xf32>
}

// -----

// C is also read elsewhere: the consumer is still fused, and the kernel
// stores C as well.
// CHECK-LABEL: func.func @result_also_used
// CHECK:         %[[C:.+]] = memref.alloc() : memref<256x128xf32>
// CHECK:         %[[OUT:.+]] = memref.alloc() : memref<256x128xf16>
// CHECK:         gpu.launch
// CHECK:           memref.store %{{.*}}, %[[C]]
// CHECK:           arith.truncf
// CHECK:           memref.store %{{.*}}, %[[OUT]]
// CHECK-NOT:     linalg.generic
// CHECK:         memref.copy %[[C]]
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

// The consumer writes the buffer the matmul reads A from (in-place
// bufferization): blocks of the kernel would overwrite what others still
// read, so it stays a kernel of its own.
// CHECK-LABEL: func.func @output_aliases_a
// CHECK:         gpu.launch
// CHECK:         linalg.generic
func.func @output_aliases_a(%a: memref<128x128xf16>, %b: memref<128x128xf16>) {
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<128x128xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<128x128xf32>)
  linalg.matmul ins(%a, %b : memref<128x128xf16>, memref<128x128xf16>)
                outs(%c : memref<128x128xf32>)
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%c : memref<128x128xf32>) outs(%a : memref<128x128xf16>) {
  ^bb0(%in: f32, %o: f16):
    %t = arith.truncf %in : f32 to f16
    linalg.yield %t : f16
  }
  return
}

// -----

// Something between the matmul and the consumer writes the consumer's
// other input: computing the consumer early would read the old values.
// CHECK-LABEL: func.func @input_written_in_between
// CHECK:         gpu.launch
// CHECK:         linalg.fill
// CHECK:         linalg.generic
func.func @input_written_in_between(%a: memref<256x64xf16>, %b: memref<64x128xf16>, %bias: memref<128xf32>) -> memref<256x128xf32> {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %c = memref.alloc() : memref<256x128xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<256x128xf32>)
  linalg.matmul ins(%a, %b : memref<256x64xf16>, memref<64x128xf16>)
                outs(%c : memref<256x128xf32>)
  linalg.fill ins(%one : f32) outs(%bias : memref<128xf32>)
  %out = memref.alloc() : memref<256x128xf32>
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%c, %bias : memref<256x128xf32>, memref<128xf32>) outs(%out : memref<256x128xf32>) {
  ^bb0(%in: f32, %bi: f32, %o: f32):
    %s = arith.addf %in, %bi : f32
    linalg.yield %s : f32
  }
  return %out : memref<256x128xf32>
}

// -----

// A reduction of C is not elementwise: C is stored, the reduction stays.
// CHECK-LABEL: func.func @reduction_consumer
// CHECK:         %[[C:.+]] = memref.alloc() : memref<256x128xf32>
// CHECK:         gpu.launch
// CHECK:           memref.store %{{.*}}, %[[C]]
// CHECK:         linalg.generic
// CHECK-SAME:      "reduction"
func.func @reduction_consumer(%a: memref<256x64xf16>, %b: memref<64x128xf16>, %sum: memref<256xf32>) {
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<256x128xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<256x128xf32>)
  linalg.matmul ins(%a, %b : memref<256x64xf16>, memref<64x128xf16>)
                outs(%c : memref<256x128xf32>)
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%c : memref<256x128xf32>) outs(%sum : memref<256xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// The FP32 SIMT kernel, the skinny kernel (in its last split's sum) and
// the wgmma kernel have the same epilogue.
// CHECK-LABEL: func.func @simt_f32
// CHECK:         gpu.launch
// CHECK:           arith.maximumf
// CHECK-NOT:     linalg.generic
func.func @simt_f32(%a: memref<256x64xf32>, %b: memref<64x128xf32>) -> memref<256x128xf32> {
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<256x128xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<256x128xf32>)
  linalg.matmul ins(%a, %b : memref<256x64xf32>, memref<64x128xf32>)
                outs(%c : memref<256x128xf32>)
  %out = memref.alloc() : memref<256x128xf32>
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%c : memref<256x128xf32>) outs(%out : memref<256x128xf32>) {
  ^bb0(%in: f32, %o: f32):
    %r = arith.maximumf %in, %zero : f32
    linalg.yield %r : f32
  }
  return %out : memref<256x128xf32>
}

// CHECK-LABEL: func.func @skinny_split
// CHECK:         gpu.launch
// CHECK:           memref.atomic_rmw
// CHECK:           arith.maximumf
// CHECK-NOT:     gpu.launch
// CHECK-NOT:     linalg.generic
func.func @skinny_split(%a: memref<1x8192xf16>, %b: memref<8192x256xf16>) -> memref<1x256xf32> {
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<1x256xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<1x256xf32>)
  linalg.matmul ins(%a, %b : memref<1x8192xf16>, memref<8192x256xf16>)
                outs(%c : memref<1x256xf32>)
  %out = memref.alloc() : memref<1x256xf32>
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%c : memref<1x256xf32>) outs(%out : memref<1x256xf32>) {
  ^bb0(%in: f32, %o: f32):
    %r = arith.maximumf %in, %zero : f32
    linalg.yield %r : f32
  }
  return %out : memref<1x256xf32>
}

// -----

// RUN: amp-opt %s --amp-gpu-matmul-to-mma=kind=wgmma --split-input-file | FileCheck %s --check-prefix=WGMMA
// WGMMA-LABEL: func.func @rounded_result
// WGMMA:         gpu.launch
// WGMMA:           nvgpu.warpgroup.mma
// WGMMA:           arith.truncf %{{.*}} : f32 to f16
// WGMMA-NOT:     linalg.generic
// WGMMA:         return
