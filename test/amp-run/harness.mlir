// Models shipped with a harness: amp-run picks the kernel (the only public
// function that takes tensors), removes the printing and timing calls, turns
// the tensors the kernel prints into outputs and drops @main.

// RUN: amp-run %s --runs 1 | FileCheck %s
// CHECK: @kernel, pipeline 'amp-mixed-precision', seed 0, 5 harness ops removed
// CHECK: result0 4x8 f32
// CHECK-NEXT: printMemrefF32#0 4x8 f32
// CHECK-NEXT: printMemrefF32#1 4x16 f32
// CHECK-NEXT: overall

// A tensor printed inside a loop is not available at the return: a warning
// (a private function can be the entry too)
// says it is not compared.
// RUN: amp-run %s --entry=in_loop --runs 1 2>&1 | FileCheck %s --check-prefix=LOOP
// LOOP: warning: the tensor passed to @printMemrefF32 is not available where @in_loop returns; it is not compared
// LOOP: result0 4x16 f32

func.func private @rtclock() -> f64
func.func private @printMemrefF32(tensor<*xf32>)
func.func private @record_timing(!llvm.ptr, f64)
llvm.mlir.global private constant @name("matmul\00") {addr_space = 0 : i32}

func.func @kernel(%a: tensor<4x16xf32>, %b: tensor<16x8xf32>) -> tensor<4x8xf32> {
  %start = call @rtclock() : () -> f64
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<4x8xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<4x8xf32>) -> tensor<4x8xf32>
  %c = linalg.matmul ins(%a, %b : tensor<4x16xf32>, tensor<16x8xf32>)
                     outs(%init : tensor<4x8xf32>) -> tensor<4x8xf32>
  %end = call @rtclock() : () -> f64
  %time = arith.subf %end, %start : f64
  %name = llvm.mlir.addressof @name : !llvm.ptr
  call @record_timing(%name, %time) : (!llvm.ptr, f64) -> ()
  vector.print %time : f64
  %d = arith.addf %c, %c : tensor<4x8xf32>
  %unranked = tensor.cast %d : tensor<4x8xf32> to tensor<*xf32>
  call @printMemrefF32(%unranked) : (tensor<*xf32>) -> ()
  %a_unranked = tensor.cast %a : tensor<4x16xf32> to tensor<*xf32>
  call @printMemrefF32(%a_unranked) : (tensor<*xf32>) -> ()
  return %c : tensor<4x8xf32>
}

func.func @main() {
  %a = arith.constant dense<1.0> : tensor<4x16xf32>
  %b = arith.constant dense<2.0> : tensor<16x8xf32>
  %c = call @kernel(%a, %b) : (tensor<4x16xf32>, tensor<16x8xf32>) -> tensor<4x8xf32>
  return
}

func.func private @in_loop(%a: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  scf.for %i = %c0 to %c2 step %c1 {
    %d = arith.addf %a, %a : tensor<4x16xf32>
    %unranked = tensor.cast %d : tensor<4x16xf32> to tensor<*xf32>
    func.call @printMemrefF32(%unranked) : (tensor<*xf32>) -> ()
  }
  return %a : tensor<4x16xf32>
}
