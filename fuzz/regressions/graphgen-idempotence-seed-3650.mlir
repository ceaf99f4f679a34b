// Found by amp-graphgen (seed 3650): a second run of amp-mixed-precision changed
// the IR. The conversion now reaches a fixed point in one run (see
// convertToMixedPrecision in include/amp/Transforms/MixedPrecision.h).
module {
  func.func @f0(%arg0: f32, %arg1: tensor<3x2x2x3xf32>, %arg2: tensor<1x8x8x4xf32>, %arg3: tensor<4xf32>, %arg4: tensor<2x1x3x4xf32>) -> (tensor<4xf32>, tensor<1x8x4xf32>) {
    %0 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
    %cst = arith.constant dense_resource<blob0> : tensor<2x3x4x1xf32>
    %1 = tosa.depthwise_conv2d %arg2, %cst, %arg3, %0, %0 {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x8x8x4xf32>, tensor<2x3x4x1xf32>, tensor<4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x7x6x4xf32>
    %expanded = tensor.expand_shape %arg3 [[0, 1]] output_shape [1, 4] : tensor<4xf32> into tensor<1x4xf32>
    %cst_0 = arith.constant dense<[[[0x7F800000, 1.000000e-30, -9.875000e+00, -8.109375], [-12.265625, -1.000000e+00, 1.250000e-01, -12.515625], [-7.500000e-01, 1.000000e-01, 13.265625, -7.000000e+04], [6.552000e+04, -7.500000e-01, 5.234375, 1.250000e-01], [-2.500000e+00, 0.000000e+00, 10.921875, -11.96875], [-9.359375, 1.000000e-01, 1.000000e+00, -8.296875], [3.750000e+00, -6.390625, -3.546875, 11.671875], [-3.40282347E+38, 10.53125, -1.890625, -1.000000e+00]]]> : tensor<1x8x4xf32>
    %cst_1 = arith.constant dense<[[[5.000000e-01, 0x7FC00000, -3.40282347E+38, 8.671875, -7.500000e-01], [-3.281250e-01, 5.000000e-01, -2.906250e+00, 1.000000e+00, -0.000000e+00], [-2.500000e+00, 5.000000e-01, -1.000000e+00, -3.984375, -5.781250e+00], [3.000000e+00, 5.000000e-01, -11.96875, 1.000000e-01, -11.703125]]]> : tensor<1x4x5xf32>
    %2 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
    %3 = tosa.matmul %cst_0, %cst_1, %2, %2 {amp.color = #amp.color<green>} : (tensor<1x8x4xf32>, tensor<1x4x5xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x8x5xf32>
    %4 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
    %5 = tensor.empty() {amp.precision = #amp.precision<accumulate = f16, output = f32>} : tensor<2xf32>
    %6 = linalg.fill ins(%arg0 : f32) outs(%5 : tensor<2xf32>) -> tensor<2xf32>
    %7 = tosa.conv2d %arg2, %arg4, %6, %4, %4 {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x8x8x4xf32>, tensor<2x1x3x4xf32>, tensor<2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x8x6x2xf32>
    %c0 = arith.constant 0 : index
    %c3 = arith.constant 3 : index
    %c1 = arith.constant 1 : index
    %8 = scf.for %arg5 = %c0 to %c3 step %c1 iter_args(%arg6 = %cst_0) -> (tensor<1x8x4xf32>) {
      %9 = tensor.empty() {amp.color = #amp.color<red>} : tensor<1x8x4xf32>
      %10 = linalg.log ins(%cst_0 : tensor<1x8x4xf32>) outs(%9 : tensor<1x8x4xf32>) -> tensor<1x8x4xf32>
      scf.yield {amp.color = #amp.color<gray>} %10 : tensor<1x8x4xf32>
    }
    return %arg3, %8 : tensor<4xf32>, tensor<1x8x4xf32>
  }
  func.func @f1(%arg0: f32, %arg1: f32, %arg2: tensor<3xf32>, %arg3: tensor<1x4xf32>, %arg4: tensor<1x4x2xf32>) -> (tensor<1x8x8x4xf32>, tensor<4x1xf32>) {
    %cst = arith.constant dense<1.000000e+00> : tensor<3x2x2x3xf32>
    %0 = tensor.empty() : tensor<1x8x8x4xf32>
    %1 = linalg.fill {amp.precision = #amp.precision<accumulate = f32, output = bf16>} ins(%arg0 : f32) outs(%0 : tensor<1x8x8x4xf32>) -> tensor<1x8x8x4xf32>
    %2 = tensor.empty() : tensor<4xf32>
    %3 = linalg.fill ins(%arg0 : f32) outs(%2 : tensor<4xf32>) -> tensor<4xf32>
    %cst_0 = arith.constant dense<[[[[8.421875, 1.000000e+00, -4.828125, -2.500000e+00], [-1.625000e+00, -15.609375, -2.500000e+00, -12.703125], [1.000000e-01, -7.500000e-01, 5.500000e+00, -0.000000e+00]]], [[[-1.000000e+00, -1.200000e+01, 3.000000e+00, 10.15625], [5.546875, 1.000000e-01, -3.40282347E+38, 11.90625], [1.000000e+00, -7.500000e-01, -1.656250e+00, -10.234375]]]]> : tensor<2x1x3x4xf32>
    %4:2 = call @f0(%arg1, %cst, %1, %3, %cst_0) : (f32, tensor<3x2x2x3xf32>, tensor<1x8x8x4xf32>, tensor<4xf32>, tensor<2x1x3x4xf32>) -> (tensor<4xf32>, tensor<1x8x4xf32>)
    %5 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
    %cst_1 = arith.constant dense<1.000000e+05> : tensor<3x3x3x4xf32>
    %6 = tosa.conv2d %1, %cst_1, %arg2, %5, %5 {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x8x8x4xf32>, tensor<3x3x3x4xf32>, tensor<3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x6x6x3xf32>
    %7 = tensor.empty() : tensor<4x4xf32>
    %cst_2 = arith.constant 3.40282347E+38 : f32
    %8 = linalg.fill ins(%cst_2 : f32) outs(%7 : tensor<4x4xf32>) -> tensor<4x4xf32>
    %cst_3 = arith.constant dense<1.250000e-01> : tensor<4x1xf32>
    %9 = tensor.empty() : tensor<4x1xf32>
    %cst_4 = arith.constant 0.000000e+00 : f32
    %10 = linalg.fill ins(%cst_4 : f32) outs(%9 : tensor<4x1xf32>) -> tensor<4x1xf32>
    %11 = linalg.matmul ins(%8, %cst_3 : tensor<4x4xf32>, tensor<4x1xf32>) outs(%10 : tensor<4x1xf32>) -> tensor<4x1xf32>
    %cst_5 = arith.constant {amp.color = #amp.color<gray>} dense_resource<blob1> : tensor<1x4x1xf32>
    %12 = tensor.empty() : tensor<1x8x1xf32>
    %cst_6 = arith.constant 0.000000e+00 : f32
    %13 = linalg.fill ins(%cst_6 : f32) outs(%12 : tensor<1x8x1xf32>) -> tensor<1x8x1xf32>
    %14 = linalg.batch_matmul ins(%4#1, %cst_5 : tensor<1x8x4xf32>, tensor<1x4x1xf32>) outs(%13 : tensor<1x8x1xf32>) -> tensor<1x8x1xf32>
    %c0 = arith.constant 0 : index
    %c3 = arith.constant 3 : index
    %c1 = arith.constant 1 : index
    %15 = scf.for %arg5 = %c0 to %c3 step %c1 iter_args(%arg6 = %11) -> (tensor<4x1xf32>) {
      %31 = math.fma %cst, %cst, %cst : tensor<3x2x2x3xf32>
      %32 = tensor.empty() : tensor<4x4xf32>
      %cst_9 = arith.constant 0.000000e+00 : f32
      %33 = linalg.fill ins(%cst_9 : f32) outs(%32 : tensor<4x4xf32>) -> tensor<4x4xf32>
      %34 = linalg.matmul ins(%10, %arg3 : tensor<4x1xf32>, tensor<1x4xf32>) outs(%33 : tensor<4x4xf32>) -> tensor<4x4xf32>
      %35 = tensor.empty() : tensor<1x8x2xf32>
      %cst_10 = arith.constant 0.000000e+00 : f32
      %36 = linalg.fill ins(%cst_10 : f32) outs(%35 : tensor<1x8x2xf32>) -> tensor<1x8x2xf32>
      %37 = linalg.batch_matmul ins(%4#1, %arg4 : tensor<1x8x4xf32>, tensor<1x4x2xf32>) outs(%36 : tensor<1x8x2xf32>) -> tensor<1x8x2xf32>
      %38 = tensor.empty() : tensor<4x4xf32>
      %39 = linalg.softmax dimension(0) ins(%33 : tensor<4x4xf32>) outs(%38 : tensor<4x4xf32>) -> tensor<4x4xf32>
      scf.yield %arg6 : tensor<4x1xf32>
    }
    %16 = tensor.empty() : tensor<2x1x3x4xf32>
    %17 = linalg.copy ins(%cst_0 : tensor<2x1x3x4xf32>) outs(%16 : tensor<2x1x3x4xf32>) -> tensor<2x1x3x4xf32>
    %18 = arith.cmpf ogt, %cst_6, %arg1 : f32
    cf.cond_br %18, ^bb1, ^bb2 {amp.color = #amp.color<gray>}
  ^bb1:  // pred: ^bb0
    %19 = tensor.empty() : tensor<1xf32>
    %20 = linalg.fill ins(%arg0 : f32) outs(%19 : tensor<1xf32>) -> tensor<1xf32>
    %21 = tensor.empty() : tensor<4xf32>
    %cst_7 = arith.constant 0.000000e+00 : f32
    %22 = linalg.fill ins(%cst_7 : f32) outs(%21 : tensor<4xf32>) -> tensor<4xf32>
    %23 = linalg.matvec ins(%15, %20 : tensor<4x1xf32>, tensor<1xf32>) outs(%22 : tensor<4xf32>) -> tensor<4xf32>
    %24 = tensor.empty() : tensor<4x1xf32>
    %25 = linalg.min ins(%10, %cst_3 : tensor<4x1xf32>, tensor<4x1xf32>) outs(%24 : tensor<4x1xf32>) -> tensor<4x1xf32>
    %padded = tensor.pad %1 low[1, 0, 1, 1] high[1, 0, 0, 0] {
    ^bb0(%arg5: index, %arg6: index, %arg7: index, %arg8: index):
      %cst_9 = arith.constant -7.656250e+00 : f32
      tensor.yield %cst_9 : f32
    } : tensor<1x8x8x4xf32> to tensor<3x8x9x5xf32>
    %26 = tensor.empty() : tensor<2xf32>
    %27 = linalg.fill ins(%arg0 : f32) outs(%26 : tensor<2xf32>) -> tensor<2xf32>
    cf.br ^bb3(%27 : tensor<2xf32>)
  ^bb2:  // pred: ^bb0
    %extracted_slice = tensor.extract_slice %15[2, 0] [2, 1] [1, 1] : tensor<4x1xf32> to tensor<2x1xf32>
    %28 = arith.maxnumf %11, %cst_3 {amp.color = #amp.color<gray>} : tensor<4x1xf32>
    %cst_8 = arith.constant {amp.color = #amp.color<gray>} dense<-3.140625> : tensor<2xf32>
    cf.br ^bb3(%cst_8 : tensor<2xf32>)
  ^bb3(%29: tensor<2xf32>):  // 2 preds: ^bb1, ^bb2
    %30 = math.sin %1 {amp.color = #amp.color<gray>} : tensor<1x8x8x4xf32>
    return %1, %15 : tensor<1x8x8x4xf32>, tensor<4x1xf32>
  }
}

{-#
  dialect_resources: {
    builtin: {
      blob0: "0x040000000000FE400000803F00000000000020C0FFFF7F7F000090C00000003E000040BF0000000000004040000020C00000003F00F07F4700804041000020C0000020C00050C34700F07F47008076C10000803F004023C10000C07F0000E4BF0000003F",
      blob1: "0x040000000000003F000040BF0000ECBF00C03641"
    }
  }
#-}
