// Every invalid option of --amp-gpu-pipeline is reported at the module.
//
// RUN: split-file %s %t
// RUN: amp-opt %t/chip.mlir --amp-gpu-pipeline="chip=sm_70" -verify-diagnostics
// RUN: amp-opt %t/chip-name.mlir --amp-gpu-pipeline="chip=gfx90a" -verify-diagnostics
// RUN: amp-opt %t/format.mlir --amp-gpu-pipeline="format=cubin" -verify-diagnostics
// RUN: amp-opt %t/opt-level.mlir --amp-gpu-pipeline="opt-level=4" -verify-diagnostics
// RUN: amp-opt %t/block-size.mlir --amp-gpu-pipeline="block-size=2048" -verify-diagnostics
// RUN: amp-opt %t/block-size-zero.mlir --amp-gpu-pipeline="block-size=0" -verify-diagnostics
// RUN: amp-opt %t/features.mlir --amp-gpu-pipeline="features=ptx80" -verify-diagnostics
// RUN: amp-opt %t/toolkit.mlir --amp-gpu-pipeline="toolkit=/nonexistent/cuda" -verify-diagnostics
// RUN: amp-opt %t/mma-sync-k-tile.mlir --amp-gpu-pipeline="mma-sync-k-tile=128" -verify-diagnostics
//
// Malformed values are rejected by the option parser itself.
// RUN: not amp-opt %t/chip.mlir --amp-gpu-pipeline="opt-level=three" 2>&1 | FileCheck %s --check-prefix=PARSE
// PARSE: for the --opt-level option: 'three' value invalid for integer argument

//--- chip.mlir
// expected-error @+1 {{amp-gpu-pipeline: unsupported chip 'sm_70' (expected sm_80, sm_86, sm_87, sm_89, sm_90 or sm_90a; Tensor Core mma.sync m16n8k16 needs sm_80 or newer)}}
module {}

//--- chip-name.mlir
// expected-error @+1 {{amp-gpu-pipeline: unsupported chip 'gfx90a'}}
module {}

//--- format.mlir
// expected-error @+1 {{amp-gpu-pipeline: unsupported format 'cubin' (expected isa, bin or fatbin)}}
module {}

//--- opt-level.mlir
// expected-error @+1 {{amp-gpu-pipeline: opt-level must be in [0, 3], got 4}}
module {}

//--- block-size.mlir
// expected-error @+1 {{amp-gpu-pipeline: block-size must be in [1, 1024], got 2048}}
module {}

//--- block-size-zero.mlir
// expected-error @+1 {{amp-gpu-pipeline: block-size must be in [1, 1024], got 0}}
module {}

//--- features.mlir
// expected-error @+1 {{amp-gpu-pipeline: features must name a PTX version such as '+ptx80', got 'ptx80'}}
module {}

//--- toolkit.mlir
// expected-error @+1 {{amp-gpu-pipeline: toolkit '/nonexistent/cuda' is not a directory}}
module {}

//--- mma-sync-k-tile.mlir
// expected-error @+1 {{amp-gpu-pipeline: the mma.sync K tile must be 32 or 64, not 128}}
module {}
