func.func @f(%a: tensor<2x2xf32>, %b: tensor<2x2xf32>) {
  %0 = linalg.transpose ins(%a : tensor<2x2xf32>) outs(%b : tensor<2x2xf32>) permutation = [1
