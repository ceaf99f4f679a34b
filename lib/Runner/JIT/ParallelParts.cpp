//===- ParallelParts.cpp - Run a kernel on parts of its range at once -----===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "ParallelParts.h"

#include "llvm/Support/ThreadPool.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::amp::runner;

//===----------------------------------------------------------------------===//
// IR
//===----------------------------------------------------------------------===//

bool mlir::amp::runner::takesRange(LLVM::LLVMFuncOp function) {
  LLVM::LLVMFunctionType type = function.getFunctionType();
  return type.getNumParams() >= 2 && type.getParams()[0].isInteger(64) &&
         type.getParams()[1].isInteger(64) &&
         isa<LLVM::LLVMVoidType>(type.getReturnType()) && !type.isVarArg();
}

/// The struct that holds the arguments of `function` after its range.
static LLVM::LLVMStructType getPartArgumentsType(LLVM::LLVMFuncOp function) {
  return LLVM::LLVMStructType::getLiteral(
      function.getContext(),
      function.getFunctionType().getParams().drop_front(2));
}

/// The type of `<kernel>_part(ptr arguments, i64 lo, i64 hi)`.
static LLVM::LLVMFunctionType getPartType(MLIRContext *ctx) {
  Type i64 = IntegerType::get(ctx, 64);
  return LLVM::LLVMFunctionType::get(
      LLVM::LLVMVoidType::get(ctx),
      {LLVM::LLVMPointerType::get(ctx), i64, i64});
}

void mlir::amp::runner::addPartWrapper(LLVM::LLVMFuncOp kernel,
                                       StringRef partName) {
  MLIRContext *ctx = kernel.getContext();
  Location loc = kernel.getLoc();
  OpBuilder builder(ctx);
  builder.setInsertionPointAfter(kernel);
  auto wrapper =
      LLVM::LLVMFuncOp::create(builder, loc, partName, getPartType(ctx));
  Block *body = wrapper.addEntryBlock(builder);
  builder.setInsertionPointToStart(body);
  LLVM::LLVMStructType fields = getPartArgumentsType(kernel);
  SmallVector<Value> arguments = {body->getArgument(1), body->getArgument(2)};
  auto pointer = LLVM::LLVMPointerType::get(ctx);
  for (auto [i, type] : llvm::enumerate(fields.getBody())) {
    Value field =
        LLVM::GEPOp::create(builder, loc, pointer, fields, body->getArgument(0),
                            ArrayRef<LLVM::GEPArg>{0, static_cast<int32_t>(i)});
    arguments.push_back(LLVM::LoadOp::create(builder, loc, type, field));
  }
  LLVM::CallOp::create(builder, loc, kernel, arguments);
  LLVM::ReturnOp::create(builder, loc, ValueRange());
}

/// The declaration of `name` with `type` in `module`, added if missing.
static LLVM::LLVMFuncOp declareFunction(ModuleOp module, StringRef name,
                                        LLVM::LLVMFunctionType type) {
  if (auto existing = module.lookupSymbol<LLVM::LLVMFuncOp>(name))
    return existing;
  OpBuilder builder = OpBuilder::atBlockBegin(module.getBody());
  return LLVM::LLVMFuncOp::create(builder, module.getLoc(), name, type);
}

void mlir::amp::runner::callInParts(ModuleOp module, LLVM::LLVMFuncOp kernel,
                                    StringRef partName) {
  MLIRContext *ctx = module.getContext();
  SmallVector<LLVM::CallOp> calls;
  module.walk([&](LLVM::CallOp call) {
    if (call.getCallee() == kernel.getSymName())
      calls.push_back(call);
  });
  if (calls.empty())
    return;
  auto pointer = LLVM::LLVMPointerType::get(ctx);
  Type i64 = IntegerType::get(ctx, 64);
  LLVM::LLVMFuncOp part = declareFunction(module, partName, getPartType(ctx));
  LLVM::LLVMFuncOp parallelFor = declareFunction(
      module, kParallelFor,
      LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(ctx),
                                  {pointer, pointer, pointer, i64, i64}));
  auto context = module.lookupSymbol<LLVM::GlobalOp>(kParallelContext);
  if (!context) {
    OpBuilder builder = OpBuilder::atBlockBegin(module.getBody());
    context = LLVM::GlobalOp::create(
        builder, module.getLoc(), IntegerType::get(ctx, 8),
        /*isConstant=*/false, LLVM::Linkage::External, kParallelContext,
        Attribute());
  }
  LLVM::LLVMStructType fields = getPartArgumentsType(kernel);
  for (LLVM::CallOp call : calls) {
    Location loc = call.getLoc();
    // The struct in the caller's entry block, so that a call in a loop
    // does not grow the stack.
    Block &entry = call->getParentOfType<LLVM::LLVMFuncOp>().getBody().front();
    OpBuilder builder = OpBuilder::atBlockBegin(&entry);
    Value one = LLVM::ConstantOp::create(builder, loc, i64,
                                         builder.getI64IntegerAttr(1));
    Value storage =
        LLVM::AllocaOp::create(builder, loc, pointer, fields, one, 0);
    builder.setInsertionPoint(call);
    ValueRange operands = call.getArgOperands();
    for (auto [i, value] : llvm::enumerate(operands.drop_front(2))) {
      Value field = LLVM::GEPOp::create(
          builder, loc, pointer, fields, storage,
          ArrayRef<LLVM::GEPArg>{0, static_cast<int32_t>(i)});
      LLVM::StoreOp::create(builder, loc, value, field);
    }
    Value function = LLVM::AddressOfOp::create(builder, loc, part);
    Value contextAddress = LLVM::AddressOfOp::create(builder, loc, context);
    LLVM::CallOp::create(builder, loc, parallelFor,
                         ValueRange{contextAddress, function, storage,
                                    operands[0], operands[1]});
    call.erase();
  }
}

//===----------------------------------------------------------------------===//
// Runtime
//===----------------------------------------------------------------------===//

extern "C" void ampParallelFor(ParallelContext *context,
                               void (*part)(void *, int64_t, int64_t),
                               void *arguments, int64_t begin, int64_t end) {
  // A few parts per thread, so that a thread slowed by the rest of the
  // machine does not hold the others up.
  int64_t total = end - begin;
  int64_t parts = std::min<int64_t>(total, 4 * context->threads);
  if (parts <= 1) {
    part(arguments, begin, end);
    return;
  }
  auto bound = [&](int64_t p) { return begin + total * p / parts; };
  llvm::ThreadPoolTaskGroup group(*context->pool);
  for (int64_t p = 1; p < parts; ++p)
    group.async([=] { part(arguments, bound(p), bound(p + 1)); });
  part(arguments, bound(0), bound(1));
  group.wait();
}
