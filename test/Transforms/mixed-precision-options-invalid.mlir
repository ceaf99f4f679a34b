// Every option the pass checks itself gives a clear error (and amp-opt
// fails); options MLIR's parser rejects fail too.
// RUN: split-file %s %t
// RUN: amp-opt %t/target.mlir --amp-mixed-precision=target-type=f8E4M3FNUZ --verify-diagnostics
// RUN: amp-opt %t/accumulate.mlir --amp-mixed-precision=accumulate-type=f64 --verify-diagnostics
// RUN: amp-opt %t/output.mlir --amp-mixed-precision=output-type=i16 --verify-diagnostics
// RUN: amp-opt %t/macs.mlir --amp-mixed-precision=min-macs=-1 --verify-diagnostics
// RUN: amp-opt %t/list-typo.mlir --amp-mixed-precision=green=linalg.matmull --verify-diagnostics
// RUN: amp-opt %t/list-dialect.mlir --amp-mixed-precision=red=foo.bar --verify-diagnostics
// RUN: amp-opt %t/list-twice.mlir --amp-mixed-precision="green=math.exp red=math.exp" --verify-diagnostics
// RUN: amp-opt %t/overflow-type.mlir --amp-mixed-precision=overflow-type=f64 --verify-diagnostics
// RUN: amp-opt %t/overflow-type-target.mlir --amp-mixed-precision=overflow-type=f16 --verify-diagnostics
// RUN: amp-opt %t/large-growth.mlir --amp-mixed-precision=large-growth=0.5 --verify-diagnostics
// RUN: amp-opt %t/policy-parse.mlir "--amp-mixed-precision=policy=#amp.default_policy<min_macs=>" --verify-diagnostics
// RUN: amp-opt %t/policy-kind.mlir "--amp-mixed-precision=policy=#amp.color<red>" --verify-diagnostics
// RUN: amp-opt %t/policy-ignored.mlir "--amp-mixed-precision=policy=#amp.default_policy accumulate-type=target" --verify-diagnostics
// RUN: amp-opt %t/report.mlir --amp-mixed-precision=report=%t/no/such/dir/report.json --verify-diagnostics
// RUN: amp-opt %t/plan-report.mlir --amp-plan-precision=report=%t/r.json --verify-diagnostics
// RUN: amp-opt %t/plan-target.mlir --amp-plan-precision=target-type=f64 --verify-diagnostics
// RUN: amp-opt %t/apply-target.mlir --amp-apply-precision=target-type=f8 --verify-diagnostics
// RUN: amp-opt %t/apply-compute.mlir --amp-apply-precision --verify-diagnostics
// RUN: not amp-opt %t/target.mlir --amp-mixed-precision=skip-layers=first 2>&1 | FileCheck %s --check-prefix=SKIP
// RUN: not amp-opt %t/target.mlir --amp-mixed-precision=keep-io-types=maybe 2>&1 | FileCheck %s --check-prefix=BOOL
// RUN: not amp-opt %t/target.mlir --amp-mixed-precision=tagret-type=f16 2>&1 | FileCheck %s --check-prefix=NAME

// SKIP: for the --skip-layers option: 'first' value invalid
// BOOL: for the --keep-io-types option: 'maybe' is invalid value for boolean argument
// NAME: no such option tagret-type

//--- target.mlir
// expected-error@unknown {{amp-mixed-precision: invalid target-type 'f8E4M3FNUZ'; expected one of: f16, bf16, f8E4M3FN, f8E5M2}}
func.func @f() { return }

//--- overflow-type.mlir
// expected-error@unknown {{amp-mixed-precision: invalid overflow-type 'f64'; expected one of: f32, f16, bf16}}
func.func @f() { return }

//--- overflow-type-target.mlir
// expected-error@unknown {{amp-mixed-precision: overflow-type must differ from target-type (f16): it is the type of ops whose values do not fit it}}
func.func @f() { return }

//--- large-growth.mlir
// expected-error@unknown {{amp-mixed-precision: large-growth must be 0 (off) or a finite number of at least 1, got 0.50}}
func.func @f() { return }

//--- accumulate.mlir
// expected-error@unknown {{amp-mixed-precision: invalid accumulate-type 'f64'; expected one of: f32, target, f16}}
func.func @f() { return }

//--- output.mlir
// expected-error@unknown {{amp-mixed-precision: invalid output-type 'i16'; expected one of: target, f32, f16}}
func.func @f() { return }

//--- macs.mlir
// expected-error@unknown {{amp-mixed-precision: min-macs must be non-negative, got -1}}
func.func @f() { return }

//--- list-typo.mlir
// expected-error@unknown {{amp-mixed-precision: unknown op name 'linalg.matmull' in green= (did you mean 'linalg.matmul'?)}}
func.func @f() { return }

//--- list-dialect.mlir
// expected-error@unknown {{amp-mixed-precision: unknown op name 'foo.bar' in red= (no dialect 'foo' is registered)}}
func.func @f() { return }

//--- list-twice.mlir
// expected-error@unknown {{amp-mixed-precision: op 'math.exp' is in two lists (green and red)}}
func.func @f() { return }

//--- policy-parse.mlir
// expected-error@unknown {{amp-mixed-precision: cannot parse policy '#amp.default_policy<min_macs=>': expected integer value}}
func.func @f() { return }

//--- policy-kind.mlir
// expected-error@unknown {{amp-mixed-precision: policy #amp.color<red> does not implement PrecisionPolicyAttrInterface}}
func.func @f() { return }

//--- policy-ignored.mlir
// expected-warning@unknown {{amp-mixed-precision: accumulate-type, output-type and min-macs configure the default policy and are ignored with policy=}}
func.func @f() { return }

//--- report.mlir
// expected-error@+1 {{cannot write the report}}
module {
  func.func @f() { return }
}

//--- plan-report.mlir
// expected-error@+1 {{amp-plan-precision: report= belongs to amp-mixed-precision (the annotations are the plan)}}
module {}

//--- plan-target.mlir
// expected-error@unknown {{amp-plan-precision: invalid target-type 'f64'; expected one of: f16, bf16, f8E4M3FN, f8E5M2}}
func.func @f() { return }

//--- apply-target.mlir
// expected-error@unknown {{amp-apply-precision: invalid target-type 'f8'; expected one of: f16, bf16}}
func.func @f() { return }

//--- apply-compute.mlir
func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{amp.precision asks for compute 'f64'; it must be f32, f16, bf16, f8E4M3FN or f8E5M2}}
  %0 = math.exp %a {amp.precision = #amp.precision<compute = f64, accumulate = f32, output = f32>} : tensor<4xf32>
  return %0 : tensor<4xf32>
}
