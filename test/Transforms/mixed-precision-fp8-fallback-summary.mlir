// RUN: amp-opt %s --amp-mixed-precision=target-type=f8E4M3FN --verify-diagnostics -o /dev/null
// RUN: sed -e "s/expected-remark/remark-expected/" %s | amp-opt "--amp-mixed-precision=target-type=f8E4M3FN remarks=true" -o /dev/null 2>&1 | FileCheck %s --check-prefix=EACH

// Contractions without a scale (no ranges=, arguments of unknown range):
// the first four say so each, the others are counted in one remark on the
// function, so that a model of thousands of contractions gets five remarks,
// not thousands. remarks=true gives one each.
// EACH-COUNT-6: remark: 'linalg.matmul' runs in f16, not f8E4M3FN: operand 0 has no scale
// EACH-NOT: more contraction

// expected-remark@+1 {{2 more contractions run in f16, not in FP8 (2 for want of a scale, which ranges= from amp-run --calibrate gives); remarks=true gives a remark for each}}
func.func @six_without_scales(%a: tensor<16x16xf32>, %w: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16x16xf32>) -> tensor<16x16xf32>
  // expected-remark@+1 {{'linalg.matmul' runs in f16, not f8E4M3FN: operand 0 has no scale}}
  %0 = linalg.matmul ins(%a, %w : tensor<16x16xf32>, tensor<16x16xf32>) outs(%f : tensor<16x16xf32>) -> tensor<16x16xf32>
  // expected-remark@+1 {{'linalg.matmul' runs in f16, not f8E4M3FN: operand 0 has no scale}}
  %1 = linalg.matmul ins(%0, %w : tensor<16x16xf32>, tensor<16x16xf32>) outs(%f : tensor<16x16xf32>) -> tensor<16x16xf32>
  // expected-remark@+1 {{'linalg.matmul' runs in f16, not f8E4M3FN: operand 0 has no scale}}
  %2 = linalg.matmul ins(%1, %w : tensor<16x16xf32>, tensor<16x16xf32>) outs(%f : tensor<16x16xf32>) -> tensor<16x16xf32>
  // expected-remark@+1 {{'linalg.matmul' runs in f16, not f8E4M3FN: operand 0 has no scale}}
  %3 = linalg.matmul ins(%2, %w : tensor<16x16xf32>, tensor<16x16xf32>) outs(%f : tensor<16x16xf32>) -> tensor<16x16xf32>
  %4 = linalg.matmul ins(%3, %w : tensor<16x16xf32>, tensor<16x16xf32>) outs(%f : tensor<16x16xf32>) -> tensor<16x16xf32>
  %5 = linalg.matmul ins(%4, %w : tensor<16x16xf32>, tensor<16x16xf32>) outs(%f : tensor<16x16xf32>) -> tensor<16x16xf32>
  return %5 : tensor<16x16xf32>
}
