// Found by amp-graphgen (seed 4492): a second run of amp-mixed-precision changed
// the IR. The conversion now reaches a fixed point in one run (see
// convertToMixedPrecision in include/amp/Transforms/MixedPrecision.h).
#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d0)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d2, d1)>
#map3 = affine_map<(d0, d1, d2) -> (d0, d1)>
#map4 = affine_map<(d0, d1) -> (d1)>
#map5 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map6 = affine_map<(d0, d1, d2) -> (d2)>
#map7 = affine_map<(d0) -> (d0)>
#map8 = affine_map<(d0) -> ()>
#map9 = affine_map<(d0, d1, d2) -> (d0, d2)>
#map10 = affine_map<(d0, d1, d2) -> (d2, d1)>
module {
  func.func private @ext0(tensor<2x1xf32>, tensor<5x1xf32>) -> tensor<3x1xf32>
  func.func @f0(%arg0: tensor<2x1x1xf32>, %arg1: tensor<4x1xf32>, %arg2: tensor<4x2xf32>, %arg3: f32, %arg4: tensor<5x1xf32>, %arg5: memref<4xf32>) -> (tensor<2x1xf32>, f32, tensor<3x1xf32>) {
    %cst = arith.constant 0.000000e+00 : f32
    %0:2 = scf.while (%arg6 = %arg2, %arg7 = %cst) : (tensor<4x2xf32>, f32) -> (tensor<4x2xf32>, f32) {
      %9 = arith.cmpf olt, %arg7, %arg3 : f32
      scf.condition(%9) %arg6, %arg7 : tensor<4x2xf32>, f32
    } do {
    ^bb0(%arg6: tensor<4x2xf32>, %arg7: f32):
      %9 = math.sin %cst : f32
      %cst_2 = arith.constant dense<1.250000e-01> : tensor<2x5xf32>
      %10 = tensor.empty() : tensor<4x5xf32>
      %cst_3 = arith.constant 0.000000e+00 : f32
      %11 = linalg.fill ins(%cst_3 : f32) outs(%10 : tensor<4x5xf32>) -> tensor<4x5xf32>
      %12 = linalg.matmul ins(%arg6, %cst_2 : tensor<4x2xf32>, tensor<2x5xf32>) outs(%11 : tensor<4x5xf32>) -> tensor<4x5xf32>
      %13 = tensor.empty() : tensor<4x1xf32>
      %cst_4 = arith.constant 0.000000e+00 : f32
      %14 = linalg.fill ins(%cst_4 : f32) outs(%13 : tensor<4x1xf32>) -> tensor<4x1xf32>
      %15 = linalg.matmul ins(%12, %arg4 : tensor<4x5xf32>, tensor<5x1xf32>) outs(%14 : tensor<4x1xf32>) -> tensor<4x1xf32>
      %cst_5 = arith.constant 1.000000e+00 : f32
      %16 = arith.addf %arg7, %cst_5 {amp.precision = #amp.precision<accumulate = f16, output = f32>} : f32
      scf.yield %arg6, %16 : tensor<4x2xf32>, f32
    }
    %c1 = arith.constant {amp.precision = #amp.precision<accumulate = bf16, output = f16>} 1 : index
    %1 = memref.load %arg5[%c1] : memref<4xf32>
    %cst_0 = arith.constant 1.250000e-01 : f32
    %2 = arith.cmpf olt, %1, %cst_0 : f32
    %3:2 = scf.if %2 -> (f32, f32) {
      scf.yield %cst, %arg3 : f32, f32
    } else {
      %9 = tensor.empty() : tensor<5xf32>
      %cst_2 = arith.constant 0.000000e+00 : f32
      %10 = linalg.fill ins(%cst_2 : f32) outs(%9 : tensor<5xf32>) -> tensor<5xf32>
      %11 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "reduction"]} ins(%arg4 : tensor<5x1xf32>) outs(%10 : tensor<5xf32>) {
      ^bb0(%in: f32, %out: f32):
        %19 = arith.addf %out, %in : f32
        linalg.yield %19 : f32
      } -> tensor<5xf32>
      %cst_3 = arith.constant dense<1.000000e-01> : tensor<1x4x3x4xf32>
      %cst_4 = arith.constant {amp.color = #amp.color<green>} dense<3.000000e+00> : tensor<2x3x4x4xf32>
      %12 = tensor.empty() : tensor<1x3x1x4xf32>
      %cst_5 = arith.constant 0.000000e+00 : f32
      %13 = linalg.fill {amp.precision = #amp.precision<accumulate = f32, output = bf16>} ins(%cst_5 : f32) outs(%12 : tensor<1x3x1x4xf32>) -> tensor<1x3x1x4xf32>
      %14 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%cst_3, %cst_4 : tensor<1x4x3x4xf32>, tensor<2x3x4x4xf32>) outs(%13 : tensor<1x3x1x4xf32>) -> tensor<1x3x1x4xf32>
      %15 = arith.cmpf olt, %cst_3, %cst_3 : tensor<1x4x3x4xf32>
      %16 = arith.select %15, %cst_3, %cst_3 : tensor<1x4x3x4xi1>, tensor<1x4x3x4xf32>
      %17 = tosa.const_shape  {values = dense<[1, 4]> : tensor<2xindex>} : () -> !tosa.shape<2>
      %18 = tosa.reshape %arg1, %17 {amp.color = #amp.color<green>} : (tensor<4x1xf32>, !tosa.shape<2>) -> tensor<1x4xf32>
      scf.yield %1, %1 : f32, f32
    }
    %4 = tensor.empty() : tensor<2x1xf32>
    %cst_1 = arith.constant 1.000000e+00 : f32
    %5 = linalg.fill ins(%cst_1 : f32) outs(%4 : tensor<2x1xf32>) -> tensor<2x1xf32>
    %6 = linalg.generic {indexing_maps = [#map2, #map3], iterator_types = ["parallel", "parallel", "reduction"]} ins(%arg0 : tensor<2x1x1xf32>) outs(%5 : tensor<2x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %9 = arith.mulf %out, %in : f32
      linalg.yield %9 : f32
    } -> tensor<2x1xf32>
    %7 = tosa.erf %6 : (tensor<2x1xf32>) -> tensor<2x1xf32>
    %8 = call @ext0(%6, %arg4) : (tensor<2x1xf32>, tensor<5x1xf32>) -> tensor<3x1xf32>
    %extracted_slice = tensor.extract_slice %arg2[2, 1] [2, 1] [1, 1] : tensor<4x2xf32> to tensor<2x1xf32>
    return %5, %cst_1, %8 : tensor<2x1xf32>, f32, tensor<3x1xf32>
  }
  func.func @f1(%arg0: tensor<3x1x4xf32>, %arg1: f32, %arg2: f32, %arg3: f32, %arg4: tensor<4xf32>) -> tensor<1x3x4xf32> {
    %cst = arith.constant dense<6.550400e+04> : tensor<1x1x4xf32>
    %inserted_slice = tensor.insert_slice %cst into %arg0[1, 0, 0] [1, 1, 4] [1, 1, 1] : tensor<1x1x4xf32> into tensor<3x1x4xf32>
    %0 = arith.truncf %cst : tensor<1x1x4xf32> to tensor<1x1x4xf16>
    %1 = arith.extf %0 : tensor<1x1x4xf16> to tensor<1x1x4xf32>
    %2 = math.tanh %arg0 : tensor<3x1x4xf32>
    %3 = tensor.empty() : tensor<3x8xf32>
    %cst_0 = arith.constant -7.078125 : f32
    %4 = linalg.fill {amp.color = #amp.color<green>} ins(%cst_0 : f32) outs(%3 : tensor<3x8xf32>) -> tensor<3x8xf32>
    %cst_1 = arith.constant dense<[[9.093750e+00, 5.687500e+00, 3.000000e+00, 5.468750e+00], [1.250000e-01, -11.09375, -7.000000e+04, 5.000000e-01], [0xFF800000, -2.500000e+00, -6.390625, 3.000000e+00], [-3.640625, -10.359375, 3.000000e+00, 3.906250e-01], [-7.500000e-01, 9.999940e-41, 5.000000e-01, 4.640625], [-5.375000e+00, -6.250000e-02, -2.500000e+00, -7.156250e+00], [9.99999993E-9, 1.250000e-01, -3.000000e-09, 4.234375], [9.999940e-41, 6.550400e+04, 6.550400e+04, 1.250000e-01]]> : tensor<8x4xf32>
    %5 = tensor.empty() : tensor<3x4xf32>
    %cst_2 = arith.constant 0.000000e+00 : f32
    %6 = linalg.fill ins(%cst_2 : f32) outs(%5 : tensor<3x4xf32>) -> tensor<3x4xf32>
    %7 = linalg.matmul ins(%4, %cst_1 : tensor<3x8xf32>, tensor<8x4xf32>) outs(%6 : tensor<3x4xf32>) -> tensor<3x4xf32>
    %8 = arith.cmpf olt, %cst_2, %cst_2 : f32
    %9 = scf.if %8 -> (f32) {
      %39 = tensor.empty() {amp.precision = #amp.precision<accumulate = f16, output = f16>} : tensor<4xf32>
      %40 = linalg.fill {amp.color = #amp.color<red>} ins(%cst_0 : f32) outs(%39 : tensor<4xf32>) -> tensor<4xf32>
      %41 = tensor.empty() : tensor<3x4xf32>
      %42 = linalg.generic {indexing_maps = [#map, #map, #map4, #map], iterator_types = ["parallel", "parallel"]} ins(%6, %7, %40 : tensor<3x4xf32>, tensor<3x4xf32>, tensor<4xf32>) outs(%41 : tensor<3x4xf32>) attrs =  {amp.color = #amp.color<gray>} {
      ^bb0(%in: f32, %in_11: f32, %in_12: f32, %out: f32):
        %43 = arith.mulf %in_11, %in_12 : f32
        %44 = arith.subf %in_12, %43 : f32
        %45 = arith.negf %43 : f32
        linalg.yield %45 : f32
      } -> tensor<3x4xf32>
      scf.yield %arg1 : f32
    } else {
      %cst_11 = arith.constant 1.000000e+00 : f32
      %from_elements_12 = tensor.from_elements %cst_2, %cst_11 : tensor<2xf32>
      scf.yield %arg1 : f32
    }
    %10 = arith.cmpf ogt, %cst_0, %arg2 : f32
    cf.cond_br %10, ^bb1, ^bb2
  ^bb1:  // pred: ^bb0
    %expanded = tensor.expand_shape %arg0 [[0, 1], [2], [3]] output_shape [1, 3, 1, 4] : tensor<3x1x4xf32> into tensor<1x3x1x4xf32>
    %11 = tensor.empty() : tensor<3xf32>
    %cst_3 = arith.constant 0.000000e+00 : f32
    %12 = linalg.fill ins(%cst_3 : f32) outs(%11 : tensor<3xf32>) -> tensor<3xf32>
    %13 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "reduction"]} ins(%6 : tensor<3x4xf32>) outs(%12 : tensor<3xf32>) {
    ^bb0(%in: f32, %out: f32):
      %39 = arith.addf %out, %in : f32
      linalg.yield %39 : f32
    } -> tensor<3xf32>
    %c2 = arith.constant 2 : index
    %c5 = arith.constant 5 : index
    %extracted = tensor.extract %4[%c2, %c5] : tensor<3x8xf32>
    cf.br ^bb3(%extracted : f32)
  ^bb2:  // pred: ^bb0
    %14 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
    %15 = tosa.negate %arg0, %14, %14 : (tensor<3x1x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<3x1x4xf32>
    %padded = tensor.pad %arg0 low[0, 0, 1] high[1, 2, 0] {
    ^bb0(%arg5: index, %arg6: index, %arg7: index):
      %cst_11 = arith.constant -5.578125 : f32
      tensor.yield %cst_11 : f32
    } : tensor<3x1x4xf32> to tensor<4x3x5xf32>
    %padded_4 = tensor.pad %arg0 low[0, 0, 0] high[0, 1, 2] {
    ^bb0(%arg5: index, %arg6: index, %arg7: index):
      %cst_11 = arith.constant -1.531250e+01 : f32
      tensor.yield %cst_11 : f32
    } {amp.color = #amp.color<red>} : tensor<3x1x4xf32> to tensor<3x2x6xf32>
    cf.br ^bb3(%9 : f32)
  ^bb3(%16: f32):  // 2 preds: ^bb1, ^bb2
    %17 = tensor.empty() : tensor<8x4xf32>
    %18 = linalg.fill ins(%arg3 : f32) outs(%17 : tensor<8x4xf32>) -> tensor<8x4xf32>
    %19 = math.atan2 %cst_1, %18 : tensor<8x4xf32>
    %20 = tensor.empty() : tensor<8x5xf32>
    %21 = linalg.fill ins(%cst_2 : f32) outs(%20 : tensor<8x5xf32>) -> tensor<8x5xf32>
    %cst_5 = arith.constant dense<[[0.000000e+00, -2.500000e+00, -7.343750e+00, -7.500000e-01, 13.921875], [1.000000e-01, -7.500000e-01, 1.250000e-01, 1.243750e+01, -7.500000e-01], [3.000000e+00, 1.000000e+00, 6.552000e+04, 5.000000e-01, -12.234375]]> : tensor<3x5xf32>
    %22 = linalg.matmul ins(%4, %21 : tensor<3x8xf32>, tensor<8x5xf32>) outs(%cst_5 : tensor<3x5xf32>) -> tensor<3x5xf32>
    %expanded_6 = tensor.expand_shape %6 [[0, 1], [2]] output_shape [1, 3, 4] : tensor<3x4xf32> into tensor<1x3x4xf32>
    %cst_7 = arith.constant 2.093750e+00 : f32
    %cst_8 = arith.constant -3.000000e-09 : f32
    %from_elements = tensor.from_elements %cst_7, %cst_8 : tensor<2xf32>
    %23 = tensor.empty() : tensor<1x1x4xf32>
    %24 = linalg.fill ins(%cst_0 : f32) outs(%23 : tensor<1x1x4xf32>) -> tensor<1x1x4xf32>
    %25 = arith.maxnumf %cst, %24 : tensor<1x1x4xf32>
    %concat = tensor.concat dim(0) %arg0, %arg0 : (tensor<3x1x4xf32>, tensor<3x1x4xf32>) -> tensor<6x1x4xf32>
    %26 = math.atan %cst {amp.color = #amp.color<red>} : tensor<1x1x4xf32>
    %27 = tosa.const_shape  {values = dense<[1, 4]> : tensor<2xindex>} : () -> !tosa.shape<2>
    %28 = tosa.reshape %1, %27 : (tensor<1x1x4xf32>, !tosa.shape<2>) -> tensor<1x4xf32>
    %29 = tosa.const_shape  {values = dense<[1, 12]> : tensor<2xindex>} : () -> !tosa.shape<2>
    %30 = tosa.reshape %2, %29 : (tensor<3x1x4xf32>, !tosa.shape<2>) -> tensor<1x12xf32>
    %cst_9 = arith.constant dense<[5.000000e-01, -13.71875, 11.515625, 1.000000e+00]> : tensor<4xf32>
    %31 = tensor.empty() {amp.precision = #amp.precision<accumulate = f32, output = f32>} : tensor<1x1x4xf32>
    %32 = linalg.generic {indexing_maps = [#map5, #map6, #map6, #map5], iterator_types = ["parallel", "parallel", "parallel"]} ins(%24, %cst_9, %arg4 : tensor<1x1x4xf32>, tensor<4xf32>, tensor<4xf32>) outs(%31 : tensor<1x1x4xf32>) {
    ^bb0(%in: f32, %in_11: f32, %in_12: f32, %out: f32):
      %39 = arith.subf %in_12, %in : f32
      %40 = arith.addf %in, %in : f32
      %41 = arith.divf %in_11, %in_12 : f32
      %42 = arith.maximumf %in, %41 : f32
      linalg.yield %42 : f32
    } -> tensor<1x1x4xf32>
    %33 = tensor.empty() : tensor<8x4xf32>
    %34 = tensor.empty() {amp.precision = #amp.precision<accumulate = f32, output = bf16>} : tensor<8x4xf32>
    %35 = linalg.fill ins(%cst_7 : f32) outs(%34 : tensor<8x4xf32>) -> tensor<8x4xf32>
    %36 = linalg.min ins(%cst_1, %35 : tensor<8x4xf32>, tensor<8x4xf32>) outs(%33 : tensor<8x4xf32>) -> tensor<8x4xf32>
    %37 = tensor.empty() : tensor<f32>
    %cst_10 = arith.constant -3.40282347E+38 : f32
    %38 = linalg.fill ins(%cst_10 : f32) outs(%37 : tensor<f32>) -> tensor<f32>
    %reduced = linalg.reduce { arith.maximumf } ins(%cst_9 : tensor<4xf32>) outs(%38 : tensor<f32>) dimensions = [0] 
    return %expanded_6 : tensor<1x3x4xf32>
  }
  func.func @f2(%arg0: tensor<1xf32>, %arg1: tensor<1xf32>) -> vector<4xf32> {
    %cst = arith.constant 1.250000e-01 : f32
    %inserted_slice = tensor.insert_slice %arg0 into %arg1[0] [1] [1] : tensor<1xf32> into tensor<1xf32>
    %0 = tensor.empty() : tensor<1xf32>
    %1 = linalg.softmax {amp.color = #amp.color<red>} dimension(0) ins(%inserted_slice : tensor<1xf32>) outs(%0 : tensor<1xf32>) -> tensor<1xf32>
    %cst_0 = arith.constant -1.381250e+01 : f32
    %2 = vector.broadcast %cst_0 : f32 to vector<4xf32>
    %3 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
    %4 = tosa.negate %arg1, %3, %3 : (tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1xf32>
    %cst_1 = arith.constant dense<1.000000e-01> : tensor<1xf32>
    %5 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> {amp.color = #amp.color<gray>} : () -> tensor<1xi8>
    %6 = tosa.mul %inserted_slice, %cst_1, %5 : (tensor<1xf32>, tensor<1xf32>, tensor<1xi8>) -> tensor<1xf32>
    %7 = arith.extf %arg1 {amp.color = #amp.color<green>} : tensor<1xf32> to tensor<1xf64>
    %8 = arith.addf %7, %7 : tensor<1xf64>
    %9 = arith.truncf %8 : tensor<1xf64> to tensor<1xf32>
    %extracted_slice = tensor.extract_slice %inserted_slice[0] [1] [1] : tensor<1xf32> to tensor<1xf32>
    %10 = tensor.empty() {amp.color = #amp.color<red>} : tensor<f32>
    %cst_2 = arith.constant 3.40282347E+38 : f32
    %11 = linalg.fill ins(%cst_2 : f32) outs(%10 : tensor<f32>) -> tensor<f32>
    %12 = linalg.generic {indexing_maps = [#map7, #map8], iterator_types = ["reduction"]} ins(%arg1 : tensor<1xf32>) outs(%11 : tensor<f32>) {
    ^bb0(%in: f32, %out: f32):
      %28 = arith.minimumf %out, %in : f32
      linalg.yield %28 : f32
    } -> tensor<f32>
    %13 = tensor.empty() : tensor<4x4xf32>
    %14 = linalg.fill ins(%cst : f32) outs(%13 : tensor<4x4xf32>) -> tensor<4x4xf32>
    %15 = tensor.empty() : tensor<4x2xf32>
    %16 = linalg.fill ins(%cst_2 : f32) outs(%15 : tensor<4x2xf32>) -> tensor<4x2xf32>
    %17 = linalg.matmul {amp.color = #amp.color<gray>} ins(%14, %16 : tensor<4x4xf32>, tensor<4x2xf32>) outs(%16 : tensor<4x2xf32>) -> tensor<4x2xf32>
    %18 = tensor.empty() : tensor<2x8xf32>
    %19 = linalg.fill ins(%cst : f32) outs(%18 : tensor<2x8xf32>) -> tensor<2x8xf32>
    %20 = tensor.empty() : tensor<4x8xf32>
    %21 = linalg.fill ins(%cst : f32) outs(%20 : tensor<4x8xf32>) -> tensor<4x8xf32>
    %22 = linalg.matmul ins(%16, %19 : tensor<4x2xf32>, tensor<2x8xf32>) outs(%21 : tensor<4x8xf32>) -> tensor<4x8xf32>
    %23 = tensor.empty() : tensor<8x3xf32>
    %24 = linalg.fill ins(%cst_0 : f32) outs(%23 : tensor<8x3xf32>) -> tensor<8x3xf32>
    %25 = tensor.empty() : tensor<4x3xf32>
    %cst_3 = arith.constant 0.000000e+00 : f32
    %26 = linalg.fill ins(%cst_3 : f32) outs(%25 : tensor<4x3xf32>) -> tensor<4x3xf32>
    %27 = linalg.generic {indexing_maps = [#map9, #map10, #map3], iterator_types = ["parallel", "parallel", "reduction"]} ins(%22, %24 : tensor<4x8xf32>, tensor<8x3xf32>) outs(%26 : tensor<4x3xf32>) {
    ^bb0(%in: f32, %in_4: f32, %out: f32):
      %28 = arith.mulf %in, %in_4 : f32
      %29 = arith.addf %out, %28 : f32
      linalg.yield %29 : f32
    } -> tensor<4x3xf32>
    return %2 : vector<4xf32>
  }
}
