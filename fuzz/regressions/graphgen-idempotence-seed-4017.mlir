// Found by amp-graphgen (seed 4017): a second run of amp-mixed-precision changed
// the IR. The conversion now reaches a fixed point in one run (see
// convertToMixedPrecision in include/amp/Transforms/MixedPrecision.h).
#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d1, d2)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#map3 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map4 = affine_map<(d0, d1, d2) -> (d0, d2, d1)>
module attributes {amp.policy = #amp.default_policy<accumulate = f16, output = f16>} {
  func.func @f0(%arg0: tensor<1x?x5x4xf32>, %arg1: tensor<4x4xf32>, %arg2: tensor<1x3x6x4xf32>, %arg3: tensor<4x4xf32>, %arg4: f32, %arg5: tensor<4x5xf32>, %arg6: tensor<5x2xf32>, %arg7: tensor<1x4x8xf32>, %arg8: tensor<1x8x3xf32>, %arg9: f32) -> (tensor<4x4xf32>, tensor<4x5xf32>, tensor<1x3x6x4xf32>) {
    %0 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
    %1 = "tosa.const"() <{values = dense<1.250000e-01> : tensor<4x2x2x4xf32>}> : () -> tensor<4x2x2x4xf32>
    %cst = arith.constant dense<1.250000e-01> : tensor<4xf32>
    %2 = tosa.conv2d %arg2, %1, %cst, %0, %0 {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x3x6x4xf32>, tensor<4x2x2x4xf32>, tensor<4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2x5x4xf32>
    %3 = math.fma %arg1, %arg1, %arg3 : tensor<4x4xf32>
    %4 = arith.fptosi %arg3 : tensor<4x4xf32> to tensor<4x4xi32>
    %5 = arith.sitofp %4 : tensor<4x4xi32> to tensor<4x4xf32>
    %c8 = arith.constant 8 : index
    %6 = tensor.empty(%c8) : tensor<?x2x3xf32>
    %7 = linalg.fill ins(%arg4 : f32) outs(%6 : tensor<?x2x3xf32>) -> tensor<?x2x3xf32>
    %c1 = arith.constant 1 : index
    %8 = tensor.empty(%c1) : tensor<?x3x3xf32>
    %9 = linalg.fill {amp.color = #amp.color<green>} ins(%arg4 : f32) outs(%8 : tensor<?x3x3xf32>) -> tensor<?x3x3xf32>
    %c0 = arith.constant {amp.precision = #amp.precision<accumulate = f16, output = bf16>} 0 : index
    %dim = tensor.dim %7, %c0 : tensor<?x2x3xf32>
    %10 = tensor.empty(%dim) : tensor<?x2x3xf32>
    %cst_0 = arith.constant 0.000000e+00 : f32
    %11 = linalg.fill ins(%cst_0 : f32) outs(%10 : tensor<?x2x3xf32>) -> tensor<?x2x3xf32>
    %12 = linalg.batch_matmul ins(%7, %9 : tensor<?x2x3xf32>, tensor<?x3x3xf32>) outs(%11 : tensor<?x2x3xf32>) -> tensor<?x2x3xf32>
    %13 = tensor.empty() : tensor<4x5xf32>
    %cst_1 = arith.constant 0.000000e+00 : f32
    %14 = linalg.fill ins(%cst_1 : f32) outs(%13 : tensor<4x5xf32>) -> tensor<4x5xf32>
    %15 = linalg.matmul ins(%arg3, %arg5 : tensor<4x4xf32>, tensor<4x5xf32>) outs(%14 : tensor<4x5xf32>) -> tensor<4x5xf32>
    %16 = tensor.empty() : tensor<5x5xf32>
    %cst_2 = arith.constant 3.000000e+00 : f32
    %17 = linalg.fill ins(%cst_2 : f32) outs(%16 : tensor<5x5xf32>) -> tensor<5x5xf32>
    %18 = tensor.empty() : tensor<4x5xf32>
    %cst_3 = arith.constant 0.000000e+00 : f32
    %19 = linalg.fill ins(%cst_3 : f32) outs(%18 : tensor<4x5xf32>) -> tensor<4x5xf32>
    %20 = linalg.matmul ins(%arg5, %17 : tensor<4x5xf32>, tensor<5x5xf32>) outs(%19 : tensor<4x5xf32>) -> tensor<4x5xf32>
    %21 = tensor.empty() : tensor<1x1x4x4xf32>
    %cst_4 = arith.constant -3.40282347E+38 : f32
    %22 = linalg.fill ins(%cst_4 : f32) outs(%21 : tensor<1x1x4x4xf32>) -> tensor<1x1x4x4xf32>
    %23 = tensor.empty() : tensor<2x2xf32>
    %24 = linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%2, %23 : tensor<1x2x5x4xf32>, tensor<2x2xf32>) outs(%22 : tensor<1x1x4x4xf32>) -> tensor<1x1x4x4xf32>
    %cst_5 = arith.constant 0.000000e+00 : f32
    %25:2 = scf.while (%arg10 = %24, %arg11 = %cst_5) : (tensor<1x1x4x4xf32>, f32) -> (tensor<1x1x4x4xf32>, f32) {
      %45 = arith.cmpf olt, %arg11, %arg4 : f32
      scf.condition(%45) %arg10, %arg11 : tensor<1x1x4x4xf32>, f32
    } do {
    ^bb0(%arg10: tensor<1x1x4x4xf32>, %arg11: f32):
      %cst_20 = arith.constant dense<[[[3.40282347E+38], [5.640625], [3.40282347E+38]]]> : tensor<1x3x1xf32>
      %45 = tensor.empty() : tensor<1x1x4xf32>
      %46 = linalg.fill ins(%cst_4 : f32) outs(%45 : tensor<1x1x4xf32>) -> tensor<1x1x4xf32>
      %47 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
      %48 = tosa.matmul %cst_20, %46, %47, %47 : (tensor<1x3x1xf32>, tensor<1x1x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x3x4xf32>
      %cst_21 = arith.constant 1.000000e+00 : f32
      %49 = arith.addf %arg11, %cst_21 : f32
      scf.yield %arg10, %49 : tensor<1x1x4x4xf32>, f32
    }
    %cst_6 = arith.constant -1.425000e+01 : f32
    %padded = tensor.pad %17 low[0, 0] high[0, 0] {
    ^bb0(%arg10: index, %arg11: index):
      tensor.yield %cst_4 : f32
    } : tensor<5x5xf32> to tensor<5x5xf32>
    %cst_7 = arith.constant dense<[[0xFF800000, 4.750000e+00], [10.015625, 3.000000e+00], [1.000000e+00, 1.000000e-01], [12.984375, 1.000000e+05]]> : tensor<4x2xf32>
    %26 = linalg.matmul ins(%arg5, %arg6 : tensor<4x5xf32>, tensor<5x2xf32>) outs(%cst_7 : tensor<4x2xf32>) -> tensor<4x2xf32>
    %27 = arith.addf %19, %15 : tensor<4x5xf32>
    %collapsed = tensor.collapse_shape %5 [[0, 1]] : tensor<4x4xf32> into tensor<16xf32>
    %from_elements = tensor.from_elements %cst_0 : tensor<f32>
    %c0_8 = arith.constant 0 : index
    %dim_9 = tensor.dim %9, %c0_8 : tensor<?x3x3xf32>
    %28 = tensor.empty(%dim_9) : tensor<?x3x3xf32>
    %cst_10 = arith.constant 0.000000e+00 : f32
    %29 = linalg.fill ins(%cst_10 : f32) outs(%28 : tensor<?x3x3xf32>) -> tensor<?x3x3xf32>
    %30 = linalg.batch_matmul ins(%9, %9 : tensor<?x3x3xf32>, tensor<?x3x3xf32>) outs(%29 : tensor<?x3x3xf32>) -> tensor<?x3x3xf32>
    %c0_11 = arith.constant 0 : index
    %c3 = arith.constant 3 : index
    %c1_12 = arith.constant 1 : index
    %31 = scf.for %arg10 = %c0_11 to %c3 step %c1_12 iter_args(%arg11 = %from_elements) -> (tensor<f32>) {
      %c0_20 = arith.constant 0 : index
      %dim_21 = tensor.dim %30, %c0_20 : tensor<?x3x3xf32>
      %45 = tensor.empty(%dim_21) : tensor<?x3x3xf32>
      %transposed = linalg.transpose ins(%30 : tensor<?x3x3xf32>) outs(%45 : tensor<?x3x3xf32>) permutation = [0, 2, 1] 
      %46 = arith.cmpf olt, %cst_4, %cst_4 : f32
      %47:2 = scf.if %46 -> (tensor<4x5xf32>, f32) {
        %51 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
        %52 = tosa.matmul %arg7, %arg8, %51, %51 : (tensor<1x4x8xf32>, tensor<1x8x3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x3xf32>
        %inserted_slice_22 = tensor.insert_slice %arg3 into %arg5[0, 0] [4, 4] [1, 1] : tensor<4x4xf32> into tensor<4x5xf32>
        %53 = tensor.empty() : tensor<4xf32>
        %mapped = linalg.map { arith.maximumf } ins(%cst, %cst : tensor<4xf32>, tensor<4xf32>) outs(%53 : tensor<4xf32>)
        scf.yield %inserted_slice_22, %cst_10 : tensor<4x5xf32>, f32
      } else {
        %51 = arith.maxnumf %14, %15 : tensor<4x5xf32>
        %extracted_slice = tensor.extract_slice %22[0, 0, 0, 1] [1, 1, 2, 3] [1, 1, 1, 1] : tensor<1x1x4x4xf32> to tensor<1x1x2x3xf32>
        %52 = linalg.matmul indexing_maps = [#map, #map1, #map2] ins(%26, %26 : tensor<4x2xf32>, tensor<4x2xf32>) outs(%arg1 : tensor<4x4xf32>) -> tensor<4x4xf32>
        %53 = tensor.empty() : tensor<4x5xf32>
        %54 = linalg.fill ins(%arg9 : f32) outs(%53 : tensor<4x5xf32>) -> tensor<4x5xf32>
        scf.yield %54, %arg4 : tensor<4x5xf32>, f32
      }
      %inserted_slice = tensor.insert_slice %27 into %17[0, 0] [4, 5] [1, 1] : tensor<4x5xf32> into tensor<5x5xf32>
      %48 = math.ceil %arg7 : tensor<1x4x8xf32>
      %49 = tensor.empty() : tensor<4x2xf32>
      %50 = linalg.softmax dimension(0) ins(%26 : tensor<4x2xf32>) outs(%49 : tensor<4x2xf32>) -> tensor<4x2xf32>
      scf.yield %arg11 : tensor<f32>
    }
    %32 = arith.divf %14, %20 : tensor<4x5xf32>
    %33 = math.exp %29 : tensor<?x3x3xf32>
    %cst_13 = arith.constant dense_resource<blob0> : tensor<5x4xf32>
    %34 = tensor.empty() : tensor<4x4xf32>
    %cst_14 = arith.constant 0.000000e+00 : f32
    %35 = linalg.fill ins(%cst_14 : f32) outs(%34 : tensor<4x4xf32>) -> tensor<4x4xf32>
    %36 = linalg.generic {indexing_maps = [#map, #map3, #map2], iterator_types = ["parallel", "parallel", "reduction"]} ins(%20, %cst_13 : tensor<4x5xf32>, tensor<5x4xf32>) outs(%35 : tensor<4x4xf32>) {
    ^bb0(%in: f32, %in_20: f32, %out: f32):
      %45 = arith.mulf %in, %in_20 : f32
      %46 = arith.addf %out, %45 : f32
      linalg.yield %46 : f32
    } -> tensor<4x4xf32>
    %37 = tensor.empty() : tensor<2x3x8xf32>
    %38 = linalg.fill ins(%cst_4 : f32) outs(%37 : tensor<2x3x8xf32>) -> tensor<2x3x8xf32>
    %cast = tensor.cast %38 : tensor<2x3x8xf32> to tensor<?x3x8xf32>
    %c0_15 = arith.constant 0 : index
    %dim_16 = tensor.dim %33, %c0_15 : tensor<?x3x3xf32>
    %39 = tensor.empty(%dim_16) : tensor<?x3x8xf32>
    %cst_17 = arith.constant 0.000000e+00 : f32
    %40 = linalg.fill ins(%cst_17 : f32) outs(%39 : tensor<?x3x8xf32>) -> tensor<?x3x8xf32>
    %41 = linalg.batch_matmul ins(%33, %cast : tensor<?x3x3xf32>, tensor<?x3x8xf32>) outs(%40 : tensor<?x3x8xf32>) -> tensor<?x3x8xf32>
    %cst_18 = arith.constant dense_resource<blob1> : tensor<5x8xf32>
    %42 = tensor.empty() : tensor<5x8xf32>
    %cst_19 = arith.constant 0.000000e+00 : f32
    %43 = linalg.fill ins(%cst_19 : f32) outs(%42 : tensor<5x8xf32>) -> tensor<5x8xf32>
    %44 = linalg.matmul ins(%17, %cst_18 : tensor<5x5xf32>, tensor<5x8xf32>) outs(%43 : tensor<5x8xf32>) -> tensor<5x8xf32>
    return %36, %32, %arg2 : tensor<4x4xf32>, tensor<4x5xf32>, tensor<1x3x6x4xf32>
  }
  func.func private @f1(%arg0: tensor<8x8x1x4xf32>, %arg1: tensor<1x4x3xf32>, %arg2: tensor<1x4xf32>, %arg3: tensor<1x3x8xf32>) -> (tensor<1x5xf32>, tensor<16x8x1x4xf32>) {
    %0 = tensor.empty() : tensor<8x8x1x4xf32>
    %cst = arith.constant 5.000000e-01 : f32
    %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<8x8x1x4xf32>) -> tensor<8x8x1x4xf32>
    %concat = tensor.concat dim(0) %arg0, %1 : (tensor<8x8x1x4xf32>, tensor<8x8x1x4xf32>) -> tensor<16x8x1x4xf32>
    %2 = tensor.empty() : tensor<4x5xf32>
    %3 = linalg.fill ins(%cst : f32) outs(%2 : tensor<4x5xf32>) -> tensor<4x5xf32>
    %4 = tensor.empty() : tensor<1x5xf32>
    %cst_0 = arith.constant 0.000000e+00 : f32
    %5 = linalg.fill ins(%cst_0 : f32) outs(%4 : tensor<1x5xf32>) -> tensor<1x5xf32>
    %6 = linalg.matmul ins(%arg2, %3 : tensor<1x4xf32>, tensor<4x5xf32>) outs(%5 : tensor<1x5xf32>) -> tensor<1x5xf32>
    %7 = math.powf %5, %6 : tensor<1x5xf32>
    %8 = tensor.empty() : tensor<1x4x8xf32>
    %cst_1 = arith.constant 0.000000e+00 : f32
    %9 = linalg.fill ins(%cst_1 : f32) outs(%8 : tensor<1x4x8xf32>) -> tensor<1x4x8xf32>
    %10 = linalg.batch_matmul ins(%arg1, %arg3 : tensor<1x4x3xf32>, tensor<1x3x8xf32>) outs(%9 : tensor<1x4x8xf32>) -> tensor<1x4x8xf32>
    %11 = tensor.empty() : tensor<1x3x6x2xf32>
    %12 = linalg.fill ins(%cst : f32) outs(%11 : tensor<1x3x6x2xf32>) -> tensor<1x3x6x2xf32>
    %cst_2 = arith.constant dense<0.000000e+00> : tensor<3x2x2x3xf32>
    %13 = tensor.empty() : tensor<1x1x5x3xf32>
    %cst_3 = arith.constant 0.000000e+00 : f32
    %14 = linalg.fill ins(%cst_3 : f32) outs(%13 : tensor<1x1x5x3xf32>) -> tensor<1x1x5x3xf32>
    %15 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%12, %cst_2 : tensor<1x3x6x2xf32>, tensor<3x2x2x3xf32>) outs(%14 : tensor<1x1x5x3xf32>) -> tensor<1x1x5x3xf32>
    %16 = arith.cmpf ule, %arg2, %arg2 : tensor<1x4xf32>
    %17 = arith.select %16, %arg2, %arg2 : tensor<1x4xi1>, tensor<1x4xf32>
    %18 = tensor.empty() : tensor<1x8xf32>
    %cst_4 = arith.constant -3.40282347E+38 : f32
    %19 = linalg.fill ins(%cst_4 : f32) outs(%18 : tensor<1x8xf32>) -> tensor<1x8xf32>
    %20 = linalg.generic {indexing_maps = [#map4, #map2], iterator_types = ["parallel", "parallel", "reduction"]} ins(%10 : tensor<1x4x8xf32>) outs(%19 : tensor<1x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %22 = arith.maximumf %out, %in : f32
      linalg.yield %22 : f32
    } -> tensor<1x8xf32>
    %21 = math.rsqrt %10 {amp.color = #amp.color<gray>} : tensor<1x4x8xf32>
    return %6, %concat : tensor<1x5xf32>, tensor<16x8x1x4xf32>
  }
}

{-#
  dialect_resources: {
    builtin: {
      blob0: "0x04000000004013C1000067C1000080BF000020C00000F8BF0000684100801341000040BF000080BF004028C100008240000080BFCDCCCC3DC2160100000080FF0000443F004010410000FCBF0000003E008019C1",
      blob1: "0x040000000080A7C06042A20D0000003E000020C00000DBC00000803F00C05741000040400000803F0000C07F0000803F8F284EB10000003F0000B8BE000080BF0000C07F00E07F47000040400000003F0000003E0000B5C0000040BF00C03A410000803F00004040000040400000003E000020C00000B6C0000000000080614100C01341000020C00000003E000053C000C079C100809A40C21601000000003E0000003E"
    }
  }
#-}
