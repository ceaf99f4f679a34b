// pow with a constant base of powers of two: an optimizer that sees the
// base (the loop inlined next to the constant) may compute exp2(n * y)
// instead, which rounds differently from powf.
func.func @pow_base(%y: tensor<8xf32>) -> tensor<8xf32> {
  %base = arith.constant dense<[0.125, 4.0, 2.0, 0.5, 8.0, 0.25, 16.0, 2.0]> : tensor<8xf32>
  %e = tensor.empty() : tensor<8xf32>
  %r = linalg.powf ins(%base, %y : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  return %r : tensor<8xf32>
}
