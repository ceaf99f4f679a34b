//===- AmpAttrs.td - Attributes of the amp dialect ---------*- tablegen -*-===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef AMP_IR_AMPATTRS_TD
#define AMP_IR_AMPATTRS_TD

include "amp/IR/AmpBase.td"
include "amp/IR/AmpEnums.td"
include "amp/IR/AmpInterfaces.td"

//===----------------------------------------------------------------------===//
// PrecisionAttr
//===----------------------------------------------------------------------===//

def Amp_PrecisionAttr : Amp_Attr<"Precision", "precision"> {
  let summary = "Accumulation and output element types of an operation";
  let description = [{
    The element type an operation accumulates in and the element type of
    its result. `f16 x f16 -> conv (accumulate f32) -> cast to f16` is
    `#amp.precision<accumulate = f32, output = f16>`. When both are equal,
    no cast follows the op.

    Used as the answer of a policy (`PrecisionPolicyAttrInterface`) and as
    the per-op annotation `amp.precision`, which overrides the policy:

    ```mlir
    %0 = linalg.matmul {amp.precision = #amp.precision<accumulate = f32, output = f32>}
           ins(%a, %b : tensor<64x64xf32>, tensor<64x64xf32>)
           outs(%c : tensor<64x64xf32>) -> tensor<64x64xf32>
    ```

    Both types must be floating-point types.

    An optional `compute` type fixes the type the op's inputs are read in
    (default: the conversion's target type). `f8E4M3FN` or `f8E5M2` runs a
    contraction in FP8 with f32 accumulation when its operands have scales
    (docs/fp8.md), and in the 16-bit target type otherwise. `--amp-plan-precision` writes
    it on every op it runs in 16 bits, so that an annotated module says
    everything `--amp-apply-precision` needs, also for ops that run in the
    overflow type (`#amp.precision<compute = bf16, accumulate = bf16,
    output = bf16>` in an f16 conversion).
  }];
  let parameters = (ins "::mlir::Type":$accumulate, "::mlir::Type":$output,
                        OptionalParameter<"::mlir::Type">:$compute);
  let builders = [
    AttrBuilder<(ins "::mlir::Type":$accumulate, "::mlir::Type":$output), [{
      return $_get($_ctxt, accumulate, output, ::mlir::Type());
    }]>
  ];
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The compute type as a float type, or null if not given.
    ::mlir::FloatType getComputeFloatType() const {
      return ::llvm::cast_or_null<::mlir::FloatType>(getCompute());
    }
    /// The accumulation type as a float type.
    ::mlir::FloatType getAccumulateFloatType() const {
      return ::llvm::cast<::mlir::FloatType>(getAccumulate());
    }
    /// The output type as a float type.
    ::mlir::FloatType getOutputFloatType() const {
      return ::llvm::cast<::mlir::FloatType>(getOutput());
    }
  }];
}

//===----------------------------------------------------------------------===//
// DefaultPolicyAttr
//===----------------------------------------------------------------------===//

def Amp_DefaultPolicyAttr : Amp_Attr<"DefaultPolicy", "default_policy",
    [DeclareAttrInterfaceMethods<PrecisionPolicyAttrInterface>]> {
  let summary = "The default mixed-precision policy";
  let description = [{
    Colors every op by the default lists (see the pass documentation and
    `MixedPrecisionOpInterface::getDefaultColor`), and gives ops with a
    separate accumulator (matmul, convolution) the accumulation type
    `accumulate` (default `f32`) and the output type `output` (default: the
    target type). Other ops compute and output in the target type.

    `min_macs` is the RFC's "a conv is green only if it is big enough": a
    green op that performs fewer multiply-accumulates than `min_macs` (when
    that number is known statically) is treated as gray.

    ```mlir
    module attributes {amp.policy = #amp.default_policy<accumulate = f32, min_macs = 65536>} {}
    ```
  }];
  let parameters = (ins
    OptionalParameter<"::mlir::Type",
        "accumulation type of ops with a separate accumulator">:$accumulate,
    OptionalParameter<"::mlir::Type",
        "output type of ops with a separate accumulator">:$output,
    DefaultValuedParameter<"int64_t", "0",
        "green ops with fewer MACs are gray">:$min_macs
  );
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

//===----------------------------------------------------------------------===//
// LayoutConfigAttr
//===----------------------------------------------------------------------===//

def Amp_LayoutConfigAttr : Amp_Attr<"LayoutConfig", "layout_config"> {
  let summary = "Settings of the channels-last layout conversion for a scope";
  let description = [{
    Gives `--amp-convert-layout` its settings for the layers of one function
    or module, through the annotation `amp.layout_config` on that function
    or module. The parameters mean what the pass options of the same names
    mean, and all are optional:

    * `filter`: the filter layout of converted convolutions, `hwcf`
      (`linalg.conv_2d_nhwc_hwcf`, the default) or `fhwc`
      (`linalg.conv_2d_nhwc_fhwc`);
    * `skip_layers`: indices of the layers left in their original layout;
      they count the layers selected by `ops` in this scope, in program
      order, and negative indices count from the end (`-1` is the last);
    * `ops`: the layers to convert, as op names (`linalg.pooling_nchw_max`)
      or layer kinds (`convolution`, `pooling`); the default is
      `["convolution", "pooling"]`, and `[]` converts nothing.

    A layer follows the nearest enclosing `amp.layout_config`; layers
    outside any annotated scope follow the pass options. Indices of a scope
    count only the layers that follow it.

    ```mlir
    module attributes {amp.layout_config = #amp.layout_config<filter = fhwc, skip_layers = [0, -1]>} {
      // Leave this function in NCHW.
      func.func @reference(%x: tensor<1x3x8x8xf32>) -> tensor<1x3x8x8xf32>
          attributes {amp.layout_config = #amp.layout_config<ops = []>} {
        return %x : tensor<1x3x8x8xf32>
      }
    }
    ```
  }];
  let parameters = (ins
    DefaultValuedParameter<"::mlir::amp::FilterLayout",
        "::mlir::amp::FilterLayout::hwcf",
        "filter layout of converted convolutions">:$filter,
    OptionalArrayRefParameter<"int64_t",
        "indices of the layers left alone">:$skip_layers,
    OptionalParameter<"::mlir::ArrayAttr",
        "op names or layer kinds to convert">:$ops
  );
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

//===----------------------------------------------------------------------===//
// WeightsAttr
//===----------------------------------------------------------------------===//

def Amp_WeightsAttr : Amp_Attr<"Weights", "weights"> {
  let summary = "The weight-only format of a contraction";
  let description = [{
    Stores the constant weight of a contraction (a matmul's B, a
    convolution's filter) in a low-bit format, dequantized as the
    contraction reads it; the activations stay in the 16-bit type and the
    contraction accumulates in f32 (docs/weight-only.md). The annotation
    `amp.weights` on a contraction sets its format, as `weight-only=` of
    `--amp-mixed-precision` sets that of every contraction with a constant
    weight:

    * `"int8"`: 8-bit integers, one f32 scale per output channel;
    * `"int4-g32"`, `"int4-g64"`, `"int4-g128"`: 4-bit integers (two per
      byte), one f16 scale per group of 32, 64 or 128 consecutive
      elements along the reduction; `-asym` (`"int4-g128-asym"`) adds a
      zero point per group;
    * `"e4m3"`: FP8 E4M3 values, one f32 scale per output channel;
    * `"none"`: the weight stays as the contraction's precision says.

    Scales come from the weights by round-to-nearest; no samples are
    needed. An op the plan keeps in FP32 keeps its weights as they are.

    ```mlir
    %y = linalg.matmul {amp.weights = #amp.weights<"int4-g128">}
           ins(%x, %w : tensor<1x4096xf32>, tensor<4096x4096xf32>)
           outs(%acc : tensor<1x4096xf32>) -> tensor<1x4096xf32>
    ```
  }];
  let parameters = (ins StringRefParameter<"the format's name">:$format);
  let assemblyFormat = "`<` $format `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The format, or std::nullopt for "none".
    std::optional<::mlir::amp::WeightQuantSpec> getSpec() const;
  }];
}

#endif // AMP_IR_AMPATTRS_TD
