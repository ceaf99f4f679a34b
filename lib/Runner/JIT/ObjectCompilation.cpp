//===- ObjectCompilation.cpp - LLVM IR to object files, in parallel -------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "ObjectCompilation.h"

#include "mlir/ExecutionEngine/OptUtils.h"
#include "llvm/ExecutionEngine/Orc/CompileUtils.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Target/TargetMachine.h"

#include "mlir/Support/LLVM.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::amp::runner;

static llvm::CodeGenOptLevel getCodeGenLevel(unsigned optLevel) {
  switch (optLevel) {
  case 0:
    return llvm::CodeGenOptLevel::None;
  case 1:
    return llvm::CodeGenOptLevel::Less;
  case 2:
    return llvm::CodeGenOptLevel::Default;
  default:
    return llvm::CodeGenOptLevel::Aggressive;
  }
}

/// Optimizes and compiles `job` (runs on a pool thread: everything it
/// touches is its own).
static void compile(CompileJob &job,
                    const llvm::orc::JITTargetMachineBuilder &target) {
  llvm::orc::JITTargetMachineBuilder builder = target;
  builder.setCodeGenOptLevel(getCodeGenLevel(job.optLevel));
  auto machine = builder.createTargetMachine();
  if (!machine) {
    job.error = llvm::toString(machine.takeError());
    return;
  }
  llvm::Module &module = *job.module;
  module.setDataLayout((*machine)->createDataLayout());
  module.setTargetTriple((*machine)->getTargetTriple());
  auto optimize = makeOptimizingTransformer(std::min(job.optLevel, 3u),
                                            /*sizeLevel=*/0, machine->get());
  if (llvm::Error error = optimize(&module)) {
    job.error = llvm::toString(std::move(error));
    return;
  }
  llvm::orc::SimpleCompiler compiler(**machine);
  auto object = compiler(module);
  if (!object) {
    job.error = llvm::toString(object.takeError());
    return;
  }
  job.object = std::move(*object);
  // The IR is not needed any more.
  job.module.reset();
  job.context.reset();
}

void mlir::amp::runner::runCompileJobs(
    llvm::MutableArrayRef<CompileJob *> jobs,
    const llvm::orc::JITTargetMachineBuilder &target,
    llvm::ThreadPoolInterface &pool) {
  // The largest first, so that the last to finish are small.
  SmallVector<std::pair<size_t, CompileJob *>> bySize;
  for (CompileJob *job : jobs) {
    size_t size = 0;
    for (llvm::Function &function : *job->module)
      size += function.getInstructionCount();
    bySize.push_back({size, job});
  }
  llvm::stable_sort(
      bySize, [](const auto &a, const auto &b) { return a.first > b.first; });
  if (bySize.size() == 1 || pool.getMaxConcurrency() == 1) {
    for (auto &[size, job] : bySize)
      compile(*job, target);
    return;
  }
  llvm::ThreadPoolTaskGroup group(pool);
  for (auto &entry : bySize) {
    CompileJob *job = entry.second;
    group.async([job, &target] { compile(*job, target); });
  }
  group.wait();
}

void mlir::amp::runner::addPackedWrapper(llvm::Module &module,
                                         llvm::Function &function) {
  llvm::LLVMContext &context = module.getContext();
  llvm::IRBuilder<> builder(context);
  auto *type = llvm::FunctionType::get(builder.getVoidTy(), builder.getPtrTy(),
                                       /*isVarArg=*/false);
  auto *wrapper =
      llvm::Function::Create(type, llvm::GlobalValue::ExternalLinkage,
                             "_mlir_" + function.getName(), module);
  builder.SetInsertPoint(llvm::BasicBlock::Create(context, "entry", wrapper));
  llvm::Value *pointers = wrapper->getArg(0);
  SmallVector<llvm::Value *> arguments;
  for (llvm::Argument &argument : function.args()) {
    llvm::Value *slot = builder.CreateConstGEP1_64(builder.getPtrTy(), pointers,
                                                   argument.getArgNo());
    llvm::Value *address = builder.CreateLoad(builder.getPtrTy(), slot);
    arguments.push_back(builder.CreateLoad(argument.getType(), address));
  }
  llvm::Value *result = builder.CreateCall(&function, arguments);
  if (!result->getType()->isVoidTy()) {
    llvm::Value *slot = builder.CreateConstGEP1_64(builder.getPtrTy(), pointers,
                                                   function.arg_size());
    builder.CreateStore(result, builder.CreateLoad(builder.getPtrTy(), slot));
  }
  builder.CreateRetVoid();
}
