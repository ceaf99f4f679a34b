// Found by amp-graphgen (seed 5805): a second run of amp-mixed-precision changed
// the IR. The conversion now reaches a fixed point in one run (see
// convertToMixedPrecision in include/amp/Transforms/MixedPrecision.h).
#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map1 = affine_map<(d0, d1, d2) -> (d0, d2)>
#map2 = affine_map<(d0, d1, d2) -> (d1, d2)>
#map3 = affine_map<(d0, d1, d2) -> (d0, d1)>
#map4 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map5 = affine_map<(d0, d1) -> (d1, d0)>
#map6 = affine_map<(d0, d1) -> (d0)>
#map7 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map8 = affine_map<(d0, d1) -> (d0, d1)>
module attributes {amp.policy = #amp.default_policy<min_macs = 937>} {
  func.func @f0(%arg0: f32, %arg1: tensor<2x1x8x4xf32>, %arg2: tensor<5x4xf32>, %arg3: f32) -> tensor<5x4xf32> {
    %0 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%arg1 : tensor<2x1x8x4xf32>) outs(%arg1 : tensor<2x1x8x4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %26 = arith.minimumf %in, %in : f32
      linalg.yield %26 : f32
    } -> tensor<2x1x8x4xf32>
    %1 = tosa.cast %arg1 : (tensor<2x1x8x4xf32>) -> tensor<2x1x8x4xf16>
    %cst = arith.constant -6.375000e+00 : f32
    %padded = tensor.pad %arg1 low[0, 2, 2, 0] high[1, 1, 2, 0] {
    ^bb0(%arg4: index, %arg5: index, %arg6: index, %arg7: index):
      tensor.yield %cst : f32
    } : tensor<2x1x8x4xf32> to tensor<3x4x12x4xf32>
    %2 = tensor.empty() : tensor<4x5xf32>
    %cst_0 = arith.constant 9.999940e-41 : f32
    %3 = linalg.fill ins(%cst_0 : f32) outs(%2 : tensor<4x5xf32>) -> tensor<4x5xf32>
    %cst_1 = arith.constant dense<[[-2.250000e+00, -2.500000e+00, 8.265625, -7.000000e+04], [3.000000e+00, 4.484375, 13.046875, -1.000000e+00], [2.703125, 9.99999968E+37, 1.250000e-01, 9.999940e-41], [9.234375, -7.500000e-01, -3.562500e+00, 3.000000e+00]]> : tensor<4x4xf32>
    %4 = linalg.matmul ins(%3, %arg2 : tensor<4x5xf32>, tensor<5x4xf32>) outs(%cst_1 : tensor<4x4xf32>) -> tensor<4x4xf32>
    %expanded = tensor.expand_shape %4 [[0, 1], [2]] output_shape [1, 4, 4] : tensor<4x4xf32> into tensor<1x4x4xf32>
    %5 = arith.cmpf olt, %cst_0, %cst_0 : f32
    %6:2 = scf.if %5 -> (tensor<4x5xf32>, tensor<1x4x4xf32>) {
      %26 = tosa.maximum %3, %3 : (tensor<4x5xf32>, tensor<4x5xf32>) -> tensor<4x5xf32>
      scf.yield %26, %expanded : tensor<4x5xf32>, tensor<1x4x4xf32>
    } else {
      %26 = tensor.empty() : tensor<5x4xf32>
      %transposed = linalg.transpose ins(%3 : tensor<4x5xf32>) outs(%26 : tensor<5x4xf32>) permutation = [1, 0] 
      scf.yield %3, %expanded : tensor<4x5xf32>, tensor<1x4x4xf32>
    }
    %cst_2 = arith.constant dense<[[[0xFF800000, -1.000000e+00, -3.062500e+00, 6.550400e+04], [0xFF800000, 1.000000e+00, -6.859375, 12.734375], [1.406250e-01, -8.781250e+00, 1.000000e+00, -7.500000e-01], [-11.359375, 6.552000e+04, -2.500000e+00, 0x7F800000]]]> : tensor<1x4x4xf32>
    %7 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
    %8 = tosa.mul %expanded, %cst_2, %7 {amp.color = #amp.color<gray>} : (tensor<1x4x4xf32>, tensor<1x4x4xf32>, tensor<1xi8>) -> tensor<1x4x4xf32>
    %cst_3 = arith.constant 1.000000e-01 : f32
    %9 = arith.cmpf ogt, %cst_3, %cst_3 {amp.precision = #amp.precision<accumulate = bf16, output = f16>} : f32
    cf.cond_br %9, ^bb1, ^bb2
  ^bb1:  // pred: ^bb0
    %c0 = arith.constant 0 : index
    %c3 = arith.constant 3 : index
    %c1 = arith.constant 1 : index
    %10:2 = scf.for %arg4 = %c0 to %c3 step %c1 iter_args(%arg5 = %cst_1, %arg6 = %cst_1) -> (tensor<4x4xf32>, tensor<4x4xf32>) {
      %padded_10 = tensor.pad %cst_1 low[1, 1] high[0, 1] {
      ^bb0(%arg7: index, %arg8: index):
        %cst_12 = arith.constant -12.859375 : f32
        tensor.yield %cst_12 : f32
      } : tensor<4x4xf32> to tensor<5x6xf32>
      %26 = tosa.reduce_max %arg5 {axis = 0 : i32} : (tensor<4x4xf32>) -> tensor<1x4xf32>
      %cst_11 = arith.constant dense<-2.500000e+00> : tensor<4x4xf32>
      scf.yield %cst_11, %4 : tensor<4x4xf32>, tensor<4x4xf32>
    }
    cf.br ^bb3(%cst : f32)
  ^bb2:  // pred: ^bb0
    %c0_4 = arith.constant 0 : index
    %c0_5 = arith.constant 0 : index
    %c0_6 = arith.constant 0 : index
    %c1_7 = arith.constant 1 : index
    %extracted = tensor.extract %0[%c0_4, %c0_5, %c0_6, %c1_7] : tensor<2x1x8x4xf32>
    cf.br ^bb3(%extracted : f32)
  ^bb3(%11: f32):  // 2 preds: ^bb1, ^bb2
    %12 = arith.subf %3, %3 : tensor<4x5xf32>
    %13 = arith.cmpf olt, %arg3, %arg3 : f32
    %14:2 = scf.if %13 -> (f32, f32) {
      %26 = tensor.empty() : tensor<1x4x3xf32>
      %cst_10 = arith.constant 1.000000e-01 : f32
      %27 = linalg.fill ins(%cst_10 : f32) outs(%26 : tensor<1x4x3xf32>) -> tensor<1x4x3xf32>
      %28 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
      %29 = tosa.matmul %6#1, %27, %28, %28 {amp.color = #amp.color<red>} : (tensor<1x4x4xf32>, tensor<1x4x3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x3xf32>
      %cst_11 = arith.constant dense_resource<blob0> : tensor<5xf32>
      %30 = tensor.empty() : tensor<2x4xf32>
      %c2 = arith.constant 2 : index
      %extracted_12 = tensor.extract %cst_11[%c2] : tensor<5xf32>
      %31 = linalg.fill ins(%extracted_12 : f32) outs(%30 : tensor<2x4xf32>) -> tensor<2x4xf32>
      %32 = tensor.empty() : tensor<5x2xf32>
      %cst_13 = arith.constant 0.000000e+00 : f32
      %33 = linalg.fill ins(%cst_13 : f32) outs(%32 : tensor<5x2xf32>) -> tensor<5x2xf32>
      %34 = linalg.matmul indexing_maps = [#map1, #map2, #map3] ins(%arg2, %31 : tensor<5x4xf32>, tensor<2x4xf32>) outs(%33 : tensor<5x2xf32>) -> tensor<5x2xf32>
      %35 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
      %36 = "tosa.const"() <{values = dense<-1.000000e+00> : tensor<4x3x2x4xf32>}> {amp.color = #amp.color<gray>} : () -> tensor<4x3x2x4xf32>
      %cst_14 = arith.constant dense<10.90625> : tensor<4xf32>
      %37 = tosa.conv2d %padded, %36, %cst_14, %35, %35 {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<3x4x12x4xf32>, tensor<4x3x2x4xf32>, tensor<4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<3x2x11x4xf32>
      scf.yield %extracted_12, %11 : f32, f32
    } else {
      %c0_10 = arith.constant 0 : index
      %c0_11 = arith.constant 0 : index
      %c2 = arith.constant 2 : index
      %c1_12 = arith.constant 1 : index
      %extracted_13 = tensor.extract %arg1[%c0_10, %c0_11, %c2, %c1_12] : tensor<2x1x8x4xf32>
      %padded_14 = tensor.pad %expanded low[2, 2, 2] high[1, 1, 0] {
      ^bb0(%arg4: index, %arg5: index, %arg6: index):
        tensor.yield %extracted_13 : f32
      } : tensor<1x4x4xf32> to tensor<4x7x6xf32>
      scf.yield %arg3, %arg3 : f32, f32
    }
    %15 = math.absf %11 : f32
    %16 = arith.cmpf oeq, %expanded, %8 {amp.precision = #amp.precision<accumulate = bf16, output = bf16>} : tensor<1x4x4xf32>
    %17 = arith.select %16, %expanded, %8 : tensor<1x4x4xi1>, tensor<1x4x4xf32>
    %expanded_8 = tensor.expand_shape %8 [[0, 1], [2], [3]] output_shape [1, 1, 4, 4] : tensor<1x4x4xf32> into tensor<1x1x4x4xf32>
    %from_elements = tensor.from_elements %15, %arg0 : tensor<2xf32>
    %18 = math.ceil %3 : tensor<4x5xf32>
    %19 = arith.extf %12 : tensor<4x5xf32> to tensor<4x5xf64>
    %20 = arith.addf %19, %19 : tensor<4x5xf64>
    %21 = arith.truncf %20 : tensor<4x5xf64> to tensor<4x5xf32>
    %cst_9 = arith.constant dense<[[[[-1.000000e+00, -7.421875, 3.765625, 1.000000e-01], [5.000000e-01, 3.000000e+00, 1.000000e+00, -0.000000e+00], [1.000000e-30, -7.500000e-01, 1.250000e-01, 3.000000e+00], [1.000000e-01, 0x7F800000, 1.421875, -13.828125], [4.890625, 1.250000e-01, 1.578125, 1.000000e-01], [-2.500000e+00, -1.562500e+01, -1.000000e+00, -3.640625], [6.640625, 1.000000e+00, 7.468750e+00, -1.000000e+00], [0x7FC00000, -14.984375, 1.000000e-30, 5.000000e-01]]], [[[-1.381250e+01, 5.000000e-01, 3.312500e+00, 1.250000e-01], [1.000000e-01, 1.843750e+00, -13.65625, 1.000000e-01], [-1.000000e+00, -7.500000e-01, 1.000000e+00, -2.500000e+00], [1.250000e-01, -7.500000e-01, -2.500000e+00, -4.359375], [3.140625, 13.90625, -10.734375, -2.500000e+00], [0.000000e+00, -1.000000e+00, 5.000000e-01, 1.000000e+05], [3.40282347E+38, 9.99999968E+37, -10.203125, 3.000000e+00], [8.062500e+00, -3.125000e+00, 5.968750e+00, -9.921875]]]]> : tensor<2x1x8x4xf32>
    %22 = tensor.empty() : tensor<2x1x8x4xf32>
    %23 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%arg1, %cst_9 : tensor<2x1x8x4xf32>, tensor<2x1x8x4xf32>) outs(%22 : tensor<2x1x8x4xf32>) {
    ^bb0(%in: f32, %in_10: f32, %out: f32):
      %26 = arith.divf %in, %in_10 {amp.color = #amp.color<gray>} : f32
      %27 = arith.maximumf %in_10, %in : f32
      %28 = arith.divf %27, %27 : f32
      linalg.yield %28 : f32
    } -> tensor<2x1x8x4xf32>
    %24 = tensor.empty() : tensor<1x4x4xf32>
    %25 = linalg.generic {indexing_maps = [#map4, #map4, #map4, #map4], iterator_types = ["parallel", "parallel", "parallel"]} ins(%8, %cst_2, %17 : tensor<1x4x4xf32>, tensor<1x4x4xf32>, tensor<1x4x4xf32>) outs(%24 : tensor<1x4x4xf32>) {
    ^bb0(%in: f32, %in_10: f32, %in_11: f32, %out: f32):
      %26 = math.absf %in : f32
      %27 = arith.minimumf %in_11, %in_10 : f32
      linalg.yield %27 : f32
    } -> tensor<1x4x4xf32>
    return %arg2 : tensor<5x4xf32>
  }
  func.func private @f1(%arg0: tensor<?x?xf32>, %arg1: tensor<4x5x3xf32>, %arg2: tensor<8x3x4xf32>, %arg3: f32, %arg4: tensor<4xf32>, %arg5: tensor<?xf32>) -> (f32, tensor<30xf32>) {
    %c1 = arith.constant 1 : index
    %dim = tensor.dim %arg0, %c1 : tensor<?x?xf32>
    %0 = tensor.empty(%dim) : tensor<?xf32>
    %cst = arith.constant 3.40282347E+38 : f32
    %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<?xf32>) -> tensor<?xf32>
    %2 = linalg.generic {indexing_maps = [#map5, #map6], iterator_types = ["parallel", "reduction"]} ins(%arg0 : tensor<?x?xf32>) outs(%1 : tensor<?xf32>) {
    ^bb0(%in: f32, %out: f32):
      %23 = math.sqrt %in : f32
      %24 = arith.minimumf %out, %23 : f32
      linalg.yield %24 {amp.precision = #amp.precision<accumulate = f32, output = bf16>} : f32
    } -> tensor<?xf32>
    %3 = arith.minimumf %arg2, %arg2 : tensor<8x3x4xf32>
    %from_elements = tensor.from_elements %cst : tensor<f32>
    %4 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
    %5 = tosa.negate %arg1, %4, %4 : (tensor<4x5x3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x5x3xf32>
    %c0 = arith.constant 0 : index
    %c3 = arith.constant 3 : index
    %c1_0 = arith.constant 1 : index
    %6 = scf.for %arg6 = %c0 to %c3 step %c1_0 iter_args(%arg7 = %2) -> (tensor<?xf32>) {
      %23 = tensor.empty() : tensor<4x5x3xf32>
      %24 = linalg.generic {indexing_maps = [#map4, #map4, #map4], iterator_types = ["parallel", "parallel", "parallel"]} ins(%5, %arg1 : tensor<4x5x3xf32>, tensor<4x5x3xf32>) outs(%23 : tensor<4x5x3xf32>) {
      ^bb0(%in: f32, %in_12: f32, %out: f32):
        %29 = arith.mulf %in, %in : f32
        %30 = math.sqrt %29 : f32
        linalg.yield %30 : f32
      } -> tensor<4x5x3xf32>
      %cst_8 = arith.constant dense<-12.953125> : tensor<f32>
      %25 = arith.divf %from_elements, %cst_8 : tensor<f32>
      %cst_9 = arith.constant dense_resource<blob1> : tensor<4x3x5xf32>
      %26 = tensor.empty() : tensor<4x5x5xf32>
      %cst_10 = arith.constant 0.000000e+00 : f32
      %27 = linalg.fill ins(%cst_10 : f32) outs(%26 : tensor<4x5x5xf32>) -> tensor<4x5x5xf32>
      %28 = linalg.batch_matmul ins(%24, %cst_9 : tensor<4x5x3xf32>, tensor<4x3x5xf32>) outs(%27 : tensor<4x5x5xf32>) -> tensor<4x5x5xf32>
      %cst_11 = arith.constant 5.000000e-01 : f32
      scf.yield %arg7 : tensor<?xf32>
    }
    %padded = tensor.pad %arg1 low[1, 1, 0] high[0, 0, 1] {
    ^bb0(%arg6: index, %arg7: index, %arg8: index):
      %cst_8 = arith.constant -3.40282347E+38 : f32
      tensor.yield %cst_8 : f32
    } : tensor<4x5x3xf32> to tensor<5x6x4xf32>
    %collapsed = tensor.collapse_shape %padded [[0, 1], [2]] : tensor<5x6x4xf32> into tensor<30x4xf32>
    %7 = tensor.empty() : tensor<4x3xf32>
    %8 = linalg.fill ins(%cst : f32) outs(%7 : tensor<4x3xf32>) -> tensor<4x3xf32>
    %9 = tensor.empty() : tensor<30x3xf32>
    %cst_1 = arith.constant 0.000000e+00 : f32
    %10 = linalg.fill ins(%cst_1 : f32) outs(%9 : tensor<30x3xf32>) -> tensor<30x3xf32>
    %11 = linalg.generic {indexing_maps = [#map1, #map7, #map3], iterator_types = ["parallel", "parallel", "reduction"]} ins(%collapsed, %8 : tensor<30x4xf32>, tensor<4x3xf32>) outs(%10 : tensor<30x3xf32>) {
    ^bb0(%in: f32, %in_8: f32, %out: f32):
      %23 = arith.mulf %in, %in_8 : f32
      %24 = arith.addf %out, %23 : f32
      linalg.yield %24 : f32
    } -> tensor<30x3xf32>
    %12 = tosa.transpose %11 {perms = array<i32: 1, 0>} : (tensor<30x3xf32>) -> tensor<3x30xf32>
    %cst_2 = arith.constant 0.000000e+00 : f32
    %13:2 = scf.while (%arg6 = %11, %arg7 = %cst_2) : (tensor<30x3xf32>, f32) -> (tensor<30x3xf32>, f32) {
      %23 = arith.cmpf olt, %arg7, %arg3 : f32
      scf.condition(%23) %arg6, %arg7 : tensor<30x3xf32>, f32
    } do {
    ^bb0(%arg6: tensor<30x3xf32>, %arg7: f32):
      %cst_8 = arith.constant 1.000000e+00 : f32
      %23 = arith.addf %arg7, %cst_8 : f32
      scf.yield %arg6, %23 : tensor<30x3xf32>, f32
    }
    %padded_3 = tensor.pad %12 low[0, 0] high[1, 0] {
    ^bb0(%arg6: index, %arg7: index):
      tensor.yield %cst_2 : f32
    } : tensor<3x30xf32> to tensor<4x30xf32>
    %cst_4 = arith.constant 3.000000e+00 : f32
    %cst_5 = arith.constant 0.000000e+00 : f32
    %14:2 = scf.while (%arg6 = %13#0, %arg7 = %cst_5) : (tensor<30x3xf32>, f32) -> (tensor<30x3xf32>, f32) {
      %23 = arith.cmpf olt, %arg7, %cst_4 : f32
      scf.condition(%23) %arg6, %arg7 : tensor<30x3xf32>, f32
    } do {
    ^bb0(%arg6: tensor<30x3xf32>, %arg7: f32):
      %23 = tensor.empty() : tensor<30xf32>
      %cst_8 = arith.constant 0.000000e+00 : f32
      %24 = linalg.fill ins(%cst_8 : f32) outs(%23 : tensor<30xf32>) -> tensor<30xf32>
      %25 = linalg.matvec ins(%collapsed, %arg4 : tensor<30x4xf32>, tensor<4xf32>) outs(%24 : tensor<30xf32>) -> tensor<30xf32>
      %cst_9 = arith.constant {amp.color = #amp.color<green>} dense<0.000000e+00> : tensor<30x3xf32>
      %cst_10 = arith.constant {amp.color = #amp.color<gray>} 1.000000e+00 : f32
      %26 = arith.addf %arg7, %cst_10 : f32
      scf.yield %cst_9, %26 : tensor<30x3xf32>, f32
    }
    %15 = tensor.empty() : tensor<4x3xf32>
    %transposed = linalg.transpose ins(%8 : tensor<4x3xf32>) outs(%15 : tensor<4x3xf32>) permutation = [0, 1] 
    %16 = tosa.pow %5, %arg1 : (tensor<4x5x3xf32>, tensor<4x5x3xf32>) -> tensor<4x5x3xf32>
    %17 = tensor.empty() : tensor<30xf32>
    %cst_6 = arith.constant 3.40282347E+38 : f32
    %18 = linalg.fill ins(%cst_6 : f32) outs(%17 : tensor<30xf32>) -> tensor<30xf32>
    %19 = linalg.generic {indexing_maps = [#map8, #map6], iterator_types = ["parallel", "reduction"]} ins(%14#0 : tensor<30x3xf32>) outs(%18 : tensor<30xf32>) {
    ^bb0(%in: f32, %out: f32):
      %23 = arith.minimumf %out, %in : f32
      linalg.yield %23 {amp.precision = #amp.precision<accumulate = f32, output = bf16>} : f32
    } -> tensor<30xf32>
    %20 = arith.cmpf ule, %6, %arg5 : tensor<?xf32>
    %21 = arith.select %20, %6, %arg5 : tensor<?xi1>, tensor<?xf32>
    %cst_7 = arith.constant dense<-2.500000e+00> : tensor<f32>
    %22 = tosa.log %5 : (tensor<4x5x3xf32>) -> tensor<4x5x3xf32>
    return %arg3, %18 : f32, tensor<30xf32>
  }
  func.func @f2(%arg0: tensor<8x8xf32>) -> (tensor<1x4x4xf32>, tensor<1x4x4xf32>, tensor<8xf32>) {
    %padded = tensor.pad %arg0 low[0, 1] high[1, 0] {
    ^bb0(%arg1: index, %arg2: index):
      %cst_2 = arith.constant -2.500000e+00 : f32
      tensor.yield %cst_2 : f32
    } {amp.color = #amp.color<green>} : tensor<8x8xf32> to tensor<9x9xf32>
    %cst = arith.constant 6.562500e-01 : f32
    %splat = tensor.splat %cst : tensor<1x4x4xf32>
    %padded_0 = tensor.pad %padded low[0, 2] high[1, 0] {
    ^bb0(%arg1: index, %arg2: index):
      tensor.yield %cst : f32
    } : tensor<9x9xf32> to tensor<10x11xf32>
    %0 = tensor.empty() : tensor<8xf32>
    %cst_1 = arith.constant 0.000000e+00 : f32
    %1 = linalg.fill ins(%cst_1 : f32) outs(%0 : tensor<8xf32>) -> tensor<8xf32>
    %2 = linalg.generic {indexing_maps = [#map8, #map6], iterator_types = ["parallel", "reduction"]} ins(%arg0 : tensor<8x8xf32>) outs(%1 : tensor<8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %3 = math.absf %in : f32
      %4 = arith.addf %out, %3 : f32
      linalg.yield %4 : f32
    } -> tensor<8xf32>
    return %splat, %splat, %2 : tensor<1x4x4xf32>, tensor<1x4x4xf32>, tensor<8xf32>
  }
}

{-#
  dialect_resources: {
    builtin: {
      blob0: "0x040000000080BDC0000032410000003E0000BCC000000B40",
      blob1: "0x040000000000DDC00000000000C025C1000020C00000B340000080BF00B888C7008053410000003E00006DC100C06041CDCCCC3D000040BF0000404000C02E41000080BF0000803F00002840CDCCCC3D000020C0CDCCCC3D000020C000405041000036C0004070410000E9C0000000000000803F000020C000C018C100000000000020C00000803F0080BDC0000006C1000040BF000020C0000020C00000807F000070BE000062C10000000000C06741FFFF7F7F00404CC1004052C1004024410000803F000020C000000EC00000404000007DC000C060410000BA400080304100004040000040BF9976967E0000803F00407441"
    }
  }
#-}
