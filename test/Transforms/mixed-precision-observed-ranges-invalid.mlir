// ranges= (observed value ranges from amp-run --calibrate): a file that
// cannot be used is an error; entries that cannot be used are warnings,
// never a silent default. Run from the folder of the files, so that paths
// and locations print without it.
// RUN: split-file %s %t
// RUN: cd %t && amp-opt missing-file.mlir --amp-mixed-precision=ranges=no-such.json --verify-diagnostics
// RUN: cd %t && amp-opt not-json.mlir --amp-mixed-precision=ranges=not-json.txt --verify-diagnostics
// RUN: cd %t && amp-opt no-functions.mlir --amp-mixed-precision=ranges=no-functions.json --verify-diagnostics
// RUN: cd %t && amp-opt empty.mlir --amp-mixed-precision=ranges=empty.json --verify-diagnostics
// RUN: cd %t && amp-opt no-index.mlir --amp-mixed-precision=ranges=no-index.json --verify-diagnostics
// RUN: cd %t && amp-opt margin.mlir "--amp-mixed-precision=ranges=other.json range-margin=0.5" --verify-diagnostics
// RUN: cd %t && amp-opt margin-alone.mlir --amp-mixed-precision=range-margin=4 --verify-diagnostics
// RUN: cd %t && amp-opt other-function.mlir --amp-mixed-precision=ranges=other.json --verify-diagnostics
// RUN: cd %t && amp-opt stale.mlir --amp-mixed-precision=ranges=stale.json --verify-diagnostics
// RUN: cd %t && amp-opt missing-entry.mlir --amp-mixed-precision=ranges=missing-entry.json --verify-diagnostics
// RUN: cd %t && amp-opt unreached.mlir --amp-mixed-precision=ranges=unreached.json --verify-diagnostics

//--- missing-file.mlir
// expected-error@unknown {{amp-mixed-precision: ranges=: cannot read no-such.json: No such file or directory}}
func.func @f() { return }

//--- not-json.txt
ranges: none
//--- not-json.mlir
// expected-error@unknown {{amp-mixed-precision: ranges=: not-json.txt: not JSON: }}
func.func @f() { return }

//--- no-functions.json
{"model": "m.mlir", "samples": 1}
//--- no-functions.mlir
// expected-error@unknown {{amp-mixed-precision: ranges=: no-functions.json: not an amp-run --calibrate file: no "functions" object}}
func.func @f() { return }

//--- empty.json
{"functions": {}}
//--- empty.mlir
// expected-error@unknown {{amp-mixed-precision: ranges=: empty.json has no functions: nothing to match}}
func.func @f() { return }

//--- no-index.json
{"functions": {"f": [{"op": "linalg.add", "loc": "no-index.mlir:3:8"}]}}
//--- no-index.mlir
// expected-error@unknown {{amp-mixed-precision: ranges=: no-index.json: not an amp-run --calibrate file: an entry of f has no index}}
func.func @f() { return }

//--- other.json
{"functions": {"g": [{"index": 0, "op": "linalg.add", "loc": "other.mlir:3:8", "result": 0, "max_abs": 1.0, "count": 16}]}}
//--- margin.mlir
// expected-error@unknown {{amp-mixed-precision: range-margin must be a finite number of at least 1, got 0.50}}
func.func @f() { return }

//--- margin-alone.mlir
// expected-warning@unknown {{amp-mixed-precision: range-margin applies to observed ranges and is ignored without ranges=}}
func.func @f() { return }

//--- other-function.mlir
// expected-warning@+1 {{amp-mixed-precision: other.json has no entries for @f: its 1 values are converted on static ranges alone}}
func.func @f(%a: tensor<16xf32>, %b: tensor<16xf32>) -> tensor<16xf32> {
  %0 = linalg.add ins(%a, %b : tensor<16xf32>, tensor<16xf32>) outs(%a : tensor<16xf32>) -> tensor<16xf32>
  return %0 : tensor<16xf32>
}

//--- stale.json
{"functions": {"f": [
  {"index": 0, "op": "linalg.sub", "loc": "stale.mlir:5:8", "result": 0, "max_abs": 1.0e6, "count": 16},
  {"index": 1, "op": "linalg.mul", "loc": "stale.mlir:6:8", "result": 0, "max_abs": 2.0, "count": 16},
  {"index": 2, "op": "linalg.mul", "loc": "stale.mlir:6:8", "result": 0, "max_abs": 2.0, "count": 16}]}}
//--- stale.mlir
// The model changed since calibration: its first op is an add now, and it
// lost an op. Neither entry is used (the 1e6 would have kept the add FP32).
// expected-warning@+1 {{amp-mixed-precision: 2 stale entries for @f in stale.json (the model changed since calibration; first: entry 0 (linalg.add at stale.mlir:5:8): the file has linalg.sub at stale.mlir:5:8): not used}}
func.func @f(%a: tensor<16xf32>, %b: tensor<16xf32>) -> tensor<16xf32> {
  %0 = linalg.add ins(%a, %b : tensor<16xf32>, tensor<16xf32>) outs(%a : tensor<16xf32>) -> tensor<16xf32>
  return %0 : tensor<16xf32>
}

//--- missing-entry.json
{"functions": {"f": [
  {"index": 0, "op": "linalg.add", "loc": "missing-entry.mlir:3:8", "result": 0, "max_abs": 2.0, "count": 16}]}}
//--- missing-entry.mlir
// expected-warning@+1 {{amp-mixed-precision: 1 of the 2 values of @f have no entry in missing-entry.json (first: entry 1 (linalg.mul at missing-entry.mlir:4:8)); they are converted on static ranges alone}}
func.func @f(%a: tensor<16xf32>, %b: tensor<16xf32>) -> tensor<16xf32> {
  %0 = linalg.add ins(%a, %b : tensor<16xf32>, tensor<16xf32>) outs(%a : tensor<16xf32>) -> tensor<16xf32>
  %1 = linalg.mul ins(%0, %b : tensor<16xf32>, tensor<16xf32>) outs(%a : tensor<16xf32>) -> tensor<16xf32>
  return %1 : tensor<16xf32>
}

//--- unreached.json
{"functions": {"f": [
  {"index": 0, "op": "linalg.add", "loc": "unreached.mlir:3:8", "result": 0, "max_abs": 0, "count": 0}]}}
//--- unreached.mlir
// expected-warning@+1 {{amp-mixed-precision: 1 of the 1 values of @f were never reached on the samples in unreached.json (first: entry 0 (linalg.add at unreached.mlir:3:8)); they are converted on static ranges alone}}
func.func @f(%a: tensor<16xf32>, %b: tensor<16xf32>) -> tensor<16xf32> {
  %0 = linalg.add ins(%a, %b : tensor<16xf32>, tensor<16xf32>) outs(%a : tensor<16xf32>) -> tensor<16xf32>
  return %0 : tensor<16xf32>
}
