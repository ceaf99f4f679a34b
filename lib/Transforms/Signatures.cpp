//===- Signatures.cpp - Public signatures in the target type --------------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// keep-io-types=false (MixedPrecision.h): a public function whose argument
// is only read in the target type, through casts down, takes that type; a
// result produced in the target type, and cast up only to be returned, is
// returned in it. Every call site in the module changes with it (casts at
// the call), so the module stays valid; a function with a use that is not a
// call it can update keeps its signature, with a remark.
//
//===----------------------------------------------------------------------===//

#include "amp/Transforms/MixedPrecision.h"

#include "amp/Utils/CastUtils.h"
#include "amp/Utils/TypeUtils.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

using namespace mlir;
using namespace mlir::amp;

/// If every use of `arg` is a cast to `target`, returns those casts.
static SmallVector<Operation *> getCastsDown(BlockArgument arg,
                                             FloatType target) {
  SmallVector<Operation *> result;
  for (Operation *user : arg.getUsers()) {
    Value source = getFloatCastSource(user);
    if (!source || getScalarType(user->getResult(0).getType()) != target)
      return {};
    result.push_back(user);
  }
  return result;
}

/// The call sites of `func` in `module`, if every use of its symbol there is
/// a call whose operands and results match the signature (so that it can be
/// updated with it). None when a use is something else, or when the uses
/// cannot be known (an unregistered op with regions may hide some).
static std::optional<SmallVector<CallOpInterface>>
getUpdatableCalls(FunctionOpInterface func, Operation *module) {
  std::optional<SymbolTable::UseRange> uses =
      SymbolTable::getSymbolUses(func, module);
  if (!uses)
    return std::nullopt;
  SmallVector<CallOpInterface> calls;
  for (const SymbolTable::SymbolUse &use : *uses) {
    auto call = dyn_cast<CallOpInterface>(use.getUser());
    if (!call || call.getArgOperands().size() != func.getNumArguments() ||
        call->getNumResults() != func.getNumResults())
      return std::nullopt;
    calls.push_back(call);
  }
  return calls;
}

bool mlir::amp::isSignatureUpdatable(Operation *op, Operation *module) {
  auto func = dyn_cast<FunctionOpInterface>(op);
  return func && !func.isExternal() && func->getParentOp() == module &&
         SymbolTable::getSymbolVisibility(func) ==
             SymbolTable::Visibility::Public;
}

namespace {
/// What updatePublicSignature changes in one function.
struct SignatureChange {
  SmallVector<Type> argTypes, resultTypes;
  /// The arguments that become the target type, each with its casts down.
  SmallVector<std::pair<unsigned, SmallVector<Operation *>>> newArgs;
  /// The return-like terminators, and the results they all produce by
  /// casting up from the target type.
  SmallVector<Operation *> returns;
  SmallVector<unsigned> changedResults;

  bool empty() const { return newArgs.empty() && changedResults.empty(); }
};
} // namespace

/// The arguments that are only cast down to the target type.
static void decideArguments(Block &entry, FloatType target,
                            SignatureChange &change) {
  for (BlockArgument arg : entry.getArguments()) {
    if (!isCastableFloatType(arg.getType()) ||
        !getScalarType(arg.getType()).isF32() || arg.use_empty())
      continue;
    SmallVector<Operation *> castsDown = getCastsDown(arg, target);
    if (castsDown.empty())
      continue;
    change.argTypes[arg.getArgNumber()] =
        castsDown.front()->getResult(0).getType();
    change.newArgs.push_back({arg.getArgNumber(), std::move(castsDown)});
  }
}

/// The results that every return produces by casting up from the target
/// type (the same source type at each).
static void decideResults(FunctionOpInterface func, FloatType target,
                          SignatureChange &change) {
  for (Block &block : func.getFunctionBody())
    if (Operation *term = block.getTerminator();
        term && term->hasTrait<OpTrait::ReturnLike>())
      change.returns.push_back(term);
  SmallVector<Type> &resultTypes = change.resultTypes;
  for (unsigned i = 0, e = resultTypes.size(); i < e && !change.returns.empty();
       ++i) {
    if (!getScalarType(resultTypes[i]).isF32())
      continue;
    Type newType;
    bool all = llvm::all_of(change.returns, [&](Operation *ret) {
      if (ret->getNumOperands() != e)
        return false;
      Value source = getFloatCastSource(ret->getOperand(i).getDefiningOp());
      if (!source || getScalarType(source.getType()) != target)
        return false;
      if (newType && source.getType() != newType)
        return false;
      newType = source.getType();
      return true;
    });
    if (!all)
      continue;
    resultTypes[i] = newType;
    change.changedResults.push_back(i);
  }
}

/// Retypes the function: its arguments replace their casts down, its
/// returns pass the sources of their casts up.
static void applyToFunction(RewriterBase &rewriter, FunctionOpInterface func,
                            const SignatureChange &change) {
  Block &entry = func.getFunctionBody().front();
  for (auto &[index, castsDown] : change.newArgs) {
    BlockArgument arg = entry.getArgument(index);
    arg.setType(change.argTypes[index]);
    for (Operation *castOp : castsDown)
      rewriter.replaceOp(castOp, arg);
  }
  for (unsigned i : change.changedResults) {
    for (Operation *ret : change.returns) {
      Operation *castOp = ret->getOperand(i).getDefiningOp();
      rewriter.modifyOpInPlace(
          ret, [&] { ret->setOperand(i, castOp->getOperand(0)); });
      if (castOp->use_empty())
        rewriter.eraseOp(castOp);
    }
  }
  func.setType(FunctionType::get(func->getContext(), change.argTypes,
                                 change.resultTypes));
}

/// A call site keeps its types through casts, which fold with the casts
/// already there: an argument that is an exact widening passes its source,
/// a result cast back down is the result itself.
static void updateCallSite(RewriterBase &rewriter, CallOpInterface call,
                           FloatType target, const SignatureChange &change) {
  rewriter.setInsertionPoint(call);
  DenseMap<Value, Value> narrowed; // One cast per value at this call.
  for (auto &[i, castsDown] : change.newArgs) {
    OpOperand &operand = call.getArgOperandsMutable()[i];
    Value value = operand.get();
    Value &narrow = narrowed[value];
    if (!narrow) {
      Value source = getFloatCastSource(value.getDefiningOp());
      narrow = source && source.getType() == change.argTypes[i]
                   ? source
                   : createFloatCast(rewriter, call.getLoc(), value, target,
                                     isTosaOp(value.getDefiningOp()));
    }
    rewriter.modifyOpInPlace(call, [&] { operand.set(narrow); });
  }
  rewriter.setInsertionPointAfter(call);
  for (unsigned i : change.changedResults) {
    Value result = call->getResult(i);
    Type oldType = result.getType();
    rewriter.modifyOpInPlace(call,
                             [&] { result.setType(change.resultTypes[i]); });
    Value wide =
        createFloatCast(rewriter, call.getLoc(), result, getScalarType(oldType),
                        /*preferTosa=*/false);
    rewriter.replaceAllUsesExcept(result, wide, wide.getDefiningOp());
    for (Operation *user : llvm::make_early_inc_range(wide.getUsers()))
      if (getFloatCastSource(user) &&
          user->getResult(0).getType() == result.getType())
        rewriter.replaceOp(user, result);
    if (wide.use_empty())
      rewriter.eraseOp(wide.getDefiningOp());
  }
}

int64_t mlir::amp::updatePublicSignature(Operation *op, Operation *module,
                                         FloatType target,
                                         RewriterBase::Listener *listener) {
  if (!isSignatureUpdatable(op, module))
    return 0;
  auto func = cast<FunctionOpInterface>(op);
  IRRewriter rewriter(module->getContext(), listener);

  // Decide first: the arguments only cast down to the target type, the
  // results that every return produces by casting up from it.
  SignatureChange change;
  change.argTypes.assign(func.getArgumentTypes().begin(),
                         func.getArgumentTypes().end());
  change.resultTypes.assign(func.getResultTypes().begin(),
                            func.getResultTypes().end());
  decideArguments(func.getFunctionBody().front(), target, change);
  decideResults(func, target, change);
  if (change.empty())
    return 0;

  // A signature changes only with all of its call sites.
  std::optional<SmallVector<CallOpInterface>> calls =
      getUpdatableCalls(func, module);
  if (!calls) {
    mlir::emitRemark(func->getLoc())
        << "keep-io-types=false: the signature of @"
        << SymbolTable::getSymbolName(func).getValue()
        << " is kept: not all of its uses are calls that can be updated";
    return 0;
  }
  applyToFunction(rewriter, func, change);
  for (CallOpInterface call : *calls)
    updateCallSite(rewriter, call, target, change);
  return change.newArgs.size() + change.changedResults.size();
}

int64_t mlir::amp::updatePublicSignatures(Operation *module,
                                          FloatType target) {
  SmallVector<Operation *> functions;
  for (Region &region : module->getRegions())
    for (Block &block : region)
      for (Operation &op : block)
        if (isSignatureUpdatable(&op, module))
          functions.push_back(&op);
  int64_t changed = 0;
  for (Operation *func : functions)
    changed += updatePublicSignature(func, module, target);
  return changed;
}
