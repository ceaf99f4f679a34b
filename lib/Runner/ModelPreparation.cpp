//===- ModelPreparation.cpp - Make a model runnable by amp-run ------------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Entry selection, shape specialization, harness isolation and weight
// randomization (see ModelPreparation.h). Weights are recognized through
// amp's MixedPrecisionOpInterface: a weight is what a green op reads as data.
//
//===----------------------------------------------------------------------===//

#include "amp/Runner/ModelPreparation.h"

#include "amp/IR/AmpInterfaces.h"
#include "amp/Runner/HostTensor.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Dominance.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/ADT/StringMap.h"

#include <cmath>

using namespace mlir;
using namespace mlir::amp;
using namespace mlir::amp::runner;

/// Ops that only print; they are removed from the entry.
static constexpr llvm::StringLiteral kPrintOps[] = {"vector.print"};

//===----------------------------------------------------------------------===//
// Entry selection and signature
//===----------------------------------------------------------------------===//

/// Appends "@a, @b, @c" to `diag`.
static void listFunctions(InFlightDiagnostic &diag,
                          ArrayRef<func::FuncOp> functions) {
  llvm::interleaveComma(functions, diag, [&](func::FuncOp fn) {
    diag << "@" << fn.getSymName();
  });
}

FailureOr<func::FuncOp> mlir::amp::runner::findEntry(ModuleOp module,
                                                     StringRef name) {
  Location loc = module.getLoc();
  SmallVector<func::FuncOp> defined, candidates;
  for (auto fn : module.getOps<func::FuncOp>()) {
    if (fn.isExternal())
      continue;
    defined.push_back(fn);
    if (fn.isPublic() && llvm::any_of(fn.getArgumentTypes(), [](Type type) {
          return isa<RankedTensorType>(type);
        }))
      candidates.push_back(fn);
  }

  if (!name.empty()) {
    auto fn = module.lookupSymbol<func::FuncOp>(name);
    if (fn && !fn.isExternal())
      return fn;
    InFlightDiagnostic diag = emitError(loc) << "no function @" << name
                                             << " with a body in the module";
    if (!defined.empty()) {
      diag << "; functions: ";
      listFunctions(diag, defined);
    }
    return failure();
  }

  if (candidates.size() == 1)
    return candidates.front();
  if (candidates.empty()) {
    InFlightDiagnostic diag = emitError(loc)
                              << "no public function takes a ranked tensor; "
                                 "name the entry with --entry";
    if (!defined.empty()) {
      diag << " (functions: ";
      listFunctions(diag, defined);
      diag << ")";
    }
    return failure();
  }
  InFlightDiagnostic diag =
      emitError(loc) << "several public functions take tensors; choose the "
                        "entry with --entry: ";
  listFunctions(diag, candidates);
  return failure();
}

LogicalResult
mlir::amp::runner::specializeArgumentShapes(func::FuncOp entry,
                                            ArrayRef<ArgumentShape> shapes) {
  for (const ArgumentShape &spec : shapes) {
    if (spec.argIndex >= entry.getNumArguments())
      return entry.emitError() << "--shape names argument #" << spec.argIndex
                               << " but @" << entry.getSymName() << " has "
                               << entry.getNumArguments() << " argument(s)";
    BlockArgument arg = entry.getArgument(spec.argIndex);
    auto type = dyn_cast<RankedTensorType>(arg.getType());
    if (!type)
      return entry.emitError()
             << "--shape names argument #" << spec.argIndex << " of type "
             << arg.getType() << ", which is not a ranked tensor";
    if (type.getRank() != static_cast<int64_t>(spec.shape.size()))
      return entry.emitError()
             << "--shape gives argument #" << spec.argIndex << " the rank "
             << spec.shape.size() << " shape " << formatShape(spec.shape)
             << " but its type " << type << " has rank " << type.getRank();
    for (auto [dim, wanted] : llvm::zip_equal(type.getShape(), spec.shape)) {
      if (!ShapedType::isDynamic(dim) && dim != wanted)
        return entry.emitError() << "--shape gives argument #" << spec.argIndex
                                 << " the shape " << formatShape(spec.shape)
                                 << ", which contradicts its type " << type;
    }
    auto staticType = RankedTensorType::get(spec.shape, type.getElementType(),
                                            type.getEncoding());
    if (staticType == type)
      continue;
    arg.setType(staticType);
    OpBuilder builder = OpBuilder::atBlockBegin(&entry.getBody().front());
    auto cast = tensor::CastOp::create(builder, entry.getLoc(), type, arg);
    arg.replaceAllUsesExcept(cast.getResult(), cast);
  }
  entry.setType(FunctionType::get(entry.getContext(),
                                  entry.getBody().getArgumentTypes(),
                                  entry.getResultTypes()));
  return success();
}

/// Checks the type of argument (or result) #`index` of `entry`.
static LogicalResult checkTensorType(func::FuncOp entry, Type type,
                                     bool isArgument, unsigned index) {
  std::string what =
      (isArgument ? "argument #" : "result #") + std::to_string(index);
  auto tensorType = dyn_cast<RankedTensorType>(type);
  if (!tensorType)
    return entry.emitError()
           << what << " has type " << type
           << ", which amp-run cannot pass: it runs functions on ranked "
              "tensors";
  if (!getElementKind(tensorType.getElementType()))
    return entry.emitError()
           << what << " has the element type " << tensorType.getElementType()
           << ", which amp-run does not support (supported: f32, f16, bf16, "
              "f64, i1, i8, i32, i64)";
  if (isArgument && !tensorType.hasStaticShape())
    return entry.emitError()
           << what << " has the dynamic type " << type
           << "; give it a static shape with --shape=" << index << ":"
           << formatShape(tensorType.getShape());
  return success();
}

LogicalResult mlir::amp::runner::verifyRunnableSignature(func::FuncOp entry) {
  for (auto [i, type] : llvm::enumerate(entry.getArgumentTypes()))
    if (failed(checkTensorType(entry, type, /*isArgument=*/true, i)))
      return failure();
  for (auto [i, type] : llvm::enumerate(entry.getResultTypes()))
    if (failed(checkTensorType(entry, type, /*isArgument=*/false, i)))
      return failure();
  if (entry.getNumResults() == 0)
    return entry.emitError() << "@" << entry.getSymName()
                             << " returns nothing and prints no tensor: "
                                "there is no output to compare";
  return success();
}

//===----------------------------------------------------------------------===//
// Harness isolation
//===----------------------------------------------------------------------===//

/// Returns the function `call` calls if it has no body.
static FunctionOpInterface getExternalCallee(Operation *op) {
  auto call = dyn_cast<CallOpInterface>(op);
  if (!call)
    return nullptr;
  auto callee = dyn_cast_or_null<FunctionOpInterface>(call.resolveCallable());
  if (!callee || !callee.isExternal())
    return nullptr;
  return callee;
}

/// True for ops that only serve the harness: printing ops and calls to
/// external functions that return nothing.
static bool isHarnessOp(Operation *op) {
  if (llvm::is_contained(kPrintOps, op->getName().getStringRef()))
    return true;
  return op->getNumResults() == 0 && getExternalCallee(op);
}

/// Erases the ops of `region` that have no use and no effect, and calls to
/// external functions whose results are unused. Returns true if it erased
/// anything.
static bool eraseDeadOps(Region &region) {
  bool changed = false;
  for (Block &block : region) {
    for (Operation &op : llvm::make_early_inc_range(llvm::reverse(block))) {
      for (Region &nested : op.getRegions())
        changed |= eraseDeadOps(nested);
      bool unusedExternalCall =
          op.getNumResults() > 0 && op.use_empty() && getExternalCallee(&op);
      if (unusedExternalCall || isOpTriviallyDead(&op)) {
        op.erase();
        changed = true;
      }
    }
  }
  return changed;
}

FailureOr<IsolationResult> mlir::amp::runner::isolateEntry(ModuleOp module,
                                                           func::FuncOp entry) {
  IsolationResult result;
  for (unsigned i = 0, e = entry.getNumResults(); i < e; ++i)
    result.outputNames.push_back("result" + std::to_string(i));

  // Tensors the entry prints become outputs when every return sees them.
  DominanceInfo dominance(entry);
  SmallVector<func::ReturnOp> returns;
  entry.walk([&](func::ReturnOp op) {
    if (op->getParentOp() == entry)
      returns.push_back(op);
  });
  SmallVector<Value> captured;
  llvm::StringMap<unsigned> capturesPerCallee;
  entry.walk([&](Operation *op) {
    FunctionOpInterface callee = getExternalCallee(op);
    if (!callee || op->getNumResults() != 0)
      return;
    for (Value operand : op->getOperands()) {
      if (!isa<TensorType>(operand.getType()))
        continue;
      while (auto cast = operand.getDefiningOp<tensor::CastOp>())
        operand = cast.getSource();
      bool available = isa<RankedTensorType>(operand.getType()) &&
                       llvm::all_of(returns, [&](func::ReturnOp ret) {
                         return dominance.properlyDominates(operand, ret);
                       });
      if (!available) {
        op->emitWarning() << "the tensor passed to @" << callee.getName()
                          << " is not available where @" << entry.getSymName()
                          << " returns; it is not compared";
        continue;
      }
      unsigned &count = capturesPerCallee[callee.getName()];
      result.outputNames.push_back(callee.getName().str() + "#" +
                                   std::to_string(count++));
      captured.push_back(operand);
    }
  });
  if (!captured.empty()) {
    for (func::ReturnOp ret : returns)
      ret->insertOperands(ret->getNumOperands(), captured);
    SmallVector<Type> resultTypes(entry.getResultTypes());
    for (Value value : captured)
      resultTypes.push_back(value.getType());
    entry.setType(FunctionType::get(entry.getContext(),
                                    entry.getArgumentTypes(), resultTypes));
  }

  // Remove the harness everywhere, then what only it used.
  SmallVector<Operation *> harness;
  module.walk([&](Operation *op) {
    if (isHarnessOp(op))
      harness.push_back(op);
  });
  for (Operation *op : harness)
    op->erase();
  result.numRemovedOps = harness.size();
  for (auto fn : module.getOps<func::FuncOp>())
    while (eraseDeadOps(fn.getBody())) {
    }

  // Keep only what the entry reaches.
  for (auto fn : module.getOps<func::FuncOp>())
    if (fn != entry)
      fn.setPrivate();
  entry.setPublic();
  PassManager pm(module.getContext());
  pm.addPass(createSymbolDCEPass());
  if (failed(pm.run(module)))
    return failure();
  return result;
}

//===----------------------------------------------------------------------===//
// Weight randomization
//===----------------------------------------------------------------------===//

/// How deep weights are followed through shape-only ops.
static constexpr int kMaxWeightDepth = 8;

/// Returns the number of elements of `type` if it is a static shaped type.
static std::optional<int64_t> getStaticNumElements(Type type) {
  auto shaped = dyn_cast<ShapedType>(type);
  if (!shaped || !shaped.hasStaticShape())
    return std::nullopt;
  return shaped.getNumElements();
}

/// True if `op` reads `value` as its only data input and produces results of
/// the same size: a reshape, transpose, cast or unary elementwise op.
static bool isShapeOnly(MixedPrecisionOpInterface op, Value value) {
  Operation *operation = op.getOperation();
  auto dps = dyn_cast<DestinationStyleOpInterface>(operation);
  for (OpOperand &operand : operation->getOpOperands()) {
    if (dps && dps.isDpsInit(&operand))
      continue;
    if (op.isDataOperand(operand) && operand.get() != value)
      return false;
  }
  std::optional<int64_t> size = getStaticNumElements(value.getType());
  return size && llvm::all_of(operation->getResultTypes(), [&](Type type) {
           return getStaticNumElements(type) == size;
         });
}

/// The fan-in of a weight read by `use` of the green op: the product of the
/// reduction loops that index it, when known; 0 otherwise.
static int64_t getFanIn(OpOperand &use) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(use.getOwner());
  if (!linalgOp)
    return 0;
  AffineMap map = linalgOp.getMatchingIndexingMap(&use);
  SmallVector<int64_t> ranges = linalgOp.getStaticLoopRanges();
  SmallVector<utils::IteratorType> iterators = linalgOp.getIteratorTypesArray();
  int64_t fanIn = 1;
  bool found = false;
  for (AffineExpr expr : map.getResults()) {
    auto dim = dyn_cast<AffineDimExpr>(expr);
    if (!dim || iterators[dim.getPosition()] != utils::IteratorType::reduction)
      continue;
    int64_t range = ranges[dim.getPosition()];
    if (ShapedType::isDynamic(range))
      return 0;
    fanIn *= range;
    found = true;
  }
  return found ? fanIn : 0;
}

/// True if `use` is a data input of `op` after its first one.
static bool isLaterDataInput(MixedPrecisionOpInterface op, OpOperand &use) {
  for (OpOperand &operand : op->getOpOperands()) {
    if (&operand == &use)
      return false;
    if (op.isDataOperand(operand) && !op.isAccumulatorOperand(operand))
      return true;
  }
  return false;
}

/// Follows `value` to the data operands of green ops. Returns the fan-in at
/// the first one (0 if unknown), or std::nullopt if `value` is no weight.
static std::optional<int64_t> findWeightUse(Value value, int depth,
                                            bool notFirstOperand) {
  for (OpOperand &use : value.getUses()) {
    auto op = dyn_cast<MixedPrecisionOpInterface>(use.getOwner());
    if (!op || !op.isDataOperand(use))
      continue;
    Color color = op.getDefaultColor();
    if (color == Color::green) {
      if (notFirstOperand && !isLaterDataInput(op, use))
        continue;
      return getFanIn(use);
    }
    if (color != Color::gray || depth >= kMaxWeightDepth ||
        !isShapeOnly(op, value))
      continue;
    for (Value next : op->getResults())
      if (std::optional<int64_t> fanIn =
              findWeightUse(next, depth + 1, notFirstOperand))
        return fanIn;
  }
  return std::nullopt;
}

std::optional<int64_t> mlir::amp::runner::getWeightFanIn(Value value,
                                                         bool notFirstOperand) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  if (!type || type.getRank() < 2 || !isa<FloatType>(type.getElementType()) ||
      !type.hasStaticShape())
    return std::nullopt;
  std::optional<int64_t> fanIn =
      findWeightUse(value, /*depth=*/0, notFirstOperand);
  if (!fanIn)
    return std::nullopt;
  if (*fanIn <= 0)
    fanIn = type.getNumElements() / std::max<int64_t>(type.getDimSize(0), 1);
  return std::max<int64_t>(*fanIn, 1);
}

double mlir::amp::runner::getHeUniformBound(int64_t fanIn) {
  return std::sqrt(6.0 / static_cast<double>(std::max<int64_t>(fanIn, 1)));
}

/// Returns the name of the attribute holding the value of the constant `op`,
/// if it is a float tensor constant amp-run may randomize.
static std::optional<StringAttr> getWeightAttrName(Operation *op) {
  if (!op->hasTrait<OpTrait::ConstantLike>() || op->getNumResults() != 1)
    return std::nullopt;
  auto type = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  if (!type || !isa<FloatType>(type.getElementType()))
    return std::nullopt;
  for (NamedAttribute attr : op->getAttrs()) {
    auto elements = dyn_cast<ElementsAttr>(attr.getValue());
    if (!elements || elements.getType() != type)
      continue;
    if (elements.isSplat() && elements.getSplatValue<APFloat>().isZero())
      return std::nullopt; // An accumulator init or padding, not a weight.
    return attr.getName();
  }
  return std::nullopt;
}

/// Builds a tensor of `type` with values uniform in [-bound, bound].
static DenseElementsAttr makeRandomTensor(RankedTensorType type, double bound,
                                          RandomGenerator &rng) {
  int64_t size = type.getNumElements();
  if (type.getElementType().isF32()) {
    std::vector<float> values(size);
    for (float &value : values)
      value = static_cast<float>(rng.uniform(-bound, bound));
    return DenseElementsAttr::get(type, llvm::ArrayRef(values));
  }
  const llvm::fltSemantics &semantics =
      cast<FloatType>(type.getElementType()).getFloatSemantics();
  SmallVector<APFloat> values;
  values.reserve(size);
  for (int64_t i = 0; i < size; ++i) {
    APFloat value(rng.uniform(-bound, bound));
    bool losesInfo = false;
    value.convert(semantics, APFloat::rmNearestTiesToEven, &losesInfo);
    values.push_back(value);
  }
  return DenseElementsAttr::get(type, values);
}

WeightRandomization mlir::amp::runner::randomizeWeights(ModuleOp module,
                                                        uint64_t seed) {
  WeightRandomization stats;
  uint64_t index = 0;
  module.walk([&](Operation *op) {
    std::optional<StringAttr> attrName = getWeightAttrName(op);
    if (!attrName)
      return;
    Value weight = op->getResult(0);
    std::optional<int64_t> fanIn =
        getWeightFanIn(weight, /*notFirstOperand=*/false);
    if (!fanIn)
      return;
    auto type = cast<RankedTensorType>(weight.getType());
    // Constant k draws from stream k, whatever the others draw.
    RandomGenerator rng(seed, index++);
    op->setAttr(*attrName,
                makeRandomTensor(type, getHeUniformBound(*fanIn), rng));
    ++stats.numConstants;
    stats.numValues += type.getNumElements();
  });
  return stats;
}
