// RUN: rm -rf %t && amp-opt %s --amp-externalize-weights="dir=%t min-bytes=64" | FileCheck %s
// RUN: FileCheck %s --check-prefix=ASM < %t/weights.s
// RUN: od -A d -t x1 %t/weights.bin | FileCheck %s --check-prefix=BIN
// RUN: not amp-opt %s --amp-externalize-weights 2>&1 | FileCheck %s --check-prefix=NODIR
// RUN: touch %t/file && not amp-opt %s --amp-externalize-weights="dir=%t/file/sub" 2>&1 | FileCheck %s --check-prefix=NOTDIR

// Large constants lose their initializers and become hidden external
// declarations defined in weights.s; small ones and variables stay.
// CHECK: llvm.mlir.global external hidden constant @big()
// CHECK-SAME: !llvm.array<32 x f32>
// CHECK: llvm.mlir.global external hidden constant @splat()
// CHECK: llvm.mlir.global private constant @small(dense<1.000000e+00> : tensor<4xf32>)
// CHECK: llvm.mlir.global private @variable(dense<0.000000e+00> : tensor<64xf32>)

// ASM: .globl "big"
// ASM: .hidden "big"
// ASM: "big":
// ASM-NEXT: .incbin "{{.*}}weights.bin", 0, 128
// ASM: .p2align 6
// ASM: "splat":
// ASM-NEXT: .incbin "{{.*}}weights.bin", 128, 64

// The splat's 16 f16 values of 1.0 (0x3c00) after big's 128 bytes.
// BIN: 0000128 00 3c 00 3c 00 3c 00 3c 00 3c 00 3c 00 3c 00 3c
// NODIR: amp-externalize-weights needs dir=<folder>
// NOTDIR: error: cannot create '{{.*}}file/sub'

module {
  llvm.mlir.global private constant @big(dense<[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0, 17.0, 18.0, 19.0, 20.0, 21.0, 22.0, 23.0, 24.0, 25.0, 26.0, 27.0, 28.0, 29.0, 30.0, 31.0]> : tensor<32xf32>) {addr_space = 0 : i32, alignment = 64 : i64} : !llvm.array<32 x f32>
  llvm.mlir.global private constant @splat(dense<1.0> : tensor<32xf16>) {addr_space = 0 : i32} : !llvm.array<32 x f16>
  llvm.mlir.global private constant @small(dense<1.0> : tensor<4xf32>) {addr_space = 0 : i32} : !llvm.array<4 x f32>
  llvm.mlir.global private @variable(dense<0.0> : tensor<64xf32>) {addr_space = 0 : i32} : !llvm.array<64 x f32>
}
