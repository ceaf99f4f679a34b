// RUN: amp-opt %s --amp-mixed-precision="gray-strategy=fewest-casts remarks=true" --verify-diagnostics -o /dev/null

func.func @f(%x: tensor<16x16xf32>, %w: tensor<16x16xf32>) -> tensor<16x16xf32> {
  // expected-remark@+1 {{amp: green (default list), inputs 'f16', accumulate 'f32', output 'f16'}}
  %0 = linalg.matmul ins(%x, %w : tensor<16x16xf32>, tensor<16x16xf32>) outs(%x : tensor<16x16xf32>) -> tensor<16x16xf32>
  // expected-remark@+1 {{amp: gray (follows inputs), inputs 'f16'}}
  %1 = tosa.tanh %0 : (tensor<16x16xf32>) -> tensor<16x16xf32>
  // expected-remark@+1 {{amp: red (default list), stays in FP32}}
  %2 = tosa.exp %1 : (tensor<16x16xf32>) -> tensor<16x16xf32>
  // expected-remark@+1 {{amp: gray (follows inputs), stays in FP32}}
  %3 = tosa.abs %2 : (tensor<16x16xf32>) -> tensor<16x16xf32>
  // expected-remark@+1 {{amp: green (default list), inputs 'f16', accumulate 'f32', output 'f16'}}
  %4 = linalg.matmul ins(%1, %3 : tensor<16x16xf32>, tensor<16x16xf32>) outs(%x : tensor<16x16xf32>) -> tensor<16x16xf32>
  return %4 : tensor<16x16xf32>
}
