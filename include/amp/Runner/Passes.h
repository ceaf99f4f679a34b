//===- Passes.h - Passes of amp-run's CPU lowering --------------*- C++ -*-===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef AMP_RUNNER_PASSES_H
#define AMP_RUNNER_PASSES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Pass/Pass.h"

namespace mlir {
namespace amp {

#define GEN_PASS_DECL
#include "amp/Runner/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "amp/Runner/Passes.h.inc"

} // namespace amp
} // namespace mlir

#endif // AMP_RUNNER_PASSES_H
