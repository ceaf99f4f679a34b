//===- AmpAttrs.h - Attributes of the amp dialect ---------------*- C++ -*-===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef AMP_IR_AMPATTRS_H
#define AMP_IR_AMPATTRS_H

#include "amp/IR/AmpEnums.h"
#include "amp/IR/AmpInterfaces.h"
#include "amp/Utils/WeightQuantization.h"
#include "mlir/IR/Attributes.h"
#include "mlir/IR/BuiltinAttributes.h"

#define GET_ATTRDEF_CLASSES
#include "amp/IR/AmpAttrs.h.inc"

#endif // AMP_IR_AMPATTRS_H
