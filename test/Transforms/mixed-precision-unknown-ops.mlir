// RUN: amp-opt %s --split-input-file --allow-unregistered-dialect --amp-mixed-precision --verify-diagnostics | FileCheck %s --check-prefix=RED
// RUN: amp-opt %s --split-input-file --allow-unregistered-dialect --amp-mixed-precision=unknown-ops=gray | FileCheck %s --check-prefix=GRAY
// RUN: amp-opt %s --split-input-file --allow-unregistered-dialect --amp-mixed-precision=gray=foo.scale | FileCheck %s --check-prefix=GRAY
// RUN: amp-opt %s --split-input-file --allow-unregistered-dialect --amp-mixed-precision=remarks=true 2>&1 >/dev/null | FileCheck %s --check-prefix=EACH

// An op amp knows nothing about stays in FP32 by default; it can be told to
// follow its inputs. The registered ops around it convert. By default the
// pass says once per function which kinds of ops it did not know, with
// counts (a real model has hundreds of such ops); remarks=true says it at
// each op.
// RED-LABEL: func.func @unknown_op
// RED: %[[M:.+]] = linalg.matmul
// RED: %[[S:.+]] = "foo.scale"(%[[M]]) : (tensor<8x8xf32>) -> tensor<8x8xf32>
// RED: %[[S16:.+]] = arith.truncf %[[S]]
// RED: linalg.matmul ins(%[[S16]]
// GRAY-LABEL: func.func @unknown_op
// GRAY: %[[M:.+]] = linalg.matmul
// GRAY: %[[M16:.+]] = arith.truncf %[[M]]
// GRAY: %[[S:.+]] = "foo.scale"(%[[M16]]) : (tensor<8x8xf16>) -> tensor<8x8xf16>
// GRAY: linalg.matmul ins(%[[S]]
// EACH: :[[# @LINE + 4]]:8: remark: amp: red (unknown op), stays in FP32
// expected-remark@+1 {{1 op of 1 kind has no mixed-precision color and stays in FP32: foo.scale (1); remarks=true lists each, green=, gray=, red= or amp.color choose a color}}
func.func @unknown_op(%a: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %m = linalg.matmul ins(%a, %a : tensor<8x8xf32>, tensor<8x8xf32>) outs(%a : tensor<8x8xf32>) -> tensor<8x8xf32>
  %s = "foo.scale"(%m) : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %r = linalg.matmul ins(%s, %a : tensor<8x8xf32>, tensor<8x8xf32>) outs(%a : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %r : tensor<8x8xf32>
}

// -----

// Ops without float data are not unknown ops: no remark.
// RED-LABEL: func.func @no_float_data
func.func @no_float_data(%i: i32) -> i32 {
  %r = "foo.count"(%i) : (i32) -> i32
  return %r : i32
}

// -----

// Several kinds, counted in the order they appear.
// expected-remark@+1 {{4 ops of 2 kinds have no mixed-precision color and stay in FP32: foo.a (3), foo.b (1); remarks=true lists each}}
func.func @kinds(%x: tensor<8xf32>) -> tensor<8xf32> {
  %a = "foo.a"(%x) : (tensor<8xf32>) -> tensor<8xf32>
  %b = "foo.b"(%a) : (tensor<8xf32>) -> tensor<8xf32>
  %c = "foo.a"(%b) : (tensor<8xf32>) -> tensor<8xf32>
  %d = "foo.a"(%c) : (tensor<8xf32>) -> tensor<8xf32>
  return %d : tensor<8xf32>
}

// -----

// A weight whose data was elided from the file (printed with
// --mlir-elide-resource-strings-if-larger) is named as such, not as an op
// without a color; it stays FP32 and the matmul reads it narrowed.
// RED-LABEL: func.func @elided
// RED: %[[W:.+]] = arith.constant dense_resource<__elided__> : tensor<8x16xf32>
// RED: %[[W16:.+]] = arith.truncf %[[W]]
// RED: linalg.matmul ins(%{{.+}}, %[[W16]] : tensor<4x8xf16>, tensor<8x16xf16>)
// EACH: :[[# @LINE + 3]]:8: remark: this constant's data is not in the file (an elided dense_resource): it stays in FP32
// expected-remark@+1 {{2 constants have no data in the file (elided dense_resource): kept in FP32 and converted where read}}
func.func @elided(%a: tensor<4x8xf32>) -> tensor<4x16xf32> {
  %w = arith.constant dense_resource<__elided__> : tensor<8x16xf32>
  %b = arith.constant dense_resource<__elided__> : tensor<4x16xf32>
  %m = linalg.matmul ins(%a, %w : tensor<4x8xf32>, tensor<8x16xf32>) outs(%b : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %m : tensor<4x16xf32>
}
