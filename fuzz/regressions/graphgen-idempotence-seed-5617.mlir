// Found by amp-graphgen (seed 5617): a second run of amp-mixed-precision changed
// the IR. The conversion now reaches a fixed point in one run (see
// convertToMixedPrecision in include/amp/Transforms/MixedPrecision.h).
#map = affine_map<(d0, d1, d2) -> (d0, d2, d1)>
#map1 = affine_map<(d0, d1, d2) -> (d0, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map3 = affine_map<(d0, d1) -> (d1, d0)>
#map4 = affine_map<(d0, d1) -> (d0)>
module {
  func.func private @ext0() -> f32
  func.func private @ext1() -> f32
  func.func @f0(%arg0: f32, %arg1: tensor<8x5x4xf32>, %arg2: f32, %arg3: tensor<1x1x4x2xf32>) -> (tensor<1x5x8x4xf32>, f32, tensor<1x6x8x4xf32>) {
    %0 = tensor.empty() : tensor<8x4xf32>
    %cst = arith.constant {amp.precision = #amp.precision<accumulate = f16, output = f16>} 3.40282347E+38 : f32
    %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<8x4xf32>) -> tensor<8x4xf32>
    %2 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "reduction"]} ins(%arg1 : tensor<8x5x4xf32>) outs(%1 : tensor<8x4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %47 = arith.minimumf %out, %in : f32
      linalg.yield %47 : f32
    } -> tensor<8x4xf32>
    %cst_0 = arith.constant {amp.color = #amp.color<green>} dense<-1.000000e+00> : tensor<1x6x8x4xf32>
    %3 = tensor.empty() : tensor<1x1x4xf32>
    %4 = linalg.fill ins(%arg2 : f32) outs(%3 : tensor<1x1x4xf32>) -> tensor<1x1x4xf32>
    %5 = tensor.empty() : tensor<1x6x8x4xf32>
    %cst_1 = arith.constant 0.000000e+00 : f32
    %6 = linalg.fill ins(%cst_1 : f32) outs(%5 : tensor<1x6x8x4xf32>) -> tensor<1x6x8x4xf32>
    %7 = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%cst_0, %4 : tensor<1x6x8x4xf32>, tensor<1x1x4xf32>) outs(%6 : tensor<1x6x8x4xf32>) -> tensor<1x6x8x4xf32>
    %cst_2 = arith.constant {amp.color = #amp.color<gray>} dense<[[[[1.000000e-30], [5.000000e-01], [-7.812500e-01], [3.40282347E+38]], [[-2.500000e+00], [-1.256250e+01], [1.000000e+00], [0.000000e+00]]], [[[-4.687500e-02], [-3.000000e-09], [1.000000e+00], [-7.500000e-01]], [[-2.500000e+00], [3.40282347E+38], [1.171875], [-10.59375]]], [[[3.000000e+00], [0.000000e+00], [-14.65625], [-0.000000e+00]], [[-7.500000e-01], [-2.953125], [-7.984375], [-2.500000e+00]]]]> : tensor<3x2x4x1xf32>
    %8 = tensor.empty() : tensor<1x4x7x1xf32>
    %cst_3 = arith.constant 0.000000e+00 : f32
    %9 = linalg.fill ins(%cst_3 : f32) outs(%8 : tensor<1x4x7x1xf32>) -> tensor<1x4x7x1xf32>
    %10 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%cst_0, %cst_2 : tensor<1x6x8x4xf32>, tensor<3x2x4x1xf32>) outs(%9 : tensor<1x4x7x1xf32>) -> tensor<1x4x7x1xf32>
    %c0 = arith.constant 0 : index
    %c2 = arith.constant {amp.precision = #amp.precision<accumulate = bf16, output = f16>} 2 : index
    %c1 = arith.constant 1 : index
    %11 = scf.for %arg4 = %c0 to %c2 step %c1 iter_args(%arg5 = %cst_1) -> (f32) {
      %47 = tensor.empty() {amp.color = #amp.color<red>} : tensor<1x4x7x1xf32>
      %48 = linalg.softmax dimension(1) ins(%10 : tensor<1x4x7x1xf32>) outs(%47 : tensor<1x4x7x1xf32>) -> tensor<1x4x7x1xf32>
      %49 = tensor.empty() : tensor<1x4x7x1xf32>
      %50 = linalg.floor ins(%9 : tensor<1x4x7x1xf32>) outs(%49 : tensor<1x4x7x1xf32>) -> tensor<1x4x7x1xf32>
      %51 = tensor.empty() : tensor<8x4x5xf32>
      %broadcasted = linalg.broadcast ins(%2 : tensor<8x4xf32>) outs(%51 : tensor<8x4x5xf32>) dimensions = [2] 
      scf.yield %cst : f32
    }
    %12 = call @ext0() : () -> f32
    %13 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
    %14 = tosa.negate %7, %13, %13 : (tensor<1x6x8x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x6x8x4xf32>
    %15 = tensor.empty() : tensor<2x1x4xf32>
    %c0_4 = arith.constant 0 : index
    %c1_5 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c0_6 = arith.constant 0 : index
    %extracted = tensor.extract %9[%c0_4, %c1_5, %c4, %c0_6] : tensor<1x4x7x1xf32>
    %16 = linalg.fill ins(%extracted : f32) outs(%15 : tensor<2x1x4xf32>) -> tensor<2x1x4xf32>
    %17 = tensor.empty() : tensor<1x5x8x4xf32>
    %cst_7 = arith.constant 0.000000e+00 : f32
    %18 = linalg.fill ins(%cst_7 : f32) outs(%17 : tensor<1x5x8x4xf32>) -> tensor<1x5x8x4xf32>
    %19 = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%6, %16 : tensor<1x6x8x4xf32>, tensor<2x1x4xf32>) outs(%18 : tensor<1x5x8x4xf32>) -> tensor<1x5x8x4xf32>
    %cst_8 = arith.constant dense<1.000000e-01> : tensor<4x4xf32>
    %20 = tensor.empty() : tensor<8x4xf32>
    %cst_9 = arith.constant 0.000000e+00 : f32
    %21 = linalg.fill ins(%cst_9 : f32) outs(%20 : tensor<8x4xf32>) -> tensor<8x4xf32>
    %22 = linalg.matmul ins(%1, %cst_8 : tensor<8x4xf32>, tensor<4x4xf32>) outs(%21 : tensor<8x4xf32>) -> tensor<8x4xf32>
    %from_elements = tensor.from_elements %arg2 : tensor<f32>
    %23 = tensor.empty() {amp.color = #amp.color<red>} : tensor<1x3x4x2xf32>
    %transposed = linalg.transpose ins(%cst_2 : tensor<3x2x4x1xf32>) outs(%23 : tensor<1x3x4x2xf32>) permutation = [3, 0, 2, 1] 
    %24 = tensor.empty() : tensor<1x5x4xf32>
    %cst_10 = arith.constant 0.000000e+00 : f32
    %25 = linalg.fill ins(%cst_10 : f32) outs(%24 : tensor<1x5x4xf32>) -> tensor<1x5x4xf32>
    %reduced = linalg.reduce { arith.addf } ins(%19 : tensor<1x5x8x4xf32>) outs(%25 : tensor<1x5x4xf32>) dimensions = [2] 
    %26 = call @ext1() : () -> f32
    %c0_11 = arith.constant 0 : index
    %c2_12 = arith.constant 2 : index
    %c2_13 = arith.constant 2 : index
    %c0_14 = arith.constant 0 : index
    %extracted_15 = tensor.extract %6[%c0_11, %c2_12, %c2_13, %c0_14] : tensor<1x6x8x4xf32>
    %27 = arith.cmpf olt, %cst_9, %extracted_15 : f32
    %28:2 = scf.if %27 -> (tensor<1x4x7x1xf32>, tensor<1x5x8x4xf32>) {
      %47 = tensor.empty() : tensor<1x5x4xf32>
      %48 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%reduced : tensor<1x5x4xf32>) outs(%47 : tensor<1x5x4xf32>) {
      ^bb0(%in: f32, %out: f32):
        %53 = arith.divf %in, %cst_7 : f32
        linalg.yield %53 : f32
      } -> tensor<1x5x4xf32>
      %49 = arith.negf %25 : tensor<1x5x4xf32>
      %cst_21 = arith.constant 13.078125 : f32
      %50 = tensor.empty() : tensor<1x6x8x2xf32>
      %cst_22 = arith.constant 0.000000e+00 : f32
      %51 = linalg.fill ins(%cst_22 : f32) outs(%50 : tensor<1x6x8x2xf32>) -> tensor<1x6x8x2xf32>
      %52 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%14, %arg3 : tensor<1x6x8x4xf32>, tensor<1x1x4x2xf32>) outs(%51 : tensor<1x6x8x2xf32>) -> tensor<1x6x8x2xf32>
      %cst_23 = arith.constant dense<0.000000e+00> : tensor<1x4x7x1xf32>
      scf.yield %cst_23, %18 : tensor<1x4x7x1xf32>, tensor<1x5x8x4xf32>
    } else {
      %47 = arith.negf %7 : tensor<1x6x8x4xf32>
      %collapsed_21 = tensor.collapse_shape %22 [[0, 1]] : tensor<8x4xf32> into tensor<32xf32>
      scf.yield %10, %19 : tensor<1x4x7x1xf32>, tensor<1x5x8x4xf32>
    }
    %cst_16 = arith.constant 0.000000e+00 : f32
    %29 = arith.cmpf olt, %extracted_15, %cst_16 : f32
    %30:2 = scf.if %29 -> (tensor<1x4x7x1xf32>, f32) {
      scf.yield %9, %extracted : tensor<1x4x7x1xf32>, f32
    } else {
      scf.yield %28#0, %cst_1 : tensor<1x4x7x1xf32>, f32
    }
    %31 = tensor.empty() : tensor<3x3x4x4xf32>
    %cst_17 = arith.constant 12.46875 : f32
    %32 = linalg.fill ins(%cst_17 : f32) outs(%31 : tensor<3x3x4x4xf32>) -> tensor<3x3x4x4xf32>
    %33 = tensor.empty() : tensor<1x3x6x4xf32>
    %cst_18 = arith.constant {amp.color = #amp.color<gray>} 0.000000e+00 : f32
    %34 = linalg.fill ins(%cst_18 : f32) outs(%33 : tensor<1x3x6x4xf32>) -> tensor<1x3x6x4xf32>
    %35 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%28#1, %32 : tensor<1x5x8x4xf32>, tensor<3x3x4x4xf32>) outs(%34 : tensor<1x3x6x4xf32>) -> tensor<1x3x6x4xf32>
    %collapsed = tensor.collapse_shape %16 [[0, 1], [2]] : tensor<2x1x4xf32> into tensor<2x4xf32>
    %36 = arith.cmpf une, %collapsed, %collapsed : tensor<2x4xf32>
    %37 = arith.select %36, %collapsed, %collapsed : tensor<2x4xi1>, tensor<2x4xf32>
    %38 = arith.fptosi %arg0 : f32 to i32
    %39 = arith.sitofp %38 : i32 to f32
    %cst_19 = arith.constant 0.000000e+00 : f32
    %40:2 = scf.while (%arg4 = %6, %arg5 = %cst_19) : (tensor<1x6x8x4xf32>, f32) -> (tensor<1x6x8x4xf32>, f32) {
      %47 = arith.cmpf olt, %arg5, %arg2 : f32
      scf.condition(%47) %arg4, %arg5 : tensor<1x6x8x4xf32>, f32
    } do {
    ^bb0(%arg4: tensor<1x6x8x4xf32>, %arg5: f32):
      %47 = func.call @ext1() : () -> f32
      %48 = tensor.empty() : tensor<8x4xf32>
      %cst_21 = arith.constant 3.40282347E+38 : f32
      %49 = linalg.fill {amp.color = #amp.color<red>} ins(%cst_21 : f32) outs(%48 : tensor<8x4xf32>) -> tensor<8x4xf32>
      %50 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "reduction"]} ins(%arg1 : tensor<8x5x4xf32>) outs(%49 : tensor<8x4xf32>) {
      ^bb0(%in: f32, %out: f32):
        %53 = arith.minimumf %out, %in : f32
        linalg.yield %53 : f32
      } -> tensor<8x4xf32>
      %cst_22 = arith.constant -15.59375 : f32
      %51 = arith.subf %39, %cst_22 : f32
      %cst_23 = arith.constant 1.000000e+00 : f32
      %52 = arith.addf %arg5, %cst_23 : f32
      scf.yield %14, %52 : tensor<1x6x8x4xf32>, f32
    }
    %41 = arith.fptosi %cst_9 : f32 to i32
    %42 = arith.sitofp %41 : i32 to f32
    %43 = tensor.empty() : tensor<1x5x7x4xf32>
    %cst_20 = arith.constant -3.40282347E+38 : f32
    %44 = linalg.fill ins(%cst_20 : f32) outs(%43 : tensor<1x5x7x4xf32>) -> tensor<1x5x7x4xf32>
    %45 = tensor.empty() : tensor<2x2xf32>
    %46 = linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%7, %45 : tensor<1x6x8x4xf32>, tensor<2x2xf32>) outs(%44 : tensor<1x5x7x4xf32>) -> tensor<1x5x7x4xf32>
    return %28#1, %12, %7 : tensor<1x5x8x4xf32>, f32, tensor<1x6x8x4xf32>
  }
  func.func @f1(%arg0: tensor<?x4xf32>, %arg1: f32, %arg2: tensor<3x1x8xf32>, %arg3: tensor<3x1x1xf32>) -> (tensor<?x4xf32>, tensor<4xf32>) {
    %cst = arith.constant dense<[[-1.656250e+00, -2.500000e+00, -4.968750e+00, 1.000000e-01], [0.000000e+00, 1.250000e-01, -7.375000e+00, -2.734375], [9.99999993E-9, 1.000000e+00, -3.453125, 9.999940e-41], [-2.500000e+00, -7.500000e-01, 7.500000e-01, 6.453125]]> : tensor<4x4xf32>
    %c0 = arith.constant 0 : index
    %dim = tensor.dim %arg0, %c0 : tensor<?x4xf32>
    %0 = tensor.empty(%dim) : tensor<?x4xf32>
    %cst_0 = arith.constant 0.000000e+00 : f32
    %1 = linalg.fill ins(%cst_0 : f32) outs(%0 : tensor<?x4xf32>) -> tensor<?x4xf32>
    %2 = linalg.matmul ins(%arg0, %cst : tensor<?x4xf32>, tensor<4x4xf32>) outs(%1 : tensor<?x4xf32>) -> tensor<?x4xf32>
    %collapsed = tensor.collapse_shape %cst [[0, 1]] : tensor<4x4xf32> into tensor<16xf32>
    %c0_1 = arith.constant 0 : index
    %dim_2 = tensor.dim %2, %c0_1 : tensor<?x4xf32>
    %3 = tensor.empty(%dim_2) : tensor<4x?xf32>
    %transposed = linalg.transpose ins(%2 : tensor<?x4xf32>) outs(%3 : tensor<4x?xf32>) permutation = [1, 0] 
    %cst_3 = arith.constant dense<1.000000e+00> : tensor<3x8x1xf32>
    %4 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
    %5 = tosa.matmul %arg2, %cst_3, %4, %4 : (tensor<3x1x8xf32>, tensor<3x8x1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<3x1x1xf32>
    %6 = tensor.empty() : tensor<4xf32>
    %cst_4 = arith.constant -3.40282347E+38 : f32
    %7 = linalg.fill ins(%cst_4 : f32) outs(%6 : tensor<4xf32>) -> tensor<4xf32>
    %8 = linalg.generic {indexing_maps = [#map3, #map4], iterator_types = ["parallel", "reduction"]} ins(%arg0 : tensor<?x4xf32>) outs(%7 : tensor<4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %10 = arith.maximumf %out, %in {amp.color = #amp.color<red>} : f32
      linalg.yield %10 : f32
    } -> tensor<4xf32>
    %9 = math.tanh %transposed : tensor<4x?xf32>
    %concat = tensor.concat dim(0) %5, %arg3 {amp.color = #amp.color<red>} : (tensor<3x1x1xf32>, tensor<3x1x1xf32>) -> tensor<6x1x1xf32>
    return %1, %8 : tensor<?x4xf32>, tensor<4xf32>
  }
}
