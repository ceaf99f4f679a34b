// RUN: amp-opt %s --amp-mixed-precision --split-input-file | FileCheck %s

// tensor data movement follows its inputs; tensor.pad's payload (the pad
// value) is retyped with it.
// CHECK-LABEL: func.func @pad_slice_reshape
// CHECK: %[[M:.+]] = linalg.matmul
// CHECK: %[[L:.+]] = arith.truncf %[[M]] : tensor<4x8xf32> to tensor<4x8xf16>
// CHECK: %[[Z:.+]] = arith.constant 0.000000e+00 : f16
// CHECK: %[[P:.+]] = tensor.pad %[[L]] low[1, 0] high[1, 0]
// CHECK: tensor.yield %[[Z]] : f16
// CHECK: } : tensor<4x8xf16> to tensor<6x8xf16>
// CHECK: %[[S:.+]] = tensor.extract_slice %[[P]][0, 0] [6, 4] [1, 1] : tensor<6x8xf16> to tensor<6x4xf16>
// CHECK: %[[C:.+]] = tensor.collapse_shape %[[S]] {{\[}}[0, 1]] : tensor<6x4xf16> into tensor<24xf16>
// CHECK: %[[E:.+]] = tensor.expand_shape %[[C]] {{\[}}[0, 1]] output_shape [4, 6] : tensor<24xf16> into tensor<4x6xf16>
// CHECK: %[[K:.+]] = tensor.concat dim(1) %[[E]], %[[E]] : (tensor<4x6xf16>, tensor<4x6xf16>) -> tensor<4x12xf16>
// CHECK: linalg.matmul ins(%[[K]], %{{.+}} : tensor<4x12xf16>, tensor<12x2xf16>)
func.func @pad_slice_reshape(%a: tensor<4x4xf32>, %b: tensor<4x8xf32>, %w: tensor<12x2xf32>, %o: tensor<4x2xf32>) -> tensor<4x2xf32> {
  %m = linalg.matmul ins(%a, %b : tensor<4x4xf32>, tensor<4x8xf32>) outs(%b : tensor<4x8xf32>) -> tensor<4x8xf32>
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %m low[1, 0] high[1, 0] {
  ^bb0(%i: index, %j: index):
    tensor.yield %zero : f32
  } : tensor<4x8xf32> to tensor<6x8xf32>
  %s = tensor.extract_slice %p[0, 0] [6, 4] [1, 1] : tensor<6x8xf32> to tensor<6x4xf32>
  %c = tensor.collapse_shape %s [[0, 1]] : tensor<6x4xf32> into tensor<24xf32>
  %e = tensor.expand_shape %c [[0, 1]] output_shape [4, 6] : tensor<24xf32> into tensor<4x6xf32>
  %k = tensor.concat dim(1) %e, %e : (tensor<4x6xf32>, tensor<4x6xf32>) -> tensor<4x12xf32>
  %r = linalg.matmul ins(%k, %w : tensor<4x12xf32>, tensor<12x2xf32>) outs(%o : tensor<4x2xf32>) -> tensor<4x2xf32>
  return %r : tensor<4x2xf32>
}

// -----

// tensor.dim reads only a shape; tensor.bitcast reinterprets bits and is
// red.
// CHECK-LABEL: func.func @dim_and_bitcast
// CHECK: %[[M:.+]] = linalg.matmul
// CHECK: tensor.dim %[[M]], %{{.+}} : tensor<?x4xf32>
// CHECK: tensor.bitcast %[[M]] : tensor<?x4xf32> to tensor<?x4xi32>
func.func @dim_and_bitcast(%a: tensor<?x4xf32>, %b: tensor<4x4xf32>) -> (index, tensor<?x4xi32>) {
  %m = linalg.matmul ins(%a, %b : tensor<?x4xf32>, tensor<4x4xf32>) outs(%a : tensor<?x4xf32>) -> tensor<?x4xf32>
  %c0 = arith.constant 0 : index
  %d = tensor.dim %m, %c0 : tensor<?x4xf32>
  %i = tensor.bitcast %m : tensor<?x4xf32> to tensor<?x4xi32>
  return %d, %i : index, tensor<?x4xi32>
}
