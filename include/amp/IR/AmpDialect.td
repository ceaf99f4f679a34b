//===- AmpDialect.td - Everything the amp dialect declares -*- tablegen -*-===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Top-level file of the dialect: the dialect reference page is generated from
// it.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_IR_AMPDIALECT_TD
#define AMP_IR_AMPDIALECT_TD

include "amp/IR/AmpBase.td"
include "amp/IR/AmpEnums.td"
include "amp/IR/AmpAttrs.td"

#endif // AMP_IR_AMPDIALECT_TD
