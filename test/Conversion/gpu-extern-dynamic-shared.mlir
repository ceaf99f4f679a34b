// The zero-sized shared global that stands for the dynamic shared memory
// becomes external; other shared globals stay as they are. Regression
// (found by the PTX emulator): NVPTX demoted the internal global to a
// one-byte static variable, so the wgmma kernel's dynamic shared memory
// started where its mbarriers were and TMA data overwrote them.
//
// RUN: amp-opt %s --pass-pipeline="builtin.module(gpu.module(amp-gpu-extern-dynamic-shared))" | FileCheck %s
// RUN: amp-opt %S/../GPU/Inputs/matmul-256x128x256.mlir --amp-mixed-precision --amp-gpu-pipeline="chip=sm_90a format=isa" | %extract-ptx | FileCheck %s --check-prefix=PTX

// CHECK-LABEL: gpu.module @kernels
// CHECK: llvm.mlir.global external @__dynamic_shmem__0() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
// CHECK: llvm.mlir.global internal @__mbarrier() {addr_space = 3 : i32, alignment = 8 : i64} : !llvm.array<8 x i64>
// CHECK: llvm.mlir.global internal @global_zero() {addr_space = 1 : i32} : !llvm.array<0 x i8>
gpu.module @kernels {
  llvm.mlir.global internal @__dynamic_shmem__0() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
  llvm.mlir.global internal @__mbarrier() {addr_space = 3 : i32, alignment = 8 : i64} : !llvm.array<8 x i64>
  llvm.mlir.global internal @global_zero() {addr_space = 1 : i32} : !llvm.array<0 x i8>
}

// PTX: .extern .shared .align 16 .b8 __dynamic_shmem__0[];
// PTX-NOT: .shared .align 16 .b8 __dynamic_shmem__0;
// PTX: .shared .align 8 .b8 __mbarrier[64];
