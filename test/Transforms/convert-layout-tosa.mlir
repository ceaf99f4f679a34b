// TOSA convolutions are channels-last already (NHWC inputs, OHWI = FHWC
// weights). Frontends wrap each in NCHW <-> NHWC tosa.transpose ops; the
// pass cancels the pairs between consecutive layers, moving the transposes
// through TOSA elementwise ops (constants of rank 4 are transposed at
// compile time), and keeps the transposes next to skipped layers. The result
// passes TOSA's validation.
// RUN: amp-opt %s --amp-convert-layout | FileCheck %s
// RUN: amp-opt %s --amp-convert-layout | %mlir-opt --tosa-attach-target="specification_version=1.0 profiles=pro_fp" --tosa-validate -o /dev/null
// RUN: amp-opt %s --amp-convert-layout=skip-layers=1 | FileCheck %s --check-prefix=SKIP

// CHECK-LABEL: func.func @torch_style
// CHECK-SAME: (%[[X:.+]]: tensor<1x3x8x8xf32>)
// CHECK: %[[XT:.+]] = tosa.transpose %[[X]] {perms = array<i32: 0, 2, 3, 1>}
// CHECK: %[[C1:.+]] = tosa.conv2d %[[XT]],
// CHECK: %[[R:.+]] = tosa.clamp %[[C1]] {{.*}} : (tensor<1x8x8x4xf32>) -> tensor<1x8x8x4xf32>
// CHECK: %[[S:.+]] = "tosa.const"() <{values = dense<{{\[\[\[\[}}1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00]]]]> : tensor<1x1x1x4xf32>}>
// CHECK: %[[M:.+]] = tosa.mul %[[R]], %[[S]], %{{.+}} : (tensor<1x8x8x4xf32>, tensor<1x1x1x4xf32>, tensor<1xi8>) -> tensor<1x8x8x4xf32>
// CHECK: %[[C2:.+]] = tosa.conv2d %[[M]],
// CHECK: %[[OUT:.+]] = tosa.transpose %[[C2]] {perms = array<i32: 0, 3, 1, 2>}
// CHECK: return %[[OUT]]
// Skipping the second convolution keeps its own transposes: the pair in
// front of it does not cancel.
// SKIP-LABEL: func.func @torch_style
// SKIP: tosa.transpose %{{.+}} {perms = array<i32: 0, 2, 3, 1>}
// SKIP: tosa.conv2d
// SKIP: tosa.clamp %{{.+}} : (tensor<1x8x8x4xf32>)
// SKIP: tosa.mul
// SKIP: %[[BACK:.+]] = tosa.transpose %{{.+}} {perms = array<i32: 0, 3, 1, 2>}
// SKIP: %[[KEPT:.+]] = tosa.transpose %[[BACK]] {perms = array<i32: 0, 2, 3, 1>}
// SKIP: tosa.conv2d %[[KEPT]],
// SKIP: tosa.transpose %{{.+}} {perms = array<i32: 0, 3, 1, 2>}
func.func @torch_style(%x: tensor<1x3x8x8xf32>) -> tensor<1x4x8x8xf32> {
  %w1 = "tosa.const"() <{values = dense<0.5> : tensor<4x3x3x3xf32>}> : () -> tensor<4x3x3x3xf32>
  %w2 = "tosa.const"() <{values = dense<0.25> : tensor<4x3x3x4xf32>}> : () -> tensor<4x3x3x4xf32>
  %b = "tosa.const"() <{values = dense<0.0> : tensor<4xf32>}> : () -> tensor<4xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %scale = "tosa.const"() <{values = dense<[[[[1.0]], [[2.0]], [[3.0]], [[4.0]]]]> : tensor<1x4x1x1xf32>}> : () -> tensor<1x4x1x1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %t0 = tosa.transpose %x {perms = array<i32: 0, 2, 3, 1>} : (tensor<1x3x8x8xf32>) -> tensor<1x8x8x3xf32>
  %c1 = tosa.conv2d %t0, %w1, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>}
      : (tensor<1x8x8x3xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x8x8x4xf32>
  %t1 = tosa.transpose %c1 {perms = array<i32: 0, 3, 1, 2>} : (tensor<1x8x8x4xf32>) -> tensor<1x4x8x8xf32>
  %r1 = tosa.clamp %t1 {min_val = 0.0 : f32, max_val = 3.40282347E+38 : f32} : (tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  %m1 = tosa.mul %r1, %scale, %shift : (tensor<1x4x8x8xf32>, tensor<1x4x1x1xf32>, tensor<1xi8>) -> tensor<1x4x8x8xf32>
  %t2 = tosa.transpose %m1 {perms = array<i32: 0, 2, 3, 1>} : (tensor<1x4x8x8xf32>) -> tensor<1x8x8x4xf32>
  %c2 = tosa.conv2d %t2, %w2, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>}
      : (tensor<1x8x8x4xf32>, tensor<4x3x3x4xf32>, tensor<4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x8x8x4xf32>
  %t3 = tosa.transpose %c2 {perms = array<i32: 0, 3, 1, 2>} : (tensor<1x8x8x4xf32>) -> tensor<1x4x8x8xf32>
  return %t3 : tensor<1x4x8x8xf32>
}

// An elementwise op whose other operand is NCHW data (not a transpose, not a
// constant) stops the move: the pair around it stays.
// CHECK-LABEL: func.func @negative_nchw_operand
// CHECK: tosa.transpose %{{.+}} {perms = array<i32: 0, 3, 1, 2>}
// CHECK: tosa.add
// CHECK: tosa.transpose %{{.+}} {perms = array<i32: 0, 2, 3, 1>}
func.func @negative_nchw_operand(%x: tensor<1x8x8x3xf32>, %y: tensor<1x4x8x8xf32>) -> tensor<1x8x8x4xf32> {
  %w = "tosa.const"() <{values = dense<0.5> : tensor<4x1x1x3xf32>}> : () -> tensor<4x1x1x3xf32>
  %b = "tosa.const"() <{values = dense<0.0> : tensor<4xf32>}> : () -> tensor<4xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %c1 = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>}
      : (tensor<1x8x8x3xf32>, tensor<4x1x1x3xf32>, tensor<4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x8x8x4xf32>
  %t1 = tosa.transpose %c1 {perms = array<i32: 0, 3, 1, 2>} : (tensor<1x8x8x4xf32>) -> tensor<1x4x8x8xf32>
  %a = tosa.add %t1, %y : (tensor<1x4x8x8xf32>, tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  %t2 = tosa.transpose %a {perms = array<i32: 0, 2, 3, 1>} : (tensor<1x4x8x8xf32>) -> tensor<1x8x8x4xf32>
  return %t2 : tensor<1x8x8x4xf32>
}
