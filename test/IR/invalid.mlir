// RUN: amp-opt %s --split-input-file --verify-diagnostics

// expected-error@+1 {{'accumulate' must be a floating-point type, got 'i32'}}
func.func @f() attributes {p = #amp.precision<accumulate = i32, output = f16>}

// -----

// expected-error@+1 {{'output' must be a floating-point type, got 'index'}}
func.func @f() attributes {p = #amp.precision<accumulate = f32, output = index>}

// -----

// expected-error@+1 {{'compute' must be a floating-point type, got 'i8'}}
func.func @f() attributes {p = #amp.precision<compute = i8, accumulate = f32, output = f16>}

// -----

// expected-error@+1 {{#amp.precision needs both 'accumulate' and 'output' (missing 'output')}}
func.func @f() attributes {p = #amp.precision<accumulate = f32>}

// -----

// expected-error@+1 {{unknown parameter 'acc' in #amp.precision (expected compute, accumulate, output)}}
func.func @f() attributes {p = #amp.precision<acc = f32, output = f16>}

// -----

// expected-error@+1 {{parameter 'output' appears twice in #amp.precision}}
func.func @f() attributes {p = #amp.precision<output = f32, output = f16>}

// -----

// expected-error@+1 {{expected a parameter name in #amp.precision (one of compute, accumulate, output)}}
func.func @f() attributes {p = #amp.precision<>}

// -----

// expected-error@+1 {{unknown color 'blue'; expected green, gray or red}}
func.func @f() attributes {c = #amp.color<blue>}

// -----

// expected-error@+1 {{expected #amp.color<green>, <gray> or <red>}}
func.func @f() attributes {c = #amp.color<1>}

// -----

// expected-error@+1 {{'min_macs' must be non-negative, got -5}}
func.func @f() attributes {p = #amp.default_policy<min_macs = -5>}

// -----

// expected-error@+1 {{'accumulate' must be a floating-point type, got 'i8'}}
func.func @f() attributes {p = #amp.default_policy<accumulate = i8>}

// -----

// expected-error@+1 {{'output' must be a floating-point type, got 'i1'}}
func.func @f() attributes {p = #amp.default_policy<output = i1>}

// -----

// expected-error@+1 {{unknown parameter 'threshold' in #amp.default_policy (expected accumulate, output, min_macs)}}
func.func @f() attributes {p = #amp.default_policy<threshold = 5>}

// -----

// expected-error@+1 {{unknown attribute `colour` in dialect `amp`}}
func.func @f() attributes {p = #amp.colour<red>}

// -----

func.func @f(%x: f32) -> f32 {
  // expected-error@+1 {{'amp.color' must be a color attribute (#amp.color<green|gray|red>), got 1 : i32}}
  %0 = arith.addf %x, %x {amp.color = 1 : i32} : f32
  return %0 : f32
}

// -----

func.func @f(%x: f32) -> f32 {
  // expected-error@+1 {{'amp.precision' must be a precision attribute (#amp.precision<accumulate = T, output = U>), got #amp.color<red>}}
  %0 = arith.addf %x, %x {amp.precision = #amp.color<red>} : f32
  return %0 : f32
}

// -----

// expected-error@+1 {{'amp.policy' must be an attribute implementing PrecisionPolicyAttrInterface (for example #amp.default_policy), got "f16"}}
module attributes {amp.policy = "f16"} {}

// -----

func.func @f(%x: f32) -> f32 {
  // expected-error@+1 {{unknown amp annotation 'amp.colour' (known: amp.color, amp.precision, amp.weights, amp.policy, amp.layout_config, amp.host_only, amp.kernel)}}
  %0 = arith.addf %x, %x {amp.colour = #amp.color<red>} : f32
  return %0 : f32
}

// -----

// expected-error@+1 {{expected a filter layout (hwcf or fhwc) in #amp.layout_config}}
func.func @f() attributes {amp.layout_config = #amp.layout_config<filter = oihw>}

// -----

// expected-error@+1 {{'ops' entries must be op names (dialect.op) or layer kinds (convolution, matmul, pooling), got 'conv'}}
func.func @f() attributes {amp.layout_config = #amp.layout_config<ops = ["conv"]>}

// -----

// expected-error@+1 {{'ops' must hold strings, got 1 : i64}}
func.func @f() attributes {amp.layout_config = #amp.layout_config<ops = [1]>}

// -----

// expected-error@+1 {{unknown parameter 'skip' in #amp.layout_config (expected filter, skip_layers, ops)}}
func.func @f() attributes {amp.layout_config = #amp.layout_config<skip = [1]>}

// -----

// expected-error@+1 {{parameter 'filter' appears twice in #amp.layout_config}}
func.func @f() attributes {amp.layout_config = #amp.layout_config<filter = hwcf, filter = fhwc>}

// -----

// expected-error@+1 {{expected integer value}}
func.func @f() attributes {amp.layout_config = #amp.layout_config<skip_layers = [first]>}

// -----

func.func @f(%x: f32) -> f32 {
  // expected-error@+1 {{'amp.layout_config' may only annotate a function or a module, not 'arith.addf'}}
  %0 = arith.addf %x, %x {amp.layout_config = #amp.layout_config} : f32
  return %0 : f32
}

// -----

// expected-error@+1 {{'amp.layout_config' must be a layout configuration (#amp.layout_config<filter = ..., skip_layers = [...], ops = [...]>), got #amp.color<red>}}
module attributes {amp.layout_config = #amp.color<red>} {}

// -----

// expected-error@+1 {{'amp.host_only' must be a unit attribute, got true}}
func.func private @ampTensorMap2D_f16(memref<*xf16>, index, index) -> !llvm.ptr attributes {amp.host_only = true}

// -----

func.func @f(%x: f32) -> f32 {
  // expected-error@+1 {{'amp.host_only' may only annotate a function, not 'arith.addf'}}
  %0 = arith.addf %x, %x {amp.host_only} : f32
  return %0 : f32
}

// -----

func.func @f(%x: f32) -> f32 {
  // expected-error@+1 {{'amp.kernel' may only annotate a gpu.launch, an scf.parallel or a linalg op, not 'arith.addf'}}
  %0 = arith.addf %x, %x {amp.kernel = "add"} : f32
  return %0 : f32
}

// -----

func.func @f(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error@+1 {{'amp.kernel' must be a non-empty string of letters, digits and underscores (what the kernel computes, e.g. "softmax"), got "soft max"}}
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    scf.reduce
  } {amp.kernel = "soft max"}
  return
}
