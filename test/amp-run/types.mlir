// Arguments and results of every supported element type, several results,
// and a pipeline that changes the entry's types (keep-io-types=false).

// RUN: amp-run %s --runs 1 | FileCheck %s
// CHECK: amp-run: {{.*}}types.mlir @types, pipeline 'amp-mixed-precision', seed 0
// CHECK: output  shape  type  max_abs_err
// CHECK-NEXT: result0 2x3 f32 0 0 0 1 yes 0
// CHECK-NEXT: result1 2x3 f16 0
// CHECK-NEXT: result2 2x3 bf16 0
// CHECK-NEXT: result3 2x3 i1 0
// CHECK-NEXT: result4 2x3 i8 0
// CHECK-NEXT: result5 2x3 i32 0
// CHECK-NEXT: result6 2x3 i64 0
// CHECK-NEXT: result7 scalar f64 0
// CHECK-NEXT: overall
// CHECK-NEXT: time (median of 1 runs): fp32 {{[0-9.]+}} ms, amp {{[0-9.]+}} ms

func.func @types(%f32: tensor<2x3xf32>, %f16: tensor<2x3xf16>,
                 %bf16: tensor<2x3xbf16>, %i1: tensor<2x3xi1>,
                 %i8: tensor<2x3xi8>, %i32: tensor<2x3xi32>,
                 %i64: tensor<2x3xi64>, %f64: tensor<f64>)
    -> (tensor<2x3xf32>, tensor<2x3xf16>, tensor<2x3xbf16>, tensor<2x3xi1>,
        tensor<2x3xi8>, tensor<2x3xi32>, tensor<2x3xi64>, tensor<f64>) {
  %a = arith.addf %f32, %f32 : tensor<2x3xf32>
  %b = arith.mulf %f16, %f16 : tensor<2x3xf16>
  %c = arith.subf %bf16, %bf16 : tensor<2x3xbf16>
  %d = arith.xori %i1, %i1 : tensor<2x3xi1>
  %e = arith.addi %i8, %i8 : tensor<2x3xi8>
  %f = arith.muli %i32, %i32 : tensor<2x3xi32>
  %g = arith.addi %i64, %i64 : tensor<2x3xi64>
  return %a, %b, %c, %d, %e, %f, %g, %f64
      : tensor<2x3xf32>, tensor<2x3xf16>, tensor<2x3xbf16>, tensor<2x3xi1>,
        tensor<2x3xi8>, tensor<2x3xi32>, tensor<2x3xi64>, tensor<f64>
}

// With keep-io-types=false the converted entry takes f16: the same inputs are
// rounded to f16.
// RUN: amp-run %S/Inputs/matmul.mlir --runs 1 \
// RUN:   --pipeline='amp-mixed-precision{keep-io-types=false}' \
// RUN:   | FileCheck %s --check-prefix=IO
// IO: argument #0 is f16 once converted: the inputs are rounded to it
// IO-NEXT: argument #1 is f16 once converted: the inputs are rounded to it
// IO: result0 4x8 f32 {{[0-9.e-]+}} {{[0-9.e-]+}} 0.000{{[0-9]+}} 1 yes 0
