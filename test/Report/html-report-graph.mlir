// The graph of the HTML report on a small module: edges through the casts
// the conversion inserts carry their types and bytes, ops the report does
// not hold (fills, empty tensors, constants) are looked through, and every
// function gets its inputs and outputs.

// RUN: amp-opt %s --amp-mixed-precision=report=%t.html -o /dev/null
// RUN: %python %S/Inputs/check-html-report.py %t.html --model %s | FileCheck %s --check-prefix=SUMMARY
// RUN: %python -c "import json,re,sys; d=json.loads(re.search(r'amp-report-data\">(.*?)</script>', open(sys.argv[1]).read(), re.S).group(1))['graph']; [print(k, json.dumps(d[k], sort_keys=True)) for k in sorted(d) if k != 'edges']; [print('edge', json.dumps(e)) for e in d['edges']]" %t.html | FileCheck %s

// SUMMARY: OK: 3 ops, 5 io nodes, 6 edges (3 through casts), 2 layers

// Nodes 0-2 are the report's ops: @mlp's matmul and exp, @second's matmul;
// then the io nodes: 3 and 4 @mlp's arguments, 5 its result, 6 @second's
// argument, 7 its result. The matmuls read their arguments through casts
// to f16 (elements x 6 bytes: 256 x 6, 512 x 6, 16 x 6); the fill of the
// accumulator and the constant are looked through; the matmul of @mlp
// writes f32 for the exp, so no cast between them.
// CHECK:      functions [{"inputs": [3, 4], "name": "mlp", "outputs": [5]}, {"inputs": [6], "name": "second", "outputs": [7]}]
// CHECK-NEXT: io [{"function": "mlp", "kind": "input", "name": "%arg0", "type": "tensor<8x32xf32>"}, {"function": "mlp", "kind": "input", "name": "%arg1", "type": "tensor<32x16xf32>"}, {"function": "mlp", "kind": "output", "name": "result 0", "type": "tensor<8x16xf32>"}, {"function": "second", "kind": "input", "name": "%arg0", "type": "tensor<4x4xf32>"}, {"function": "second", "kind": "output", "name": "result 0", "type": "tensor<4x4xf32>"}]
// CHECK-NEXT: layer [0, 0, 1]
// CHECK-NEXT: layers [{"function": "mlp", "head": 0, "kind": "matmul", "name": "matmul"}, {"function": "second", "head": 2, "kind": "matmul", "name": "matmul"}]
// CHECK-NEXT: unmatched 0
// CHECK-NEXT: edge [3, 0, 1536, "f32->f16"]
// CHECK-NEXT: edge [4, 0, 3072, "f32->f16"]
// CHECK-NEXT: edge [0, 1, 0, ""]
// CHECK-NEXT: edge [1, 5, 0, ""]
// CHECK-NEXT: edge [6, 2, 96, "f32->f16"]
// CHECK-NEXT: edge [2, 7, 0, ""]

// The ops gain their types in the converted module and their source line
// (every '<' escaped, as everywhere in the data element).
// RUN: FileCheck %s --check-prefix=OPS < %t.html
// OPS: "op":"linalg.matmul","output":"f16","reason":"default list","source":"%mm = linalg.matmul ins(%x, %w : tensor\u003c8x32xf32>, tensor\u003c32x16xf32>) outs(%init : tensor\u003c8x16xf32>) -> tensor\u003c8x16xf32>","types":"(tensor\u003c8x32xf16>, tensor\u003c32x16xf16>, tensor\u003c8x16xf32>) -> tensor\u003c8x16xf32>"

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
