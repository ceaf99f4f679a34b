// RoPE on Q and K as a Llama-style model writes it: heads split by a
// reshape and a transpose, cos and sin gathered from tables by position,
// rotate-half as two slices, a negation and two insert_slices; plus a
// concatenation of two computed pieces returned as it is. Every output is
// elementwise in what the function reads, so the GPU program is one kernel.
#tr = affine_map<(d0, d1, d2, d3) -> (d0, d2, d1, d3)>
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#pos = affine_map<(d0, d1, d2, d3) -> (d0, d2)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>

func.func private @heads(%x: tensor<1x24x128xf32>) -> tensor<1x4x24x32xf32> {
  %e = tensor.expand_shape %x [[0], [1], [2, 3]] output_shape [1, 24, 4, 32]
      : tensor<1x24x128xf32> into tensor<1x24x4x32xf32>
  %init = tensor.empty() : tensor<1x4x24x32xf32>
  %t = linalg.generic {indexing_maps = [#tr, #id],
      iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%e : tensor<1x24x4x32xf32>) outs(%init : tensor<1x4x24x32xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<1x4x24x32xf32>
  return %t : tensor<1x4x24x32xf32>
}

func.func private @gather(%table: tensor<64x32xf32>, %pos: tensor<1x24xi64>)
    -> tensor<1x4x24x32xf32> {
  %init = tensor.empty() : tensor<1x4x24x32xf32>
  %g = linalg.generic {indexing_maps = [#pos, #id],
      iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%pos : tensor<1x24xi64>) outs(%init : tensor<1x4x24x32xf32>) {
  ^bb0(%p: i64, %out: f32):
    %i = arith.index_cast %p : i64 to index
    %j = linalg.index 3 : index
    %v = tensor.extract %table[%i, %j] : tensor<64x32xf32>
    linalg.yield %v : f32
  } -> tensor<1x4x24x32xf32>
  return %g : tensor<1x4x24x32xf32>
}

func.func private @rope(%x: tensor<1x4x24x32xf32>, %cos: tensor<1x4x24x32xf32>,
                        %sin: tensor<1x4x24x32xf32>) -> tensor<1x4x24x32xf32> {
  %lo = tensor.extract_slice %x[0, 0, 0, 0] [1, 4, 24, 16] [1, 1, 1, 1]
      : tensor<1x4x24x32xf32> to tensor<1x4x24x16xf32>
  %hi = tensor.extract_slice %x[0, 0, 0, 16] [1, 4, 24, 16] [1, 1, 1, 1]
      : tensor<1x4x24x32xf32> to tensor<1x4x24x16xf32>
  %ninit = tensor.empty() : tensor<1x4x24x16xf32>
  %neg = linalg.negf ins(%hi : tensor<1x4x24x16xf32>)
      outs(%ninit : tensor<1x4x24x16xf32>) -> tensor<1x4x24x16xf32>
  %r0 = tensor.empty() : tensor<1x4x24x32xf32>
  %r1 = tensor.insert_slice %neg into %r0[0, 0, 0, 0] [1, 4, 24, 16] [1, 1, 1, 1]
      : tensor<1x4x24x16xf32> into tensor<1x4x24x32xf32>
  %rot = tensor.insert_slice %lo into %r1[0, 0, 0, 16] [1, 4, 24, 16] [1, 1, 1, 1]
      : tensor<1x4x24x16xf32> into tensor<1x4x24x32xf32>
  %i0 = tensor.empty() : tensor<1x4x24x32xf32>
  %a = linalg.mul ins(%x, %cos : tensor<1x4x24x32xf32>, tensor<1x4x24x32xf32>)
      outs(%i0 : tensor<1x4x24x32xf32>) -> tensor<1x4x24x32xf32>
  %i1 = tensor.empty() : tensor<1x4x24x32xf32>
  %b = linalg.mul ins(%rot, %sin : tensor<1x4x24x32xf32>, tensor<1x4x24x32xf32>)
      outs(%i1 : tensor<1x4x24x32xf32>) -> tensor<1x4x24x32xf32>
  %i2 = tensor.empty() : tensor<1x4x24x32xf32>
  %y = linalg.add ins(%a, %b : tensor<1x4x24x32xf32>, tensor<1x4x24x32xf32>)
      outs(%i2 : tensor<1x4x24x32xf32>) -> tensor<1x4x24x32xf32>
  return %y : tensor<1x4x24x32xf32>
}

func.func @main(%q: tensor<1x24x128xf32>, %k: tensor<1x24x128xf32>,
                %cos_table: tensor<64x32xf32>, %sin_table: tensor<64x32xf32>,
                %pos: tensor<1x24xi64>)
    -> (tensor<1x4x24x32xf32>, tensor<1x4x24x32xf32>, tensor<1x24x160xf32>) {
  %qh = call @heads(%q) : (tensor<1x24x128xf32>) -> tensor<1x4x24x32xf32>
  %kh = call @heads(%k) : (tensor<1x24x128xf32>) -> tensor<1x4x24x32xf32>
  %cos = call @gather(%cos_table, %pos)
      : (tensor<64x32xf32>, tensor<1x24xi64>) -> tensor<1x4x24x32xf32>
  %sin = call @gather(%sin_table, %pos)
      : (tensor<64x32xf32>, tensor<1x24xi64>) -> tensor<1x4x24x32xf32>
  %qr = call @rope(%qh, %cos, %sin)
      : (tensor<1x4x24x32xf32>, tensor<1x4x24x32xf32>, tensor<1x4x24x32xf32>)
      -> tensor<1x4x24x32xf32>
  %kr = call @rope(%kh, %cos, %sin)
      : (tensor<1x4x24x32xf32>, tensor<1x4x24x32xf32>, tensor<1x4x24x32xf32>)
      -> tensor<1x4x24x32xf32>
  // [tanh(q) | k[:, :, :32]] along the last dimension.
  %tinit = tensor.empty() : tensor<1x24x128xf32>
  %tq = linalg.tanh ins(%q : tensor<1x24x128xf32>)
      outs(%tinit : tensor<1x24x128xf32>) -> tensor<1x24x128xf32>
  %ks = tensor.extract_slice %k[0, 0, 0] [1, 24, 32] [1, 1, 1]
      : tensor<1x24x128xf32> to tensor<1x24x32xf32>
  %cat = tensor.concat dim(2) %tq, %ks
      : (tensor<1x24x128xf32>, tensor<1x24x32xf32>) -> tensor<1x24x160xf32>
  return %qr, %kr, %cat
      : tensor<1x4x24x32xf32>, tensor<1x4x24x32xf32>, tensor<1x24x160xf32>
}
