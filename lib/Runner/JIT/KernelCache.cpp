//===- KernelCache.cpp - Compile each kernel of many models once ----------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The cache is one ORC LLJIT. Kernels live in its main JITDylib under
// names of their own (`amp_k<n>_<name>`), weights in buffers it owns; each
// model compiled gets a JITDylib of its own holding what is left of it,
// where its kernels' and weights' names are absolute symbols; the dylib is
// removed when the model's function is destroyed. Code is position
// independent, so it reaches weights and kernels anywhere in memory through
// its GOT.
//
//===----------------------------------------------------------------------===//

#include "amp/Runner/KernelCache.h"

#include "ObjectCompilation.h"
#include "ParallelParts.h"

#include "amp/Runner/CpuLowering.h"
#include "amp/Runner/InitializerBytes.h"
#include "amp/Runner/KernelOutlining.h"
#include "amp/Runner/Probes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ExecutionEngine/Orc/AbsoluteSymbols.h"
#include "llvm/ExecutionEngine/Orc/ExecutionUtils.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/Support/DynamicLibrary.h"
#include "llvm/Support/MemAlloc.h"
#include "llvm/Support/ThreadPool.h"

#include <chrono>

using namespace mlir;
using namespace mlir::amp::runner;

/// Smallest constant global, in bytes, kept in the cache rather than in the
/// model's code.
static constexpr uint64_t kMinWeightBytes = 4096;

//===----------------------------------------------------------------------===//
// State
//===----------------------------------------------------------------------===//

namespace {
/// A kernel compiled (or being compiled) by the cache.
struct Kernel {
  std::string symbol;
  void *address = nullptr;
  /// The LLVM optimization level it is compiled at.
  unsigned optLevel = 0;
  /// It runs in parts on the threads, through `<symbol>.part`.
  bool inParts = false;
  std::string partSymbol;
  void *partAddress = nullptr;
  /// While compile() runs: the job that compiles it.
  std::unique_ptr<CompileJob> job;
};

/// A weight's bytes.
struct Weight {
  void *data;
  size_t size, alignment;
};

/// What is left of one model to compile and link.
struct ModelPlan {
  FunctionSignature signature;
  CompileJob job;
  /// Symbols of its JITDylib: kernels (resolved after compilation) and
  /// weights.
  std::vector<std::pair<std::string, Kernel *>> kernels, parts;
  std::vector<std::pair<std::string, void *>> weights;
  bool reentrant = true;
};
} // namespace

struct KernelCache::State {
  KernelCacheOptions options;
  llvm::orc::JITTargetMachineBuilder target;
  std::unique_ptr<llvm::orc::LLJIT> jit;
  std::unique_ptr<llvm::StdThreadPool> pool;
  /// Kernels by their text.
  llvm::StringMap<std::unique_ptr<Kernel>> kernels;
  /// Weights by initializer and LLVM type.
  llvm::DenseMap<std::pair<Attribute, Type>, Weight> weights;
  SmallVector<ExecutionEngine::LibraryDestroyFn> destroyFns;
  KernelCacheStatistics statistics;
  unsigned nextModel = 0;
  ParallelContext parallel{};

  explicit State(llvm::orc::JITTargetMachineBuilder target)
      : target(std::move(target)) {}
  ~State() {
    jit.reset();
    for (ExecutionEngine::LibraryDestroyFn destroy : destroyFns)
      destroy();
    for (auto &[key, weight] : weights)
      llvm::deallocate_buffer(weight.data, weight.size, weight.alignment);
  }

  LogicalResult plan(CompileRequest &request, ModelPlan &plan,
                     std::vector<Kernel *> &newKernels, std::string &error);
  void storeWeights(ModuleOp module, ModelPlan &plan);
  llvm::StringMap<Kernel *> findKernels(ModuleOp module,
                                        std::vector<Kernel *> &newKernels);
  LogicalResult moveKernels(ModuleOp module,
                            const llvm::StringMap<Kernel *> &found,
                            ModelPlan &plan, std::string &error);
};

/// Releases a model's JITDylib when its function is destroyed.
namespace {
struct ModelCode {
  llvm::orc::LLJIT &jit;
  llvm::orc::JITDylib &dylib;
  ~ModelCode() {
    llvm::consumeError(jit.getExecutionSession().removeJITDylib(dylib));
  }
};
} // namespace

//===----------------------------------------------------------------------===//
// Creation
//===----------------------------------------------------------------------===//

KernelCache::KernelCache(std::unique_ptr<State> state)
    : state(std::move(state)) {}
KernelCache::~KernelCache() = default;

llvm::Expected<std::unique_ptr<KernelCache>>
KernelCache::create(const KernelCacheOptions &options) {
  auto target = llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!target)
    return target.takeError();
  // Weights and kernels may be anywhere: reach them through the GOT.
  target->setRelocationModel(llvm::Reloc::PIC_);
  target->setCodeModel(llvm::CodeModel::Small);
  auto state = std::make_unique<State>(*target);
  state->options = options;
  auto jit =
      llvm::orc::LLJITBuilder().setJITTargetMachineBuilder(*target).create();
  if (!jit)
    return jit.takeError();
  state->jit = std::move(*jit);
  state->pool = std::make_unique<llvm::StdThreadPool>(
      llvm::hardware_concurrency(options.threads));

  // Libraries: through their init function if they have one (as
  // ExecutionEngine loads them), else by their exported symbols.
  llvm::orc::JITDylib &main = state->jit->getMainJITDylib();
  char prefix = state->jit->getDataLayout().getGlobalPrefix();
  llvm::orc::SymbolMap symbols;
  llvm::orc::MangleAndInterner mangle(state->jit->getExecutionSession(),
                                      state->jit->getDataLayout());
  for (const std::string &path : options.sharedLibs) {
    // (A library that cannot be loaded has neither function; loading it
    // below reports the error.)
    auto library = llvm::sys::DynamicLibrary::getPermanentLibrary(path.c_str());
    void *init =
        library.getAddressOfSymbol(ExecutionEngine::kLibraryInitFnName);
    void *destroy =
        library.getAddressOfSymbol(ExecutionEngine::kLibraryDestroyFnName);
    if (init && destroy) {
      llvm::StringMap<void *> exported;
      reinterpret_cast<ExecutionEngine::LibraryInitFn>(init)(exported);
      for (auto &entry : exported)
        symbols[mangle(entry.getKey())] = {
            llvm::orc::ExecutorAddr::fromPtr(entry.getValue()),
            llvm::JITSymbolFlags::Exported};
      state->destroyFns.push_back(
          reinterpret_cast<ExecutionEngine::LibraryDestroyFn>(destroy));
      continue;
    }
    auto generator =
        llvm::orc::DynamicLibrarySearchGenerator::Load(path.c_str(), prefix);
    if (!generator)
      return generator.takeError();
    main.addGenerator(std::move(*generator));
  }
  for (const auto &[name, address] : options.symbols)
    symbols[mangle(name)] = {llvm::orc::ExecutorAddr::fromPtr(address),
                             llvm::JITSymbolFlags::Exported};
  state->parallel = {state->pool.get(), state->pool->getMaxConcurrency()};
  symbols[mangle(kParallelFor)] = {
      llvm::orc::ExecutorAddr::fromPtr(&ampParallelFor),
      llvm::JITSymbolFlags::Exported | llvm::JITSymbolFlags::Callable};
  symbols[mangle(kParallelContext)] = {
      llvm::orc::ExecutorAddr::fromPtr(&state->parallel),
      llvm::JITSymbolFlags::Exported};
  if (!symbols.empty())
    if (llvm::Error error = main.define(llvm::orc::absoluteSymbols(symbols)))
      return std::move(error);
  return std::unique_ptr<KernelCache>(new KernelCache(std::move(state)));
}

llvm::ThreadPoolInterface &KernelCache::getThreadPool() { return *state->pool; }

unsigned KernelCache::getNumThreads() const {
  return state->pool->getMaxConcurrency();
}

const KernelCacheStatistics &KernelCache::getStatistics() const {
  return state->statistics;
}

//===----------------------------------------------------------------------===//
// Weights
//===----------------------------------------------------------------------===//

/// The size in bytes of an LLVM type made of arrays of integers and floats
/// of whole bytes, or 0 for any other type.
static uint64_t getPlainByteSize(Type type) {
  if (auto array = dyn_cast<LLVM::LLVMArrayType>(type))
    return array.getNumElements() * getPlainByteSize(array.getElementType());
  if (type.isIntOrFloat() && type.getIntOrFloatBitWidth() % 8 == 0)
    return type.getIntOrFloatBitWidth() / 8;
  return 0;
}

void KernelCache::State::storeWeights(ModuleOp module, ModelPlan &plan) {
  for (auto global : module.getOps<LLVM::GlobalOp>()) {
    if (!global.getConstant()) {
      // Code that writes a global must not run twice at once.
      plan.reentrant = false;
      continue;
    }
    auto value = dyn_cast_or_null<ElementsAttr>(global.getValueOrNull());
    if (!value)
      continue;
    std::string why;
    FailureOr<uint64_t> size = getInitializerByteSize(value, why);
    if (failed(size) || *size < kMinWeightBytes ||
        getPlainByteSize(global.getGlobalType()) != *size)
      continue;
    auto key = std::make_pair(Attribute(value), global.getGlobalType());
    auto it = weights.find(key);
    if (it == weights.end()) {
      size_t alignment = std::max<uint64_t>(
          64, global.getAlignment() ? *global.getAlignment() : 0);
      Weight weight{llvm::allocate_buffer(*size, alignment), *size, alignment};
      copyInitializerBytes(value, static_cast<char *>(weight.data));
      it = weights.insert({key, weight}).first;
      ++statistics.weightsStored;
      statistics.weightBytes += *size;
    } else {
      ++statistics.weightsReused;
    }
    plan.weights.push_back({global.getSymName().str(), it->second.data});
    // A declaration now: the model's JITDylib defines it.
    global.removeValueAttr();
    global.setLinkage(LLVM::Linkage::External);
    global.setDsoLocal(false);
    global.setVisibility_(LLVM::Visibility::Default);
  }
}

//===----------------------------------------------------------------------===//
// Kernels
//===----------------------------------------------------------------------===//

/// The declarations `function` refers to, in order of first reference, or
/// failure if it refers to anything else (a global, a function with a body):
/// then it does not stand alone.
static FailureOr<SmallVector<LLVM::LLVMFuncOp>>
getStandaloneDeclarations(LLVM::LLVMFuncOp function, SymbolTable &symbols) {
  SmallVector<LLVM::LLVMFuncOp> declarations;
  llvm::DenseSet<Operation *> seen;
  bool standalone = true;
  function.walk([&](Operation *op) {
    for (NamedAttribute attr : op->getAttrs())
      attr.getValue().walk([&](FlatSymbolRefAttr ref) {
        auto callee = symbols.lookup<LLVM::LLVMFuncOp>(ref.getValue());
        if (!callee || !callee.isExternal())
          standalone = false;
        else if (seen.insert(callee).second)
          declarations.push_back(callee);
      });
    return standalone ? WalkResult::advance() : WalkResult::interrupt();
  });
  if (!standalone)
    return failure();
  return declarations;
}

/// The text that identifies a kernel: its loops, the function under a fixed
/// name.
static std::string getKernelText(func::FuncOp function) {
  std::string text;
  llvm::raw_string_ostream os(text);
  OpPrintingFlags flags;
  flags.useLocalScope();
  StringAttr name = function.getSymNameAttr();
  function.setSymName("kernel");
  function->print(os, flags);
  function.setSymNameAttr(name);
  return text;
}

/// True if `function` computes a function of the math dialect: LLVM may
/// evaluate it differently at -O0 and at -O2 (it rewrites `pow(x, 2.0)` as
/// `x * x` when optimizing), so such a kernel is compiled at the level of a
/// model compiled whole. Other operations give the same bits at any level.
static bool callsMath(func::FuncOp function) {
  return function
      .walk([](Operation *op) {
        return op->getName().getDialectNamespace() == "math"
                   ? WalkResult::interrupt()
                   : WalkResult::advance();
      })
      .wasInterrupted();
}

llvm::StringMap<Kernel *>
KernelCache::State::findKernels(ModuleOp module,
                                std::vector<Kernel *> &newKernels) {
  // Every loop nest a kernel; parallel ones take a range.
  SymbolTable symbols(module);
  SmallVector<func::FuncOp> functions(module.getOps<func::FuncOp>());
  OutlineOptions outlining;
  outlining.rangeArguments = true;
  SmallVector<OutlinedKernel> outlined;
  for (func::FuncOp function : functions)
    outlineLoopNests(function, symbols, outlining, &outlined);

  // Found by the text of their loops; a kernel compiled before (or by a
  // model earlier in this batch, or earlier in this model) becomes a
  // declaration, the rest are lowered with the model.
  llvm::StringMap<Kernel *> found;
  for (OutlinedKernel &outlinedKernel : outlined) {
    func::FuncOp function = outlinedKernel.kernel;
    std::unique_ptr<Kernel> &kernel = kernels[getKernelText(function)];
    if (kernel) {
      ++statistics.kernelsReused;
      function.getBody().dropAllReferences();
      function.getBody().getBlocks().clear();
    } else {
      int64_t work = estimateExecutedOps(function);
      kernel = std::make_unique<Kernel>();
      kernel->symbol =
          ("amp_k" + Twine(kernels.size()) + "_" + function.getSymName()).str();
      kernel->optLevel = work < options.smallWork && !callsMath(function)
                             ? 0
                             : options.optLevel;
      kernel->inParts = outlinedKernel.hasRange && parallel.threads > 1 &&
                        work >= options.parallelWork;
      newKernels.push_back(kernel.get());
      ++statistics.kernelsCompiled;
    }
    found[function.getSymName()] = kernel.get();
  }
  return found;
}

LogicalResult
KernelCache::State::moveKernels(ModuleOp module,
                                const llvm::StringMap<Kernel *> &found,
                                ModelPlan &plan, std::string &error) {
  SymbolTable symbols(module);
  // The new kernels (those with a body) first: each to a module of its own,
  // with the declarations it calls, under its own name; one that runs in
  // parts gets its part wrapper there.
  for (const auto &[name, kernel] : found) {
    auto function = symbols.lookup<LLVM::LLVMFuncOp>(name);
    if (!function) {
      error = "the lowered model has no kernel @" + name.str();
      return failure();
    }
    if (function.isExternal())
      continue;
    FailureOr<SmallVector<LLVM::LLVMFuncOp>> declarations =
        getStandaloneDeclarations(function, symbols);
    if (failed(declarations)) {
      error = "kernel @" + name.str() + " calls code of the model";
      return failure();
    }
    OpBuilder builder(module.getContext());
    OwningOpRef<ModuleOp> alone = ModuleOp::create(function.getLoc());
    builder.setInsertionPointToEnd(alone->getBody());
    for (LLVM::LLVMFuncOp declaration : *declarations)
      builder.clone(*declaration);
    auto copy = cast<LLVM::LLVMFuncOp>(builder.clone(*function));
    copy.setSymName(kernel->symbol);
    copy.setLinkage(LLVM::Linkage::External);
    copy.setVisibility_(LLVM::Visibility::Default);
    copy->removeAttr(SymbolTable::getVisibilityAttrName());
    if (kernel->inParts && takesRange(copy)) {
      kernel->partSymbol = kernel->symbol + ".part";
      addPartWrapper(copy, kernel->partSymbol);
      ++statistics.kernelsInParts;
    }
    kernel->job = std::make_unique<CompileJob>();
    kernel->job->optLevel = kernel->optLevel;
    kernel->job->context = std::make_unique<llvm::LLVMContext>();
    kernel->job->module =
        translateModuleToLLVMIR(*alone, *kernel->job->context);
    if (!kernel->job->module) {
      error = "cannot translate kernel @" + name.str() + " to LLVM IR";
      return failure();
    }
  }
  // Then every kernel is a declaration, which the model's JITDylib
  // defines; the calls of one that runs in parts go through
  // amp_parallel_for.
  for (const auto &[name, kernel] : found) {
    auto function = symbols.lookup<LLVM::LLVMFuncOp>(name);
    plan.kernels.push_back({name.str(), kernel});
    if (!kernel->partSymbol.empty()) {
      std::string partName = (name + ".part").str();
      callInParts(module, function, partName);
      plan.parts.push_back({partName, kernel});
    }
    if (!function.isExternal()) {
      function.getBody().dropAllReferences();
      function.getBody().getBlocks().clear();
    }
    function.setLinkage(LLVM::Linkage::External);
    function.setVisibility_(LLVM::Visibility::Default);
    function->removeAttr(SymbolTable::getVisibilityAttrName());
    function.setDsoLocal(false);
  }
  return success();
}

LogicalResult KernelCache::State::plan(CompileRequest &request, ModelPlan &plan,
                                       std::vector<Kernel *> &newKernels,
                                       std::string &error) {
  ModuleOp module = *request.module;
  auto entryFn = module.lookupSymbol<func::FuncOp>(request.entry);
  if (!entryFn || entryFn.isExternal()) {
    error = "the " + request.what + " model has no @" + request.entry;
    return failure();
  }
  plan.signature = getFunctionSignature(entryFn);
  std::string cannotLower = "cannot lower the " + request.what +
                            " model for the CPU (see the diagnostics above)";

  // Loops, kernels, the rest of the lowering.
  PassManager toLoops(module.getContext());
  buildCpuLoweringToLoops(toLoops, /*parallelLoops=*/true);
  if (failed(toLoops.run(module))) {
    error = cannotLower;
    return failure();
  }
  llvm::StringMap<Kernel *> found = findKernels(module, newKernels);
  int64_t work = 0;
  for (auto function : module.getOps<func::FuncOp>())
    if (!function.isExternal())
      work += estimateExecutedOps(function);
  PassManager toLLVM(module.getContext());
  buildCpuLoweringToLLVM(toLLVM);
  if (failed(toLLVM.run(module)) || failed(verifyLoweredForCpu(module))) {
    error = cannotLower;
    return failure();
  }
  stripProbeAttributes(module);

  storeWeights(module, plan);
  if (failed(moveKernels(module, found, plan, error)))
    return failure();

  // What is left: the entry, functions that are not kernels, small globals.
  plan.job.optLevel = work < options.smallWork ? 0 : options.optLevel;
  plan.job.context = std::make_unique<llvm::LLVMContext>();
  plan.job.module = translateModuleToLLVMIR(module, *plan.job.context);
  if (!plan.job.module) {
    error = "cannot translate the " + request.what + " model to LLVM IR";
    return failure();
  }
  llvm::Function *entry = plan.job.module->getFunction(request.entry);
  if (!entry || entry->isDeclaration()) {
    error = "the lowered " + request.what + " model has no @" + request.entry;
    return failure();
  }
  addPackedWrapper(*plan.job.module, *entry);
  return success();
}

//===----------------------------------------------------------------------===//
// Compilation
//===----------------------------------------------------------------------===//

llvm::Expected<std::vector<std::unique_ptr<JitFunction>>>
KernelCache::compile(MutableArrayRef<CompileRequest> requests) {
  auto start = std::chrono::steady_clock::now();
  State &s = *state;
  std::vector<ModelPlan> plans(requests.size());
  std::vector<Kernel *> newKernels;
  auto forgetNew = [&] {
    // Kernels that were not compiled must not be found later.
    for (Kernel *kernel : newKernels)
      for (auto it = s.kernels.begin(); it != s.kernels.end(); ++it)
        if (it->second.get() == kernel) {
          s.kernels.erase(it);
          break;
        }
  };
  for (auto [request, plan] : llvm::zip(requests, plans)) {
    std::string error;
    if (failed(s.plan(request, plan, newKernels, error))) {
      forgetNew();
      return llvm::createStringError(error);
    }
  }

  // Every new kernel and every model's remaining code, on the pool.
  SmallVector<CompileJob *> jobs;
  for (Kernel *kernel : newKernels)
    jobs.push_back(kernel->job.get());
  for (ModelPlan &plan : plans)
    jobs.push_back(&plan.job);
  runCompileJobs(jobs, s.target, *s.pool);
  for (CompileJob *job : jobs)
    if (!job->error.empty()) {
      forgetNew();
      return llvm::createStringError("cannot compile: " + job->error);
    }

  // Link the kernels into the main JITDylib.
  llvm::orc::JITDylib &main = s.jit->getMainJITDylib();
  for (Kernel *kernel : newKernels)
    if (llvm::Error error =
            s.jit->addObjectFile(main, std::move(kernel->job->object))) {
      forgetNew();
      return std::move(error);
    }
  for (Kernel *kernel : newKernels) {
    auto address = s.jit->lookup(main, kernel->symbol);
    if (!address) {
      forgetNew();
      return address.takeError();
    }
    kernel->address = address->toPtr<void *>();
    if (!kernel->partSymbol.empty()) {
      auto part = s.jit->lookup(main, kernel->partSymbol);
      if (!part) {
        forgetNew();
        return part.takeError();
      }
      kernel->partAddress = part->toPtr<void *>();
    }
    kernel->job.reset();
  }

  // Each model in a JITDylib of its own.
  std::vector<std::unique_ptr<JitFunction>> functions;
  llvm::orc::MangleAndInterner mangle(s.jit->getExecutionSession(),
                                      s.jit->getDataLayout());
  for (auto [request, plan] : llvm::zip(requests, plans)) {
    auto dylib =
        s.jit->createJITDylib("amp-model-" + std::to_string(s.nextModel++));
    if (!dylib)
      return dylib.takeError();
    // (Constructed in place: a temporary's destructor would remove the
    // dylib.)
    std::shared_ptr<ModelCode> code(new ModelCode{*s.jit, *dylib});
    dylib->addToLinkOrder(main);
    llvm::orc::SymbolMap symbols;
    for (const auto &[name, kernel] : plan.kernels)
      symbols[mangle(name)] = {
          llvm::orc::ExecutorAddr::fromPtr(kernel->address),
          llvm::JITSymbolFlags::Exported | llvm::JITSymbolFlags::Callable};
    for (const auto &[name, kernel] : plan.parts)
      symbols[mangle(name)] = {
          llvm::orc::ExecutorAddr::fromPtr(kernel->partAddress),
          llvm::JITSymbolFlags::Exported | llvm::JITSymbolFlags::Callable};
    for (const auto &[name, data] : plan.weights)
      symbols[mangle(name)] = {llvm::orc::ExecutorAddr::fromPtr(data),
                               llvm::JITSymbolFlags::Exported};
    if (!symbols.empty())
      if (llvm::Error error =
              dylib->define(llvm::orc::absoluteSymbols(std::move(symbols))))
        return std::move(error);
    if (llvm::Error error =
            s.jit->addObjectFile(*dylib, std::move(plan.job.object)))
      return std::move(error);
    auto packed = s.jit->lookup(*dylib, "_mlir_" + request.entry);
    if (!packed)
      return packed.takeError();
    functions.push_back(
        JitFunction::fromCode(packed->toPtr<void (*)(void **)>(),
                              plan.signature, code, plan.reentrant));
    ++s.statistics.modelsCompiled;
  }
  s.statistics.compileSeconds +=
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  return functions;
}
