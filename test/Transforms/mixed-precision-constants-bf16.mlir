// RUN: amp-opt %s --amp-mixed-precision=target-type=bf16 | FileCheck %s

// Values beyond f16's range fit bf16's: folded, no remark.
// CHECK-LABEL: func.func @wide_range_fits_bf16
// CHECK: %[[W:.+]] = arith.constant dense<{{\[}}[9.984000e+04, 1.001870e-12]]> : tensor<1x2xbf16>
// CHECK: linalg.matmul ins(%{{.+}}, %[[W]] : tensor<2x1xbf16>, tensor<1x2xbf16>)
func.func @wide_range_fits_bf16(%a: tensor<2x1xf32>, %c: tensor<2x2xf32>) -> tensor<2x2xf32> {
  %w = arith.constant dense<[[1.0e5, 1.0e-12]]> : tensor<1x2xf32>
  %0 = linalg.matmul ins(%a, %w : tensor<2x1xf32>, tensor<1x2xf32>) outs(%c : tensor<2x2xf32>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}
