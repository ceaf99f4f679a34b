//===- AmpEnums.h - Enums of the amp dialect --------------------*- C++ -*-===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef AMP_IR_AMPENUMS_H
#define AMP_IR_AMPENUMS_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/Support/LLVM.h"

#include "amp/IR/AmpEnums.h.inc"

#endif // AMP_IR_AMPENUMS_H
