// RUN: amp-opt %s --split-input-file --amp-gpu-expand-math -verify-diagnostics | FileCheck %s

// Ops PTX has instructions for become LLVM intrinsics, as calls that the
// NVVM lowering keeps (its llvm.intr.* forms would go to libdevice).
// CHECK-LABEL: func.func @ptx_native_ops_to_intrinsics
// CHECK-SAME:    (%[[X:.+]]: f32, %[[Y:.+]]: f32, %[[Z:.+]]: f32, %[[H:.+]]: f16, %[[I:.+]]: i32)
// CHECK-DAG:     llvm.call_intrinsic "llvm.fma"(%[[X]], %[[Y]], %[[Z]]) : (f32, f32, f32) -> f32
// CHECK-DAG:     llvm.call_intrinsic "llvm.fma"(%[[H]], %[[H]], %[[H]]) : (f16, f16, f16) -> f16
// CHECK-DAG:     llvm.call_intrinsic "llvm.sqrt"(%[[X]]) : (f32) -> f32
// CHECK-DAG:     llvm.call_intrinsic "llvm.fabs"(%[[X]]) : (f32) -> f32
// CHECK-DAG:     llvm.call_intrinsic "llvm.floor"(%[[X]]) : (f32) -> f32
// CHECK-DAG:     llvm.call_intrinsic "llvm.ceil"(%[[X]]) : (f32) -> f32
// CHECK-DAG:     llvm.call_intrinsic "llvm.trunc"(%[[X]]) : (f32) -> f32
// CHECK-DAG:     llvm.call_intrinsic "llvm.roundeven"(%[[X]]) : (f32) -> f32
// CHECK-DAG:     llvm.call_intrinsic "llvm.round"(%[[X]]) : (f32) -> f32
// CHECK-DAG:     llvm.call_intrinsic "llvm.copysign"(%[[X]], %[[Y]]) : (f32, f32) -> f32
// CHECK-DAG:     "llvm.intr.abs"(%[[I]]) <{is_int_min_poison = false}> : (i32) -> i32
// CHECK-DAG:     "llvm.intr.ctlz"(%[[I]]) <{is_zero_poison = false}> : (i32) -> i32
// CHECK-DAG:     "llvm.intr.is.fpclass"(%[[X]]) <{bit = 3 : i32}> : (f32) -> i1
// CHECK-NOT:     math.
func.func @ptx_native_ops_to_intrinsics(%x: f32, %y: f32, %z: f32, %h: f16, %i: i32)
    -> (f32, f16, f32, f32, f32, f32, f32, f32, f32, f32, i32, i32, i1) {
  %0 = math.fma %x, %y, %z : f32
  %1 = math.fma %h, %h, %h : f16
  %2 = math.sqrt %x : f32
  %3 = math.absf %x : f32
  %4 = math.floor %x : f32
  %5 = math.ceil %x : f32
  %6 = math.trunc %x : f32
  %7 = math.roundeven %x : f32
  %8 = math.round %x : f32
  %9 = math.copysign %x, %y : f32
  %10 = math.absi %i : i32
  %11 = math.ctlz %i : i32
  %12 = math.isnan %x : f32
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12
      : f32, f16, f32, f32, f32, f32, f32, f32, f32, f32, i32, i32, i1
}

// -----

// Transcendental functions are expanded into arithmetic (polynomials on the
// mantissa, exponent bits for the scale): no math op, no call is left.
// CHECK-LABEL: func.func @transcendentals_expanded
// CHECK-NOT:     math.
// CHECK-NOT:     llvm.call @
// CHECK-NOT:     func.call
// CHECK:         return
func.func @transcendentals_expanded(%x: f32, %y: f32) -> (f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32) {
  %0 = math.exp %x : f32
  %1 = math.log %x : f32
  %2 = math.tanh %x : f32
  %3 = math.erf %x : f32
  %4 = math.rsqrt %x : f32
  %5 = math.powf %x, %y : f32
  %6 = math.exp2 %x : f32
  %7 = math.log10 %x : f32
  %8 = math.sin %x : f32
  %9 = math.cos %x : f32
  %10 = math.atan %x : f32
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10 : f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32
}

// -----

// 16-bit math is computed in f32 and rounded back once.
// CHECK-LABEL: func.func @f16_and_bf16_in_f32
// CHECK-SAME:    (%[[H:.+]]: f16, %[[B:.+]]: bf16)
// CHECK-DAG:     %[[HX:.+]] = arith.extf %[[H]] {{.*}}: f16 to f32
// CHECK-DAG:     %[[BX:.+]] = arith.extf %[[B]] {{.*}}: bf16 to f32
// CHECK-DAG:     %[[HR:.+]] = arith.truncf %{{.+}} : f32 to f16
// CHECK-DAG:     %[[BR:.+]] = arith.truncf %{{.+}} : f32 to bf16
// CHECK-NOT:     math.
// CHECK:         return %[[HR]], %[[BR]]
func.func @f16_and_bf16_in_f32(%h: f16, %b: bf16) -> (f16, bf16) {
  %0 = math.tanh %h : f16
  %1 = math.exp %b : bf16
  return %0, %1 : f16, bf16
}

// -----

// sin and cos first reduce their argument to [-pi, pi] with 2*pi in three
// parts, one FMA each.
// CHECK-LABEL: func.func @sin_reduces_its_argument
// CHECK-SAME:    (%[[X:.+]]: f32)
// CHECK-DAG:     %[[HI:.+]] = arith.constant 6.281250e+00 : f32
// CHECK:         %[[J:.+]] = llvm.call_intrinsic "llvm.roundeven"
// CHECK:         %[[NJ:.+]] = arith.negf %[[J]]
// CHECK:         %[[R1:.+]] = llvm.call_intrinsic "llvm.fma"(%[[NJ]], %[[HI]], %[[X]])
// CHECK:         %[[R2:.+]] = llvm.call_intrinsic "llvm.fma"(%[[NJ]], %{{.+}}, %[[R1]])
// CHECK:         llvm.call_intrinsic "llvm.fma"(%[[NJ]], %{{.+}}, %[[R2]])
func.func @sin_reduces_its_argument(%x: f32) -> f32 {
  %0 = math.sin %x : f32
  return %0 : f32
}

// -----

// Vectors are handled like scalars.
// CHECK-LABEL: func.func @vector_math
// CHECK:         llvm.call_intrinsic "llvm.sqrt"(%{{.+}}) : (vector<4xf32>) -> vector<4xf32>
// CHECK-NOT:     math.
func.func @vector_math(%v: vector<4xf32>) -> (vector<4xf32>, vector<4xf32>) {
  %0 = math.sqrt %v : vector<4xf32>
  %1 = math.exp %v : vector<4xf32>
  return %0, %1 : vector<4xf32>, vector<4xf32>
}

// -----

// A function there is no expansion for (upstream's approximations are for
// f32) is an error rather than a libdevice call.
func.func @negative_f64_exp_is_an_error(%x: f64) -> f64 {
  // expected-error @+1 {{amp-gpu-expand-math: no expansion for 'math.exp' on 'f64' (GPU code cannot call libdevice)}}
  %0 = math.exp %x : f64
  return %0 : f64
}

// -----

// A float remainder (C's fmod) becomes an exact long division: |y| doubled
// up to |x|, then halved back down, subtracted wherever it fits; the sign
// of x; NaN or x for the special cases. 16-bit operands in f32.
// CHECK-LABEL: func.func @remf_is_a_long_division
// CHECK-SAME:    (%[[X:.+]]: f32, %[[Y:.+]]: f32, %[[H:.+]]: f16)
// CHECK:         scf.while
// CHECK:           arith.mulf
// CHECK:           arith.cmpf ole
// CHECK:         scf.while
// CHECK:           arith.cmpf oge
// CHECK:           arith.subf
// CHECK:         llvm.call_intrinsic "llvm.copysign"
// CHECK:         arith.extf %[[H]] : f16 to f32
// CHECK:         scf.while
// CHECK:         scf.while
// CHECK:         arith.truncf {{.*}} : f32 to f16
// CHECK-NOT:     arith.remf
func.func @remf_is_a_long_division(%x: f32, %y: f32, %h: f16) -> (f32, f16) {
  %0 = arith.remf %x, %y : f32
  %1 = arith.remf %h, %h : f16
  return %0, %1 : f32, f16
}

// -----

// A vector remainder has no expansion (the GPU pipeline's kernels are
// scalar): an error, not a libdevice call.
func.func @negative_vector_remf_is_an_error(%x: vector<4xf32>) -> vector<4xf32> {
  // expected-error @+1 {{amp-gpu-expand-math: no expansion for 'arith.remf' on 'vector<4xf32>' (GPU code cannot call libdevice)}}
  %0 = arith.remf %x, %x : vector<4xf32>
  return %0 : vector<4xf32>
}
