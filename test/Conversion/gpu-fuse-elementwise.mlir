// RUN: amp-opt %s --amp-gpu-fuse-elementwise | FileCheck %s

#id = affine_map<(d0, d1) -> (d0, d1)>

// The elementwise chain (including the cast) becomes one op; the cast does
// not fuse into the matmul, which keeps its f16 operands.
// CHECK-LABEL: func.func @fuse_but_keep_matmul
// CHECK:         %[[H:.+]] = linalg.generic {{.*}} ins(%{{.*}} : tensor<64x64xf32>) outs(%{{.*}} : tensor<64x64xf16>)
// CHECK:           arith.addf
// CHECK:           arith.mulf
// CHECK:           arith.truncf
// CHECK-NOT:     linalg.generic
// CHECK:         linalg.matmul ins(%[[H]], %{{.*}} : tensor<64x64xf16>, tensor<64x64xf16>)
func.func @fuse_but_keep_matmul(%x: tensor<64x64xf32>, %w: tensor<64x64xf16>,
                                %acc: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %e = tensor.empty() : tensor<64x64xf32>
  %e16 = tensor.empty() : tensor<64x64xf16>
  %0 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
         ins(%x : tensor<64x64xf32>) outs(%e : tensor<64x64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %in : f32
    linalg.yield %s : f32
  } -> tensor<64x64xf32>
  %1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
         ins(%0 : tensor<64x64xf32>) outs(%e : tensor<64x64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.mulf %in, %in : f32
    linalg.yield %m : f32
  } -> tensor<64x64xf32>
  %2 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
         ins(%1 : tensor<64x64xf32>) outs(%e16 : tensor<64x64xf16>) {
  ^bb0(%in: f32, %out: f16):
    %t = arith.truncf %in : f32 to f16
    linalg.yield %t : f16
  } -> tensor<64x64xf16>
  %3 = linalg.matmul ins(%2, %w : tensor<64x64xf16>, tensor<64x64xf16>)
                     outs(%acc : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %3 : tensor<64x64xf32>
}
