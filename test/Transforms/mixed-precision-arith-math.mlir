// RUN: amp-opt %s --amp-mixed-precision=gray-strategy=fewest-casts | FileCheck %s

// Scalar code: gray arithmetic follows, red math stays in FP32, and the
// scalar casts are arith casts.
// CHECK-LABEL: func.func @scalar_chain
// CHECK-SAME: (%[[X:.+]]: tensor<4x4xf32>, %[[S:.+]]: f32)
// CHECK: %[[M:.+]] = linalg.matmul
// CHECK: %[[V:.+]] = tensor.extract %[[M]]
// CHECK-SAME: : tensor<4x4xf32>
// CHECK: %[[N:.+]] = arith.negf %[[V]] : f32
// CHECK: math.exp %[[N]] : f32
func.func @scalar_chain(%x: tensor<4x4xf32>, %s: f32) -> f32 {
  %m = linalg.matmul ins(%x, %x : tensor<4x4xf32>, tensor<4x4xf32>) outs(%x : tensor<4x4xf32>) -> tensor<4x4xf32>
  %c0 = arith.constant 0 : index
  %v = tensor.extract %m[%c0, %c0] : tensor<4x4xf32>
  %n = arith.negf %v : f32
  %e = math.exp %n : f32
  return %e : f32
}

// CHECK-LABEL: func.func @gray_scalars_feed_a_matmul
// CHECK: %[[M:.+]] = linalg.matmul
// CHECK: %[[L:.+]] = arith.truncf %[[M]] : tensor<4x4xf32> to tensor<4x4xf16>
// CHECK: %[[V:.+]] = tensor.extract %[[L]]{{.*}} : tensor<4x4xf16>
// CHECK: %[[T:.+]] = math.tanh %[[V]] : f16
// CHECK: %[[F:.+]] = tensor.from_elements %[[T]], %[[T]], %[[T]], %[[T]] : tensor<2x2xf16>
// CHECK: linalg.matmul ins(%[[F]], %[[F]] : tensor<2x2xf16>, tensor<2x2xf16>)
func.func @gray_scalars_feed_a_matmul(%x: tensor<4x4xf32>, %o: tensor<2x2xf32>) -> tensor<2x2xf32> {
  %m = linalg.matmul ins(%x, %x : tensor<4x4xf32>, tensor<4x4xf32>) outs(%x : tensor<4x4xf32>) -> tensor<4x4xf32>
  %c0 = arith.constant 0 : index
  %v = tensor.extract %m[%c0, %c0] : tensor<4x4xf32>
  %t = math.tanh %v : f32
  %f = tensor.from_elements %t, %t, %t, %t : tensor<2x2xf32>
  %r = linalg.matmul ins(%f, %f : tensor<2x2xf32>, tensor<2x2xf32>) outs(%o : tensor<2x2xf32>) -> tensor<2x2xf32>
  return %r : tensor<2x2xf32>
}

// Red math ops (the RFC's |f(x)| >> |x|) keep their inputs in FP32.
// CHECK-LABEL: func.func @red_math
// CHECK-COUNT-8: f32
// CHECK-NOT: f16
func.func @red_math(%x: f32, %i: i32) -> (f32, f32, f32, f32, f32, f32, f32) {
  %0 = math.log %x : f32
  %1 = math.powf %x, %x : f32
  %2 = math.rsqrt %x : f32
  %3 = math.erf %x : f32
  %4 = math.expm1 %x : f32
  %5 = math.fpowi %x, %i : f32, i32
  %6 = math.sinh %x : f32
  return %0, %1, %2, %3, %4, %5, %6 : f32, f32, f32, f32, f32, f32, f32
}
