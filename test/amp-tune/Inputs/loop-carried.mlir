// A matmul accumulated three times by an scf.for that carries the
// accumulator: the loop has results, so it is no kernel of its own, and the
// loops inside it stay in the entry too.
func.func @repeat(%x: tensor<4x16xf32>, %w: tensor<16x16xf32>) -> tensor<4x16xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x16xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<4x16xf32>) -> tensor<4x16xf32>
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %init) -> tensor<4x16xf32> {
    %m = linalg.matmul ins(%x, %w : tensor<4x16xf32>, tensor<16x16xf32>)
                       outs(%acc : tensor<4x16xf32>) -> tensor<4x16xf32>
    scf.yield %m : tensor<4x16xf32>
  }
  return %r : tensor<4x16xf32>
}
