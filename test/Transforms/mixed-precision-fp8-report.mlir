// The report of an FP8 conversion: the FP8 target and the fallback type;
// each converted contraction with the scale of each FP8 operand and where it
// came from; each contraction left in the fallback type with the reason.
// RUN: amp-opt %s "--amp-mixed-precision=target-type=f8E4M3FN weight-scales=per-channel ranges=%S/Inputs/fp8-ranges.json report=%t.json" -o /dev/null 2>/dev/null
// RUN: FileCheck %s < %t.json
// The HTML report holds the same records.
// RUN: amp-opt %s "--amp-mixed-precision=target-type=f8E4M3FN ranges=%S/Inputs/fp8-ranges.json report=%t.html" -o /dev/null 2>/dev/null
// RUN: FileCheck %s --check-prefix=HTML < %t.html

// CHECK: "target": "f8E4M3FN",
// CHECK-NEXT: "fallback": "f16",
// The converted matmul (FP8 records come first).
// CHECK: "function": "no_scale",
// CHECK-NEXT: "op": "linalg.matmul",
// CHECK: "reason": "default list",
// CHECK-NEXT: "converted": true,
// CHECK-NEXT: "compute": "f8E4M3FN",
// CHECK-NEXT: "accumulate": "f32",
// CHECK-NEXT: "output": "f32",
// CHECK-NEXT: "fp8": {
// CHECK-NEXT: "type": "f8E4M3FN",
// CHECK-NEXT: "converted": true,
// CHECK-NEXT: "scales": [
// CHECK-NEXT: {
// CHECK-NEXT: "operand": 0,
// CHECK-NEXT: "from": "ranges",
// CHECK-NEXT: "max_abs": 4,
// CHECK-NEXT: "scale": 112,
// CHECK-NEXT: "channels": 1
// CHECK-NEXT: },
// CHECK-NEXT: {
// CHECK-NEXT: "operand": 1,
// CHECK-NEXT: "from": "constant per channel",
// CHECK-NEXT: "max_abs": 2,
// CHECK-NEXT: "scale": 224,
// CHECK-NEXT: "channels": 3
// The matmul without a scale for its second operand.
// CHECK: "op": "linalg.matmul",
// CHECK: "color": "green",
// CHECK-NEXT: "reason": "no fp8 scale",
// CHECK-NEXT: "converted": true,
// CHECK-NEXT: "compute": "f16",
// CHECK: "fp8": {
// CHECK-NEXT: "type": "f8E4M3FN",
// CHECK-NEXT: "converted": false,
// CHECK-NEXT: "why": "operand 1 has no scale: no range observed on sample inputs (ranges=) and no static range proven bounded and reached"
// The depthwise convolution, which has no FP8 form.
// CHECK: "op": "linalg.depthwise_conv_2d_nchw_chw",
// CHECK: "reason": "no fp8 form",
// CHECK-NEXT: "converted": true,
// CHECK-NEXT: "compute": "f16",
// CHECK: "why": "it has no FP8 form
// CHECK: "totals": {
// CHECK: "converted": 3,
// CHECK-NEXT: "fp8": 1,

// HTML: "fallback":"f16"
// HTML: "reason":"no fp8 scale"

func.func @no_scale(%a: tensor<2x4xf32>, %b: tensor<4x3xf32>, %d: tensor<1x2x6x6xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<1x2x4x4xf32>) {
  %w = arith.constant dense<[[1.0, -2.0, 0.5], [2.0, 0.25, -1.0], [0.0, 1.0, 2.0], [-0.5, 1.0, 1.0]]> : tensor<4x3xf32>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x3xf32>
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<2x3xf32>) -> tensor<2x3xf32>
  %0 = linalg.matmul ins(%a, %w : tensor<2x4xf32>, tensor<4x3xf32>) outs(%c : tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = linalg.matmul ins(%a, %b : tensor<2x4xf32>, tensor<4x3xf32>) outs(%c : tensor<2x3xf32>) -> tensor<2x3xf32>
  %dw = arith.constant dense<0.5> : tensor<2x3x3xf32>
  %ed = tensor.empty() : tensor<1x2x4x4xf32>
  %cd = linalg.fill ins(%z : f32) outs(%ed : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %2 = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%d, %dw : tensor<1x2x6x6xf32>, tensor<2x3x3xf32>) outs(%cd : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  return %0, %1, %2 : tensor<2x3xf32>, tensor<2x3xf32>, tensor<1x2x4x4xf32>
}
