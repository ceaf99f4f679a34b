//===- FuzzCommon.cpp - What amp's fuzzers check --------------------------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "FuzzCommon.h"

#include "AmpTestDialect.h"
#include "amp/InitAmp.h"
#include "amp/Utils/CastUtils.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <mutex>

using namespace mlir;
using namespace mlir::amp;
using namespace mlir::amp::fuzz;

namespace {
/// Option sets, with the target type their signature check needs.
struct OptionSetWithTarget {
  OptionSet set;
  const char *target;
};

/// The pipelines are the content of a pass manager on builtin.module (as
/// parsePassPipeline(text, pm) reads them: a leading "builtin.module(" would
/// nest a second module pass manager, which runs on nested modules only).
const OptionSetWithTarget kOptionSets[] = {
    {{"f16", "amp-mixed-precision", true}, "f16"},
    {{"bf16", "amp-mixed-precision{target-type=bf16}", true}, "bf16"},
    {{"follow", "amp-mixed-precision{gray-strategy=follow}", true}, "f16"},
    {{"io", "amp-mixed-precision{keep-io-types=false}", false}, "f16"},
    {{"clamp", "amp-mixed-precision{clamp-constants=true}", true}, "f16"},
    {{"unknown-gray",
      "amp-mixed-precision{unknown-ops=gray target-type=bf16 "
      "accumulate-type=target output-type=f32}",
      true},
     "bf16"},
    {{"skip",
      "amp-mixed-precision{skip-layers=0,-1 min-macs=64 "
      "gray-strategy=follow keep-io-types=false target-type=bf16 "
      "clamp-constants=true}",
      false},
     "bf16"},
    {{"per-function", "func.func(amp-mixed-precision{clamp-constants=true})",
      true},
     "f16"},
};

OptionSet kPlainSets[std::size(kOptionSets)];

const char *getTarget(const OptionSet &set) {
  for (const OptionSetWithTarget &entry : kOptionSets)
    if (StringRef(entry.set.name) == set.name)
      return entry.target;
  return "f16";
}

/// Name and type of every function of `module`, in order.
SmallVector<std::pair<std::string, Type>> getSignatures(ModuleOp module) {
  SmallVector<std::pair<std::string, Type>> result;
  module->walk([&](FunctionOpInterface func) {
    std::string name;
    if (auto symbol = dyn_cast<SymbolOpInterface>(func.getOperation()))
      name = symbol.getName().str();
    result.push_back({name, func.getFunctionType()});
  });
  return result;
}

/// True if `after` is `before` with FP32 element types possibly changed to
/// `target`.
bool isAllowedSignatureChange(Type before, Type after, StringRef target) {
  auto b = dyn_cast<FunctionType>(before), a = dyn_cast<FunctionType>(after);
  if (!b || !a)
    return before == after;
  if (b.getNumInputs() != a.getNumInputs() ||
      b.getNumResults() != a.getNumResults())
    return false;
  auto typeOk = [&](Type x, Type y) {
    if (x == y)
      return true;
    if (!getElementTypeOrSelf(x).isF32())
      return false;
    std::string name;
    llvm::raw_string_ostream os(name);
    getElementTypeOrSelf(y).print(os);
    return name == target && withElementType(x, getElementTypeOrSelf(y)) == y;
  };
  for (auto [x, y] : llvm::zip(b.getInputs(), a.getInputs()))
    if (!typeOk(x, y))
      return false;
  for (auto [x, y] : llvm::zip(b.getResults(), a.getResults()))
    if (!typeOk(x, y))
      return false;
  return true;
}

/// Counts what the pass must never add: float cast round trips (a cast back
/// to the source type of an exact widening) and unused constants or empty
/// tensors.
struct Litter {
  unsigned roundTrips = 0;
  unsigned deadValues = 0;
};

Litter countLitter(ModuleOp module) {
  Litter litter;
  module->walk([&](Operation *op) {
    if (Value source = getFloatCastSource(op)) {
      Operation *def = source.getDefiningOp();
      Value original = getFloatCastSource(def);
      if (original &&
          getElementTypeOrSelf(original.getType()) ==
              getElementTypeOrSelf(op->getResult(0).getType()) &&
          getElementTypeOrSelf(original.getType()).getIntOrFloatBitWidth() <
              getElementTypeOrSelf(source.getType()).getIntOrFloatBitWidth())
        ++litter.roundTrips;
    }
    if (op->getNumResults() == 1 && op->use_empty() &&
        (isa<tensor::EmptyOp>(op) || isFloatConstant(op)))
      ++litter.deadValues;
  });
  return litter;
}

std::string printModule(ModuleOp module) {
  std::string text;
  llvm::raw_string_ostream os(text);
  module.print(os);
  return text;
}

/// Runs `pipeline` on `module`, collecting the first error.
LogicalResult runPipeline(ModuleOp module, StringRef pipeline,
                          std::string &firstError) {
  MLIRContext *ctx = module.getContext();
  PassManager pm(ctx);
  pm.enableVerifier(false); // Verified by the caller, to tell the cases apart.
  std::string parseError;
  llvm::raw_string_ostream errorStream(parseError);
  if (failed(parsePassPipeline(pipeline, pm, errorStream))) {
    llvm::errs() << "amp fuzz: cannot parse pipeline '" << pipeline
                 << "': " << parseError << "\n";
    std::abort();
  }
  ScopedDiagnosticHandler handler(ctx, [&](Diagnostic &diag) {
    if (diag.getSeverity() == DiagnosticSeverity::Error && firstError.empty())
      firstError = diag.str();
    return success();
  });
  return pm.run(module);
}

LogicalResult verifyQuietly(ModuleOp module, std::string &error) {
  ScopedDiagnosticHandler handler(module.getContext(), [&](Diagnostic &diag) {
    if (error.empty())
      error = diag.str();
    return success();
  });
  return verify(module);
}
} // namespace

ArrayRef<OptionSet> mlir::amp::fuzz::getOptionSets() {
  static std::once_flag once;
  std::call_once(once, [] {
    for (auto [i, entry] : llvm::enumerate(kOptionSets))
      kPlainSets[i] = entry.set;
  });
  return kPlainSets;
}

void mlir::amp::fuzz::registerFuzzDialects(DialectRegistry &registry) {
  registry.insert<affine::AffineDialect, arith::ArithDialect,
                  bufferization::BufferizationDialect, cf::ControlFlowDialect,
                  func::FuncDialect, linalg::LinalgDialect, LLVM::LLVMDialect,
                  math::MathDialect,
                  memref::MemRefDialect, scf::SCFDialect,
                  tensor::TensorDialect, tosa::TosaDialect,
                  vector::VectorDialect>();
  registerAmpDialects(registry);
  test::registerAmpTestDialect(registry);
  static std::once_flag once;
  std::call_once(once, [] { registerAmpPasses(); });
}

std::unique_ptr<MLIRContext>
mlir::amp::fuzz::createFuzzContext(bool allowUnregistered) {
  static DialectRegistry *registry = [] {
    auto *r = new DialectRegistry();
    registerFuzzDialects(*r);
    return r;
  }();
  auto ctx =
      std::make_unique<MLIRContext>(*registry, MLIRContext::Threading::DISABLED);
  ctx->allowUnregisteredDialects(allowUnregistered);
  // Swallow every diagnostic that no scoped handler takes.
  ctx->getDiagEngine().registerHandler([](Diagnostic &) { return success(); });
  return ctx;
}

CheckResult mlir::amp::fuzz::checkConversion(ModuleOp module,
                                             const OptionSet &set,
                                             bool requireSuccess) {
  CheckResult result;
  OwningOpRef<ModuleOp> work = module.clone();
  auto before = getSignatures(*work);
  Litter litterBefore = countLitter(*work);

  if (failed(runPipeline(*work, set.pipeline, result.error))) {
    if (result.error.empty())
      result.violation = "the pass failed without emitting an error";
    else if (requireSuccess)
      result.violation = "the pass failed on an input it must convert: " +
                         result.error;
    return result;
  }
  result.converted = true;

  std::string verifyError;
  if (failed(verifyQuietly(*work, verifyError))) {
    result.violation =
        "the converted module does not verify: " + verifyError;
    return result;
  }

  Litter litterAfter = countLitter(*work);
  if (litterAfter.roundTrips > litterBefore.roundTrips) {
    result.violation = "the pass made a cast round trip (" +
                       std::to_string(litterAfter.roundTrips) + " vs " +
                       std::to_string(litterBefore.roundTrips) +
                       " in the input)";
    return result;
  }
  if (litterAfter.deadValues > litterBefore.deadValues) {
    result.violation = "the pass left unused constants or empty tensors (" +
                       std::to_string(litterAfter.deadValues) + " vs " +
                       std::to_string(litterBefore.deadValues) +
                       " in the input)";
    return result;
  }

  auto after = getSignatures(*work);
  if (before.size() != after.size()) {
    result.violation = "the pass added or removed functions";
    return result;
  }
  for (auto [b, a] : llvm::zip(before, after)) {
    bool same = b.second == a.second;
    if (same)
      continue;
    if (set.keepIOTypes ||
        !isAllowedSignatureChange(b.second, a.second, getTarget(set))) {
      std::string text;
      llvm::raw_string_ostream os(text);
      os << "the signature of @" << b.first << " changed from " << b.second
         << " to " << a.second;
      result.violation = text;
      return result;
    }
  }

  std::string once = printModule(*work);
  std::string secondError;
  if (failed(runPipeline(*work, set.pipeline, secondError))) {
    result.violation = "a second run failed: " + secondError;
    return result;
  }
  if (failed(verifyQuietly(*work, verifyError))) {
    result.violation =
        "the module does not verify after a second run: " + verifyError;
    return result;
  }
  std::string twice = printModule(*work);
  if (once != twice) {
    // The first line that differs (SSA numbers shift after an added op, so
    // the line counts say more than the text).
    SmallVector<StringRef> a, b;
    StringRef(once).split(a, '\n');
    StringRef(twice).split(b, '\n');
    size_t i = 0;
    while (i < a.size() && i < b.size() && a[i] == b[i])
      ++i;
    result.violation = "a second run changed the IR (" +
                       std::to_string(a.size()) + " -> " +
                       std::to_string(b.size()) + " lines), first at line " +
                       std::to_string(i + 1) + ":\n  first:  " +
                       (i < a.size() ? a[i].trim().str() : "") +
                       "\n  second: " + (i < b.size() ? b[i].trim().str() : "");
  }
  return result;
}

void mlir::amp::fuzz::reportViolation(StringRef what, StringRef set,
                                      ModuleOp module) {
  llvm::errs() << "amp fuzz: contract violated with option set '" << set
               << "': " << what << "\n---- input ----\n";
  module.print(llvm::errs());
  llvm::errs() << "\n---- end ----\n";
  llvm::errs().flush();
  std::abort();
}
