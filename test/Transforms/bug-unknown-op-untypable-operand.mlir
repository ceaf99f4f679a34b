// RUN: amp-opt %s --amp-plan-precision="unknown-ops=gray target-type=bf16" | FileCheck %s --check-prefix=PLAN
// RUN: amp-opt %s --amp-mixed-precision="unknown-ops=gray target-type=bf16" -o %t.once.mlir
// RUN: amp-opt %t.once.mlir --amp-mixed-precision="unknown-ops=gray target-type=bf16" -o %t.twice.mlir
// RUN: diff %t.once.mlir %t.twice.mlir
// RUN: FileCheck %s --input-file=%t.once.mlir

// Regression test (found by amp-graphgen, seed 3128: "a second run changed
// the IR"): an op without a color (gray with unknown-ops=gray) whose float
// operands include one it cannot retype (the FP32 memref of a memref.store)
// can only stay in FP32, but the plan's sweeps took it for a 16-bit op when
// its inputs were available in 16 bits: the plan wrote a bf16 precision on
// the store, the minimum cut counted on it, the rewrite then refused it and
// inserted a cast the cut had not paid for, and a second run, seeing that
// cast, cut differently. The plan now keeps such an op in FP32 from the
// start.

// PLAN-LABEL: func.func @store_of_low_value
// PLAN: memref.store %{{.+}}, %{{.+}}[%{{.+}}] {amp.color = #amp.color<red>} : memref<4xf32>

// CHECK-LABEL: func.func @store_of_low_value
// CHECK: %[[W:.+]] = arith.extf %{{.+}} : bf16 to f32
// CHECK: memref.store %[[W]], %{{.+}}[%{{.+}}] : memref<4xf32>
func.func @store_of_low_value(%x: f32, %m: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %v = arith.truncf %x : f32 to bf16
  %w = arith.extf %v : bf16 to f32
  memref.store %w, %m[%c0] : memref<4xf32>
  return
}
