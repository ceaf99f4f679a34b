// Ops of dialects amp does not know. Without --allow-unregistered-dialect
// they do not parse; with it, the pass leaves them (and what only they read)
// in FP32 with a remark, or fails with unknown-ops=error: a non-zero exit and
// no output file.
// RUN: rm -rf %t && mkdir -p %t
// RUN: not amp-opt %s --amp-mixed-precision -o %t/out.mlir 2>&1 | FileCheck %s --check-prefix=PARSE
// RUN: not test -e %t/out.mlir
// RUN: amp-opt %s --allow-unregistered-dialect --amp-mixed-precision -o %t/out.mlir 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: amp-opt %t/out.mlir --allow-unregistered-dialect | FileCheck %s
// RUN: not amp-opt %s --allow-unregistered-dialect --amp-mixed-precision=unknown-ops=error -o %t/error.mlir 2>&1 | FileCheck %s --check-prefix=ERROR
// RUN: not test -e %t/error.mlir

// PARSE: error: operation being parsed with an unregistered dialect

// REMARK: remark: 3 ops of 3 kinds have no mixed-precision color and stay in FP32: foo.opaque (1), foo.yield (1), foo.sink (1)
// ERROR: error: 'foo.opaque' has no mixed-precision color (unknown-ops=error)

// CHECK-LABEL: func.func @unknown_ops
// CHECK: linalg.matmul ins(%{{.+}}, %{{.+}} : tensor<4x4xf16>, tensor<4x4xf16>) outs(%{{.+}} : tensor<4x4xf32>)
// CHECK: "foo.opaque"(%{{.+}}) ({
// CHECK: }) : (tensor<4x4xf32>) -> !foo.type
// CHECK: "foo.sink"(%{{.+}}) : (!foo.type) -> tensor<4x4xf32>
func.func @unknown_ops(%a: tensor<4x4xf32>, %b: tensor<4x4xf32>, %c: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<4x4xf32>, tensor<4x4xf32>) outs(%c : tensor<4x4xf32>) -> tensor<4x4xf32>
  %1 = "foo.opaque"(%0) ({
  ^bb0(%x: f32):
    "foo.yield"(%x) : (f32) -> ()
  }) : (tensor<4x4xf32>) -> !foo.type
  %2 = "foo.sink"(%1) : (!foo.type) -> tensor<4x4xf32>
  return %2 : tensor<4x4xf32>
}
