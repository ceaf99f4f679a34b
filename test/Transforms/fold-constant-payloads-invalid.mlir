// The option --amp-fold-constant-payloads checks itself.
// RUN: amp-opt %s --amp-fold-constant-payloads=max-elements=-1 --verify-diagnostics

// expected-error@unknown {{amp-fold-constant-payloads: max-elements must be non-negative, got -1}}
func.func @f() { return }
