// RUN: amp-opt %s --amp-mixed-precision=gray-strategy=fewest-casts --split-input-file | FileCheck %s

// linalg.generic is classified by its payload and iterators, and its payload
// is rewritten consistently with its operands.

#mk = affine_map<(m, n, k) -> (m, k)>
#kn = affine_map<(m, n, k) -> (k, n)>
#mn = affine_map<(m, n, k) -> (m, n)>

// A generic contraction is green: f16 inputs, the payload widens them and
// accumulates in f32 as before.
// CHECK-LABEL: func.func @generic_matmul_green
// CHECK: linalg.generic {{.*}} ins(%{{.+}}, %{{.+}} : tensor<16x32xf16>, tensor<32x8xf16>) outs(%{{.+}} : tensor<16x8xf32>)
// CHECK-NEXT: ^bb0(%[[X:.+]]: f16, %[[Y:.+]]: f16, %[[ACC:.+]]: f32):
// CHECK-DAG: %[[XW:.+]] = arith.extf %[[X]] : f16 to f32
// CHECK-DAG: %[[YW:.+]] = arith.extf %[[Y]] : f16 to f32
// CHECK: %[[P:.+]] = arith.mulf %[[XW]], %[[YW]] : f32
// CHECK: arith.addf %[[ACC]], %[[P]] : f32
func.func @generic_matmul_green(%a: tensor<16x32xf32>, %b: tensor<32x8xf32>, %c: tensor<16x8xf32>) -> tensor<16x8xf32> {
  %0 = linalg.generic {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<16x32xf32>, tensor<32x8xf32>) outs(%c : tensor<16x8xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %m = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<16x8xf32>
  return %0 : tensor<16x8xf32>
}

// -----

#map = affine_map<(d0, d1) -> (d0, d1)>

// An elementwise generic between two matmuls runs in f16: block arguments,
// payload ops, payload constants and captured constants are all retyped,
// and its unread init becomes an f16 empty tensor.
// CHECK-LABEL: func.func @elementwise_between_matmuls
// CHECK: %[[M:.+]] = linalg.matmul
// CHECK: %[[M16:.+]] = arith.truncf %[[M]] : tensor<16x8xf32> to tensor<16x8xf16>
// CHECK-DAG: %[[E:.+]] = tensor.empty() : tensor<16x8xf16>
// CHECK-DAG: %[[HALF:.+]] = arith.constant 5.000000e-01 : f16
// CHECK: %[[G:.+]] = linalg.generic {{.*}} ins(%[[M16]] : tensor<16x8xf16>) outs(%[[E]] : tensor<16x8xf16>)
// CHECK-NEXT: ^bb0(%[[IN:.+]]: f16, %{{.+}}: f16):
// CHECK-NEXT: %[[T:.+]] = math.tanh %[[IN]] : f16
// CHECK-NEXT: %[[MUL:.+]] = arith.mulf %[[T]], %[[HALF]] : f16
// CHECK-NEXT: %[[TWO:.+]] = arith.constant 2.000000e+00 : f16
// CHECK-NEXT: %[[ADD:.+]] = arith.addf %[[MUL]], %[[TWO]] : f16
// CHECK-NEXT: linalg.yield %[[ADD]] : f16
// CHECK: linalg.matmul ins(%[[G]], %{{.+}} : tensor<16x8xf16>, tensor<8x4xf16>)
// CHECK-NOT: arith.constant 5.000000e-01 : f32
func.func @elementwise_between_matmuls(%a: tensor<16x32xf32>, %b: tensor<32x8xf32>, %c: tensor<16x8xf32>, %d: tensor<8x4xf32>, %e: tensor<16x4xf32>) -> tensor<16x4xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<16x32xf32>, tensor<32x8xf32>) outs(%c : tensor<16x8xf32>) -> tensor<16x8xf32>
  %half = arith.constant 0.5 : f32
  %1 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]}
      ins(%0 : tensor<16x8xf32>) outs(%c : tensor<16x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %t = math.tanh %x : f32
    %m = arith.mulf %t, %half : f32
    %two = arith.constant 2.0 : f32
    %r = arith.addf %m, %two : f32
    linalg.yield %r : f32
  } -> tensor<16x8xf32>
  %2 = linalg.matmul ins(%1, %d : tensor<16x8xf32>, tensor<8x4xf32>) outs(%e : tensor<16x4xf32>) -> tensor<16x4xf32>
  return %2 : tensor<16x4xf32>
}

// -----

#map = affine_map<(d0, d1) -> (d0, d1)>

// A payload with red math (exp) keeps the generic in FP32, and a low input
// is cast up once.
// CHECK-LABEL: func.func @negative_exp_payload_stays_f32
// CHECK: %[[M:.+]] = linalg.matmul
// CHECK: linalg.generic {{.*}} ins(%[[M]] : tensor<8x8xf32>) outs(%{{.+}} : tensor<8x8xf32>)
// CHECK: math.exp %{{.+}} : f32
func.func @negative_exp_payload_stays_f32(%a: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %m = linalg.matmul ins(%a, %a : tensor<8x8xf32>, tensor<8x8xf32>) outs(%a : tensor<8x8xf32>) -> tensor<8x8xf32>
  %0 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]}
      ins(%m : tensor<8x8xf32>) outs(%a : tensor<8x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %e = math.exp %x : f32
    linalg.yield %e : f32
  } -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

#map = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>

// Additive reductions (sum, mean) are red; max reductions are gray. Here the
// max runs in f16 after the matmul (its -FLT_MAX init maps to f16's lowest
// finite value), the sum reads the FP32 accumulator directly.
// CHECK-LABEL: func.func @reductions
// CHECK: %[[M:.+]] = linalg.matmul
// CHECK: %[[M16:.+]] = arith.truncf %[[M]]
// CHECK: %[[LOWEST:.+]] = arith.constant -6.550400e+04 : f16
// CHECK: %[[INIT:.+]] = linalg.fill ins(%[[LOWEST]] : f16) outs(%{{.+}} : tensor<16xf16>)
// CHECK: %[[MAX:.+]] = linalg.generic {{.*}} ins(%[[M16]] : tensor<16x8xf16>) outs(%[[INIT]] : tensor<16xf16>)
// CHECK: arith.maximumf %{{.+}}, %{{.+}} : f16
// CHECK: %[[SUM:.+]] = linalg.generic {{.*}} ins(%[[M]] : tensor<16x8xf32>) outs(%{{.+}} : tensor<16xf32>)
// CHECK: arith.addf %{{.+}}, %{{.+}} : f32
func.func @reductions(%a: tensor<16x32xf32>, %b: tensor<32x8xf32>, %c: tensor<16x8xf32>, %init: tensor<16xf32>, %w: tensor<16x16xf32>) -> (tensor<16x16xf32>, tensor<16xf32>) {
  %0 = linalg.matmul ins(%a, %b : tensor<16x32xf32>, tensor<32x8xf32>) outs(%c : tensor<16x8xf32>) -> tensor<16x8xf32>
  %lowest = arith.constant -3.40282347E+38 : f32
  %f = linalg.fill ins(%lowest : f32) outs(%init : tensor<16xf32>) -> tensor<16xf32>
  %max = linalg.generic {indexing_maps = [#map, #row], iterator_types = ["parallel", "reduction"]}
      ins(%0 : tensor<16x8xf32>) outs(%f : tensor<16xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.maximumf %x, %acc : f32
    linalg.yield %s : f32
  } -> tensor<16xf32>
  %sum = linalg.generic {indexing_maps = [#map, #row], iterator_types = ["parallel", "reduction"]}
      ins(%0 : tensor<16x8xf32>) outs(%init : tensor<16xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.addf %x, %acc : f32
    linalg.yield %s : f32
  } -> tensor<16xf32>
  %e = tensor.empty() : tensor<16x16xf32>
  %bc = linalg.broadcast ins(%max : tensor<16xf32>) outs(%e : tensor<16x16xf32>) dimensions = [1]
  %r = linalg.matmul ins(%bc, %w : tensor<16x16xf32>, tensor<16x16xf32>) outs(%e : tensor<16x16xf32>) -> tensor<16x16xf32>
  return %r, %sum : tensor<16x16xf32>, tensor<16xf32>
}

// -----

#map = affine_map<(d0, d1) -> (d0, d1)>

// x * x is pow(x, 2): red.
// CHECK-LABEL: func.func @negative_square_is_red
// CHECK: linalg.generic {{.*}} ins(%{{.+}} : tensor<8x8xf32>) outs(%{{.+}} : tensor<8x8xf32>)
// CHECK: arith.mulf %{{.+}}, %{{.+}} : f32
func.func @negative_square_is_red(%a: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %m = linalg.matmul ins(%a, %a : tensor<8x8xf32>, tensor<8x8xf32>) outs(%a : tensor<8x8xf32>) -> tensor<8x8xf32>
  %0 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]}
      ins(%m : tensor<8x8xf32>) outs(%a : tensor<8x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %e = arith.mulf %x, %x : f32
    linalg.yield %e : f32
  } -> tensor<8x8xf32>
  %1 = linalg.matmul ins(%0, %a : tensor<8x8xf32>, tensor<8x8xf32>) outs(%a : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}

// -----

#map = affine_map<(d0, d1) -> (d0, d1)>

// A generic whose init is read by the payload (accumulating into the output)
// takes the init as a data operand.
// CHECK-LABEL: func.func @init_read_by_payload
// CHECK: %[[M:.+]] = linalg.matmul
// CHECK: %[[M16:.+]] = arith.truncf %[[M]]
// CHECK: %[[G:.+]] = linalg.generic {{.*}} ins(%[[M16]] : tensor<8x8xf16>) outs(%[[M16]] : tensor<8x8xf16>)
// CHECK: arith.subf %{{.+}}, %{{.+}} : f16
// CHECK: linalg.matmul ins(%[[G]]
func.func @init_read_by_payload(%a: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %m = linalg.matmul ins(%a, %a : tensor<8x8xf32>, tensor<8x8xf32>) outs(%a : tensor<8x8xf32>) -> tensor<8x8xf32>
  %0 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]}
      ins(%m : tensor<8x8xf32>) outs(%m : tensor<8x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %d = arith.subf %o, %x : f32
    linalg.yield %d : f32
  } -> tensor<8x8xf32>
  %1 = linalg.matmul ins(%0, %a : tensor<8x8xf32>, tensor<8x8xf32>) outs(%a : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}
