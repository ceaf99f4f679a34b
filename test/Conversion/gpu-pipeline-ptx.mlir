// The PTX of --amp-gpu-pipeline (format=isa needs no CUDA toolkit).
//
// RUN: amp-opt %s --amp-gpu-pipeline="chip=sm_80 format=isa" | %extract-ptx | FileCheck %s --check-prefix=SM80
// RUN: amp-opt %s --amp-gpu-pipeline="chip=sm_90 format=isa" | %extract-ptx | FileCheck %s --check-prefix=SM80
// RUN: amp-opt %s --amp-gpu-pipeline="chip=sm_90a format=isa" | %extract-ptx | FileCheck %s --check-prefix=SM90A
// RUN: amp-opt %s --amp-gpu-pipeline="chip=sm_80 format=isa tensor-cores=false" | %extract-ptx | FileCheck %s --check-prefix=SIMT
// RUN: amp-opt %s --amp-gpu-pipeline="chip=sm_80 format=isa" | FileCheck %s --check-prefix=HOST

// SM80: .target sm_{{80|90}}
// SM80-DAG: cp.async.cg.shared.global
// SM80-DAG: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// SM80-DAG: ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16
// SM80-DAG: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// SM80-DAG: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32

// SM90A: .target sm_90a
// SM90A-DAG: mbarrier.init.shared.b64
// SM90A-DAG: mbarrier.try_wait.parity.shared.b64
// SM90A-DAG: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// SM90A-DAG: wgmma.fence.sync.aligned
// SM90A-DAG: wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16
// SM90A-DAG: wgmma.commit_group.sync.aligned
// SM90A-DAG: wgmma.wait_group.sync.aligned
// SM90A-DAG: setmaxnreg.dec.sync.aligned.u32 40;
// SM90A-DAG: setmaxnreg.inc.sync.aligned.u32 232;
// SM90A-DAG: mbarrier.arrive.shared.b64
// SM90A-DAG: bar.sync {{[0-9]+}}, 256;
// bf16 takes wgmma too (bf16 TMA maps); the odd shape takes mma.sync.
// SM90A-DAG: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16
// SM90A-DAG: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// SM90A-NOT: mma.sync.aligned.m16n8k16.row.col.f32.bf16

// SIMT-NOT: mma.sync
// SIMT-NOT: wgmma

// The host side: LLVM dialect, embedded binaries, launches, device memory,
// C interfaces for the harness.
// HOST-LABEL: llvm.func @matmul_f16(
// HOST:         llvm.call @mgpuStreamCreate
// HOST:         llvm.call @mgpuMemAlloc
// HOST:         gpu.launch_func
// HOST:         llvm.call @mgpuStreamSynchronize
// HOST-LABEL: llvm.func @_mlir_ciface_matmul_f16(
// HOST:       gpu.binary @{{.*}} [#gpu.object<#nvvm.target<O = 3, chip = "sm_80", features = "+ptx80">

func.func @matmul_f16(%a: tensor<256x128xf16>, %b: tensor<128x256xf16>) -> tensor<256x256xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<256x256xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<256x256xf32>) -> tensor<256x256xf32>
  %r = linalg.matmul ins(%a, %b : tensor<256x128xf16>, tensor<128x256xf16>)
                     outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %r : tensor<256x256xf32>
}

func.func @matmul_bf16(%a: tensor<64x64xbf16>, %b: tensor<64x64xbf16>) -> tensor<64x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x64xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %r = linalg.matmul ins(%a, %b : tensor<64x64xbf16>, tensor<64x64xbf16>)
                     outs(%c : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}

func.func @matmul_f16_odd(%a: tensor<33x17xf16>, %b: tensor<17x45xf16>) -> tensor<33x45xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<33x45xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<33x45xf32>) -> tensor<33x45xf32>
  %r = linalg.matmul ins(%a, %b : tensor<33x17xf16>, tensor<17x45xf16>)
                     outs(%c : tensor<33x45xf32>) -> tensor<33x45xf32>
  return %r : tensor<33x45xf32>
}
