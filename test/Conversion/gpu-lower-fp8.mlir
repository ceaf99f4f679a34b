// --amp-gpu-lower-fp8: FP8 conversions in GPU code as NVVM's FP8 cvt.
//
// RUN: amp-opt %s -split-input-file --amp-gpu-lower-fp8 -verify-diagnostics | FileCheck %s
// The PTX: cvt.rn.satfinite.e4m3x2.f32 (sm_90a here; sm_89+ has it).
// RUN: amp-opt %s -split-input-file --amp-gpu-lower-fp8 -verify-diagnostics 2>/dev/null | FileCheck %s --check-prefix=NOFP8

// NOFP8-NOT: arith.truncf {{.*}} to f8
// NOFP8-NOT: arith.extf {{.*}} : f8

// A scalar: the value and 0, the low byte.
// CHECK-LABEL: func.func @trunc_e4m3
// CHECK-SAME: (%[[X:.+]]: f32)
// CHECK: %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[PAIR:.+]] = nvvm.convert.f32x2.to.f8x2 %[[ZERO]], %[[X]] {rnd = #nvvm.fp_rnd_mode<rn>, sat = #nvvm.sat_mode<satfinite>} : vector<2xi8>(f8E4M3FN)
// CHECK: %[[BYTE:.+]] = vector.extract %[[PAIR]][0]
// CHECK: %[[R:.+]] = arith.bitcast %[[BYTE]] : i8 to f8E4M3FN
// CHECK: return %[[R]]
func.func @trunc_e4m3(%x: f32) -> f8E4M3FN {
  %0 = arith.truncf %x : f32 to f8E4M3FN
  return %0 : f8E4M3FN
}

// -----

// f8E5M2: .satfinite saturates at 57344, amp's truncf gives infinities
// from 61440 on: a compare and select each way.
// CHECK-LABEL: func.func @trunc_e5m2_infinities
// CHECK-SAME: (%[[X:.+]]: f32)
// CHECK-DAG: %[[NEGINF:.+]] = arith.constant -4 : i8
// CHECK-DAG: %[[POSINF:.+]] = arith.constant 124 : i8
// CHECK-DAG: %[[NEGBIG:.+]] = arith.constant -6.144000e+04 : f32
// CHECK-DAG: %[[BIG:.+]] = arith.constant 6.144000e+04 : f32
// CHECK: %[[PAIR:.+]] = nvvm.convert.f32x2.to.f8x2 {{.*}}, %[[X]] {{.*}} : vector<2xi8>(f8E5M2)
// CHECK: %[[BITS:.+]] = vector.extract %[[PAIR]][0]
// CHECK: %[[OVER:.+]] = arith.cmpf oge, %[[X]], %[[BIG]]
// CHECK: %[[UNDER:.+]] = arith.cmpf ole, %[[X]], %[[NEGBIG]]
// CHECK: %[[S1:.+]] = arith.select %[[OVER]], %[[POSINF]], %[[BITS]]
// CHECK: %[[S2:.+]] = arith.select %[[UNDER]], %[[NEGINF]], %[[S1]]
// CHECK: arith.bitcast %[[S2]] : i8 to f8E5M2
func.func @trunc_e5m2_infinities(%x: f32) -> f8E5M2 {
  %0 = arith.truncf %x : f32 to f8E5M2
  return %0 : f8E5M2
}

// -----

// ... unless the operand is clamped to the finite range (FP8 narrowing).
// CHECK-LABEL: func.func @trunc_e5m2_clamped
// CHECK: nvvm.convert.f32x2.to.f8x2
// CHECK-NOT: arith.cmpf
// CHECK: return
func.func @trunc_e5m2_clamped(%x: f32) -> f8E5M2 {
  %lo = arith.constant -57344.0 : f32
  %hi = arith.constant 57344.0 : f32
  %a = arith.maximumf %x, %lo : f32
  %b = arith.minimumf %a, %hi : f32
  %0 = arith.truncf %b : f32 to f8E5M2
  return %0 : f8E5M2
}

// -----

// Two scalars of one block whose first result is used after the second:
// one instruction.
// CHECK-LABEL: func.func @pair
// CHECK-SAME: (%[[A:.+]]: f32, %[[B:.+]]: f32, %[[M:.+]]: memref<2xf8E4M3FN>)
// CHECK: %[[PAIR:.+]] = nvvm.convert.f32x2.to.f8x2 %[[B]], %[[A]]
// CHECK-NOT: nvvm.convert
// CHECK-DAG: vector.extract %[[PAIR]][0]
// CHECK-DAG: vector.extract %[[PAIR]][1]
// CHECK: memref.store
// CHECK: memref.store
func.func @pair(%a: f32, %b: f32, %m: memref<2xf8E4M3FN>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %0 = arith.truncf %a : f32 to f8E4M3FN
  %1 = arith.truncf %b : f32 to f8E4M3FN
  memref.store %0, %m[%c0] : memref<2xf8E4M3FN>
  memref.store %1, %m[%c1] : memref<2xf8E4M3FN>
  return
}

// -----

// The first result used before the second truncf: no pair.
// CHECK-LABEL: func.func @no_pair
// CHECK: nvvm.convert.f32x2.to.f8x2
// CHECK: memref.store
// CHECK: nvvm.convert.f32x2.to.f8x2
func.func @no_pair(%a: f32, %b: f32, %m: memref<2xf8E4M3FN>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %0 = arith.truncf %a : f32 to f8E4M3FN
  memref.store %0, %m[%c0] : memref<2xf8E4M3FN>
  %1 = arith.truncf %b : f32 to f8E4M3FN
  memref.store %1, %m[%c1] : memref<2xf8E4M3FN>
  return
}

// -----

// Vectors in pairs; 16-bit sources through f32.
// CHECK-LABEL: func.func @trunc_vector_f16
// CHECK: arith.extf {{.*}} : vector<3xf16> to vector<3xf32>
// CHECK-COUNT-2: nvvm.convert.f32x2.to.f8x2
// CHECK: vector.from_elements {{.*}} : vector<3xi8>
// CHECK: arith.bitcast {{.*}} : vector<3xi8> to vector<3xf8E4M3FN>
func.func @trunc_vector_f16(%x: vector<3xf16>) -> vector<3xf8E4M3FN> {
  %0 = arith.truncf %x : vector<3xf16> to vector<3xf8E4M3FN>
  return %0 : vector<3xf8E4M3FN>
}

// -----

// extf: cvt.rn.f16x2.e4m3x2 of the byte (twice), then exactly to f32.
// CHECK-LABEL: func.func @ext_f32
// CHECK: %[[BITS:.+]] = arith.bitcast %{{.+}} : f8E4M3FN to i8
// CHECK: %[[PAIR:.+]] = vector.broadcast %[[BITS]] : i8 to vector<2xi8>
// CHECK: %[[H:.+]] = nvvm.convert.f8x2.to.f16x2 %[[PAIR]] : vector<2xi8>(f8E4M3FN) -> vector<2xf16>
// CHECK: %[[E:.+]] = vector.extract %[[H]][0]
// CHECK: arith.extf %[[E]] : f16 to f32
func.func @ext_f32(%x: f8E4M3FN) -> f32 {
  %0 = arith.extf %x : f8E4M3FN to f32
  return %0 : f32
}

// -----

// CHECK-LABEL: func.func @ext_vector_bf16
// CHECK: nvvm.convert.f8x2.to.f16x2 {{.*}}(f8E5M2)
// CHECK: arith.extf {{.*}} : vector<2xf16> to vector<2xf32>
// CHECK: arith.truncf {{.*}} : vector<2xf32> to vector<2xbf16>
func.func @ext_vector_bf16(%x: vector<2xf8E5M2>) -> vector<2xbf16> {
  %0 = arith.extf %x : vector<2xf8E5M2> to vector<2xbf16>
  return %0 : vector<2xbf16>
}

// -----

func.func @trunc_f64(%x: f64) -> f8E4M3FN {
  // expected-error @+1 {{amp-gpu-lower-fp8: truncation from 'f64' to FP8 is not supported in GPU code (only from f32, f16 and bf16: rounding f64 to f32 first would round twice)}}
  %0 = arith.truncf %x : f64 to f8E4M3FN
  return %0 : f8E4M3FN
}

// -----

func.func @trunc_rounding_mode(%x: f32) -> f8E4M3FN {
  // expected-error @+1 {{amp-gpu-lower-fp8: truncation to FP8 with rounding mode toward_zero is not supported (PTX rounds FP8 to nearest even only)}}
  %0 = arith.truncf %x toward_zero : f32 to f8E4M3FN
  return %0 : f8E4M3FN
}

// -----

func.func @arithmetic(%x: f8E4M3FN) -> f8E4M3FN {
  // expected-error @+1 {{amp-gpu-lower-fp8: 'arith.addf' on FP8 values in GPU code: only conversions (arith.truncf, arith.extf) are supported; FP8 products run on Tensor Cores}}
  %0 = arith.addf %x, %x : f8E4M3FN
  return %0 : f8E4M3FN
}
