// Found by amp-graphgen (seed 3995): a second run of amp-mixed-precision changed
// the IR. The conversion now reaches a fixed point in one run (see
// convertToMixedPrecision in include/amp/Transforms/MixedPrecision.h).
#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#map3 = affine_map<(d0, d1, d2) -> (d1, d2)>
#map4 = affine_map<(d0, d1) -> (d0, d1)>
#map5 = affine_map<(d0, d1) -> (d0)>
#map6 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map7 = affine_map<(d0, d1) -> (d1, d0)>
module {
  func.func private @ext0(tensor<1xf32>) -> f32
  func.func private @ext1(tensor<5x?x4x4xf32>, tensor<3x1xf32>) -> f32
  func.func @f0(%arg0: tensor<4xf32>, %arg1: tensor<4xf32>, %arg2: tensor<?xf32>, %arg3: f32, %arg4: f32, %arg5: memref<4xf32>, %arg6: tensor<1x8xf32>, %arg7: tensor<1x4x5xf32>) -> (tensor<?xf32>, tensor<1x4x5xf32>, tensor<1x4x5xf32>) {
    %0 = tosa.reduce_product %arg0 {axis = 0 : i32} : (tensor<4xf32>) -> tensor<1xf32>
    %padded = tensor.pad %arg0 low[1] high[0] {
    ^bb0(%arg8: index):
      %cst_12 = arith.constant 1.250000e-01 : f32
      tensor.yield %cst_12 {amp.precision = #amp.precision<accumulate = bf16, output = f16>} : f32
    } {amp.precision = #amp.precision<accumulate = bf16, output = f16>} : tensor<4xf32> to tensor<5xf32>
    %cst = arith.constant -7.500000e-01 : f32
    %1 = vector.broadcast %cst {amp.color = #amp.color<green>} : f32 to vector<4xf32>
    %2 = vector.reduction <add>, %1 : vector<4xf32> into f32
    %cst_0 = arith.constant dense_resource<blob0> : tensor<4x3xf32>
    %cst_1 = arith.constant dense<[[-2.500000e+00, -7.500000e-01, 1.250000e-01, -1.487500e+01, -2.500000e+00, 1.000000e+00, 3.000000e+00, 1.000000e+00], [-7.000000e+04, 3.40282347E+38, 6.552000e+04, -1.000000e+00, 3.281250e+00, -1.718750e+00, 4.218750e+00, 6.552000e+04], [12.328125, 3.906250e-01, 3.000000e+00, 1.000000e+00, -2.500000e+00, 9.999940e-41, 1.250000e-01, 1.000000e+00]]> : tensor<3x8xf32>
    %3 = tensor.empty() : tensor<4x8xf32>
    %cst_2 = arith.constant 0.000000e+00 : f32
    %4 = linalg.fill {amp.precision = #amp.precision<accumulate = f16, output = f32>} ins(%cst_2 : f32) outs(%3 : tensor<4x8xf32>) -> tensor<4x8xf32>
    %5 = linalg.generic {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"]} ins(%cst_0, %cst_1 : tensor<4x3xf32>, tensor<3x8xf32>) outs(%4 : tensor<4x8xf32>) {
    ^bb0(%in: f32, %in_12: f32, %out: f32):
      %39 = arith.mulf %in, %in_12 : f32
      %40 = arith.addf %out, %39 : f32
      linalg.yield %40 : f32
    } -> tensor<4x8xf32>
    %6 = arith.cmpf ogt, %2, %arg3 : f32
    cf.cond_br %6, ^bb1, ^bb2
  ^bb1:  // pred: ^bb0
    %expanded = tensor.expand_shape %arg1 [[0, 1]] output_shape [1, 4] : tensor<4xf32> into tensor<1x4xf32>
    %cast = tensor.cast %cst_1 : tensor<3x8xf32> to tensor<3x?xf32>
    %7 = tensor.empty() : tensor<1x8xf32>
    %cst_3 = arith.constant -10.90625 : f32
    %8 = linalg.fill ins(%cst_3 : f32) outs(%7 : tensor<1x8xf32>) -> tensor<1x8xf32>
    cf.br ^bb3(%8 : tensor<1x8xf32>) {amp.color = #amp.color<red>}
  ^bb2:  // pred: ^bb0
    %9 = tosa.const_shape  {values = dense<[1, 32]> : tensor<2xindex>} : () -> !tosa.shape<2>
    %10 = tosa.reshape %4, %9 : (tensor<4x8xf32>, !tosa.shape<2>) -> tensor<1x32xf32>
    %11 = tensor.empty() {amp.precision = #amp.precision<accumulate = f32, output = f32>} : tensor<1x3x8xf32>
    %12 = linalg.fill ins(%arg4 : f32) outs(%11 : tensor<1x3x8xf32>) -> tensor<1x3x8xf32>
    %13 = "tosa.const"() <{values = dense<-0.000000e+00> : tensor<1x8x4xf32>}> : () -> tensor<1x8x4xf32>
    %14 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
    %15 = tosa.matmul %12, %13, %14, %14 : (tensor<1x3x8xf32>, tensor<1x8x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x3x4xf32>
    %expanded_4 = tensor.expand_shape %arg0 [[0, 1]] output_shape [1, 4] : tensor<4xf32> into tensor<1x4xf32>
    %cst_5 = arith.constant dense<-1.000000e+00> : tensor<1x8xf32>
    cf.br ^bb3(%cst_5 : tensor<1x8xf32>)
  ^bb3(%16: tensor<1x8xf32>):  // 2 preds: ^bb1, ^bb2
    %cst_6 = arith.constant dense<1.406250e+00> : tensor<f32>
    %cst_7 = arith.constant dense<10.53125> : tensor<1x3xf32>
    %17 = linalg.matmul indexing_maps = [#map, #map3, #map2] ins(%16, %cst_1 : tensor<1x8xf32>, tensor<3x8xf32>) outs(%cst_7 : tensor<1x3xf32>) -> tensor<1x3xf32>
    %c1 = arith.constant 1 : index
    %18 = memref.load %arg5[%c1] : memref<4xf32>
    %19 = math.atan2 %arg0, %arg0 : tensor<4xf32>
    %20 = arith.subf %16, %arg6 : tensor<1x8xf32>
    %21 = arith.cmpf olt, %arg3, %cst_2 : f32
    %22 = scf.if %21 -> (f32) {
      %39 = arith.extf %17 : tensor<1x3xf32> to tensor<1x3xf64>
      %40 = arith.addf %39, %39 : tensor<1x3xf64>
      %41 = arith.truncf %40 : tensor<1x3xf64> to tensor<1x3xf32>
      %42 = math.log1p %20 : tensor<1x8xf32>
      %cst_12 = arith.constant dense<-3.40282347E+38> : tensor<1x4x8xf32>
      %43 = "tosa.const"() <{values = dense<1.000000e-01> : tensor<1x8x3xf32>}> {amp.precision = #amp.precision<accumulate = f16, output = bf16>} : () -> tensor<1x8x3xf32>
      %44 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
      %45 = tosa.matmul %cst_12, %43, %44, %44 : (tensor<1x4x8xf32>, tensor<1x8x3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x3xf32>
      %cst_13 = arith.constant dense_resource<blob1> : tensor<1x3x2xf32>
      %inserted_slice = tensor.insert_slice %cst_13 into %45[0, 0, 1] [1, 3, 2] [1, 1, 1] : tensor<1x3x2xf32> into tensor<1x4x3xf32>
      scf.yield %arg3 : f32
    } else {
      %39 = arith.subf %arg2, %arg2 : tensor<?xf32>
      %c0 = arith.constant 0 : index
      %c6 = arith.constant 6 : index
      %extracted = tensor.extract %20[%c0, %c6] : tensor<1x8xf32>
      %padded_12 = tensor.pad %4 low[1, 1] high[1, 2] {
      ^bb0(%arg8: index, %arg9: index):
        tensor.yield %extracted : f32
      } : tensor<4x8xf32> to tensor<6x11xf32>
      %40 = arith.remf %cst_0, %cst_0 : tensor<4x3xf32>
      %41 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
      %42 = tosa.mul %padded_12, %padded_12, %41 : (tensor<6x11xf32>, tensor<6x11xf32>, tensor<1xi8>) -> tensor<6x11xf32>
      scf.yield %18 : f32
    }
    %23 = arith.maximumf %cst_7, %cst_7 : tensor<1x3xf32>
    %cst_8 = arith.constant dense<[[-2.500000e+00, 1.250000e-01], [-5.671875, -7.890625], [-1.181250e+01, 9.999940e-41]]> : tensor<3x2xf32>
    %24 = tensor.empty() : tensor<4x2xf32>
    %cst_9 = arith.constant 0.000000e+00 : f32
    %25 = linalg.fill ins(%cst_9 : f32) outs(%24 : tensor<4x2xf32>) -> tensor<4x2xf32>
    %26 = linalg.generic {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"]} ins(%cst_0, %cst_8 : tensor<4x3xf32>, tensor<3x2xf32>) outs(%25 : tensor<4x2xf32>) {
    ^bb0(%in: f32, %in_12: f32, %out: f32):
      %39 = arith.mulf %in, %in_12 : f32
      %40 = arith.addf %out, %39 : f32
      linalg.yield %40 : f32
    } -> tensor<4x2xf32>
    %27 = call @ext0(%0) : (tensor<1xf32>) -> f32
    %cst_10 = arith.constant {amp.precision = #amp.precision<accumulate = f16, output = bf16>} dense<-3.000000e-09> : tensor<f32>
    %cst_11 = arith.constant dense<-4.593750e+00> : tensor<1x5x5xf32>
    %28 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
    %29 = tosa.matmul %arg7, %cst_11, %28, %28 : (tensor<1x4x5xf32>, tensor<1x5x5xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x5xf32>
    %30 = tosa.const_shape  {values = dense<[1, 4]> : tensor<2xindex>} : () -> !tosa.shape<2>
    %31 = tosa.reshape %arg0, %30 : (tensor<4xf32>, !tosa.shape<2>) -> tensor<1x4xf32>
    %32 = tensor.empty() : tensor<4x8xf32>
    %transposed = linalg.transpose ins(%5 : tensor<4x8xf32>) outs(%32 : tensor<4x8xf32>) permutation = [0, 1] 
    %33 = tosa.reduce_max %29 {axis = 1 : i32} : (tensor<1x4x5xf32>) -> tensor<1x1x5xf32>
    %34 = tensor.empty() : tensor<5xf32>
    %35 = linalg.copy ins(%padded : tensor<5xf32>) outs(%34 : tensor<5xf32>) -> tensor<5xf32>
    %concat = tensor.concat dim(0) %cst_0, %cst_0 : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<8x3xf32>
    %36 = tosa.const_shape  {values = dense<0> : tensor<3xindex>} : () -> !tosa.shape<3>
    %37 = tosa.const_shape  {values = dense<[1, 5, 5]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %38 = tosa.slice %cst_11, %36, %37 : (tensor<1x5x5xf32>, !tosa.shape<3>, !tosa.shape<3>) -> tensor<1x5x5xf32>
    return %arg2, %29, %arg7 : tensor<?xf32>, tensor<1x4x5xf32>, tensor<1x4x5xf32>
  }
  func.func @f1(%arg0: tensor<4x1x1x8xf32>, %arg1: tensor<5x?x4x4xf32>, %arg2: tensor<4x3xf32>, %arg3: f32, %arg4: tensor<4xf32>, %arg5: f32, %arg6: memref<4xf32>, %arg7: tensor<1x4x4x3xf32>, %arg8: tensor<2xf32>, %arg9: tensor<1x1x3x1xf32>, %arg10: f32) -> (tensor<3x4xf32>, f32) {
    %cst = arith.constant dense<13.96875> : tensor<3x4xf32>
    %0 = tensor.empty() : tensor<3x3xf32>
    %cst_0 = arith.constant 0.000000e+00 : f32
    %1 = linalg.fill ins(%cst_0 : f32) outs(%0 : tensor<3x3xf32>) -> tensor<3x3xf32>
    %2 = linalg.matmul ins(%cst, %arg2 : tensor<3x4xf32>, tensor<4x3xf32>) outs(%1 : tensor<3x3xf32>) -> tensor<3x3xf32>
    %3 = tosa.reduce_product %2 {axis = 1 : i32} : (tensor<3x3xf32>) -> tensor<3x1xf32>
    %4 = arith.cmpf ogt, %cst_0, %arg3 : f32
    cf.cond_br %4, ^bb1, ^bb2
  ^bb1:  // pred: ^bb0
    %cst_1 = arith.constant 6.375000e+00 : f32
    cf.br ^bb3(%cst_1 : f32)
  ^bb2:  // pred: ^bb0
    %5 = arith.negf %arg0 : tensor<4x1x1x8xf32>
    %6 = tosa.const_shape  {values = dense<[1, 3]> : tensor<2xindex>} : () -> !tosa.shape<2>
    %7 = tosa.reshape %3, %6 : (tensor<3x1xf32>, !tosa.shape<2>) -> tensor<1x3xf32>
    %8 = tensor.empty() : tensor<1xf32>
    %cst_2 = arith.constant -3.40282347E+38 : f32
    %9 = linalg.fill ins(%cst_2 : f32) outs(%8 : tensor<1xf32>) -> tensor<1xf32>
    %10 = linalg.generic {indexing_maps = [#map4, #map5], iterator_types = ["parallel", "reduction"]} ins(%7 : tensor<1x3xf32>) outs(%9 : tensor<1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %48 = arith.maximumf %out, %in : f32
      linalg.yield %48 : f32
    } -> tensor<1xf32>
    cf.br ^bb3(%cst_2 : f32)
  ^bb3(%11: f32):  // 2 preds: ^bb1, ^bb2
    %12 = tensor.empty() : tensor<3x4xf32>
    %13 = linalg.copy ins(%cst : tensor<3x4xf32>) outs(%12 : tensor<3x4xf32>) -> tensor<3x4xf32>
    %c1 = arith.constant 1 : index
    %dim = tensor.dim %arg1, %c1 : tensor<5x?x4x4xf32>
    %14 = tensor.empty(%dim) : tensor<5x?x4x4xf32>
    %15 = linalg.fill ins(%cst_0 : f32) outs(%14 : tensor<5x?x4x4xf32>) -> tensor<5x?x4x4xf32>
    %c1_3 = arith.constant 1 : index
    %dim_4 = tensor.dim %arg1, %c1_3 : tensor<5x?x4x4xf32>
    %16 = tensor.empty(%dim_4) : tensor<5x?x4x4xf32>
    %cst_5 = arith.constant {amp.color = #amp.color<red>} 1.512500e+01 : f32
    %17 = linalg.fill ins(%cst_5 : f32) outs(%16 : tensor<5x?x4x4xf32>) -> tensor<5x?x4x4xf32>
    %18 = linalg.generic {indexing_maps = [#map6, #map6, #map6, #map6], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%arg1, %15, %17 : tensor<5x?x4x4xf32>, tensor<5x?x4x4xf32>, tensor<5x?x4x4xf32>) outs(%17 : tensor<5x?x4x4xf32>) {
    ^bb0(%in: f32, %in_16: f32, %in_17: f32, %out: f32):
      %48 = arith.minimumf %out, %in : f32
      %49 = arith.minimumf %in_16, %in_16 {amp.color = #amp.color<red>} : f32
      %50 = math.absf %49 : f32
      %51 = math.exp %49 : f32
      linalg.yield %51 : f32
    } -> tensor<5x?x4x4xf32>
    %cst_6 = arith.constant {amp.precision = #amp.precision<accumulate = bf16, output = f16>} dense<5.000000e-01> : tensor<1x4xf32>
    %cst_7 = arith.constant dense<5.000000e-01> : tensor<3x1xf32>
    %19 = linalg.matmul indexing_maps = [#map, #map3, #map2] ins(%cst, %cst_6 : tensor<3x4xf32>, tensor<1x4xf32>) outs(%cst_7 : tensor<3x1xf32>) -> tensor<3x1xf32>
    %collapsed = tensor.collapse_shape %3 [[0, 1]] : tensor<3x1xf32> into tensor<3xf32>
    %c0 = arith.constant 0 : index
    %c3 = arith.constant 3 : index
    %c1_8 = arith.constant 1 : index
    %20:2 = scf.for %arg11 = %c0 to %c3 step %c1_8 iter_args(%arg12 = %2, %arg13 = %1) -> (tensor<3x3xf32>, tensor<3x3xf32>) {
      %c2_16 = arith.constant 2 : index
      %48 = tensor.empty(%c2_16) : tensor<?xf32>
      %49 = linalg.fill ins(%cst_0 : f32) outs(%48 : tensor<?xf32>) -> tensor<?xf32>
      %cst_17 = arith.constant dense<3.000000e+00> : tensor<1x8xf32>
      %50 = tensor.empty() : tensor<1x4x5xf32>
      %51 = linalg.fill ins(%cst_5 : f32) outs(%50 : tensor<1x4x5xf32>) -> tensor<1x4x5xf32>
      %52:3 = func.call @f0(%arg4, %arg4, %49, %arg3, %arg5, %arg6, %cst_17, %51) {amp.color = #amp.color<red>} : (tensor<4xf32>, tensor<4xf32>, tensor<?xf32>, f32, f32, memref<4xf32>, tensor<1x8xf32>, tensor<1x4x5xf32>) -> (tensor<?xf32>, tensor<1x4x5xf32>, tensor<1x4x5xf32>)
      %c0_18 = arith.constant 0 : index
      %c2_19 = arith.constant 2 : index
      %c1_20 = arith.constant 1 : index
      %53:2 = scf.for %arg14 = %c0_18 to %c2_19 step %c1_20 iter_args(%arg15 = %arg13, %arg16 = %arg0) -> (tensor<3x3xf32>, tensor<4x1x1x8xf32>) {
        %61 = tensor.empty() : tensor<3x3x3x2xf32>
        %62 = linalg.fill ins(%cst_5 : f32) outs(%61 : tensor<3x3x3x2xf32>) -> tensor<3x3x3x2xf32>
        %63 = tensor.empty() : tensor<1x2x2x2xf32>
        %cst_25 = arith.constant 0.000000e+00 : f32
        %64 = linalg.fill ins(%cst_25 : f32) outs(%63 : tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
        %65 = linalg.conv_2d_nhwc_hwcf {amp.color = #amp.color<gray>, dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%arg7, %62 : tensor<1x4x4x3xf32>, tensor<3x3x3x2xf32>) outs(%64 : tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
        %66 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
        %67 = "tosa.const"() <{values = dense_resource<blob2> : tensor<2x2x1x3xf32>}> : () -> tensor<2x2x1x3xf32>
        %68 = tosa.conv2d %arg7, %67, %arg8, %66, %66 {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x4x4x3xf32>, tensor<2x2x1x3xf32>, tensor<2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x3x4x2xf32>
        scf.yield %2, %arg16 : tensor<3x3xf32>, tensor<4x1x1x8xf32>
      }
      %cst_21 = arith.constant dense<[[[6.552000e+04, 12.40625, -14.265625, -5.250000e+00, 14.90625, 3.000000e+00, -2.484375, 7.750000e+00], [-9.546875, -15.34375, 5.000000e-01, 3.40282347E+38, 2.125000e+00, -5.265625, 7.937500e+00, 6.552000e+04], [-2.500000e+00, -2.500000e+00, 10.671875, -3.000000e-09, 1.000000e-01, 3.000000e+00, -4.109375, 1.000000e-01], [1.000000e-01, 1.250000e-01, 0x7FC00000, -7.500000e-01, -3.156250e+00, 1.250000e-01, 0.000000e+00, 5.000000e-01], [-12.328125, 3.40282347E+38, 5.562500e+00, -13.359375, -14.34375, -15.546875, -12.484375, -7.500000e-01]]]> : tensor<1x5x8xf32>
      %54 = tensor.empty() : tensor<1x4x8xf32>
      %cst_22 = arith.constant 0.000000e+00 : f32
      %55 = linalg.fill ins(%cst_22 : f32) outs(%54 : tensor<1x4x8xf32>) -> tensor<1x4x8xf32>
      %56 = linalg.batch_matmul ins(%51, %cst_21 : tensor<1x4x5xf32>, tensor<1x5x8xf32>) outs(%55 : tensor<1x4x8xf32>) -> tensor<1x4x8xf32>
      %57 = arith.cmpf oge, %53#0, %arg12 : tensor<3x3xf32>
      %58 = arith.select %57, %53#0, %arg12 : tensor<3x3xi1>, tensor<3x3xf32>
      %59 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
      %cst_23 = arith.constant dense<[-2.500000e+00, -1.000000e+00, -7.656250e-01]> : tensor<3xf32>
      %60 = tosa.depthwise_conv2d %arg7, %arg9, %cst_23, %59, %59 {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x4x4x3xf32>, tensor<1x1x3x1xf32>, tensor<3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4x3xf32>
      %cst_24 = arith.constant dense_resource<blob3> : tensor<3x3xf32>
      scf.yield %cst_24, %53#0 : tensor<3x3xf32>, tensor<3x3xf32>
    }
    %21 = tensor.empty() : tensor<4x1x1x8xf32>
    %22 = linalg.generic {indexing_maps = [#map6, #map6, #map6, #map6], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%arg0, %arg0, %arg0 : tensor<4x1x1x8xf32>, tensor<4x1x1x8xf32>, tensor<4x1x1x8xf32>) outs(%21 : tensor<4x1x1x8xf32>) {
    ^bb0(%in: f32, %in_16: f32, %in_17: f32, %out: f32):
      %48 = math.exp %in : f32
      linalg.yield %48 : f32
    } -> tensor<4x1x1x8xf32>
    %23 = tensor.empty() : tensor<3x1xf32>
    %24 = linalg.fill ins(%arg5 : f32) outs(%23 : tensor<3x1xf32>) -> tensor<3x1xf32>
    %25 = tosa.add %19, %24 : (tensor<3x1xf32>, tensor<3x1xf32>) -> tensor<3x1xf32>
    %26 = arith.truncf %19 : tensor<3x1xf32> to tensor<3x1xbf16>
    %27 = arith.extf %26 {amp.color = #amp.color<gray>} : tensor<3x1xbf16> to tensor<3x1xf32>
    %28 = tensor.empty() : tensor<3xf32>
    %cst_9 = arith.constant 0.000000e+00 : f32
    %29 = linalg.fill ins(%cst_9 : f32) outs(%28 : tensor<3xf32>) -> tensor<3xf32>
    %30 = linalg.matvec ins(%cst, %arg4 : tensor<3x4xf32>, tensor<4xf32>) outs(%29 : tensor<3xf32>) -> tensor<3xf32>
    %31 = tensor.empty() : tensor<1x2xf32>
    %cst_10 = arith.constant 9.99999968E+37 : f32
    %32 = linalg.fill ins(%cst_10 : f32) outs(%31 : tensor<1x2xf32>) -> tensor<1x2xf32>
    %33 = tensor.empty() : tensor<3x2xf32>
    %34 = linalg.fill ins(%arg10 : f32) outs(%33 : tensor<3x2xf32>) -> tensor<3x2xf32>
    %35 = linalg.matmul ins(%cst_7, %32 : tensor<3x1xf32>, tensor<1x2xf32>) outs(%34 : tensor<3x2xf32>) -> tensor<3x2xf32>
    %c5 = arith.constant 5 : index
    %36 = tensor.empty(%c5) : tensor<?x2x2xf32>
    %c2 = arith.constant 2 : index
    %c0_11 = arith.constant 0 : index
    %extracted = tensor.extract %25[%c2, %c0_11] : tensor<3x1xf32>
    %37 = linalg.fill ins(%extracted : f32) outs(%36 : tensor<?x2x2xf32>) -> tensor<?x2x2xf32>
    %38 = tensor.empty() : tensor<4x2x5xf32>
    %39 = linalg.fill ins(%arg3 : f32) outs(%38 : tensor<4x2x5xf32>) -> tensor<4x2x5xf32>
    %cast = tensor.cast %39 : tensor<4x2x5xf32> to tensor<?x2x5xf32>
    %c0_12 = arith.constant 0 : index
    %dim_13 = tensor.dim %37, %c0_12 : tensor<?x2x2xf32>
    %40 = tensor.empty(%dim_13) : tensor<?x2x5xf32>
    %cst_14 = arith.constant 0.000000e+00 : f32
    %41 = linalg.fill ins(%cst_14 : f32) outs(%40 : tensor<?x2x5xf32>) -> tensor<?x2x5xf32>
    %42 = linalg.batch_matmul ins(%37, %cast : tensor<?x2x2xf32>, tensor<?x2x5xf32>) outs(%41 : tensor<?x2x5xf32>) -> tensor<?x2x5xf32>
    %43 = tosa.maximum %cst, %cst {amp.color = #amp.color<green>} : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
    %44 = tensor.empty() : tensor<3xf32>
    %mapped = linalg.map { math.absf } ins(%collapsed : tensor<3xf32>) outs(%44 : tensor<3xf32>)
    %45 = tensor.empty() : tensor<2xf32>
    %cst_15 = arith.constant 0.000000e+00 : f32
    %46 = linalg.fill {amp.color = #amp.color<red>} ins(%cst_15 : f32) outs(%45 : tensor<2xf32>) -> tensor<2xf32>
    %47 = linalg.generic {indexing_maps = [#map7, #map5], iterator_types = ["parallel", "reduction"]} ins(%34 : tensor<3x2xf32>) outs(%46 : tensor<2xf32>) attrs =  {amp.precision = #amp.precision<accumulate = bf16, output = f16>} {
    ^bb0(%in: f32, %out: f32):
      %48 = arith.addf %out, %in : f32
      linalg.yield %48 : f32
    } -> tensor<2xf32>
    %generated = tensor.generate  {
    ^bb0(%arg11: index):
      %48 = arith.cmpf ogt, %cst_0, %cst_0 : f32
      %49 = arith.select %48, %cst_0, %cst_0 : f32
      tensor.yield %49 : f32
    } {amp.color = #amp.color<gray>} : tensor<2xf32>
    return %cst, %cst_5 : tensor<3x4xf32>, f32
  }
}

{-#
  dialect_resources: {
    builtin: {
      blob0: "0x04000000FFFF7FFF0080C640000020C00000C07F0000003F000080FF00C0334100B888C700F07F4700009ABF6042A20D00C05DC1",
      blob1: "0x0400000000006740000020C00000803F0000003F00000000000093C0",
      blob2: "0x0400000000808E4000804741000000009976967E000020C0000040BF00002AC1008091C0000080BF000080BF000040400000883E",
      blob3: "0x04000000000000000000003F000080BF000040BF0000404000E07F47000080BF0000E43F0000003E"
    }
  }
#-}
