// Every diagnostic of --amp-recast: bad options fail before anything
// changes; layers that cannot take the requested types are errors, never
// invalid IR.
// RUN: split-file %s %t
// RUN: amp-opt %t/type.mlir --amp-recast=type=f64 --verify-diagnostics
// RUN: amp-opt %t/type-typo.mlir --amp-recast=type=int8 --verify-diagnostics
// RUN: amp-opt %t/acc-float.mlir "--amp-recast=type=f16 accumulate-type=i32" --verify-diagnostics
// RUN: amp-opt %t/acc-int.mlir "--amp-recast=type=i8 accumulate-type=f32" --verify-diagnostics
// RUN: amp-opt %t/ops-typo.mlir --amp-recast=ops=linalg.matmull --verify-diagnostics
// RUN: amp-opt %t/ops-dialect.mlir --amp-recast=ops=foo.conv --verify-diagnostics
// RUN: amp-opt %t/ops-entry.mlir --amp-recast=ops=conv --verify-diagnostics
// RUN: amp-opt %t/ops-not-layer.mlir --amp-recast=ops=arith.addf --verify-diagnostics
// RUN: amp-opt %t/ops-unmatched.mlir --amp-recast=ops=linalg.batch_matmul --verify-diagnostics
// RUN: amp-opt %t/skip-range.mlir --amp-recast=skip-layers=0,2 --verify-diagnostics
// RUN: amp-opt %t/skip-range.mlir --amp-recast=skip-layers=-3 --verify-diagnostics
// RUN: amp-opt %t/tosa-i4.mlir --amp-recast=type=i4 --verify-diagnostics
// RUN: amp-opt %t/tosa-f8.mlir --amp-recast=type=f8E4M3FN --verify-diagnostics
// RUN: amp-opt %t/tosa-pool.mlir --amp-recast=ops=pooling --verify-diagnostics
// RUN: amp-opt %t/generic-int.mlir --amp-recast=type=i8 --verify-diagnostics
// RUN: amp-opt %t/generic-acc.mlir "--amp-recast=type=f16 accumulate-type=f16" --verify-diagnostics
// RUN: amp-opt %t/buffers.mlir --amp-recast --verify-diagnostics
// RUN: not amp-opt %t/type.mlir --amp-recast=skip-layers=last 2>&1 | FileCheck %s --check-prefix=SKIP
// RUN: not amp-opt %t/type.mlir --amp-recast=skip-layers=1.5 2>&1 | FileCheck %s --check-prefix=SKIP-FLOAT
// RUN: not amp-opt %t/type.mlir --amp-recast=typ=f16 2>&1 | FileCheck %s --check-prefix=NAME

// SKIP: for the --skip-layers option: 'last' value invalid for long argument
// SKIP-FLOAT: for the --skip-layers option: '1.5' value invalid for long argument
// NAME: no such option typ

//--- type.mlir
// expected-error@unknown {{amp-recast: invalid type 'f64'; expected one of: f16, bf16, f8E4M3FN, f8E5M2, i8, i4}}
func.func @f() { return }

//--- type-typo.mlir
// expected-error@unknown {{amp-recast: invalid type 'int8'; expected one of: f16, bf16, f8E4M3FN, f8E5M2, i8, i4}}
func.func @f() { return }

//--- acc-float.mlir
// expected-error@unknown {{amp-recast: invalid accumulate-type 'i32' for type f16; expected one of: f32, f16, bf16}}
func.func @f() { return }

//--- acc-int.mlir
// expected-error@unknown {{amp-recast: invalid accumulate-type 'f32' for type i8; expected one of: i32}}
func.func @f() { return }

//--- ops-typo.mlir
// expected-error@unknown {{amp-recast: unknown op name 'linalg.matmull' in ops= (did you mean 'linalg.matmul'?)}}
func.func @f() { return }

//--- ops-dialect.mlir
// expected-error@unknown {{amp-recast: unknown op name 'foo.conv' in ops= (no dialect 'foo' is registered)}}
func.func @f() { return }

//--- ops-entry.mlir
// expected-error@unknown {{amp-recast: invalid entry 'conv' in ops= (expected an op name such as linalg.matmul or a layer kind: convolution, matmul, pooling)}}
func.func @f() { return }

//--- ops-not-layer.mlir
// expected-error@unknown {{amp-recast: 'arith.addf' in ops= is not a layer: it does not implement LayerOpInterface (convolutions, matmuls and poolings do)}}
func.func @f() { return }

//--- ops-unmatched.mlir
// A switch that would silently do nothing says so.
// expected-warning@+1 {{amp-recast: 'linalg.batch_matmul' in ops= selects no layer here}}
module {
  func.func @f(%a: tensor<4x4xf32>) -> tensor<4x4xf32> {
    %0 = linalg.matmul ins(%a, %a : tensor<4x4xf32>, tensor<4x4xf32>) outs(%a : tensor<4x4xf32>) -> tensor<4x4xf32>
    return %0 : tensor<4x4xf32>
  }
}

//--- skip-range.mlir
// expected-error-re@+1 {{amp-recast: skip-layers index {{2|-3}} is out of range (there are 2 layers)}}
module {
  func.func @f(%a: tensor<4x4xf32>) -> tensor<4x4xf32> {
    %0 = linalg.matmul ins(%a, %a : tensor<4x4xf32>, tensor<4x4xf32>) outs(%a : tensor<4x4xf32>) -> tensor<4x4xf32>
    %1 = linalg.matmul ins(%0, %a : tensor<4x4xf32>, tensor<4x4xf32>) outs(%a : tensor<4x4xf32>) -> tensor<4x4xf32>
    return %1 : tensor<4x4xf32>
  }
}

//--- tosa-i4.mlir
func.func @f(%x: tensor<1x8x8x3xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<4xf32>) -> tensor<1x8x8x4xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  // expected-error@+1 {{TOSA 1.0 defines no 'tosa.conv2d' with i4 inputs and i32 accumulation; it defines (inputs/accumulation): i8/i32, f16/f16, f16/f32, bf16/f32, f8E4M3FN/f16, f8E5M2/f16}}
  %0 = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>}
      : (tensor<1x8x8x3xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x8x8x4xf32>
  return %0 : tensor<1x8x8x4xf32>
}

//--- tosa-f8.mlir
// TOSA 1.0's fp8 matmul accumulates in f16 (f32 is a 1.1 draft addition).
func.func @f(%a: tensor<1x4x8xf32>, %b: tensor<1x8x2xf32>) -> tensor<1x4x2xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  // expected-error@+1 {{TOSA 1.0 defines no 'tosa.matmul' with f8E4M3FN inputs and f32 accumulation}}
  %0 = tosa.matmul %a, %b, %zp, %zp : (tensor<1x4x8xf32>, tensor<1x8x2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x2xf32>
  return %0 : tensor<1x4x2xf32>
}

//--- tosa-pool.mlir
func.func @f(%x: tensor<1x8x8x4xf32>) -> tensor<1x4x4x4xf32> {
  // expected-error@+1 {{'tosa.max_pool2d' cannot be recast}}
  %0 = tosa.max_pool2d %x {kernel = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<1x8x8x4xf32>) -> tensor<1x4x4x4xf32>
  return %0 : tensor<1x4x4x4xf32>
}

//--- generic-int.mlir
func.func @f(%a: tensor<8x16xf32>, %b: tensor<16x4xf32>, %c: tensor<8x4xf32>) -> tensor<8x4xf32> {
  // expected-error@+1 {{cannot recast 'linalg.generic' to 'i8': only linalg named ops can compute in integer types}}
  %0 = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<8x16xf32>, tensor<16x4xf32>) outs(%c : tensor<8x4xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %m = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

//--- generic-acc.mlir
func.func @f(%a: tensor<8x16xf32>, %b: tensor<16x4xf32>, %c: tensor<8x4xf32>) -> tensor<8x4xf32> {
  // expected-error@+1 {{cannot recast 'linalg.generic' with accumulation 'f16': a payload that is not a linalg named op only accumulates in the element type of its inits}}
  %0 = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<8x16xf32>, tensor<16x4xf32>) outs(%c : tensor<8x4xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %m = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

//--- buffers.mlir
func.func @f(%a: memref<4x4xf32>, %c: memref<4x4xf32>) {
  // expected-error@+1 {{cannot recast 'linalg.matmul': it works on buffers, not on tensors}}
  linalg.matmul ins(%a, %a : memref<4x4xf32>, memref<4x4xf32>) outs(%c : memref<4x4xf32>)
  return
}
