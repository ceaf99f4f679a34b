// A matmul kept in FP32 by its annotation: check_conversion.py must flag it.
func.func @f(%a: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %m = linalg.matmul {amp.color = #amp.color<red>} ins(%a, %a : tensor<8x8xf32>, tensor<8x8xf32>) outs(%a : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %m : tensor<8x8xf32>
}
