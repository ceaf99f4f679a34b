// RUN: amp-opt %s --amp-fold-constant-payloads --split-input-file | FileCheck %s
// RUN: amp-opt %s --amp-fold-constant-payloads --split-input-file | amp-opt --amp-fold-constant-payloads --split-input-file | FileCheck %s
// RUN: amp-opt %s --amp-fold-constant-payloads=max-elements=4 --split-input-file | FileCheck %s --check-prefix=LIMIT

// An inference batch norm as torch-mlir writes it: rsqrt(var + eps) and the
// product by gamma read only per-channel constants, and become one constant
// per channel: 1/sqrt(3 + 1) * 2 = 1 and 1/sqrt(0.25 + 1) * 1 = 0.894427.
// The variance and gamma are no longer read; the mean and beta still are.
#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#c = affine_map<(d0, d1, d2, d3) -> (d1)>
// CHECK-DAG: #[[ID:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-DAG: #[[C:.+]] = affine_map<(d0, d1, d2, d3) -> (d1)>
// CHECK-LABEL: func.func @batch_norm_per_channel
// CHECK-DAG: %[[MEAN:.+]] = arith.constant dense<[5.000000e-01, -1.000000e+00]> : tensor<2xf32>
// CHECK-DAG: %[[BETA:.+]] = arith.constant dense<[1.000000e-01, 2.000000e-01]> : tensor<2xf32>
// CHECK-DAG: %[[SCALE:.+]] = arith.constant dense<[1.000000e+00, 0.89442718]> : tensor<2xf32>
// CHECK: linalg.generic {indexing_maps = [#[[ID]], #[[C]], #[[C]], #[[C]], #[[ID]]]
// CHECK-SAME: ins(%{{.+}}, %[[BETA]], %[[MEAN]], %[[SCALE]] :
// CHECK-NEXT: ^bb0(%[[X:.+]]: f32, %[[B:.+]]: f32, %[[M:.+]]: f32, %[[S:.+]]: f32, %{{.+}}: f32):
// CHECK-NEXT:   %[[D:.+]] = arith.subf %[[X]], %[[M]] : f32
// CHECK-NEXT:   %[[P:.+]] = arith.mulf %[[D]], %[[S]] : f32
// CHECK-NEXT:   %[[R:.+]] = arith.addf %[[P]], %[[B]] : f32
// CHECK-NEXT:   linalg.yield %[[R]] : f32
// CHECK-NOT: math.rsqrt
func.func @batch_norm_per_channel(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32> {
  %gamma = arith.constant dense<[2.0, 1.0]> : tensor<2xf32>
  %beta = arith.constant dense<[0.1, 0.2]> : tensor<2xf32>
  %mean = arith.constant dense<[0.5, -1.0]> : tensor<2xf32>
  %var = arith.constant dense<[3.0, 0.25]> : tensor<2xf32>
  %eps = arith.constant 1.0 : f64
  %0 = linalg.generic {indexing_maps = [#map, #c, #c, #c, #c, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x, %gamma, %beta, %mean, %var : tensor<1x2x4x4xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) outs(%x : tensor<1x2x4x4xf32>) {
  ^bb0(%in: f32, %g: f32, %b: f32, %m: f32, %v: f32, %out: f32):
    %e = arith.truncf %eps : f64 to f32
    %1 = arith.addf %v, %e : f32
    %2 = math.rsqrt %1 : f32
    %3 = arith.subf %in, %m : f32
    %4 = arith.mulf %3, %2 : f32
    %5 = arith.mulf %4, %g : f32
    %6 = arith.addf %5, %b : f32
    linalg.yield %6 : f32
  } -> tensor<1x2x4x4xf32>
  return %0 : tensor<1x2x4x4xf32>
}

// -----

// With splat statistics (the corpus' weights), every constant is a scalar
// of the payload, no constant input is left, and x - 0 folds away (x + 0
// does not: -0 + 0 is +0).
#map = affine_map<(d0, d1) -> (d0, d1)>
#c = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @batch_norm_splat
// CHECK: linalg.generic {indexing_maps = [#{{.+}}, #{{.+}}], iterator_types = ["parallel", "parallel"]} ins(%{{.+}} : tensor<4x8xf32>)
// CHECK-NEXT: ^bb0(%[[X:.+]]: f32, %{{.+}}: f32):
// CHECK-DAG:   %[[SCALE:.+]] = arith.constant 0.999994993 : f32
// CHECK-DAG:   %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK:       %[[P:.+]] = arith.mulf %[[X]], %[[SCALE]] : f32
// CHECK-NEXT:  arith.addf %[[P]], %[[ZERO]] : f32
// CHECK-NOT: arith.constant dense
func.func @batch_norm_splat(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %one = arith.constant dense<1.0> : tensor<8xf32>
  %zero = arith.constant dense<0.0> : tensor<8xf32>
  %eps = arith.constant 1.0e-05 : f32
  %0 = linalg.generic {indexing_maps = [#map, #c, #c, #c, #c, #map], iterator_types = ["parallel", "parallel"]} ins(%x, %one, %zero, %zero, %one : tensor<4x8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) outs(%x : tensor<4x8xf32>) {
  ^bb0(%in: f32, %g: f32, %b: f32, %m: f32, %v: f32, %out: f32):
    %1 = arith.addf %v, %eps : f32
    %2 = math.rsqrt %1 : f32
    %3 = arith.subf %in, %m : f32
    %4 = arith.mulf %3, %2 : f32
    %5 = arith.mulf %4, %g : f32
    %6 = arith.addf %5, %b : f32
    linalg.yield %6 : f32
  } -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// A value of loop indices alone (a position table): exp(-d1) becomes a
// constant over d1, read through its own map; the output's shape still
// gives d0.
#map = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[D1:.+]] = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @index_table
// CHECK: %[[T:.+]] = arith.constant dense<[1.000000e+00, 0.36787945, 0.135335281]> : tensor<3xf32>
// CHECK: linalg.generic {indexing_maps = [#{{.+}}, #[[D1]], #{{.+}}]
// CHECK-SAME: ins(%{{.+}}, %[[T]] :
// CHECK-NOT: math.exp
// CHECK-NOT: linalg.index
func.func @index_table(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<2x3xf32>) outs(%x : tensor<2x3xf32>) {
  ^bb0(%in: f32, %out: f32):
    %i = linalg.index 1 : index
    %n = arith.index_cast %i : index to i32
    %f = arith.sitofp %n : i32 to f32
    %m = arith.negf %f : f32
    %e = math.exp %m : f32
    %r = arith.mulf %in, %e : f32
    linalg.yield %r : f32
  } -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// Left alone: a payload with no constant part, dynamic shapes, a table
// larger than its constants (an outer product beyond max-elements is not
// built: here it is, 6 elements from 2 + 3, but not with max-elements=4),
// and an integer division by
// zero (undefined: left to run time).
#map = affine_map<(d0, d1) -> (d0, d1)>
#r = affine_map<(d0, d1) -> (d0)>
#c = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @nothing_constant
// CHECK: math.exp
func.func @nothing_constant(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<2x3xf32>) outs(%x : tensor<2x3xf32>) {
  ^bb0(%in: f32, %out: f32):
    %e = math.exp %in : f32
    linalg.yield %e : f32
  } -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
// CHECK-LABEL: func.func @dynamic_shape
// CHECK: math.rsqrt
func.func @dynamic_shape(%x: tensor<?x2xf32>) -> tensor<?x2xf32> {
  %v = arith.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %0 = linalg.generic {indexing_maps = [#map, #c, #map], iterator_types = ["parallel", "parallel"]} ins(%x, %v : tensor<?x2xf32>, tensor<2xf32>) outs(%x : tensor<?x2xf32>) {
  ^bb0(%in: f32, %a: f32, %out: f32):
    %s = math.rsqrt %a : f32
    %r = arith.mulf %in, %s : f32
    linalg.yield %r : f32
  } -> tensor<?x2xf32>
  return %0 : tensor<?x2xf32>
}
// CHECK-LABEL: func.func @outer_product
// CHECK: arith.constant dense<{{\[\[}}3.000000e+00, 4.000000e+00, 5.000000e+00], [6.000000e+00, 8.000000e+00, 1.000000e+01]]> : tensor<2x3xf32>
// With max-elements=4, the table of 6 is more than the 5 elements it reads
// and than the limit: not built.
// LIMIT-LABEL: func.func @outer_product
// LIMIT: arith.mulf %{{.+}}, %{{.+}} : f32
func.func @outer_product(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %a = arith.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %b = arith.constant dense<[3.0, 4.0, 5.0]> : tensor<3xf32>
  %0 = linalg.generic {indexing_maps = [#map, #r, #c, #map], iterator_types = ["parallel", "parallel"]} ins(%x, %a, %b : tensor<2x3xf32>, tensor<2xf32>, tensor<3xf32>) outs(%x : tensor<2x3xf32>) {
  ^bb0(%in: f32, %p: f32, %q: f32, %out: f32):
    %s = arith.mulf %p, %q : f32
    %r = arith.addf %in, %s : f32
    linalg.yield %r : f32
  } -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
// Positions beyond 256 (not exact in bf16, nor beyond 2048 in f16) stay a
// conversion that the range analysis sees (`integer not exact`): as a
// constant they would be rounded like a weight.
// CHECK-LABEL: func.func @positions_not_exact
// CHECK: linalg.index
// CHECK: arith.sitofp
func.func @positions_not_exact(%x: tensor<300x2xf32>) -> tensor<300x2xf32> {
  %0 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<300x2xf32>) outs(%x : tensor<300x2xf32>) {
  ^bb0(%in: f32, %out: f32):
    %i = linalg.index 0 : index
    %n = arith.index_cast %i : index to i64
    %f = arith.sitofp %n : i64 to f32
    %c = math.cos %f : f32
    %r = arith.mulf %in, %c : f32
    linalg.yield %r : f32
  } -> tensor<300x2xf32>
  return %0 : tensor<300x2xf32>
}
// CHECK-LABEL: func.func @division_by_zero
// CHECK: arith.divsi
func.func @division_by_zero(%x: tensor<2x3xi32>) -> tensor<2x3xi32> {
  %z = arith.constant dense<[0, 1, 2]> : tensor<3xi32>
  %one = arith.constant 7 : i32
  %0 = linalg.generic {indexing_maps = [#map, #c, #map], iterator_types = ["parallel", "parallel"]} ins(%x, %z : tensor<2x3xi32>, tensor<3xi32>) outs(%x : tensor<2x3xi32>) {
  ^bb0(%in: i32, %d: i32, %out: i32):
    %q = arith.divsi %one, %d : i32
    %r = arith.addi %in, %q : i32
    linalg.yield %r : i32
  } -> tensor<2x3xi32>
  return %0 : tensor<2x3xi32>
}
