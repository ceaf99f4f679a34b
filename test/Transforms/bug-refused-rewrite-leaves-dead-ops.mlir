// RUN: amp-opt %s --amp-mixed-precision=gray-strategy=follow --verify-diagnostics | FileCheck %s
// RUN: amp-opt %s --amp-mixed-precision=gray-strategy=follow 2>/dev/null \
// RUN:   | amp-opt --amp-mixed-precision=gray-strategy=follow 2>/dev/null | FileCheck %s

// Regression test (found by amp-graphgen: "a second run changed the IR"):
// when the verifier refused a model's rewrite, the op was restored but what
// the model had inserted around it (here an f16 tensor.empty for the unread
// init) stayed behind, one more on every run. A refused rewrite now leaves
// the IR exactly as it was.

// CHECK-LABEL: func.func @refused
// CHECK-NOT: tensor.empty
// CHECK: linalg.generic {{.*}} ins(%{{.+}} : tensor<4xf32>) outs(%{{.+}} : tensor<4xf32>)
// CHECK-NOT: tensor.empty
#map = affine_map<(d0) -> (d0)>
func.func @refused(%a: tensor<4xf16>, %init: tensor<4xf32>) -> tensor<4xf32> {
  %w = arith.extf %a : tensor<4xf16> to tensor<4xf32>
  // The payload casts to bf16, which an f16 payload cannot do (truncf needs
  // a narrower type): the rewrite is refused.
  // expected-remark@+1 {{'linalg.generic' stays in FP32: it could not be rebuilt in 'f16' ('arith.truncf' op operand type 'f16' and result type 'bf16' are cast incompatible)}}
  %r = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%w : tensor<4xf32>) outs(%init : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %t = arith.truncf %in : f32 to bf16
    %x = arith.extf %t : bf16 to f32
    linalg.yield %x : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}
