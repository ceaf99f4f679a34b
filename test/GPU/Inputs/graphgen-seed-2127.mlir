module {
  func.func @f0(%arg0: tensor<f32>, %arg1: tensor<2xf32>, %arg2: tensor<2x3xf32>) -> tensor<1x1xf32> {
    %0 = tosa.const_shape  {values = dense<[1, 2]> : tensor<2xindex>} : () -> !tosa.shape<2>
    %1 = tosa.reshape %arg1, %0 : (tensor<2xf32>, !tosa.shape<2>) -> tensor<1x2xf32>
    %2 = tensor.empty() : tensor<1x3xf32>
    %cst = arith.constant 0.000000e+00 : f32
    %3 = linalg.fill ins(%cst : f32) outs(%2 : tensor<1x3xf32>) -> tensor<1x3xf32>
    %4 = linalg.matmul ins(%1, %arg2 : tensor<1x2xf32>, tensor<2x3xf32>) outs(%3 : tensor<1x3xf32>) -> tensor<1x3xf32>
    %5 = tosa.maximum %4, %3 : (tensor<1x3xf32>, tensor<1x3xf32>) -> tensor<1x3xf32>
    %extracted_slice = tensor.extract_slice %5[0, 0] [1, 1] [1, 1] : tensor<1x3xf32> to tensor<1x1xf32>
    %6 = tosa.pow %arg2, %arg2 : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %cst_0 = arith.constant dense<1.000000e-01> : tensor<1x4x8x4xf32>
    %cst_1 = arith.constant dense<[[[[1.250000e-01, -1.000000e+00, 3.000000e+00, 0.000000e+00], [6.552000e+04, 3.40282347E+38, -7.500000e-01, 0x7F800000], [1.000000e-01, 1.000000e-01, 0xFF800000, 6.552000e+04], [1.000000e-01, -1.000000e+00, 0.000000e+00, 1.250000e-01]], [[-2.500000e+00, 5.000000e-01, 1.250000e-01, 9.99999968E+37], [9.99999968E+37, 0.000000e+00, -1.000000e+00, 0.000000e+00], [-2.500000e+00, 0.000000e+00, -2.500000e+00, -1.000000e+00], [1.000000e+00, 5.000000e-01, 0xFF800000, 1.250000e-01]], [[1.000000e-01, 1.000000e+00, -1.000000e+00, 1.250000e-01], [-2.500000e+00, 1.250000e-01, -2.500000e+00, 9.99999968E+37], [-3.40282347E+38, -2.500000e+00, -1.000000e+00, 5.000000e-01], [-3.40282347E+38, 0.000000e+00, 3.40282347E+38, 3.000000e+00]]]]> : tensor<1x3x4x4xf32>
    %7 = tensor.empty() : tensor<1x4x6x4xf32>
    %cst_2 = arith.constant 0.000000e+00 : f32
    %8 = linalg.fill ins(%cst_2 : f32) outs(%7 : tensor<1x4x6x4xf32>) -> tensor<1x4x6x4xf32>
    %9 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%cst_0, %cst_1 : tensor<1x4x8x4xf32>, tensor<1x3x4x4xf32>) outs(%8 : tensor<1x4x6x4xf32>) -> tensor<1x4x6x4xf32>
    %10 = tosa.max_pool2d %8 {kernel = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<1x4x6x4xf32>) -> tensor<1x2x3x4xf32>
    %11 = tosa.reduce_min %3 {axis = 1 : i32} : (tensor<1x3xf32>) -> tensor<1x1xf32>
    %12 = tensor.empty() : tensor<1x1xf32>
    %13 = linalg.softmax dimension(1) ins(%extracted_slice : tensor<1x1xf32>) outs(%12 : tensor<1x1xf32>) -> tensor<1x1xf32>
    %14 = tensor.empty() : tensor<1x3xf32>
    %transposed = linalg.transpose ins(%4 : tensor<1x3xf32>) outs(%14 : tensor<1x3xf32>) permutation = [0, 1] 
    return %11 : tensor<1x1xf32>
  }
}
