// RUN: amp-opt %s --amp-mixed-precision | FileCheck %s --check-prefix=FEWEST
// RUN: amp-opt %s --amp-mixed-precision=gray-strategy=follow | FileCheck %s --check-prefix=FOLLOW

// A matmul, then bias + tanh (gray), then exp (red). TVM's local rule
// ("follow") runs the gray ops in f16 because their inputs are, which costs
// a cast down after the matmul and a cast up before exp. "fewest-casts" sees
// that their only consumer is FP32 and keeps them in FP32, reading the
// matmul's FP32 accumulator: no cast at all after the matmul.

// FEWEST-LABEL: func.func @gray_chain_into_red
// FEWEST: %[[M:.+]] = linalg.matmul
// FEWEST-NOT: arith.truncf %[[M]]
// FEWEST: %[[B:.+]] = tosa.add %[[M]], %{{.+}} : (tensor<8x8xf32>, tensor<1x8xf32>) -> tensor<8x8xf32>
// FEWEST: %[[T:.+]] = tosa.tanh %[[B]] : (tensor<8x8xf32>) -> tensor<8x8xf32>
// FEWEST: tosa.exp %[[T]]

// FOLLOW-LABEL: func.func @gray_chain_into_red
// FOLLOW: %[[M:.+]] = linalg.matmul
// FOLLOW: %[[L:.+]] = tosa.cast %[[M]] : (tensor<8x8xf32>) -> tensor<8x8xf16>
// FOLLOW: %[[B:.+]] = tosa.add %[[L]], %{{.+}} : (tensor<8x8xf16>, tensor<1x8xf16>) -> tensor<8x8xf16>
// FOLLOW: %[[T:.+]] = tosa.tanh %[[B]] : (tensor<8x8xf16>) -> tensor<8x8xf16>
// FOLLOW: %[[U:.+]] = tosa.cast %[[T]] : (tensor<8x8xf16>) -> tensor<8x8xf32>
// FOLLOW: tosa.exp %[[U]]
func.func @gray_chain_into_red(%a: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %m = linalg.matmul ins(%a, %a : tensor<8x8xf32>, tensor<8x8xf32>) outs(%a : tensor<8x8xf32>) -> tensor<8x8xf32>
  %bias = "tosa.const"() <{values = dense<0.5> : tensor<1x8xf32>}> : () -> tensor<1x8xf32>
  %b = tosa.add %m, %bias : (tensor<8x8xf32>, tensor<1x8xf32>) -> tensor<8x8xf32>
  %t = tosa.tanh %b : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %e = tosa.exp %t : (tensor<8x8xf32>) -> tensor<8x8xf32>
  return %e : tensor<8x8xf32>
}

// A gray op with both a low and an FP32 consumer runs low in both
// strategies: one cast up serves the FP32 consumer.
// FEWEST-LABEL: func.func @mixed_consumers
// FEWEST: %[[T:.+]] = tosa.tanh %{{.+}} : (tensor<8x8xf16>) -> tensor<8x8xf16>
// FEWEST: %[[U:.+]] = tosa.cast %[[T]] : (tensor<8x8xf16>) -> tensor<8x8xf32>
// FEWEST: tosa.exp %[[U]]
// FEWEST: linalg.matmul ins(%[[T]], %[[T]]
// FOLLOW-LABEL: func.func @mixed_consumers
// FOLLOW: tosa.tanh %{{.+}} : (tensor<8x8xf16>) -> tensor<8x8xf16>
func.func @mixed_consumers(%a: tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>) {
  %m = linalg.matmul ins(%a, %a : tensor<8x8xf32>, tensor<8x8xf32>) outs(%a : tensor<8x8xf32>) -> tensor<8x8xf32>
  %t = tosa.tanh %m : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %e = tosa.exp %t : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %n = linalg.matmul ins(%t, %t : tensor<8x8xf32>, tensor<8x8xf32>) outs(%a : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %e, %n : tensor<8x8xf32>, tensor<8x8xf32>
}

// Unranked tensors cannot be cast: an op producing one stays in FP32 even
// when its input is low.
// FOLLOW-LABEL: func.func @negative_unranked_result
// FOLLOW: tensor.cast %{{.+}} : tensor<8x8xf32> to tensor<*xf32>
func.func @negative_unranked_result(%a: tensor<8x8xf32>) -> tensor<*xf32> {
  %m = linalg.matmul ins(%a, %a : tensor<8x8xf32>, tensor<8x8xf32>) outs(%a : tensor<8x8xf32>) -> tensor<8x8xf32>
  %u = tensor.cast %m : tensor<8x8xf32> to tensor<*xf32>
  return %u : tensor<*xf32>
}
