// --randomize-weights replaces the weights, constants and arguments that
// contractions read (through shape-only ops), and nothing else: not the
// zero accumulator init, not the rank-1 bias, not the scale an elementwise
// op reads, not the argument %x, which a matmul reads as its first operand
// (an activation).

// RUN: amp-run %s --randomize-weights --runs 1 --dump-converted=%t.mlir \
// RUN:   | FileCheck %s
// RUN: FileCheck %s --input-file=%t.mlir --check-prefix=IR
// CHECK: @model, pipeline 'amp-mixed-precision', seed 0, random weights (2 constants, 1 arguments)

// IR-LABEL: func.func @model
// IR-DAG: arith.constant dense<0.000000e+00> : tensor<2x8xf32>
// IR-DAG: arith.constant dense<5.000000e-01> : tensor<8xf16>
// IR-DAG: arith.constant dense<2.000000e+00> : tensor<2x8xf16>
// The weight read through a transpose is random, then folded to f16.
// IR-DAG: arith.constant dense<"0x{{[0-9A-F]+}}"> : tensor<16x8xf16>
// IR-DAG: arith.constant dense<"0x{{[0-9A-F]+}}"> : tensor<8x16xf16>

// Without the option the splat weights stay.
// RUN: amp-run %s --runs 1 --dump-converted=%t.plain.mlir
// RUN: FileCheck %s --input-file=%t.plain.mlir --check-prefix=PLAIN
// PLAIN: arith.constant dense<1.000210e-02> : tensor<16x8xf16>

func.func @model(%x: tensor<2x16xf32>, %w_arg: tensor<8x4xf32>) -> tensor<2x4xf32> {
  %w1 = arith.constant dense<0.01> : tensor<16x8xf32>
  %w2t = arith.constant dense<0.02> : tensor<8x16xf32>
  %bias = arith.constant dense<0.5> : tensor<8xf32>
  %init = arith.constant dense<0.0> : tensor<2x8xf32>
  %scale = arith.constant dense<2.0> : tensor<2x8xf32>
  %h = linalg.matmul ins(%x, %w1 : tensor<2x16xf32>, tensor<16x8xf32>)
                     outs(%init : tensor<2x8xf32>) -> tensor<2x8xf32>
  %empty16x8 = tensor.empty() : tensor<16x8xf32>
  %w2 = linalg.transpose ins(%w2t : tensor<8x16xf32>) outs(%empty16x8 : tensor<16x8xf32>) permutation = [1, 0]
  %g = linalg.matmul ins(%x, %w2 : tensor<2x16xf32>, tensor<16x8xf32>)
                     outs(%init : tensor<2x8xf32>) -> tensor<2x8xf32>
  %s = arith.mulf %h, %scale : tensor<2x8xf32>
  %t = arith.addf %s, %g : tensor<2x8xf32>
  %empty2x8 = tensor.empty() : tensor<2x8xf32>
  %b = linalg.broadcast ins(%bias : tensor<8xf32>) outs(%empty2x8 : tensor<2x8xf32>) dimensions = [0]
  %u = arith.addf %t, %b : tensor<2x8xf32>
  %zero = arith.constant 0.0 : f32
  %empty2x4 = tensor.empty() : tensor<2x4xf32>
  %init2 = linalg.fill ins(%zero : f32) outs(%empty2x4 : tensor<2x4xf32>) -> tensor<2x4xf32>
  %y = linalg.matmul ins(%u, %w_arg : tensor<2x8xf32>, tensor<8x4xf32>)
                     outs(%init2 : tensor<2x4xf32>) -> tensor<2x4xf32>
  return %y : tensor<2x4xf32>
}
