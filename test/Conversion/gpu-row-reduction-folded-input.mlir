// Regression test (GPU differential campaign 3, amp-graphgen seeds 2127 and
// 2622): tosa.reduce_min of a fill bufferizes to a reduction whose payload
// never reads its input (`minimumf %out, %cst`, the fill's value folded
// in). The row-reduction kernel took the combiner's other operand from the
// cloned payload, found nothing for a value defined outside it, and built
// an op with a null operand (a crash in amp-compile). The constant is now
// used as it is; the kernel reduces it like any contribution.
// RUN: amp-opt %s --amp-prepare-model= --amp-gpu-pipeline="chip=sm_80 format=isa" | FileCheck %s
// RUN: amp-opt %s --amp-prepare-model= --amp-mixed-precision="target-type=bf16" --amp-gpu-pipeline="chip=sm_90a format=isa" | FileCheck %s

// CHECK: gpu.binary
func.func @f0(%arg0: tensor<2xf32>) -> tensor<1x1xf32> {
  %empty = tensor.empty() : tensor<1x3xf32>
  %zero = arith.constant 0.000000e+00 : f32
  %fill = linalg.fill ins(%zero : f32) outs(%empty : tensor<1x3xf32>) -> tensor<1x3xf32>
  %min = tosa.reduce_min %fill {axis = 1 : i32} : (tensor<1x3xf32>) -> tensor<1x1xf32>
  return %min : tensor<1x1xf32>
}
