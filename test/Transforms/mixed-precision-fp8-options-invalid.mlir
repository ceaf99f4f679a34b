// The FP8 options (docs/fp8.md): every bad value is an error (and amp-opt
// fails); an option that does nothing says so.
// RUN: split-file %s %t
// RUN: amp-opt %t/fallback-f32.mlir "--amp-mixed-precision=target-type=f8E4M3FN fallback-type=f32" --verify-diagnostics
// RUN: amp-opt %t/fallback-fp8.mlir "--amp-mixed-precision=target-type=f8E4M3FN fallback-type=f8E5M2" --verify-diagnostics
// RUN: amp-opt %t/fallback-ignored.mlir --amp-mixed-precision=fallback-type=bf16 --verify-diagnostics
// RUN: amp-opt %t/min-macs.mlir "--amp-mixed-precision=target-type=f8E5M2 fp8-min-macs=-5" --verify-diagnostics
// RUN: amp-opt %t/accumulate.mlir "--amp-mixed-precision=target-type=f8E4M3FN accumulate-type=f8E4M3FN" --verify-diagnostics
// RUN: amp-opt %t/output.mlir "--amp-mixed-precision=target-type=f8E4M3FN fallback-type=bf16 output-type=f16" --verify-diagnostics
// RUN: amp-opt %t/overflow.mlir "--amp-mixed-precision=target-type=f8E4M3FN fallback-type=bf16 overflow-type=bf16" --verify-diagnostics
// RUN: amp-opt %t/plan.mlir --amp-plan-precision=target-type=f8E5M2 --verify-diagnostics
// RUN: amp-opt %t/annotation-accumulate.mlir --amp-mixed-precision --verify-diagnostics
// RUN: not amp-opt %t/fallback-f32.mlir "--amp-mixed-precision=target-type=f8E4M3FN fp8-min-macs=lots" 2>&1 | FileCheck %s --check-prefix=MACS
// MACS: for the --fp8-min-macs option: 'lots' value invalid

//--- fallback-f32.mlir
// expected-error@unknown {{amp-mixed-precision: invalid fallback-type 'f32'; expected one of: f16, bf16}}
func.func @f() { return }

//--- fallback-fp8.mlir
// expected-error@unknown {{amp-mixed-precision: invalid fallback-type 'f8E5M2'; expected one of: f16, bf16}}
func.func @f() { return }

//--- fallback-ignored.mlir
// expected-warning@unknown {{amp-mixed-precision: fallback-type applies to an FP8 target-type (f8E4M3FN, f8E5M2) and is ignored with target-type=f16}}
func.func @f() { return }

//--- min-macs.mlir
// expected-error@unknown {{amp-mixed-precision: fp8-min-macs must be non-negative, got -5}}
func.func @f() { return }

//--- accumulate.mlir
// FP8 contractions accumulate in f32; accumulate-type is that of the
// fallback-type ops.
// expected-error@unknown {{amp-mixed-precision: invalid accumulate-type 'f8E4M3FN'; expected one of: f32, target, f16}}
func.func @f() { return }

//--- output.mlir
// expected-error@unknown {{amp-mixed-precision: invalid output-type 'f16'; expected one of: target, f32, bf16}}
func.func @f() { return }

//--- overflow.mlir
// expected-error@unknown {{amp-mixed-precision: overflow-type must differ from fallback-type (bf16): it is the type of ops whose values do not fit it}}
func.func @f() { return }

//--- plan.mlir
// expected-error@+1 {{amp-plan-precision: target-type=f8E5M2 is not supported: FP8 decisions come with scales, which only a conversion makes; annotate ops with #amp.precision<compute = f8E5M2, accumulate = f32, output = f32> and run amp-mixed-precision (docs/fp8.md)}}
module {}

//--- annotation-accumulate.mlir
// An annotation that asks for FP8 with an accumulator other than f32: the
// op runs in the fallback type, and a remark says why.
func.func @f(%a: tensor<4x8xf32>) -> tensor<4x2xf32> {
  %w = arith.constant dense<0.5> : tensor<8x2xf32>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x2xf32>
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<4x2xf32>) -> tensor<4x2xf32>
  // expected-remark@+1 {{'linalg.matmul' runs in f16, not f8E4M3FN: amp.precision asks for accumulate f16, and FP8 contractions accumulate in f32}}
  %0 = linalg.matmul {amp.precision = #amp.precision<compute = f8E4M3FN, accumulate = f16, output = f16>}
         ins(%a, %w : tensor<4x8xf32>, tensor<8x2xf32>) outs(%c : tensor<4x2xf32>) -> tensor<4x2xf32>
  return %0 : tensor<4x2xf32>
}
