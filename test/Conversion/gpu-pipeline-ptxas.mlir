// ptxas accepts every kernel module of the pipeline, per target.
//
// REQUIRES: ptxas
// RUN: amp-opt %S/gpu-pipeline-ptx.mlir --amp-gpu-pipeline="chip=sm_80 format=isa" | %extract-ptx --ptxas %ptxas --arch sm_80 | FileCheck %s
// RUN: amp-opt %S/gpu-pipeline-ptx.mlir --amp-gpu-pipeline="chip=sm_90 format=isa" | %extract-ptx --ptxas %ptxas --arch sm_90 | FileCheck %s
// RUN: amp-opt %S/gpu-pipeline-ptx.mlir --amp-gpu-pipeline="chip=sm_90a format=isa" | %extract-ptx --ptxas %ptxas --arch sm_90a | FileCheck %s
// RUN: amp-opt %S/gpu-conv-to-matmul.mlir --amp-gpu-pipeline="chip=sm_80 format=isa" | %extract-ptx --ptxas %ptxas --arch sm_80 | FileCheck %s
// FP8: wgmma e4m3/e5m2, cvt.rn.satfinite, cvt.rn.f16x2.e4m3x2.
// RUN: amp-opt %S/gpu-pipeline-fp8.mlir --amp-gpu-pipeline="chip=sm_90a format=isa" | %extract-ptx --ptxas %ptxas --arch sm_90a | FileCheck %s

// format=bin and fatbin run ptxas (and fatbinary) themselves.
// RUN: amp-opt %S/gpu-pipeline-ptx.mlir --amp-gpu-pipeline="chip=sm_90a format=bin toolkit=%cuda_root" | FileCheck %s --check-prefix=BIN
// RUN: amp-opt %S/gpu-pipeline-ptx.mlir --amp-gpu-pipeline="chip=sm_80 format=fatbin toolkit=%cuda_root" | FileCheck %s --check-prefix=FATBIN

// CHECK: ptxas {{sm_[0-9a]+}}: {{[0-9]+}} modules, 0 failed
// A cubin is an ELF file; a fatbin starts with its magic number 0xBA55ED50.
// BIN: gpu.binary {{.*}}chip = "sm_90a"{{.*}}ISAToBinaryTimeInMs{{.*}}}, bin = "\7FELF
// FATBIN: gpu.binary {{.*}}chip = "sm_80"{{.*}}ISAToBinaryTimeInMs{{.*}}}, "P\EDU\BA
