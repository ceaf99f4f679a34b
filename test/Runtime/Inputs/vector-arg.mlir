// An entry point with a non-tensor argument.
func.func @scalar(%a: tensor<8xf32>, %s: f32) -> tensor<8xf32> {
  return %a : tensor<8xf32>
}
