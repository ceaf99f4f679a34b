// Regression test (GPU differential campaign 3, amp-graphgen seed 3135): a
// batch matmul of a value with itself. Converted to f16, both operands are
// the same cast; the Tensor Core kernel evaluates that producer for A and
// for B, and erased it once per operand: the second time, an op already
// freed (a use-after-free that crashed amp-compile now and then; valgrind
// and ASan see it every time). Each producer is now erased once.
// RUN: amp-opt %s --amp-mixed-precision --amp-gpu-pipeline="chip=sm_90a format=isa" | FileCheck %s
// RUN: amp-opt %s --amp-mixed-precision --amp-gpu-pipeline="chip=sm_80 format=isa" | FileCheck %s
// RUN: amp-opt %s --amp-mixed-precision --amp-gpu-pipeline="chip=sm_80 format=isa" -mlir-print-ir-after=amp-gpu-matmul-to-mma 2>&1 >/dev/null | FileCheck %s --check-prefix=MMA

// CHECK: gpu.binary
// MMA: mma.sync
func.func @square(%x: tensor<4x32x32xf32>) -> tensor<4x32x32xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<4x32x32xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<4x32x32xf32>) -> tensor<4x32x32xf32>
  %y = linalg.batch_matmul ins(%x, %x : tensor<4x32x32xf32>, tensor<4x32x32xf32>) outs(%init : tensor<4x32x32xf32>) -> tensor<4x32x32xf32>
  return %y : tensor<4x32x32xf32>
}
