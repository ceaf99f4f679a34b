// RUN: amp-opt %s --amp-mixed-precision=gray-strategy=fewest-casts | FileCheck %s --check-prefix=KEEP
// RUN: amp-opt %s --amp-mixed-precision="gray-strategy=fewest-casts keep-io-types=false" | FileCheck %s --check-prefix=FREE
// RUN: amp-opt %s --amp-mixed-precision="gray-strategy=fewest-casts keep-io-types=false" | amp-opt --amp-mixed-precision="gray-strategy=fewest-casts keep-io-types=false" | FileCheck %s --check-prefix=FREE

// By default signatures are kept: casts at the boundaries.
// KEEP-LABEL: func.func @forward(%arg0: tensor<8x8xf32>, %arg1: tensor<8x8xf32>, %arg2: tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>)
// KEEP: call @forward({{.*}}) : (tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>)

// With keep-io-types=false, a public function takes and returns the target
// type where that removes a cast: %a and %w are only read in f16, the first
// result is produced in f16; %s and the second result stay FP32 (exp is red).
// Call sites in the module are updated.
// FREE-LABEL: func.func @forward(%arg0: tensor<8x8xf16>, %arg1: tensor<8x8xf16>, %arg2: tensor<8x8xf32>) -> (tensor<8x8xf16>, tensor<8x8xf32>)
// FREE: %[[M:.+]] = linalg.matmul ins(%arg0, %arg1 : tensor<8x8xf16>, tensor<8x8xf16>) outs(%arg2 : tensor<8x8xf32>)
// FREE: %[[L:.+]] = tosa.cast %[[M]]
// FREE: %[[T:.+]] = tosa.tanh %[[L]] : (tensor<8x8xf16>) -> tensor<8x8xf16>
// FREE: %[[E:.+]] = tosa.exp %arg2 : (tensor<8x8xf32>) -> tensor<8x8xf32>
// FREE: return %[[T]], %[[E]] : tensor<8x8xf16>, tensor<8x8xf32>
// FREE-LABEL: func.func @main(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32>
// FREE: %[[A:.+]] = arith.truncf %arg0 : tensor<8x8xf32> to tensor<8x8xf16>
// FREE-NOT: arith.truncf %arg0
// FREE: %[[R:.+]]:2 = call @forward(%[[A]], %[[A]], %arg0) : (tensor<8x8xf16>, tensor<8x8xf16>, tensor<8x8xf32>) -> (tensor<8x8xf16>, tensor<8x8xf32>)
// FREE: %[[W:.+]] = arith.extf %[[R]]#0 : tensor<8x8xf16> to tensor<8x8xf32>
// FREE: tosa.add %[[W]], %[[R]]#1
func.func @forward(%a: tensor<8x8xf32>, %w: tensor<8x8xf32>, %s: tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>) {
  %m = linalg.matmul ins(%a, %w : tensor<8x8xf32>, tensor<8x8xf32>) outs(%s : tensor<8x8xf32>) -> tensor<8x8xf32>
  %t = tosa.tanh %m : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %e = tosa.exp %s : (tensor<8x8xf32>) -> tensor<8x8xf32>
  return %t, %e : tensor<8x8xf32>, tensor<8x8xf32>
}
func.func @main(%a: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %r:2 = func.call @forward(%a, %a, %a) : (tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>)
  %x = tosa.add %r#0, %r#1 : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  return %x : tensor<8x8xf32>
}

// Private functions keep their signature.
// FREE-LABEL: func.func private @helper(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32>
func.func private @helper(%a: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %m = linalg.matmul ins(%a, %a : tensor<8x8xf32>, tensor<8x8xf32>) outs(%a : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %m : tensor<8x8xf32>
}
