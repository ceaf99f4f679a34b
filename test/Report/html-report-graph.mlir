// The graph of the HTML report on a small module: edges through the casts
// the conversion inserts carry their types and bytes, ops the report does
// not hold (fills, empty tensors, constants) are looked through, and every
// function gets its inputs and outputs.

// RUN: amp-opt %s --amp-mixed-precision=report=%t.html -o /dev/null
// RUN: %python %S/Inputs/check-html-report.py %t.html --model %s | FileCheck %s --check-prefix=SUMMARY
// RUN: %python -c "import json,re,sys; d=json.loads(re.search(r'amp-report-data\">(.*?)</script>', open(sys.argv[1]).read(), re.S).group(1)); json.dump(d['graph'], sys.stdout, indent=1, sort_keys=True)" %t.html | FileCheck %s

// SUMMARY: OK: 3 ops, 4 io nodes, 5 edges (3 through casts), 2 layers

// Node 0 is the matmul, 1 the exp, 2 the matmul of @second; 3 and 4 are
// @mlp's arguments, 5 its result; 6 @second's argument.
// CHECK:      "edges": [
// CHECK-NEXT:  [
// CHECK-NEXT:   3,
// CHECK-NEXT:   0,
// CHECK-NEXT:   1536,
// CHECK-NEXT:   "f32->f16"
// CHECK:       [
// CHECK-NEXT:   4,
// CHECK-NEXT:   0,
// CHECK-NEXT:   3072,
// CHECK-NEXT:   "f32->f16"
// CHECK:       [
// CHECK-NEXT:   0,
// CHECK-NEXT:   1,
// CHECK-NEXT:   0,
// CHECK-NEXT:   ""
// CHECK:       [
// CHECK-NEXT:   1,
// CHECK-NEXT:   5,
// CHECK-NEXT:   0,
// CHECK-NEXT:   ""
// CHECK:       [
// CHECK-NEXT:   6,
// CHECK-NEXT:   2,
// CHECK:        "f32->f16"
// CHECK:      "functions": [
// CHECK:        "name": "mlp",
// CHECK:        "name": "second",
// CHECK:      "layer": [
// CHECK-NEXT:  0,
// CHECK-NEXT:  0,
// CHECK-NEXT:  1
// CHECK:      "layers": [
// CHECK:        "head": 0,
// CHECK-NEXT:   "kind": "matmul",
// CHECK-NEXT:   "name": "matmul"
// CHECK:      "unmatched": 0

func.func @mlp(%x: tensor<8x32xf32>, %w: tensor<32x16xf32>) -> tensor<8x16xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<8x16xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<8x16xf32>) -> tensor<8x16xf32>
  %mm = linalg.matmul ins(%x, %w : tensor<8x32xf32>, tensor<32x16xf32>) outs(%init : tensor<8x16xf32>) -> tensor<8x16xf32>
  %e = linalg.exp ins(%mm : tensor<8x16xf32>) outs(%empty : tensor<8x16xf32>) -> tensor<8x16xf32>
  return %e : tensor<8x16xf32>
}

func.func @second(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<4x4xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<4x4xf32>) -> tensor<4x4xf32>
  %mm = linalg.matmul ins(%x, %x : tensor<4x4xf32>, tensor<4x4xf32>) outs(%init : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %mm : tensor<4x4xf32>
}
