// The channels-last conversion computes the same numbers as the NCHW
// original: a small CNN (padding, convolution with a broadcast bias as init,
// ReLU, max pooling, depthwise convolution, a residual add that reads the
// channel index, 1x1 convolution, sum pooling) runs on the CPU before and
// after the conversion and prints every output. The inputs and weights are
// small integers, so every result is exact and the outputs must be equal
// digit for digit, whatever the order of summation.
//
// REQUIRES: mlir-runner
// DEFINE: %{lower} = --convert-elementwise-to-linalg \
// DEFINE:   --one-shot-bufferize="bufferize-function-boundaries" \
// DEFINE:   --convert-linalg-to-loops --convert-scf-to-cf --expand-strided-metadata \
// DEFINE:   --lower-affine --finalize-memref-to-llvm --convert-math-to-llvm \
// DEFINE:   --convert-arith-to-llvm --convert-cf-to-llvm --convert-func-to-llvm \
// DEFINE:   --reconcile-unrealized-casts
// DEFINE: %{run} = %mlir-runner -e main -entry-point-result=void \
// DEFINE:   -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils
// RUN: %mlir-opt %s %{lower} | %{run} | FileCheck %s
// RUN: amp-opt %s --amp-convert-layout | FileCheck %s --check-prefix=NHWC
// RUN: amp-opt %s --amp-convert-layout | %mlir-opt %{lower} | %{run} | FileCheck %s
// RUN: amp-opt %s --amp-convert-layout=filter=fhwc | %mlir-opt %{lower} | %{run} | FileCheck %s
// RUN: amp-opt %s --amp-convert-layout=skip-layers=1,-1 | %mlir-opt %{lower} | %{run} | FileCheck %s
// RUN: amp-opt %s --amp-convert-layout=propagate=false | %mlir-opt %{lower} | %{run} | FileCheck %s
// With mixed precision on top: the values are integers small enough for f16.
// RUN: amp-opt %s --amp-convert-layout --amp-mixed-precision | %mlir-opt %{lower} | %{run} | FileCheck %s
// RUN: amp-opt %s --amp-mixed-precision --amp-convert-layout | %mlir-opt %{lower} | %{run} | FileCheck %s

// Every output of the original, in the order printMemrefF32 prints them.
// CHECK: data =
// CHECK-NEXT: {{\[\[\[\[}}855, 1093, 1266, 977],
// CHECK-NEXT: [1068, 1410, 1590, 1296],
// CHECK-NEXT: [965, 1168, 1110, 1077]],
// CHECK-NEXT: {{\[\[}}-632, -778, -786, -581],
// CHECK-NEXT: [-890, -1080, -1166, -926],
// CHECK-NEXT: [-811, -934, -928, -791]],
// CHECK-NEXT: {{\[\[}}-519, -694, -717, -552],
// CHECK-NEXT: [-679, -934, -823, -718],
// CHECK-NEXT: [-202, -474, -509, -409]],
// CHECK-NEXT: {{\[\[}}-717, -934, -1079, -840],
// CHECK-NEXT: [-874, -1194, -1267, -1058],
// CHECK-NEXT: [-619, -856, -825, -796]],
// CHECK-NEXT: {{\[\[}}271, 304, 119, 48],
// CHECK-NEXT: [518, 534, 419, 318],
// CHECK-NEXT: [311, 388, 461, 224]],
// CHECK-NEXT: {{\[\[}}125, 79, 34, 11],
// CHECK-NEXT: [167, 94, 176, 88],
// CHECK-NEXT: [358, 270, 252, 182]]]]

// Only the two transposes at the function's edges are left.
// NHWC-LABEL: func.func @cnn
// NHWC-COUNT-2: linalg.transpose
// NHWC-NOT: linalg.transpose
// NHWC: return

#id = affine_map<(n, c, h, w) -> (n, c, h, w)>
#chan = affine_map<(n, c, h, w) -> (c)>
#bcast = affine_map<(n, c, h, w) -> (0, c, h, w)>

func.func @cnn(%x: tensor<1x3x9x11xf32>) -> tensor<1x6x3x4xf32> {
  %zero = arith.constant 0.0 : f32
  %lowest = arith.constant -3.40282347E+38 : f32
  %w1 = arith.constant dense<[[[[0.0, -1.0, 1.0], [-2.0, -2.0, 2.0], [-2.0, 0.0, 2.0]], [[-2.0, 2.0, -1.0], [-2.0, -2.0, 1.0], [1.0, -2.0, -1.0]], [[-2.0, 2.0, 1.0], [-2.0, 2.0, -2.0], [-1.0, 2.0, -2.0]]], [[[2.0, 2.0, 1.0], [-2.0, -1.0, -2.0], [2.0, -1.0, 0.0]], [[1.0, -1.0, 2.0], [-2.0, 2.0, 0.0], [2.0, -1.0, -2.0]], [[2.0, 2.0, -1.0], [0.0, -2.0, 2.0], [-2.0, 2.0, -2.0]]], [[[2.0, -1.0, 1.0], [2.0, 1.0, 0.0], [1.0, 2.0, 1.0]], [[0.0, 0.0, -1.0], [-1.0, -1.0, -2.0], [2.0, 0.0, 2.0]], [[1.0, 0.0, 1.0], [0.0, 2.0, -2.0], [-2.0, 2.0, 1.0]]], [[[-1.0, 0.0, -1.0], [1.0, 1.0, -2.0], [-2.0, 2.0, 2.0]], [[0.0, 0.0, 0.0], [2.0, 1.0, 2.0], [1.0, -2.0, -2.0]], [[0.0, 1.0, -2.0], [-2.0, 0.0, 2.0], [1.0, 0.0, 1.0]]]]> : tensor<4x3x3x3xf32>
  %w2 = arith.constant dense<[[[0.0, -2.0, 1.0], [0.0, -1.0, 2.0], [-2.0, 1.0, -2.0]], [[-1.0, 0.0, -1.0], [-1.0, 1.0, 1.0], [1.0, -2.0, -1.0]], [[1.0, 1.0, 2.0], [0.0, -1.0, 1.0], [2.0, 0.0, 1.0]], [[0.0, 1.0, -1.0], [-1.0, -2.0, -1.0], [-1.0, -1.0, -1.0]]]> : tensor<4x3x3xf32>
  %w3 = arith.constant dense<[[[[-2.0]], [[1.0]], [[2.0]], [[-1.0]]], [[[0.0]], [[0.0]], [[-2.0]], [[-1.0]]], [[[1.0]], [[2.0]], [[0.0]], [[2.0]]], [[[2.0]], [[0.0]], [[-1.0]], [[2.0]]], [[[2.0]], [[-2.0]], [[1.0]], [[2.0]]], [[[1.0]], [[1.0]], [[1.0]], [[1.0]]]]> : tensor<6x4x1x1xf32>
  %bias = arith.constant dense<[-2.0, 1.0, 1.0, -2.0]> : tensor<4xf32>

  // Convolution 3x3, padded, with the bias broadcast as its init.
  %xp = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<1x3x9x11xf32> to tensor<1x3x11x13xf32>
  %e1 = tensor.empty() : tensor<1x4x9x11xf32>
  %b1 = linalg.generic {indexing_maps = [#chan, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%bias : tensor<4xf32>) outs(%e1 : tensor<1x4x9x11xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<1x4x9x11xf32>
  %c1 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%xp, %w1 : tensor<1x3x11x13xf32>, tensor<4x3x3x3xf32>) outs(%b1 : tensor<1x4x9x11xf32>) -> tensor<1x4x9x11xf32>
  %r1 = linalg.generic {indexing_maps = [#bcast, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c1 : tensor<1x4x9x11xf32>) outs(%e1 : tensor<1x4x9x11xf32>) {
  ^bb0(%in: f32, %out: f32):
    %gt = arith.cmpf ugt, %in, %zero : f32
    %s = arith.select %gt, %in, %zero : f32
    linalg.yield %s : f32
  } -> tensor<1x4x9x11xf32>

  // Max pooling 2x2, stride 2.
  %e2 = tensor.empty() : tensor<1x4x4x5xf32>
  %f2 = linalg.fill ins(%lowest : f32) outs(%e2 : tensor<1x4x4x5xf32>) -> tensor<1x4x4x5xf32>
  %win2 = tensor.empty() : tensor<2x2xf32>
  %p1 = linalg.pooling_nchw_max {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>}
      ins(%r1, %win2 : tensor<1x4x9x11xf32>, tensor<2x2xf32>) outs(%f2 : tensor<1x4x4x5xf32>) -> tensor<1x4x4x5xf32>

  // Depthwise convolution 3x3, padded.
  %pp = tensor.pad %p1 low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<1x4x4x5xf32> to tensor<1x4x6x7xf32>
  %f3 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<1x4x4x5xf32>) -> tensor<1x4x4x5xf32>
  %d1 = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%pp, %w2 : tensor<1x4x6x7xf32>, tensor<4x3x3xf32>) outs(%f3 : tensor<1x4x4x5xf32>) -> tensor<1x4x4x5xf32>

  // Residual add plus the channel index (linalg.index must follow the loops).
  %a1 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%d1, %p1 : tensor<1x4x4x5xf32>, tensor<1x4x4x5xf32>) outs(%e2 : tensor<1x4x4x5xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %c = linalg.index 1 : index
    %ci = arith.index_cast %c : index to i32
    %cf = arith.sitofp %ci : i32 to f32
    %s = arith.addf %a, %b : f32
    %t = arith.addf %s, %cf : f32
    linalg.yield %t : f32
  } -> tensor<1x4x4x5xf32>

  // Convolution 1x1 to 6 channels, then sum pooling 2x2, stride 1.
  %e4 = tensor.empty() : tensor<1x6x4x5xf32>
  %f4 = linalg.fill ins(%zero : f32) outs(%e4 : tensor<1x6x4x5xf32>) -> tensor<1x6x4x5xf32>
  %c2 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%a1, %w3 : tensor<1x4x4x5xf32>, tensor<6x4x1x1xf32>) outs(%f4 : tensor<1x6x4x5xf32>) -> tensor<1x6x4x5xf32>
  %e5 = tensor.empty() : tensor<1x6x3x4xf32>
  %f5 = linalg.fill ins(%zero : f32) outs(%e5 : tensor<1x6x3x4xf32>) -> tensor<1x6x3x4xf32>
  %p2 = linalg.pooling_nchw_sum {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%c2, %win2 : tensor<1x6x4x5xf32>, tensor<2x2xf32>) outs(%f5 : tensor<1x6x3x4xf32>) -> tensor<1x6x3x4xf32>
  return %p2 : tensor<1x6x3x4xf32>
}

func.func private @printMemrefF32(memref<*xf32>)

func.func @main() {
  // x[0, c, h, w] = (7c + 3h + 5w) mod 7 - 3: not symmetric in h and w.
  %e = tensor.empty() : tensor<1x3x9x11xf32>
  %x = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      outs(%e : tensor<1x3x9x11xf32>) {
  ^bb0(%out: f32):
    %c = linalg.index 1 : index
    %h = linalg.index 2 : index
    %w = linalg.index 3 : index
    %c7 = arith.constant 7 : index
    %c3 = arith.constant 3 : index
    %c5 = arith.constant 5 : index
    %c6 = arith.constant 6 : index
    %t0 = arith.muli %c, %c7 : index
    %t1 = arith.muli %h, %c3 : index
    %t2 = arith.muli %w, %c5 : index
    %t3 = arith.addi %t0, %t1 : index
    %t4 = arith.addi %t3, %t2 : index
    %t5 = arith.addi %t4, %c6 : index
    %t6 = arith.remui %t5, %c7 : index
    %t7 = arith.subi %t6, %c3 : index
    %i = arith.index_cast %t7 : index to i32
    %f = arith.sitofp %i : i32 to f32
    linalg.yield %f : f32
  } -> tensor<1x3x9x11xf32>
  %y = call @cnn(%x) : (tensor<1x3x9x11xf32>) -> tensor<1x6x3x4xf32>
  %m = bufferization.to_buffer %y : tensor<1x6x3x4xf32> to memref<1x6x3x4xf32>
  %u = memref.cast %m : memref<1x6x3x4xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
