// Found by amp-graphgen (seed 50): a second run of amp-mixed-precision changed
// the IR. The conversion now reaches a fixed point in one run (see
// convertToMixedPrecision in include/amp/Transforms/MixedPrecision.h).
#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#map3 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map4 = affine_map<(d0, d1, d2, d3) -> (d3)>
#map5 = affine_map<(d0, d1, d2) -> (d0, d2, d1)>
#map6 = affine_map<(d0) -> (d0)>
module {
  func.func @f0(%arg0: f32) -> (tensor<1xf32>, tensor<1x4x3x3xf32>, tensor<3x1x1x3xf32>) {
    %cst = arith.constant 3.40282347E+38 : f32
    %cst_0 = arith.constant -6.828125 : f32
    %from_elements = tensor.from_elements %cst, %cst_0 : tensor<2xf32>
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %c1 = arith.constant 1 : index
    %0 = scf.for %arg1 = %c0 to %c2 step %c1 iter_args(%arg2 = %arg0) -> (f32) {
      %cst_15 = arith.constant -3.218750e+00 : f32
      %44 = arith.subf %arg2, %cst_15 : f32
      %expanded = tensor.expand_shape %from_elements [[0, 1]] output_shape [1, 2] : tensor<2xf32> into tensor<1x2xf32>
      %45 = arith.truncf %cst : f32 to f16
      %46 = arith.extf %45 {amp.precision = #amp.precision<accumulate = f32, output = bf16>} : f16 to f32
      %extracted_slice_16 = tensor.extract_slice %from_elements[0] [2] [1] : tensor<2xf32> to tensor<2xf32>
      %c0_17 = arith.constant 0 : index
      %extracted = tensor.extract %from_elements[%c0_17] : tensor<2xf32>
      scf.yield {amp.color = #amp.color<green>} %extracted : f32
    }
    %1 = tensor.empty() : tensor<1x4x5xf32>
    %cst_1 = arith.constant 0.000000e+00 : f32
    %2 = linalg.fill ins(%cst_1 : f32) outs(%1 : tensor<1x4x5xf32>) -> tensor<1x4x5xf32>
    %3 = "tosa.const"() <{values = dense<[[[8.125000e-01, -1.000000e+00, -11.578125, -2.093750e+00], [-7.500000e-01, 1.000000e+00, 5.000000e-01, 3.000000e+00], [1.000000e+00, 6.550400e+04, 0xFF800000, 1.250000e-01], [13.265625, -7.500000e-01, 0.000000e+00, 0xFF800000], [9.99999968E+37, -11.40625, 0.000000e+00, -7.500000e-01]]]> : tensor<1x5x4xf32>}> : () -> tensor<1x5x4xf32>
    %4 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
    %5 = tosa.matmul %2, %3, %4, %4 : (tensor<1x4x5xf32>, tensor<1x5x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4xf32>
    %6 = tensor.empty() {amp.precision = #amp.precision<accumulate = f32, output = f16>} : tensor<1x5x4x3xf32>
    %cst_2 = arith.constant 1.250000e-01 : f32
    %7 = linalg.fill ins(%cst_2 : f32) outs(%6 : tensor<1x5x4x3xf32>) -> tensor<1x5x4x3xf32>
    %8 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
    %9 = "tosa.const"() <{values = dense<[[[[-0.000000e+00, 6.552000e+04, 1.250000e-01], [5.921875, 14.234375, 1.000000e+00], [3.40282347E+38, -11.921875, -7.000000e+04]]]]> : tensor<1x1x3x3xf32>}> : () -> tensor<1x1x3x3xf32>
    %cst_3 = arith.constant {amp.color = #amp.color<green>} dense<7.484375> : tensor<1xf32>
    %10 = tosa.conv2d %7, %9, %cst_3, %8, %8 {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x5x4x3xf32>, tensor<1x1x3x3xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x5x2x1xf32>
    %11 = math.sin %0 : f32
    %12 = arith.cmpf une, %arg0, %cst_1 : f32
    %13 = arith.select %12, %arg0, %cst_1 : f32
    %14 = tensor.empty() : tensor<1x5x4xf32>
    %15 = linalg.ceil ins(%3 : tensor<1x5x4xf32>) outs(%14 : tensor<1x5x4xf32>) -> tensor<1x5x4xf32>
    %16 = tensor.empty() : tensor<5x4x1x3xf32>
    %transposed = linalg.transpose ins(%7 : tensor<1x5x4x3xf32>) outs(%16 : tensor<5x4x1x3xf32>) permutation = [1, 2, 0, 3] 
    %17 = arith.minimumf %arg0, %0 : f32
    %18 = tensor.empty() : tensor<1x5xf32>
    %cst_4 = arith.constant {amp.precision = #amp.precision<accumulate = bf16, output = f32>} -3.40282347E+38 : f32
    %19 = linalg.fill ins(%cst_4 : f32) outs(%18 : tensor<1x5xf32>) -> tensor<1x5xf32>
    %reduced = linalg.reduce { arith.maximumf } ins(%2 : tensor<1x4x5xf32>) outs(%19 : tensor<1x5xf32>) dimensions = [1] 
    %20 = tensor.empty() {amp.precision = #amp.precision<accumulate = f32, output = f16>} : tensor<1xf32>
    %cst_5 = arith.constant -3.40282347E+38 : f32
    %21 = linalg.fill ins(%cst_5 : f32) outs(%20 : tensor<1xf32>) -> tensor<1xf32>
    %reduced_6 = linalg.reduce { arith.maximumf } ins(%reduced : tensor<1x5xf32>) outs(%21 : tensor<1xf32>) dimensions = [1] 
    %22 = tensor.empty() : tensor<1x1x3xf32>
    %cst_7 = arith.constant 1.000000e-01 : f32
    %23 = linalg.fill ins(%cst_7 : f32) outs(%22 : tensor<1x1x3xf32>) -> tensor<1x1x3xf32>
    %24 = tensor.empty() : tensor<1x5x4x3xf32>
    %cst_8 = arith.constant 0.000000e+00 : f32
    %25 = linalg.fill ins(%cst_8 : f32) outs(%24 : tensor<1x5x4x3xf32>) -> tensor<1x5x4x3xf32>
    %26 = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%7, %23 : tensor<1x5x4x3xf32>, tensor<1x1x3xf32>) outs(%25 : tensor<1x5x4x3xf32>) -> tensor<1x5x4x3xf32>
    %cst_9 = arith.constant dense_resource<blob0> : tensor<5x8xf32>
    %27 = tensor.empty() : tensor<1x8xf32>
    %cst_10 = arith.constant 0.000000e+00 : f32
    %28 = linalg.fill ins(%cst_10 : f32) outs(%27 : tensor<1x8xf32>) -> tensor<1x8xf32>
    %29 = linalg.generic {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"]} ins(%reduced, %cst_9 : tensor<1x5xf32>, tensor<5x8xf32>) outs(%28 : tensor<1x8xf32>) {
    ^bb0(%in: f32, %in_15: f32, %out: f32):
      %44 = arith.mulf %in, %in_15 : f32
      %45 = arith.addf %out, %44 {amp.color = #amp.color<green>} : f32
      linalg.yield %45 : f32
    } -> tensor<1x8xf32>
    %30 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
    %31 = "tosa.const"() <{values = dense<7.140625> : tensor<3x3x3x3xf32>}> : () -> tensor<3x3x3x3xf32>
    %cst_11 = arith.constant dense<1.000000e-01> : tensor<3xf32>
    %32 = tosa.conv2d %7, %31, %cst_11, %30, %30 {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x5x4x3xf32>, tensor<3x3x3x3xf32>, tensor<3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x3x2x3xf32>
    %padded = tensor.pad %32 low[1, 1, 2, 2] high[1, 1, 2, 0] {
    ^bb0(%arg1: index, %arg2: index, %arg3: index, %arg4: index):
      %cst_15 = arith.constant -0.000000e+00 : f32
      tensor.yield %cst_15 : f32
    } {amp.color = #amp.color<gray>} : tensor<1x3x2x3xf32> to tensor<3x5x6x5xf32>
    %33 = tensor.empty() : tensor<1x4x3x3xf32>
    %cst_12 = arith.constant 0xFF800000 : f32
    %34 = linalg.fill ins(%cst_12 : f32) outs(%33 : tensor<1x4x3x3xf32>) -> tensor<1x4x3x3xf32>
    %35 = tensor.empty() : tensor<2x2xf32>
    %36 = linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%25, %35 : tensor<1x5x4x3xf32>, tensor<2x2xf32>) outs(%34 : tensor<1x4x3x3xf32>) -> tensor<1x4x3x3xf32>
    %37 = linalg.generic {indexing_maps = [#map3, #map4, #map3, #map3], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%34, %cst_11, %34 : tensor<1x4x3x3xf32>, tensor<3xf32>, tensor<1x4x3x3xf32>) outs(%34 : tensor<1x4x3x3xf32>) attrs =  {amp.color = #amp.color<red>} {
    ^bb0(%in: f32, %in_15: f32, %in_16: f32, %out: f32):
      %44 = arith.cmpf ogt, %in_15, %in_15 : f32
      %45 = arith.select %44, %in_15, %in_15 : f32
      linalg.yield %45 : f32
    } -> tensor<1x4x3x3xf32>
    %38 = tosa.reduce_sum %10 {axis = 0 : i32} : (tensor<1x5x2x1xf32>) -> tensor<1x5x2x1xf32>
    %extracted_slice = tensor.extract_slice %37[0, 0, 0, 0] [1, 3, 2, 3] [1, 1, 1, 1] {amp.precision = #amp.precision<accumulate = bf16, output = f16>} : tensor<1x4x3x3xf32> to tensor<1x3x2x3xf32>
    %cst_13 = arith.constant -7.140625 : f32
    %39 = tensor.empty() : tensor<1x3xf32>
    %broadcasted = linalg.broadcast ins(%reduced_6 : tensor<1xf32>) outs(%39 : tensor<1x3xf32>) dimensions = [1] 
    %40 = tosa.const_shape  {values = dense<[1, 3]> : tensor<2xindex>} : () -> !tosa.shape<2>
    %41 = tosa.reshape %cst_11, %40 : (tensor<3xf32>, !tosa.shape<2>) -> tensor<1x3xf32>
    %42 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
    %cst_14 = arith.constant dense_resource<blob1> : tensor<3x1x1x3xf32>
    %43 = tosa.conv2d %31, %cst_14, %cst_11, %42, %42 {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<3x3x3x3xf32>, tensor<3x1x1x3xf32>, tensor<3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<3x3x3x3xf32>
    return %21, %37, %cst_14 : tensor<1xf32>, tensor<1x4x3x3xf32>, tensor<3x1x1x3xf32>
  }
  func.func private @f1(%arg0: tensor<f32>, %arg1: tensor<2x5x4xf32>, %arg2: f32, %arg3: tensor<2x4x8xf32>) -> tensor<3x1x1x3xf32> {
    %0:3 = call @f0(%arg2) : (f32) -> (tensor<1xf32>, tensor<1x4x3x3xf32>, tensor<3x1x1x3xf32>)
    %1 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
    %2 = tosa.matmul %arg1, %arg3, %1, %1 : (tensor<2x5x4xf32>, tensor<2x4x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x5x8xf32>
    %cast = tensor.cast %0#2 : tensor<3x1x1x3xf32> to tensor<3x?x1x3xf32>
    %3:3 = call @f0(%arg2) : (f32) -> (tensor<1xf32>, tensor<1x4x3x3xf32>, tensor<3x1x1x3xf32>)
    return %3#2 : tensor<3x1x1x3xf32>
  }
  module @nested {
    func.func @f2(%arg0: tensor<?x?x4xf32>, %arg1: tensor<5x4x3x4xf32>, %arg2: f32) -> (tensor<5x4x3x4xf32>, f32) {
      %cst = arith.constant 6.550400e+04 : f32
      %0 = arith.cmpf ogt, %cst, %arg2 {amp.color = #amp.color<green>} : f32
      cf.cond_br %0, ^bb1, ^bb2
    ^bb1:  // pred: ^bb0
      %1 = tensor.bitcast %arg0 : tensor<?x?x4xf32> to tensor<?x?x4xi32>
      %2 = tensor.bitcast %1 : tensor<?x?x4xi32> to tensor<?x?x4xf32>
      %c0 = arith.constant 0 : index
      %dim = tensor.dim %2, %c0 : tensor<?x?x4xf32>
      %3 = tensor.empty(%dim) : tensor<?x4xf32>
      %cst_0 = arith.constant 1.000000e+00 : f32
      %4 = linalg.fill ins(%cst_0 : f32) outs(%3 : tensor<?x4xf32>) -> tensor<?x4xf32>
      %5 = linalg.generic {indexing_maps = [#map5, #map2], iterator_types = ["parallel", "parallel", "reduction"]} ins(%2 : tensor<?x?x4xf32>) outs(%4 : tensor<?x4xf32>) {
      ^bb0(%in: f32, %out: f32):
        %29 = math.absf %in : f32
        %30 = arith.mulf %out, %29 : f32
        linalg.yield %30 : f32
      } -> tensor<?x4xf32>
      %6 = math.atan2 %arg1, %arg1 : tensor<5x4x3x4xf32>
      %c0_1 = arith.constant 0 : index
      %c2 = arith.constant 2 : index
      %c1 = arith.constant 1 : index
      %c0_2 = arith.constant 0 : index
      %extracted = tensor.extract %arg1[%c0_1, %c2, %c1, %c0_2] : tensor<5x4x3x4xf32>
      cf.br ^bb3(%extracted : f32)
    ^bb2:  // pred: ^bb0
      cf.br ^bb3(%arg2 : f32)
    ^bb3(%7: f32):  // 2 preds: ^bb1, ^bb2
      %8 = tensor.empty() : tensor<5x3x2x4xf32>
      %cst_3 = arith.constant -3.40282347E+38 : f32
      %9 = linalg.fill ins(%cst_3 : f32) outs(%8 : tensor<5x3x2x4xf32>) -> tensor<5x3x2x4xf32>
      %10 = tensor.empty() : tensor<2x2xf32>
      %11 = linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%arg1, %10 : tensor<5x4x3x4xf32>, tensor<2x2xf32>) outs(%9 : tensor<5x3x2x4xf32>) -> tensor<5x3x2x4xf32>
      %12 = tosa.const_shape  {values = dense<[1, 120]> : tensor<2xindex>} : () -> !tosa.shape<2>
      %13 = tosa.reshape %11, %12 : (tensor<5x3x2x4xf32>, !tosa.shape<2>) -> tensor<1x120xf32>
      %14 = tensor.empty() : tensor<5x3x2x4xf32>
      %cst_4 = arith.constant -3.40282347E+38 : f32
      %15 = linalg.fill ins(%cst_4 : f32) outs(%14 : tensor<5x3x2x4xf32>) -> tensor<5x3x2x4xf32>
      %16 = tensor.empty() : tensor<2x2xf32>
      %17 = linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%arg1, %16 : tensor<5x4x3x4xf32>, tensor<2x2xf32>) outs(%15 : tensor<5x3x2x4xf32>) -> tensor<5x3x2x4xf32>
      %18 = tensor.empty() : tensor<5x2x1x4xf32>
      %cst_5 = arith.constant -3.40282347E+38 : f32
      %19 = linalg.fill ins(%cst_5 : f32) outs(%18 : tensor<5x2x1x4xf32>) -> tensor<5x2x1x4xf32>
      %20 = tensor.empty() : tensor<2x2xf32>
      %21 = linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%11, %20 : tensor<5x3x2x4xf32>, tensor<2x2xf32>) outs(%19 : tensor<5x2x1x4xf32>) -> tensor<5x2x1x4xf32>
      %22 = tensor.empty() : tensor<5x2x1x4xf32>
      %23 = tensor.empty() : tensor<5x2x1x4xf32>
      %24 = linalg.fill ins(%arg2 : f32) outs(%23 : tensor<5x2x1x4xf32>) -> tensor<5x2x1x4xf32>
      %25 = linalg.add ins(%21, %24 : tensor<5x2x1x4xf32>, tensor<5x2x1x4xf32>) outs(%22 : tensor<5x2x1x4xf32>) -> tensor<5x2x1x4xf32>
      %c0_6 = arith.constant 0 : index
      %c2_7 = arith.constant 2 : index
      %c1_8 = arith.constant 1 : index
      %26 = scf.for %arg3 = %c0_6 to %c2_7 step %c1_8 iter_args(%arg4 = %arg2) -> (f32) {
        %29 = tensor.empty() : tensor<4xf32>
        %30 = linalg.fill ins(%cst_5 : f32) outs(%29 : tensor<4xf32>) -> tensor<4xf32>
        %31 = tensor.empty() : tensor<5x3x2x4xf32>
        %32 = linalg.generic {indexing_maps = [#map3, #map4, #map3], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%11, %30 : tensor<5x3x2x4xf32>, tensor<4xf32>) outs(%31 : tensor<5x3x2x4xf32>) {
        ^bb0(%in: f32, %in_11: f32, %out: f32):
          %47 = arith.subf %in, %in_11 : f32
          %48 = arith.minimumf %47, %47 : f32
          linalg.yield %48 : f32
        } -> tensor<5x3x2x4xf32>
        %33 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
        %34 = tensor.empty() : tensor<3x3x3x4xf32>
        %35 = linalg.fill ins(%arg4 : f32) outs(%34 : tensor<3x3x3x4xf32>) -> tensor<3x3x3x4xf32>
        %cst_9 = arith.constant dense<-6.281250e+00> : tensor<3xf32>
        %36 = tosa.conv2d %arg1, %35, %cst_9, %33, %33 {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<5x4x3x4xf32>, tensor<3x3x3x4xf32>, tensor<3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<5x2x1x3xf32>
        %37 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
        %38 = "tosa.const"() <{values = dense<11.453125> : tensor<2x2x3x4xf32>}> : () -> tensor<2x2x3x4xf32>
        %cst_10 = arith.constant dense<-8.562500e+00> : tensor<2xf32>
        %39 = tosa.conv2d %35, %38, %cst_10, %37, %37 {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<3x3x3x4xf32>, tensor<2x2x3x4xf32>, tensor<2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<3x2x1x2xf32>
        %40 = tensor.empty() : tensor<4xf32>
        %41 = linalg.fill ins(%cst_3 : f32) outs(%40 : tensor<4xf32>) -> tensor<4xf32>
        %42 = tensor.empty() : tensor<4xf32>
        %43 = linalg.generic {indexing_maps = [#map6, #map6, #map6], iterator_types = ["parallel"]} ins(%30, %41 : tensor<4xf32>, tensor<4xf32>) outs(%42 : tensor<4xf32>) {
        ^bb0(%in: f32, %in_11: f32, %out: f32):
          %47 = arith.divf %in_11, %in : f32
          %48 = math.sqrt %in : f32
          linalg.yield %48 : f32
        } -> tensor<4xf32>
        %44 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
        %45 = "tosa.const"() <{values = dense<[[[[6.875000e+00, 5.000000e-01, 0.000000e+00, 9.999940e-41], [-1.168750e+01, -14.15625, 1.250000e-01, -8.828125], [-13.453125, -2.500000e+00, 1.562500e-02, -1.625000e+00]]], [[[-3.40282347E+38, 1.000000e-01, 3.000000e+00, -1.000000e+00], [7.125000e+00, -1.000000e+00, -8.390625, 11.65625], [5.750000e+00, 1.250000e-01, -5.578125, -3.046875]]], [[[8.109375, -1.000000e+00, 6.552000e+04, 1.000000e+00], [1.000000e-01, 0.000000e+00, -7.000000e+04, -9.375000e+00], [-7.500000e-01, 1.000000e-30, -2.968750e+00, 4.781250e+00]]], [[[6.968750e+00, -4.218750e+00, 8.796875, 1.281250e+00], [-3.000000e-09, 3.000000e+00, 3.000000e+00, -2.500000e+00], [-9.109375, 11.90625, -1.000000e+00, 12.609375]]]]> : tensor<4x1x3x4xf32>}> : () -> tensor<4x1x3x4xf32>
        %46 = tosa.conv2d %arg1, %45, %30, %44, %44 {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<5x4x3x4xf32>, tensor<4x1x3x4xf32>, tensor<4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<5x4x1x4xf32>
        scf.yield %cst_5 : f32
      }
      %27 = tensor.empty() : tensor<5x2x1x4xf32>
      %28 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%25 : tensor<5x2x1x4xf32>) outs(%27 : tensor<5x2x1x4xf32>) {
      ^bb0(%in: f32, %out: f32):
        %29 = arith.minimumf %in, %in : f32
        %30 = arith.divf %29, %in {amp.precision = #amp.precision<accumulate = bf16, output = bf16>} : f32
        %31 = math.tanh %30 : f32
        linalg.yield %31 : f32
      } -> tensor<5x2x1x4xf32>
      return %arg1, %7 : tensor<5x4x3x4xf32>, f32
    }
  }
}

{-#
  dialect_resources: {
    builtin: {
      blob0: "0x0400000000808F40000040BF0000D23F0000807F00003D41000080BF000024C000006C40CDCCCC3D000020C00080564177CC2B320050C347CDCCCC3DCDCCCC3D000020C000C02BC1000080BF00402CC1000080BF0000404000003BC000000000000080BF0000003F000080BF000020C0000040400000000000005CC0C2160100000000000000A4BF004075C100402DC10000003E0040664100E07F4700003DC000801941",
      blob1: "0x04000000000040400080F8400080FD40CDCCCC3D00004E41CDCCCC3DFFFF7F7F000095400000803F"
    }
  }
#-}
