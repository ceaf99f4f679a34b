// --amp-cpu-decode-fp8: the FP8 inputs of a contraction are decoded to f32
// once, before it, in the layout the output walks (B, K-major, becomes
// K x N); the payload reads f32. An elementwise op is left alone.
// RUN: amp-opt %s --amp-cpu-decode-fp8 | FileCheck %s

#mk = affine_map<(m, n, k) -> (m, k)>
#nk = affine_map<(m, n, k) -> (n, k)>
#mn = affine_map<(m, n, k) -> (m, n)>
#id = affine_map<(d0, d1) -> (d0, d1)>

// CHECK-DAG: #[[$ID:.+]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[$T:.+]] = affine_map<(d0, d1) -> (d1, d0)>
// CHECK-DAG: #[[$MK:.+]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG: #[[$KN:.+]] = affine_map<(d0, d1, d2) -> (d2, d1)>
// CHECK-DAG: #[[$MN:.+]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func.func @matmul(
// CHECK-SAME: %[[A:[^:]+]]: tensor<4x8xf8E4M3FN>, %[[B:[^:]+]]: tensor<2x8xf8E4M3FN>
// CHECK: %[[A32:.+]] = linalg.generic {indexing_maps = [#[[$ID]], #[[$ID]]], {{.*}} ins(%[[A]] : tensor<4x8xf8E4M3FN>) outs(%{{.+}} : tensor<4x8xf32>)
// CHECK: arith.extf %{{.+}} : f8E4M3FN to f32
// CHECK: %[[B32:.+]] = linalg.generic {indexing_maps = [#[[$T]], #[[$ID]]], {{.*}} ins(%[[B]] : tensor<2x8xf8E4M3FN>) outs(%{{.+}} : tensor<8x2xf32>)
// CHECK: linalg.generic {indexing_maps = [#[[$MK]], #[[$KN]], #[[$MN]]], {{.*}} ins(%[[A32]], %[[B32]] : tensor<4x8xf32>, tensor<8x2xf32>)
// CHECK-NEXT: ^bb0(%[[X:.+]]: f32, %[[Y:.+]]: f32, %{{.+}}: f32):
// CHECK-NEXT: arith.mulf %[[X]], %[[Y]] : f32
func.func @matmul(%a: tensor<4x8xf8E4M3FN>, %b: tensor<2x8xf8E4M3FN>, %c: tensor<4x2xf32>) -> tensor<4x2xf32> {
  %0 = linalg.generic {indexing_maps = [#mk, #nk, #mn], iterator_types = ["parallel", "parallel", "reduction"]}
         ins(%a, %b : tensor<4x8xf8E4M3FN>, tensor<2x8xf8E4M3FN>) outs(%c : tensor<4x2xf32>) {
  ^bb0(%x: f8E4M3FN, %y: f8E4M3FN, %acc: f32):
    %xf = arith.extf %x : f8E4M3FN to f32
    %yf = arith.extf %y : f8E4M3FN to f32
    %p = arith.mulf %xf, %yf : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<4x2xf32>
  return %0 : tensor<4x2xf32>
}

// CHECK-LABEL: func.func @elementwise(
// CHECK-NEXT: linalg.generic {{.*}} ins(%{{.+}} : tensor<4x8xf8E4M3FN>) outs(%{{.+}} : tensor<4x8xf32>)
// CHECK-NEXT: ^bb0(%{{.+}}: f8E4M3FN, %{{.+}}: f32):
func.func @elementwise(%a: tensor<4x8xf8E4M3FN>, %c: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
         ins(%a : tensor<4x8xf8E4M3FN>) outs(%c : tensor<4x8xf32>) {
  ^bb0(%x: f8E4M3FN, %o: f32):
    %xf = arith.extf %x : f8E4M3FN to f32
    linalg.yield %xf : f32
  } -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}
