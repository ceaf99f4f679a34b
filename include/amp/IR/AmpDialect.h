//===- AmpDialect.h - The amp dialect ---------------------------*- C++ -*-===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The amp dialect: colors, precisions and policies, used as discardable
// attributes (`amp.color`, `amp.precision`, `amp.policy`) on any op.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_IR_AMPDIALECT_H
#define AMP_IR_AMPDIALECT_H

#include "amp/IR/AmpAttrs.h"
#include "mlir/IR/Dialect.h"

#include "amp/IR/AmpDialect.h.inc"

#endif // AMP_IR_AMPDIALECT_H
