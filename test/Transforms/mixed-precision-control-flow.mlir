// RUN: amp-opt %s --amp-mixed-precision --split-input-file | FileCheck %s
// RUN: amp-opt %s --amp-mixed-precision --split-input-file | amp-opt --verify-roundtrip >/dev/null

// Loop-carried values keep their type across the back edge; the body is
// converted like any other code.
// CHECK-LABEL: func.func @scf_for
// CHECK: %[[W:.+]] = arith.truncf %arg1
// CHECK: scf.for {{.*}} iter_args(%[[ACC:.+]] = %arg0) -> (tensor<16x16xf32>)
// CHECK: %[[A16:.+]] = arith.truncf %[[ACC]] : tensor<16x16xf32> to tensor<16x16xf16>
// CHECK: %[[M:.+]] = linalg.matmul ins(%[[A16]], %[[W]] : tensor<16x16xf16>, tensor<16x16xf16>) outs(%[[ACC]] : tensor<16x16xf32>)
// CHECK: %[[T:.+]] = tosa.tanh %[[M]] : (tensor<16x16xf32>) -> tensor<16x16xf32>
// CHECK: scf.yield %[[T]] : tensor<16x16xf32>
func.func @scf_for(%a: tensor<16x16xf32>, %w: tensor<16x16xf32>, %n: index) -> tensor<16x16xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %a) -> (tensor<16x16xf32>) {
    %m = linalg.matmul ins(%acc, %w : tensor<16x16xf32>, tensor<16x16xf32>) outs(%acc : tensor<16x16xf32>) -> tensor<16x16xf32>
    %t = tosa.tanh %m : (tensor<16x16xf32>) -> tensor<16x16xf32>
    scf.yield %t : tensor<16x16xf32>
  }
  return %r : tensor<16x16xf32>
}

// -----

// Inside a loop, gray ops between two matmuls run low; the loop-carried
// value is cast down once per iteration.
// CHECK-LABEL: func.func @scf_for_low_inside
// CHECK: scf.for
// CHECK: %[[M:.+]] = linalg.matmul
// CHECK: %[[L:.+]] = tosa.cast %[[M]] : (tensor<8x8xf32>) -> tensor<8x8xf16>
// CHECK: %[[T:.+]] = tosa.tanh %[[L]] : (tensor<8x8xf16>) -> tensor<8x8xf16>
// CHECK: %[[M2:.+]] = linalg.matmul ins(%[[T]], %{{.+}} : tensor<8x8xf16>, tensor<8x8xf16>)
// CHECK: scf.yield %[[M2]] : tensor<8x8xf32>
func.func @scf_for_low_inside(%a: tensor<8x8xf32>, %w: tensor<8x8xf32>, %n: index) -> tensor<8x8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %a) -> (tensor<8x8xf32>) {
    %m = linalg.matmul ins(%acc, %w : tensor<8x8xf32>, tensor<8x8xf32>) outs(%acc : tensor<8x8xf32>) -> tensor<8x8xf32>
    %t = tosa.tanh %m : (tensor<8x8xf32>) -> tensor<8x8xf32>
    %m2 = linalg.matmul ins(%t, %w : tensor<8x8xf32>, tensor<8x8xf32>) outs(%acc : tensor<8x8xf32>) -> tensor<8x8xf32>
    scf.yield %m2 : tensor<8x8xf32>
  }
  return %r : tensor<8x8xf32>
}

// -----

// scf.if and scf.while keep their result types.
// CHECK-LABEL: func.func @scf_if_while
// CHECK: %[[M:.+]] = linalg.matmul
// CHECK: scf.if %arg0 -> (tensor<8x8xf32>)
// CHECK: tosa.abs %[[M]] : (tensor<8x8xf32>) -> tensor<8x8xf32>
// CHECK: scf.while (%[[X:.+]] = %{{.+}}) : (tensor<8x8xf32>) -> tensor<8x8xf32>
// CHECK: ^bb0(%[[Y:.+]]: tensor<8x8xf32>):
// CHECK: %[[Y16:.+]] = arith.truncf %[[Y]]
// CHECK: linalg.matmul ins(%[[Y16]]
func.func @scf_if_while(%c: i1, %a: tensor<8x8xf32>, %w: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %m = linalg.matmul ins(%a, %w : tensor<8x8xf32>, tensor<8x8xf32>) outs(%a : tensor<8x8xf32>) -> tensor<8x8xf32>
  %r = scf.if %c -> tensor<8x8xf32> {
    %t = tosa.abs %m : (tensor<8x8xf32>) -> tensor<8x8xf32>
    scf.yield %t : tensor<8x8xf32>
  } else {
    scf.yield %m : tensor<8x8xf32>
  }
  %l = scf.while (%x = %r) : (tensor<8x8xf32>) -> tensor<8x8xf32> {
    %t = arith.constant true
    scf.condition(%t) %x : tensor<8x8xf32>
  } do {
  ^bb0(%y: tensor<8x8xf32>):
    %n = linalg.matmul ins(%y, %w : tensor<8x8xf32>, tensor<8x8xf32>) outs(%y : tensor<8x8xf32>) -> tensor<8x8xf32>
    scf.yield %n : tensor<8x8xf32>
  }
  return %l : tensor<8x8xf32>
}

// -----

// Multi-block functions: block arguments keep their types; a cast of one is
// placed at the start of its block.
// CHECK-LABEL: func.func @multi_block
// CHECK: cf.cond_br %arg0, ^bb1(%{{.+}} : tensor<8x8xf32>), ^bb2
// CHECK: ^bb1(%[[X:.+]]: tensor<8x8xf32>):
// CHECK-NEXT: %[[X16:.+]] = arith.truncf %[[X]]
// CHECK: linalg.matmul ins(%[[X16]]
func.func @multi_block(%c: i1, %a: tensor<8x8xf32>, %w: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %m = linalg.matmul ins(%a, %w : tensor<8x8xf32>, tensor<8x8xf32>) outs(%a : tensor<8x8xf32>) -> tensor<8x8xf32>
  cf.cond_br %c, ^bb1(%m : tensor<8x8xf32>), ^bb2
^bb1(%x: tensor<8x8xf32>):
  %n = linalg.matmul ins(%x, %w : tensor<8x8xf32>, tensor<8x8xf32>) outs(%x : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %n : tensor<8x8xf32>
^bb2:
  return %m : tensor<8x8xf32>
}

// -----

// Calls keep their callee's signature.
// CHECK-LABEL: func.func private @callee(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32>
// CHECK-LABEL: func.func @caller
// CHECK: %[[M:.+]] = linalg.matmul
// CHECK: call @callee(%[[M]]) : (tensor<8x8xf32>) -> tensor<8x8xf32>
func.func private @callee(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %m = linalg.matmul ins(%x, %x : tensor<8x8xf32>, tensor<8x8xf32>) outs(%x : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %m : tensor<8x8xf32>
}
func.func @caller(%a: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %m = linalg.matmul ins(%a, %a : tensor<8x8xf32>, tensor<8x8xf32>) outs(%a : tensor<8x8xf32>) -> tensor<8x8xf32>
  %r = func.call @callee(%m) : (tensor<8x8xf32>) -> tensor<8x8xf32>
  return %r : tensor<8x8xf32>
}

// -----

// Dynamic shapes: casts and new empty tensors keep the dynamic sizes.
// CHECK-LABEL: func.func @dynamic_shapes
// CHECK: %[[M:.+]] = linalg.matmul ins(%{{.+}}, %{{.+}} : tensor<?x?xf16>, tensor<?x?xf16>) outs(%arg2 : tensor<?x?xf32>)
// CHECK: %[[L:.+]] = arith.truncf %[[M]] : tensor<?x?xf32> to tensor<?x?xf16>
// CHECK: %[[D0:.+]] = tensor.dim %[[M]]
// CHECK: %[[D1:.+]] = tensor.dim %[[M]]
// CHECK: %[[E:.+]] = tensor.empty(%[[D0]], %[[D1]]) : tensor<?x?xf16>
// CHECK: linalg.generic {{.*}} ins(%[[L]] : tensor<?x?xf16>) outs(%[[E]] : tensor<?x?xf16>)
func.func @dynamic_shapes(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>, %c: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %m = linalg.matmul ins(%a, %b : tensor<?x?xf32>, tensor<?x?xf32>) outs(%c : tensor<?x?xf32>) -> tensor<?x?xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %d0 = tensor.dim %m, %c0 : tensor<?x?xf32>
  %d1 = tensor.dim %m, %c1 : tensor<?x?xf32>
  %e = tensor.empty(%d0, %d1) : tensor<?x?xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%m : tensor<?x?xf32>) outs(%e : tensor<?x?xf32>) {
  ^bb0(%x: f32, %o: f32):
    %n = arith.negf %x : f32
    linalg.yield %n : f32
  } -> tensor<?x?xf32>
  %r2 = linalg.matmul ins(%r, %b : tensor<?x?xf32>, tensor<?x?xf32>) outs(%c : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %r2 : tensor<?x?xf32>
}

// -----

// Ints, f64, values already in 16 bits and memrefs are untouched.
// CHECK-LABEL: func.func @negative_untouched
// CHECK-NOT: arith.truncf
// CHECK-NOT: arith.extf
// CHECK: linalg.matmul ins(%arg0, %arg0 : tensor<8x8xf64>, tensor<8x8xf64>)
// CHECK: linalg.matmul ins(%arg1, %arg1 : tensor<8x8xf16>, tensor<8x8xf16>)
// CHECK: linalg.matmul ins(%arg2, %arg2 : tensor<8x8xi32>, tensor<8x8xi32>)
// CHECK: linalg.matmul ins(%arg3, %arg3 : memref<8x8xf32>, memref<8x8xf32>)
func.func @negative_untouched(%a: tensor<8x8xf64>, %b: tensor<8x8xf16>, %i: tensor<8x8xi32>, %m: memref<8x8xf32>) -> (tensor<8x8xf64>, tensor<8x8xf16>, tensor<8x8xi32>) {
  %0 = linalg.matmul ins(%a, %a : tensor<8x8xf64>, tensor<8x8xf64>) outs(%a : tensor<8x8xf64>) -> tensor<8x8xf64>
  %1 = linalg.matmul ins(%b, %b : tensor<8x8xf16>, tensor<8x8xf16>) outs(%b : tensor<8x8xf16>) -> tensor<8x8xf16>
  %2 = linalg.matmul ins(%i, %i : tensor<8x8xi32>, tensor<8x8xi32>) outs(%i : tensor<8x8xi32>) -> tensor<8x8xi32>
  linalg.matmul ins(%m, %m : memref<8x8xf32>, memref<8x8xf32>) outs(%m : memref<8x8xf32>)
  return %0, %1, %2 : tensor<8x8xf64>, tensor<8x8xf16>, tensor<8x8xi32>
}

// -----

// A cast whose users are all in one branch of an scf.if is made in that
// branch: the other branch casts nothing. The loop above keeps its weight
// cast outside (a loop body runs many times).
// CHECK-LABEL: func.func @cast_in_branch
// CHECK: %[[E:.+]] = linalg.exp
// CHECK-NOT: arith.truncf
// CHECK: scf.if
// CHECK-NEXT: %[[X16:.+]] = arith.truncf %[[E]] : tensor<16x16xf32> to tensor<16x16xf16>
// CHECK-NEXT: %[[B16:.+]] = arith.truncf %arg2 : tensor<16x16xf32> to tensor<16x16xf16>
// CHECK-NEXT: linalg.matmul ins(%[[X16]], %[[B16]] :
// CHECK: } else {
// CHECK-NOT: arith.truncf
// CHECK: scf.yield %arg1
func.func @cast_in_branch(%c: i1, %a: tensor<16x16xf32>, %b: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %e = tensor.empty() : tensor<16x16xf32>
  %x = linalg.exp ins(%a : tensor<16x16xf32>) outs(%e : tensor<16x16xf32>) -> tensor<16x16xf32>
  %r = scf.if %c -> tensor<16x16xf32> {
    %m = linalg.matmul ins(%x, %b : tensor<16x16xf32>, tensor<16x16xf32>) outs(%e : tensor<16x16xf32>) -> tensor<16x16xf32>
    scf.yield %m : tensor<16x16xf32>
  } else {
    scf.yield %a : tensor<16x16xf32>
  }
  return %r : tensor<16x16xf32>
}

// -----

// Used in both branches: one cast before the scf.if, shared. Used in an
// inner branch only: the cast goes all the way in.
// CHECK-LABEL: func.func @cast_shared_and_nested
// CHECK: %[[B16:.+]] = arith.truncf %arg3
// CHECK: scf.if %arg0
// CHECK-NOT: arith.truncf
// CHECK: scf.if %arg1
// CHECK-NEXT: %[[X16:.+]] = arith.truncf %{{.+}} : tensor<16x16xf32> to tensor<16x16xf16>
// CHECK-NEXT: linalg.matmul ins(%[[X16]], %[[B16]] :
// CHECK: } else {
// CHECK: linalg.matmul ins(%{{.+}}, %[[B16]] :
func.func @cast_shared_and_nested(%c: i1, %d: i1, %a: tensor<16x16xf32>, %b: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %e = tensor.empty() : tensor<16x16xf32>
  %x = linalg.exp ins(%a : tensor<16x16xf32>) outs(%e : tensor<16x16xf32>) -> tensor<16x16xf32>
  %r = scf.if %c -> tensor<16x16xf32> {
    %s = scf.if %d -> tensor<16x16xf32> {
      %m = linalg.matmul ins(%x, %b : tensor<16x16xf32>, tensor<16x16xf32>) outs(%e : tensor<16x16xf32>) -> tensor<16x16xf32>
      scf.yield %m : tensor<16x16xf32>
    } else {
      scf.yield %a : tensor<16x16xf32>
    }
    scf.yield %s : tensor<16x16xf32>
  } else {
    %m = linalg.matmul ins(%a, %b : tensor<16x16xf32>, tensor<16x16xf32>) outs(%e : tensor<16x16xf32>) -> tensor<16x16xf32>
    scf.yield %m : tensor<16x16xf32>
  }
  return %r : tensor<16x16xf32>
}
