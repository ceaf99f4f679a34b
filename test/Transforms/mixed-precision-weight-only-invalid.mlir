// The weight-only option and annotation (docs/weight-only.md): a format
// amp does not have is an error, in the option and in the attribute; so is
// weight-only= with an FP8 target (its activations are FP8, not 16-bit).
// RUN: split-file %s %t
// RUN: amp-opt %t/option.mlir --amp-mixed-precision=weight-only=int4-g48 --verify-diagnostics
// RUN: amp-opt %t/option.mlir --amp-plan-precision=weight-only=int3 --verify-diagnostics
// RUN: amp-opt %t/fp8.mlir "--amp-mixed-precision=weight-only=int8 target-type=f8E4M3FN" --verify-diagnostics
// RUN: amp-opt %t/attribute.mlir --verify-diagnostics
// RUN: amp-opt %t/not-an-attribute.mlir --amp-mixed-precision --verify-diagnostics

//--- option.mlir
// expected-error@unknown {{is not a weight-only format (int8, int4-g32, int4-g64, int4-g128, int4-gN-asym, e4m3) or none}}
func.func @f() { return }

//--- fp8.mlir
// expected-error@unknown {{amp-mixed-precision: weight-only=int8 keeps the activations in 16 bits and cannot be combined with an FP8 target-type (f8E4M3FN); annotate single ops with amp.weights instead}}
func.func @f() { return }

//--- attribute.mlir
func.func @f(%a: tensor<4x64xf32>, %w: tensor<64x32xf32>, %c: tensor<4x32xf32>) -> tensor<4x32xf32> {
  // expected-error@+1 {{'int4-g100' is not a weight-only format (int8, int4-g32, int4-g64, int4-g128, int4-gN-asym, e4m3) or none}}
  %0 = linalg.matmul {amp.weights = #amp.weights<"int4-g100">} ins(%a, %w : tensor<4x64xf32>, tensor<64x32xf32>) outs(%c : tensor<4x32xf32>) -> tensor<4x32xf32>
  return %0 : tensor<4x32xf32>
}

//--- not-an-attribute.mlir
func.func @f(%a: tensor<4x64xf32>, %w: tensor<64x32xf32>, %c: tensor<4x32xf32>) -> tensor<4x32xf32> {
  // expected-error@+1 {{'amp.weights' must be a weight-only format (#amp.weights<"int8">, #amp.weights<"int4-g128">, ...), got "int8"}}
  %0 = linalg.matmul {amp.weights = "int8"} ins(%a, %w : tensor<4x64xf32>, tensor<64x32xf32>) outs(%c : tensor<4x32xf32>) -> tensor<4x32xf32>
  return %0 : tensor<4x32xf32>
}
