//===- AmpTestDialect.td - A user policy defined outside amp -*- tablegen -*-===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The `amp_test` dialect shows how a user brings a precision policy of their
// own: an attribute, in the user's dialect, that implements
// PrecisionPolicyAttrInterface. It is linked into amp-opt for the tests only.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_TEST_DIALECT_TD
#define AMP_TEST_DIALECT_TD

include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/DialectBase.td"
include "amp/IR/AmpInterfaces.td"

def AmpTest_Dialect : Dialect {
  let name = "amp_test";
  let cppNamespace = "::mlir::amp::test";
  let summary = "Test dialect with a user-defined precision policy";
  let useDefaultAttributePrinterParser = 1;
}

def AmpTest_ConvMacThresholdPolicyAttr
    : AttrDef<AmpTest_Dialect, "ConvMacThresholdPolicy",
              [DeclareAttrInterfaceMethods<PrecisionPolicyAttrInterface>]> {
  let mnemonic = "conv_mac_threshold";
  let summary = "Convolutions are green only above a MAC count";
  let description = [{
    Follows the default lists, except that a convolution (linalg or TOSA)
    performing fewer than `min_macs` multiply-accumulates is gray.

    ```mlir
    module attributes {amp.policy = #amp_test.conv_mac_threshold<1000000>} {}
    ```
  }];
  let parameters = (ins "int64_t":$minMacs);
  let assemblyFormat = "`<` $minMacs `>`";
}

#endif // AMP_TEST_DIALECT_TD
