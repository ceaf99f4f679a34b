// RUN: rm -rf %t && amp-opt %s --split-input-file --verify-diagnostics --amp-externalize-weights="dir=%t min-bytes=1"

// A weight whose data is not in the file cannot be written out.
module {
  // expected-error @below {{cannot move the initializer of @elided out: its data is not in the module (an elided dense_resource)}}
  llvm.mlir.global private constant @elided(dense_resource<__elided__> : tensor<8xf32>) {addr_space = 0 : i32} : !llvm.array<8 x f32>
}

// -----

// Booleans are bit-packed in the attribute, not one byte each.
module {
  // expected-error @below {{cannot move the initializer of @mask out: its elements are not whole bytes}}
  llvm.mlir.global private constant @mask(dense<true> : tensor<16xi1>) {addr_space = 0 : i32} : !llvm.array<16 x i1>
}
