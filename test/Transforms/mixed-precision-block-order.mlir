// RUN: amp-opt %s --amp-mixed-precision | FileCheck %s

// Blocks need not be in dominance order: here ^bb1, listed first, runs after
// ^bb2, and reads an empty tensor that ^bb2 makes. The conversion reaches the
// matmul before the empty tensor; the f16 empty tensor it reads leaves the
// original unused, which must not be erased before the conversion has
// reached it (dead ops of the function itself are erased at the end).

// CHECK-LABEL: func.func @empty_in_later_block
// CHECK: ^bb1:
// CHECK: linalg.matmul ins(%[[E:[a-z0-9_]+]], %{{.+}} : tensor<4x4xf16>, tensor<4x4xf16>)
// CHECK: ^bb2:
// CHECK-NEXT: %[[E]] = tensor.empty() : tensor<4x4xf16>
// CHECK-NEXT: cf.br ^bb1
func.func @empty_in_later_block(%b: tensor<4x4xf32>, %c: tensor<4x4xf32>) -> tensor<4x4xf32> {
  cf.br ^bb2
^bb1:
  %r = linalg.matmul ins(%e, %b : tensor<4x4xf32>, tensor<4x4xf32>) outs(%c : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %r : tensor<4x4xf32>
^bb2:
  %e = tensor.empty() : tensor<4x4xf32>
  cf.br ^bb1
}
