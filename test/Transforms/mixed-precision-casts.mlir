// RUN: amp-opt %s --amp-mixed-precision=gray-strategy=fewest-casts --split-input-file | FileCheck %s

// One cast per value and type, shared by every consumer.
// CHECK-LABEL: func.func @one_cast_per_value
// CHECK-COUNT-1: arith.truncf %arg0
// CHECK-NOT: arith.truncf %arg0
func.func @one_cast_per_value(%a: tensor<8x8xf32>, %b: tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>) {
  %0 = linalg.matmul ins(%a, %b : tensor<8x8xf32>, tensor<8x8xf32>) outs(%b : tensor<8x8xf32>) -> tensor<8x8xf32>
  %1 = linalg.matmul ins(%a, %a : tensor<8x8xf32>, tensor<8x8xf32>) outs(%b : tensor<8x8xf32>) -> tensor<8x8xf32>
  %2 = linalg.matmul ins(%b, %a : tensor<8x8xf32>, tensor<8x8xf32>) outs(%b : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %0, %1, %2 : tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>
}

// -----

// Never a round trip: a consumer in FP32 reads the FP32 accumulator, not an
// f16 copy cast back up; a consumer in f16 of an FP32 view of an f16 value
// reads the f16 value.
// CHECK-LABEL: func.func @no_round_trips
// CHECK: %[[M:.+]] = linalg.matmul
// CHECK: %[[L:.+]] = arith.truncf %[[M]]
// CHECK: %[[T:.+]] = linalg.generic {{.*}} ins(%[[L]] : tensor<8x8xf16>)
// CHECK: %[[UP:.+]] = arith.extf %[[T]] : tensor<8x8xf16> to tensor<8x8xf32>
// CHECK: linalg.exp ins(%[[M]] : tensor<8x8xf32>)
// CHECK: linalg.exp ins(%[[UP]] : tensor<8x8xf32>)
// CHECK: linalg.matmul ins(%[[T]], %[[T]] : tensor<8x8xf16>, tensor<8x8xf16>)
// CHECK-NOT: arith.truncf
// CHECK-NOT: arith.extf
#map = affine_map<(d0, d1) -> (d0, d1)>
func.func @no_round_trips(%a: tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>) {
  %m = linalg.matmul ins(%a, %a : tensor<8x8xf32>, tensor<8x8xf32>) outs(%a : tensor<8x8xf32>) -> tensor<8x8xf32>
  %t = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]}
      ins(%m : tensor<8x8xf32>) outs(%a : tensor<8x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = math.tanh %x : f32
    linalg.yield %y : f32
  } -> tensor<8x8xf32>
  %e = tensor.empty() : tensor<8x8xf32>
  %0 = linalg.exp ins(%m : tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
  %1 = linalg.exp ins(%t : tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
  %2 = linalg.matmul ins(%t, %t : tensor<8x8xf32>, tensor<8x8xf32>) outs(%a : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %0, %1, %2 : tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>
}

// -----

// A widening cast already in the input is exact: a consumer that wants the
// narrow type reads its source, and the widening, left without users, goes.
// A user's own narrowing cast is respected.
// CHECK-LABEL: func.func @existing_casts
// CHECK-SAME: (%[[H:.+]]: tensor<8x8xf16>, %[[F:.+]]: tensor<8x8xf32>)
// CHECK-NOT: arith.extf
// CHECK: %[[N:.+]] = arith.truncf %[[F]]
// CHECK-NOT: arith.extf
// CHECK: linalg.matmul ins(%[[H]], %[[N]] : tensor<8x8xf16>, tensor<8x8xf16>)
func.func @existing_casts(%h: tensor<8x8xf16>, %f: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %w = arith.extf %h : tensor<8x8xf16> to tensor<8x8xf32>
  %n = arith.truncf %f : tensor<8x8xf32> to tensor<8x8xf16>
  %nw = arith.extf %n : tensor<8x8xf16> to tensor<8x8xf32>
  %0 = linalg.matmul ins(%w, %nw : tensor<8x8xf32>, tensor<8x8xf32>) outs(%f : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

// The function's own round trip (truncf then extf) feeding converted ops:
// they read the f16 value directly, and the extf left without users is
// erased, not left dead.
// CHECK-LABEL: func.func @own_round_trip_not_left_dead
// CHECK: %[[W16:.+]] = arith.truncf %cst : tensor<16x16xf32> to tensor<16x16xf16>
// CHECK-NOT: arith.extf
// CHECK: linalg.matmul ins(%{{.+}}, %[[W16]] :
// CHECK-NOT: arith.extf
// CHECK: return
func.func @own_round_trip_not_left_dead(%x: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %w = arith.constant dense<0.5> : tensor<16x16xf32>
  %e = tensor.empty() : tensor<16x16xf32>
  %w16 = arith.truncf %w : tensor<16x16xf32> to tensor<16x16xf16>
  %w32 = arith.extf %w16 : tensor<16x16xf16> to tensor<16x16xf32>
  %m = linalg.matmul ins(%x, %w32 : tensor<16x16xf32>, tensor<16x16xf32>) outs(%e : tensor<16x16xf32>) -> tensor<16x16xf32>
  return %m : tensor<16x16xf32>
}
