func.func @f(%a: tensor<2xf32>, %b: tensor<2x2xf32>) {
  %0 = linalg.broadcast ins(%a : tensor<2xf32>) outs(%b : tensor<2x2xf32>) dimensions = [1
