// RUN: amp-opt %s --amp-gpu-merge-launches --split-input-file | FileCheck %s

// Two independent kernels (each writes its own buffer, reads an input):
// one launch of 4 + 2 blocks; the second body sees its own block ids and
// grid size. The second kernel's output allocation moves up with it.
// CHECK-LABEL: func.func @independent
// CHECK:         %[[A:.+]] = memref.alloc() : memref<1024xf32>
// CHECK:         %[[B:.+]] = memref.alloc() : memref<512xf32>
// CHECK:         gpu.launch blocks(%[[BX:.+]], %{{.+}}, %{{.+}}) in (%{{.+}} = %c6, %{{.+}} = %c1{{.*}}) threads(%[[TX:.+]], %{{.+}}, %{{.+}}) in (%{{.+}} = %c256
// CHECK:           %[[FIRST:.+]] = arith.cmpi ult, %[[BX]], %c4
// CHECK:           scf.if %[[FIRST]] {
// CHECK:             memref.store %{{.+}}, %[[A]]
// CHECK:           } else {
// CHECK:             %[[SHIFTED:.+]] = arith.subi %[[BX]], %c4
// CHECK:             arith.muli %[[SHIFTED]]
// CHECK:             memref.store %{{.+}}, %[[B]]
// CHECK:         } {amp.kernel = "exp_and_neg"}
// CHECK-NOT:     gpu.launch
func.func @independent(%x: memref<1024xf32>, %y: memref<512xf32>) -> (memref<1024xf32>, memref<512xf32>) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c256 = arith.constant 256 : index
  %a = memref.alloc() : memref<1024xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c4, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) {
    %base = arith.muli %bx, %sx : index
    %i = arith.addi %base, %tx : index
    %v = memref.load %x[%i] : memref<1024xf32>
    %e = math.exp %v : f32
    memref.store %e, %a[%i] : memref<1024xf32>
    gpu.terminator
  } {amp.kernel = "exp"}
  %b = memref.alloc() : memref<512xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) {
    %base = arith.muli %bx, %sx : index
    %i = arith.addi %base, %tx : index
    %v = memref.load %y[%i] : memref<512xf32>
    %n = arith.negf %v : f32
    memref.store %n, %b[%i] : memref<512xf32>
    gpu.terminator
  } {amp.kernel = "neg"}
  return %a, %b : memref<1024xf32>, memref<512xf32>
}

// -----

// The second kernel reads what the first writes: two launches.
// CHECK-LABEL: func.func @dependent
// CHECK:         gpu.launch
// CHECK:         gpu.launch
func.func @dependent(%x: memref<256xf32>) -> memref<256xf32> {
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  %a = memref.alloc() : memref<256xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) {
    %v = memref.load %x[%tx] : memref<256xf32>
    memref.store %v, %a[%tx] : memref<256xf32>
    gpu.terminator
  }
  %b = memref.alloc() : memref<256xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) {
    %v = memref.load %a[%tx] : memref<256xf32>
    memref.store %v, %b[%tx] : memref<256xf32>
    gpu.terminator
  }
  return %b : memref<256xf32>
}

// -----

// Independent, but a copy in between writes what the second kernel reads
// (it cannot move above the copy), and kernels of different block sizes
// never share a launch.
// CHECK-LABEL: func.func @blocked
// CHECK:         gpu.launch
// CHECK:         memref.copy
// CHECK:         gpu.launch
// CHECK:         gpu.launch
func.func @blocked(%x: memref<256xf32>, %y: memref<256xf32>) -> (memref<256xf32>, memref<256xf32>, memref<128xf32>) {
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  %a = memref.alloc() : memref<256xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) {
    %v = memref.load %x[%tx] : memref<256xf32>
    memref.store %v, %a[%tx] : memref<256xf32>
    gpu.terminator
  }
  %t = memref.alloc() : memref<256xf32>
  memref.copy %y, %t : memref<256xf32> to memref<256xf32>
  %b = memref.alloc() : memref<256xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) {
    %v = memref.load %t[%tx] : memref<256xf32>
    memref.store %v, %b[%tx] : memref<256xf32>
    gpu.terminator
  }
  %c = memref.alloc() : memref<128xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1) {
    %v = memref.load %x[%tx] : memref<256xf32>
    memref.store %v, %c[%tx] : memref<128xf32>
    gpu.terminator
  }
  return %a, %b, %c : memref<256xf32>, memref<256xf32>, memref<128xf32>
}

// -----

// Four independent kernels: one launch; the name lists three and counts
// the rest.
// CHECK-LABEL: func.func @four
// CHECK:         gpu.launch blocks({{.*}}) in (%{{.+}} = %c4,
// CHECK:         {amp.kernel = "k0_and_k1_and_k2_and_1_more"}
// CHECK-NOT:     gpu.launch
func.func @four(%x: memref<256xf32>) -> (memref<256xf32>, memref<256xf32>, memref<256xf32>, memref<256xf32>) {
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  %a = memref.alloc() : memref<256xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) {
    %v = memref.load %x[%tx] : memref<256xf32>
    memref.store %v, %a[%tx] : memref<256xf32>
    gpu.terminator
  } {amp.kernel = "k0"}
  %b = memref.alloc() : memref<256xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) {
    %v = memref.load %x[%tx] : memref<256xf32>
    memref.store %v, %b[%tx] : memref<256xf32>
    gpu.terminator
  } {amp.kernel = "k1"}
  %c = memref.alloc() : memref<256xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) {
    %v = memref.load %x[%tx] : memref<256xf32>
    memref.store %v, %c[%tx] : memref<256xf32>
    gpu.terminator
  } {amp.kernel = "k2"}
  %d = memref.alloc() : memref<256xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) {
    %v = memref.load %x[%tx] : memref<256xf32>
    memref.store %v, %d[%tx] : memref<256xf32>
    gpu.terminator
  } {amp.kernel = "k3"}
  return %a, %b, %c, %d : memref<256xf32>, memref<256xf32>, memref<256xf32>, memref<256xf32>
}

// -----

// A kernel that writes a function argument, next to one that reads another
// argument: arguments may alias, so the two stay apart.
// CHECK-LABEL: func.func @arguments_may_alias
// CHECK:         gpu.launch
// CHECK:         gpu.launch
func.func @arguments_may_alias(%x: memref<256xf32>, %y: memref<256xf32>) -> memref<256xf32> {
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  %cst = arith.constant 1.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) {
    memref.store %cst, %x[%tx] : memref<256xf32>
    gpu.terminator
  }
  %b = memref.alloc() : memref<256xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) {
    %v = memref.load %y[%tx] : memref<256xf32>
    memref.store %v, %b[%tx] : memref<256xf32>
    gpu.terminator
  }
  return %b : memref<256xf32>
}
