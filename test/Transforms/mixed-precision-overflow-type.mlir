// RUN: amp-opt %s --amp-mixed-precision=overflow-type=bf16 --verify-diagnostics | FileCheck %s
// RUN: amp-opt %s --amp-mixed-precision=overflow-type=bf16 --verify-diagnostics | amp-opt --amp-mixed-precision=overflow-type=bf16 | FileCheck %s

// overflow-type=bf16 with an f16 target: ops whose values leave f16 but fit
// bf16 run in bf16, the others in f16, in one function.

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>

// The generator (up to 126000) and the matmul that reads it run in bf16;
// the second matmul, on arguments, runs in f16. (The generator's positions,
// 0 to 63, are exact in every 16-bit type: its values are evaluated ahead
// of time, --amp-fold-constant-payloads, into a table that is stored in
// bf16.)
// CHECK-LABEL: func.func @mixed_f16_and_bf16
// CHECK-DAG: %[[W:.+]] = arith.truncf %{{.+}} : tensor<64x8xf32> to tensor<64x8xbf16>
// CHECK-DAG: %[[W16:.+]] = arith.truncf %{{.+}} : tensor<64x8xf32> to tensor<64x8xf16>
// CHECK-DAG: %[[TABLE:.+]] = arith.constant dense<[0.000000e+00, 2.000000e+03, {{.+}}, 1.259520e+05]> : tensor<64xbf16>
// CHECK: %[[POS:.+]] = linalg.generic
// CHECK-SAME: ins(%[[TABLE]] : tensor<64xbf16>) outs(%{{.+}} : tensor<4x64xbf16>)
// CHECK: linalg.matmul ins(%[[POS]], %[[W]] : tensor<4x64xbf16>, tensor<64x8xbf16>) outs(%{{.+}} : tensor<4x8xf32>)
// CHECK: linalg.matmul ins(%{{.+}}, %[[W16]] : tensor<4x64xf16>, tensor<64x8xf16>) outs(%{{.+}} : tensor<4x8xf32>)
func.func @mixed_f16_and_bf16(%w: tensor<64x8xf32>, %x: tensor<4x64xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %empty = tensor.empty() : tensor<4x64xf32>
  %scale = arith.constant 2000.0 : f32
  // expected-remark @below {{'linalg.generic' runs in bf16 (overflow-type): value range [0, 126000] leaves f16 (largest finite 65504)}}
  %pos = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]}
      outs(%empty : tensor<4x64xf32>) {
  ^bb0(%out: f32):
    %i = linalg.index 1 : index
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    %p = arith.mulf %f, %scale : f32
    linalg.yield %p : f32
  } -> tensor<4x64xf32>
  %zero = arith.constant 0.0 : f32
  %e2 = tensor.empty() : tensor<4x8xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e2 : tensor<4x8xf32>) -> tensor<4x8xf32>
  // expected-remark @below {{'linalg.matmul' runs in bf16 (overflow-type): value range [0, 126000] leaves f16 (largest finite 65504)}}
  %m = linalg.matmul ins(%pos, %w : tensor<4x64xf32>, tensor<64x8xf32>)
                     outs(%init : tensor<4x8xf32>) -> tensor<4x8xf32>
  %n = linalg.matmul ins(%x, %w : tensor<4x64xf32>, tensor<64x8xf32>)
                     outs(%init : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %m, %n : tensor<4x8xf32>, tensor<4x8xf32>
}

// Integers beyond 256 are not exact in bf16 either: the fallback does not
// apply, the generator stays in FP32.
// CHECK-LABEL: func.func @inexact_in_both_stays_f32
// CHECK: linalg.generic
// CHECK-SAME: outs(%{{.+}} : tensor<4096x4xf32>)
func.func @inexact_in_both_stays_f32() -> tensor<4096x4xf32> {
  %inv_freq = arith.constant dense<[1.0, 0.1, 0.01, 0.001]> : tensor<4xf32>
  %empty = tensor.empty() : tensor<4096x4xf32>
  // expected-remark @below {{'linalg.generic' stays in FP32: it converts integers up to 4095 to floats, beyond the exact-integer limit of bf16 (256)}}
  %angles = linalg.generic {indexing_maps = [#row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%inv_freq : tensor<4xf32>) outs(%empty : tensor<4096x4xf32>) {
  ^bb0(%freq: f32, %out: f32):
    %i = linalg.index 0 : index
    %ii = arith.index_cast %i : index to i64
    %pos = arith.sitofp %ii : i64 to f32
    %a = arith.mulf %pos, %freq : f32
    linalg.yield %a : f32
  } -> tensor<4096x4xf32>
  %e = tensor.empty() : tensor<4096x4xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%angles : tensor<4096x4xf32>) outs(%e : tensor<4096x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %c = math.cos %in : f32
    linalg.yield %c : f32
  } -> tensor<4096x4xf32>
  return %r : tensor<4096x4xf32>
}
