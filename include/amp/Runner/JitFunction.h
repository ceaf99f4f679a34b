//===- JitFunction.h - Call a JIT-compiled function on tensors --*- C++ -*-===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Compiles a module in the LLVM dialect with MLIR's ExecutionEngine (ORC JIT,
// host CPU) and calls one of its functions through the packed wrapper
// the engine generates: every tensor argument is passed as the expanded
// memref descriptor (allocated and aligned pointers, offset, sizes, strides),
// the results come back as descriptors of buffers the callee allocated,
// which are copied into host tensors and freed.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_RUNNER_JITFUNCTION_H
#define AMP_RUNNER_JITFUNCTION_H

#include "amp/Runner/HostTensor.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace mlir {
class ExecutionEngine;

namespace amp {
namespace runner {

/// The type of one argument or result: its element kind and shape (results
/// may have dynamic dimensions, read at run time).
struct TensorSignature {
  ElementKind kind;
  SmallVector<int64_t, 4> shape;
};

/// The signature of a function on ranked tensors.
struct FunctionSignature {
  std::vector<TensorSignature> arguments, results;
};

/// Reads the signature of `fn`, which verifyRunnableSignature accepted.
FunctionSignature getFunctionSignature(func::FuncOp fn);

/// The outputs of one call and the time it took.
struct RunResult {
  std::vector<HostTensor> outputs;
  double milliseconds = 0.0;
};

/// A function compiled for the host CPU.
class JitFunction {
public:
  ~JitFunction();

  /// Compiles `module`, already lowered to the LLVM dialect, at LLVM
  /// optimization level `optLevel` (0-3) and looks up `name`, whose
  /// tensor-level signature was `signature`. `sharedLibs` are loaded for the
  /// symbols the code calls (the MLIR C runner utilities); `symbols` name
  /// functions of this process the code calls (amp-run's probes).
  static llvm::Expected<std::unique_ptr<JitFunction>>
  create(ModuleOp module, StringRef name, FunctionSignature signature,
         ArrayRef<StringRef> sharedLibs, unsigned optLevel,
         ArrayRef<std::pair<std::string, void *>> symbols = {});

  /// The function whose packed wrapper (`_mlir_<name>`, see create) is at
  /// `packedFn`, in code that `code` keeps alive (amp-tune's kernel cache).
  /// `reentrant`: the code writes no global, so calls may run at once.
  static std::unique_ptr<JitFunction> fromCode(void (*packedFn)(void **),
                                               FunctionSignature signature,
                                               std::shared_ptr<void> code,
                                               bool reentrant);

  /// Calls the function on copies of `inputs` (the callee may write to its
  /// arguments) and returns its outputs and the time of the call alone.
  /// Calls of a reentrant function may run on several threads at once.
  llvm::Expected<RunResult> run(ArrayRef<HostTensor> inputs);

  const FunctionSignature &getSignature() const { return signature; }
  bool isReentrant() const { return reentrant; }

private:
  JitFunction(std::unique_ptr<ExecutionEngine> engine,
              std::shared_ptr<void> code, void (*packedFn)(void **),
              FunctionSignature signature, bool reentrant);

  std::unique_ptr<ExecutionEngine> engine;
  std::shared_ptr<void> code;
  void (*packedFn)(void **);
  FunctionSignature signature;
  bool reentrant;
};

} // namespace runner
} // namespace amp
} // namespace mlir

#endif // AMP_RUNNER_JITFUNCTION_H
