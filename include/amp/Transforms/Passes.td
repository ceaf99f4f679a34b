//===- Passes.td - amp transformation passes ---------------*- tablegen -*-===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef AMP_TRANSFORMS_PASSES_TD
#define AMP_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

// The options that decide precisions, shared by --amp-mixed-precision and
// --amp-plan-precision (the same decisions, converted or written down).
defvar AmpMixedPrecisionOptions = [
    Option<"targetType", "target-type", "std::string", /*default=*/"\"f16\"",
           "Low-precision type of converted ops: f16, bf16, or f8E4M3FN / "
           "f8E5M2 for green contractions with scales (docs/fp8.md)">,
    Option<"fallbackType", "fallback-type", "std::string",
           /*default=*/"\"f16\"",
           "With an FP8 target-type: the type of every op that would run in "
           "16 bits but does not run in FP8 (contractions without a scale or "
           "an FP8 form, gray ops): f16 or bf16">,
    Option<"weightScales", "weight-scales", "::mlir::amp::ScaleGranularity",
           /*default=*/"::mlir::amp::ScaleGranularity::PerTensor",
           "FP8 scales of constant operands (weights): per-tensor, or "
           "per-channel (one per output channel)",
           [{::llvm::cl::values(
             clEnumValN(::mlir::amp::ScaleGranularity::PerTensor, "per-tensor",
                        "one scale per tensor"),
             clEnumValN(::mlir::amp::ScaleGranularity::PerChannel,
                        "per-channel", "one scale per output channel"))}]>,
    Option<"fp8MinMacs", "fp8-min-macs", "int64_t", /*default=*/"0",
           "Contractions with fewer multiply-accumulates than this (when "
           "known statically) run in fallback-type rather than FP8">,
    Option<"weightOnly", "weight-only", "std::string", /*default=*/"\"none\"",
           "Store the constant weights of green contractions in a low-bit "
           "format, dequantized as the contraction reads them (activations "
           "in target-type, f32 accumulation): none, int8, int4-g32, "
           "int4-g64, int4-g128, int4-gN-asym or e4m3 "
           "(docs/weight-only.md)">,
    Option<"accumulateType", "accumulate-type", "std::string",
           /*default=*/"\"f32\"",
           "Accumulation type of green ops: f32, or 'target' to accumulate "
           "in the target type">,
    Option<"outputType", "output-type", "std::string",
           /*default=*/"\"target\"",
           "Output type of green ops: 'target' (cast the accumulator down) "
           "or f32 (keep the accumulator type)">,
    Option<"keepIOTypes", "keep-io-types", "bool", /*default=*/"true",
           "Keep function argument and result types (cast at the "
           "boundaries); with false, public functions take and return the "
           "target type where that removes casts">,
    ListOption<"greenOps", "green", "std::string",
               "Op names forced green (e.g. linalg.generic)">,
    ListOption<"grayOps", "gray", "std::string", "Op names forced gray">,
    ListOption<"redOps", "red", "std::string", "Op names forced red">,
    Option<"minMacs", "min-macs", "int64_t", /*default=*/"0",
           "Green ops with fewer multiply-accumulates than this (when known "
           "statically) are treated as gray">,
    ListOption<"skipLayers", "skip-layers", "int64_t",
               "Indices of green ops, in program order per function, kept in "
               "FP32; negative indices count from the end (0,-1 = first and "
               "last layer)">,
    Option<"grayStrategy", "gray-strategy", "::mlir::amp::GrayStrategy",
           /*default=*/"::mlir::amp::GrayStrategy::MinBytes",
           "How gray ops are decided: min-bytes (the placement that moves "
           "the fewest bytes, ops and casts counted, by an exact minimum "
           "cut; it may cast small inputs down upstream), fewest-casts (a "
           "gray op whose inputs are low runs low unless staying in FP32 "
           "saves casts) or follow (every gray op whose inputs are low runs "
           "low, as TVM does)",
           [{::llvm::cl::values(
             clEnumValN(::mlir::amp::GrayStrategy::MinBytes, "min-bytes",
                        "the fewest bytes moved (a minimum cut)"),
             clEnumValN(::mlir::amp::GrayStrategy::FewestCasts,
                        "fewest-casts", "low unless FP32 saves casts"),
             clEnumValN(::mlir::amp::GrayStrategy::Follow, "follow",
                        "low whenever the inputs are"))}]>,
    Option<"unknownOps", "unknown-ops", "::mlir::amp::UnknownOpPolicy",
           /*default=*/"::mlir::amp::UnknownOpPolicy::Red",
           "How to treat ops without a color: red (stay FP32, with a "
           "remark), gray (follow inputs) or error",
           [{::llvm::cl::values(
             clEnumValN(::mlir::amp::UnknownOpPolicy::Red, "red",
                        "stay FP32, with a remark"),
             clEnumValN(::mlir::amp::UnknownOpPolicy::Gray, "gray",
                        "follow the inputs"),
             clEnumValN(::mlir::amp::UnknownOpPolicy::Error, "error",
                        "fail the conversion"))}]>,
    Option<"overflowType", "overflow-type", "std::string",
           /*default=*/"\"f32\"",
           "Type of ops whose values do not fit the target type: f32 (stay "
           "in FP32) or the other 16-bit type if it holds them (bf16 for an "
           "f16 target), so that one module mixes f16 and bf16 per op">,
    Option<"rangeAnalysis", "range-analysis",
           "::mlir::amp::RangeAnalysisKind",
           /*default=*/"::mlir::amp::RangeAnalysisKind::Walk",
           "How values are bounded (constants, indices, arithmetic, "
           "reductions): walk (one walk in program order), dataflow (the "
           "same in MLIR's DataFlowSolver, more memory) or off (constants "
           "only)",
           [{::llvm::cl::values(
             clEnumValN(::mlir::amp::RangeAnalysisKind::Walk, "walk",
                        "one walk in program order"),
             clEnumValN(::mlir::amp::RangeAnalysisKind::Dataflow, "dataflow",
                        "MLIR's DataFlowSolver"),
             clEnumValN(::mlir::amp::RangeAnalysisKind::Off, "off",
                        "constants only"))}]>,
    Option<"ranges", "ranges", "std::string", /*default=*/"\"\"",
           "Value ranges observed on sample inputs (amp-run "
           "--calibrate=RANGES.json): a value whose largest observed |x| "
           "times range-margin leaves the target type is kept out of it, "
           "like a provable overflow; missing or stale entries are warned "
           "about">,
    Option<"rangeMargin", "range-margin", "double", /*default=*/"2.0",
           "Safety factor on observed ranges (at least 1): with the default "
           "2, f16 takes values observed up to 32752, half its largest "
           "finite value">,
    Option<"largeGrowth", "large-growth", "double", /*default=*/"16.0",
           "With gray-strategy=min-bytes: a value whose magnitude relative "
           "to the function's inputs grows this much (a sum of 49 elements: "
           "49) is narrowed after the op that brings it back down (a "
           "division by 49, a normalization) rather than before, where that "
           "costs at most 12 more bytes per element; 0 turns the rule off">,
    Option<"foldConstantPayloads", "fold-constant-payloads", "bool",
           /*default=*/"true",
           "Evaluate ahead of time the parts of linalg.generic payloads "
           "that read only constants and loop indices (an inference batch "
           "norm's rsqrt(var + eps) * gamma), as "
           "--amp-fold-constant-payloads does, so that what is left is an "
           "ordinary gray op">,
    Option<"clampConstants", "clamp-constants", "bool", /*default=*/"false",
           "Clamp constants that do not fit the target type to its finite "
           "range instead of keeping their consumers in FP32">,
    Option<"policy", "policy", "std::string", /*default=*/"\"\"",
           "Policy attribute (e.g. '#amp.default_policy<min_macs = 1000>'); "
           "overrides amp.policy on the module">,
    Option<"report", "report", "std::string", /*default=*/"\"\"",
           "Write a report of every decision to this file: JSON for "
           "FILE.json ('-' for stdout), a self-contained page that draws it "
           "on the model's graph for FILE.html (docs/report.md)">,
    Option<"remarks", "remarks", "bool", /*default=*/"false",
           "Emit a remark with the decision for every converted or kept op">,
];

def AmpMixedPrecisionPass : Pass<"amp-mixed-precision"> {
  let summary = "Convert FP32 code to mixed precision (FP16/BF16 with FP32 "
                "accumulation)";
  let description = [{
    Converts every function (any op implementing `FunctionOpInterface`) from
    FP32 to mixed precision:

    * **green** ops (matmul, convolution and other contractions) take their
      float data inputs in `target-type`, accumulate in the accumulation type
      and produce the output type;
    * **red** ops (exp, log, pow, rsqrt, erf, softmax, sum/mean reductions,
      sum/average pooling) stay in FP32; inputs that arrive in low precision
      are cast up;
    * **gray** ops (elementwise arithmetic, max/min/clamp, sigmoid/tanh, max
      pooling, data movement) run in `target-type` or in FP32, whichever
      moves fewer bytes, casts included (`gray-strategy=min-bytes`, an exact
      minimum cut over the function's float data flow); `fewest-casts` and
      `follow` (TVM's rule) are the older local rules.

    Ranges come first: a float range analysis bounds values from constants,
    loop indices, casts, elementwise arithmetic and reductions. An op whose
    values provably leave the target type's finite range, whose float
    attributes (clamp bounds) do not fit, or that converts integers beyond
    the target's exact-integer limit (2048 for f16, 256 for bf16) stays in
    FP32, or runs in `overflow-type` when that type holds its values. A green
    op whose output alone overflows keeps low inputs and an FP32 output.
    Values of unknown range (function arguments) are never a reason. With
    `ranges=RANGES.json` (written by `amp-run --calibrate`), the ranges that
    values reached on sample inputs count too: an op result whose largest
    observed magnitude, times `range-margin`, leaves the target type is
    treated like a provable overflow. Init
    tensors (`tensor.empty`, `linalg.fill` of a constant) are rebuilt in the
    type each consumer reads them in, so FP32 consumers keep the FP32 value.

    With `target-type=f8E4M3FN` (or `f8E5M2`), green contractions (linalg
    matmul, batch_matmul and 2-D convolutions, `tosa.matmul`,
    `tosa.conv2d`) whose FP8 operands all have a scale run with FP8 inputs
    and f32 accumulation: weights are scaled by their own largest magnitude
    and converted at compile time (K-major), activations scaled by the range
    `ranges=` observed (times `range-margin`) or a static range proven
    bounded and reached, and the accumulator multiplied by the inverse
    scales. Everything else, contractions without a scale included (with a
    remark), follows the plan above with `fallback-type` as its target.
    See docs/fp8.md.

    With `weight-only=int4-g128` (or `int8`, `e4m3`, ...; or ops annotated
    `amp.weights`), the green contractions whose weight is a constant store
    it quantized by round-to-nearest (per output channel, or per group of
    the reduction for int4, packed two values a byte) and read it through
    one dequantizing `linalg.generic`; their activations run in
    `target-type` and they accumulate in f32. See docs/weight-only.md.

    Casts are `arith.truncf`/`arith.extf` (`tosa.cast` for TOSA values), at
    most one per value and type, never a round trip; casts of constants fold
    into new 16-bit constants. Function signatures are kept
    (`keep-io-types`). Annotations on an op (`amp.color`, `amp.precision`)
    override everything; a policy attribute (`amp.policy` on the module, or
    the `policy` option) replaces the default lists.

    The pass runs on any op. On a function it converts that function; on a
    module (or any other op) it converts every function nested in it, in
    parallel, each with its own state, and then updates signatures when
    `keep-io-types=false`.

    Example:

    ```mlir
    // amp-opt --amp-mixed-precision
    %0 = linalg.matmul ins(%a, %b : tensor<64x64xf32>, tensor<64x64xf32>)
                       outs(%c : tensor<64x64xf32>) -> tensor<64x64xf32>
    // becomes
    %a16 = arith.truncf %a : tensor<64x64xf32> to tensor<64x64xf16>
    %b16 = arith.truncf %b : tensor<64x64xf32> to tensor<64x64xf16>
    %0 = linalg.matmul ins(%a16, %b16 : tensor<64x64xf16>, tensor<64x64xf16>)
                       outs(%c : tensor<64x64xf32>) -> tensor<64x64xf32>
    ```
  }];
  let options = AmpMixedPrecisionOptions;
  let statistics = [
    Statistic<"numGreen", "green-ops", "Ops converted as green">,
    Statistic<"numGrayLow", "gray-ops-low", "Gray ops run in the target type">,
    Statistic<"numGrayHigh", "gray-ops-fp32", "Gray ops kept in FP32">,
    Statistic<"numRed", "red-ops", "Ops kept in FP32 as red">,
    Statistic<"numUnknown", "unknown-ops", "Ops without a color">,
    Statistic<"numCasts", "casts", "Casts inserted">,
    Statistic<"numFoldedConstants", "folded-constants",
              "Constants folded into the target type">,
    Statistic<"numFP8", "fp8-ops", "Contractions converted to FP8">,
    Statistic<"numWeightOnly", "weight-only-ops",
              "Contractions with weight-only weights">,
    Statistic<"numFoldedPayloadValues", "folded-payload-values",
              "Payload values on constants evaluated ahead of time">,
  ];
  let dependentDialects = [
    "::mlir::amp::AmpDialect",
    "::mlir::arith::ArithDialect",
    "::mlir::tensor::TensorDialect",
    "::mlir::tosa::TosaDialect",
  ];
}

def AmpPlanPrecisionPass : Pass<"amp-plan-precision"> {
  let summary = "Write the decisions of --amp-mixed-precision onto the ops, "
                "as annotations, without converting";
  let description = [{
    Runs the analysis of `--amp-mixed-precision` (same options, same
    decisions) and writes each decision onto its op instead of carrying it
    out: an op that would run in 16 bits gets
    `amp.precision = #amp.precision<compute = ..., accumulate = ...,
    output = ...>`, an op that would stay in FP32 gets
    `amp.color = #amp.color<red>`. Nothing else changes, but for the
    constant parts of payloads, evaluated as the one-shot pass evaluates
    them (`fold-constant-payloads`). The result can be
    read, edited (change one annotation to change one op) and converted by
    `--amp-apply-precision`; the two together give what
    `--amp-mixed-precision` gives. See docs/annotations.md.

    ```mlir
    // amp-opt --amp-plan-precision
    %0 = linalg.matmul {amp.precision = #amp.precision<compute = f16, accumulate = f32, output = f16>}
           ins(%a, %b : tensor<64x64xf32>, tensor<64x64xf32>)
           outs(%c : tensor<64x64xf32>) -> tensor<64x64xf32>
    ```
  }];
  let options = AmpMixedPrecisionOptions;
  let dependentDialects = ["::mlir::amp::AmpDialect"];
}

def AmpApplyPrecisionPass : Pass<"amp-apply-precision"> {
  let summary = "Convert ops as their amp.precision / amp.color annotations "
                "say, and remove the annotations";
  let description = [{
    The second half of `--amp-mixed-precision`: rewrites every annotated op
    to the precision its annotation gives (`amp.precision` with a `compute`
    type: exactly those types; `amp.color = red`: FP32), with the same casts,
    folded constants and accumulators as the one-shot pass, then removes the
    `amp.precision` and `amp.color` annotations of the function. Ops without
    an annotation are decided as `--amp-mixed-precision` would with default
    options. With `keep-io-types=false`, public signatures change as in the
    one-shot pass.
  }];
  let options = [
    Option<"targetType", "target-type", "std::string", /*default=*/"\"f16\"",
           "Low-precision type for ops without a complete annotation: f16 "
           "or bf16">,
    Option<"keepIOTypes", "keep-io-types", "bool", /*default=*/"true",
           "Keep function argument and result types (see "
           "amp-mixed-precision)">,
  ];
  let dependentDialects = [
    "::mlir::amp::AmpDialect",
    "::mlir::arith::ArithDialect",
    "::mlir::tensor::TensorDialect",
    "::mlir::tosa::TosaDialect",
  ];
}

def AmpFoldConstantPayloadsPass : Pass<"amp-fold-constant-payloads"> {
  let summary = "Evaluate the parts of linalg.generic payloads that read only "
                "constants and loop indices";
  let description = [{
    A value of a `linalg.generic` payload that reads only constant inputs
    (dense constants read through projected permutations), scalar constants
    and `linalg.index` is the same on every run: it is evaluated once, here,
    with the rounding of its own type (FP32 values as FP32 computes them),
    into a scalar constant in the payload when it does not vary, or a new
    constant input indexed by the loops it varies with. Splat inputs become
    scalars, and inputs nothing reads any more are dropped. Products by
    several constants are regrouped first (`(x * a) * b` into
    `x * (a * b)`) so that the constant factors form one value; sums are
    never reassociated (`x * s + (beta - mean * s)` cancels when the mean is
    large against the deviation). Ops with dynamic shapes are left alone.

    `--amp-mixed-precision` and `--amp-plan-precision` do this first
    (`fold-constant-payloads`, on by default): an inference batch norm as
    torch-mlir writes it is one generic whose `rsqrt` reads only the
    variance, which made the whole op red; afterwards the op is
    `(x - mean) * scale + beta`, gray, and follows the convolution before it.

    ```mlir
    // amp-opt --amp-fold-constant-payloads
    %bn = linalg.generic {indexing_maps = [#map, #c, #c, #c, #c, #map], ...}
        ins(%x, %gamma, %beta, %mean, %var : ...) outs(%x : ...) {
    ^bb0(%in: f32, %g: f32, %b: f32, %m: f32, %v: f32, %out: f32):
      %0 = arith.addf %v, %eps : f32
      %1 = math.rsqrt %0 : f32
      %2 = arith.subf %in, %m : f32
      %3 = arith.mulf %2, %1 : f32
      %4 = arith.mulf %3, %g : f32
      %5 = arith.addf %4, %b : f32
      linalg.yield %5 : f32
    }
    // becomes, with %scale = rsqrt(var + eps) * gamma computed here,
    %bn = linalg.generic {indexing_maps = [#map, #c, #c, #c, #map], ...}
        ins(%x, %beta, %mean, %scale : ...) outs(%x : ...) {
    ^bb0(%in: f32, %b: f32, %m: f32, %s: f32, %out: f32):
      %0 = arith.subf %in, %m : f32
      %1 = arith.mulf %0, %s : f32
      %2 = arith.addf %1, %b : f32
      linalg.yield %2 : f32
    }
    ```
  }];
  let options = [
    Option<"maxElements", "max-elements", "int64_t",
           /*default=*/"65536",
           "The largest new constant, in elements, beyond the elements of "
           "the constants it is computed from (a value of loop indices "
           "alone, or one that combines constants along two dimensions)">,
  ];
  let statistics = [
    Statistic<"numOps", "ops", "Generic ops whose payload was folded">,
    Statistic<"numValues", "values", "Payload values evaluated ahead of time">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

//===----------------------------------------------------------------------===//
// Benchmarking utilities
//===----------------------------------------------------------------------===//

def AmpCountLayersPass : Pass<"amp-count-layers"> {
  let summary = "Count the layers (or ops) of each kind, with their indices";
  let description = [{
    Reports how many ops of each kind the op the pass runs on (usually the
    module) holds, and lists them in program order with their index and
    location: a remark per op and a summary remark, and with `json=` a JSON
    report. `ops=` selects by op name or by layer kind (`convolution`,
    `matmul`, `pooling`, see `LayerOpInterface`); without it every op is
    counted.

    The indices are the ones `skip-layers` of `--amp-recast` and
    `--amp-convert-layout` use for the same `ops=` list: count first, then
    choose the layers to skip. The IR is not changed.

    Example:

    ```mlir
    // amp-opt --amp-count-layers=ops=convolution,matmul
    %0 = linalg.conv_2d_nchw_fchw ...  // remark: layer 0: linalg.conv_2d_nchw_fchw (convolution)
    %1 = linalg.matmul ...             // remark: layer 1: linalg.matmul (matmul)
    // remark on the module: 2 layers (ops=convolution,matmul): 1 linalg.conv_2d_nchw_fchw, 1 linalg.matmul
    ```

    The JSON report (`json=FILE`, `-` for stdout) holds the selection, the
    total, the count per op name (in order of first appearance) and the
    list of layers:

    ```json
    {"ops": ["convolution", "matmul"], "total": 2,
     "counts": {"linalg.conv_2d_nchw_fchw": 1, "linalg.matmul": 1},
     "layers": [{"index": 0, "op": "linalg.conv_2d_nchw_fchw",
                 "kind": "convolution", "function": "forward",
                 "loc": "model.mlir:12:10"}, ...]}
    ```
  }];
  let options = [
    ListOption<"ops", "ops", "std::string",
               "Op names or layer kinds (convolution, matmul, pooling) to "
               "count; every op when empty">,
    Option<"json", "json", "std::string", /*default=*/"\"\"",
           "Write a JSON report to this file ('-' for stdout)">,
    Option<"remarks", "remarks", "bool", /*default=*/"true",
           "Emit a remark for every counted op and a summary remark">,
  ];
  let statistics = [
    Statistic<"numLayers", "layers", "Ops counted">,
  ];
}

def AmpRecastPass : Pass<"amp-recast"> {
  let summary = "Force chosen layers to given input and accumulation types "
                "(benchmarking aid)";
  let description = [{
    Changes the element types of chosen layers, for benchmarking: their data
    inputs are converted to `type`, they accumulate in `accumulate-type`,
    and their results are converted back to the original type right after,
    so that the function keeps its types and the rest of the program is
    unchanged. Conversions of constants (weights, biases, fills) are folded.

    `ops=` chooses the layers by op name or layer kind (default: every
    convolution and matmul); `skip-layers=` leaves chosen ones alone, by
    their index among the chosen layers in program order (negative: from the
    end), as `--amp-count-layers` with the same `ops=` prints them.

    | `type` | default `accumulate-type` | also allowed |
    |--------|---------------------------|--------------|
    | `f16`, `bf16`, `f8E4M3FN`, `f8E5M2` | `f32` | `f16`, `bf16` |
    | `i8`, `i4` | `i32` | |

    **This is a benchmarking aid, not a quantizer.** Integer types use a
    plain conversion with no scale and no calibration: FP32 values are
    clamped to the integer range and rounded toward zero (`arith.fptosi`;
    `tosa.cast`, which rounds to nearest, for TOSA ops), and results come
    back with `arith.sitofp`. The numbers it produces are meaningless unless
    the model's values happen to be integers in range; what it gives is the
    speed of the layers with these types.

    Linalg layers accept any combination (`ins(i8, i8) outs(i32)` is a
    valid `linalg.conv_2d_nchw_fchw`); a `linalg.generic` layer can only be
    recast to float inputs with its own accumulation type. TOSA layers are
    recast only to combinations TOSA 1.0 defines (for `tosa.conv2d`: i8/i32,
    f16/f16, f16/f32, bf16/f32, f8E4M3FN/f16, f8E5M2/f16); others are an
    error.

    Example:

    ```mlir
    // amp-opt --amp-recast="type=i8"
    %0 = linalg.matmul ins(%a, %b : tensor<8x8xf32>, tensor<8x8xf32>)
                       outs(%c : tensor<8x8xf32>) -> tensor<8x8xf32>
    // becomes (clamps of %a and %b to [-128, 127] not shown)
    %a8 = arith.fptosi %a_clamped : tensor<8x8xf32> to tensor<8x8xi8>
    %b8 = arith.fptosi %b_clamped : tensor<8x8xf32> to tensor<8x8xi8>
    %c32 = arith.fptosi %c_clamped : tensor<8x8xf32> to tensor<8x8xi32>
    %1 = linalg.matmul ins(%a8, %b8 : tensor<8x8xi8>, tensor<8x8xi8>)
                       outs(%c32 : tensor<8x8xi32>) -> tensor<8x8xi32>
    %0 = arith.sitofp %1 : tensor<8x8xi32> to tensor<8x8xf32>
    ```
  }];
  let options = [
    Option<"type", "type", "std::string", /*default=*/"\"f16\"",
           "Input type of the recast layers: f16, bf16, f8E4M3FN, f8E5M2, "
           "i8 or i4">,
    Option<"accumulateType", "accumulate-type", "std::string",
           /*default=*/"\"\"",
           "Accumulation type: f32, f16 or bf16 for float types (default "
           "f32), i32 for integer types (the default)">,
    ListOption<"ops", "ops", "std::string",
               "Op names or layer kinds (convolution, matmul, pooling) to "
               "recast; default: convolution, matmul">,
    ListOption<"skipLayers", "skip-layers", "int64_t",
               "Indices of chosen layers to leave alone, in program order; "
               "negative indices count from the end">,
  ];
  let statistics = [
    Statistic<"numRecast", "recast-layers", "Layers recast">,
    Statistic<"numSkipped", "skipped-layers", "Layers left alone (skip-layers)">,
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::tensor::TensorDialect",
    "::mlir::tosa::TosaDialect",
  ];
}

def AmpConvertLayoutPass : Pass<"amp-convert-layout"> {
  let summary = "Convert NCHW convolutions and poolings to channels-last "
                "(NHWC)";
  let description = [{
    Rewrites NCHW convolutions and poolings to their channels-last forms,
    which Tensor Cores prefer:

    | NCHW op | channels-last op |
    |---------|------------------|
    | `linalg.conv_2d_nchw_fchw` | `linalg.conv_2d_nhwc_hwcf` (`filter=hwcf`) or `linalg.conv_2d_nhwc_fhwc` (`filter=fhwc`) |
    | `linalg.depthwise_conv_2d_nchw_chw` | `linalg.depthwise_conv_2d_nhwc_hwc` |
    | `linalg.pooling_nchw_sum` | `linalg.pooling_nhwc_sum` |
    | `linalg.pooling_nchw_max` | `linalg.pooling_nhwc_max` |

    Each converted layer gets `linalg.transpose` ops on its input, filter,
    init and result; then the transposes are cleaned up: transposes of
    constants (filters), `tensor.empty` and `linalg.fill` fold into new
    constants, empties and fills; a transpose back to NCHW moves down
    through the elementwise `linalg.generic` ops and `tensor.pad` ops that
    follow a layer (their indexing maps and padding are permuted); and
    inverse pairs cancel. What remains are transposes at the edges of
    converted regions: between consecutive converted layers no transpose
    pair is left. The function keeps its types.

    TOSA convolutions and poolings are channels-last already
    (`tosa.conv2d` takes NHWC inputs and OHWI, that is FHWC, weights): they
    are left as they are, and the cleanup cancels the NCHW/NHWC
    `tosa.transpose` pairs that frontends put around them, moving them
    through TOSA elementwise ops. The transposes next to a skipped TOSA
    layer are kept.

    `ops=` chooses the layers (default: every convolution and pooling;
    layers already channels-last are counted but left as they are) and
    `skip-layers=` leaves chosen ones in their original layout, by their
    index among the chosen layers in program order (negative: from the
    end), as `--amp-count-layers` with the same `ops=` prints them.

    The annotation `amp.layout_config = #amp.layout_config<...>` on a
    function or module gives the same settings for the layers in it (see
    `LayoutConfigAttr`); it takes precedence over the pass options, whose
    indices then count only the layers outside annotated scopes.

    Example:

    ```mlir
    // amp-opt --amp-convert-layout
    %0 = linalg.conv_2d_nchw_fchw ins(%x, %w : tensor<1x8x16x16xf32>, tensor<16x8x3x3xf32>)
                                  outs(%i : tensor<1x16x14x14xf32>) -> tensor<1x16x14x14xf32>
    // becomes
    %xt = linalg.transpose ins(%x : tensor<1x8x16x16xf32>) outs(%e : tensor<1x16x16x8xf32>) permutation = [0, 2, 3, 1]
    %1 = linalg.conv_2d_nhwc_hwcf ins(%xt, %w_hwcf : tensor<1x16x16x8xf32>, tensor<3x3x8x16xf32>)
                                  outs(%i_nhwc : tensor<1x14x14x16xf32>) -> tensor<1x14x14x16xf32>
    %0 = linalg.transpose ins(%1 : tensor<1x14x14x16xf32>) outs(%e2 : tensor<1x16x14x14xf32>) permutation = [0, 3, 1, 2]
    ```
  }];
  let options = [
    Option<"filterLayout", "filter", "std::string", /*default=*/"\"hwcf\"",
           "Filter layout of converted convolutions: hwcf or fhwc">,
    ListOption<"ops", "ops", "std::string",
               "Op names or layer kinds (convolution, pooling) to convert; "
               "default: convolution, pooling">,
    ListOption<"skipLayers", "skip-layers", "int64_t",
               "Indices of chosen layers to leave in their original layout, "
               "in program order; negative indices count from the end">,
    Option<"propagate", "propagate", "bool", /*default=*/"true",
           "Fold, move and cancel the transposes after converting (false "
           "leaves four transposes around every converted layer)">,
  ];
  let statistics = [
    Statistic<"numConverted", "converted-layers", "Layers converted">,
    Statistic<"numSkipped", "skipped-layers", "Layers left alone (skip-layers)">,
    Statistic<"numTransposes", "transposes",
              "Layout transposes left after the cleanup">,
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::tensor::TensorDialect",
    "::mlir::tosa::TosaDialect",
  ];
}

#endif // AMP_TRANSFORMS_PASSES_TD
