//===- MixedPrecisionPass.cpp - The --amp-mixed-precision pass ------------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The pass resolves and checks its options once (initialize), then converts:
//  - on a function: that function;
//  - on any other op (a module): every function nested in it, in parallel on
//    the context's thread pool, each with its own state; with
//    keep-io-types=false in waves, callees first, each wave's public
//    signatures updated before its callers are converted; then the report.
// The conversion itself is convertToMixedPrecision (MixedPrecision.cpp).
//
//===----------------------------------------------------------------------===//

#include "amp/Transforms/Passes.h"

#include "PassOptionResolution.h"
#include "ReportFile.h"
#include "amp/Transforms/MixedPrecision.h"
#include "amp/Transforms/WeightOnly.h"
#include "amp/Utils/CastUtils.h"
#include "amp/Utils/ConversionMemo.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/IR/Threading.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/Sequence.h"
#include "llvm/ADT/SetVector.h"

#include <memory>

namespace mlir {
namespace amp {
#define GEN_PASS_DEF_AMPMIXEDPRECISIONPASS
#define GEN_PASS_DEF_AMPPLANPRECISIONPASS
#define GEN_PASS_DEF_AMPAPPLYPRECISIONPASS
#include "amp/Transforms/Passes.h.inc"
} // namespace amp
} // namespace mlir

using namespace mlir;
using namespace mlir::amp;

namespace {

struct AmpMixedPrecisionPass
    : public amp::impl::AmpMixedPrecisionPassBase<AmpMixedPrecisionPass> {
  using Base::Base;

  LogicalResult initialize(MLIRContext *ctx) override {
    return resolver.resolve(ctx, getArgument(), readOptionValues(*this));
  }
  void runOnOperation() override;

private:
  template <typename PassT>
  friend PassOptionValues amp::readOptionValues(const PassT &);
  void updateStatistics(const FunctionConversion &conversion);
  /// On a single function: converts it, keeping its signature.
  LogicalResult convertFunction(FunctionOpInterface func);
  /// On a container: converts every function nested in it.
  LogicalResult convertModule(Operation *root);
  /// Converts `functions` in `waves` (in parallel inside a wave), and
  /// without keep-io-types updates each wave's public signatures.
  LogicalResult convertWaves(Operation *root, ArrayRef<Operation *> functions,
                             ArrayRef<SmallVector<size_t>> waves,
                             ArrayRef<MixedPrecisionOptions> options,
                             MutableArrayRef<FunctionConversion> conversions);

  PassOptionResolver resolver;
};

struct AmpPlanPrecisionPass
    : public amp::impl::AmpPlanPrecisionPassBase<AmpPlanPrecisionPass> {
  using Base::Base;

  LogicalResult initialize(MLIRContext *ctx) override {
    return resolver.resolve(ctx, getArgument(), readOptionValues(*this));
  }
  void runOnOperation() override;

private:
  template <typename PassT>
  friend PassOptionValues amp::readOptionValues(const PassT &);

  PassOptionResolver resolver;
};

void AmpMixedPrecisionPass::updateStatistics(
    const FunctionConversion &conversion) {
  const ConversionStats &stats = conversion.stats;
  numUnknown += stats.unknown;
  numGreen += stats.green;
  numGrayLow += stats.grayLow;
  numGrayHigh += stats.grayHigh;
  numRed += stats.red;
  numCasts += conversion.stats.casts;
  numFoldedConstants += conversion.stats.foldedConstants;
  numFP8 += conversion.stats.fp8;
  numWeightOnly += conversion.stats.weightOnly;
}

/// The float casts that signature updates make at call sites, per calling
/// function, until that function is converted (its conversion erases those it
/// leaves unused). Erased casts are forgotten.
struct CallSiteCasts : public RewriterBase::Listener {
  void notifyOperationInserted(Operation *op,
                               OpBuilder::InsertPoint) override {
    if (!isFloatCast(op))
      return;
    if (auto func = op->getParentOfType<FunctionOpInterface>())
      casts[func].insert(op);
  }
  void notifyOperationErased(Operation *op) override {
    if (auto func = op->getParentOfType<FunctionOpInterface>()) {
      auto it = casts.find(func);
      if (it != casts.end())
        it->second.remove(op);
    }
  }
  /// Thread-safe for distinct functions once no update runs: each function
  /// has its own entry.
  SmallVector<Operation *> takeCastsIn(Operation *func) {
    auto it = casts.find(func);
    if (it == casts.end())
      return {};
    return it->second.takeVector();
  }
  DenseMap<Operation *, llvm::SetVector<Operation *>> casts;
};

/// Groups the indices of `functions` in waves, callees before callers: a
/// function waits for the functions it calls whose signatures may change
/// (isSignatureUpdatable). A cycle of calls is broken at its first function
/// in module order.
static SmallVector<SmallVector<size_t>>
orderCalleesFirst(Operation *root, ArrayRef<Operation *> functions) {
  DenseMap<Operation *, size_t> index;
  for (auto [i, func] : llvm::enumerate(functions))
    index[func] = i;
  SymbolTableCollection symbolTables;
  SmallVector<SmallVector<size_t>> callers(functions.size());
  SmallVector<unsigned> waitingFor(functions.size(), 0);
  for (auto [i, func] : llvm::enumerate(functions)) {
    llvm::SmallDenseSet<size_t> callees;
    func->walk([&](CallOpInterface call) {
      Operation *callee = call.resolveCallableInTable(&symbolTables);
      auto it = callee ? index.find(callee) : index.end();
      if (it != index.end() && it->second != i &&
          isSignatureUpdatable(callee, root) && callees.insert(it->second).second)
        callers[it->second].push_back(i);
    });
    waitingFor[i] = callees.size();
  }
  SmallVector<SmallVector<size_t>> waves;
  SmallVector<bool> done(functions.size(), false);
  SmallVector<size_t> ready;
  for (size_t i = 0; i < functions.size(); ++i)
    if (waitingFor[i] == 0)
      ready.push_back(i);
  size_t remaining = functions.size(), nextUndone = 0;
  while (remaining) {
    if (ready.empty()) { // A cycle: take the first function not done.
      while (done[nextUndone])
        ++nextUndone;
      ready.push_back(nextUndone);
    }
    SmallVector<size_t> wave = std::move(ready);
    ready.clear();
    for (size_t i : wave) {
      done[i] = true;
      --remaining;
    }
    for (size_t i : wave)
      for (size_t caller : callers[i])
        if (!done[caller] && waitingFor[caller] && --waitingFor[caller] == 0)
          ready.push_back(caller);
    llvm::sort(ready);
    waves.push_back(std::move(wave));
  }
  return waves;
}

void AmpMixedPrecisionPass::runOnOperation() {
  Operation *root = getOperation();
  if (auto func = dyn_cast<FunctionOpInterface>(root)) {
    if (!func.isExternal() && failed(convertFunction(func)))
      signalPassFailure();
    return;
  }
  if (failed(convertModule(root)))
    signalPassFailure();
}

LogicalResult AmpMixedPrecisionPass::convertFunction(FunctionOpInterface func) {
  Operation *root = func.getOperation();
  if (!report.empty())
    return emitError(root->getLoc())
           << "report= needs amp-mixed-precision to run on a module, not on "
              "each function";
  if (!keepIOTypes)
    emitWarning(root->getLoc())
        << "keep-io-types=false changes signatures only when "
           "amp-mixed-precision runs on a module (call sites must change "
           "too): the signature of this function is kept";
  numFoldedPayloadValues += resolver.foldPayloads(root);
  MixedPrecisionOptions options = resolver.optionsFor(root);
  options.keepIOTypes = true;
  resolver.attachObservedRanges(root, options);
  FunctionConversion conversion;
  if (failed(convertToMixedPrecision(root, options, &conversion)))
    return failure();
  updateStatistics(conversion);
  return success();
}

LogicalResult AmpMixedPrecisionPass::convertWaves(
    Operation *root, ArrayRef<Operation *> functions,
    ArrayRef<SmallVector<size_t>> waves,
    ArrayRef<MixedPrecisionOptions> options,
    MutableArrayRef<FunctionConversion> conversions) {
  MLIRContext *ctx = &getContext();
  CallSiteCasts callSiteCasts;
  ParallelDiagnosticHandler diagHandler(ctx);
  for (ArrayRef<size_t> wave : waves) {
    LogicalResult converted = failableParallelForEach(ctx, wave, [&](size_t i) {
      diagHandler.setOrderIDForThread(i);
      LogicalResult result =
          convertToMixedPrecision(functions[i], options[i], &conversions[i],
                                  callSiteCasts.takeCastsIn(functions[i]));
      diagHandler.eraseOrderIDForThread();
      return result;
    });
    if (failed(converted))
      return failure();
    if (!keepIOTypes)
      for (size_t i : wave)
        (void)updatePublicSignature(functions[i], root, resolver.get().target,
                                    &callSiteCasts);
  }
  return success();
}

LogicalResult AmpMixedPrecisionPass::convertModule(Operation *root) {
  // Every function nested in the container, in parallel.
  SmallVector<Operation *> functions = collectFunctions(root);

  SmallVector<FunctionConversion, 0> conversions(functions.size());
  SmallVector<MixedPrecisionOptions, 0> options;
  options.reserve(functions.size());
  for (Operation *func : functions) {
    numFoldedPayloadValues += resolver.foldPayloads(func);
    options.push_back(resolver.optionsFor(func));
    resolver.attachObservedRanges(func, options.back());
    // The rounds to a fixed point are taken here, over the whole module (a
    // callee's conversion can change what its callers' plans see), and
    // decidedByRanges reads the records.
    options.back().fixedPoint = false;
    options.back().recordDecisions = true;
  }

  // With keep-io-types, all at once. Without, in waves, callees before
  // callers: a wave's public signatures change (and their call sites) before
  // its callers are converted, so that these see the new types and a second
  // run has nothing left to do.
  SmallVector<SmallVector<size_t>> waves =
      keepIOTypes ? SmallVector<SmallVector<size_t>>{llvm::to_vector(
                        llvm::seq<size_t>(0, functions.size()))}
                  : orderCalleesFirst(root, functions);
  if (failed(convertWaves(root, functions, waves, options, conversions)))
    return failure();

  // A fixed point in one run (see convertToMixedPrecision): when a plan
  // used a range, the module is converted again, quietly, until it no
  // longer changes.
  if (llvm::any_of(conversions, [](const FunctionConversion &conversion) {
        return conversion.decidedByRanges();
      })) {
    for (MixedPrecisionOptions &quiet : options)
      quiet.diagnostics = false;
    for (int round = 1; round < kMaxConversionRounds; ++round) {
      OperationFingerPrint before(root);
      SmallVector<FunctionConversion, 0> again(functions.size());
      if (failed(convertWaves(root, functions, waves, options, again)))
        return failure();
      if (OperationFingerPrint(root) == before)
        break;
      for (auto [conversion, later] : llvm::zip(conversions, again))
        conversion.mergeLaterRound(later);
    }
  }
  if (report.empty())
    for (FunctionConversion &conversion : conversions)
      conversion.records.clear();

  for (const FunctionConversion &conversion : conversions)
    updateStatistics(conversion);

  // An FP8 report names the FP8 type as the target and the 16-bit type as
  // the fallback.
  const MixedPrecisionOptions &resolved = resolver.get();
  if (report.empty())
    return success();
  return writeReportFile(
      root, report, resolved.fp8Type ? resolved.fp8Type : resolved.target,
      conversions, resolved.fp8Type ? resolved.target : FloatType());
}

} // namespace

//===----------------------------------------------------------------------===//
// --amp-plan-precision
//===----------------------------------------------------------------------===//

namespace {

/// Writes the decisions of `plan` onto its ops: amp.precision with all three
/// types on the ops that run in 16 bits, amp.color = red on those that stay
/// in FP32, and amp.weights on the 16-bit contractions with a constant
/// weight when `weights` (weight-only=) is set, unless they have one. Ops whose types amp does not
/// convert are left alone.
void annotateDecisions(const PrecisionPlan &plan,
                       const std::optional<WeightQuantSpec> &weights) {
  StringRef weightsName = AmpDialect::WeightsAttrHelper::getNameStr();
  for (auto [i, op] : llvm::enumerate(plan.getOps())) {
    const OpDecision &d = plan.getDecision(i);
    if (d.reason == Reason::UnsupportedTypes)
      continue;
    MLIRContext *ctx = op->getContext();
    if (d.lowPrecision) {
      op->removeAttr(AmpDialect::ColorAttrHelper::getNameStr());
      op->setAttr(AmpDialect::PrecisionAttrHelper::getNameStr(),
                  PrecisionAttr::get(ctx, d.accumulateType, d.outputType,
                                     d.computeType));
      std::string why;
      // (An amp.weights annotation already there is the user's.)
      if (weights && !op->hasAttr(weightsName) &&
          hasWeightOnlyForm(op, d, *weights, why))
        op->setAttr(weightsName, WeightsAttr::get(ctx, weights->str()));
    } else {
      op->removeAttr(weightsName);
      op->removeAttr(AmpDialect::PrecisionAttrHelper::getNameStr());
      op->setAttr(AmpDialect::ColorAttrHelper::getNameStr(),
                  ColorAttr::get(ctx, Color::red));
    }
  }
}

void AmpPlanPrecisionPass::runOnOperation() {
  Operation *root = getOperation();
  if (resolver.get().fp8Type) {
    emitError(root->getLoc())
        << "amp-plan-precision: target-type=" << targetType
        << " is not supported: FP8 decisions come with scales, which only a "
           "conversion makes; annotate ops with #amp.precision<compute = "
        << targetType
        << ", accumulate = f32, output = f32> and run amp-mixed-precision "
           "(docs/fp8.md)";
    return signalPassFailure();
  }
  if (!report.empty()) {
    emitError(root->getLoc())
        << "amp-plan-precision: report= belongs to amp-mixed-precision (the "
           "annotations are the plan)";
    return signalPassFailure();
  }
  SmallVector<Operation *> functions;
  if (auto func = dyn_cast<FunctionOpInterface>(root)) {
    if (!func.isExternal())
      functions.push_back(root);
  } else {
    functions = collectFunctions(root);
  }
  SmallVector<MixedPrecisionOptions, 0> options;
  options.reserve(functions.size());
  for (Operation *func : functions) {
    resolver.foldPayloads(func);
    options.push_back(resolver.optionsFor(func));
    options.back().recordDecisions = false;
    options.back().countConstantBytes = false;
    resolver.attachObservedRanges(func, options.back());
  }
  ParallelDiagnosticHandler diagHandler(&getContext());
  LogicalResult planned = failableParallelForEach(
      &getContext(), llvm::seq<size_t>(0, functions.size()), [&](size_t i) {
        diagHandler.setOrderIDForThread(i);
        ConversionMemo memo;
        ConversionMemo::Scope memoScope(memo);
        PrecisionPlan plan(functions[i], options[i]);
        LogicalResult result = plan.run();
        if (succeeded(result))
          annotateDecisions(plan, options[i].weightOnly);
        diagHandler.eraseOrderIDForThread();
        return result;
      });
  if (failed(planned))
    signalPassFailure();
}

//===----------------------------------------------------------------------===//
// --amp-apply-precision
//===----------------------------------------------------------------------===//

struct AmpApplyPrecisionPass
    : public amp::impl::AmpApplyPrecisionPassBase<AmpApplyPrecisionPass> {
  using Base::Base;

  LogicalResult initialize(MLIRContext *ctx) override {
    if (targetType != "f16" && targetType != "bf16")
      return emitError(UnknownLoc::get(ctx))
             << "amp-apply-precision: invalid target-type '" << targetType
             << "'; expected one of: f16, bf16";
    AmpMixedPrecisionPassOptions options;
    options.targetType = targetType;
    options.keepIOTypes = keepIOTypes;
    convert = OpPassManager(OpPassManager::Nesting::Explicit);
    convert.addPass(createAmpMixedPrecisionPass(options));
    return success();
  }

  void getDependentDialects(DialectRegistry &registry) const override {
    Base::getDependentDialects(registry);
    convert.getDependentDialects(registry);
  }

  /// The conversion is --amp-mixed-precision's: every annotated op is
  /// pinned to its annotation, so the analysis has nothing left to decide
  /// for them, and the rewrite (casts, constants, accumulators, signatures)
  /// is the same code. Then the annotations go.
  void runOnOperation() override {
    Operation *root = getOperation();
    if (failed(runPipeline(convert, root)))
      return signalPassFailure();
    root->walk([](Operation *op) {
      op->removeAttr(AmpDialect::PrecisionAttrHelper::getNameStr());
      op->removeAttr(AmpDialect::ColorAttrHelper::getNameStr());
      op->removeAttr(AmpDialect::WeightsAttrHelper::getNameStr());
    });
  }

  OpPassManager convert{OpPassManager::Nesting::Explicit};
};

} // namespace
