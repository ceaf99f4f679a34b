// A matmul of f16 inputs with f32 accumulation and an f16 result, already
// in mixed precision (compiled with --precision fp32: no conversion): A and
// B are f16 buffers the mma.sync kernel stages with cp.async, and the
// rounding of the result is its epilogue.
func.func @main(%a: tensor<256x128xf16>, %b: tensor<128x256xf16>) -> tensor<256x256xf16> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<256x256xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<256x256xf32>) -> tensor<256x256xf32>
  %r = linalg.matmul ins(%a, %b : tensor<256x128xf16>, tensor<128x256xf16>) outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
  %h = arith.truncf %r : tensor<256x256xf32> to tensor<256x256xf16>
  return %h : tensor<256x256xf16>
}
