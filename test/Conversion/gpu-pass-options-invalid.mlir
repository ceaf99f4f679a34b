// Invalid options of the individual GPU passes.
//
// RUN: split-file %s %t
// RUN: amp-opt %t/kind.mlir --amp-gpu-matmul-to-mma="kind=wmma" -verify-diagnostics
// RUN: amp-opt %t/block-size.mlir --amp-gpu-parallel-loops-to-launch="block-size=4096" -verify-diagnostics

//--- kind.mlir
// expected-error @+1 {{amp-gpu-matmul-to-mma: unknown kind 'wmma' (expected mma-sync, wgmma or none)}}
module {}

//--- block-size.mlir
// expected-error @+1 {{amp-gpu-parallel-loops-to-launch: block-size must be in [1, 1024], got 4096}}
module {}
