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
  }];
  let parameters = (ins "::mlir::Type":$accumulate, "::mlir::Type":$output);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
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

#endif // AMP_IR_AMPATTRS_TD
