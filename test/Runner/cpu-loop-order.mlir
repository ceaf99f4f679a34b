// RUN: amp-opt %s --split-input-file --amp-cpu-loop-order | FileCheck %s

// A matmul (i, j, k) becomes (i, k, j): the innermost loop walks rows of B
// and C.
// CHECK-DAG: #[[$A:.+]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-DAG: #[[$B:.+]] = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK-DAG: #[[$C:.+]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-LABEL: func.func @matmul_k_moves_out
// CHECK: linalg.generic
// CHECK-SAME: indexing_maps = [#[[$A]], #[[$B]], #[[$C]]]
// CHECK-SAME: iterator_types = ["parallel", "reduction", "parallel"]
#mk = affine_map<(i, j, k) -> (i, k)>
#kn = affine_map<(i, j, k) -> (k, j)>
#mn = affine_map<(i, j, k) -> (i, j)>
func.func @matmul_k_moves_out(%a: tensor<8x16xf32>, %b: tensor<16x4xf32>,
                              %c: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %0 = linalg.generic {indexing_maps = [#mk, #kn, #mn],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<8x16xf32>, tensor<16x4xf32>) outs(%c : tensor<8x4xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %m = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

// -----

// A matmul with B transposed reads A and B along k: k stays innermost.
// CHECK-LABEL: func.func @matmul_transposed_b_unchanged
// CHECK: iterator_types = ["parallel", "parallel", "reduction"]
#mk = affine_map<(i, j, k) -> (i, k)>
#nk = affine_map<(i, j, k) -> (j, k)>
#mn = affine_map<(i, j, k) -> (i, j)>
func.func @matmul_transposed_b_unchanged(%a: tensor<8x16xf32>, %b: tensor<4x16xf32>,
                                         %c: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %0 = linalg.generic {indexing_maps = [#mk, #nk, #mn],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<8x16xf32>, tensor<4x16xf32>) outs(%c : tensor<8x4xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %m = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

// -----

// A stride-1 convolution (n, f, oh, ow, c, kh, kw): ow and kw both walk two
// operands contiguously (the input through oh + kh, ow + kw); the longer ow
// goes innermost.
// CHECK-LABEL: func.func @conv_ow_innermost
// CHECK: iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction", "reduction", "parallel"]
#in = affine_map<(n, f, oh, ow, c, kh, kw) -> (n, c, oh + kh, ow + kw)>
#w = affine_map<(n, f, oh, ow, c, kh, kw) -> (f, c, kh, kw)>
#out = affine_map<(n, f, oh, ow, c, kh, kw) -> (n, f, oh, ow)>
func.func @conv_ow_innermost(%i: tensor<1x3x10x10xf32>, %w: tensor<8x3x3x3xf32>,
                             %o: tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32> {
  %0 = linalg.generic {indexing_maps = [#in, #w, #out],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel",
                                         "reduction", "reduction", "reduction"]}
      ins(%i, %w : tensor<1x3x10x10xf32>, tensor<8x3x3x3xf32>) outs(%o : tensor<1x8x8x8xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %m = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x8x8x8xf32>
  return %0 : tensor<1x8x8x8xf32>
}

// -----

// A row sum: i walks the output, j the input; j is longer and stays
// innermost.
// CHECK-LABEL: func.func @row_sum_unchanged
// CHECK: iterator_types = ["parallel", "reduction"]
func.func @row_sum_unchanged(%a: tensor<8x16xf32>, %c: tensor<8xf32>) -> tensor<8xf32> {
  %0 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>,
                                        affine_map<(i, j) -> (i)>],
                       iterator_types = ["parallel", "reduction"]}
      ins(%a : tensor<8x16xf32>) outs(%c : tensor<8xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.addf %acc, %x : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
