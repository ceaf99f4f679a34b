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

#include "amp/Runner/CpuLowering.h"
#include "amp/Runner/InitializerBytes.h"
#include "amp/Runner/KernelOutlining.h"
#include "amp/Runner/ToolSupport.h"

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
// Lowering
//===----------------------------------------------------------------------===//

FailureOr<KernelModule> mlir::amp::runner::lowerToKernels(
    OwningOpRef<ModuleOp> module, StringRef entry, StringRef what,
    TimingScope &timing, llvm::raw_ostream &errs) {
  KernelModule result;
  result.entry = entry.str();
  auto entryFn = module->lookupSymbol<func::FuncOp>(entry);
  if (!entryFn || entryFn.isExternal()) {
    errs << getToolName() << ": error: the " << what << " model has no @"
         << entry << "\n";
    return failure();
  }
  result.signature = getFunctionSignature(entryFn);
  TimingScope scope = timing.nest(("lower " + what).str());
  PassManager toLoops(module->getContext());
  buildCpuLoweringToLoops(toLoops, /*parallelLoops=*/true);
  toLoops.enableTiming(scope);
  PassManager toLLVM(module->getContext());
  buildCpuLoweringToLLVM(toLLVM);
  toLLVM.enableTiming(scope);
  if (succeeded(toLoops.run(*module))) {
    // Every loop nest a kernel; parallel ones take a range.
    SymbolTable symbols(*module);
    SmallVector<func::FuncOp> functions(module->getOps<func::FuncOp>());
    OutlineOptions options;
    options.rangeArguments = true;
    SmallVector<OutlinedKernel> kernels;
    for (func::FuncOp function : functions)
      outlineLoopNests(function, symbols, options, &kernels);
    for (OutlinedKernel &kernel : kernels)
      if (kernel.hasRange)
        result.ranged.insert(kernel.kernel.getSymName());
    for (auto function : module->getOps<func::FuncOp>())
      result.work[function.getSymName()] = estimateExecutedOps(function);
    if (succeeded(toLLVM.run(*module)) &&
        succeeded(verifyLoweredForCpu(*module))) {
      result.module = std::move(module);
      return result;
    }
  }
  errs << getToolName() << ": error: cannot lower the " << what
       << " model for the CPU (see the diagnostics above)\n";
  return failure();
}

//===----------------------------------------------------------------------===//
// Parallel runs
//===----------------------------------------------------------------------===//

/// The names compiled code calls a kernel in parts by.
static constexpr llvm::StringLiteral kParallelFor = "amp_parallel_for";
static constexpr llvm::StringLiteral kParallelContext = "amp_parallel_context";

namespace {
/// What amp_parallel_for runs on: the cache's threads.
struct ParallelContext {
  llvm::ThreadPoolInterface *pool;
  unsigned threads;
};
} // namespace

/// Calls `part(arguments, lo, hi)` on parts of [begin, end) that cover it,
/// at once on the threads of `context` and the calling thread.
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

//===----------------------------------------------------------------------===//
// State
//===----------------------------------------------------------------------===//

namespace {
/// A kernel compiled (or being compiled) by the cache.
struct Kernel {
  std::string symbol;
  void *address = nullptr;
  /// For a kernel run in parts: its wrapper (`<symbol>_part`).
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

  LogicalResult plan(KernelModule &model, ModelPlan &plan,
                     std::vector<Kernel *> &newKernels, std::string &error);
  void storeWeights(ModuleOp module, ModelPlan &plan);
  void findKernels(KernelModule &model, ModelPlan &plan,
                   std::vector<Kernel *> &newKernels);
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
  auto jit = llvm::orc::LLJITBuilder().setJITTargetMachineBuilder(*target)
                 .create();
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
    void *init = library.getAddressOfSymbol(ExecutionEngine::kLibraryInitFnName);
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

llvm::ThreadPoolInterface &KernelCache::getThreadPool() {
  return *state->pool;
}

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
      size_t alignment = std::max<uint64_t>(64, global.getAlignment()
                                                    ? *global.getAlignment()
                                                    : 0);
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

/// The text that identifies a kernel: the function under a fixed name, then
/// the declarations it calls.
static std::string getKernelText(LLVM::LLVMFuncOp function,
                                 ArrayRef<LLVM::LLVMFuncOp> declarations) {
  std::string text;
  llvm::raw_string_ostream os(text);
  OpPrintingFlags flags;
  flags.useLocalScope();
  StringAttr name = function.getSymNameAttr();
  function.setSymName("kernel");
  function->print(os, flags);
  function.setSymNameAttr(name);
  for (LLVM::LLVMFuncOp declaration : declarations) {
    os << "\n";
    declaration->print(os, flags);
  }
  return text;
}

/// True if `function`, lowered from a kernel with a range, can run in parts:
/// it returns nothing and its first two parameters are the i64 bounds.
static bool takesRange(LLVM::LLVMFuncOp function) {
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

/// Adds `@<partName>(ptr arguments, i64 lo, i64 hi)` after `kernel`: it
/// calls `kernel` on [lo, hi) with the arguments the struct holds.
static void addPartWrapper(LLVM::LLVMFuncOp kernel, StringRef partName) {
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
    Value field = LLVM::GEPOp::create(
        builder, loc, pointer, fields, body->getArgument(0),
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

/// Replaces every call of `kernel` in `module` by a call of
/// amp_parallel_for with `<partName>` and the kernel's arguments after its
/// range in a struct on the stack of the caller.
static void callInParts(ModuleOp module, LLVM::LLVMFuncOp kernel,
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

void KernelCache::State::findKernels(KernelModule &model, ModelPlan &plan,
                                     std::vector<Kernel *> &newKernels) {
  ModuleOp module = *model.module;
  SymbolTable symbols(module);
  SmallVector<LLVM::LLVMFuncOp> functions(module.getOps<LLVM::LLVMFuncOp>());
  for (LLVM::LLVMFuncOp function : functions) {
    if (function.isExternal() || function.getSymName() == model.entry)
      continue;
    FailureOr<SmallVector<LLVM::LLVMFuncOp>> declarations =
        getStandaloneDeclarations(function, symbols);
    if (failed(declarations))
      continue;
    int64_t work = model.work.lookup(function.getSymName());
    bool inParts = parallel.threads > 1 && work >= options.parallelWork &&
                   model.ranged.contains(function.getSymName()) &&
                   takesRange(function);
    std::string text = getKernelText(function, *declarations);
    if (inParts)
      text += "\n// in parts";
    std::unique_ptr<Kernel> &kernel = kernels[text];
    if (kernel) {
      ++statistics.kernelsReused;
    } else {
      kernel = std::make_unique<Kernel>();
      kernel->symbol = ("amp_k" + Twine(kernels.size()) + "_" +
                        function.getSymName())
                           .str();
      // A module of its own: the declarations and the function under its
      // new name, visible to the JITDylib.
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
      if (inParts) {
        kernel->partSymbol = kernel->symbol + ".part";
        addPartWrapper(copy, kernel->partSymbol);
        ++statistics.kernelsInParts;
      }
      kernel->job = std::make_unique<CompileJob>();
      kernel->job->context = std::make_unique<llvm::LLVMContext>();
      kernel->job->module =
          translateModuleToLLVMIR(*alone, *kernel->job->context);
      kernel->job->optLevel =
          work < options.smallWork ? 0 : options.optLevel;
      newKernels.push_back(kernel.get());
      ++statistics.kernelsCompiled;
    }
    plan.kernels.push_back({function.getSymName().str(), kernel.get()});
    if (inParts) {
      std::string partName = (function.getSymName() + ".part").str();
      callInParts(module, function, partName);
      plan.parts.push_back({partName, kernel.get()});
    }
    // A declaration now: the model's JITDylib defines it.
    function.getBody().dropAllReferences();
    function.getBody().getBlocks().clear();
    function.setLinkage(LLVM::Linkage::External);
    function.setVisibility_(LLVM::Visibility::Default);
    function->removeAttr(SymbolTable::getVisibilityAttrName());
    function.setDsoLocal(false);
  }
}

LogicalResult KernelCache::State::plan(KernelModule &model, ModelPlan &plan,
                                       std::vector<Kernel *> &newKernels,
                                       std::string &error) {
  ModuleOp module = *model.module;
  storeWeights(module, plan);
  findKernels(model, plan, newKernels);
  for (Kernel *kernel : newKernels)
    if (kernel->job && !kernel->job->module) {
      error = "cannot translate kernel " + kernel->symbol + " to LLVM IR";
      return failure();
    }

  // What is left: the entry, functions that are not kernels, small globals.
  int64_t work = 0;
  for (auto function : module.getOps<LLVM::LLVMFuncOp>())
    if (!function.isExternal())
      work += model.work.lookup(function.getSymName());
  plan.job.optLevel = work < options.smallWork ? 0 : options.optLevel;
  plan.job.context = std::make_unique<llvm::LLVMContext>();
  plan.job.module = translateModuleToLLVMIR(module, *plan.job.context);
  if (!plan.job.module) {
    error = "cannot translate the model to LLVM IR";
    return failure();
  }
  llvm::Function *entry = plan.job.module->getFunction(model.entry);
  if (!entry || entry->isDeclaration()) {
    error = "the lowered model has no @" + model.entry;
    return failure();
  }
  addPackedWrapper(*plan.job.module, *entry);
  return success();
}

//===----------------------------------------------------------------------===//
// Compilation
//===----------------------------------------------------------------------===//

llvm::Expected<std::vector<std::unique_ptr<JitFunction>>>
KernelCache::compile(MutableArrayRef<KernelModule> models) {
  auto start = std::chrono::steady_clock::now();
  State &s = *state;
  std::vector<ModelPlan> plans(models.size());
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
  for (auto [model, plan] : llvm::zip(models, plans)) {
    std::string error;
    if (failed(s.plan(model, plan, newKernels, error))) {
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
  for (auto [model, plan] : llvm::zip(models, plans)) {
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
      symbols[mangle(name)] = {llvm::orc::ExecutorAddr::fromPtr(kernel->address),
                               llvm::JITSymbolFlags::Exported |
                                   llvm::JITSymbolFlags::Callable};
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
    auto packed = s.jit->lookup(*dylib, "_mlir_" + model.entry);
    if (!packed)
      return packed.takeError();
    functions.push_back(JitFunction::fromCode(
        packed->toPtr<void (*)(void **)>(), model.signature, code,
        plan.reentrant));
    ++s.statistics.modelsCompiled;
  }
  s.statistics.compileSeconds +=
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  return functions;
}
