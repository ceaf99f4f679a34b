// Math in kernels becomes plain PTX instructions, with or without a CUDA
// toolkit: no libdevice function is declared or called (toolkit= an empty
// folder: no libdevice to link), and the 16-bit ops are computed in f32.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: amp-opt %s --amp-gpu-pipeline="chip=sm_80 format=isa toolkit=%t" | %extract-ptx | FileCheck %s
// RUN: amp-opt %s --amp-gpu-pipeline="chip=sm_90a format=isa toolkit=%t" | %extract-ptx | FileCheck %s
// RUN: amp-opt %s --amp-gpu-pipeline="chip=sm_80 format=isa toolkit=%t" | %extract-ptx --check-self-contained | FileCheck %s --check-prefix=LINK

// CHECK-NOT: .extern .func
// CHECK-NOT: __nv_
// CHECK-DAG: fma.rn.f32
// CHECK-DAG: sqrt.rn.f32
// CHECK-DAG: cvt.rmi.f32.f32
// CHECK-DAG: div.rn.f32
// CHECK-DAG: cvt.f32.f16
// CHECK-DAG: cvt.rn.f16.f32
// CHECK-NOT: call
// LINK: amp-extract-ptx: {{[0-9]+}} modules, self-contained

#id = affine_map<(d0) -> (d0)>

// GELU (tanh form) and a softmax-like exp, layer-norm rsqrt, erf, pow, and
// the same in f16.
func.func @math_kernels(%x: tensor<1024xf32>, %h: tensor<1024xf16>)
    -> (tensor<1024xf32>, tensor<1024xf16>) {
  %e = tensor.empty() : tensor<1024xf32>
  %eh = tensor.empty() : tensor<1024xf16>
  %0 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
         ins(%x : tensor<1024xf32>) outs(%e : tensor<1024xf32>) {
  ^bb0(%in: f32, %out: f32):
    %c = arith.constant 0.7978845608 : f32
    %k = arith.constant 0.044715 : f32
    %half = arith.constant 0.5 : f32
    %p = arith.constant 1.5 : f32
    %x3 = arith.mulf %in, %in : f32
    %t0 = math.fma %x3, %k, %half : f32
    %t1 = arith.mulf %t0, %c : f32
    %t = math.tanh %t1 : f32
    %ex = math.exp %t : f32
    %r = math.rsqrt %ex : f32
    %er = math.erf %r : f32
    %pw = math.powf %ex, %p : f32
    %s = arith.addf %er, %pw : f32
    linalg.yield %s : f32
  } -> tensor<1024xf32>
  %1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
         ins(%h : tensor<1024xf16>) outs(%eh : tensor<1024xf16>) {
  ^bb0(%in: f16, %out: f16):
    %ex = math.exp %in : f16
    %t = math.tanh %ex : f16
    linalg.yield %t : f16
  } -> tensor<1024xf16>
  return %0, %1 : tensor<1024xf32>, tensor<1024xf16>
}
