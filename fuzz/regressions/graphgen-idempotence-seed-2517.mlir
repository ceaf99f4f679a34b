// Found by amp-graphgen (seed 2517): a second run of amp-mixed-precision changed
// the IR. The conversion now reaches a fixed point in one run (see
// convertToMixedPrecision in include/amp/Transforms/MixedPrecision.h).
#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map2 = affine_map<(d0, d1, d2, d3) -> (d3)>
module {
  func.func @f0(%arg0: tensor<8x?xf32>, %arg1: f32, %arg2: memref<4xf32>, %arg3: tensor<8x8xf32>, %arg4: tensor<3x5xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>) {
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %c1 = arith.constant 1 : index
    %0 = scf.for %arg5 = %c0 to %c2 step %c1 iter_args(%arg6 = %arg0) -> (tensor<8x?xf32>) {
      %9 = linalg.fill ins(%arg1 : f32) outs(%arg0 : tensor<8x?xf32>) -> tensor<8x?xf32>
      %c1_2 = arith.constant 1 : index
      %dim_3 = tensor.dim %arg0, %c1_2 : tensor<8x?xf32>
      %10 = tensor.empty(%dim_3) : tensor<?x8xf32>
      %transposed = linalg.transpose ins(%arg0 : tensor<8x?xf32>) outs(%10 : tensor<?x8xf32>) permutation = [1, 0] 
      %c1_4 = arith.constant 1 : index
      %dim_5 = tensor.dim %arg6, %c1_4 : tensor<8x?xf32>
      %11 = tensor.empty(%dim_5) : tensor<8x?xf32>
      %12 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg6 : tensor<8x?xf32>) outs(%11 : tensor<8x?xf32>) {
      ^bb0(%in: f32, %out: f32):
        %17 = arith.mulf %in, %in : f32
        linalg.yield %17 : f32
      } -> tensor<8x?xf32>
      %c1_6 = arith.constant 1 : index
      %13 = memref.load %arg2[%c1_6] {amp.precision = #amp.precision<accumulate = f16, output = f32>} : memref<4xf32>
      %c0_7 = arith.constant 0 : index
      %dim_8 = tensor.dim %transposed, %c0_7 : tensor<?x8xf32>
      %14 = tensor.empty(%dim_8) : tensor<?x8xf32>
      %cst_9 = arith.constant 0.000000e+00 : f32
      %15 = linalg.fill ins(%cst_9 : f32) outs(%14 : tensor<?x8xf32>) -> tensor<?x8xf32>
      %16 = linalg.matmul {amp.color = #amp.color<green>} ins(%transposed, %arg3 : tensor<?x8xf32>, tensor<8x8xf32>) outs(%15 : tensor<?x8xf32>) -> tensor<?x8xf32>
      scf.yield %arg0 : tensor<8x?xf32>
    }
    %inserted_slice = tensor.insert_slice %arg4 into %arg3[3, 0] [3, 5] [1, 1] : tensor<3x5xf32> into tensor<8x8xf32>
    %c1_0 = arith.constant 1 : index
    %dim = tensor.dim %0, %c1_0 : tensor<8x?xf32>
    %1 = tensor.empty(%dim) : tensor<8x?xf32>
    %2 = linalg.square ins(%0 : tensor<8x?xf32>) outs(%1 : tensor<8x?xf32>) -> tensor<8x?xf32>
    %3 = math.rsqrt %arg3 : tensor<8x8xf32>
    %padded = tensor.pad %arg3 low[0, 2] high[1, 0] {
    ^bb0(%arg5: index, %arg6: index):
      %cst_2 = arith.constant -2.500000e+00 : f32
      tensor.yield %cst_2 : f32
    } : tensor<8x8xf32> to tensor<9x10xf32>
    %4 = tensor.empty() : tensor<4x8xf32>
    %c0_1 = arith.constant 0 : index
    %c6 = arith.constant 6 : index
    %extracted = tensor.extract %inserted_slice[%c0_1, %c6] : tensor<8x8xf32>
    %5 = linalg.fill ins(%extracted : f32) outs(%4 : tensor<4x8xf32>) -> tensor<4x8xf32>
    %cast = tensor.cast %5 : tensor<4x8xf32> to tensor<?x8xf32>
    %6 = tensor.empty() : tensor<8x8xf32>
    %cst = arith.constant 0.000000e+00 : f32
    %7 = linalg.fill ins(%cst : f32) outs(%6 : tensor<8x8xf32>) -> tensor<8x8xf32>
    %8 = linalg.matmul ins(%2, %cast : tensor<8x?xf32>, tensor<?x8xf32>) outs(%7 : tensor<8x8xf32>) -> tensor<8x8xf32>
    %extracted_slice = tensor.extract_slice %arg3[3, 0] [5, 1] [1, 1] : tensor<8x8xf32> to tensor<5x1xf32>
    return {amp.color = #amp.color<red>} %3, %arg3 : tensor<8x8xf32>, tensor<8x8xf32>
  }
  func.func private @f1(%arg0: tensor<4x2x?x4xf32>, %arg1: tensor<4x2x?x4xf32>, %arg2: memref<4xf32>, %arg3: tensor<3x5xf32>, %arg4: tensor<8x?xf32>, %arg5: f32, %arg6: tensor<8x8xf32>, %arg7: tensor<4xf32>) -> (f32, tensor<8x8xf32>, tensor<8x?xf32>) {
    %0 = linalg.generic {indexing_maps = [#map1, #map1, #map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%arg0, %arg0, %arg0 : tensor<4x2x?x4xf32>, tensor<4x2x?x4xf32>, tensor<4x2x?x4xf32>) outs(%arg1 : tensor<4x2x?x4xf32>) {
    ^bb0(%in: f32, %in_5: f32, %in_6: f32, %out: f32):
      %cst_7 = arith.constant -7.500000e-01 : f32
      %20 = math.floor %out : f32
      %21 = math.sqrt %in_5 : f32
      %22 = arith.cmpf ogt, %cst_7, %cst_7 : f32
      %23 = arith.select %22, %cst_7, %cst_7 : f32
      linalg.yield %23 : f32
    } -> tensor<4x2x?x4xf32>
    %c3 = arith.constant 3 : index
    %1 = tensor.empty(%c3) : tensor<8x?xf32>
    %cst = arith.constant -2.500000e+00 : f32
    %2 = linalg.fill ins(%cst : f32) outs(%1 : tensor<8x?xf32>) -> tensor<8x?xf32>
    %cst_0 = arith.constant dense<5.000000e-01> : tensor<8x8xf32>
    %3:2 = call @f0(%2, %cst, %arg2, %cst_0, %arg3) : (tensor<8x?xf32>, f32, memref<4xf32>, tensor<8x8xf32>, tensor<3x5xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>)
    %4 = arith.cmpf olt, %cst, %cst : f32
    %5:2 = scf.if %4 -> (tensor<8x?xf32>, f32) {
      scf.yield {amp.color = #amp.color<gray>} %arg4, %cst : tensor<8x?xf32>, f32
    } else {
      %20 = arith.cmpf olt, %cst, %arg5 : f32
      %21:2 = scf.if %20 -> (f32, tensor<8x?xf32>) {
        %cst_7 = arith.constant -13.234375 : f32
        scf.yield %cst_7, %2 : f32, tensor<8x?xf32>
      } else {
        %25 = tensor.empty() : tensor<8x8xf32>
        %mapped = linalg.map { arith.mulf } ins(%3#1, %arg6 : tensor<8x8xf32>, tensor<8x8xf32>) outs(%25 : tensor<8x8xf32>)
        %extracted_slice = tensor.extract_slice %mapped[0, 7] [7, 1] [1, 1] : tensor<8x8xf32> to tensor<7x1xf32>
        %cst_7 = arith.constant dense<-7.500000e-01> : tensor<8x4xf32>
        %cast_8 = tensor.cast %cst_7 : tensor<8x4xf32> to tensor<8x?xf32>
        scf.yield %arg5, %cast_8 : f32, tensor<8x?xf32>
      }
      %c2 = arith.constant 2 : index
      %dim_5 = tensor.dim %0, %c2 : tensor<4x2x?x4xf32>
      %22 = tensor.empty(%dim_5) : tensor<4x2x?x4xf32>
      %23 = linalg.generic {indexing_maps = [#map1, #map2, #map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%0, %arg7, %arg0 : tensor<4x2x?x4xf32>, tensor<4xf32>, tensor<4x2x?x4xf32>) outs(%22 : tensor<4x2x?x4xf32>) {
      ^bb0(%in: f32, %in_7: f32, %in_8: f32, %out: f32):
        %25 = arith.subf %in, %in_7 : f32
        linalg.yield %25 : f32
      } -> tensor<4x2x?x4xf32>
      %24 = tosa.transpose %arg3 {perms = array<i32: 1, 0>} : (tensor<3x5xf32>) -> tensor<5x3xf32>
      %cst_6 = arith.constant 1.250000e-01 : f32
      scf.yield %arg4, %cst_6 : tensor<8x?xf32>, f32
    }
    %c1 = arith.constant 1 : index
    %dim = tensor.dim %5#0, %c1 : tensor<8x?xf32>
    %6 = tensor.empty(%dim) : tensor<8x?xf32>
    %7 = linalg.tanh ins(%5#0 : tensor<8x?xf32>) outs(%6 : tensor<8x?xf32>) -> tensor<8x?xf32>
    %8 = arith.truncf %5#1 {amp.precision = #amp.precision<accumulate = f32, output = bf16>} : f32 to bf16
    %9 = arith.extf %8 : bf16 to f32
    %cst_1 = arith.constant dense<-3.40282347E+38> : tensor<4x4x4xf32>
    %cast = tensor.cast %cst_1 : tensor<4x4x4xf32> to tensor<?x4x4xf32>
    %c0 = arith.constant 0 : index
    %dim_2 = tensor.dim %cast, %c0 : tensor<?x4x4xf32>
    %10 = tensor.empty(%dim_2) : tensor<?x4x4xf32>
    %cst_3 = arith.constant 0.000000e+00 : f32
    %11 = linalg.fill ins(%cst_3 : f32) outs(%10 : tensor<?x4x4xf32>) -> tensor<?x4x4xf32>
    %12 = linalg.batch_matmul {amp.precision = #amp.precision<accumulate = f32, output = f16>} ins(%cast, %cast : tensor<?x4x4xf32>, tensor<?x4x4xf32>) outs(%11 : tensor<?x4x4xf32>) -> tensor<?x4x4xf32>
    %collapsed = tensor.collapse_shape %cst_0 [[0, 1]] : tensor<8x8xf32> into tensor<64xf32>
    %13 = "tosa.const"() <{values = dense<1.000000e-01> : tensor<4x4x4xf32>}> : () -> tensor<4x4x4xf32>
    %14 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
    %15 = tosa.matmul %cst_1, %13, %14, %14 : (tensor<4x4x4xf32>, tensor<4x4x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x4x4xf32>
    %cst_4 = arith.constant dense_resource<blob0> : tensor<4x4x4xf32>
    %16 = math.fma %cst_1, %cst_1, %cst_4 : tensor<4x4x4xf32>
    %17 = tensor.empty() : tensor<64x1xf32>
    %broadcasted = linalg.broadcast ins(%collapsed : tensor<64xf32>) outs(%17 : tensor<64x1xf32>) dimensions = [1] 
    %18 = math.log1p %5#0 : tensor<8x?xf32>
    %19 = tosa.transpose %15 {perms = array<i32: 2, 1, 0>} : (tensor<4x4x4xf32>) -> tensor<4x4x4xf32>
    %expanded = tensor.expand_shape %3#1 [[0, 1], [2]] output_shape [1, 8, 8] : tensor<8x8xf32> into tensor<1x8x8xf32>
    return %9, %cst_0, %18 : f32, tensor<8x8xf32>, tensor<8x?xf32>
  }
}

{-#
  dialect_resources: {
    builtin: {
      blob0: "0x0400000000C03341000020C000006DC1000020C000C03BC10000000000809040000000000000F5C00000003F000000000000003F00806DC1C2160100008039C1004037C1000012C0C2160100000080BF00005CBF6042A20D000040BF0000683F000020C0000020C0000080BF004034C1000080FF0050C34700C050C10000003EC21601000000003F0040384100B888C7000080BF008022C10000003F00001CC1000020C000004040000040BF000040BF0000003E0040004100004D4100406EC1000040400000803F00000000000000000080D3C0000081C000C00AC10000003E00003840000053410000803F00000000000040BF00E07F4777CC2B32000009C10000FFC0"
    }
  }
#-}
