// RUN: amp-opt %s --amp-mixed-precision=target-type=bf16 | FileCheck %s
// RUN: amp-opt %s --amp-mixed-precision=target-type=bf16 \
// RUN:   | amp-opt --amp-mixed-precision=target-type=bf16 | FileCheck %s
// RUN: amp-opt %s --amp-mixed-precision="target-type=bf16 report=-" -o /dev/null \
// RUN:   | FileCheck %s --check-prefix=REPORT

// Regression test (found by amp-graphgen, seed 50: "a second run changed the
// IR"): the relative-magnitude rule (large-growth) only acted on gray ops
// that the minimum cut decided in a group. A gray op whose inputs are
// rebuilt constants and whose readers are all in 16 bits was decided alone,
// before the cut, and went to 16 bits whatever the growth of what it reads;
// after a first run had placed casts around it, the same op could be in a
// group and stay in FP32. Such an op is now always decided by the cut, with
// the rule's penalty: the square root of a 3.4e38 fill brings its growth
// down to 1.8e19, so it runs in FP32 and its result is narrowed after it,
// on the first run and the second.

#id = affine_map<(d0, d1) -> (d0, d1)>

// CHECK-LABEL: func.func @sqrt_of_large_fill_before_matmul
// CHECK:         linalg.fill ins(%{{.*}} : f32)
// CHECK:         %[[ROOT:.+]] = linalg.generic
// CHECK-SAME:      ins(%{{.*}} : tensor<4x4xf32>)
// CHECK:           math.sqrt %{{.*}} : f32
// CHECK:         %[[LOW:.+]] = arith.truncf %[[ROOT]] : tensor<4x4xf32> to tensor<4x4xbf16>
// CHECK:         linalg.matmul ins(%{{.*}}, %[[LOW]] : tensor<4x4xbf16>, tensor<4x4xbf16>)
// REPORT:      "op": "linalg.generic"
// REPORT-NEXT: "loc":
// REPORT-NEXT: "color": "gray"
// REPORT-NEXT: "reason": "narrowed after normalization"
func.func @sqrt_of_large_fill_before_matmul(%arg0: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %big = arith.constant -3.40282347E+38 : f32
  %e = tensor.empty() : tensor<4x4xf32>
  %fill = linalg.fill ins(%big : f32) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
  %e1 = tensor.empty() : tensor<4x4xf32>
  %root = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%fill : tensor<4x4xf32>) outs(%e1 : tensor<4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %a = math.absf %in : f32
    %s = math.sqrt %a : f32
    linalg.yield %s : f32
  } -> tensor<4x4xf32>
  %zero = arith.constant 0.0 : f32
  %e2 = tensor.empty() : tensor<4x4xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e2 : tensor<4x4xf32>) -> tensor<4x4xf32>
  %m = linalg.matmul ins(%arg0, %root : tensor<4x4xf32>, tensor<4x4xf32>) outs(%acc : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %m : tensor<4x4xf32>
}
