// The errors of report=: a name whose extension says no format (before any
// conversion), and an HTML report that cannot be written (nothing is
// written then, not even part of the page).

// RUN: rm -rf %t && split-file %s %t && mkdir -p %t/dir.html
// RUN: amp-opt %t/extension.mlir --amp-mixed-precision=report=%t/r.txt --verify-diagnostics
// RUN: amp-opt %t/extension.mlir --amp-mixed-precision=report=%t/report --verify-diagnostics
// RUN: amp-opt %t/unwritable.mlir --amp-mixed-precision=report=%t/no/such/dir/r.html --verify-diagnostics
// RUN: amp-opt %t/directory.mlir --amp-mixed-precision=report=%t/dir.html --verify-diagnostics
// RUN: not ls %t/r.txt
// RUN: not ls %t/report
// RUN: not ls %t/no

//--- extension.mlir
// expected-error-re@unknown {{amp-mixed-precision: report= '{{.*}}' has an unknown extension; a report is .json (or '-' for standard output), .html or .htm}}
func.func @f() { return }

//--- unwritable.mlir
// expected-error-re@+1 {{cannot write the report to '{{.*}}/no/such/dir/r.html': No such file or directory}}
module {
  func.func @f() { return }
}

//--- directory.mlir
// expected-error-re@+1 {{cannot write the report to '{{.*}}dir.html': Is a directory}}
module {
  func.func @f() { return }
}
