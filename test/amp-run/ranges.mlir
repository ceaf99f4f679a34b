// Numerics of the decisions that value ranges make (see
// test/Transforms/mixed-precision-ranges.mlir for the decisions): each model
// runs in FP32 and converted, on the same inputs, and the converted outputs
// must stay within 1% (relative L2) of FP32. Before ranges were analyzed,
// each of these gave inf, a wrong table or a wrong maximum.

// 1. A position generator reaching 126000 feeding a matmul: inf in f16. In
//    bf16 (overflow-type) it fits.
// RUN: amp-run %s --entry=position_matmul --runs 1 --check=rel_l2=1e-2,nonfinite=0
// RUN: amp-run %s --entry=position_matmul --runs 1 --check=rel_l2=1e-2,nonfinite=0 \
// RUN:   --pipeline='amp-mixed-precision{gray-strategy=follow}'
// RUN: amp-run %s --entry=position_matmul --runs 1 --check=rel_l2=1e-2,nonfinite=0 \
// RUN:   --pipeline='amp-mixed-precision{overflow-type=bf16}'
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @position_matmul(%w: tensor<64x8xf32>) -> tensor<4x8xf32> {
  %empty = tensor.empty() : tensor<4x64xf32>
  %scale = arith.constant 2000.0 : f32
  %pos = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]}
      outs(%empty : tensor<4x64xf32>) {
  ^bb0(%out: f32):
    %i = linalg.index 1 : index
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    %p = arith.mulf %f, %scale : f32
    linalg.yield %p : f32
  } -> tensor<4x64xf32>
  %zero = arith.constant 0.0 : f32
  %e2 = tensor.empty() : tensor<4x8xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e2 : tensor<4x8xf32>) -> tensor<4x8xf32>
  %m = linalg.matmul ins(%pos, %w : tensor<4x64xf32>, tensor<64x8xf32>)
                     outs(%init : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %m : tensor<4x8xf32>
}

// 2. A RoPE-style table over 4096 positions: positions above 2048 are not
//    exact in f16, and the angles move by radians.
// RUN: amp-run %s --entry=rope --runs 1 --check=rel_l2=1e-2
// RUN: amp-run %s --entry=rope --runs 1 --check=rel_l2=1e-2 \
// RUN:   --pipeline='amp-mixed-precision{gray-strategy=follow}'
// RUN: amp-run %s --entry=rope --runs 1 --check=rel_l2=1e-2 \
// RUN:   --pipeline='amp-mixed-precision{target-type=bf16 gray-strategy=follow}'
#row = affine_map<(d0, d1) -> (d1)>
func.func @rope(%q: tensor<4096x4xf32>) -> tensor<4096x4xf32> {
  %inv_freq = arith.constant dense<[1.0, 0.1, 0.01, 0.001]> : tensor<4xf32>
  %empty = tensor.empty() : tensor<4096x4xf32>
  %angles = linalg.generic {indexing_maps = [#row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%inv_freq : tensor<4xf32>) outs(%empty : tensor<4096x4xf32>) {
  ^bb0(%freq: f32, %out: f32):
    %i = linalg.index 0 : index
    %ii = arith.index_cast %i : index to i64
    %pos = arith.sitofp %ii : i64 to f32
    %a = arith.mulf %pos, %freq : f32
    linalg.yield %a : f32
  } -> tensor<4096x4xf32>
  %cos = math.cos %angles : tensor<4096x4xf32>
  %r = arith.mulf %q, %cos : tensor<4096x4xf32>
  return %r : tensor<4096x4xf32>
}

// 3. A max-reduction over values below -65504 whose init (-FLT_MAX) is shared
//    with a reduction in f16: the FP32 reduction must read the FP32 init.
// RUN: amp-run %s --entry=shared_fill --runs 1 --check=rel_l2=1e-2,nonfinite=0
// RUN: amp-run %s --entry=shared_fill --runs 1 --check=rel_l2=1e-2,nonfinite=0 \
// RUN:   --pipeline='amp-mixed-precision{gray-strategy=follow}'
func.func @shared_fill(%x: tensor<4x16xf32>, %a: tensor<4x16xf32>, %b: tensor<16x16xf32>, %c: tensor<1x8xf32>) -> (tensor<4xf32>, tensor<4x8xf32>) {
  // x * 1000 - 100000 lies in [-101000, -99000).
  %k = arith.constant dense<1000.0> : tensor<4x16xf32>
  %o = arith.constant dense<100000.0> : tensor<4x16xf32>
  %xk = arith.mulf %x, %k : tensor<4x16xf32>
  %big = arith.subf %xk, %o : tensor<4x16xf32>
  %lowest = arith.constant -3.40282347E+38 : f32
  %e = tensor.empty() : tensor<4xf32>
  %fill = linalg.fill ins(%lowest : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %r1 = linalg.reduce ins(%big : tensor<4x16xf32>) outs(%fill : tensor<4xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %mx = arith.maximumf %in, %acc : f32
      linalg.yield %mx : f32
    }
  %zero = arith.constant 0.0 : f32
  %e2 = tensor.empty() : tensor<4x16xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e2 : tensor<4x16xf32>) -> tensor<4x16xf32>
  %m = linalg.matmul ins(%a, %b : tensor<4x16xf32>, tensor<16x16xf32>)
                     outs(%init : tensor<4x16xf32>) -> tensor<4x16xf32>
  %r2 = linalg.reduce ins(%m : tensor<4x16xf32>) outs(%fill : tensor<4xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %mx = arith.maximumf %in, %acc : f32
      linalg.yield %mx : f32
    }
  // r2 feeds a matmul, so that it runs in f16 under fewest-casts too.
  %col = tensor.expand_shape %r2 [[0, 1]] output_shape [4, 1] : tensor<4xf32> into tensor<4x1xf32>
  %e3 = tensor.empty() : tensor<4x8xf32>
  %init3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<4x8xf32>) -> tensor<4x8xf32>
  %n = linalg.matmul ins(%col, %c : tensor<4x1xf32>, tensor<1x8xf32>)
                     outs(%init3 : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %r1, %n : tensor<4xf32>, tensor<4x8xf32>
}

// 4. A clamp to +-128000 of values that f16 cannot hold (+-FLT_MAX, which a
//    constant may carry into f16 as +-65504), feeding a matmul: the bounds
//    do not fit f16, so the clamp stays in FP32, and so does the matmul that
//    reads its +-128000.
// RUN: amp-run %s --entry=clamp --runs 1 --check=rel_l2=1e-2,nonfinite=0
// RUN: amp-run %s --entry=clamp --runs 1 --check=rel_l2=1e-2,nonfinite=0 \
// RUN:   --pipeline='amp-mixed-precision{gray-strategy=follow}'
func.func @clamp(%b: tensor<1x4x3xf32>) -> tensor<1x2x3xf32> {
  %c = "tosa.const"() <{values = dense<[[[3.40282347E+38, -3.40282347E+38, 1.0, 2.0], [0.5, -3.40282347E+38, 3.0, 3.40282347E+38]]]> : tensor<1x2x4xf32>}> : () -> tensor<1x2x4xf32>
  %y = tosa.clamp %c {min_val = -128000.0 : f32, max_val = 128000.0 : f32} : (tensor<1x2x4xf32>) -> tensor<1x2x4xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %m = tosa.matmul %y, %b, %zp, %zp : (tensor<1x2x4xf32>, tensor<1x4x3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2x3xf32>
  return %m : tensor<1x2x3xf32>
}
