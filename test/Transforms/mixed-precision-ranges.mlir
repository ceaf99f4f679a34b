// RUN: amp-opt %s --split-input-file --amp-mixed-precision --verify-diagnostics | FileCheck %s
// RUN: amp-opt %s --split-input-file --amp-mixed-precision=range-analysis=dataflow --verify-diagnostics | FileCheck %s
// RUN: amp-opt %s --split-input-file --amp-mixed-precision=gray-strategy=follow --verify-diagnostics | FileCheck %s --check-prefix=FOLLOW

// Decisions made by value ranges (FloatRange.h): an op whose values provably
// leave f16, whose float attributes do not fit it, or that converts integers
// beyond 2048 stays in FP32 in every strategy, with a remark giving the
// range that decided.

#id = affine_map<(d0, d1) -> (d0, d1)>

// A position generator (linalg.index -> float) reaching 63 * 2000 = 126000
// would be inf in f16; the matmul that reads it cannot take it in f16 either.
// CHECK-LABEL: func.func @position_generator_overflow_stays_f32
// CHECK: %[[POS:.+]] = linalg.generic
// CHECK-SAME: outs(%{{.+}} : tensor<4x64xf32>)
// CHECK: linalg.matmul ins(%[[POS]], %{{.+}} : tensor<4x64xf32>, tensor<64x8xf32>)
// FOLLOW-LABEL: func.func @position_generator_overflow_stays_f32
// FOLLOW: linalg.generic
// FOLLOW-SAME: outs(%{{.+}} : tensor<4x64xf32>)
// FOLLOW: linalg.matmul ins(%{{.+}}, %{{.+}} : tensor<4x64xf32>, tensor<64x8xf32>)
func.func @position_generator_overflow_stays_f32(%w: tensor<64x8xf32>) -> tensor<4x8xf32> {
  %empty = tensor.empty() : tensor<4x64xf32>
  %scale = arith.constant 2000.0 : f32
  // expected-remark @below {{'linalg.generic' stays in FP32: value range [0, 126000] leaves f16 (largest finite 65504)}}
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
  // expected-remark @below {{'linalg.matmul' stays in FP32: value range [0, 126000] leaves f16 (largest finite 65504)}}
  %m = linalg.matmul ins(%pos, %w : tensor<4x64xf32>, tensor<64x8xf32>)
                     outs(%init : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %m : tensor<4x8xf32>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>

// A RoPE-style angle table over 4096 positions: f16 holds integers exactly
// only up to 2048, so the positions would move (4095 -> 4096).
// CHECK-LABEL: func.func @rope_positions_not_exact_stay_f32
// CHECK: %[[ANGLES:.+]] = linalg.generic
// CHECK-SAME: ins(%{{.+}} : tensor<4xf32>) outs(%{{.+}} : tensor<4096x4xf32>)
// CHECK: math.cos %[[ANGLES]] : tensor<4096x4xf32>
// FOLLOW-LABEL: func.func @rope_positions_not_exact_stay_f32
// FOLLOW: linalg.generic
// FOLLOW-SAME: ins(%{{.+}} : tensor<4xf32>) outs(%{{.+}} : tensor<4096x4xf32>)
#row = affine_map<(d0, d1) -> (d1)>
func.func @rope_positions_not_exact_stay_f32() -> tensor<4096x4xf32> {
  %inv_freq = arith.constant dense<[1.0, 0.1, 0.01, 0.001]> : tensor<4xf32>
  %empty = tensor.empty() : tensor<4096x4xf32>
  // expected-remark @below {{'linalg.generic' stays in FP32: it converts integers up to 4095 to floats, beyond the exact-integer limit of f16 (2048)}}
  %angles = linalg.generic {indexing_maps = [#row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%inv_freq : tensor<4xf32>) outs(%empty : tensor<4096x4xf32>) {
  ^bb0(%freq: f32, %out: f32):
    %i = linalg.index 0 : index
    %ii = arith.index_cast %i : index to i64
    %pos = arith.sitofp %ii : i64 to f32
    %a = arith.mulf %pos, %freq : f32
    linalg.yield %a : f32
  } -> tensor<4096x4xf32>
  %cos = math.cos %angles : tensor<4096x4xf32>
  return %cos : tensor<4096x4xf32>
}

// -----

// A max-reduction's init, -FLT_MAX, shared by an FP32 reduction and a
// reduction that runs in f16: the FP32 one keeps reading the FP32 fill, the
// f16 one gets its own f16 fill (never extf(truncf(-FLT_MAX)) = -65504).
// CHECK-LABEL: func.func @shared_fill_keeps_fp32_version
// CHECK: %[[FILL:.+]] = linalg.fill ins(%{{.+}} : f32) outs(%{{.+}} : tensor<4xf32>)
// CHECK: linalg.reduce ins(%{{.+}} : tensor<4x16xf32>) outs(%[[FILL]] : tensor<4xf32>)
// FOLLOW-LABEL: func.func @shared_fill_keeps_fp32_version
// FOLLOW-DAG: %[[FILL:.+]] = linalg.fill ins(%{{.+}} : f32) outs(%{{.+}} : tensor<4xf32>)
// FOLLOW-DAG: %[[FILL16:.+]] = linalg.fill ins(%{{.+}} : f16) outs(%{{.+}} : tensor<4xf16>)
// FOLLOW-DAG: linalg.reduce ins(%{{.+}} : tensor<4x16xf32>) outs(%[[FILL]] : tensor<4xf32>)
// FOLLOW-DAG: linalg.reduce ins(%{{.+}} : tensor<4x16xf16>) outs(%[[FILL16]] : tensor<4xf16>)
// FOLLOW-NOT: arith.extf %[[FILL16]]
func.func @shared_fill_keeps_fp32_version(%x: tensor<4x16xf32>, %a: tensor<4x16xf32>, %b: tensor<16x16xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %lowest = arith.constant -3.40282347E+38 : f32
  %e = tensor.empty() : tensor<4xf32>
  %fill = linalg.fill ins(%lowest : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %r1 = linalg.reduce ins(%x : tensor<4x16xf32>) outs(%fill : tensor<4xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %mx = arith.maximumf %in, %acc : f32
      linalg.yield %mx : f32
    }
  %zero = arith.constant 0.0 : f32
  %e2 = tensor.empty() : tensor<4x16xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e2 : tensor<4x16xf32>) -> tensor<4x16xf32>
  %m = linalg.matmul ins(%a, %b : tensor<4x16xf32>, tensor<16x16xf32>)
                     outs(%init : tensor<4x16xf32>) -> tensor<4x16xf32>
  %r2 = linalg.reduce ins(%m : tensor<4x16xf32>) outs(%fill : tensor<4xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %mx = arith.maximumf %in, %acc : f32
      linalg.yield %mx : f32
    }
  return %r1, %r2 : tensor<4xf32>, tensor<4xf32>
}

// -----

// Clamp bounds are attributes: +-128000 does not fit f16 and is not
// +-FLT_MAX ("no bound"), so the clamp stays in FP32, like the linalg
// spelling of the same clip with constant operands.
// CHECK-LABEL: func.func @clamp_bounds_out_of_range_stay_f32
// CHECK: tosa.clamp %{{.+}} {max_val = 1.280000e+05 : f32, min_val = -1.280000e+05 : f32} : (tensor<4x4xf32>) -> tensor<4x4xf32>
// FOLLOW-LABEL: func.func @clamp_bounds_out_of_range_stay_f32
// FOLLOW: tosa.clamp %{{.+}} {max_val = 1.280000e+05 : f32, min_val = -1.280000e+05 : f32} : (tensor<4x4xf32>) -> tensor<4x4xf32>
func.func @clamp_bounds_out_of_range_stay_f32(%a: tensor<1x4x4xf32>, %b: tensor<1x4x4xf32>) -> tensor<4x4xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %m = tosa.matmul %a, %b, %zp, %zp : (tensor<1x4x4xf32>, tensor<1x4x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4xf32>
  %s = tosa.const_shape {values = dense<[4, 4]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %r = tosa.reshape %m, %s : (tensor<1x4x4xf32>, !tosa.shape<2>) -> tensor<4x4xf32>
  // expected-remark @below {{'tosa.clamp' stays in FP32: its float attribute 128000 does not fit f16 (largest finite 65504)}}
  %c = tosa.clamp %r {min_val = -128000.0 : f32, max_val = 128000.0 : f32} : (tensor<4x4xf32>) -> tensor<4x4xf32>
  return %c : tensor<4x4xf32>
}

// -----

// A matmul whose inputs fit f16 but whose output provably does not (64 *
// 300 * 300 = 5.76e6) keeps f16 inputs and an FP32 output: no cast down.
// CHECK-LABEL: func.func @green_output_overflow_keeps_f32_output
// CHECK: %[[M:.+]] = linalg.matmul ins(%{{.+}}, %{{.+}} : tensor<8x64xf16>, tensor<64x8xf16>) outs(%{{.+}} : tensor<8x8xf32>)
// CHECK-NOT: arith.truncf %[[M]]
// CHECK: return %[[M]]
func.func @green_output_overflow_keeps_f32_output() -> tensor<8x8xf32> {
  %a = arith.constant dense<300.0> : tensor<8x64xf32>
  %b = arith.constant dense<300.0> : tensor<64x8xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x8xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
  // expected-remark @below {{'linalg.matmul' keeps f16 inputs with an f32 output: value range [5.76e+06, 5.76e+06] leaves f16 (largest finite 65504)}}
  %m = linalg.matmul ins(%a, %b : tensor<8x64xf32>, tensor<64x8xf32>)
                     outs(%init : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %m : tensor<8x8xf32>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>

// Unknown inputs are unbounded, which is no reason to stay in FP32: a
// generator that stays within f16 (63 * 2 = 126, integers below 2048) and
// arithmetic on arguments convert as before.
// CHECK-LABEL: func.func @negative_bounded_generator_converts
// CHECK: linalg.matmul ins(%{{.+}}, %{{.+}} : tensor<4x64xf16>, tensor<64x8xf16>)
func.func @negative_bounded_generator_converts(%w: tensor<64x8xf32>) -> tensor<4x8xf32> {
  %empty = tensor.empty() : tensor<4x64xf32>
  %scale = arith.constant 2.0 : f32
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
  %m = linalg.matmul ins(%pos, %w : tensor<4x64xf32>, tensor<64x8xf32>)
                     outs(%init : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %m : tensor<4x8xf32>
}
