// RUN: amp-opt %s --amp-mixed-precision="gray-strategy=fewest-casts report=%t.json" -o /dev/null
// RUN: FileCheck %s --input-file=%t.json
// RUN: amp-opt %s --amp-mixed-precision="gray-strategy=fewest-casts report=-" -o /dev/null | FileCheck %s

// CHECK: "target": "f16"
// CHECK: "function": "mlp"
// CHECK-NEXT: "op": "linalg.matmul"
// CHECK-NEXT: "loc": "{{.*}}mixed-precision-report.mlir:[[@LINE+39]]:{{[0-9]+}}"
// CHECK-NEXT: "color": "green"
// CHECK-NEXT: "reason": "default list"
// CHECK-NEXT: "converted": true
// CHECK-NEXT: "compute": "f16"
// CHECK-NEXT: "accumulate": "f32"
// CHECK-NEXT: "output": "f16"
// CHECK: "op": "tosa.tanh"
// CHECK: "color": "gray"
// CHECK-NEXT: "reason": "follows inputs"
// CHECK-NEXT: "converted": true
// CHECK: "op": "tosa.exp"
// CHECK: "color": "red"
// CHECK-NEXT: "reason": "default list"
// CHECK-NEXT: "converted": false
// CHECK: "op": "linalg.matmul"
// CHECK: "color": "red"
// CHECK-NEXT: "reason": "annotation"
// CHECK: "totals": {
// CHECK-NEXT: "ops": 5
// CHECK-NEXT: "green": 2
// CHECK-NEXT: "gray": 1
// CHECK-NEXT: "red": 2
// CHECK-NEXT: "unknown": 0
// CHECK-NEXT: "converted": 3
// CHECK-NEXT: "gray_low": 1
// CHECK-NEXT: "gray_fp32": 0
// CHECK-NEXT: "casts_inserted": 4
// CHECK-NEXT: "cast_bytes": 6144
// CHECK-NEXT: "gray_bytes": 1024
// CHECK-NEXT: "red_bytes": 5120
// CHECK-NEXT: "constants_folded": 1
// CHECK-NEXT: "constant_bytes_before": 1024
// CHECK-NEXT: "constant_bytes_after": 1536
// CHECK-NEXT: "constants_out_of_range": 0
// CHECK-NEXT: "constants_negligible_flushed": 0

func.func @mlp(%x: tensor<16x16xf32>) -> (tensor<16x16xf32>, tensor<16x16xf32>) {
  %w = arith.constant dense<0.5> : tensor<16x16xf32>
  %0 = linalg.matmul ins(%x, %w : tensor<16x16xf32>, tensor<16x16xf32>) outs(%x : tensor<16x16xf32>) -> tensor<16x16xf32>
  %1 = tosa.tanh %0 : (tensor<16x16xf32>) -> tensor<16x16xf32>
  %2 = tosa.exp %1 : (tensor<16x16xf32>) -> tensor<16x16xf32>
  %3 = linalg.matmul {amp.color = #amp.color<red>} ins(%1, %w : tensor<16x16xf32>, tensor<16x16xf32>) outs(%x : tensor<16x16xf32>) -> tensor<16x16xf32>
  %4 = linalg.matmul ins(%1, %3 : tensor<16x16xf32>, tensor<16x16xf32>) outs(%x : tensor<16x16xf32>) -> tensor<16x16xf32>
  return %2, %4 : tensor<16x16xf32>, tensor<16x16xf32>
}
