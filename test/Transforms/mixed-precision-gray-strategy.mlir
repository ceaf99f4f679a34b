// RUN: amp-opt %s --amp-mixed-precision=gray-strategy=fewest-casts | FileCheck %s --check-prefix=FEWEST
// RUN: amp-opt %s --amp-mixed-precision=gray-strategy=follow | FileCheck %s --check-prefix=FOLLOW
// RUN: amp-opt %s --amp-mixed-precision | FileCheck %s --check-prefix=MINBYTES

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
// MINBYTES-LABEL: func.func @gray_chain_into_red
// MINBYTES: %[[B:.+]] = tosa.add %{{.+}}, %{{.+}} : (tensor<8x8xf32>, tensor<1x8xf32>) -> tensor<8x8xf32>
// MINBYTES: tosa.tanh %[[B]] : (tensor<8x8xf32>) -> tensor<8x8xf32>
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
// min-bytes: the gray op whose result feeds both an FP32 and an f16
// consumer stays in FP32 and casts its result down once (6 bytes an
// element), rather than casting its input down and its result up (12).
// MINBYTES-LABEL: func.func @mixed_consumers
// MINBYTES: %[[T:.+]] = tosa.tanh %{{.+}} : (tensor<8x8xf32>) -> tensor<8x8xf32>
// MINBYTES-DAG: tosa.exp %[[T]]
// MINBYTES-DAG: %[[L:.+]] = tosa.cast %[[T]] : (tensor<8x8xf32>) -> tensor<8x8xf16>
// MINBYTES: linalg.matmul ins(%[[L]], %[[L]]
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

// Batch normalization between two convolutions, its four parameters small
// function arguments. fewest-casts keeps it in FP32 (its parameters are not
// low): the 900-element conv output is cast up and the result cast down.
// min-bytes casts the four 5-element parameters down instead and runs the
// normalization in f16: 120 bytes of casts instead of 10800.
// FEWEST-LABEL: func.func @batch_norm_casts_parameters_upstream
// FEWEST: tosa.sub %{{.+}}, %{{.+}} : (tensor<1x12x15x5xf32>, tensor<1x1x1x5xf32>) -> tensor<1x12x15x5xf32>
// MINBYTES-LABEL: func.func @batch_norm_casts_parameters_upstream
// MINBYTES-DAG: tosa.cast %arg1 : (tensor<1x1x1x5xf32>) -> tensor<1x1x1x5xf16>
// MINBYTES-DAG: tosa.cast %arg2 : (tensor<1x1x1x5xf32>) -> tensor<1x1x1x5xf16>
// MINBYTES-DAG: tosa.cast %arg3 : (tensor<1x1x1x5xf32>) -> tensor<1x1x1x5xf16>
// MINBYTES-DAG: tosa.cast %arg4 : (tensor<1x1x1x5xf32>) -> tensor<1x1x1x5xf16>
// MINBYTES: tosa.sub %{{.+}}, %{{.+}} : (tensor<1x12x15x5xf16>, tensor<1x1x1x5xf16>) -> tensor<1x12x15x5xf16>
// MINBYTES: tosa.mul {{.*}} -> tensor<1x12x15x5xf16>
// MINBYTES: tosa.add {{.*}} -> tensor<1x12x15x5xf16>
// MINBYTES-NOT: tosa.cast {{.*}} : (tensor<1x12x15x5xf32>) -> tensor<1x12x15x5xf16>
func.func @batch_norm_casts_parameters_upstream(%x: tensor<1x12x15x5xf32>, %mean: tensor<1x1x1x5xf32>, %scale: tensor<1x1x1x5xf32>, %shift: tensor<1x1x1x5xf32>, %bias2: tensor<1x1x1x5xf32>, %w: tensor<5x1x1x5xf32>) -> tensor<1x12x15x5xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %b = "tosa.const"() <{values = dense<0.0> : tensor<5xf32>}> : () -> tensor<5xf32>
  %shift0 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %c = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x12x15x5xf32>, tensor<5x1x1x5xf32>, tensor<5xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x12x15x5xf32>
  %s = tosa.sub %c, %mean : (tensor<1x12x15x5xf32>, tensor<1x1x1x5xf32>) -> tensor<1x12x15x5xf32>
  %m = tosa.mul %s, %scale, %shift0 : (tensor<1x12x15x5xf32>, tensor<1x1x1x5xf32>, tensor<1xi8>) -> tensor<1x12x15x5xf32>
  %a = tosa.add %m, %shift : (tensor<1x12x15x5xf32>, tensor<1x1x1x5xf32>) -> tensor<1x12x15x5xf32>
  %a2 = tosa.add %a, %bias2 : (tensor<1x12x15x5xf32>, tensor<1x1x1x5xf32>) -> tensor<1x12x15x5xf32>
  %d = tosa.conv2d %a2, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x12x15x5xf32>, tensor<5x1x1x5xf32>, tensor<5xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x12x15x5xf32>
  return %d : tensor<1x12x15x5xf32>
}
