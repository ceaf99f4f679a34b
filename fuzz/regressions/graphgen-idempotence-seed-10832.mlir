// Found by amp-graphgen (seed 10832, unknown-ops=gray): a second run of
// amp-mixed-precision changed the IR (a tosa.clamp with +-FLT_MAX bounds,
// written as bf16's largest value). The conversion now reaches a fixed
// point in one run (see convertToMixedPrecision in
// include/amp/Transforms/MixedPrecision.h). Parsed with
// --allow-unregistered-dialect (its foo.* ops).
#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#map3 = affine_map<(d0, d1) -> (d0, d1)>
#map4 = affine_map<(d0) -> (d0)>
#map5 = affine_map<(d0) -> ()>
#map6 = affine_map<(d0, d1, d2) -> (d1, d2)>
module {
  func.func private @ext0() -> tensor<4x5xf32>
  func.func @f0(%arg0: tensor<8x5x8x2xf32>, %arg1: tensor<2x?xf32>, %arg2: tensor<8x3x1xf32>, %arg3: tensor<3x1x2x1xf32>) -> f32 {
    %c4 = arith.constant 4 : index
    %0 = tensor.empty(%c4) : tensor<8x4x?xf32>
    %cst = arith.constant 7.750000e+00 : f32
    %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<8x4x?xf32>) -> tensor<8x4x?xf32>
    %cast = tensor.cast %arg2 : tensor<8x3x1xf32> to tensor<8x?x1xf32>
    %2 = tensor.empty() : tensor<8x4x1xf32>
    %cst_0 = arith.constant 0.000000e+00 : f32
    %3 = linalg.fill ins(%cst_0 : f32) outs(%2 : tensor<8x4x1xf32>) -> tensor<8x4x1xf32>
    %4 = linalg.batch_matmul ins(%1, %cast : tensor<8x4x?xf32>, tensor<8x?x1xf32>) outs(%3 : tensor<8x4x1xf32>) -> tensor<8x4x1xf32>
    %cst_1 = arith.constant -2.500000e+00 : f32
    %padded = tensor.pad %4 low[1, 2, 2] high[0, 0, 2] {
    ^bb0(%arg4: index, %arg5: index, %arg6: index):
      tensor.yield %cst_1 {amp.color = #amp.color<green>} : f32
    } : tensor<8x4x1xf32> to tensor<9x6x5xf32>
    %cst_2 = arith.constant 1.000000e+00 : f32
    %cst_3 = arith.constant 0.000000e+00 : f32
    %5:2 = scf.while (%arg4 = %arg2, %arg5 = %cst_3) : (tensor<8x3x1xf32>, f32) -> (tensor<8x3x1xf32>, f32) {
      %33 = arith.cmpf olt, %arg5, %cst_2 : f32
      scf.condition(%33) %arg4, %arg5 : tensor<8x3x1xf32>, f32
    } do {
    ^bb0(%arg4: tensor<8x3x1xf32>, %arg5: f32):
      %cst_14 = arith.constant -7.000000e+04 : f32
      %cst_15 = arith.constant dense<[[[-6.390625], [-7.593750e+00]], [[-3.687500e+00], [-8.078125]], [[5.000000e-01], [-8.515625]], [[2.703125], [-2.500000e+00]], [[3.000000e+00], [9.99999993E-9]], [[5.015625], [-2.109375]], [[1.000000e+00], [-1.015625]]]> : tensor<7x2x1xf32>
      %inserted_slice = tensor.insert_slice %cst_15 into %3[0, 2, 0] [7, 2, 1] [1, 1, 1] : tensor<7x2x1xf32> into tensor<8x4x1xf32>
      %cst_16 = arith.constant 1.000000e+00 : f32
      %33 = arith.addf %arg5, %cst_16 : f32
      scf.yield %arg4, %33 : tensor<8x3x1xf32>, f32
    }
    %6 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
    %cst_4 = arith.constant dense<4.281250e+00> : tensor<2xf32>
    %7 = tosa.depthwise_conv2d %arg0, %arg3, %cst_4, %6, %6 {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<8x5x8x2xf32>, tensor<3x1x2x1xf32>, tensor<2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<8x3x8x2xf32>
    %cst_5 = arith.constant dense<[3.937500e+00, 9.031250e+00, 0.000000e+00, 3.500000e+00]> : tensor<4xf32>
    %cast_6 = tensor.cast %cst_5 : tensor<4xf32> to tensor<?xf32>
    %8 = tensor.empty() : tensor<2xf32>
    %cst_7 = arith.constant 0.000000e+00 : f32
    %9 = linalg.fill ins(%cst_7 : f32) outs(%8 : tensor<2xf32>) -> tensor<2xf32>
    %10 = linalg.matvec ins(%arg1, %cast_6 : tensor<2x?xf32>, tensor<?xf32>) outs(%9 : tensor<2xf32>) -> tensor<2xf32>
    %11 = tensor.empty() : tensor<2xf32>
    %cst_8 = arith.constant 0.000000e+00 : f32
    %12 = linalg.fill ins(%cst_8 : f32) outs(%11 : tensor<2xf32>) -> tensor<2xf32>
    %13 = linalg.matvec ins(%arg1, %cast_6 : tensor<2x?xf32>, tensor<?xf32>) outs(%12 : tensor<2xf32>) -> tensor<2xf32>
    %c1 = arith.constant {amp.precision = #amp.precision<accumulate = f32, output = bf16>} 1 : index
    %14 = tensor.empty(%c1) : tensor<?x4xf32>
    %c1_9 = arith.constant 1 : index
    %extracted = tensor.extract %12[%c1_9] : tensor<2xf32>
    %15 = linalg.fill ins(%extracted : f32) outs(%14 : tensor<?x4xf32>) -> tensor<?x4xf32>
    %16 = tensor.empty() : tensor<2x4xf32>
    %cst_10 = arith.constant 0.000000e+00 : f32
    %17 = linalg.fill ins(%cst_10 : f32) outs(%16 : tensor<2x4xf32>) -> tensor<2x4xf32>
    %18 = linalg.matmul ins(%arg1, %15 : tensor<2x?xf32>, tensor<?x4xf32>) outs(%17 : tensor<2x4xf32>) -> tensor<2x4xf32>
    %19 = tensor.empty() : tensor<8x3x8x2xf32>
    %20 = linalg.fill ins(%cst_1 : f32) outs(%19 : tensor<8x3x8x2xf32>) -> tensor<8x3x8x2xf32>
    %21 = math.fma %7, %20, %7 : tensor<8x3x8x2xf32>
    %22 = tosa.rsqrt %20 {amp.precision = #amp.precision<accumulate = f16, output = f32>} : (tensor<8x3x8x2xf32>) -> tensor<8x3x8x2xf32>
    %23 = tensor.empty() : tensor<8x2x7x2xf32>
    %cst_11 = arith.constant 0xFF800000 : f32
    %24 = linalg.fill ins(%cst_11 : f32) outs(%23 : tensor<8x2x7x2xf32>) -> tensor<8x2x7x2xf32>
    %25 = tensor.empty() : tensor<2x2xf32>
    %26 = linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%7, %25 : tensor<8x3x8x2xf32>, tensor<2x2xf32>) outs(%24 : tensor<8x2x7x2xf32>) -> tensor<8x2x7x2xf32>
    %27 = tosa.const_shape  {values = dense<[1, 2]> : tensor<2xindex>} : () -> !tosa.shape<2>
    %28 = tosa.reshape %12, %27 : (tensor<2xf32>, !tosa.shape<2>) -> tensor<1x2xf32>
    %29 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
    %30 = tensor.empty() : tensor<3x3x2x1xf32>
    %cst_12 = arith.constant -3.000000e-09 : f32
    %31 = linalg.fill ins(%cst_12 : f32) outs(%30 : tensor<3x3x2x1xf32>) -> tensor<3x3x2x1xf32>
    %32 = tosa.depthwise_conv2d %22, %31, %cst_4, %29, %29 {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<8x3x8x2xf32>, tensor<3x3x2x1xf32>, tensor<2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<8x1x6x2xf32>
    %cst_13 = arith.constant dense<9.000000e+00> : tensor<f32>
    return %cst_8 : f32
  }
  func.func @f1(%arg0: tensor<5xf32>, %arg1: tensor<2xf32>, %arg2: tensor<1x1xf32>, %arg3: f32, %arg4: f32, %arg5: tensor<3x1xf32>) -> (tensor<3x1xf32>, tensor<5xf32>, tensor<5x3x4xf32>) {
    %0 = tosa.clamp %arg0 {max_val = 3.40282347E+38 : f32, min_val = -3.40282347E+38 : f32} : (tensor<5xf32>) -> tensor<5xf32>
    %c1 = arith.constant 1 : index
    %extracted = tensor.extract %0[%c1] : tensor<5xf32>
    %1 = arith.cmpf ogt, %extracted, %extracted : f32
    cf.cond_br %1, ^bb1, ^bb2
  ^bb1:  // pred: ^bb0
    %2 = tensor.empty() : tensor<3x2xf32>
    %3 = linalg.fill ins(%extracted : f32) outs(%2 : tensor<3x2xf32>) -> tensor<3x2xf32>
    %4 = tensor.empty() : tensor<3xf32>
    %cst = arith.constant 0.000000e+00 : f32
    %5 = linalg.fill ins(%cst : f32) outs(%4 : tensor<3xf32>) -> tensor<3xf32>
    %6 = linalg.matvec ins(%3, %arg1 : tensor<3x2xf32>, tensor<2xf32>) outs(%5 : tensor<3xf32>) -> tensor<3xf32>
    %7 = tensor.empty() : tensor<2x3xf32>
    %transposed = linalg.transpose ins(%3 : tensor<3x2xf32>) outs(%7 : tensor<2x3xf32>) permutation = [1, 0] 
    cf.br ^bb3(%arg2 : tensor<1x1xf32>)
  ^bb2:  // pred: ^bb0
    %cst_0 = arith.constant dense<-0.000000e+00> : tensor<1x5x4x3xf32>
    %8 = tensor.empty() : tensor<3x1x3x1xf32>
    %9 = linalg.fill ins(%arg3 : f32) outs(%8 : tensor<3x1x3x1xf32>) -> tensor<3x1x3x1xf32>
    %10 = tensor.empty() : tensor<1x3x4x1xf32>
    %cst_1 = arith.constant 0.000000e+00 : f32
    %11 = linalg.fill ins(%cst_1 : f32) outs(%10 : tensor<1x3x4x1xf32>) -> tensor<1x3x4x1xf32>
    %12 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%cst_0, %9 : tensor<1x5x4x3xf32>, tensor<3x1x3x1xf32>) outs(%11 : tensor<1x3x4x1xf32>) -> tensor<1x3x4x1xf32>
    %cst_2 = arith.constant 0.000000e+00 : f32
    %13:2 = scf.while (%arg6 = %arg0, %arg7 = %cst_2) : (tensor<5xf32>, f32) -> (tensor<5xf32>, f32) {
      %48 = arith.cmpf olt, %arg7, %extracted : f32
      scf.condition(%48) %arg6, %arg7 : tensor<5xf32>, f32
    } do {
    ^bb0(%arg6: tensor<5xf32>, %arg7: f32):
      %48 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
      %49 = tosa.mul %12, %12, %48 : (tensor<1x3x4x1xf32>, tensor<1x3x4x1xf32>, tensor<1xi8>) -> tensor<1x3x4x1xf32>
      %cst_11 = arith.constant 1.000000e+00 : f32
      %50 = arith.addf %arg7, %cst_11 : f32
      scf.yield %arg6, %50 : tensor<5xf32>, f32
    }
    cf.br ^bb3(%arg2 : tensor<1x1xf32>)
  ^bb3(%14: tensor<1x1xf32>):  // 2 preds: ^bb1, ^bb2
    %15 = tensor.empty() : tensor<1x3xf32>
    %16 = linalg.fill ins(%extracted : f32) outs(%15 : tensor<1x3xf32>) -> tensor<1x3xf32>
    %17 = tensor.empty() : tensor<1x3xf32>
    %cst_3 = arith.constant 0.000000e+00 : f32
    %18 = linalg.fill ins(%cst_3 : f32) outs(%17 : tensor<1x3xf32>) -> tensor<1x3xf32>
    %19 = linalg.generic {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"]} ins(%arg2, %16 : tensor<1x1xf32>, tensor<1x3xf32>) outs(%18 : tensor<1x3xf32>) {
    ^bb0(%in: f32, %in_11: f32, %out: f32):
      %48 = arith.mulf %in, %in_11 : f32
      %49 = arith.addf %out, %48 : f32
      linalg.yield %49 : f32
    } -> tensor<1x3xf32>
    %20 = tosa.reduce_min %0 {axis = 0 : i32} : (tensor<5xf32>) -> tensor<1xf32>
    %21 = "foo.region"(%0) ({
      "foo.yield"(%0) : (tensor<5xf32>) -> ()
    }) : (tensor<5xf32>) -> tensor<5xf32>
    %22 = linalg.generic {indexing_maps = [#map3, #map3, #map3], iterator_types = ["parallel", "parallel"]} ins(%arg2, %14 : tensor<1x1xf32>, tensor<1x1xf32>) outs(%14 : tensor<1x1xf32>) {
    ^bb0(%in: f32, %in_11: f32, %out: f32):
      %48 = math.sqrt %out : f32
      %cst_12 = arith.constant -7.031250e+00 : f32
      %49 = arith.addf %in, %in_11 : f32
      linalg.yield %49 : f32
    } -> tensor<1x1xf32>
    %c2 = arith.constant 2 : index
    %23 = tensor.empty(%c2) : tensor<5x4x?xf32>
    %24 = linalg.fill ins(%arg4 : f32) outs(%23 : tensor<5x4x?xf32>) -> tensor<5x4x?xf32>
    %25 = tensor.empty() : tensor<5x3x4xf32>
    %26 = linalg.fill ins(%arg4 : f32) outs(%25 : tensor<5x3x4xf32>) -> tensor<5x3x4xf32>
    %cast = tensor.cast %26 : tensor<5x3x4xf32> to tensor<5x?x4xf32>
    %27 = tensor.empty() : tensor<5x4x4xf32>
    %cst_4 = arith.constant 0.000000e+00 : f32
    %28 = linalg.fill ins(%cst_4 : f32) outs(%27 : tensor<5x4x4xf32>) -> tensor<5x4x4xf32>
    %29 = linalg.batch_matmul ins(%24, %cast : tensor<5x4x?xf32>, tensor<5x?x4xf32>) outs(%28 : tensor<5x4x4xf32>) -> tensor<5x4x4xf32>
    %cst_5 = arith.constant dense<8.312500e+00> : tensor<1x3x8x1xf32>
    %30 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
    %cst_6 = arith.constant dense<1.250000e-01> : tensor<3x1x1x1xf32>
    %31 = tosa.depthwise_conv2d %cst_5, %cst_6, %20, %30, %30 {acc_type = f32, amp.color = #amp.color<gray>, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x3x8x1xf32>, tensor<3x1x1x1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x1x8x1xf32>
    %32 = tosa.reduce_max %arg2 {axis = 1 : i32} : (tensor<1x1xf32>) -> tensor<1x1xf32>
    %33 = call @ext0() : () -> tensor<4x5xf32>
    %34 = tensor.bitcast %22 : tensor<1x1xf32> to tensor<1x1xi32>
    %35 = tensor.bitcast %34 : tensor<1x1xi32> to tensor<1x1xf32>
    %36 = tensor.empty() : tensor<f32>
    %cst_7 = arith.constant 0.000000e+00 : f32
    %37 = linalg.fill ins(%cst_7 : f32) outs(%36 : tensor<f32>) -> tensor<f32>
    %38 = linalg.generic {indexing_maps = [#map4, #map5], iterator_types = ["reduction"]} ins(%arg0 : tensor<5xf32>) outs(%37 : tensor<f32>) {
    ^bb0(%in: f32, %out: f32):
      %48 = arith.addf %out, %in : f32
      linalg.yield %48 : f32
    } -> tensor<f32>
    %padded = tensor.pad %18 low[0, 1] high[1, 0] {
    ^bb0(%arg6: index, %arg7: index):
      %cst_11 = arith.constant 9.531250e-01 : f32
      tensor.yield %cst_11 : f32
    } : tensor<1x3xf32> to tensor<2x4xf32>
    %cst_8 = arith.constant dense<1.000000e+00> : tensor<1x1x8x1xf32>
    %39 = tosa.concat %31, %cst_8 {axis = 0 : i32} : (tensor<1x1x8x1xf32>, tensor<1x1x8x1xf32>) -> tensor<2x1x8x1xf32>
    %40 = math.log %26 : tensor<5x3x4xf32>
    %41 = math.copysign %20, %20 : tensor<1xf32>
    %42 = tensor.empty() : tensor<1x3xf32>
    %cst_9 = arith.constant 0.000000e+00 : f32
    %43 = linalg.fill ins(%cst_9 : f32) outs(%42 : tensor<1x3xf32>) -> tensor<1x3xf32>
    %44 = linalg.matmul indexing_maps = [#map, #map6, #map2] ins(%14, %arg5 : tensor<1x1xf32>, tensor<3x1xf32>) outs(%43 : tensor<1x3xf32>) -> tensor<1x3xf32>
    %expanded = tensor.expand_shape %arg0 [[0, 1]] output_shape [1, 5] : tensor<5xf32> into tensor<1x5xf32>
    %45 = math.fma %padded, %padded, %padded : tensor<2x4xf32>
    %cst_10 = arith.constant 12.71875 : f32
    %46 = tensor.empty() : tensor<5xf32>
    %47 = linalg.add ins(%arg0, %21 : tensor<5xf32>, tensor<5xf32>) outs(%46 : tensor<5xf32>) -> tensor<5xf32>
    return %arg5, %0, %40 : tensor<3x1xf32>, tensor<5xf32>, tensor<5x3x4xf32>
  }
}
