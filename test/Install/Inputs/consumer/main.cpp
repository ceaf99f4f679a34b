//===- main.cpp - A pipeline of another project that uses amp ------------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Builds its own pass pipeline with amp's pass (created directly, not parsed)
// and runs it on a small module.
//
//===----------------------------------------------------------------------===//

#include "amp/InitAmp.h"
#include "amp/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/raw_ostream.h"

static const char *kModule = R"mlir(
func.func @f(%a: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %m = linalg.matmul ins(%a, %a : tensor<8x8xf32>, tensor<8x8xf32>)
                     outs(%a : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %m : tensor<8x8xf32>
}
)mlir";

int main() {
  mlir::DialectRegistry registry;
  registry.insert<mlir::arith::ArithDialect, mlir::func::FuncDialect,
                  mlir::linalg::LinalgDialect, mlir::tensor::TensorDialect>();
  mlir::amp::registerAmpDialects(registry);
  mlir::MLIRContext context(registry);

  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceString<mlir::ModuleOp>(kModule, &context);
  if (!module)
    return 1;

  mlir::PassManager pm(&context);
  mlir::amp::AmpMixedPrecisionPassOptions options;
  options.targetType = "bf16";
  pm.addPass(mlir::amp::createAmpMixedPrecisionPass(options));
  if (mlir::failed(pm.run(*module)))
    return 2;
  module->print(llvm::outs());
  return 0;
}
