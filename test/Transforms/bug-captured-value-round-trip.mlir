// RUN: amp-opt %s --amp-mixed-precision=gray-strategy=follow | FileCheck %s

// Regression test (found by amp-graphgen): a payload that captures an exact
// widening of an f16 value read it back through a new truncf, an
// f16 -> f32 -> f16 round trip, although the pass promises never to make
// one (operands go through the cast cache, which folds it; captured values
// did not). Narrowing an exact widening now gives its source.

// CHECK-LABEL: func.func @captured_widening
// CHECK-SAME: (%{{.+}}: tensor<4xf16>, %[[H:.+]]: f16)
// CHECK-NOT: arith.truncf
// CHECK: linalg.generic {{.*}} ins(%{{.+}} : tensor<4xf16>) outs(%{{.+}} : tensor<4xf16>)
// CHECK: arith.addf %{{.+}}, %[[H]] : f16
// CHECK-NOT: arith.truncf
#map = affine_map<(d0) -> (d0)>
func.func @captured_widening(%a: tensor<4xf16>, %h: f16) -> tensor<4xf32> {
  %w = arith.extf %a : tensor<4xf16> to tensor<4xf32>
  %s = arith.extf %h : f16 to f32
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%w : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = arith.addf %in, %s : f32
    linalg.yield %y : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}
