// RUN: amp-opt %s --amp-mixed-precision=gray-strategy=follow | FileCheck %s

// Regression test (found by amp-graphgen): an empty tensor is a gray op
// without inputs, so it is converted in place, and its FP32 users read it
// through a cast. When those users are then rebuilt with an f16 init of
// their own, the cast dies and was erased, but the converted empty tensor it
// read stayed behind, unused. Cleanup now follows operands: what only dead
// casts used is erased too.

// CHECK-LABEL: func.func @empty_init
// CHECK-COUNT-1: tensor.empty
// CHECK-NOT: tensor.empty
#map = affine_map<(d0) -> (d0)>
func.func @empty_init(%a: tensor<4xf16>) -> tensor<4xf32> {
  %w = arith.extf %a : tensor<4xf16> to tensor<4xf32>
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%w : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = arith.addf %in, %in : f32
    linalg.yield %y : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}
