// RUN: amp-opt %s --amp-gpu-parallel-loops-to-launch="block-size=128" --split-input-file -verify-diagnostics | FileCheck %s

// A 2-D loop becomes ceil(64*48/128) = 24 blocks of 128 threads; the
// innermost dimension varies fastest.
// CHECK-LABEL: func.func @elementwise_2d
// CHECK:         %[[C24:.+]] = arith.constant 24 : index
// CHECK:         gpu.launch blocks(%{{[^,]+}}, %{{[^,]+}}, %{{[^,]+}}) in (%{{[^,]+}} = %[[C24]], {{.*}}) threads(%[[TX:[^,]+]], %{{[^,]+}}, %{{[^,]+}}) in (%{{[^,]+}} = %c128{{(_[0-9]+)?}},
// CHECK:           %[[ID:.+]] = arith.addi %{{.*}}, %[[TX]]
// CHECK:           scf.if
// CHECK:             %[[J:.+]] = arith.remui %[[ID]], %{{.*}}
// CHECK:             %[[I:.+]] = arith.divui %[[ID]], %{{.*}}
// CHECK:             memref.load %{{.*}}[%{{.*}}, %{{.*}}]
// CHECK:             arith.addf
// CHECK:             memref.store
// CHECK-NOT:     scf.parallel
func.func @elementwise_2d(%a: memref<64x48xf32>, %b: memref<64x48xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c48 = arith.constant 48 : index
  scf.parallel (%i, %j) = (%c0, %c0) to (%c64, %c48) step (%c1, %c1) {
    %x = memref.load %a[%i, %j] : memref<64x48xf32>
    %y = arith.addf %x, %x : f32
    memref.store %y, %b[%i, %j] : memref<64x48xf32>
  }
  return
}

// -----

// Dynamic bounds: an empty range launches nothing.
// CHECK-LABEL: func.func @dynamic_with_reduction_loop
// CHECK:         scf.if
// CHECK:           gpu.launch
// CHECK:             scf.for
func.func @dynamic_with_reduction_loop(%a: memref<?x?xf32>, %b: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %a, %c0 : memref<?x?xf32>
  %k = memref.dim %a, %c1 : memref<?x?xf32>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    scf.for %r = %c0 to %k step %c1 {
      %x = memref.load %a[%i, %r] : memref<?x?xf32>
      %acc = memref.load %b[%i] : memref<?xf32>
      %s = arith.addf %x, %acc : f32
      memref.store %s, %b[%i] : memref<?xf32>
    }
  }
  return
}

// -----

// Loops with results (scf.reduce) stay, with a remark.
func.func @negative_reduce(%a: memref<64xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0.0 : f32
  // expected-remark @+1 {{amp-gpu-parallel-loops-to-launch: parallel loop with reductions left on the host}}
  %r = scf.parallel (%i) = (%c0) to (%c64) step (%c1) init (%zero) -> f32 {
    %x = memref.load %a[%i] : memref<64xf32>
    scf.reduce(%x : f32) {
    ^bb0(%l: f32, %rr: f32):
      %s = arith.addf %l, %rr : f32
      scf.reduce.return %s : f32
    }
  }
  return %r : f32
}
