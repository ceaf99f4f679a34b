// RUN: amp-opt %s --split-input-file --amp-mixed-precision=gray-strategy=follow | FileCheck %s

// Regression test (found by amp-graphgen): the conversion kept pointers to
// the casts it inserted and read them after they were erased. Here a cast
// that becomes a no-op in a retyped payload is folded away (erased), and
// later the cast deduplication read it: a use-after-free (a crash or a
// report under `make check-asan`, silent corruption otherwise).

// CHECK-LABEL: func.func @payload_round_trip
// CHECK: linalg.generic {{.*}} ins(%{{.+}} : tensor<4xf16>) outs(%{{.+}} : tensor<4xf16>)
// CHECK-NEXT: ^bb0(%[[IN:.+]]: f16, %{{.+}}: f16):
// CHECK-NEXT: %[[Y:.+]] = arith.addf %[[IN]], %[[IN]] : f16
// CHECK-NEXT: linalg.yield %[[Y]] : f16
#map = affine_map<(d0) -> (d0)>
func.func @payload_round_trip(%a: tensor<4xf16>) -> tensor<4xf32> {
  %w = arith.extf %a : tensor<4xf16> to tensor<4xf32>
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%w : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %t = arith.truncf %in : f32 to f16
    %x = arith.extf %t : f16 to f32
    %y = arith.addf %x, %x : f32
    linalg.yield %y : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// Two payloads capture the same value: the deduplication replaces the second
// cast of it by the first, and then read the erased one.
// CHECK-LABEL: func.func @captured_twice
// CHECK: linalg.generic {{.*}} ins(%{{.+}} : tensor<4xf16>) outs(%{{.+}} : tensor<4xf16>)
// CHECK: arith.addf %{{.+}}, %[[S:.+]] : f16
// CHECK: linalg.generic {{.*}} ins(%{{.+}} : tensor<4xf16>) outs(%{{.+}} : tensor<4xf16>)
// CHECK: arith.mulf %{{.+}}, %[[S]] : f16
#map = affine_map<(d0) -> (d0)>
func.func @captured_twice(%a: tensor<4xf16>, %h: f16) -> (tensor<4xf32>, tensor<4xf32>) {
  %w = arith.extf %a : tensor<4xf16> to tensor<4xf32>
  %s = arith.extf %h : f16 to f32
  %e = tensor.empty() : tensor<4xf32>
  %r0 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%w : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = arith.addf %in, %s : f32
    linalg.yield %y : f32
  } -> tensor<4xf32>
  %r1 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%w : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = arith.mulf %in, %s : f32
    linalg.yield %y : f32
  } -> tensor<4xf32>
  return %r0, %r1 : tensor<4xf32>, tensor<4xf32>
}
