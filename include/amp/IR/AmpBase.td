//===- AmpBase.td - The amp dialect definition -------------*- tablegen -*-===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The `amp` dialect holds the attributes through which automatic mixed
// precision is steered: colors, precisions and policies. It defines no
// operations: annotations are discardable attributes in the `amp` namespace.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_IR_AMPBASE_TD
#define AMP_IR_AMPBASE_TD

include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/DialectBase.td"

def Amp_Dialect : Dialect {
  let name = "amp";
  let cppNamespace = "::mlir::amp";
  let summary = "Automatic mixed precision: colors, precisions and policies";
  let description = [{
    The `amp` dialect carries the decisions of automatic mixed precision in
    the IR. It has no operations of its own: every annotation that amp
    understands is a *discardable attribute in the `amp` namespace*, placed
    on any operation of any dialect:

    | annotation      | value                              | meaning |
    |-----------------|------------------------------------|---------|
    | `amp.color`     | `#amp.color<green\|gray\|red>`     | forces the op's color |
    | `amp.precision` | `#amp.precision<accumulate = T, output = U>` | forces the op's accumulation and output types |
    | `amp.weights`   | `#amp.weights<"int4-g128">` (`int8`, `int4-gN[-asym]`, `e4m3`, `none`) | stores a contraction's constant weight in a low-bit format (weight-only) |
    | `amp.policy`    | any attribute implementing `PrecisionPolicyAttrInterface` | the policy used for the ops nested under this op (usually put on the module) |
    | `amp.layout_config` | `#amp.layout_config<...>` (on a function or module only) | the settings of `--amp-convert-layout` for the layers of this function or module |

    The dialect verifies these attributes wherever they appear: a value of
    the wrong kind, an unknown name in the `amp.` namespace, or a scope
    annotation on an op that cannot be a scope, is an error.

    ```mlir
    %0 = linalg.matmul {amp.color = #amp.color<red>}
           ins(%a, %b : tensor<64x64xf32>, tensor<64x64xf32>)
           outs(%c : tensor<64x64xf32>) -> tensor<64x64xf32>
    ```

    Colors follow the RFC for an automatic mixed precision pass (itself
    taken from TensorFlow's AMP lists): *green* ops are compute bound and
    almost always faster in 16 bits (matmul, convolution); *gray* ops gain
    little and follow their inputs (elementwise ops, data movement); *red*
    ops must stay in FP32 for numerical reasons (exp, log, pow, reductions).
  }];

  let useDefaultAttributePrinterParser = 1;
  let hasOperationAttrVerify = 1;

  let discardableAttrs = (ins
    "::mlir::amp::ColorAttr":$color,
    "::mlir::amp::PrecisionAttr":$precision,
    "::mlir::amp::WeightsAttr":$weights
  );

  let extraClassDeclaration = [{
    /// Attribute name of the policy annotation (`amp.policy`).
    static constexpr ::llvm::StringLiteral getPolicyAttrName() {
      return ::llvm::StringLiteral("amp.policy");
    }
    /// Attribute name of the layout scope annotation (`amp.layout_config`).
    static constexpr ::llvm::StringLiteral getLayoutConfigAttrName() {
      return ::llvm::StringLiteral("amp.layout_config");
    }

  private:
    void registerAttributes();
  public:
  }];
}

/// Base class of amp attributes.
class Amp_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<Amp_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

#endif // AMP_IR_AMPBASE_TD
