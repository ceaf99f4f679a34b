// The f16 and bf16 code amp-run compiles computes what a hand computation
// says: every expected error below is exact.

// 1. A matmul whose constant operands round in the target type.
//    a = [1 + 2^-11, 1 + 2^-12], b = [1, 1]^T
//    FP32: a . b = 2 + 2^-11 + 2^-12 = 2.000732421875
//    f16 (10 mantissa bits) and bf16 (7): both entries of a round to 1.0,
//    so a . b = 2.0 and the error is 2^-11 + 2^-12 = 7.32421875e-4.
// RUN: amp-run %s --entry=matmul --json --runs 1 \
// RUN:   | FileCheck %s --check-prefix=MATMUL
// RUN: amp-run %s --entry=matmul --json --runs 1 \
// RUN:   --pipeline='amp-mixed-precision{target-type=bf16}' \
// RUN:   | FileCheck %s --check-prefix=MATMUL
// MATMUL: "overall": {
// MATMUL: "max_abs_err": 0.000732421875,

func.func @matmul(%unused: tensor<1xf32>) -> tensor<1x1xf32> {
  %a = arith.constant dense<[[1.00048828125, 1.000244140625]]> : tensor<1x2xf32>
  %b = arith.constant dense<[[1.0], [1.0]]> : tensor<2x1xf32>
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<1x1xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<1x1xf32>) -> tensor<1x1xf32>
  %c = linalg.matmul ins(%a, %b : tensor<1x2xf32>, tensor<2x1xf32>)
                     outs(%init : tensor<1x1xf32>) -> tensor<1x1xf32>
  return %c : tensor<1x1xf32>
}

// 2. An addition between two matmuls runs in the target type (a gray op
//    whose input is low and whose result feeds a green op):
//    x = [2048, 1024], y = x + 1, z = y . I.
//    FP32: [2049, 1025].
//    f16: the spacing is 2 at 2048 (2049 ties to even: 2048) and 1 at 1024
//    (1025 is exact): errors [1, 0].
//    bf16: the spacing is 16 at 2048 and 8 at 1024: [2048, 1024], errors
//    [1, 1].
// RUN: amp-run %s --entry=add --json --runs 1 \
// RUN:   | FileCheck %s --check-prefix=ADD-F16
// RUN: amp-run %s --entry=add --json --runs 1 \
// RUN:   --pipeline='amp-mixed-precision{target-type=bf16}' \
// RUN:   | FileCheck %s --check-prefix=ADD-BF16
// ||(t - r)|| / ||r||: f16 1 / sqrt(2049^2 + 1025^2), bf16 sqrt(2) / same.
// ADD-F16: "overall": {
// ADD-F16: "max_abs_err": 1,
// ADD-F16: "rel_l2_err": 0.000436476
// ADD-BF16: "overall": {
// ADD-BF16: "max_abs_err": 1,
// ADD-BF16: "rel_l2_err": 0.000617270

func.func @add(%unused: tensor<1xf32>) -> tensor<1x2xf32> {
  %a = arith.constant dense<[[2048.0], [1024.0]]> : tensor<2x1xf32>
  %b = arith.constant dense<[[1.0]]> : tensor<1x1xf32>
  %one = arith.constant dense<1.0> : tensor<1x2xf32>
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<1x2xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<1x2xf32>) -> tensor<1x2xf32>
  %bt = tensor.collapse_shape %b [[0, 1]] : tensor<1x1xf32> into tensor<1xf32>
  %at = linalg.transpose ins(%a : tensor<2x1xf32>) outs(%empty : tensor<1x2xf32>) permutation = [1, 0]
  %x = linalg.matmul ins(%b, %at : tensor<1x1xf32>, tensor<1x2xf32>)
                     outs(%init : tensor<1x2xf32>) -> tensor<1x2xf32>
  %y = arith.addf %x, %one : tensor<1x2xf32>
  %identity = arith.constant dense<[[1.0, 0.0], [0.0, 1.0]]> : tensor<2x2xf32>
  %z = linalg.matmul ins(%y, %identity : tensor<1x2xf32>, tensor<2x2xf32>)
                     outs(%init : tensor<1x2xf32>) -> tensor<1x2xf32>
  return %z : tensor<1x2xf32>
}
