// Every diagnostic of --amp-convert-layout.
// RUN: split-file %s %t
// RUN: amp-opt %t/filter.mlir --amp-convert-layout=filter=oihw --verify-diagnostics
// RUN: amp-opt %t/ops-typo.mlir --amp-convert-layout=ops=linalg.pooling_nchw_maxx --verify-diagnostics
// RUN: amp-opt %t/ops-kind.mlir --amp-convert-layout=ops=matmul --verify-diagnostics
// RUN: amp-opt %t/ops-not-layer.mlir --amp-convert-layout=ops=tensor.pad --verify-diagnostics
// RUN: amp-opt %t/skip-range.mlir --amp-convert-layout=skip-layers=1 --verify-diagnostics
// RUN: amp-opt %t/ignored.mlir --amp-convert-layout=skip-layers=0 --verify-diagnostics
// RUN: amp-opt %t/enclosing.mlir --pass-pipeline="builtin.module(func.func(amp-convert-layout))" --verify-diagnostics
// RUN: not amp-opt %t/filter.mlir --amp-convert-layout=skip-layers=a,b 2>&1 | FileCheck %s --check-prefix=SKIP
// RUN: not amp-opt %t/filter.mlir --amp-convert-layout=propagate=sometimes 2>&1 | FileCheck %s --check-prefix=BOOL

// SKIP: for the --skip-layers option: 'a' value invalid for long argument
// BOOL: for the --propagate option: 'sometimes' is invalid value for boolean argument

//--- filter.mlir
// expected-error@unknown {{amp-convert-layout: invalid filter 'oihw'; expected one of: hwcf, fhwc}}
func.func @f() { return }

//--- ops-typo.mlir
// expected-error@unknown {{amp-convert-layout: unknown op name 'linalg.pooling_nchw_maxx' in ops= (did you mean 'linalg.pooling_nchw_max'?)}}
func.func @f() { return }

//--- ops-kind.mlir
// expected-error@unknown {{amp-convert-layout: 'matmul' in ops= has no layout to convert (expected convolution, pooling or op names)}}
func.func @f() { return }

//--- ops-not-layer.mlir
// expected-error@unknown {{amp-convert-layout: 'tensor.pad' in ops= is not a layer: it does not implement LayerOpInterface (convolutions, matmuls and poolings do)}}
func.func @f() { return }

//--- skip-range.mlir
// expected-error@+1 {{amp-convert-layout: skip-layers index 1 is out of range (there is 1 layer)}}
module {
  func.func @f(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %i: tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32> {
    %0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
        ins(%x, %w : tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) outs(%i : tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
    return %0 : tensor<1x4x6x6xf32>
  }
}

//--- ignored.mlir
// An annotation on the op the pass runs on replaces the options: say so.
// expected-warning@+1 {{amp-convert-layout: the pass options are ignored: this op carries amp.layout_config}}
module attributes {amp.layout_config = #amp.layout_config<filter = fhwc>} {
  func.func @f() { return }
}

//--- enclosing.mlir
// Run on each function, the pass cannot apply the module's indices.
module attributes {amp.layout_config = #amp.layout_config<skip_layers = [0]>} {
  // expected-warning@+1 {{amp-convert-layout: the amp.layout_config of an enclosing 'builtin.module' is ignored when the pass runs on 'func.func'; run the pass on that op}}
  func.func @f() { return }
}
