//===- JitFunction.cpp - Call a JIT-compiled function on tensors ----------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The calling convention is that of convert-func-to-llvm without the C
// interface: a memref argument becomes 3 + 2 * rank scalar arguments, and the
// results are returned as one struct of descriptors, all of whose fields are
// 8 bytes wide, so that they can be read as an array of int64_t.
//
//===----------------------------------------------------------------------===//

#include "amp/Runner/JitFunction.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/Target/TargetMachine.h"

#include <chrono>
#include <cstdlib>
#include <cstring>

using namespace mlir;
using namespace mlir::amp::runner;

/// The allocated pointer memref.get_global puts in the descriptors of
/// constant buffers: not a heap allocation.
static constexpr uintptr_t kGlobalMarker = 0xdeadbeef;

FunctionSignature mlir::amp::runner::getFunctionSignature(func::FuncOp fn) {
  auto convert = [](Type type) {
    auto tensorType = cast<RankedTensorType>(type);
    return TensorSignature{*getElementKind(tensorType.getElementType()),
                           SmallVector<int64_t, 4>(tensorType.getShape())};
  };
  FunctionSignature signature;
  for (Type type : fn.getArgumentTypes())
    signature.arguments.push_back(convert(type));
  for (Type type : fn.getResultTypes())
    signature.results.push_back(convert(type));
  return signature;
}

JitFunction::JitFunction(std::unique_ptr<ExecutionEngine> engine,
                         std::shared_ptr<void> code, void (*packedFn)(void **),
                         FunctionSignature signature, bool reentrant)
    : engine(std::move(engine)), code(std::move(code)), packedFn(packedFn),
      signature(std::move(signature)), reentrant(reentrant) {}

JitFunction::~JitFunction() = default;

std::unique_ptr<JitFunction> JitFunction::fromCode(void (*packedFn)(void **),
                                                   FunctionSignature signature,
                                                   std::shared_ptr<void> code,
                                                   bool reentrant) {
  return std::unique_ptr<JitFunction>(new JitFunction(
      nullptr, std::move(code), packedFn, std::move(signature), reentrant));
}

llvm::Expected<std::unique_ptr<JitFunction>>
JitFunction::create(ModuleOp module, StringRef name,
                    FunctionSignature signature, ArrayRef<StringRef> sharedLibs,
                    unsigned optLevel,
                    ArrayRef<std::pair<std::string, void *>> symbols) {
  llvm::CodeGenOptLevel codeGenLevel =
      optLevel == 0   ? llvm::CodeGenOptLevel::None
      : optLevel == 1 ? llvm::CodeGenOptLevel::Less
      : optLevel == 2 ? llvm::CodeGenOptLevel::Default
                      : llvm::CodeGenOptLevel::Aggressive;
  auto builder = llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!builder)
    return builder.takeError();
  builder->setCodeGenOptLevel(codeGenLevel);
  auto targetMachine = builder->createTargetMachine();
  if (!targetMachine)
    return targetMachine.takeError();

  auto transformer = makeOptimizingTransformer(
      std::min(optLevel, 3u), /*sizeLevel=*/0, targetMachine->get());
  ExecutionEngineOptions options;
  options.transformer = transformer;
  options.jitCodeGenOptLevel = codeGenLevel;
  options.sharedLibPaths = sharedLibs;
  auto engine =
      ExecutionEngine::create(module, options, std::move(*targetMachine));
  if (!engine)
    return engine.takeError();
  if (!symbols.empty())
    (*engine)->registerSymbols([&](llvm::orc::MangleAndInterner interner) {
      llvm::orc::SymbolMap map;
      for (const auto &[symbolName, address] : symbols)
        map[interner(symbolName)] = {llvm::orc::ExecutorAddr::fromPtr(address),
                                     llvm::JITSymbolFlags::Exported};
      return map;
    });
  // The lookup compiles the module, so that the first run is not slower.
  auto packedFn = (*engine)->lookupPacked(name);
  if (!packedFn)
    return packedFn.takeError();
  bool reentrant =
      llvm::all_of(module.getOps<LLVM::GlobalOp>(),
                   [](LLVM::GlobalOp g) { return g.getConstant(); });
  return std::unique_ptr<JitFunction>(new JitFunction(
      std::move(*engine), nullptr, *packedFn, std::move(signature), reentrant));
}

/// Copies the memref described by `words` (allocated, aligned, offset,
/// sizes, strides) into a new dense tensor of `kind`.
static HostTensor readDescriptor(ElementKind kind, const int64_t *words,
                                 int64_t rank) {
  const auto *aligned = reinterpret_cast<const char *>(words[1]);
  int64_t offset = words[2];
  ArrayRef<int64_t> sizes(words + 3, rank), strides(words + 3 + rank, rank);
  HostTensor tensor(kind, sizes);
  int64_t elementSize = getElementByteSize(kind);
  const char *base = aligned + offset * elementSize;

  // Row-major strides: one copy.
  int64_t expected = 1;
  bool dense = true;
  for (int64_t d = rank - 1; d >= 0; --d) {
    if (sizes[d] != 1 && strides[d] != expected)
      dense = false;
    expected *= sizes[d];
  }
  if (dense) {
    std::memcpy(tensor.getData(), base, tensor.getByteSize());
    return tensor;
  }
  // Any other layout: element by element, odometer over the indices.
  SmallVector<int64_t, 4> index(rank, 0);
  char *out = static_cast<char *>(tensor.getData());
  for (int64_t i = 0, e = tensor.getNumElements(); i < e; ++i) {
    int64_t position = 0;
    for (int64_t d = 0; d < rank; ++d)
      position += index[d] * strides[d];
    std::memcpy(out + i * elementSize, base + position * elementSize,
                elementSize);
    for (int64_t d = rank - 1; d >= 0; --d) {
      if (++index[d] < sizes[d])
        break;
      index[d] = 0;
    }
  }
  return tensor;
}

llvm::Expected<RunResult> JitFunction::run(ArrayRef<HostTensor> inputs) {
  if (inputs.size() != signature.arguments.size())
    return llvm::createStringError(
        "expected " + std::to_string(signature.arguments.size()) +
        " inputs, got " + std::to_string(inputs.size()));

  // Fresh copies of the inputs and their descriptors.
  std::vector<HostTensor> arguments;
  SmallVector<int64_t> argumentWords;
  for (auto [input, expected] : llvm::zip_equal(inputs, signature.arguments)) {
    if (input.getKind() != expected.kind ||
        input.getShape() != ArrayRef<int64_t>(expected.shape))
      return llvm::createStringError(
          "input of type " + formatShape(input.getShape()) + "x" +
          stringifyElementKind(input.getKind()).str() + " given for " +
          formatShape(expected.shape) + "x" +
          stringifyElementKind(expected.kind).str());
    arguments.push_back(input.clone());
    auto data = reinterpret_cast<int64_t>(arguments.back().getData());
    argumentWords.append({data, data, /*offset=*/0});
    llvm::ArrayRef<int64_t> shape = input.getShape();
    argumentWords.append(shape.begin(), shape.end());
    int64_t stride = 1;
    SmallVector<int64_t, 4> strides(shape.size());
    for (int64_t d = static_cast<int64_t>(shape.size()) - 1; d >= 0; --d) {
      strides[d] = stride;
      stride *= shape[d];
    }
    argumentWords.append(strides.begin(), strides.end());
  }

  size_t numResultWords = 0;
  for (const TensorSignature &result : signature.results)
    numResultWords += 3 + 2 * result.shape.size();
  SmallVector<int64_t> resultWords(numResultWords, 0);

  SmallVector<void *> packedArgs;
  for (int64_t &word : argumentWords)
    packedArgs.push_back(&word);
  packedArgs.push_back(resultWords.data());

  auto start = std::chrono::steady_clock::now();
  packedFn(packedArgs.data());
  auto end = std::chrono::steady_clock::now();

  RunResult result;
  result.milliseconds =
      std::chrono::duration<double, std::milli>(end - start).count();
  // Read every output before freeing anything: results may share a buffer.
  const int64_t *words = resultWords.data();
  SmallVector<uintptr_t> allocations;
  for (const TensorSignature &output : signature.results) {
    int64_t rank = output.shape.size();
    result.outputs.push_back(readDescriptor(output.kind, words, rank));
    allocations.push_back(static_cast<uintptr_t>(words[0]));
    words += 3 + 2 * rank;
  }
  llvm::DenseSet<uintptr_t> notOwned;
  notOwned.insert(kGlobalMarker);
  for (HostTensor &argument : arguments)
    notOwned.insert(reinterpret_cast<uintptr_t>(argument.getData()));
  for (uintptr_t allocated : allocations)
    if (allocated && notOwned.insert(allocated).second)
      std::free(reinterpret_cast<void *>(allocated));
  return result;
}
