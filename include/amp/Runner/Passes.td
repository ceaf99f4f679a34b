//===- Passes.td - Passes of amp-run's CPU lowering --------*- tablegen -*-===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef AMP_RUNNER_PASSES_TD
#define AMP_RUNNER_PASSES_TD

include "mlir/Pass/PassBase.td"

def AmpCpuLoopOrderPass : Pass<"amp-cpu-loop-order"> {
  let summary = "Order the loops of linalg.generic ops for a CPU";
  let description = [{
    Moves to the innermost position the loop of each `linalg.generic` along
    which the most operands are accessed contiguously (the loop indexes
    their last dimension with coefficient 1). Inputs the payload does not
    read do not count; among equally good loops, the one with more
    iterations wins, then the current innermost loop. The other loops keep
    their order.

    Naive loops (`convert-linalg-to-loops`) of a matmul walk `B` by columns,
    one cache miss per multiply-accumulate; after this pass, the innermost
    loop walks a row of `B` and of `C`, and LLVM vectorizes it. amp-run runs
    the pass after `linalg-generalize-named-ops` in its CPU lowering.
    Each result accumulates its terms in the same order unless a reduction
    loop moves past another reduction loop (a matmul's does not).

    Example:

    ```mlir
    // (i, j, k): C[i, j] += A[i, k] * B[k, j]
    linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (i, k)>,
                                     affine_map<(i, j, k) -> (k, j)>,
                                     affine_map<(i, j, k) -> (i, j)>],
                    iterator_types = ["parallel", "parallel", "reduction"]} ...
    // becomes (i, k, j)
    linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1)>,
                                     affine_map<(d0, d1, d2) -> (d1, d2)>,
                                     affine_map<(d0, d1, d2) -> (d0, d2)>],
                    iterator_types = ["parallel", "reduction", "parallel"]} ...
    ```
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect"];
}

def AmpFlattenConstantsPass : Pass<"amp-flatten-constants"> {
  let summary = "Store multi-dimensional tensor constants as 1-D constants";
  let description = [{
    Replaces every `arith.constant` holding a dense tensor (splats included)
    of rank >= 2 by a 1-D constant with the same data, reshaped with
    `tensor.expand_shape`. After bufferization the reshape is a view of the
    global, so the code is unchanged; the LLVM global becomes one flat array
    instead of an array of arrays, whose translation to LLVM IR creates one
    LLVM constant per innermost row: for the 3-wide rows of a 3x3
    convolution's weights, millions of constants and seconds of compile
    time. amp-run runs it before bufferization.

    Example:

    ```mlir
    %w = arith.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
    // becomes
    %flat = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
    %w = tensor.expand_shape %flat [[0, 1]] output_shape [2, 2]
        : tensor<4xf32> into tensor<2x2xf32>
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::tensor::TensorDialect"];
}

def AmpPrepareModelPass : Pass<"amp-prepare-model", "::mlir::ModuleOp"> {
  let summary = "Isolate a model's entry function from its harness code, "
                "optionally with random weights";
  let description = [{
    What `amp-run` does to a model before it runs it, as a pass, so that
    `amp-compile` builds the same function that `amp-run` runs:

    - the entry is the function named by `entry`, or else the only public
      function with a body that takes a ranked tensor (an error lists the
      candidates when there is none or more than one);
    - harness code is removed: calls of external functions that return
      nothing (`printMemrefF32`, `record_timing`, ...) and `vector.print`;
      a tensor the entry passed to such a call becomes an extra result (a
      printed tensor is an output); ops left unused (timing arithmetic,
      `rtclock`) go too; every other function becomes private and what the
      entry does not reach is removed;
    - with `randomize-weights`, every float constant that a contraction
      reads as a weight gets seeded He-uniform values (`amp-run
      --randomize-weights`, same `seed`, same values): models shipped with
      splat weights compute something worth comparing. A weight passed as
      an argument gets the argument attribute `amp.input_bound = b : f64`,
      the He-uniform bound amp-run draws it with, for harnesses that make
      inputs (amp-compile's draws it uniform in [-b, b)).

    Example: `amp-opt model.mlir --amp-prepare-model="randomize-weights seed=7"`.
  }];
  let options = [
    Option<"entry", "entry", "std::string", "\"\"",
           "The entry function (default: the only public function with a "
           "body that takes a ranked tensor)">,
    Option<"randomizeWeights", "randomize-weights", "bool", "false",
           "Replace the weights by seeded random values scaled by their "
           "fan-in">,
    Option<"seed", "seed", "uint64_t", "0",
           "Seed of the random weights (amp-run's --seed)">,
  ];
  let statistics = [
    Statistic<"numRemovedOps", "removed-ops",
              "Harness ops removed (calls and vector.print)">,
    Statistic<"numRandomized", "randomized-constants",
              "Weight constants given random values">,
  ];
  let dependentDialects = ["::mlir::func::FuncDialect",
                           "::mlir::tensor::TensorDialect"];
}

def AmpExternalizeWeightsPass
    : Pass<"amp-externalize-weights", "::mlir::ModuleOp"> {
  let summary = "Move large constant globals of an LLVM-dialect module into "
                "a binary file that the assembler includes";
  let description = [{
    For an ahead-of-time build (amp-compile): every `llvm.mlir.global`
    constant at the top of the module whose dense initializer holds at least
    `min-bytes` bytes loses its initializer and becomes an external, hidden
    declaration; its bytes are appended to `<dir>/weights.bin` (each at its
    alignment, at least 64 bytes), and `<dir>/weights.s` defines the symbol
    with `.incbin`. Assembling that file and linking it with the model's
    object gives the same program, but LLVM never sees the weights: the
    textual LLVM IR of a VGG-16 with random weights is gigabytes, and `llc`
    needs more than 10 GB of memory to read it.

    Splats are written out in full. An initializer whose data is not in the
    module (an elided `dense_resource`) or whose elements are not whole
    bytes (i1) is an error, as is a `dir` that cannot be written.

    Example: `amp-opt model.llvm.mlir --amp-externalize-weights="dir=out"`,
    then `cc -c out/weights.s` and link `weights.o` with the model.
  }];
  let options = [
    Option<"dir", "dir", "std::string", "\"\"",
           "Folder for weights.bin and weights.s (required)">,
    Option<"minBytes", "min-bytes", "uint64_t", "65536",
           "Smallest initializer, in bytes, that is moved out">,
  ];
  let statistics = [
    Statistic<"numExternalized", "externalized-globals",
              "Globals whose initializer was moved to weights.bin">,
    Statistic<"numBytes", "externalized-bytes",
              "Bytes written to weights.bin">,
  ];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def AmpOutlineKernelsPass : Pass<"amp-outline-kernels", "::mlir::ModuleOp"> {
  let summary = "Move every loop nest of a function into a function of its "
                "own, called in its place";
  let description = [{
    Each loop (`scf.for`, `scf.parallel`, `affine.for`, ... any op with the
    loop interface) directly in the body of a function with a body becomes
    a private function, a *kernel*, and a `func.call` of it. The values the
    nest uses from outside become the kernel's arguments, in the order of
    first use, except constants (ops without operands that are constant
    like), which are copied into the kernel. Each kernel is named for its
    function, its position and what its innermost loop computes
    (`@forward_3_mulf_addf`; `copy` if it only moves data, `fill` if it
    only stores).

    The kernel's body is the loop nest and its constants alone, so two nests
    that compute the same thing on arguments of the same types give kernels
    identical but for their names: `amp-tune` compiles each kernel once and
    finds it again in later trials (its kernel cache) by its text. amp-run
    and amp-tune outline their models this way after
    `convert-linalg-to-loops` (`runCpuLowering` in CpuLowering.h).

    A nest stays where it is if it has results (a loop carrying values out)
    or references a symbol (a call, a global): its kernel would not stand
    alone. The semantics do not change: the kernel computes the same
    operations in the same order.

    With `range-arguments`, a nest that is an `scf.parallel` without
    reductions (as `convert-linalg-to-parallel-loops` makes them) gets two
    leading `index` arguments: the lower and upper bound of the dimension
    with the most iterations (constant bounds, step 1, at least 2
    iterations), which the call passes. The caller may then split that
    range and run the parts at once: the iterations of an `scf.parallel`
    are independent, so every element is computed by the same operations.

    Example:

    ```mlir
    func.func @forward(%a: memref<8xf32>, %b: memref<8xf32>) {
      %c0 = arith.constant 0 : index
      %c8 = arith.constant 8 : index
      %c1 = arith.constant 1 : index
      scf.for %i = %c0 to %c8 step %c1 {
        %x = memref.load %a[%i] : memref<8xf32>
        %y = arith.mulf %x, %x : f32
        memref.store %y, %b[%i] : memref<8xf32>
      }
      return
    }
    // becomes
    func.func @forward(%a: memref<8xf32>, %b: memref<8xf32>) {
      call @forward_0_mulf(%a, %b) : (memref<8xf32>, memref<8xf32>) -> ()
      return
    }
    func.func private @forward_0_mulf(%a: memref<8xf32>, %b: memref<8xf32>) {
      %c0 = arith.constant 0 : index
      ...
      scf.for %i = %c0 to %c8 step %c1 { ... }
      return
    }
    ```
  }];
  let options = [
    Option<"rangeArguments", "range-arguments", "bool", "false",
           "Pass the bounds of one dimension of an scf.parallel nest as the "
           "kernel's first two arguments">,
  ];
  let statistics = [
    Statistic<"numOutlined", "outlined-nests",
              "Loop nests moved into kernels">,
    Statistic<"numKeptInline", "inline-nests",
              "Loop nests left in place (results or symbol references)">,
  ];
  let dependentDialects = ["::mlir::func::FuncDialect"];
}

def AmpCpuDecodeFP8Pass : Pass<"amp-cpu-decode-fp8"> {
  let summary = "Decode the FP8 inputs of reductions (contractions) to f32 "
                "once, instead of at every iteration of their payload";
  let description = [{
    An FP8 contraction (`--amp-mixed-precision="target-type=f8E4M3FN"`)
    reads its FP8 inputs through an `arith.extf` to f32 in its payload: in
    naive loops that is two decodes per multiply-accumulate, each some thirty
    integer instructions on a CPU without FP8 (`--amp-expand-fp8`). This
    pass gives each such input of a `linalg.generic` with reduction loops
    (one whose payload argument is only read by `arith.extf` to f32; an
    elementwise op reads each element once anyway) an elementwise
    `linalg.generic` that decodes the whole tensor first, and the payload
    the f32 value. The copy is laid out with the loop of the output's last
    dimension last (a K-major B, N x K, is decoded as K x N), so that the
    naive loops walk it along the output as they walk an FP32 model's. The
    numbers are the same (the extension is exact, and the payload computes
    as before); the decodes go from M*N*K to M*K + K*N for a matmul.
    amp-run's CPU lowering runs it after generalizing named ops.

    Example:

    ```mlir
    %0 = linalg.generic {...} ins(%a, %b : tensor<4x8xf8E4M3FN>, tensor<8x2xf8E4M3FN>) outs(%c : tensor<4x2xf32>) {
    ^bb0(%x: f8E4M3FN, %y: f8E4M3FN, %acc: f32):
      %xf = arith.extf %x : f8E4M3FN to f32
      %yf = arith.extf %y : f8E4M3FN to f32
      ...
    // becomes
    %a32 = linalg.generic {...} ins(%a : tensor<4x8xf8E4M3FN>) outs(... : tensor<4x8xf32>) { arith.extf ... }
    %b32 = linalg.generic {...} ins(%b : tensor<8x2xf8E4M3FN>) outs(... : tensor<8x2xf32>) { arith.extf ... }
    %0 = linalg.generic {...} ins(%a32, %b32 : tensor<4x8xf32>, tensor<8x2xf32>) outs(%c : tensor<4x2xf32>) {
    ^bb0(%x: f32, %y: f32, %acc: f32):
      ...
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

def AmpStripAnnotationsPass : Pass<"amp-strip-annotations"> {
  let summary = "Remove amp's attributes (amp.policy, amp.color, ...) from "
                "every op";
  let description = [{
    Removes every discardable attribute of the `amp` dialect (names starting
    with `amp.`) from the op it runs on and every op inside. A lowered module
    that keeps one cannot be read by tools that do not load amp's dialect,
    such as a stock `mlir-translate`; amp-compile runs this before
    translating to LLVM IR.
  }];
  let statistics = [
    Statistic<"numRemoved", "removed-attributes", "Attributes removed">,
  ];
}

#endif // AMP_RUNNER_PASSES_TD
