// Diagnostics of --amp-count-layers. Unlike the passes that change layers,
// it counts any op, so any registered op name is accepted.
// RUN: split-file %s %t
// RUN: amp-opt %t/typo.mlir --amp-count-layers=ops=linalg.matmull --verify-diagnostics
// RUN: amp-opt %t/dialect.mlir --amp-count-layers=ops=nn.conv2d --verify-diagnostics
// RUN: amp-opt %t/entry.mlir --amp-count-layers=ops=conv2d --verify-diagnostics
// RUN: amp-opt %t/json.mlir "--amp-count-layers=json=%t/no/such/dir/layers.json remarks=false" --verify-diagnostics
// RUN: amp-opt %t/any-op.mlir "--amp-count-layers=ops=arith.addf" --verify-diagnostics
// RUN: not amp-opt %t/any-op.mlir --amp-count-layers=remarks=maybe 2>&1 | FileCheck %s --check-prefix=BOOL

// BOOL: for the --remarks option: 'maybe' is invalid value for boolean argument

//--- typo.mlir
// expected-error@unknown {{amp-count-layers: unknown op name 'linalg.matmull' in ops= (did you mean 'linalg.matmul'?)}}
func.func @f() { return }

//--- dialect.mlir
// expected-error@unknown {{amp-count-layers: unknown op name 'nn.conv2d' in ops= (no dialect 'nn' is registered)}}
func.func @f() { return }

//--- entry.mlir
// expected-error@unknown {{amp-count-layers: invalid entry 'conv2d' in ops= (expected an op name such as linalg.matmul or a layer kind: convolution, matmul, pooling)}}
func.func @f() { return }

//--- json.mlir
// expected-error@+1 {{amp-count-layers: cannot write the report}}
module {
  func.func @f() { return }
}

//--- any-op.mlir
// expected-remark@+1 {{1 layer (ops=arith.addf): 1 arith.addf}}
module {
  func.func @f(%x: f32) -> f32 {
    // expected-remark@+1 {{layer 0: arith.addf}}
    %0 = arith.addf %x, %x : f32
    return %0 : f32
  }
}
