//===- AmpEnums.td - Enums of the amp dialect --------------*- tablegen -*-===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef AMP_IR_AMPENUMS_TD
#define AMP_IR_AMPENUMS_TD

include "mlir/IR/EnumAttr.td"
include "amp/IR/AmpBase.td"

//===----------------------------------------------------------------------===//
// Color
//===----------------------------------------------------------------------===//

def Amp_ColorGreen : I32EnumAttrCase<"green", 0>;
def Amp_ColorGray : I32EnumAttrCase<"gray", 1>;
def Amp_ColorRed : I32EnumAttrCase<"red", 2>;

def Amp_Color : I32EnumAttr<"Color",
    "how an operation takes part in mixed precision",
    [Amp_ColorGreen, Amp_ColorGray, Amp_ColorRed]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::amp";
}

def Amp_ColorAttr : EnumAttr<Amp_Dialect, Amp_Color, "color"> {
  let summary = "The mixed-precision color of an operation";
  let description = [{
    * `green`: compute bound, almost always faster in 16 bits. Float data
      inputs are cast to the target type; the op accumulates in the
      accumulation type and its result is cast to the output type.
    * `gray`: little to gain. Runs in the target type when all its float
      data inputs already are, otherwise in FP32.
    * `red`: numerically risky. Stays in FP32; inputs that arrive in low
      precision are cast up.

    ```mlir
    %e = math.exp %x {amp.color = #amp.color<red>} : f32
    ```
  }];
  let assemblyFormat = ?;
  let hasCustomAssemblyFormat = 1;
}

//===----------------------------------------------------------------------===//
// Decision reasons
//===----------------------------------------------------------------------===//

def Amp_ReasonDefaultList : I32EnumAttrCase<"DefaultList", 0, "default list">;
def Amp_ReasonUserList : I32EnumAttrCase<"UserList", 1, "user list">;
def Amp_ReasonAnnotation : I32EnumAttrCase<"Annotation", 2, "annotation">;
def Amp_ReasonFollowsInputs : I32EnumAttrCase<"FollowsInputs", 3,
    "follows inputs">;
def Amp_ReasonSkipLayers : I32EnumAttrCase<"SkipLayers", 4, "skip-layers">;
def Amp_ReasonBelowThreshold : I32EnumAttrCase<"BelowThreshold", 5,
    "below threshold">;
def Amp_ReasonConstantOutOfRange : I32EnumAttrCase<"ConstantOutOfRange", 6,
    "constant out of range">;
def Amp_ReasonUnknownOp : I32EnumAttrCase<"UnknownOp", 7, "unknown op">;
def Amp_ReasonPolicy : I32EnumAttrCase<"Policy", 8, "policy">;
def Amp_ReasonUnsupportedTypes : I32EnumAttrCase<"UnsupportedTypes", 9,
    "unsupported types">;

def Amp_ReasonValueOutOfRange : I32EnumAttrCase<"ValueOutOfRange", 10,
    "value out of range">;
def Amp_ReasonIntegerNotExact : I32EnumAttrCase<"IntegerNotExact", 11,
    "integer not exact">;
def Amp_ReasonObservedRange : I32EnumAttrCase<"ObservedRange", 12,
    "observed range">;
def Amp_ReasonNarrowedAfterNormalization
    : I32EnumAttrCase<"NarrowedAfterNormalization", 13,
                      "narrowed after normalization">;

def Amp_ReasonNoFP8Scale : I32EnumAttrCase<"NoFP8Scale", 14, "no fp8 scale">;
def Amp_ReasonNoFP8Form : I32EnumAttrCase<"NoFP8Form", 15, "no fp8 form">;
def Amp_ReasonFP8BelowThreshold : I32EnumAttrCase<"FP8BelowThreshold", 16,
    "fp8 below threshold">;

def Amp_ReasonNoWeightOnlyForm : I32EnumAttrCase<"NoWeightOnlyForm", 17,
    "no weight-only form">;

def Amp_Reason : I32EnumAttr<"Reason",
    "why an operation received its color or precision",
    [Amp_ReasonDefaultList, Amp_ReasonUserList, Amp_ReasonAnnotation,
     Amp_ReasonFollowsInputs, Amp_ReasonSkipLayers, Amp_ReasonBelowThreshold,
     Amp_ReasonConstantOutOfRange, Amp_ReasonUnknownOp, Amp_ReasonPolicy,
     Amp_ReasonUnsupportedTypes, Amp_ReasonValueOutOfRange,
     Amp_ReasonIntegerNotExact, Amp_ReasonObservedRange,
     Amp_ReasonNarrowedAfterNormalization, Amp_ReasonNoFP8Scale,
     Amp_ReasonNoFP8Form, Amp_ReasonFP8BelowThreshold,
     Amp_ReasonNoWeightOnlyForm]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::amp";
}

//===----------------------------------------------------------------------===//
// Layer kinds
//===----------------------------------------------------------------------===//

def Amp_LayerKindConvolution : I32EnumAttrCase<"convolution", 0>;
def Amp_LayerKindMatmul : I32EnumAttrCase<"matmul", 1>;
def Amp_LayerKindPooling : I32EnumAttrCase<"pooling", 2>;

def Amp_LayerKind : I32EnumAttr<"LayerKind",
    "the kind of layer an operation is (LayerOpInterface)",
    [Amp_LayerKindConvolution, Amp_LayerKindMatmul, Amp_LayerKindPooling]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::amp";
}

//===----------------------------------------------------------------------===//
// Filter layouts
//===----------------------------------------------------------------------===//

def Amp_FilterLayoutHWCF : I32EnumAttrCase<"hwcf", 0>;
def Amp_FilterLayoutFHWC : I32EnumAttrCase<"fhwc", 1>;

def Amp_FilterLayout : I32EnumAttr<"FilterLayout",
    "the filter layout of a channels-last convolution",
    [Amp_FilterLayoutHWCF, Amp_FilterLayoutFHWC]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::amp";
}

#endif // AMP_IR_AMPENUMS_TD
