// The stock mlir-opt of LLVM 22 loads amp as a dialect plugin and a pass
// plugin, and runs an amp pass inside a textual pipeline.
// REQUIRES: plugin-host
// RUN: %mlir-opt %s --load-dialect-plugin=%amp_plugin --load-pass-plugin=%amp_plugin \
// RUN:   --pass-pipeline="builtin.module(canonicalize,amp-mixed-precision{target-type=bf16},cse)" | FileCheck %s
// The decisions written down and carried out, as two passes of the plugin:
// the same conversion, no annotation left.
// RUN: %mlir-opt %s --load-dialect-plugin=%amp_plugin --load-pass-plugin=%amp_plugin \
// RUN:   --pass-pipeline="builtin.module(amp-plan-precision{target-type=bf16})" | FileCheck %s --check-prefix=PLAN
// RUN: %mlir-opt %s --load-dialect-plugin=%amp_plugin --load-pass-plugin=%amp_plugin \
// RUN:   --pass-pipeline="builtin.module(canonicalize,amp-plan-precision{target-type=bf16},amp-apply-precision{target-type=bf16},cse)" | FileCheck %s --implicit-check-not=amp.
// The dialect's verifier and parser work in the plugin too.
// RUN: %mlir-opt %s --load-dialect-plugin=%amp_plugin | FileCheck %s --check-prefix=PARSE

// CHECK-LABEL: func.func @f
// CHECK: linalg.matmul ins(%{{.+}}, %{{.+}} : tensor<8x8xbf16>, tensor<8x8xbf16>) outs(%{{.+}} : tensor<8x8xf32>)
// CHECK: math.exp %{{.+}} : tensor<8x8xf32>
// PARSE: amp.color = #amp.color<gray>
// PLAN: linalg.matmul {amp.precision = #amp.precision<compute = bf16, accumulate = f32, output = bf16>}
// PLAN: math.exp %{{.+}} {amp.color = #amp.color<red>} : tensor<8x8xf32>
func.func @f(%a: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %m = linalg.matmul ins(%a, %a : tensor<8x8xf32>, tensor<8x8xf32>) outs(%a : tensor<8x8xf32>) -> tensor<8x8xf32>
  %e = math.exp %m {amp.color = #amp.color<gray>} : tensor<8x8xf32>
  return %e : tensor<8x8xf32>
}
