//===- Passes.td - amp transformation passes ---------------*- tablegen -*-===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef AMP_TRANSFORMS_PASSES_TD
#define AMP_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

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
      pooling, data movement) run in `target-type` when all their float data
      inputs already are; among those, ops whose results are only needed in
      FP32 stay in FP32 when that saves casts.

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
  let options = [
    Option<"targetType", "target-type", "std::string", /*default=*/"\"f16\"",
           "Low-precision type of converted ops: f16 or bf16">,
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
    Option<"grayStrategy", "gray-strategy", "std::string",
           /*default=*/"\"fewest-casts\"",
           "How gray ops are decided: fewest-casts (a gray op whose inputs "
           "are low runs low unless staying in FP32 saves casts) or follow "
           "(every gray op whose inputs are low runs low, as TVM does)">,
    Option<"unknownOps", "unknown-ops", "std::string", /*default=*/"\"red\"",
           "How to treat ops without a color: red (stay FP32, with a "
           "remark), gray (follow inputs) or error">,
    Option<"clampConstants", "clamp-constants", "bool", /*default=*/"false",
           "Clamp constants that do not fit the target type to its finite "
           "range instead of keeping their consumers in FP32">,
    Option<"policy", "policy", "std::string", /*default=*/"\"\"",
           "Policy attribute (e.g. '#amp.default_policy<min_macs = 1000>'); "
           "overrides amp.policy on the module">,
    Option<"report", "report", "std::string", /*default=*/"\"\"",
           "Write a JSON report of every decision to this file ('-' for "
           "stdout)">,
    Option<"remarks", "remarks", "bool", /*default=*/"false",
           "Emit a remark with the decision for every converted or kept op">,
  ];
  let statistics = [
    Statistic<"numGreen", "green-ops", "Ops converted as green">,
    Statistic<"numGrayLow", "gray-ops-low", "Gray ops run in the target type">,
    Statistic<"numGrayHigh", "gray-ops-fp32", "Gray ops kept in FP32">,
    Statistic<"numRed", "red-ops", "Ops kept in FP32 as red">,
    Statistic<"numUnknown", "unknown-ops", "Ops without a color">,
    Statistic<"numCasts", "casts", "Casts inserted">,
    Statistic<"numFoldedConstants", "folded-constants",
              "Constants folded into the target type">,
  ];
  let dependentDialects = [
    "::mlir::amp::AmpDialect",
    "::mlir::arith::ArithDialect",
    "::mlir::tensor::TensorDialect",
    "::mlir::tosa::TosaDialect",
  ];
}

#endif // AMP_TRANSFORMS_PASSES_TD
