// The JSON report of --amp-count-layers, to a file or to stdout.
// RUN: amp-opt %s "--amp-count-layers=ops=convolution,linalg.matmul json=%t.json remarks=false" -o /dev/null
// RUN: FileCheck %s --input-file=%t.json
// RUN: amp-opt %s "--amp-count-layers=ops=convolution,linalg.matmul json=-" -o /dev/null | FileCheck %s
// RUN: amp-opt %s "--amp-count-layers=json=-" -o /dev/null 2>/dev/null | FileCheck %s --check-prefix=ALL

// CHECK: "ops": [
// CHECK-NEXT: "convolution",
// CHECK-NEXT: "linalg.matmul"
// CHECK-NEXT: ],
// CHECK-NEXT: "total": 3,
// CHECK-NEXT: "counts": {
// CHECK-NEXT: "linalg.conv_2d_nchw_fchw": 2,
// CHECK-NEXT: "linalg.matmul": 1
// CHECK-NEXT: },
// CHECK-NEXT: "layers": [
// CHECK-NEXT: {
// CHECK-NEXT: "index": 0,
// CHECK-NEXT: "op": "linalg.conv_2d_nchw_fchw",
// CHECK-NEXT: "kind": "convolution",
// CHECK-NEXT: "function": "first",
// CHECK-NEXT: "loc": "{{.*}}count-layers-json.mlir:[[@LINE+24]]:{{[0-9]+}}"
// CHECK: "index": 1,
// CHECK-NEXT: "op": "linalg.matmul",
// CHECK-NEXT: "kind": "matmul",
// CHECK-NEXT: "function": "first",
// CHECK-NEXT: "loc": "{{.*}}count-layers-json.mlir:[[@LINE+21]]:{{[0-9]+}}"
// CHECK: "index": 2,
// CHECK-NEXT: "op": "linalg.conv_2d_nchw_fchw",
// CHECK-NEXT: "kind": "convolution",
// CHECK-NEXT: "function": "second",

// Every op: ops is empty, ops without a layer kind have no "kind".
// ALL: "ops": [],
// ALL-NEXT: "total": 7,
// ALL: "index": 0,
// ALL-NEXT: "op": "func.func",
// ALL-NEXT: "function": "",
// ALL: "index": 1,
// ALL-NEXT: "op": "linalg.conv_2d_nchw_fchw",
// ALL-NEXT: "kind": "convolution",
// ALL-NEXT: "function": "first",

func.func @first(%x: tensor<1x2x6x6xf32>, %w: tensor<2x2x3x3xf32>, %i: tensor<1x2x4x4xf32>, %a: tensor<4x4xf32>)
    -> (tensor<1x2x4x4xf32>, tensor<4x4xf32>) {
  %0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%x, %w : tensor<1x2x6x6xf32>, tensor<2x2x3x3xf32>) outs(%i : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %1 = linalg.matmul ins(%a, %a : tensor<4x4xf32>, tensor<4x4xf32>) outs(%a : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %0, %1 : tensor<1x2x4x4xf32>, tensor<4x4xf32>
}

func.func @second(%x: tensor<1x2x6x6xf32>, %w: tensor<2x2x3x3xf32>, %i: tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32> {
  %0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%x, %w : tensor<1x2x6x6xf32>, tensor<2x2x3x3xf32>) outs(%i : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  return %0 : tensor<1x2x4x4xf32>
}
