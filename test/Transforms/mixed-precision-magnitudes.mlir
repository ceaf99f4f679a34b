// RUN: amp-opt %s --amp-mixed-precision --split-input-file | FileCheck %s
// RUN: amp-opt %s --amp-mixed-precision="remarks=true" --split-input-file \
// RUN:   --verify-diagnostics -o /dev/null
// RUN: amp-opt %s --amp-mixed-precision="report=-" --split-input-file \
// RUN:   -o /dev/null | FileCheck %s --check-prefix=REPORT

// Relative magnitudes in the minimum cut: a value of large growth (>= 16x
// the function's inputs, here a sum of 49 elements) is narrowed after the op
// that brings it back down (the division by 49), not before it, where the
// f16 value would overflow. Same cast bytes (1x64 either way); the division
// moves 4 bytes an element more in FP32.

#nhwc = affine_map<(n, h, w, c) -> (n, h, w, c)>
#nc = affine_map<(n, h, w, c) -> (n, c)>
#id = affine_map<(n, c) -> (n, c)>
// CHECK-LABEL: func.func @sum_then_divide_narrowed_after_division
// CHECK: %[[SUM:.+]] = linalg.generic {{.*}} ins(%{{.+}} : tensor<1x7x7x64xf32>) outs(%{{.+}} : tensor<1x64xf32>)
// CHECK-NOT: arith.truncf %[[SUM]]
// CHECK: %[[MEAN:.+]] = linalg.generic {{.*}} ins(%[[SUM]] : tensor<1x64xf32>) outs(%{{.+}} : tensor<1x64xf32>)
// CHECK: arith.divf %{{.+}}, %{{.+}} : f32
// CHECK: %[[LOW:.+]] = arith.truncf %[[MEAN]] : tensor<1x64xf32> to tensor<1x64xf16>
// CHECK: linalg.matmul ins(%[[LOW]], %{{.+}} : tensor<1x64xf16>, tensor<64x10xf16>)
// REPORT: "op": "linalg.generic"
// REPORT: "op": "linalg.generic"
// REPORT-NEXT: "loc": "{{.*}}mixed-precision-magnitudes.mlir:[[@LINE+20]]:{{[0-9]+}}"
// REPORT-NEXT: "color": "gray"
// REPORT-NEXT: "reason": "narrowed after normalization"
// REPORT-NEXT: "converted": false
// REPORT-NEXT: "growth": {
// REPORT-NEXT: "input": 49
// REPORT-NEXT: "result": 1
func.func @sum_then_divide_narrowed_after_division(%x: tensor<1x7x7x64xf32>) -> tensor<1x10xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x64xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1x64xf32>) -> tensor<1x64xf32>
  // expected-remark@+1 {{amp: red (default list), stays in FP32}}
  %sum = linalg.generic {indexing_maps = [#nhwc, #nc], iterator_types = ["parallel", "reduction", "reduction", "parallel"]}
      ins(%x : tensor<1x7x7x64xf32>) outs(%init : tensor<1x64xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %acc, %in : f32
    linalg.yield %s : f32
  } -> tensor<1x64xf32>
  %c49 = arith.constant 49.0 : f32
  // expected-remark@+1 {{amp: gray (narrowed after normalization), stays in FP32; its input grows to 49x the function's inputs and it brings it back to 1x: the value is narrowed after it}}
  %mean = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%sum : tensor<1x64xf32>) outs(%e : tensor<1x64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %d = arith.divf %in, %c49 : f32
    linalg.yield %d : f32
  } -> tensor<1x64xf32>
  %w = arith.constant dense<0.01> : tensor<64x10xf32>
  %e2 = tensor.empty() : tensor<1x10xf32>
  %z2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<1x10xf32>) -> tensor<1x10xf32>
  // expected-remark@+1 {{amp: green}}
  %fc = linalg.matmul ins(%mean, %w : tensor<1x64xf32>, tensor<64x10xf32>) outs(%z2 : tensor<1x10xf32>) -> tensor<1x10xf32>
  return %fc : tensor<1x10xf32>
}

// -----

// The same in TOSA: two reduce_sum (7 and 7), then a multiplication by
// 1/49. The cast goes after the scale (the reshape, free to run in either
// type, follows the cheaper side).
// CHECK-LABEL: func.func @reduce_sum_then_scale_narrowed_after_scale
// CHECK: %[[S2:.+]] = tosa.reduce_sum %{{.+}} {axis = 2 : i32} : (tensor<1x1x7x64xf32>) -> tensor<1x1x1x64xf32>
// CHECK-NOT: tosa.cast %[[S2]]
// CHECK: %[[MEAN:.+]] = tosa.mul %[[S2]], %{{.+}}, %{{.+}} : (tensor<1x1x1x64xf32>, tensor<1x1x1x1xf32>, tensor<1xi8>) -> tensor<1x1x1x64xf32>
// CHECK: tosa.cast %{{.+}} : (tensor<1x{{.+}}x64xf32>) -> tensor<1x{{.+}}x64xf16>
// CHECK: tosa.matmul %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}} : (tensor<1x1x64xf16>, tensor<1x64x10xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x1x10xf32>
// REPORT: "op": "tosa.mul"
// REPORT-NEXT: "loc"
// REPORT-NEXT: "color": "gray"
// REPORT-NEXT: "reason": "narrowed after normalization"
// REPORT-NEXT: "converted": false
func.func @reduce_sum_then_scale_narrowed_after_scale(%x: tensor<1x7x7x64xf32>) -> tensor<1x1x10xf32> {
  // expected-remark@+1 {{amp: red}}
  %s1 = tosa.reduce_sum %x {axis = 1 : i32} : (tensor<1x7x7x64xf32>) -> tensor<1x1x7x64xf32>
  // expected-remark@+1 {{amp: red}}
  %s2 = tosa.reduce_sum %s1 {axis = 2 : i32} : (tensor<1x1x7x64xf32>) -> tensor<1x1x1x64xf32>
  %inv = "tosa.const"() <{values = dense<0.0204081628> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  // expected-remark@+1 {{amp: gray (narrowed after normalization), stays in FP32; its input grows to 49x}}
  %mean = tosa.mul %s2, %inv, %shift : (tensor<1x1x1x64xf32>, tensor<1x1x1x1xf32>, tensor<1xi8>) -> tensor<1x1x1x64xf32>
  %shape = tosa.const_shape {values = dense<[1, 1, 64]> : tensor<3xindex>} : () -> !tosa.shape<3>
  // expected-remark@+1 {{amp: gray}}
  %flat = tosa.reshape %mean, %shape : (tensor<1x1x1x64xf32>, !tosa.shape<3>) -> tensor<1x1x64xf32>
  %w = "tosa.const"() <{values = dense<0.01> : tensor<1x64x10xf32>}> : () -> tensor<1x64x10xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  // expected-remark@+1 {{amp: green}}
  %fc = tosa.matmul %flat, %w, %zp, %zp : (tensor<1x1x64xf32>, tensor<1x64x10xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x1x10xf32>
  return %fc : tensor<1x1x10xf32>
}

// -----

// A division by 2 does not bring the sum back down (its result still grows
// 24.5x): the rule does not apply, and the cheapest placement narrows the
// sum before the division, as without it.
#nhwc = affine_map<(n, h, w, c) -> (n, h, w, c)>
#nc = affine_map<(n, h, w, c) -> (n, c)>
#id = affine_map<(n, c) -> (n, c)>
// CHECK-LABEL: func.func @sum_then_halve_narrowed_before
// CHECK: %[[SUM:.+]] = linalg.generic {{.*}} outs(%{{.+}} : tensor<1x64xf32>)
// CHECK: %[[LOW:.+]] = arith.truncf %[[SUM]] : tensor<1x64xf32> to tensor<1x64xf16>
// CHECK: linalg.generic {{.*}} ins(%[[LOW]] : tensor<1x64xf16>) outs(%{{.+}} : tensor<1x64xf16>)
// REPORT: "function": "sum_then_halve_narrowed_before"
// REPORT-NOT: "reason": "narrowed after normalization"
func.func @sum_then_halve_narrowed_before(%x: tensor<1x7x7x64xf32>) -> tensor<1x10xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x64xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1x64xf32>) -> tensor<1x64xf32>
  // expected-remark@+1 {{amp: red}}
  %sum = linalg.generic {indexing_maps = [#nhwc, #nc], iterator_types = ["parallel", "reduction", "reduction", "parallel"]}
      ins(%x : tensor<1x7x7x64xf32>) outs(%init : tensor<1x64xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %acc, %in : f32
    linalg.yield %s : f32
  } -> tensor<1x64xf32>
  %c2 = arith.constant 2.0 : f32
  // expected-remark@+1 {{amp: gray (follows inputs), inputs 'f16'}}
  %half = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%sum : tensor<1x64xf32>) outs(%e : tensor<1x64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %d = arith.divf %in, %c2 : f32
    linalg.yield %d : f32
  } -> tensor<1x64xf32>
  %w = arith.constant dense<0.01> : tensor<64x10xf32>
  %e2 = tensor.empty() : tensor<1x10xf32>
  %z2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<1x10xf32>) -> tensor<1x10xf32>
  // expected-remark@+1 {{amp: green}}
  %fc = linalg.matmul ins(%half, %w : tensor<1x64xf32>, tensor<64x10xf32>) outs(%z2 : tensor<1x10xf32>) -> tensor<1x10xf32>
  return %fc : tensor<1x10xf32>
}

// -----

// A mean over 4 elements: the sum grows 4x only, below the threshold (16x);
// narrowed before the division.
#id = affine_map<(n, c) -> (n, c)>
#n = affine_map<(n, c) -> (n)>
#n1 = affine_map<(n, c) -> (n, 0)>
// CHECK-LABEL: func.func @small_sum_narrowed_before
// CHECK: %[[SUM:.+]] = linalg.generic {{.*}} outs(%{{.+}} : tensor<8xf32>)
// CHECK: arith.truncf %[[SUM]] : tensor<8xf32> to tensor<8xf16>
// REPORT: "function": "small_sum_narrowed_before"
// REPORT-NOT: "reason": "narrowed after normalization"
func.func @small_sum_narrowed_before(%x: tensor<8x4xf32>, %w: tensor<1x16xf32>) -> tensor<8x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  // expected-remark@+1 {{amp: red}}
  %sum = linalg.generic {indexing_maps = [#id, #n], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<8x4xf32>) outs(%init : tensor<8xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %acc, %in : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  %c4 = arith.constant 4.0 : f32
  %e1 = tensor.empty() : tensor<8x1xf32>
  // expected-remark@+1 {{amp: gray (follows inputs), inputs 'f16'}}
  %mean = linalg.generic {indexing_maps = [#n, #id], iterator_types = ["parallel", "parallel"]}
      ins(%sum : tensor<8xf32>) outs(%e1 : tensor<8x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %d = arith.divf %in, %c4 : f32
    linalg.yield %d : f32
  } -> tensor<8x1xf32>
  %e2 = tensor.empty() : tensor<8x16xf32>
  %z2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<8x16xf32>) -> tensor<8x16xf32>
  // expected-remark@+1 {{amp: green}}
  %fc = linalg.matmul ins(%mean, %w : tensor<8x1xf32>, tensor<1x16xf32>) outs(%z2 : tensor<8x16xf32>) -> tensor<8x16xf32>
  return %fc : tensor<8x16xf32>
}

// -----

// RMS norm: the matmul's result grows 32x (64 terms, weights 0.5); its
// product with the rsqrt of the mean of its squares brings it back to 1, so
// the product runs in FP32 and its result is narrowed for the next matmul.
#id = affine_map<(n, c) -> (n, c)>
#n = affine_map<(n, c) -> (n)>
#v = affine_map<(n) -> (n)>
// CHECK-LABEL: func.func @rms_norm_narrowed_after_normalization
// CHECK: %[[H:.+]] = linalg.matmul ins(%{{.+}}, %{{.+}} : tensor<4x64xf16>, tensor<64x32xf16>) outs(%{{.+}} : tensor<4x32xf32>)
// CHECK-NOT: arith.truncf %[[H]]
// CHECK: %[[Y:.+]] = linalg.generic {{.*}} ins(%[[H]], %{{.+}} : tensor<4x32xf32>, tensor<4xf32>) outs(%{{.+}} : tensor<4x32xf32>)
// CHECK: %[[LOW:.+]] = arith.truncf %[[Y]] : tensor<4x32xf32> to tensor<4x32xf16>
// CHECK: linalg.matmul ins(%[[LOW]], %{{.+}} : tensor<4x32xf16>, tensor<32x8xf16>)
// REPORT: "function": "rms_norm_narrowed_after_normalization"
// REPORT: "reason": "narrowed after normalization"
// REPORT-NEXT: "converted": false
// REPORT-NEXT: "growth": {
// REPORT-NEXT: "input": 32
// REPORT-NEXT: "result": 1
func.func @rms_norm_narrowed_after_normalization(%x: tensor<4x64xf32>) -> tensor<4x8xf32> {
  %zero = arith.constant 0.0 : f32
  %n32 = arith.constant 32.0 : f32
  %eps = arith.constant 1.0e-5 : f32
  %w1 = arith.constant dense<0.5> : tensor<64x32xf32>
  %w2 = arith.constant dense<0.25> : tensor<32x8xf32>
  %e = tensor.empty() : tensor<4x32xf32>
  %i = linalg.fill ins(%zero : f32) outs(%e : tensor<4x32xf32>) -> tensor<4x32xf32>
  // expected-remark@+1 {{amp: green}}
  %h = linalg.matmul ins(%x, %w1 : tensor<4x64xf32>, tensor<64x32xf32>) outs(%i : tensor<4x32xf32>) -> tensor<4x32xf32>
  %er = tensor.empty() : tensor<4xf32>
  %ir = linalg.fill ins(%zero : f32) outs(%er : tensor<4xf32>) -> tensor<4xf32>
  // expected-remark@+1 {{amp: red}}
  %ss = linalg.generic {indexing_maps = [#id, #n], iterator_types = ["parallel", "reduction"]}
      ins(%h : tensor<4x32xf32>) outs(%ir : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.mulf %a, %a : f32
    %s = arith.addf %m, %o : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  // expected-remark@+1 {{amp: red}}
  %r = linalg.generic {indexing_maps = [#v, #v], iterator_types = ["parallel"]}
      ins(%ss : tensor<4xf32>) outs(%er : tensor<4xf32>) {
  ^bb0(%s: f32, %o: f32):
    %m = arith.divf %s, %n32 : f32
    %v = arith.addf %m, %eps : f32
    %q = math.rsqrt %v : f32
    linalg.yield %q : f32
  } -> tensor<4xf32>
  // expected-remark@+1 {{amp: gray (narrowed after normalization), stays in FP32; its input grows to 32x the function's inputs and it brings it back to 1x}}
  %y = linalg.generic {indexing_maps = [#id, #n, #id], iterator_types = ["parallel", "parallel"]}
      ins(%h, %r : tensor<4x32xf32>, tensor<4xf32>) outs(%e : tensor<4x32xf32>) {
  ^bb0(%a: f32, %q: f32, %o: f32):
    %m = arith.mulf %a, %q : f32
    linalg.yield %m : f32
  } -> tensor<4x32xf32>
  %e2 = tensor.empty() : tensor<4x8xf32>
  %z2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<4x8xf32>) -> tensor<4x8xf32>
  // expected-remark@+1 {{amp: green}}
  %out = linalg.matmul ins(%y, %w2 : tensor<4x32xf32>, tensor<32x8xf32>) outs(%z2 : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %out : tensor<4x8xf32>
}
