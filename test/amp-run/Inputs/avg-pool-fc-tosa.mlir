// The global average pool of avg-pool-fc.mlir in TOSA: two reduce_sum over
// the 7x7 window, a multiplication by 1/49, a fully connected layer.
func.func @avg_pool_fc(%x: tensor<1x7x7x64xf32>) -> tensor<1x1x10xf32> {
  %s1 = tosa.reduce_sum %x {axis = 1 : i32} : (tensor<1x7x7x64xf32>) -> tensor<1x1x7x64xf32>
  %s2 = tosa.reduce_sum %s1 {axis = 2 : i32} : (tensor<1x1x7x64xf32>) -> tensor<1x1x1x64xf32>
  %inv = "tosa.const"() <{values = dense<0.0204081628> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %mean = tosa.mul %s2, %inv, %shift : (tensor<1x1x1x64xf32>, tensor<1x1x1x1xf32>, tensor<1xi8>) -> tensor<1x1x1x64xf32>
  %shape = tosa.const_shape {values = dense<[1, 1, 64]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %flat = tosa.reshape %mean, %shape : (tensor<1x1x1x64xf32>, !tosa.shape<3>) -> tensor<1x1x64xf32>
  %w = "tosa.const"() <{values = dense<0.01> : tensor<1x64x10xf32>}> : () -> tensor<1x64x10xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %fc = tosa.matmul %flat, %w, %zp, %zp : (tensor<1x1x64xf32>, tensor<1x64x10xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x1x10xf32>
  return %fc : tensor<1x1x10xf32>
}
