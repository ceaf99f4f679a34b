// Degenerate shapes compile to GPU code: 1-element matmuls (canonicalization
// folds the loops of their 1-element casts away, leaving a load, a cast and
// a store on the host, which --amp-gpu-device-memory moves into a
// single-thread kernel), 1xN, Nx1, K=1, batch 1, rank-0 tensors, a 1x1
// convolution, a reduction over one element. Every function keeps its
// kernels: the matmuls on Tensor Cores, the rest in SIMT kernels.
//
// RUN: amp-opt %s --split-input-file --amp-mixed-precision --amp-gpu-pipeline="chip=sm_80 format=isa" | FileCheck %s
// RUN: amp-opt %s --split-input-file --amp-mixed-precision --amp-gpu-pipeline="chip=sm_90a format=isa" | FileCheck %s
// RUN: amp-opt %s --split-input-file --amp-mixed-precision=target-type=bf16 --amp-gpu-pipeline="chip=sm_80 format=isa" | FileCheck %s
// RUN: amp-opt %s --split-input-file --amp-gpu-pipeline="chip=sm_80 format=isa" | FileCheck %s

// The input of test/GPU/Inputs/matmul-1x1x1.mlir.
// CHECK-LABEL: llvm.func @matmul_1x1x1
// CHECK:         gpu.launch_func
// CHECK-LABEL: gpu.binary
func.func @matmul_1x1x1(%a: tensor<1x1xf32>, %b: tensor<1x1xf32>) -> tensor<1x1xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x1xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<1x1xf32>) -> tensor<1x1xf32>
  %r = linalg.matmul ins(%a, %b : tensor<1x1xf32>, tensor<1x1xf32>) outs(%c : tensor<1x1xf32>) -> tensor<1x1xf32>
  return %r : tensor<1x1xf32>
}

// -----

// CHECK-LABEL: llvm.func @matmul_1xk_by_kxn
// CHECK:         gpu.launch_func
// CHECK-LABEL: gpu.binary
func.func @matmul_1xk_by_kxn(%a: tensor<1x64xf32>, %b: tensor<64x64xf32>) -> tensor<1x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x64xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<1x64xf32>) -> tensor<1x64xf32>
  %r = linalg.matmul ins(%a, %b : tensor<1x64xf32>, tensor<64x64xf32>) outs(%c : tensor<1x64xf32>) -> tensor<1x64xf32>
  return %r : tensor<1x64xf32>
}

// -----

// CHECK-LABEL: llvm.func @matmul_mxk_by_kx1
// CHECK:         gpu.launch_func
// CHECK-LABEL: gpu.binary
func.func @matmul_mxk_by_kx1(%a: tensor<64x64xf32>, %b: tensor<64x1xf32>) -> tensor<64x1xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x1xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<64x1xf32>) -> tensor<64x1xf32>
  %r = linalg.matmul ins(%a, %b : tensor<64x64xf32>, tensor<64x1xf32>) outs(%c : tensor<64x1xf32>) -> tensor<64x1xf32>
  return %r : tensor<64x1xf32>
}

// -----

// CHECK-LABEL: llvm.func @matmul_k1
// CHECK:         gpu.launch_func
// CHECK-LABEL: gpu.binary
func.func @matmul_k1(%a: tensor<7x1xf32>, %b: tensor<1x3xf32>) -> tensor<7x3xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<7x3xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<7x3xf32>) -> tensor<7x3xf32>
  %r = linalg.matmul ins(%a, %b : tensor<7x1xf32>, tensor<1x3xf32>) outs(%c : tensor<7x3xf32>) -> tensor<7x3xf32>
  return %r : tensor<7x3xf32>
}

// -----

// CHECK-LABEL: llvm.func @batch_matmul_1x1x1x1
// CHECK:         gpu.launch_func
// CHECK-LABEL: gpu.binary
func.func @batch_matmul_1x1x1x1(%a: tensor<1x1x1xf32>, %b: tensor<1x1x1xf32>) -> tensor<1x1x1xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x1x1xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<1x1x1xf32>) -> tensor<1x1x1xf32>
  %r = linalg.batch_matmul ins(%a, %b : tensor<1x1x1xf32>, tensor<1x1x1xf32>) outs(%c : tensor<1x1x1xf32>) -> tensor<1x1x1xf32>
  return %r : tensor<1x1x1xf32>
}

// -----

// CHECK-LABEL: llvm.func @batch_1_matmul
// CHECK:         gpu.launch_func
// CHECK-LABEL: gpu.binary
func.func @batch_1_matmul(%a: tensor<1x16x8xf32>, %b: tensor<1x8x16xf32>) -> tensor<1x16x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x16x16xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<1x16x16xf32>) -> tensor<1x16x16xf32>
  %r = linalg.batch_matmul ins(%a, %b : tensor<1x16x8xf32>, tensor<1x8x16xf32>) outs(%c : tensor<1x16x16xf32>) -> tensor<1x16x16xf32>
  return %r : tensor<1x16x16xf32>
}

// -----

// CHECK-LABEL: llvm.func @conv_1x1x1x1
// CHECK:         gpu.launch_func
// CHECK-LABEL: gpu.binary
func.func @conv_1x1x1x1(%x: tensor<1x1x1x1xf32>, %w: tensor<1x1x1x1xf32>) -> tensor<1x1x1x1xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x1x1x1xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<1x1x1x1xf32>) -> tensor<1x1x1x1xf32>
  %r = linalg.conv_2d_nhwc_hwcf ins(%x, %w : tensor<1x1x1x1xf32>, tensor<1x1x1x1xf32>) outs(%c : tensor<1x1x1x1xf32>) -> tensor<1x1x1x1xf32>
  return %r : tensor<1x1x1x1xf32>
}

// -----

// Rank-0 and 1-element elementwise ops have no loop at all after lowering.
// CHECK-LABEL: llvm.func @rank0_and_one_element
// CHECK:         gpu.launch_func
// CHECK-LABEL: gpu.binary
func.func @rank0_and_one_element(%a: tensor<f32>, %b: tensor<1xf32>) -> (tensor<f32>, tensor<1xf32>) {
  %0 = arith.addf %a, %a : tensor<f32>
  %1 = math.exp %0 : tensor<f32>
  %2 = arith.mulf %b, %b : tensor<1xf32>
  return %1, %2 : tensor<f32>, tensor<1xf32>
}

// -----

// CHECK-LABEL: llvm.func @reduce_one_element
// CHECK:         gpu.launch_func
// CHECK-LABEL: gpu.binary
func.func @reduce_one_element(%x: tensor<1x1xf32>) -> tensor<1xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<1xf32>) -> tensor<1xf32>
  %r = linalg.reduce ins(%x : tensor<1x1xf32>) outs(%c : tensor<1xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  return %r : tensor<1xf32>
}
