// Row reductions, each one kernel: a softmax over rows of 1000 (256
// threads a row, shuffles and shared memory), a layer norm over 768 with
// scale and shift, an RMS norm over 96, a global average pool (a pooling
// sum and a division), and a softmax over rows of 7 (one thread a row).
#r2 = affine_map<(i, j) -> (i, j)>
#red2 = affine_map<(i, j) -> (i)>
#col = affine_map<(i, j) -> (j)>
func.func @main(%s: tensor<24x1000xf32>, %x: tensor<16x768xf32>, %g: tensor<768xf32>,
                %b: tensor<768xf32>, %y: tensor<40x96xf32>, %img: tensor<2x48x7x7xf32>,
                %t: tensor<33x7xf32>)
    -> (tensor<24x1000xf32>, tensor<16x768xf32>, tensor<40x96xf32>, tensor<2x48x1x1xf32>, tensor<33x7xf32>) {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %n768 = arith.constant 768.0 : f32
  %n96 = arith.constant 96.0 : f32
  %n49 = arith.constant 49.0 : f32
  %eps = arith.constant 1.0e-5 : f32
  // softmax(s)
  %e24 = tensor.empty() : tensor<24xf32>
  %m0 = linalg.fill ins(%ninf : f32) outs(%e24 : tensor<24xf32>) -> tensor<24xf32>
  %max = linalg.generic {indexing_maps = [#r2, #red2], iterator_types = ["parallel", "reduction"]}
      ins(%s : tensor<24x1000xf32>) outs(%m0 : tensor<24xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %v = arith.maximumf %in, %acc : f32
    linalg.yield %v : f32
  } -> tensor<24xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e24 : tensor<24xf32>) -> tensor<24xf32>
  %sum = linalg.generic {indexing_maps = [#r2, #red2, #red2], iterator_types = ["parallel", "reduction"]}
      ins(%s, %max : tensor<24x1000xf32>, tensor<24xf32>) outs(%z0 : tensor<24xf32>) {
  ^bb0(%in: f32, %mx: f32, %acc: f32):
    %d = arith.subf %in, %mx : f32
    %ex = math.exp %d : f32
    %v = arith.addf %ex, %acc : f32
    linalg.yield %v : f32
  } -> tensor<24xf32>
  %es = tensor.empty() : tensor<24x1000xf32>
  %soft = linalg.generic {indexing_maps = [#r2, #red2, #red2, #r2], iterator_types = ["parallel", "parallel"]}
      ins(%s, %max, %sum : tensor<24x1000xf32>, tensor<24xf32>, tensor<24xf32>) outs(%es : tensor<24x1000xf32>) {
  ^bb0(%in: f32, %mx: f32, %sm: f32, %o: f32):
    %d = arith.subf %in, %mx : f32
    %ex = math.exp %d : f32
    %v = arith.divf %ex, %sm : f32
    linalg.yield %v : f32
  } -> tensor<24x1000xf32>
  // layer norm(x) * g + b
  %e16 = tensor.empty() : tensor<16xf32>
  %z1 = linalg.fill ins(%zero : f32) outs(%e16 : tensor<16xf32>) -> tensor<16xf32>
  %xs = linalg.generic {indexing_maps = [#r2, #red2], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<16x768xf32>) outs(%z1 : tensor<16xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %v = arith.addf %in, %acc : f32
    linalg.yield %v : f32
  } -> tensor<16xf32>
  %z2 = linalg.fill ins(%zero : f32) outs(%e16 : tensor<16xf32>) -> tensor<16xf32>
  %var = linalg.generic {indexing_maps = [#r2, #red2, #red2], iterator_types = ["parallel", "reduction"]}
      ins(%x, %xs : tensor<16x768xf32>, tensor<16xf32>) outs(%z2 : tensor<16xf32>) {
  ^bb0(%in: f32, %sm: f32, %acc: f32):
    %mean = arith.divf %sm, %n768 : f32
    %d = arith.subf %in, %mean : f32
    %sq = arith.mulf %d, %d : f32
    %v = arith.addf %sq, %acc : f32
    linalg.yield %v : f32
  } -> tensor<16xf32>
  %ex16 = tensor.empty() : tensor<16x768xf32>
  %ln = linalg.generic {indexing_maps = [#r2, #red2, #red2, #col, #col, #r2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %xs, %var, %g, %b : tensor<16x768xf32>, tensor<16xf32>, tensor<16xf32>, tensor<768xf32>, tensor<768xf32>) outs(%ex16 : tensor<16x768xf32>) {
  ^bb0(%in: f32, %sm: f32, %vs: f32, %gg: f32, %bb: f32, %o: f32):
    %mean = arith.divf %sm, %n768 : f32
    %v = arith.divf %vs, %n768 : f32
    %ve = arith.addf %v, %eps : f32
    %rs = math.rsqrt %ve : f32
    %d = arith.subf %in, %mean : f32
    %nrm = arith.mulf %d, %rs : f32
    %sc = arith.mulf %nrm, %gg : f32
    %r = arith.addf %sc, %bb : f32
    linalg.yield %r : f32
  } -> tensor<16x768xf32>
  // rms norm(y)
  %e40 = tensor.empty() : tensor<40xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e40 : tensor<40xf32>) -> tensor<40xf32>
  %ss = linalg.generic {indexing_maps = [#r2, #red2], iterator_types = ["parallel", "reduction"]}
      ins(%y : tensor<40x96xf32>) outs(%z3 : tensor<40xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %sq = arith.mulf %in, %in : f32
    %v = arith.addf %sq, %acc : f32
    linalg.yield %v : f32
  } -> tensor<40xf32>
  %ey = tensor.empty() : tensor<40x96xf32>
  %rms = linalg.generic {indexing_maps = [#r2, #red2, #r2], iterator_types = ["parallel", "parallel"]}
      ins(%y, %ss : tensor<40x96xf32>, tensor<40xf32>) outs(%ey : tensor<40x96xf32>) {
  ^bb0(%in: f32, %sq: f32, %o: f32):
    %m = arith.divf %sq, %n96 : f32
    %me = arith.addf %m, %eps : f32
    %rs = math.rsqrt %me : f32
    %r = arith.mulf %in, %rs : f32
    linalg.yield %r : f32
  } -> tensor<40x96xf32>
  // global average pool
  %ep = tensor.empty() : tensor<2x48x1x1xf32>
  %z4 = linalg.fill ins(%zero : f32) outs(%ep : tensor<2x48x1x1xf32>) -> tensor<2x48x1x1xf32>
  %win = tensor.empty() : tensor<7x7xf32>
  %pool = linalg.pooling_nchw_sum {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%img, %win : tensor<2x48x7x7xf32>, tensor<7x7xf32>) outs(%z4 : tensor<2x48x1x1xf32>) -> tensor<2x48x1x1xf32>
  %avg = linalg.generic {indexing_maps = [affine_map<(a, b, c, d) -> (a, b, c, d)>, affine_map<(a, b, c, d) -> (a, b, c, d)>],
                         iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%pool : tensor<2x48x1x1xf32>) outs(%ep : tensor<2x48x1x1xf32>) {
  ^bb0(%in: f32, %o: f32):
    %v = arith.divf %in, %n49 : f32
    linalg.yield %v : f32
  } -> tensor<2x48x1x1xf32>
  // softmax over rows of 7
  %e33 = tensor.empty() : tensor<33xf32>
  %m1 = linalg.fill ins(%ninf : f32) outs(%e33 : tensor<33xf32>) -> tensor<33xf32>
  %tmax = linalg.generic {indexing_maps = [#r2, #red2], iterator_types = ["parallel", "reduction"]}
      ins(%t : tensor<33x7xf32>) outs(%m1 : tensor<33xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %v = arith.maximumf %in, %acc : f32
    linalg.yield %v : f32
  } -> tensor<33xf32>
  %z5 = linalg.fill ins(%zero : f32) outs(%e33 : tensor<33xf32>) -> tensor<33xf32>
  %tsum = linalg.generic {indexing_maps = [#r2, #red2, #red2], iterator_types = ["parallel", "reduction"]}
      ins(%t, %tmax : tensor<33x7xf32>, tensor<33xf32>) outs(%z5 : tensor<33xf32>) {
  ^bb0(%in: f32, %mx: f32, %acc: f32):
    %d = arith.subf %in, %mx : f32
    %ex = math.exp %d : f32
    %v = arith.addf %ex, %acc : f32
    linalg.yield %v : f32
  } -> tensor<33xf32>
  %et = tensor.empty() : tensor<33x7xf32>
  %tsoft = linalg.generic {indexing_maps = [#r2, #red2, #red2, #r2], iterator_types = ["parallel", "parallel"]}
      ins(%t, %tmax, %tsum : tensor<33x7xf32>, tensor<33xf32>, tensor<33xf32>) outs(%et : tensor<33x7xf32>) {
  ^bb0(%in: f32, %mx: f32, %sm: f32, %o: f32):
    %d = arith.subf %in, %mx : f32
    %ex = math.exp %d : f32
    %v = arith.divf %ex, %sm : f32
    linalg.yield %v : f32
  } -> tensor<33x7xf32>
  return %soft, %ln, %rms, %avg, %tsoft : tensor<24x1000xf32>, tensor<16x768xf32>, tensor<40x96xf32>, tensor<2x48x1x1xf32>, tensor<33x7xf32>
}
