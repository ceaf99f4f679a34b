// RUN: amp-opt %s --amp-gpu-fuse-elementwise --split-input-file | FileCheck %s

// Rotate-half (two slices, a negation, two insert_slices into an empty
// tensor) read by an elementwise op: the consumer reads the input where it
// needs it; no slice, insert or copy is left.
// CHECK-LABEL: func.func @rotate_half
// CHECK-NOT:     tensor.extract_slice
// CHECK-NOT:     tensor.insert_slice
// CHECK:         %[[R:.+]] = linalg.generic
// CHECK-SAME:      ins(%[[S:[^ ]+]] : tensor<2x8xf32>)
// CHECK:           %[[J:.+]] = linalg.index 1
// CHECK:           arith.cmpi sge, %[[J]], %c4
// CHECK:           scf.if
// CHECK:             tensor.extract %arg0[%{{.+}}, %{{.+}}] : tensor<2x8xf32>
// CHECK-NOT:         arith.negf
// CHECK:           } else {
// CHECK:             arith.cmpi slt, %[[J]], %c4
// CHECK:             scf.if
// CHECK:               tensor.extract %arg0
// CHECK:               arith.negf
// CHECK:           arith.mulf
// CHECK-NOT:     linalg.generic
// CHECK:         return %[[R]]
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @rotate_half(%x: tensor<2x8xf32>, %sin: tensor<2x8xf32>) -> tensor<2x8xf32> {
  %lo = tensor.extract_slice %x[0, 0] [2, 4] [1, 1] : tensor<2x8xf32> to tensor<2x4xf32>
  %hi = tensor.extract_slice %x[0, 4] [2, 4] [1, 1] : tensor<2x8xf32> to tensor<2x4xf32>
  %e = tensor.empty() : tensor<2x4xf32>
  %neg = linalg.negf ins(%hi : tensor<2x4xf32>) outs(%e : tensor<2x4xf32>) -> tensor<2x4xf32>
  %z = tensor.empty() : tensor<2x8xf32>
  %r0 = tensor.insert_slice %neg into %z[0, 0] [2, 4] [1, 1] : tensor<2x4xf32> into tensor<2x8xf32>
  %r1 = tensor.insert_slice %lo into %r0[0, 4] [2, 4] [1, 1] : tensor<2x4xf32> into tensor<2x8xf32>
  %o = tensor.empty() : tensor<2x8xf32>
  %y = linalg.mul ins(%r1, %sin : tensor<2x8xf32>, tensor<2x8xf32>) outs(%o : tensor<2x8xf32>) -> tensor<2x8xf32>
  return %y : tensor<2x8xf32>
}

// -----

// A slice of a computed value: folded into the consumer's indexing map,
// and the producer fuses into it (one generic reading %x at column + 3).
// CHECK:       #[[SHIFT:.+]] = affine_map<(d0, d1) -> (d0, d1 + 3)>
// CHECK:       func.func @slice_of_generic
// CHECK-NOT:     tensor.extract_slice
// CHECK:         linalg.generic {indexing_maps = [#[[SHIFT]], #{{.+}}]
// CHECK-SAME:      ins(%arg0 : tensor<4x16xf32>)
// CHECK:           math.exp
// CHECK:           arith.addf
// CHECK-NOT:     linalg.generic
func.func @slice_of_generic(%x: tensor<4x16xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x16xf32>
  %ex = linalg.exp ins(%x : tensor<4x16xf32>) outs(%e : tensor<4x16xf32>) -> tensor<4x16xf32>
  %s = tensor.extract_slice %ex[0, 3] [4, 8] [1, 1] : tensor<4x16xf32> to tensor<4x8xf32>
  %o = tensor.empty() : tensor<4x8xf32>
  %y = linalg.add ins(%s, %s : tensor<4x8xf32>, tensor<4x8xf32>) outs(%o : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}

// -----

// A concatenation returned as it is: one generic writes it, reading each
// piece where it goes (tanh of %a, then %b).
// CHECK-LABEL: func.func @concat_returned
// CHECK-NOT:     tensor.concat
// CHECK-NOT:     tensor.insert_slice
// CHECK:         %[[C:.+]] = linalg.generic
// CHECK-SAME:      outs(%{{.+}} : tensor<3x10xf32>)
// CHECK:           scf.if
// CHECK:             math.tanh
// CHECK:         return %[[C]]
func.func @concat_returned(%a: tensor<3x6xf32>, %b: tensor<3x4xf32>) -> tensor<3x10xf32> {
  %e = tensor.empty() : tensor<3x6xf32>
  %t = linalg.tanh ins(%a : tensor<3x6xf32>) outs(%e : tensor<3x6xf32>) -> tensor<3x6xf32>
  %c = tensor.concat dim(1) %t, %b : (tensor<3x6xf32>, tensor<3x4xf32>) -> tensor<3x10xf32>
  return %c : tensor<3x10xf32>
}

// -----

// A matmul's result is a kernel's: its epilogue (the bias add reading it)
// is not recomputed into a consumer that reads a slice of it (the slice
// stays a view of the epilogue's result); and a concatenation with the
// matmul's result as a piece keeps its insert_slice (the matmul writes its
// piece in place).
// CHECK-LABEL: func.func @kernel_results_stay
// CHECK:         %[[MM:.+]] = linalg.matmul
// CHECK:         %[[BIAS:.+]] = linalg.generic {{.*}} ins(%[[MM]], %arg2
// CHECK:           arith.addf
// CHECK:         %[[S:.+]] = tensor.extract_slice %[[BIAS]][0, 8] [8, 8]
// CHECK:         linalg.generic {{.*}} ins(%[[S]] : tensor<8x8xf32>)
// CHECK:           arith.negf
// CHECK:         tensor.insert_slice %[[MM]]
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>
func.func @kernel_results_stay(%a: tensor<8x32xf32>, %w: tensor<32x16xf32>, %bias: tensor<16xf32>,
                               %x: tensor<8x4xf32>) -> (tensor<8x16xf32>, tensor<8x8xf32>, tensor<8x20xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x16xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<8x16xf32>) -> tensor<8x16xf32>
  %mm = linalg.matmul ins(%a, %w : tensor<8x32xf32>, tensor<32x16xf32>) outs(%acc : tensor<8x16xf32>) -> tensor<8x16xf32>
  %e2 = tensor.empty() : tensor<8x16xf32>
  %b = linalg.generic {indexing_maps = [#id2, #row, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%mm, %bias : tensor<8x16xf32>, tensor<16xf32>) outs(%e2 : tensor<8x16xf32>) {
  ^bb0(%m: f32, %c: f32, %o: f32):
    %s = arith.addf %m, %c : f32
    linalg.yield %s : f32
  } -> tensor<8x16xf32>
  %half = tensor.extract_slice %b[0, 8] [8, 8] [1, 1] : tensor<8x16xf32> to tensor<8x8xf32>
  %e3 = tensor.empty() : tensor<8x8xf32>
  %n = linalg.negf ins(%half : tensor<8x8xf32>) outs(%e3 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %c = tensor.concat dim(1) %mm, %x : (tensor<8x16xf32>, tensor<8x4xf32>) -> tensor<8x20xf32>
  return %b, %n, %c : tensor<8x16xf32>, tensor<8x8xf32>, tensor<8x20xf32>
}

// -----

// The same through a reshape (a convolution reaches its batch norm as an
// expand_shape of the matmul it became): the ReLU stays the matmul's
// epilogue; the padded consumer reads the ReLU's result, not the matmul's.
// CHECK-LABEL: func.func @epilogue_through_reshape
// CHECK:         %[[MM:.+]] = linalg.matmul
// CHECK:         %[[E:.+]] = tensor.expand_shape %[[MM]]
// CHECK:         %[[RELU:.+]] = linalg.generic {{.*}} ins(%[[E]] : tensor<2x4x16xf32>)
// CHECK:           arith.maximumf
// CHECK:         linalg.generic
// CHECK:           scf.if
// CHECK:             tensor.extract %[[RELU]]
// CHECK-NOT:         arith.maximumf
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
func.func @epilogue_through_reshape(%a: tensor<8x32xf32>, %w: tensor<32x16xf32>) -> tensor<2x6x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x16xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<8x16xf32>) -> tensor<8x16xf32>
  %mm = linalg.matmul ins(%a, %w : tensor<8x32xf32>, tensor<32x16xf32>) outs(%acc : tensor<8x16xf32>) -> tensor<8x16xf32>
  %r = tensor.expand_shape %mm [[0, 1], [2]] output_shape [2, 4, 16] : tensor<8x16xf32> into tensor<2x4x16xf32>
  %e2 = tensor.empty() : tensor<2x4x16xf32>
  %relu = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%r : tensor<2x4x16xf32>) outs(%e2 : tensor<2x4x16xf32>) {
  ^bb0(%in: f32, %o: f32):
    %m = arith.maximumf %in, %zero : f32
    linalg.yield %m : f32
  } -> tensor<2x4x16xf32>
  %pe = tensor.empty() : tensor<2x6x16xf32>
  %padded0 = linalg.fill ins(%zero : f32) outs(%pe : tensor<2x6x16xf32>) -> tensor<2x6x16xf32>
  %padded = tensor.insert_slice %relu into %padded0[0, 1, 0] [2, 4, 16] [1, 1, 1] : tensor<2x4x16xf32> into tensor<2x6x16xf32>
  %e3 = tensor.empty() : tensor<2x6x16xf32>
  %y = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%padded : tensor<2x6x16xf32>) outs(%e3 : tensor<2x6x16xf32>) {
  ^bb0(%in: f32, %o: f32):
    %s = arith.mulf %in, %in : f32
    linalg.yield %s : f32
  } -> tensor<2x6x16xf32>
  return %y : tensor<2x6x16xf32>
}
