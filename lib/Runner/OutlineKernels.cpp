//===- OutlineKernels.cpp - Loop nests into functions of their own --------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The --amp-outline-kernels pass and the helpers behind it
// (KernelOutlining.h): a loop nest directly in a function's body becomes a
// private function and a call; the work estimate that amp-tune's kernel
// cache uses to choose an optimization level.
//
//===----------------------------------------------------------------------===//

#include "amp/Runner/KernelOutlining.h"
#include "amp/Runner/Passes.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringSet.h"

#include <limits>

namespace mlir {
namespace amp {
#define GEN_PASS_DEF_AMPOUTLINEKERNELSPASS
#include "amp/Runner/Passes.h.inc"
} // namespace amp
} // namespace mlir

using namespace mlir;
using namespace mlir::amp::runner;

//===----------------------------------------------------------------------===//
// Outlining
//===----------------------------------------------------------------------===//

/// True if an attribute of `op` or of an op inside it names a symbol.
static bool referencesSymbol(Operation *op) {
  WalkResult result = op->walk([](Operation *inner) {
    for (NamedAttribute attr : inner->getAttrs()) {
      bool found = false;
      attr.getValue().walk([&](SymbolRefAttr) { found = true; });
      if (found)
        return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return result.wasInterrupted();
}

/// True if `op` is a constant that can be copied into a kernel.
static bool isCopyableConstant(Operation *op) {
  return op && op->hasTrait<OpTrait::ConstantLike>() &&
         op->getNumOperands() == 0 && op->getNumRegions() == 0;
}

/// What the nest computes, for its kernel's name: the distinct ops of the
/// arith and math dialects in it that do not compute indices, at most four,
/// in order; `copy` or `fill` when there are none.
static std::string describeNest(Operation *nest) {
  SmallVector<StringRef, 4> names;
  llvm::StringSet<> seen;
  bool loads = false;
  nest->walk([&](Operation *op) {
    StringRef dialect = op->getName().getDialectNamespace();
    if (op->getName().getStringRef().ends_with(".load"))
      loads = true;
    if ((dialect != "arith" && dialect != "math") ||
        op->hasTrait<OpTrait::ConstantLike>() ||
        llvm::all_of(op->getResultTypes(),
                     [](Type type) { return type.isIndex(); }))
      return;
    StringRef name = op->getName().stripDialect();
    if (names.size() < 4 && seen.insert(name).second)
      names.push_back(name);
  });
  if (names.empty())
    return loads ? "copy" : "fill";
  return llvm::join(names, "_");
}

/// The dimension of `nest` whose bounds become the kernel's range arguments
/// (OutlineOptions::rangeArguments), if any.
static std::optional<unsigned> chooseRangeDimension(Operation *nest) {
  auto parallel = dyn_cast<scf::ParallelOp>(nest);
  if (!parallel || parallel.getNumReductions() != 0)
    return std::nullopt;
  std::optional<unsigned> best;
  int64_t bestTrips = 1;
  for (unsigned d = 0, e = parallel.getNumLoops(); d < e; ++d) {
    std::optional<int64_t> lower =
        getConstantIntValue(parallel.getLowerBound()[d]);
    std::optional<int64_t> upper =
        getConstantIntValue(parallel.getUpperBound()[d]);
    std::optional<int64_t> step = getConstantIntValue(parallel.getStep()[d]);
    if (!lower || !upper || step != 1 || *upper - *lower <= bestTrips)
      continue;
    best = d;
    bestTrips = *upper - *lower;
  }
  return best;
}

/// Moves `nest` of `function` into a new function named `name`, inserted
/// after `after`; returns it. With `rangeDim`, the kernel's first two
/// arguments are the bounds of that dimension of the scf.parallel nest.
static func::FuncOp outlineNest(Operation *nest, func::FuncOp function,
                                StringRef name, Operation *after,
                                std::optional<unsigned> rangeDim,
                                SymbolTable &symbols) {
  llvm::SetVector<Value> used;
  for (Value operand : nest->getOperands())
    used.insert(operand);
  getUsedValuesDefinedAbove(nest->getRegions(), used);
  SmallVector<Value> arguments;
  llvm::SetVector<Operation *> constants;
  for (Value value : used) {
    if (isCopyableConstant(value.getDefiningOp()))
      constants.insert(value.getDefiningOp());
    else
      arguments.push_back(value);
  }

  MLIRContext *ctx = function.getContext();
  Location loc = nest->getLoc();
  OpBuilder builder(ctx);
  if (rangeDim) {
    auto parallel = cast<scf::ParallelOp>(nest);
    arguments.insert(arguments.begin(), {parallel.getLowerBound()[*rangeDim],
                                         parallel.getUpperBound()[*rangeDim]});
  }
  auto type = FunctionType::get(ctx, ValueRange(arguments).getTypes(), {});
  auto kernel = func::FuncOp::create(builder, loc, name, type);
  kernel.setPrivate();
  symbols.insert(kernel, std::next(Block::iterator(after)));

  Block *body = kernel.addEntryBlock();
  IRMapping mapping;
  unsigned first = rangeDim ? 2 : 0;
  mapping.map(ArrayRef(arguments).drop_front(first),
              body->getArguments().drop_front(first));
  builder.setInsertionPointToStart(body);
  for (Operation *constant : constants)
    builder.clone(*constant, mapping);
  Operation *copy = builder.clone(*nest, mapping);
  if (rangeDim) {
    auto parallel = cast<scf::ParallelOp>(copy);
    parallel.getLowerBoundMutable()[*rangeDim].set(body->getArgument(0));
    parallel.getUpperBoundMutable()[*rangeDim].set(body->getArgument(1));
  }
  func::ReturnOp::create(builder, loc);

  builder.setInsertionPoint(nest);
  func::CallOp::create(builder, loc, kernel, arguments);
  nest->erase();
  for (Operation *constant : constants)
    if (constant->use_empty())
      constant->erase();
  return kernel;
}

OutlineCounts
mlir::amp::runner::outlineLoopNests(func::FuncOp function, SymbolTable &symbols,
                                    const OutlineOptions &options,
                                    SmallVectorImpl<OutlinedKernel> *kernels) {
  OutlineCounts counts;
  if (function.isExternal())
    return counts;
  SmallVector<Operation *> nests;
  for (Block &block : function.getBody())
    for (Operation &op : block)
      if (isa<LoopLikeOpInterface>(op))
        nests.push_back(&op);
  unsigned index = 0;
  Operation *after = function;
  for (Operation *nest : nests) {
    if (nest->getNumResults() != 0 || referencesSymbol(nest)) {
      ++counts.keptInline;
      continue;
    }
    std::string name = (function.getSymName() + "_" + Twine(index++) + "_" +
                        describeNest(nest))
                           .str();
    std::optional<unsigned> rangeDim;
    if (options.rangeArguments)
      rangeDim = chooseRangeDimension(nest);
    auto kernel = outlineNest(nest, function, name, after, rangeDim, symbols);
    after = kernel;
    if (kernels)
      kernels->push_back({kernel, rangeDim.has_value()});
    ++counts.outlined;
  }
  return counts;
}

//===----------------------------------------------------------------------===//
// Work estimate
//===----------------------------------------------------------------------===//

/// Iterations assumed for a loop whose trip count is not a constant.
static constexpr int64_t kUnknownTripCount = 1024;

static int64_t saturatingAdd(int64_t a, int64_t b) {
  return a > std::numeric_limits<int64_t>::max() - b
             ? std::numeric_limits<int64_t>::max()
             : a + b;
}

static int64_t saturatingMul(int64_t a, int64_t b) {
  if (a == 0 || b == 0)
    return 0;
  return a > std::numeric_limits<int64_t>::max() / b
             ? std::numeric_limits<int64_t>::max()
             : a * b;
}

int64_t mlir::amp::runner::estimateExecutedOps(Operation *op) {
  int64_t inside = 0;
  for (Region &region : op->getRegions())
    for (Block &block : region)
      for (Operation &nested : block)
        inside = saturatingAdd(inside, estimateExecutedOps(&nested));
  auto loop = dyn_cast<LoopLikeOpInterface>(op);
  if (!loop)
    return saturatingAdd(1, inside);
  int64_t trips = kUnknownTripCount;
  if (std::optional<APInt> count = loop.getStaticTripCount())
    trips = count->getLimitedValue(std::numeric_limits<int64_t>::max());
  return saturatingAdd(1, saturatingMul(trips, inside));
}

//===----------------------------------------------------------------------===//
// Pass
//===----------------------------------------------------------------------===//

namespace {

struct AmpOutlineKernelsPass
    : public amp::impl::AmpOutlineKernelsPassBase<AmpOutlineKernelsPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    SmallVector<func::FuncOp> functions(module.getOps<func::FuncOp>());
    OutlineOptions options;
    options.rangeArguments = rangeArguments;
    for (func::FuncOp function : functions) {
      OutlineCounts counts = outlineLoopNests(function, symbols, options);
      numOutlined += counts.outlined;
      numKeptInline += counts.keptInline;
    }
  }
};

} // namespace
