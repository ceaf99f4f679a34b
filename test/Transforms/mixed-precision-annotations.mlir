// RUN: amp-opt %s --amp-mixed-precision=gray-strategy=fewest-casts --split-input-file | FileCheck %s

// amp.color overrides the lists: a red matmul stays FP32, a green tanh runs
// in f16, a gray exp follows its inputs.
// CHECK-LABEL: func.func @color_annotations
// CHECK: %[[M:.+]] = linalg.matmul {amp.color = #amp.color<red>} ins(%arg0, %arg1 : tensor<8x8xf32>, tensor<8x8xf32>)
// CHECK: %[[L:.+]] = tosa.cast %[[M]] : (tensor<8x8xf32>) -> tensor<8x8xf16>
// CHECK: %[[T:.+]] = tosa.tanh %[[L]] {amp.color = #amp.color<green>} : (tensor<8x8xf16>) -> tensor<8x8xf16>
// CHECK: %[[E:.+]] = tosa.exp %[[T]] {amp.color = #amp.color<gray>} : (tensor<8x8xf16>) -> tensor<8x8xf16>
// CHECK: linalg.matmul ins(%[[E]], %{{.+}} : tensor<8x8xf16>, tensor<8x8xf16>)
func.func @color_annotations(%a: tensor<8x8xf32>, %b: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %m = linalg.matmul {amp.color = #amp.color<red>} ins(%a, %b : tensor<8x8xf32>, tensor<8x8xf32>) outs(%a : tensor<8x8xf32>) -> tensor<8x8xf32>
  %t = tosa.tanh %m {amp.color = #amp.color<green>} : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %e = tosa.exp %t {amp.color = #amp.color<gray>} : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %r = linalg.matmul ins(%e, %b : tensor<8x8xf32>, tensor<8x8xf32>) outs(%a : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %r : tensor<8x8xf32>
}

// -----

// amp.precision forces the types: accumulate in f16 and output f16 here,
// then f32 accumulation with f32 output.
// CHECK-LABEL: func.func @precision_annotations
// CHECK: %[[M:.+]] = linalg.matmul {amp.precision = #amp.precision<accumulate = f16, output = f16>} ins(%{{.+}}, %{{.+}} : tensor<8x8xf16>, tensor<8x8xf16>) outs(%{{.+}} : tensor<8x8xf16>) -> tensor<8x8xf16>
// CHECK: %[[N:.+]] = linalg.matmul {amp.precision = #amp.precision<accumulate = f32, output = f32>} ins(%[[M]], %{{.+}} : tensor<8x8xf16>, tensor<8x8xf16>) outs(%{{.+}} : tensor<8x8xf32>) -> tensor<8x8xf32>
// CHECK: tosa.tanh %[[N]] : (tensor<8x8xf32>) -> tensor<8x8xf32>
func.func @precision_annotations(%a: tensor<8x8xf32>, %b: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %m = linalg.matmul {amp.precision = #amp.precision<accumulate = f16, output = f16>} ins(%a, %b : tensor<8x8xf32>, tensor<8x8xf32>) outs(%a : tensor<8x8xf32>) -> tensor<8x8xf32>
  %n = linalg.matmul {amp.precision = #amp.precision<accumulate = f32, output = f32>} ins(%m, %b : tensor<8x8xf32>, tensor<8x8xf32>) outs(%a : tensor<8x8xf32>) -> tensor<8x8xf32>
  %t = tosa.tanh %n : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %r = linalg.matmul ins(%t, %b : tensor<8x8xf32>, tensor<8x8xf32>) outs(%a : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %r : tensor<8x8xf32>
}

// -----

// amp.precision on an op without an accumulator: accumulate = target forces
// it into the target type even with FP32 inputs; accumulate = f32 keeps it
// in FP32.
// CHECK-LABEL: func.func @precision_on_elementwise
// CHECK: %[[A:.+]] = tosa.cast %arg0 : (tensor<8x8xf32>) -> tensor<8x8xf16>
// CHECK: tosa.abs %[[A]] {amp.precision = #amp.precision<accumulate = f16, output = f16>} : (tensor<8x8xf16>) -> tensor<8x8xf16>
// CHECK: tosa.negate %{{.+}}, %{{.+}}, %{{.+}} {amp.precision = #amp.precision<accumulate = f32, output = f32>} : (tensor<8x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<8x8xf32>
func.func @precision_on_elementwise(%a: tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>) {
  %x = tosa.abs %a {amp.precision = #amp.precision<accumulate = f16, output = f16>} : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %y = tosa.negate %a, %zp, %zp {amp.precision = #amp.precision<accumulate = f32, output = f32>} : (tensor<8x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<8x8xf32>
  return %x, %y : tensor<8x8xf32>, tensor<8x8xf32>
}
