// RUN: amp-opt %s "--amp-mixed-precision=weight-only=int8" | FileCheck %s --check-prefixes=INT8,ALL
// RUN: amp-opt %s "--amp-mixed-precision=weight-only=int4-g32" | FileCheck %s --check-prefixes=INT4,ALL
// RUN: amp-opt %s "--amp-mixed-precision=weight-only=int4-g32-asym" | FileCheck %s --check-prefixes=ASYM,ALL
// RUN: amp-opt %s "--amp-mixed-precision=weight-only=e4m3" | FileCheck %s --check-prefixes=E4M3,ALL
// RUN: amp-opt %s "--amp-mixed-precision=weight-only=int4-g64 remarks=true" -o /dev/null 2>&1 | FileCheck %s --check-prefix=G64
// RUN: amp-opt %s "--amp-mixed-precision=weight-only=int4-g32" -o /dev/null 2>&1 | FileCheck %s --check-prefix=QUIET
// RUN: amp-opt %s "--amp-mixed-precision=weight-only=int4-g32 report=%t.json" -o /dev/null 2>/dev/null
// RUN: FileCheck %s --check-prefix=JSON < %t.json
// RUN: amp-opt %s "--amp-plan-precision=weight-only=int4-g32" | FileCheck %s --check-prefix=PLAN
// RUN: amp-opt %s "--amp-plan-precision=weight-only=int4-g32" | amp-opt --amp-apply-precision | amp-opt --cse --canonicalize > %t.applied.mlir
// RUN: amp-opt %s "--amp-mixed-precision=weight-only=int4-g32" 2>/dev/null | sed -e 's/{amp.weights = #amp.weights<"none">} //' | amp-opt --cse --canonicalize > %t.direct.mlir
// RUN: diff %t.direct.mlir %t.applied.mlir
// A second run changes nothing: the dequantizations read 8-bit constants,
// which the constant-payload folding leaves alone (it would store the
// weights in f32 again).
// RUN: amp-opt %s "--amp-mixed-precision=weight-only=int8" 2>/dev/null > %t.int8.mlir
// RUN: amp-opt %t.int8.mlir "--amp-mixed-precision=weight-only=int8" 2>/dev/null | diff %t.int8.mlir -
// RUN: amp-opt %s "--amp-mixed-precision=weight-only=int4-g32-asym" 2>/dev/null > %t.asym.mlir
// RUN: amp-opt %t.asym.mlir "--amp-mixed-precision=weight-only=int4-g32-asym" 2>/dev/null | diff %t.asym.mlir -

// The IR form (docs/weight-only.md): the weight, K-major (channels x K),
// as a constant of stored values (int4: two per byte, the even index in the
// low nibble), its scales (per channel; int4 per group of 32, in f16) and
// zero points (asymmetric int4), and one linalg.generic that dequantizes it
// to f16, read by the matmul only. The activation is truncated to f16; the
// matmul accumulates in f32.
//
// Channel 0 is k%8 - 4: int8 scales it by 4/127 (-4 -> -127, 3 -> 95);
// int4 by 4/7 (-4 -> -7, -3 -> -5: byte 0xB9 = -71; -2 -> -4, -1 -> -2:
// 0xEC = -20); asymmetric int4 by 7/15 with the zero point round(4/(7/15))
// = 9; E4M3 by 4/448 (-4 -> -448).

// The plan pass writes amp.weights where the conversion would use it
// (keeping the user's), and the apply pass makes of it what the conversion
// makes, up to the order of ops and the annotations it removes.
//
// ALL-LABEL: func.func @matmul(
// ALL: arith.truncf %arg0 : tensor<3x32xf32> to tensor<3x32xf16>
// INT8: arith.constant dense<{{\[\[}}-127, -95, -64, -32, 0, 32, 64, 95, {{.*}}]]> : tensor<2x32xi8>
// INT8: arith.constant dense<[0.0314960629, 0.0157480314]> : tensor<2xf32>
// INT8: linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<2x32xi8>, tensor<2xf32>) outs(%{{.*}} : tensor<2x32xf16>)
// INT8: arith.sitofp %{{.*}} : i8 to f32
// INT4: arith.constant dense<{{\[\[}}-71, -20, 32, 84, {{.*}}]]> : tensor<2x16xi8>
// INT4: arith.constant dense<{{\[\[}}5.712890e-01], [2.856450e-01]]> : tensor<2x1xf16>
// INT4: linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<2x16xi8>, tensor<2x1xf16>) outs(%{{.*}} : tensor<2x32xf16>)
// INT4: arith.shrsi
// ASYM: arith.constant dense<{{\[\[}}9], [8]]> : tensor<2x1xi8>
// ASYM: linalg.generic {{.*}} ins(%{{.*}}, %{{.*}}, %{{.*}} : tensor<2x16xi8>, tensor<2x1xf16>, tensor<2x1xi8>) outs(%{{.*}} : tensor<2x32xf16>)
// ASYM: arith.shrui
// ASYM: arith.subi
// E4M3: arith.constant dense<{{\[\[}}-4.480000e+02, {{.*}} : tensor<2x32xf8E4M3FN>
// E4M3: arith.extf %{{.*}} : f8E4M3FN to f32
// ALL: arith.mulf %{{.*}}, %{{.*}} : f32
// ALL: arith.truncf %{{.*}} : f32 to f16
// ALL: linalg.matmul {{.*}} ins(%{{.*}}, %{{.*}} : tensor<3x32xf16>, tensor<2x32xf16>) outs(%{{.*}} : tensor<3x2xf32>)
// ALL-NOT: tensor<32x2xf32>
// ALL: return
// PLAN-LABEL: func.func @matmul(
// PLAN: linalg.matmul {amp.precision = #amp.precision<compute = f16, accumulate = f32, output = f16>, amp.weights = #amp.weights<"int4-g32">}
func.func @matmul(%a: tensor<3x32xf32>) -> tensor<3x2xf32> {
  %w = arith.constant dense<[[-4.0, -2.0], [-3.0, -0.75], [-2.0, 0.5], [-1.0, 1.75], [0.0, -1.0], [1.0, 0.25], [2.0, 1.5], [3.0, -1.25], [-4.0, 0.0], [-3.0, 1.25], [-2.0, -1.5], [-1.0, -0.25], [0.0, 1.0], [1.0, -1.75], [2.0, -0.5], [3.0, 0.75], [-4.0, -2.0], [-3.0, -0.75], [-2.0, 0.5], [-1.0, 1.75], [0.0, -1.0], [1.0, 0.25], [2.0, 1.5], [3.0, -1.25], [-4.0, 0.0], [-3.0, 1.25], [-2.0, -1.5], [-1.0, -0.25], [0.0, 1.0], [1.0, -1.75], [2.0, -0.5], [3.0, 0.75]]> : tensor<32x2xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3x2xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<3x2xf32>) -> tensor<3x2xf32>
  %0 = linalg.matmul ins(%a, %w : tensor<3x32xf32>, tensor<32x2xf32>) outs(%f : tensor<3x2xf32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// A weight that is an argument has no weight-only form: the matmul runs in
// f16 as it would without weight-only=. By default one remark on the
// module counts such contractions; remarks=true gives each its reason.
// ALL-LABEL: func.func @argument(
// ALL: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<3x32xf16>, tensor<32x2xf16>)
// G64-DAG: remark: 'linalg.matmul' keeps its weight, not int4-g64: operand 1, its weight, is not a constant
// QUIET: remark: 1 contraction keeps its weights (weight-only= asked for int4-g32); remarks=true gives a remark for each
// QUIET-NOT: remark
// PLAN-LABEL: func.func @argument(
// PLAN-NOT: amp.weights
// PLAN: return
func.func @argument(%a: tensor<3x32xf32>, %w: tensor<32x2xf32>) -> tensor<3x2xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3x2xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<3x2xf32>) -> tensor<3x2xf32>
  %0 = linalg.matmul ins(%a, %w : tensor<3x32xf32>, tensor<32x2xf32>) outs(%f : tensor<3x2xf32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// Annotations choose per op: "int4-g32" on one matmul, "none" on another,
// whatever weight-only= says; a group larger than K keeps the weight.
// ALL-LABEL: func.func @annotated(
// ALL: linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<2x16xi8>, tensor<2x1xf16>)
// ALL: linalg.matmul {{.*}} ins(%{{.*}}, %{{.*}} : tensor<3x32xf16>, tensor<2x32xf16>)
// ALL: linalg.matmul {amp.weights = #amp.weights<"none">} ins(%{{.*}}, %{{.*}} : tensor<3x32xf16>, tensor<32x2xf16>)
// G64-DAG: remark: 'linalg.matmul' keeps its weight, not int4-g64: its reduction dimension (32) is not a multiple of the group size 64
func.func @annotated(%a: tensor<3x32xf32>) -> (tensor<3x2xf32>, tensor<3x2xf32>) {
  %w = arith.constant dense<[[-4.0, -2.0], [-3.0, -0.75], [-2.0, 0.5], [-1.0, 1.75], [0.0, -1.0], [1.0, 0.25], [2.0, 1.5], [3.0, -1.25], [-4.0, 0.0], [-3.0, 1.25], [-2.0, -1.5], [-1.0, -0.25], [0.0, 1.0], [1.0, -1.75], [2.0, -0.5], [3.0, 0.75], [-4.0, -2.0], [-3.0, -0.75], [-2.0, 0.5], [-1.0, 1.75], [0.0, -1.0], [1.0, 0.25], [2.0, 1.5], [3.0, -1.25], [-4.0, 0.0], [-3.0, 1.25], [-2.0, -1.5], [-1.0, -0.25], [0.0, 1.0], [1.0, -1.75], [2.0, -0.5], [3.0, 0.75]]> : tensor<32x2xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3x2xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<3x2xf32>) -> tensor<3x2xf32>
  %0 = linalg.matmul {amp.weights = #amp.weights<"int4-g32">} ins(%a, %w : tensor<3x32xf32>, tensor<32x2xf32>) outs(%f : tensor<3x2xf32>) -> tensor<3x2xf32>
  %1 = linalg.matmul {amp.weights = #amp.weights<"none">} ins(%a, %w : tensor<3x32xf32>, tensor<32x2xf32>) outs(%f : tensor<3x2xf32>) -> tensor<3x2xf32>
  return %0, %1 : tensor<3x2xf32>, tensor<3x2xf32>
}

// The report: bytes of each weight in f32, in f16 and stored (2x16 bytes
// of values and 2 f16 scales = 36), and the totals.
// JSON: "op": "linalg.matmul",
// JSON: "weights": {
// JSON-NEXT: "format": "int4-g32",
// JSON-NEXT: "activations": "f16",
// JSON-NEXT: "converted": true,
// JSON-NEXT: "bytes_f32": 256,
// JSON-NEXT: "bytes_16": 128,
// JSON-NEXT: "bytes": 36,
// JSON-NEXT: "scales": "f16"
// JSON: "weights": {
// JSON-NEXT: "format": "int4-g32",
// JSON-NEXT: "activations": "f16",
// JSON-NEXT: "converted": false,
// JSON-NEXT: "why": "operand 1, its weight, is not a constant"
// JSON: "weight_only": 2,
// JSON-NEXT: "weight_bytes_f32": 512,
// JSON-NEXT: "weight_bytes_16": 256,
// JSON-NEXT: "weight_bytes": 72

// PLAN-LABEL: func.func @annotated(
// PLAN: amp.weights = #amp.weights<"int4-g32">
// PLAN: amp.weights = #amp.weights<"none">
