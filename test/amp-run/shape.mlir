// Dynamic dimensions of arguments take their size from --shape; results may
// keep dynamic dimensions (their sizes are read at run time).

// RUN: amp-run %s --shape=0:3x16 --runs 1 | FileCheck %s
// CHECK: result0 3x8 f32

func.func @dynamic(%a: tensor<?x16xf32>, %b: tensor<16x8xf32>) -> tensor<?x8xf32> {
  %c0 = arith.constant 0 : index
  %rows = tensor.dim %a, %c0 : tensor<?x16xf32>
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty(%rows) : tensor<?x8xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<?x8xf32>) -> tensor<?x8xf32>
  %c = linalg.matmul ins(%a, %b : tensor<?x16xf32>, tensor<16x8xf32>)
                     outs(%init : tensor<?x8xf32>) -> tensor<?x8xf32>
  return %c : tensor<?x8xf32>
}
