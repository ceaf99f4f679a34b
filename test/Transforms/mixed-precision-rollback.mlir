// RUN: amp-opt %s --amp-mixed-precision --split-input-file --verify-diagnostics | FileCheck %s
// RUN: amp-opt %s --amp-mixed-precision=accumulate-type=target --split-input-file 2>/dev/null | FileCheck %s --check-prefix=ACC16

// A gray generic whose payload cannot be retyped (an f32 -> bf16 truncation
// would become f16 -> bf16, which arith.truncf does not allow) is restored
// and stays in FP32, with a remark; the surrounding code still converts and
// the IR is valid (regression: the rolled-back rewrite used to leave
// dangling casts behind).
// CHECK-LABEL: func.func @payload_cannot_be_retyped
// CHECK: %[[M:.+]] = linalg.matmul
// CHECK: linalg.generic {{.*}} ins(%[[M]] : tensor<8x8xf32>) outs(%{{.+}} : tensor<8x8xf32>)
// CHECK: arith.truncf %{{.+}} : f32 to bf16
// CHECK: linalg.matmul ins(%{{.+}}, %{{.+}} : tensor<8x8xf16>, tensor<8x8xf16>)
#map = affine_map<(d0, d1) -> (d0, d1)>
func.func @payload_cannot_be_retyped(%a: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %m = linalg.matmul ins(%a, %a : tensor<8x8xf32>, tensor<8x8xf32>) outs(%a : tensor<8x8xf32>) -> tensor<8x8xf32>
  %half = arith.constant 0.5 : f32
  // expected-remark@+1 {{'linalg.generic' stays in FP32: it could not be rebuilt in 'f16'}}
  %0 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]}
      ins(%m : tensor<8x8xf32>) outs(%a : tensor<8x8xf32>) {
  ^bb0(%x: f32, %y: f32):
    %t = arith.mulf %x, %half : f32
    %b = arith.truncf %t : f32 to bf16
    %w = arith.extf %b : bf16 to f32
    linalg.yield %w : f32
  } -> tensor<8x8xf32>
  %r = linalg.matmul ins(%0, %a : tensor<8x8xf32>, tensor<8x8xf32>) outs(%a : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %r : tensor<8x8xf32>
}

// -----

// A generic contraction with accumulate-type=target: the payload widens its
// f16 arguments, computes in f32 as before and rounds what it yields to the
// f16 accumulator (regression: this rewrite used to fail verification).
// ACC16-LABEL: func.func @generic_contraction_f16_accumulator
// ACC16: linalg.generic {{.*}} ins(%{{.+}}, %{{.+}} : tensor<4x8xf16>, tensor<8x4xf16>) outs(%{{.+}} : tensor<4x4xf16>)
// ACC16-NEXT: ^bb0(%{{.+}}: f16, %{{.+}}: f16, %[[OUT:.+]]: f16):
// ACC16: %[[ACC:.+]] = arith.extf %[[OUT]] : f16 to f32
// ACC16: %[[SUM:.+]] = arith.addf %[[ACC]], %{{.+}} : f32
// ACC16: %[[R:.+]] = arith.truncf %[[SUM]] : f32 to f16
// ACC16: linalg.yield %[[R]] : f16
#mk = affine_map<(m, n, k) -> (m, k)>
#kn = affine_map<(m, n, k) -> (k, n)>
#mn = affine_map<(m, n, k) -> (m, n)>
func.func @generic_contraction_f16_accumulator(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>, %c: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %0 = linalg.generic {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<4x8xf32>, tensor<8x4xf32>) outs(%c : tensor<4x4xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}

// -----

// The same with an empty init that only the generic reads (which a model
// retypes in place when its rewrite cannot fail): it stays FP32.
// CHECK-LABEL: func.func @empty_init_restored
// CHECK: %[[E:.+]] = tensor.empty() : tensor<8x8xf32>
// CHECK: linalg.generic {{.*}} outs(%[[E]] : tensor<8x8xf32>)
#map = affine_map<(d0, d1) -> (d0, d1)>
func.func @empty_init_restored(%a: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %m = linalg.matmul ins(%a, %a : tensor<8x8xf32>, tensor<8x8xf32>) outs(%a : tensor<8x8xf32>) -> tensor<8x8xf32>
  %half = arith.constant 0.5 : f32
  %e = tensor.empty() : tensor<8x8xf32>
  // expected-remark@+1 {{'linalg.generic' stays in FP32: it could not be rebuilt in 'f16'}}
  %0 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]}
      ins(%m : tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) {
  ^bb0(%x: f32, %y: f32):
    %t = arith.mulf %x, %half : f32
    %b = arith.truncf %t : f32 to bf16
    %w = arith.extf %b : bf16 to f32
    linalg.yield %w : f32
  } -> tensor<8x8xf32>
  %r = linalg.matmul ins(%0, %a : tensor<8x8xf32>, tensor<8x8xf32>) outs(%a : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %r : tensor<8x8xf32>
}

// -----

// A converted result is given as it is to the ops the plan converts later;
// one of them whose rewrite then fails reads it through a cast back to FP32
// instead, and the others keep reading it in f16. With accumulate-type=target
// the two generics have the same signature (regression: they had one trial
// key, which left payloads out, so the second rewrite was taken for one that
// cannot fail and its failure stopped the pass).
// CHECK-LABEL: func.func @failed_consumer_reads_view
// ACC16-LABEL: func.func @failed_consumer_reads_view
// ACC16: linalg.generic {{.*}} ins(%{{.+}} : tensor<8x8xf32>) outs(%{{.+}} : tensor<8x8xf32>)
// ACC16: arith.truncf %{{.+}} : f32 to bf16
// CHECK: %[[RELU:.+]] = linalg.generic {{.*}} ins(%{{.+}} : tensor<8x8xf16>) outs(%{{.+}} : tensor<8x8xf16>)
// CHECK: %[[VIEW:.+]] = arith.extf %[[RELU]] : tensor<8x8xf16> to tensor<8x8xf32>
// CHECK: %[[KEPT:.+]] = linalg.generic {{.*}} ins(%[[VIEW]] : tensor<8x8xf32>) outs(%{{.+}} : tensor<8x8xf32>)
// CHECK: %[[LOW:.+]] = arith.truncf %[[KEPT]] : tensor<8x8xf32> to tensor<8x8xf16>
// CHECK: linalg.matmul ins(%[[LOW]], %[[RELU]] : tensor<8x8xf16>, tensor<8x8xf16>)
#map = affine_map<(d0, d1) -> (d0, d1)>
func.func @failed_consumer_reads_view(%a: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %m = linalg.matmul ins(%a, %a : tensor<8x8xf32>, tensor<8x8xf32>) outs(%a : tensor<8x8xf32>) -> tensor<8x8xf32>
  %zero = arith.constant 0.0 : f32
  %relu = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]}
      ins(%m : tensor<8x8xf32>) outs(%a : tensor<8x8xf32>) {
  ^bb0(%x: f32, %y: f32):
    %r = arith.maximumf %x, %zero : f32
    linalg.yield %r : f32
  } -> tensor<8x8xf32>
  %half = arith.constant 0.5 : f32
  // expected-remark@+1 {{'linalg.generic' stays in FP32: it could not be rebuilt in 'f16'}}
  %0 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]}
      ins(%relu : tensor<8x8xf32>) outs(%a : tensor<8x8xf32>) {
  ^bb0(%x: f32, %y: f32):
    %t = arith.mulf %x, %half : f32
    %b = arith.truncf %t : f32 to bf16
    %w = arith.extf %b : bf16 to f32
    linalg.yield %w : f32
  } -> tensor<8x8xf32>
  %r = linalg.matmul ins(%0, %relu : tensor<8x8xf32>, tensor<8x8xf32>) outs(%a : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %r : tensor<8x8xf32>
}
