//===- TrialBuilder.cpp - Build and run the versions amp-tune tries -------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "TrialBuilder.h"

#include "Tuner.h"

#include "amp/Runner/Probes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/ThreadPool.h"

#include "llvm/Support/FormatVariadic.h"

#include <cmath>
#include <cstring>

using namespace mlir;
using namespace mlir::amp;
using namespace mlir::amp::runner;
using namespace mlir::amp::tune;

TrialBuilder::TrialBuilder(ModuleOp prepared, const PreparedModel &model,
                           const TrialOptions &options, llvm::raw_ostream &errs)
    : prepared(prepared), model(model), options(options), errs(errs) {}

TrialBuilder::~TrialBuilder() = default;

LogicalResult TrialBuilder::initialize(
    std::vector<std::pair<std::string, void *>> processSymbols) {
  symbols = std::move(processSymbols);
  KernelCacheOptions cacheOptions;
  cacheOptions.optLevel = options.optLevel;
  cacheOptions.threads = options.threads;
  cacheOptions.sharedLibs = options.sharedLibs;
  cacheOptions.symbols = symbols;
  auto created = KernelCache::create(cacheOptions);
  if (!created) {
    errs << "amp-tune: error: cannot set up the JIT: "
         << llvm::toString(created.takeError()) << "\n";
    return failure();
  }
  cache = std::move(*created);
  return success();
}

unsigned TrialBuilder::getNumThreads() const { return cache->getNumThreads(); }

const KernelCacheStatistics &TrialBuilder::getStatistics() const {
  return cache->getStatistics();
}

//===----------------------------------------------------------------------===//
// Convert
//===----------------------------------------------------------------------===//

FailureOr<OwningOpRef<ModuleOp>>
TrialBuilder::convert(ArrayRef<OpAnnotation> annotations, StringRef what) {
  OwningOpRef<ModuleOp> module = prepared.clone();
  MLIRContext *ctx = prepared.getContext();
  if (!annotations.empty()) {
    llvm::DenseMap<unsigned, SmallVector<const OpAnnotation *, 1>> byTag;
    for (const OpAnnotation &annotation : annotations)
      byTag[annotation.tag].push_back(&annotation);
    for (Operation *op : listOps(*module)) {
      std::optional<unsigned> tag = getTag(op);
      if (!tag)
        continue;
      auto it = byTag.find(*tag);
      if (it == byTag.end())
        continue;
      for (const OpAnnotation *annotation : it->second)
        op->setAttr(annotation->name, annotation->value);
    }
  }
  PassManager pm(ctx);
  if (failed(parsePipeline(options.pipeline, pm, "--pipeline", errs)))
    return failure();
  // The conversion's remarks (a summary per function) would repeat on
  // every trial: the tuner's own summary says what matters.
  ScopedDiagnosticHandler noRemarks(ctx, [](Diagnostic &diagnostic) {
    return success(diagnostic.getSeverity() == DiagnosticSeverity::Remark);
  });
  if (failed(pm.run(*module))) {
    errs << "amp-tune: error: the conversion pipeline '" << options.pipeline
         << "' failed on " << what << " (see the diagnostics above)\n";
    return failure();
  }
  auto entry = module->lookupSymbol<func::FuncOp>(model.entryName);
  if (!entry || entry.isExternal() || failed(verifyRunnableSignature(entry))) {
    errs << "amp-tune: error: the conversion pipeline removed @"
         << model.entryName << " or made it unrunnable\n";
    return failure();
  }
  FunctionSignature signature = getFunctionSignature(entry);
  if (signature.arguments.size() != model.signature.arguments.size() ||
      signature.results.size() != model.signature.results.size()) {
    errs << "amp-tune: error: the conversion pipeline changed the number of "
            "arguments or results of @"
         << model.entryName << "\n";
    return failure();
  }
  return module;
}

//===----------------------------------------------------------------------===//
// Compile
//===----------------------------------------------------------------------===//

FailureOr<std::vector<std::unique_ptr<JitFunction>>>
TrialBuilder::compile(MutableArrayRef<OwningOpRef<ModuleOp>> modules,
                      ArrayRef<std::string> what) {
  std::vector<CompileRequest> requests;
  for (auto [module, name] : llvm::zip(modules, what))
    requests.push_back({std::move(module), model.entryName, name});
  auto functions = cache->compile(requests);
  if (!functions) {
    errs << "amp-tune: error: " << llvm::toString(functions.takeError())
         << "\n";
    return failure();
  }
  return std::move(*functions);
}

//===----------------------------------------------------------------------===//
// Run
//===----------------------------------------------------------------------===//

FailureOr<std::vector<std::vector<HostTensor>>>
TrialBuilder::run(ArrayRef<RunRequest> requests, const char *what) {
  std::vector<std::vector<HostTensor>> outputs(requests.size());
  std::vector<std::string> errors(requests.size());
  auto call = [&](size_t i) {
    JitFunction &function = *requests[i].function;
    std::vector<HostTensor> inputs;
    for (auto [a, input] :
         llvm::enumerate(model.samples[requests[i].sample].inputs))
      inputs.push_back(
          input.convertTo(function.getSignature().arguments[a].kind));
    llvm::Expected<RunResult> result = function.run(inputs);
    if (!result)
      errors[i] = llvm::toString(result.takeError());
    else
      outputs[i] = std::move(result->outputs);
  };
  bool parallel = requests.size() > 1 && cache->getNumThreads() > 1 &&
                  llvm::all_of(requests, [](const RunRequest &r) {
                    return r.function->isReentrant();
                  });
  {
    CrashGuard guard(what);
    if (parallel) {
      llvm::ThreadPoolTaskGroup group(cache->getThreadPool());
      for (size_t i = 0; i < requests.size(); ++i)
        group.async([&call, i] { call(i); });
      group.wait();
    } else {
      for (size_t i = 0; i < requests.size(); ++i)
        call(i);
    }
  }
  for (const std::string &error : errors)
    if (!error.empty()) {
      errs << "amp-tune: error: cannot run " << what << ": " << error << "\n";
      return failure();
    }
  return outputs;
}

FailureOr<std::vector<std::vector<HostTensor>>>
TrialBuilder::runSamples(JitFunction &function, const char *what) {
  std::vector<RunRequest> requests;
  for (size_t s = 0; s < model.samples.size(); ++s)
    requests.push_back({&function, s});
  return run(requests, what);
}

//===----------------------------------------------------------------------===//
// Rebuild check
//===----------------------------------------------------------------------===//

/// True if element `e` of `a` and `b` (of the same kind) has the same bits,
/// or is a NaN in both: LLVM does not preserve the sign and payload of NaNs
/// (LLVM Language Reference, "Behavior of Floating-Point NaN values"), so
/// constant folding and the hardware may give different NaNs.
static bool isSameElement(const HostTensor &a, const HostTensor &b, int64_t e) {
  int64_t size = getElementByteSize(a.getKind());
  if (std::memcmp(static_cast<const char *>(a.getData()) + e * size,
                  static_cast<const char *>(b.getData()) + e * size, size) == 0)
    return true;
  return isFloatKind(a.getKind()) && std::isnan(a.get(e)) &&
         std::isnan(b.get(e));
}

/// True if `a` and `b` have the same type and the same bits (NaNs aside).
static bool areSameBits(const HostTensor &a, const HostTensor &b) {
  if (a.getKind() != b.getKind() || a.getShape() != b.getShape())
    return false;
  if (std::memcmp(a.getData(), b.getData(), a.getByteSize()) == 0)
    return true;
  for (int64_t e = 0, n = a.getNumElements(); e < n; ++e)
    if (!isSameElement(a, b, e))
      return false;
  return true;
}

LogicalResult
TrialBuilder::checkRebuild(OwningOpRef<ModuleOp> converted,
                           ArrayRef<std::vector<HostTensor>> outputs,
                           StringRef what) {
  DefaultTimingManager timingManager;
  TimingScope timing = timingManager.getRootScope();
  auto entry = converted->lookupSymbol<func::FuncOp>(model.entryName);
  FunctionSignature signature = getFunctionSignature(entry);
  if (failed(lowerForCpu(*converted, "rebuilt", timing, errs)))
    return failure();
  if (!symbols.empty())
    stripProbeAttributes(*converted);
  SmallVector<StringRef> libs;
  for (const std::string &lib : options.sharedLibs)
    libs.push_back(lib);
  auto function = JitFunction::create(*converted, model.entryName, signature,
                                      libs, options.optLevel, symbols);
  if (!function) {
    errs << "amp-tune: error: cannot compile the rebuilt model: "
         << llvm::toString(function.takeError()) << "\n";
    return failure();
  }
  for (auto [s, sample] : llvm::enumerate(model.samples)) {
    std::vector<HostTensor> inputs;
    for (auto [a, input] : llvm::enumerate(sample.inputs))
      inputs.push_back(input.convertTo(signature.arguments[a].kind));
    FailureOr<VersionRun> rebuilt =
        runVersion(**function, inputs, 1, "the rebuilt model", errs);
    if (failed(rebuilt))
      return failure();
    for (auto [i, output] : llvm::enumerate(rebuilt->outputs)) {
      const HostTensor &cached = outputs[s][i];
      if (areSameBits(cached, output))
        continue;
      errs << "amp-tune: error: " << what << ": output "
           << model.isolation.outputNames[i] << " of sample '" << sample.name
           << "' differs between the cached build and a rebuild";
      if (cached.getKind() == output.getKind() &&
          cached.getShape() == output.getShape())
        for (int64_t e = 0, n = output.getNumElements(); e < n; ++e)
          if (!isSameElement(cached, output, e)) {
            errs << llvm::formatv(" (element {0}: {1:e9} and {2:e9})", e,
                                  cached.get(e), output.get(e));
            break;
          }
      errs << "\n";
      return failure();
    }
  }
  return success();
}
