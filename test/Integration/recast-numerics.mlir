// --amp-recast computes what the FP32 original computes when every value is
// representable in the new type: small integer inputs and weights, for
// linalg and TOSA convolutions and matmuls. The outputs must be equal digit
// for digit for f16, bf16 (f32 accumulation), i8 and i4 (i32 accumulation).
// (f8 types do not lower to the CPU: their checks are structural, see
// test/Transforms/recast.mlir.)
//
// REQUIRES: mlir-runner
// DEFINE: %{lower} = --pass-pipeline="builtin.module(func.func(tosa-to-linalg-named,tosa-to-linalg,tosa-to-arith,tosa-to-tensor),convert-elementwise-to-linalg,one-shot-bufferize{bufferize-function-boundaries},convert-linalg-to-loops,convert-scf-to-cf,expand-strided-metadata,lower-affine,finalize-memref-to-llvm,convert-math-to-llvm,convert-arith-to-llvm,convert-cf-to-llvm,convert-func-to-llvm,reconcile-unrealized-casts)"
// DEFINE: %{run} = %mlir-runner -e main -entry-point-result=void \
// DEFINE:   -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils
// RUN: %mlir-opt %s %{lower} | %{run} | FileCheck %s
// RUN: amp-opt %s --amp-recast=type=f16 | %mlir-opt %{lower} | %{run} | FileCheck %s
// RUN: amp-opt %s --amp-recast=type=bf16 | %mlir-opt %{lower} | %{run} | FileCheck %s
// RUN: amp-opt %s --amp-recast=type=i8 | %mlir-opt %{lower} | %{run} | FileCheck %s
// The linalg layers only: TOSA has no i4 convolution.
// RUN: amp-opt %s "--amp-recast=type=i4 ops=linalg.conv_2d_nchw_fchw,linalg.matmul" | %mlir-opt %{lower} | %{run} | FileCheck %s
// With the layout conversion and mixed precision around it.
// RUN: amp-opt %s --amp-convert-layout --amp-recast=type=i8 --amp-mixed-precision | %mlir-opt %{lower} | %{run} | FileCheck %s

// Outputs of the linalg convolution.
// CHECK: data =
// CHECK-NEXT: {{\[\[\[\[}}20, -2, -24, 17, 2],
// CHECK-NEXT: [-24, 17, 2, 1, -14],
// CHECK-NEXT: [2, 1, -14, 20, -2],
// CHECK-NEXT: [-14, 20, -2, -24, 17]],
// CHECK-NEXT: {{\[\[}}3, 25, -23, -8, 35],
// CHECK-NEXT: [-23, -8, 35, -6, -26],
// CHECK-NEXT: [35, -6, -26, 3, 25],
// CHECK-NEXT: [-26, 3, 25, -23, -8]],
// CHECK-NEXT: {{\[\[}}-24, -11, 9, 8, -14],
// CHECK-NEXT: [9, 8, -14, 6, 26],
// CHECK-NEXT: [-14, 6, 26, -24, -11],
// CHECK-NEXT: [26, -24, -11, 9, 8]],
// CHECK-NEXT: {{\[\[}}6, 7, -6, -5, -4],
// CHECK-NEXT: [-6, -5, -4, 11, -9],
// CHECK-NEXT: [-4, 11, -9, 6, 7],
// CHECK-NEXT: [-9, 6, 7, -6, -5]]]]
// Outputs of the TOSA convolution.
// CHECK: data =
// CHECK-NEXT: {{\[\[\[\[}}20, -2, -24, 17, 2],
// CHECK-NEXT: [-24, 17, 2, 1, -14],
// CHECK-NEXT: [2, 1, -14, 20, -2],
// CHECK-NEXT: [-14, 20, -2, -24, 17]],
// CHECK-NEXT: {{\[\[}}3, 25, -23, -8, 35],
// CHECK-NEXT: [-23, -8, 35, -6, -26],
// CHECK-NEXT: [35, -6, -26, 3, 25],
// CHECK-NEXT: [-26, 3, 25, -23, -8]],
// CHECK-NEXT: {{\[\[}}-24, -11, 9, 8, -14],
// CHECK-NEXT: [9, 8, -14, 6, 26],
// CHECK-NEXT: [-14, 6, 26, -24, -11],
// CHECK-NEXT: [26, -24, -11, 9, 8]],
// CHECK-NEXT: {{\[\[}}6, 7, -6, -5, -4],
// CHECK-NEXT: [-6, -5, -4, 11, -9],
// CHECK-NEXT: [-4, 11, -9, 6, 7],
// CHECK-NEXT: [-9, 6, 7, -6, -5]]]]
// Outputs of the linalg matmul.
// CHECK: data =
// CHECK-NEXT: {{\[\[}}1, 5, 4, -3, -2],
// CHECK-NEXT: [-4, -6, 3, -3, 5],
// CHECK-NEXT: [5, -10, 2, 11, -9],
// CHECK-NEXT: [-14, 7, 1, 4, -9],
// CHECK-NEXT: [2, -4, 7, -3, 5],
// CHECK-NEXT: [-3, 13, -8, 4, -2],
// CHECK-NEXT: [1, 5, 4, -3, -2],
// CHECK-NEXT: [-4, -6, 3, -3, 5],
// CHECK-NEXT: [5, -10, 2, 11, -9],
// CHECK-NEXT: [-14, 7, 1, 4, -9],
// CHECK-NEXT: [2, -4, 7, -3, 5],
// CHECK-NEXT: [-3, 13, -8, 4, -2],
// CHECK-NEXT: [1, 5, 4, -3, -2],
// CHECK-NEXT: [-4, -6, 3, -3, 5],
// CHECK-NEXT: [5, -10, 2, 11, -9],
// CHECK-NEXT: [-14, 7, 1, 4, -9],
// CHECK-NEXT: [2, -4, 7, -3, 5],
// CHECK-NEXT: [-3, 13, -8, 4, -2]]
// Outputs of the TOSA matmul.
// CHECK: data =
// CHECK-NEXT: {{\[\[\[}}1, 5, 4, -3, -2],
// CHECK-NEXT: [-4, -6, 3, -3, 5],
// CHECK-NEXT: [5, -10, 2, 11, -9],
// CHECK-NEXT: [-14, 7, 1, 4, -9],
// CHECK-NEXT: [2, -4, 7, -3, 5],
// CHECK-NEXT: [-3, 13, -8, 4, -2],
// CHECK-NEXT: [1, 5, 4, -3, -2],
// CHECK-NEXT: [-4, -6, 3, -3, 5],
// CHECK-NEXT: [5, -10, 2, 11, -9],
// CHECK-NEXT: [-14, 7, 1, 4, -9],
// CHECK-NEXT: [2, -4, 7, -3, 5],
// CHECK-NEXT: [-3, 13, -8, 4, -2],
// CHECK-NEXT: [1, 5, 4, -3, -2],
// CHECK-NEXT: [-4, -6, 3, -3, 5],
// CHECK-NEXT: [5, -10, 2, 11, -9],
// CHECK-NEXT: [-14, 7, 1, 4, -9],
// CHECK-NEXT: [2, -4, 7, -3, 5],
// CHECK-NEXT: [-3, 13, -8, 4, -2]]]

#id = affine_map<(n, c, h, w) -> (n, c, h, w)>

func.func @linalg_layers(%x: tensor<1x3x6x7xf32>) -> (tensor<1x4x4x5xf32>, tensor<18x5xf32>) {
  %zero = arith.constant 0.0 : f32
  %w = arith.constant dense<[[[[0.0, -1.0, 1.0], [-2.0, -2.0, 2.0], [-2.0, 0.0, 2.0]], [[-2.0, 2.0, -1.0], [-2.0, -2.0, 1.0], [1.0, -2.0, -1.0]], [[-2.0, 2.0, 1.0], [-2.0, 2.0, -2.0], [-1.0, 2.0, -2.0]]], [[[2.0, 2.0, 1.0], [-2.0, -1.0, -2.0], [2.0, -1.0, 0.0]], [[1.0, -1.0, 2.0], [-2.0, 2.0, 0.0], [2.0, -1.0, -2.0]], [[2.0, 2.0, -1.0], [0.0, -2.0, 2.0], [-2.0, 2.0, -2.0]]], [[[2.0, -1.0, 1.0], [2.0, 1.0, 0.0], [1.0, 2.0, 1.0]], [[0.0, 0.0, -1.0], [-1.0, -1.0, -2.0], [2.0, 0.0, 2.0]], [[1.0, 0.0, 1.0], [0.0, 2.0, -2.0], [-2.0, 2.0, 1.0]]], [[[-1.0, 0.0, -1.0], [1.0, 1.0, -2.0], [-2.0, 2.0, 2.0]], [[0.0, 0.0, 0.0], [2.0, 1.0, 2.0], [1.0, -2.0, -2.0]], [[0.0, 1.0, -2.0], [-2.0, 0.0, 2.0], [1.0, 0.0, 1.0]]]]> : tensor<4x3x3x3xf32>
  %b = arith.constant dense<[[1.0, -2.0, 0.0, 2.0, -1.0], [2.0, 1.0, -1.0, 0.0, 1.0], [-2.0, 0.0, 2.0, 1.0, -1.0], [0.0, 1.0, 1.0, -2.0, 2.0], [1.0, -1.0, 2.0, -1.0, 0.0], [-1.0, 2.0, 0.0, 1.0, -2.0], [2.0, 0.0, -2.0, -1.0, 1.0]]> : tensor<7x5xf32>
  %e = tensor.empty() : tensor<1x4x4x5xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x4x4x5xf32>) -> tensor<1x4x4x5xf32>
  %conv = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%x, %w : tensor<1x3x6x7xf32>, tensor<4x3x3x3xf32>) outs(%f : tensor<1x4x4x5xf32>) -> tensor<1x4x4x5xf32>
  %a = tensor.collapse_shape %x [[0, 1, 2], [3]] : tensor<1x3x6x7xf32> into tensor<18x7xf32>
  %em = tensor.empty() : tensor<18x5xf32>
  %fm = linalg.fill ins(%zero : f32) outs(%em : tensor<18x5xf32>) -> tensor<18x5xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<18x7xf32>, tensor<7x5xf32>) outs(%fm : tensor<18x5xf32>) -> tensor<18x5xf32>
  return %conv, %mm : tensor<1x4x4x5xf32>, tensor<18x5xf32>
}

func.func @tosa_layers(%x: tensor<1x3x6x7xf32>) -> (tensor<1x4x4x5xf32>, tensor<1x18x5xf32>) {
  %w = "tosa.const"() <{values = dense<[[[[0.0, -1.0, 1.0], [-2.0, -2.0, 2.0], [-2.0, 0.0, 2.0]], [[-2.0, 2.0, -1.0], [-2.0, -2.0, 1.0], [1.0, -2.0, -1.0]], [[-2.0, 2.0, 1.0], [-2.0, 2.0, -2.0], [-1.0, 2.0, -2.0]]], [[[2.0, 2.0, 1.0], [-2.0, -1.0, -2.0], [2.0, -1.0, 0.0]], [[1.0, -1.0, 2.0], [-2.0, 2.0, 0.0], [2.0, -1.0, -2.0]], [[2.0, 2.0, -1.0], [0.0, -2.0, 2.0], [-2.0, 2.0, -2.0]]], [[[2.0, -1.0, 1.0], [2.0, 1.0, 0.0], [1.0, 2.0, 1.0]], [[0.0, 0.0, -1.0], [-1.0, -1.0, -2.0], [2.0, 0.0, 2.0]], [[1.0, 0.0, 1.0], [0.0, 2.0, -2.0], [-2.0, 2.0, 1.0]]], [[[-1.0, 0.0, -1.0], [1.0, 1.0, -2.0], [-2.0, 2.0, 2.0]], [[0.0, 0.0, 0.0], [2.0, 1.0, 2.0], [1.0, -2.0, -2.0]], [[0.0, 1.0, -2.0], [-2.0, 0.0, 2.0], [1.0, 0.0, 1.0]]]]> : tensor<4x3x3x3xf32>}> : () -> tensor<4x3x3x3xf32>
  %b = "tosa.const"() <{values = dense<[[[1.0, -2.0, 0.0, 2.0, -1.0], [2.0, 1.0, -1.0, 0.0, 1.0], [-2.0, 0.0, 2.0, 1.0, -1.0], [0.0, 1.0, 1.0, -2.0, 2.0], [1.0, -1.0, 2.0, -1.0, 0.0], [-1.0, 2.0, 0.0, 1.0, -2.0], [2.0, 0.0, -2.0, -1.0, 1.0]]]> : tensor<1x7x5xf32>}> : () -> tensor<1x7x5xf32>
  %bias = "tosa.const"() <{values = dense<0.0> : tensor<4xf32>}> : () -> tensor<4xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shape = tosa.const_shape {values = dense<[1, 18, 7]> : tensor<3xindex>} : () -> !tosa.shape<3>
  // The usual NCHW frontend pattern: transpose, NHWC convolution (with OHWI
  // weights), transpose back.
  %xt = tosa.transpose %x {perms = array<i32: 0, 2, 3, 1>} : (tensor<1x3x6x7xf32>) -> tensor<1x6x7x3xf32>
  %wt = tosa.transpose %w {perms = array<i32: 0, 2, 3, 1>} : (tensor<4x3x3x3xf32>) -> tensor<4x3x3x3xf32>
  %c = tosa.conv2d %xt, %wt, %bias, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x6x7x3xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x5x4xf32>
  %conv = tosa.transpose %c {perms = array<i32: 0, 3, 1, 2>} : (tensor<1x4x5x4xf32>) -> tensor<1x4x4x5xf32>
  %a = tosa.reshape %x, %shape : (tensor<1x3x6x7xf32>, !tosa.shape<3>) -> tensor<1x18x7xf32>
  %mm = tosa.matmul %a, %b, %zp, %zp : (tensor<1x18x7xf32>, tensor<1x7x5xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x18x5xf32>
  return %conv, %mm : tensor<1x4x4x5xf32>, tensor<1x18x5xf32>
}

func.func private @printMemrefF32(memref<*xf32>)

func.func @print4(%t: tensor<1x4x4x5xf32>) {
  %m = bufferization.to_buffer %t : tensor<1x4x4x5xf32> to memref<1x4x4x5xf32>
  %u = memref.cast %m : memref<1x4x4x5xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}

func.func @main() {
  // x[0, c, h, w] = (7c + 3h + 5w) mod 7 - 3, in [-3, 3].
  %e = tensor.empty() : tensor<1x3x6x7xf32>
  %x = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      outs(%e : tensor<1x3x6x7xf32>) {
  ^bb0(%out: f32):
    %c = linalg.index 1 : index
    %h = linalg.index 2 : index
    %w = linalg.index 3 : index
    %c7 = arith.constant 7 : index
    %c3 = arith.constant 3 : index
    %c5 = arith.constant 5 : index
    %t0 = arith.muli %c, %c7 : index
    %t1 = arith.muli %h, %c3 : index
    %t2 = arith.muli %w, %c5 : index
    %t3 = arith.addi %t0, %t1 : index
    %t4 = arith.addi %t3, %t2 : index
    %t6 = arith.remui %t4, %c7 : index
    %t7 = arith.subi %t6, %c3 : index
    %i = arith.index_cast %t7 : index to i32
    %f = arith.sitofp %i : i32 to f32
    linalg.yield %f : f32
  } -> tensor<1x3x6x7xf32>
  %lc, %lm = call @linalg_layers(%x) : (tensor<1x3x6x7xf32>) -> (tensor<1x4x4x5xf32>, tensor<18x5xf32>)
  %tc, %tm = call @tosa_layers(%x) : (tensor<1x3x6x7xf32>) -> (tensor<1x4x4x5xf32>, tensor<1x18x5xf32>)
  call @print4(%lc) : (tensor<1x4x4x5xf32>) -> ()
  call @print4(%tc) : (tensor<1x4x4x5xf32>) -> ()
  %lmm = bufferization.to_buffer %lm : tensor<18x5xf32> to memref<18x5xf32>
  %lmu = memref.cast %lmm : memref<18x5xf32> to memref<*xf32>
  call @printMemrefF32(%lmu) : (memref<*xf32>) -> ()
  %tmm = bufferization.to_buffer %tm : tensor<1x18x5xf32> to memref<1x18x5xf32>
  %tmu = memref.cast %tmm : memref<1x18x5xf32> to memref<*xf32>
  call @printMemrefF32(%tmu) : (memref<*xf32>) -> ()
  return
}
