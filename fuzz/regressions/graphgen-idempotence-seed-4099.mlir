// Found by amp-graphgen (seed 4099): a second run of amp-mixed-precision changed
// the IR. The conversion now reaches a fixed point in one run (see
// convertToMixedPrecision in include/amp/Transforms/MixedPrecision.h).
#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#map3 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @f0(%arg0: f32) -> f32 {
    %cst = arith.constant {amp.precision = #amp.precision<accumulate = f16, output = f16>} dense<-1.000000e+00> : tensor<5x8x2xf32>
    %0 = tosa.clamp %cst {amp.color = #amp.color<green>, max_val = -7.000000e+04 : f32, min_val = -1.000000e+05 : f32} : (tensor<5x8x2xf32>) -> tensor<5x8x2xf32>
    %1 = tosa.const_shape  {values = dense<0> : tensor<3xindex>} : () -> !tosa.shape<3>
    %2 = tosa.const_shape  {amp.color = #amp.color<gray>, values = dense<[1, 8, 2]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %3 = tosa.slice %cst, %1, %2 : (tensor<5x8x2xf32>, !tosa.shape<3>, !tosa.shape<3>) -> tensor<1x8x2xf32>
    %4 = tensor.empty() : tensor<5x8x2xf32>
    %5 = linalg.softmax dimension(2) ins(%cst : tensor<5x8x2xf32>) outs(%4 : tensor<5x8x2xf32>) -> tensor<5x8x2xf32>
    %6 = arith.extf %5 : tensor<5x8x2xf32> to tensor<5x8x2xf64>
    %7 = arith.addf %6, %6 : tensor<5x8x2xf64>
    %8 = arith.truncf %7 : tensor<5x8x2xf64> to tensor<5x8x2xf32>
    %9 = tensor.empty() : tensor<1x4x5x2xf32>
    %cst_0 = arith.constant -3.000000e-09 : f32
    %10 = linalg.fill ins(%cst_0 : f32) outs(%9 : tensor<1x4x5x2xf32>) -> tensor<1x4x5x2xf32>
    %11 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
    %12 = "tosa.const"() <{values = dense<[[[[7.500000e-01, 0x7FC00000], [7.109375, 0.000000e+00]]]]> : tensor<1x1x2x2xf32>}> : () -> tensor<1x1x2x2xf32>
    %13 = tensor.empty() : tensor<1xf32>
    %14 = linalg.fill ins(%cst_0 : f32) outs(%13 : tensor<1xf32>) -> tensor<1xf32>
    %15 = tosa.conv2d %10, %12, %14, %11, %11 {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x4x5x2xf32>, tensor<1x1x2x2xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4x1xf32>
    %16 = tensor.empty() : tensor<1x4x4x1xf32>
    %transposed = linalg.transpose ins(%15 : tensor<1x4x4x1xf32>) outs(%16 : tensor<1x4x4x1xf32>) permutation = [0, 1, 2, 3] 
    %17 = tensor.empty() : tensor<4x1x1x4xf32>
    %transposed_1 = linalg.transpose ins(%transposed : tensor<1x4x4x1xf32>) outs(%17 : tensor<4x1x1x4xf32>) permutation = [2, 3, 0, 1] 
    %cast = tensor.cast %12 : tensor<1x1x2x2xf32> to tensor<1x1x2x?xf32>
    %c2 = arith.constant 2 : index
    %c2_2 = arith.constant 2 : index
    %c0 = arith.constant 0 : index
    %extracted = tensor.extract %5[%c2, %c2_2, %c0] : tensor<5x8x2xf32>
    %padded = tensor.pad %10 low[0, 1, 0, 2] high[2, 0, 0, 0] {
    ^bb0(%arg1: index, %arg2: index, %arg3: index, %arg4: index):
      tensor.yield %extracted : f32
    } : tensor<1x4x5x2xf32> to tensor<3x5x5x4xf32>
    %cst_3 = arith.constant dense<6.531250e+00> : tensor<1x2x8xf32>
    %18 = tensor.empty() : tensor<1x8x8xf32>
    %cst_4 = arith.constant {amp.precision = #amp.precision<accumulate = bf16, output = bf16>} 0.000000e+00 : f32
    %19 = linalg.fill ins(%cst_4 : f32) outs(%18 : tensor<1x8x8xf32>) -> tensor<1x8x8xf32>
    %20 = linalg.batch_matmul ins(%3, %cst_3 : tensor<1x8x2xf32>, tensor<1x2x8xf32>) outs(%19 : tensor<1x8x8xf32>) -> tensor<1x8x8xf32>
    %21 = tensor.empty() : tensor<3x5x5x4xf32>
    %22 = linalg.mul ins(%padded, %padded : tensor<3x5x5x4xf32>, tensor<3x5x5x4xf32>) outs(%21 : tensor<3x5x5x4xf32>) -> tensor<3x5x5x4xf32>
    %23 = tensor.empty() : tensor<8x2xf32>
    %cst_5 = arith.constant 0.000000e+00 : f32
    %24 = linalg.fill ins(%cst_5 : f32) outs(%23 : tensor<8x2xf32>) -> tensor<8x2xf32>
    %reduced = linalg.reduce { arith.addf } ins(%0 : tensor<5x8x2xf32>) outs(%24 : tensor<8x2xf32>) dimensions = [0] 
    %25 = tensor.empty() : tensor<2x4xf32>
    %26 = linalg.fill ins(%cst_4 : f32) outs(%25 : tensor<2x4xf32>) -> tensor<2x4xf32>
    %27 = tensor.empty() : tensor<8x4xf32>
    %cst_6 = arith.constant 0.000000e+00 : f32
    %28 = linalg.fill ins(%cst_6 : f32) outs(%27 : tensor<8x4xf32>) -> tensor<8x4xf32>
    %29 = linalg.matmul ins(%reduced, %26 : tensor<8x2xf32>, tensor<2x4xf32>) outs(%28 : tensor<8x4xf32>) -> tensor<8x4xf32>
    %30 = tensor.empty() : tensor<2x2xf32>
    %31 = linalg.fill ins(%arg0 : f32) outs(%30 : tensor<2x2xf32>) -> tensor<2x2xf32>
    %32 = tensor.empty() : tensor<8x2xf32>
    %cst_7 = arith.constant 0.000000e+00 : f32
    %33 = linalg.fill ins(%cst_7 : f32) outs(%32 : tensor<8x2xf32>) -> tensor<8x2xf32>
    %34 = linalg.generic {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"]} ins(%24, %31 : tensor<8x2xf32>, tensor<2x2xf32>) outs(%33 : tensor<8x2xf32>) {
    ^bb0(%in: f32, %in_11: f32, %out: f32):
      %40 = arith.mulf %in, %in_11 : f32
      %41 = arith.addf %out, %40 : f32
      linalg.yield %41 : f32
    } -> tensor<8x2xf32>
    %35 = tensor.empty() : tensor<5x8x2xf32>
    %mapped = linalg.map { arith.maximumf } ins(%8, %0 : tensor<5x8x2xf32>, tensor<5x8x2xf32>) outs(%35 : tensor<5x8x2xf32>)
    %cst_8 = arith.constant dense<1.250000e-01> : tensor<8x2xf32>
    %cst_9 = arith.constant dense<11.84375> : tensor<8x2xf32>
    %36 = linalg.generic {indexing_maps = [#map3, #map3, #map3], iterator_types = ["parallel", "parallel"]} ins(%34, %cst_8 : tensor<8x2xf32>, tensor<8x2xf32>) outs(%cst_9 : tensor<8x2xf32>) {
    ^bb0(%in: f32, %in_11: f32, %out: f32):
      %40 = arith.mulf %in_11, %in : f32
      %41 = math.absf %40 : f32
      %42 = arith.divf %in_11, %in_11 : f32
      linalg.yield %42 : f32
    } -> tensor<8x2xf32>
    %37 = arith.truncf %extracted : f32 to f16
    %38 = arith.extf %37 : f16 to f32
    %39 = tensor.empty() : tensor<2x5x8xf32>
    %transposed_10 = linalg.transpose ins(%0 : tensor<5x8x2xf32>) outs(%39 : tensor<2x5x8xf32>) permutation = [2, 0, 1] 
    return %cst_4 : f32
  }
  func.func @f1(%arg0: f32, %arg1: tensor<4x5x3xf32>, %arg2: f32, %arg3: tensor<4x4xf32>) -> tensor<8x5x3xf32> {
    %expanded = tensor.expand_shape %arg1 [[0, 1], [2], [3]] output_shape [1, 4, 5, 3] : tensor<4x5x3xf32> into tensor<1x4x5x3xf32>
    %cst = arith.constant dense<[[[1.000000e+05, -15.390625, 3.984375], [-7.500000e-01, -7.500000e-01, -1.000000e+00], [-3.843750e+00, 5.859375, 8.375000e+00], [-3.218750e+00, 1.000000e-30, -4.375000e+00], [0.000000e+00, 1.000000e-01, 1.000000e-01]], [[0.000000e+00, 11.65625, -9.656250e+00], [1.000000e-01, 9.99999993E-9, 9.999940e-41], [-9.890625, -1.000000e+00, -10.578125], [-7.968750e+00, -3.812500e+00, -5.531250e+00], [-3.000000e-09, 4.875000e+00, 1.000000e+00]], [[-1.000000e+00, 5.000000e-01, 5.000000e-01], [-1.000000e+00, 9.99999993E-9, -15.078125], [0x7FC00000, 1.000000e+00, 0.000000e+00], [6.552000e+04, -1.000000e+00, 9.99999968E+37], [3.734375, 1.093750e+01, -2.500000e+00]], [[-2.500000e+00, 6.550400e+04, -7.031250e-01], [-7.812500e-02, -14.296875, -12.359375], [-14.65625, 1.250000e-01, 1.250000e-01], [1.000000e+00, 1.000000e-01, 1.000000e-30], [12.578125, -7.500000e-01, 4.687500e-02]]]> : tensor<4x5x3xf32>
    %0 = tosa.add %arg1, %cst : (tensor<4x5x3xf32>, tensor<4x5x3xf32>) -> tensor<4x5x3xf32>
    %1 = call @f0(%arg2) : (f32) -> f32
    %cst_0 = arith.constant dense<3.000000e+00> : tensor<4x5xf32>
    %2 = tensor.empty() : tensor<5x4xf32>
    %3 = linalg.fill ins(%1 : f32) outs(%2 : tensor<5x4xf32>) -> tensor<5x4xf32>
    %4 = tensor.empty() : tensor<4x4xf32>
    %cst_1 = arith.constant 0.000000e+00 : f32
    %5 = linalg.fill ins(%cst_1 : f32) outs(%4 : tensor<4x4xf32>) -> tensor<4x4xf32>
    %6 = linalg.matmul ins(%cst_0, %3 : tensor<4x5xf32>, tensor<5x4xf32>) outs(%5 : tensor<4x4xf32>) -> tensor<4x4xf32>
    %7 = tensor.empty() {amp.color = #amp.color<red>} : tensor<4x4xf32>
    %mapped = linalg.map { math.absf {amp.color = #amp.color<gray>} } ins(%6 : tensor<4x4xf32>) outs(%7 : tensor<4x4xf32>)
    %8 = tosa.concat %arg1, %arg1 {axis = 0 : i32} : (tensor<4x5x3xf32>, tensor<4x5x3xf32>) -> tensor<8x5x3xf32>
    %9 = tosa.concat %mapped, %arg3 {axis = 0 : i32} : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<8x4xf32>
    %10 = tensor.empty() : tensor<4x5x3xf32>
    %mapped_2 = linalg.map { arith.negf } ins(%cst : tensor<4x5x3xf32>) outs(%10 : tensor<4x5x3xf32>)
    %11 = arith.mulf %8, %8 : tensor<8x5x3xf32>
    %12 = tensor.empty() : tensor<8x3x1xf32>
    %13 = linalg.fill ins(%1 : f32) outs(%12 : tensor<8x3x1xf32>) -> tensor<8x3x1xf32>
    %14 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
    %15 = tosa.matmul %8, %13, %14, %14 : (tensor<8x5x3xf32>, tensor<8x3x1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<8x5x1xf32>
    return %11 : tensor<8x5x3xf32>
  }
}
