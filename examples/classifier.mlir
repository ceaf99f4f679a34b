// A small FP32 classifier head, written for the amp demo: two dense layers
// with bias and ReLU, then a numerically careful softmax. It exercises every
// color: matmuls are green, bias/ReLU/max-reduction are gray, exp and the sum
// reduction are red.
//
//   amp-opt --amp-mixed-precision examples/classifier.mlir

#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>
#red = affine_map<(d0, d1) -> (d0)>

func.func @classifier(%x: tensor<8x256xf32>) -> tensor<8x10xf32> {
  %zero = arith.constant 0.0 : f32
  %lowest = arith.constant -3.40282347E+38 : f32
  %w1 = arith.constant dense<0.0125> : tensor<256x512xf32>
  %b1 = arith.constant dense<0.1> : tensor<512xf32>
  %w2 = arith.constant dense<-0.02> : tensor<512x10xf32>
  %b2 = arith.constant dense<0.05> : tensor<10xf32>

  // Dense 1 + bias + ReLU.
  %e1 = tensor.empty() : tensor<8x512xf32>
  %z1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<8x512xf32>) -> tensor<8x512xf32>
  %h1 = linalg.matmul ins(%x, %w1 : tensor<8x256xf32>, tensor<256x512xf32>)
                      outs(%z1 : tensor<8x512xf32>) -> tensor<8x512xf32>
  %a1 = linalg.generic {indexing_maps = [#id2, #row, #id2],
                        iterator_types = ["parallel", "parallel"]}
      ins(%h1, %b1 : tensor<8x512xf32>, tensor<512xf32>) outs(%e1 : tensor<8x512xf32>) {
  ^bb0(%v: f32, %b: f32, %o: f32):
    %s = arith.addf %v, %b : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  } -> tensor<8x512xf32>

  // Dense 2 + bias.
  %e2 = tensor.empty() : tensor<8x10xf32>
  %z2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<8x10xf32>) -> tensor<8x10xf32>
  %h2 = linalg.matmul ins(%a1, %w2 : tensor<8x512xf32>, tensor<512x10xf32>)
                      outs(%z2 : tensor<8x10xf32>) -> tensor<8x10xf32>
  %logits = linalg.generic {indexing_maps = [#id2, #row, #id2],
                            iterator_types = ["parallel", "parallel"]}
      ins(%h2, %b2 : tensor<8x10xf32>, tensor<10xf32>) outs(%e2 : tensor<8x10xf32>) {
  ^bb0(%v: f32, %b: f32, %o: f32):
    %s = arith.addf %v, %b : f32
    linalg.yield %s : f32
  } -> tensor<8x10xf32>

  // Softmax: max, subtract, exp, sum, divide.
  %e8 = tensor.empty() : tensor<8xf32>
  %init_max = linalg.fill ins(%lowest : f32) outs(%e8 : tensor<8xf32>) -> tensor<8xf32>
  %max = linalg.generic {indexing_maps = [#id2, #red],
                         iterator_types = ["parallel", "reduction"]}
      ins(%logits : tensor<8x10xf32>) outs(%init_max : tensor<8xf32>) {
  ^bb0(%v: f32, %m: f32):
    %r = arith.maximumf %v, %m : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %exp = linalg.generic {indexing_maps = [#id2, #red, #id2],
                         iterator_types = ["parallel", "parallel"]}
      ins(%logits, %max : tensor<8x10xf32>, tensor<8xf32>) outs(%e2 : tensor<8x10xf32>) {
  ^bb0(%v: f32, %m: f32, %o: f32):
    %d = arith.subf %v, %m : f32
    %r = math.exp %d : f32
    linalg.yield %r : f32
  } -> tensor<8x10xf32>
  %init_sum = linalg.fill ins(%zero : f32) outs(%e8 : tensor<8xf32>) -> tensor<8xf32>
  %sum = linalg.generic {indexing_maps = [#id2, #red],
                         iterator_types = ["parallel", "reduction"]}
      ins(%exp : tensor<8x10xf32>) outs(%init_sum : tensor<8xf32>) {
  ^bb0(%v: f32, %s: f32):
    %r = arith.addf %v, %s : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %probs = linalg.generic {indexing_maps = [#id2, #red, #id2],
                           iterator_types = ["parallel", "parallel"]}
      ins(%exp, %sum : tensor<8x10xf32>, tensor<8xf32>) outs(%e2 : tensor<8x10xf32>) {
  ^bb0(%v: f32, %s: f32, %o: f32):
    %r = arith.divf %v, %s : f32
    linalg.yield %r : f32
  } -> tensor<8x10xf32>
  return %probs : tensor<8x10xf32>
}
