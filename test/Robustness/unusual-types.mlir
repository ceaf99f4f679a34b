// Ops on types the pass does not convert (f64, f8, complex, memrefs, unranked
// and encoded tensors, scalars of other widths) or converts with care
// (dynamic, zero-sized and rank-0 tensors, inputs already in f16): the pass
// succeeds, leaves what it cannot convert alone, and the result verifies and
// parses again.
// RUN: amp-opt %s --amp-mixed-precision | amp-opt | FileCheck %s
// RUN: amp-opt %s --amp-mixed-precision=target-type=bf16 | amp-opt | FileCheck %s --check-prefix=BF16

// CHECK-LABEL: func.func @f64_matmul
// CHECK: linalg.matmul ins(%{{.+}}, %{{.+}} : tensor<4x4xf64>, tensor<4x4xf64>) outs(%{{.+}} : tensor<4x4xf64>)
// CHECK-LABEL: func.func @f8_add
// CHECK: arith.addf %{{.+}}, %{{.+}} : tensor<4xf8E4M3FN>
// CHECK-LABEL: func.func @complex
// CHECK: complex.add %{{.+}}, %{{.+}} : complex<f32>
// CHECK-LABEL: func.func @vector
// CHECK: math.exp %{{.+}} : vector<4xf32>
// CHECK-LABEL: func.func @memref_matmul
// CHECK: linalg.matmul ins(%{{.+}}, %{{.+}} : memref<4x4xf32>, memref<4x4xf32>) outs(%{{.+}} : memref<4x4xf32>)
// CHECK-LABEL: func.func @unranked
// CHECK: math.tanh %{{.+}} : tensor<*xf32>
// CHECK-LABEL: func.func @dynamic
// CHECK: linalg.matmul ins(%{{.+}}, %{{.+}} : tensor<?x?xf16>, tensor<?x?xf16>) outs(%{{.+}} : tensor<?x?xf32>)
// BF16-LABEL: func.func @dynamic
// BF16: linalg.matmul ins(%{{.+}}, %{{.+}} : tensor<?x?xbf16>, tensor<?x?xbf16>) outs(%{{.+}} : tensor<?x?xf32>)
// CHECK-LABEL: func.func @zero_size
// CHECK: linalg.matmul ins(%{{.+}}, %{{.+}} : tensor<0x4xf16>, tensor<4x0xf16>) outs(%{{.+}} : tensor<0x0xf32>)
// CHECK-LABEL: func.func @rank0
// CHECK: math.exp %{{.+}} : tensor<f32>
// CHECK-LABEL: func.func @encoded
// CHECK: arith.addf %{{.+}}, %{{.+}} : tensor<4xf32, "enc">
// CHECK-LABEL: func.func @already_f16
// CHECK: linalg.matmul ins(%{{.+}}, %{{.+}} : tensor<4x4xf16>, tensor<4x4xf16>) outs(%{{.+}} : tensor<4x4xf32>)
// CHECK-LABEL: func.func @scalar_f32
// CHECK: arith.mulf %{{.+}}, %{{.+}} : f32

func.func @f64_matmul(%a: tensor<4x4xf64>, %b: tensor<4x4xf64>, %c: tensor<4x4xf64>) -> tensor<4x4xf64> {
  %0 = linalg.matmul ins(%a, %b : tensor<4x4xf64>, tensor<4x4xf64>) outs(%c : tensor<4x4xf64>) -> tensor<4x4xf64>
  return %0 : tensor<4x4xf64>
}
func.func @f8_add(%a: tensor<4xf8E4M3FN>) -> tensor<4xf8E4M3FN> {
  %0 = arith.addf %a, %a : tensor<4xf8E4M3FN>
  return %0 : tensor<4xf8E4M3FN>
}
func.func @complex(%a: complex<f32>) -> complex<f32> {
  %0 = complex.add %a, %a : complex<f32>
  return %0 : complex<f32>
}
func.func @vector(%a: vector<4xf32>) -> vector<4xf32> {
  %0 = math.exp %a : vector<4xf32>
  %1 = arith.mulf %0, %a : vector<4xf32>
  return %1 : vector<4xf32>
}
func.func @memref_matmul(%a: memref<4x4xf32>, %b: memref<4x4xf32>, %c: memref<4x4xf32>) {
  linalg.matmul ins(%a, %b : memref<4x4xf32>, memref<4x4xf32>) outs(%c : memref<4x4xf32>)
  return
}
func.func @unranked(%a: tensor<*xf32>) -> tensor<*xf32> {
  %0 = math.tanh %a : tensor<*xf32>
  return %0 : tensor<*xf32>
}
func.func @dynamic(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>, %c: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<?x?xf32>, tensor<?x?xf32>) outs(%c : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}
func.func @zero_size(%a: tensor<0x4xf32>, %b: tensor<4x0xf32>, %c: tensor<0x0xf32>) -> tensor<0x0xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<0x4xf32>, tensor<4x0xf32>) outs(%c : tensor<0x0xf32>) -> tensor<0x0xf32>
  return %0 : tensor<0x0xf32>
}
func.func @rank0(%a: tensor<f32>) -> tensor<f32> {
  %0 = math.exp %a : tensor<f32>
  %1 = arith.addf %0, %a : tensor<f32>
  return %1 : tensor<f32>
}
func.func @encoded(%a: tensor<4xf32, "enc">) -> tensor<4xf32, "enc"> {
  %0 = arith.addf %a, %a : tensor<4xf32, "enc">
  return %0 : tensor<4xf32, "enc">
}
func.func @mixed_int(%a: tensor<4xi32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = arith.sitofp %a : tensor<4xi32> to tensor<4xf32>
  %1 = arith.addf %0, %b : tensor<4xf32>
  return %1 : tensor<4xf32>
}
func.func @already_f16(%a: tensor<4x4xf16>, %b: tensor<4x4xf16>, %c: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<4x4xf16>, tensor<4x4xf16>) outs(%c : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}
func.func @scalar_f32(%a: f32, %b: f32) -> f32 {
  %0 = arith.mulf %a, %b : f32
  %1 = math.sqrt %0 : f32
  return %1 : f32
}
