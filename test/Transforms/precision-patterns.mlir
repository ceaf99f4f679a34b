// populateAmpMixedPrecisionPatterns driven by another pipeline's decisions
// (the test pass's "every matmul to bf16, nothing else"), with the greedy
// driver: both matmuls read bf16 with f32 accumulation; the ReLU, which the
// source leaves alone, stays FP32 and reads the FP32 accumulator; the
// constant weight is folded into a bf16 constant; no round trip, one cast
// per value and type.
// RUN: amp-opt %s --amp-test-precision-patterns=decisions=matmul-bf16 | FileCheck %s

// CHECK-LABEL: func.func @mlp
// CHECK-SAME: (%[[X:.+]]: tensor<8x64xf32>, %[[W1:.+]]: tensor<64x64xf32>)
// CHECK-DAG: %[[W2:.+]] = arith.constant dense<{{.+}}> : tensor<64x16xbf16>
// CHECK-DAG: %[[X16:.+]] = arith.truncf %[[X]] : tensor<8x64xf32> to tensor<8x64xbf16>
// CHECK-DAG: %[[W116:.+]] = arith.truncf %[[W1]] : tensor<64x64xf32> to tensor<64x64xbf16>
// CHECK: %[[H:.+]] = linalg.matmul ins(%[[X16]], %[[W116]] : tensor<8x64xbf16>, tensor<64x64xbf16>) outs(%{{.+}} : tensor<8x64xf32>) -> tensor<8x64xf32>
// CHECK: %[[R:.+]] = linalg.max ins(%[[H]], %{{.+}} : tensor<8x64xf32>, tensor<8x64xf32>)
// CHECK: %[[R16:.+]] = arith.truncf %[[R]] : tensor<8x64xf32> to tensor<8x64xbf16>
// CHECK: %[[Y:.+]] = linalg.matmul ins(%[[R16]], %[[W2]] : tensor<8x64xbf16>, tensor<64x16xbf16>) outs(%{{.+}} : tensor<8x16xf32>) -> tensor<8x16xf32>
// CHECK: return %[[Y]]
// CHECK-NOT: arith.extf
func.func @mlp(%x: tensor<8x64xf32>, %w1: tensor<64x64xf32>) -> tensor<8x16xf32> {
  %w2 = arith.constant dense<0.25> : tensor<64x16xf32>
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<8x64xf32>
  %i1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<8x64xf32>) -> tensor<8x64xf32>
  %h = linalg.matmul ins(%x, %w1 : tensor<8x64xf32>, tensor<64x64xf32>) outs(%i1 : tensor<8x64xf32>) -> tensor<8x64xf32>
  %r = linalg.max ins(%h, %i1 : tensor<8x64xf32>, tensor<8x64xf32>) outs(%e1 : tensor<8x64xf32>) -> tensor<8x64xf32>
  %e2 = tensor.empty() : tensor<8x16xf32>
  %i2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<8x16xf32>) -> tensor<8x16xf32>
  %y = linalg.matmul ins(%r, %w2 : tensor<8x64xf32>, tensor<64x16xf32>) outs(%i2 : tensor<8x16xf32>) -> tensor<8x16xf32>
  return %y : tensor<8x16xf32>
}

// The same decisions on TOSA: tosa.cast, bf16 zero points, f32 accumulation
// (acc_type comes from the op's model).
// CHECK-LABEL: func.func @tosa_matmul
// CHECK-DAG: %[[A:.+]] = tosa.cast %arg0 : (tensor<1x16x32xf32>) -> tensor<1x16x32xbf16>
// CHECK-DAG: %[[B:.+]] = tosa.cast %arg1 : (tensor<1x32x8xf32>) -> tensor<1x32x8xbf16>
// CHECK: tosa.matmul %[[A]], %[[B]], %[[Z:.+]], %[[Z]] : (tensor<1x16x32xbf16>, tensor<1x32x8xbf16>, tensor<1xbf16>, tensor<1xbf16>) -> tensor<1x16x8xf32>
func.func @tosa_matmul(%a: tensor<1x16x32xf32>, %b: tensor<1x32x8xf32>) -> tensor<1x16x8xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.matmul %a, %b, %zp, %zp : (tensor<1x16x32xf32>, tensor<1x32x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x16x8xf32>
  return %0 : tensor<1x16x8xf32>
}
