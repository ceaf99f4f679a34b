// RUN: amp-opt %s --split-input-file --amp-outline-kernels | FileCheck %s
// RUN: amp-opt %s --split-input-file --amp-outline-kernels | amp-opt --split-input-file | FileCheck %s
// RUN: amp-opt %s --split-input-file --amp-outline-kernels=range-arguments | FileCheck %s --check-prefix=RANGE

// A loop nest becomes a kernel named for its function, its position and
// what it computes; the memrefs it uses are its arguments, the constants are
// copied in (and leave the caller if it no longer uses them), and a call
// takes the nest's place.
// CHECK-LABEL: func.func @square(
// CHECK-SAME: %[[A:.+]]: memref<8x4xf32>, %[[B:.+]]: memref<8x4xf32>)
// CHECK-NEXT: call @square_0_mulf(%[[A]], %[[B]]) : (memref<8x4xf32>, memref<8x4xf32>) -> ()
// CHECK-NEXT: return
// CHECK: func.func private @square_0_mulf(%[[KA:.+]]: memref<8x4xf32>, %[[KB:.+]]: memref<8x4xf32>)
// CHECK-DAG: %[[C0:.+]] = arith.constant 0 : index
// CHECK-DAG: %[[C8:.+]] = arith.constant 8 : index
// CHECK: scf.for %[[I:.+]] = %[[C0]] to %[[C8]]
// CHECK: scf.for
// CHECK: memref.load %[[KA]]
// CHECK: arith.mulf
// CHECK: memref.store {{.*}}, %[[KB]]
// CHECK: return
func.func @square(%a: memref<8x4xf32>, %b: memref<8x4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  scf.for %i = %c0 to %c8 step %c1 {
    scf.for %j = %c0 to %c4 step %c1 {
      %x = memref.load %a[%i, %j] : memref<8x4xf32>
      %y = arith.mulf %x, %x : f32
      memref.store %y, %b[%i, %j] : memref<8x4xf32>
    }
  }
  return
}

// -----

// Nests are numbered in order; a nest that only stores is a fill, one that
// only loads and stores a copy. A scalar computed outside (not a constant)
// is an argument; the ops between the nests stay.
// CHECK-LABEL: func.func @fill_then_copy(
// CHECK-SAME: %[[A:.+]]: memref<16xf32>, %[[B:.+]]: memref<16xf32>, %[[X:.+]]: f32)
// CHECK: %[[V:.+]] = arith.addf %[[X]], %[[X]]
// CHECK-NEXT: call @fill_then_copy_0_fill(%[[V]], %[[A]])
// CHECK-NEXT: memref.alloc
// CHECK-NEXT: memref.dealloc
// CHECK-NEXT: call @fill_then_copy_1_copy(%[[A]], %[[B]])
// CHECK: func.func private @fill_then_copy_0_fill(%{{.+}}: f32, %{{.+}}: memref<16xf32>)
// CHECK: func.func private @fill_then_copy_1_copy(
func.func @fill_then_copy(%a: memref<16xf32>, %b: memref<16xf32>, %x: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %v = arith.addf %x, %x : f32
  scf.for %i = %c0 to %c16 step %c1 {
    memref.store %v, %a[%i] : memref<16xf32>
  }
  %t = memref.alloc() : memref<4xf32>
  memref.dealloc %t : memref<4xf32>
  scf.for %i = %c0 to %c16 step %c1 {
    %y = memref.load %a[%i] : memref<16xf32>
    memref.store %y, %b[%i] : memref<16xf32>
  }
  return
}

// -----

// A loop that carries a value out, and one that calls a function, stay
// where they are: their kernels would not stand alone.
// CHECK-LABEL: func.func @stay_inline(
// CHECK: scf.for {{.*}} iter_args
// CHECK: scf.for
// CHECK: call @helper
// CHECK-NOT: func.func private @stay_inline_
func.func private @helper(f32)
func.func @stay_inline(%a: memref<16xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %zero = arith.constant 0.0 : f32
  %sum = scf.for %i = %c0 to %c16 step %c1 iter_args(%acc = %zero) -> f32 {
    %y = memref.load %a[%i] : memref<16xf32>
    %s = arith.addf %acc, %y : f32
    scf.yield %s : f32
  }
  scf.for %i = %c0 to %c16 step %c1 {
    %y = memref.load %a[%i] : memref<16xf32>
    func.call @helper(%y) : (f32) -> ()
  }
  return %sum : f32
}

// -----

// A kernel name that is taken gets a suffix.
// CHECK-LABEL: func.func @taken(
// CHECK: call @[[NAME:taken_0_negf_[0-9]+]](
// CHECK: func.func private @[[NAME]](
func.func private @taken_0_negf()
func.func @taken(%a: memref<16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  scf.for %i = %c0 to %c16 step %c1 {
    %y = memref.load %a[%i] : memref<16xf32>
    %n = arith.negf %y : f32
    memref.store %n, %a[%i] : memref<16xf32>
  }
  return
}

// -----

// With range-arguments, an scf.parallel nest without reductions takes the
// bounds of its longest dimension (the second: 16 iterations) as its first
// two arguments, and the call passes them.
// RANGE-LABEL: func.func @parallel_rows(
// RANGE-SAME: %[[A:.+]]: memref<4x16xf32>)
// RANGE-DAG: %[[C0:.+]] = arith.constant 0 : index
// RANGE-DAG: %[[C16:.+]] = arith.constant 16 : index
// RANGE: call @parallel_rows_0_negf(%[[C0]], %[[C16]], %[[A]])
// RANGE: func.func private @parallel_rows_0_negf(%[[LO:[^:]+]]: index, %[[HI:[^:]+]]: index, %{{.+}}: memref<4x16xf32>)
// RANGE: scf.parallel ({{.+}}) = (%{{.+}}, %[[LO]]) to (%{{.+}}, %[[HI]])
// Without it, the same kernel takes the buffer only.
// CHECK-LABEL: func.func @parallel_rows(
// CHECK: call @parallel_rows_0_negf(%{{[^,]+}}) :
func.func @parallel_rows(%a: memref<4x16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  scf.parallel (%i, %j) = (%c0, %c0) to (%c4, %c16) step (%c1, %c1) {
    %x = memref.load %a[%i, %j] : memref<4x16xf32>
    %y = arith.negf %x : f32
    memref.store %y, %a[%i, %j] : memref<4x16xf32>
  }
  return
}

// -----

// A dimension of dynamic bounds is not a range; with none left, no range.
// RANGE-LABEL: func.func @dynamic_rows(
// RANGE: call @dynamic_rows_0_negf(%{{[^,]+}}, %{{[^,]+}}) :
func.func @dynamic_rows(%a: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %x = memref.load %a[%i] : memref<?xf32>
    %y = arith.negf %x : f32
    memref.store %y, %a[%i] : memref<?xf32>
  }
  return
}
