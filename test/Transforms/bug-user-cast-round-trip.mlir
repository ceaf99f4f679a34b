// RUN: amp-opt %s --amp-mixed-precision=gray-strategy=follow | FileCheck %s

// Regression test (found by amp-graphgen): the old users of a converted op
// read its f16 result through an extf view; when one of them is the user's
// own cast back to f16 (arith.truncf or tosa.cast), that made an
// f16 -> f32 -> f16 round trip. Such casts now read the f16 result itself.

// CHECK-LABEL: func.func @user_truncf
// CHECK: %[[ABS:.+]] = math.absf %{{.+}} : tensor<4xf16>
// CHECK-NOT: arith.truncf
// CHECK: return %[[ABS]] : tensor<4xf16>
func.func @user_truncf() -> tensor<4xf16> {
  %c = arith.constant dense<1.5> : tensor<4xf32>
  %a = math.absf %c : tensor<4xf32>
  %t = arith.truncf %a : tensor<4xf32> to tensor<4xf16>
  return %t : tensor<4xf16>
}

// CHECK-LABEL: func.func @user_tosa_cast
// CHECK: %[[NEG:.+]] = tosa.abs %{{.+}} : (tensor<4xf16>) -> tensor<4xf16>
// CHECK-NOT: tosa.cast
// CHECK: return %[[NEG]] : tensor<4xf16>
func.func @user_tosa_cast() -> tensor<4xf16> {
  %c = "tosa.const"() <{values = dense<1.5> : tensor<4xf32>}> : () -> tensor<4xf32>
  %a = tosa.abs %c : (tensor<4xf32>) -> tensor<4xf32>
  %t = tosa.cast %a : (tensor<4xf32>) -> tensor<4xf16>
  return %t : tensor<4xf16>
}
