// Annotations and policies the pass cannot honor. Invalid attribute values
// are rejected by the amp dialect when the module is read (IR/invalid.mlir
// has every case); valid attributes asking for types amp does not compute in
// are rejected by the pass. Either way: an error at the op, a non-zero exit
// and no output file.
// RUN: rm -rf %t && mkdir -p %t
// RUN: amp-opt %s --split-input-file --amp-mixed-precision --verify-diagnostics -o /dev/null
// RUN: not amp-opt %s --split-input-file --amp-mixed-precision -o %t/out.mlir 2>/dev/null
// RUN: not test -e %t/out.mlir

// expected-error@+2 {{amp.precision asks for accumulate 'f64' and output 'f16'; each must be f32, f16 or bf16}}
func.func @precision_f64(%a: tensor<4x4xf32>, %b: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %0 = linalg.matmul {amp.precision = #amp.precision<accumulate = f64, output = f16>} ins(%a, %b : tensor<4x4xf32>, tensor<4x4xf32>) outs(%a : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}

// -----

module attributes {amp.policy = #amp.default_policy<accumulate = f32, output = f8E5M2>} {
  func.func @policy_f8(%a: tensor<4x4xf32>, %b: tensor<4x4xf32>) -> tensor<4x4xf32> {
    // expected-error@+1 {{the precision policy asks for accumulate 'f32' and output 'f8E5M2'; each must be f32, f16 or bf16}}
    %0 = linalg.matmul ins(%a, %b : tensor<4x4xf32>, tensor<4x4xf32>) outs(%a : tensor<4x4xf32>) -> tensor<4x4xf32>
    return %0 : tensor<4x4xf32>
  }
}

// -----

func.func @bad_color(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{unknown color 'blue'; expected green, gray or red}}
  %0 = math.exp %a {amp.color = #amp.color<blue>} : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @misspelled_annotation(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{unknown amp annotation 'amp.colour'}}
  %0 = math.exp %a {amp.colour = #amp.color<red>} : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// expected-error@+1 {{'amp.policy' must be an attribute implementing PrecisionPolicyAttrInterface (for example #amp.default_policy), got #amp.color<red>}}
module attributes {amp.policy = #amp.color<red>} {
}
