// A model carrying amp's annotations (a policy on the module, a color on an
// op), as amp-graphgen writes them and users may.
module attributes {amp.policy = #amp.default_policy<accumulate = f16, output = f16>} {
  func.func @forward(%a: tensor<16x32xf32>, %b: tensor<32x8xf32>) -> tensor<16x8xf32> {
    %z = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<16x8xf32>
    %f = linalg.fill ins(%z : f32) outs(%e : tensor<16x8xf32>) -> tensor<16x8xf32>
    %m = linalg.matmul {amp.color = #amp.color<red>} ins(%a, %b : tensor<16x32xf32>, tensor<32x8xf32>) outs(%f : tensor<16x8xf32>) -> tensor<16x8xf32>
    return %m : tensor<16x8xf32>
  }
}
