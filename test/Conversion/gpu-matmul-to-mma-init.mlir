// RUN: amp-opt %s --amp-gpu-matmul-to-mma --split-input-file | FileCheck %s

// A zero output written by bufferization as a copy from a constant splat
// global folds into the kernel's epilogue like a linalg.fill: no copy, no
// read of C.
memref.global "private" constant @__constant_64x64xf32 : memref<64x64xf32> = dense<0.000000e+00>
// CHECK-LABEL: func.func @matmul_after_zero_constant_copy
// CHECK-NOT:     memref.copy
// CHECK:         %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK:         gpu.launch
// CHECK-NOT:       memref.load %{{.*}} : memref<64x64xf32>
// CHECK:           arith.addf %[[ZERO]]
// CHECK:           memref.store {{.*}} : memref<64x64xf32>
func.func @matmul_after_zero_constant_copy(%a: memref<64x32xf16>, %b: memref<32x64xf16>,
                                           %c: memref<64x64xf32>) {
  %zero = memref.get_global @__constant_64x64xf32 : memref<64x64xf32>
  memref.copy %zero, %c : memref<64x64xf32> to memref<64x64xf32>
  linalg.matmul ins(%a, %b : memref<64x32xf16>, memref<32x64xf16>)
                outs(%c : memref<64x64xf32>)
  return
}

// -----

// A constant that is not a splat is copied, and C is read.
memref.global "private" constant @__constant_2x2xf32 : memref<2x2xf32> = dense<[[0.0, 1.0], [2.0, 3.0]]>
// CHECK-LABEL: func.func @negative_copy_of_non_splat_constant
// CHECK:         memref.copy
// CHECK:         gpu.launch
// CHECK:           memref.load %{{.*}} : memref<2x2xf32>
func.func @negative_copy_of_non_splat_constant(%a: memref<2x32xf16>, %b: memref<32x2xf16>,
                                               %c: memref<2x2xf32>) {
  %init = memref.get_global @__constant_2x2xf32 : memref<2x2xf32>
  memref.copy %init, %c : memref<2x2xf32> to memref<2x2xf32>
  linalg.matmul ins(%a, %b : memref<2x32xf16>, memref<32x2xf16>)
                outs(%c : memref<2x2xf32>)
  return
}
