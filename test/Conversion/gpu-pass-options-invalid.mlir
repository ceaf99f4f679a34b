// Invalid options of the individual GPU passes.
//
// RUN: split-file %s %t
// RUN: amp-opt %t/kind.mlir --amp-gpu-matmul-to-mma="kind=wmma" -verify-diagnostics
// RUN: amp-opt %t/block-size.mlir --amp-gpu-parallel-loops-to-launch="block-size=4096" -verify-diagnostics
// RUN: amp-opt %t/k-tile.mlir --amp-gpu-matmul-to-mma="mma-sync-k-tile=48" -verify-diagnostics
// RUN: amp-opt %t/stages.mlir --amp-gpu-matmul-to-mma="mma-sync-stages=1" -verify-diagnostics
// RUN: amp-opt %t/shared.mlir --amp-gpu-matmul-to-mma="mma-sync-k-tile=64 mma-sync-stages=5" -verify-diagnostics

//--- kind.mlir
// expected-error @+1 {{amp-gpu-matmul-to-mma: unknown kind 'wmma' (expected mma-sync, wgmma or none)}}
module {}

//--- block-size.mlir
// expected-error @+1 {{amp-gpu-parallel-loops-to-launch: block-size must be in [1, 1024], got 4096}}
module {}

//--- k-tile.mlir
// expected-error @+1 {{amp-gpu-matmul-to-mma: the mma.sync K tile must be 32 or 64, not 48}}
module {}

//--- stages.mlir
// expected-error @+1 {{amp-gpu-matmul-to-mma: the mma.sync kernel needs at least 2 stages, not 1}}
module {}

//--- shared.mlir
// expected-error @+1 {{amp-gpu-matmul-to-mma: 5 stages of K tile 64 need 261120 bytes of shared memory, more than the 232448 a block can use}}
module {}
