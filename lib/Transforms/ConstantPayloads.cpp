//===- ConstantPayloads.cpp - Evaluate constant payload parts -------------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// See ConstantPayloads.h. For one linalg.generic:
//
//  1. Products by several constants in the payload are regrouped, so that
//     the constant factors form one value of their own.
//  2. Every payload value is marked constant or not: a constant one reads
//     only constant inputs (dense constants through projected permutations),
//     scalar constants and loop indices, through ops ScalarEvaluation.h can
//     evaluate; it varies with the loops its leaves index.
//  3. The largest constant values that a non-constant op (or the yield)
//     reads are evaluated at every point of their loops, into a scalar
//     constant in the payload (a value that does not vary, or a splat) or a
//     new constant input; inputs nothing reads any more are dropped.
//
//===----------------------------------------------------------------------===//

#include "amp/Transforms/ConstantPayloads.h"

#include "amp/Transforms/Passes.h"
#include "amp/Utils/LinalgUtils.h"
#include "amp/Utils/ScalarEvaluation.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SetVector.h"

#include <cstring>

using namespace mlir;
using namespace mlir::amp;

namespace {

/// Loops a value varies with, one bit each.
using DimSet = uint64_t;
constexpr unsigned kMaxLoops = 64;

/// A constant input of the op, read at a point of the loops.
struct Leaf {
  AffineMap map;
  /// Row-major strides of the constant, per result of the map.
  SmallVector<int64_t, 4> strides;
  /// The elements (one for a splat).
  std::vector<ScalarValue> elements;
  DimSet dims = 0;
};

/// One step of an evaluation program: where a value comes from.
struct Step {
  enum Kind { FromLeaf, Fixed, LoopIndex, FromOp } kind;
  unsigned index = 0; // leaf or loop
  ScalarValue fixed;
  Operation *op = nullptr;
  SmallVector<unsigned, 3> operands; // earlier steps
};

/// Reads the elements of a dense constant of an evaluable element type.
std::optional<std::vector<ScalarValue>> readElements(DenseElementsAttr dense) {
  Type elt = dense.getElementType();
  if (!isEvaluableScalarType(elt) || dense.getNumElements() == 0)
    return std::nullopt;
  std::vector<ScalarValue> out;
  if (isa<FloatType>(elt)) {
    auto values = dense.tryGetValues<APFloat>();
    if (failed(values))
      return std::nullopt;
    if (dense.isSplat())
      return std::vector<ScalarValue>{{(*values->begin()).convertToDouble(), 0}};
    out.reserve(dense.getNumElements());
    if (elt.isF32())
      for (float v : dense.getValues<float>())
        out.push_back({v, 0});
    else
      for (double v : dense.getValues<double>())
        out.push_back({v, 0});
    return out;
  }
  unsigned width = elt.isIndex() ? 64 : elt.getIntOrFloatBitWidth();
  auto fromInt = [&](const APInt &v) {
    return ScalarValue{0, width == 1 ? -static_cast<int64_t>(v.getZExtValue())
                                     : v.getSExtValue()};
  };
  if (dense.isSplat())
    return std::vector<ScalarValue>{fromInt(dense.getSplatValue<APInt>())};
  out.reserve(dense.getNumElements());
  for (const APInt &v : dense.getValues<APInt>())
    out.push_back(fromInt(v));
  return out;
}

/// Builds a dense constant of `type` from evaluated elements (a splat when
/// they are all equal).
DenseElementsAttr buildElements(RankedTensorType type,
                                ArrayRef<ScalarValue> values) {
  Type elt = type.getElementType();
  bool isFloat = isa<FloatType>(elt);
  auto same = [&](const ScalarValue &a, const ScalarValue &b) {
    if (isFloat)
      return std::memcmp(&a.f, &b.f, sizeof(double)) == 0;
    return a.i == b.i;
  };
  bool splat = llvm::all_of(values, [&](auto &v) { return same(v, values[0]); });
  ArrayRef<ScalarValue> data = splat ? values.take_front() : values;
  auto splatType = splat ? RankedTensorType::get({}, elt) : type;
  DenseElementsAttr attr;
  if (elt.isF32()) {
    SmallVector<float> v;
    for (const ScalarValue &s : data)
      v.push_back(static_cast<float>(s.f));
    attr = DenseElementsAttr::get(splatType, ArrayRef(v));
  } else if (elt.isF64()) {
    SmallVector<double> v;
    for (const ScalarValue &s : data)
      v.push_back(s.f);
    attr = DenseElementsAttr::get(splatType, ArrayRef(v));
  } else {
    unsigned width = elt.isIndex() ? 64 : elt.getIntOrFloatBitWidth();
    SmallVector<APInt> v;
    for (const ScalarValue &s : data)
      v.push_back(APInt(width, static_cast<uint64_t>(s.i), /*isSigned=*/true,
                        /*implicitTrunc=*/true));
    attr = DenseElementsAttr::get(splatType, ArrayRef(v));
  }
  return splat ? attr.resizeSplat(type) : attr;
}

TypedAttr getScalarAttr(Type type, const ScalarValue &value) {
  if (isa<FloatType>(type))
    return FloatAttr::get(type, value.f);
  return IntegerAttr::get(type, APInt(type.isIndex() ? 64 : type.getIntOrFloatBitWidth(),
                                      static_cast<uint64_t>(value.i), true, true));
}

/// The constant part of one generic's payload, and its evaluation.
class ConstantPayload {
public:
  ConstantPayload(linalg::GenericOp op, int64_t maxElements)
      : op(op), maxElements(maxElements) {}

  /// Marks the constant values; false if the op cannot take part.
  bool analyze();
  /// The largest constant values read by the rest of the payload, with the
  /// loops each varies with, in payload order.
  SmallVector<std::pair<Value, DimSet>> getRoots() const;
  /// Evaluates `root` at every point of its loops (row-major over the
  /// loops in order); nullopt if some point is undefined or the result
  /// would be too large.
  std::optional<std::vector<ScalarValue>> evaluate(Value root, DimSet dims);
  SmallVector<int64_t> getShape(DimSet dims) const;
  /// The number of points of these loops.
  int64_t getCount(DimSet dims) const;
  bool isConstant(Value value) const { return dimsOf.count(value); }
  DimSet getDims(Value value) const { return dimsOf.lookup(value); }
  /// The arguments of splat inputs that the rest of the payload reads, with
  /// their value.
  SmallVector<std::pair<BlockArgument, ScalarValue>> getSplatLeaves() const;

private:
  void buildProgram(Value root, SmallVectorImpl<Step> &program,
                    llvm::DenseMap<Value, unsigned> &slotOf,
                    int64_t &leafElements);

  /// (Op accessors are not const.)
  mutable linalg::GenericOp op;
  int64_t maxElements;
  SmallVector<int64_t> loopRanges;
  SmallVector<Leaf> leaves;
  llvm::DenseMap<Value, unsigned> leafOf;
  llvm::DenseMap<Value, DimSet> dimsOf;
};

bool ConstantPayload::analyze() {
  if (!op.hasPureTensorSemantics() || op->getNumRegions() != 1 ||
      !op.getRegion().hasOneBlock())
    return false;
  loopRanges = getStaticLoopExtents(op);
  if (loopRanges.size() > kMaxLoops ||
      llvm::any_of(loopRanges, ShapedType::isDynamic))
    return false;
  Block &body = op.getRegion().front();
  for (OpOperand *input : op.getDpsInputOperands()) {
    AffineMap map = op.getMatchingIndexingMap(input);
    DenseElementsAttr dense;
    if (!map.isProjectedPermutation() ||
        !matchPattern(input->get(), m_Constant(&dense)))
      continue;
    std::optional<std::vector<ScalarValue>> elements = readElements(dense);
    if (!elements)
      continue;
    Leaf leaf;
    leaf.map = map;
    ArrayRef<int64_t> shape = cast<ShapedType>(dense.getType()).getShape();
    leaf.strides.assign(shape.size(), 1);
    for (int64_t r = static_cast<int64_t>(shape.size()) - 2; r >= 0; --r)
      leaf.strides[r] = leaf.strides[r + 1] * shape[r + 1];
    for (unsigned r = 0; r < map.getNumResults(); ++r)
      leaf.dims |= DimSet(1) << map.getDimPosition(r);
    leaf.elements = std::move(*elements);
    BlockArgument arg = op.getMatchingBlockArgument(input);
    dimsOf[arg] = leaf.dims;
    leafOf[arg] = leaves.size();
    leaves.push_back(std::move(leaf));
  }
  for (Operation &inner : body.without_terminator()) {
    if (auto index = dyn_cast<linalg::IndexOp>(inner)) {
      dimsOf[index.getResult()] = DimSet(1) << index.getDim();
      continue;
    }
    if (!isEvaluableScalarOp(&inner))
      continue;
    DimSet dims = 0;
    bool constant = llvm::all_of(inner.getOperands(), [&](Value operand) {
      auto it = dimsOf.find(operand);
      if (it != dimsOf.end()) {
        dims |= it->second;
        return true;
      }
      // A scalar constant from above.
      Operation *def = operand.getDefiningOp();
      if (def && !op->isAncestor(def) && getScalarConstant(def)) {
        dimsOf[operand] = 0;
        return true;
      }
      return false;
    });
    if (constant)
      dimsOf[inner.getResult(0)] = dims;
  }
  return true;
}

SmallVector<std::pair<Value, DimSet>> ConstantPayload::getRoots() const {
  SmallVector<std::pair<Value, DimSet>> roots;
  Block &body = op.getRegion().front();
  for (Operation &inner : body.without_terminator()) {
    if (inner.getNumResults() != 1 || isa<linalg::IndexOp>(inner) ||
        isa<arith::ConstantOp>(inner))
      continue;
    Value value = inner.getResult(0);
    auto it = dimsOf.find(value);
    if (it == dimsOf.end())
      continue;
    bool readByRest = llvm::any_of(value.getUsers(), [&](Operation *user) {
      return user->getNumResults() != 1 || !isConstant(user->getResult(0));
    });
    if (!readByRest)
      continue;
    // A value that is one of its leaves converted (extf of an input) is no
    // work: it would only copy the input. One that does not vary is always
    // worth a scalar.
    bool isWork = it->second == 0 ||
                  !(isa<arith::ExtFOp, arith::TruncFOp>(inner) &&
                    leafOf.count(inner.getOperand(0)));
    if (isWork)
      roots.push_back({value, it->second});
  }
  return roots;
}

SmallVector<std::pair<BlockArgument, ScalarValue>>
ConstantPayload::getSplatLeaves() const {
  SmallVector<std::pair<BlockArgument, ScalarValue>> splats;
  for (auto [value, index] : leafOf) {
    const Leaf &leaf = leaves[index];
    bool readByRest = llvm::any_of(value.getUsers(), [&](Operation *user) {
      return user->getNumResults() != 1 || !isConstant(user->getResult(0));
    });
    if (leaf.elements.size() == 1 && readByRest)
      splats.push_back({cast<BlockArgument>(value), leaf.elements[0]});
  }
  // In argument order, so that the payload reads the same every time.
  llvm::sort(splats, [](const auto &a, const auto &b) {
    return a.first.getArgNumber() < b.first.getArgNumber();
  });
  return splats;
}

int64_t ConstantPayload::getCount(DimSet dims) const {
  int64_t count = 1;
  for (int64_t size : getShape(dims))
    count *= size;
  return count;
}

SmallVector<int64_t> ConstantPayload::getShape(DimSet dims) const {
  SmallVector<int64_t> shape;
  for (unsigned d = 0; d < loopRanges.size(); ++d)
    if (dims & (DimSet(1) << d))
      shape.push_back(loopRanges[d]);
  return shape;
}

void ConstantPayload::buildProgram(Value root, SmallVectorImpl<Step> &program,
                                   llvm::DenseMap<Value, unsigned> &slotOf,
                                   int64_t &leafElements) {
  if (slotOf.count(root))
    return;
  Step step;
  if (auto leaf = leafOf.find(root); leaf != leafOf.end()) {
    step.kind = Step::FromLeaf;
    step.index = leaf->second;
    leafElements += leaves[leaf->second].elements.size();
  } else if (auto index = root.getDefiningOp<linalg::IndexOp>()) {
    step.kind = Step::LoopIndex;
    step.index = index.getDim();
  } else if (Operation *def = root.getDefiningOp(); !op->isAncestor(def)) {
    step.kind = Step::Fixed;
    step.fixed = *getScalarConstant(def);
  } else {
    step.kind = Step::FromOp;
    step.op = root.getDefiningOp();
    for (Value operand : def->getOperands()) {
      buildProgram(operand, program, slotOf, leafElements);
      step.operands.push_back(slotOf.lookup(operand));
    }
  }
  slotOf[root] = program.size();
  program.push_back(std::move(step));
}

/// The largest integer every 16-bit float type holds exactly (bf16: 2^8).
constexpr int64_t kExactIn16Bits = 256;

/// True if the integer operand of the conversion `op` is one that every
/// 16-bit float type holds exactly.
static bool isExactInEvery16BitType(Operation *op, const ScalarValue &value) {
  if (isa<arith::UIToFPOp>(op)) {
    Type type = op->getOperand(0).getType();
    unsigned width = type.isIndex() ? 64 : type.getIntOrFloatBitWidth();
    uint64_t bits = width >= 64 ? static_cast<uint64_t>(value.i)
                                : static_cast<uint64_t>(value.i) &
                                      ((uint64_t(1) << width) - 1);
    return bits <= static_cast<uint64_t>(kExactIn16Bits);
  }
  return value.i >= -kExactIn16Bits && value.i <= kExactIn16Bits;
}

std::optional<std::vector<ScalarValue>>
ConstantPayload::evaluate(Value root, DimSet dims) {
  SmallVector<Step> program;
  llvm::DenseMap<Value, unsigned> slotOf;
  int64_t leafElements = 0;
  buildProgram(root, program, slotOf, leafElements);
  int64_t count = getCount(dims);
  if (count > std::max(maxElements, leafElements))
    return std::nullopt;
  SmallVector<unsigned> loops;
  for (unsigned d = 0; d < loopRanges.size(); ++d)
    if (dims & (DimSet(1) << d))
      loops.push_back(d);

  std::vector<ScalarValue> result;
  result.reserve(count);
  SmallVector<int64_t> point(loopRanges.size(), 0);
  SmallVector<ScalarValue> slots(program.size());
  SmallVector<ScalarValue, 3> operands;
  for (int64_t n = 0; n < count; ++n) {
    for (auto [slot, step] : llvm::enumerate(program)) {
      switch (step.kind) {
      case Step::FromLeaf: {
        const Leaf &leaf = leaves[step.index];
        int64_t at = 0;
        if (leaf.elements.size() > 1)
          for (unsigned r = 0; r < leaf.map.getNumResults(); ++r)
            at += point[leaf.map.getDimPosition(r)] * leaf.strides[r];
        slots[slot] = leaf.elements[at];
        break;
      }
      case Step::Fixed:
        slots[slot] = step.fixed;
        break;
      case Step::LoopIndex:
        slots[slot] = {0, point[step.index]};
        break;
      case Step::FromOp: {
        operands.clear();
        for (unsigned from : step.operands)
          operands.push_back(slots[from]);
        // Integers that a 16-bit type would not hold exactly (positions
        // beyond 256) stay a conversion, which the range analysis keeps in
        // FP32 (`integer not exact`); as a constant, they would be rounded
        // like any weight.
        if (isa<arith::SIToFPOp, arith::UIToFPOp>(step.op) &&
            !isExactInEvery16BitType(step.op, operands[0]))
          return std::nullopt;
        std::optional<ScalarValue> value = evaluateScalarOp(step.op, operands);
        if (!value)
          return std::nullopt;
        slots[slot] = *value;
        break;
      }
      }
    }
    result.push_back(slots.back());
    // The next point, the last loop fastest.
    for (size_t k = loops.size(); k-- > 0;) {
      if (++point[loops[k]] < loopRanges[loops[k]])
        break;
      point[loops[k]] = 0;
    }
  }
  return result;
}

/// Regroups `(x * a) * b` (and divisions by constants) into `x * (a * b)`
/// where a and b are constant and the inner product has no other reader,
/// so that the constant factors form one value. Returns true if it changed
/// the payload.
bool regroupConstantFactors(RewriterBase &rewriter, linalg::GenericOp op,
                            const ConstantPayload &payload,
                            int64_t maxElements) {
  bool changed = false;
  Block &body = op.getRegion().front();
  // (x op1 a) op2 b, with op in {mul, div by}: the factor of x.
  auto split = [&](Operation *inner, Value &x, Value &factor, bool &divides) {
    if (auto mul = dyn_cast<arith::MulFOp>(inner)) {
      bool lhs = payload.isConstant(mul.getLhs());
      bool rhs = payload.isConstant(mul.getRhs());
      if (lhs == rhs)
        return false;
      x = lhs ? mul.getRhs() : mul.getLhs();
      factor = lhs ? mul.getLhs() : mul.getRhs();
      divides = false;
      return true;
    }
    if (auto div = dyn_cast<arith::DivFOp>(inner)) {
      if (payload.isConstant(div.getLhs()) || !payload.isConstant(div.getRhs()))
        return false;
      x = div.getLhs();
      factor = div.getRhs();
      divides = true;
      return true;
    }
    return false;
  };
  for (Operation &outer : llvm::make_early_inc_range(body.without_terminator())) {
    Value inner, b, x, a;
    bool divB, divA;
    if (!split(&outer, inner, b, divB))
      continue;
    Operation *innerOp = inner.getDefiningOp();
    if (!innerOp || innerOp->getBlock() != &body || !inner.hasOneUse() ||
        !split(innerOp, x, a, divA) || !outer.getResult(0).getType().isF32())
      continue;
    // The combined factor varies with the loops of both: not a table
    // larger than they are (or than the limit).
    int64_t combined =
        payload.getCount(payload.getDims(a) | payload.getDims(b));
    if (combined > std::max({maxElements,
                             payload.getCount(payload.getDims(a)),
                             payload.getCount(payload.getDims(b))}))
      continue;
    // x * a * b = x * (a * b); x * a / b = x * (a / b);
    // x / a * b = x * (b / a); x / a / b = x / (a * b).
    rewriter.setInsertionPoint(&outer);
    Location loc = outer.getLoc();
    Value factor;
    bool divides = false;
    if (!divA && !divB)
      factor = arith::MulFOp::create(rewriter, loc, a, b);
    else if (!divA)
      factor = arith::DivFOp::create(rewriter, loc, a, b);
    else if (!divB)
      factor = arith::DivFOp::create(rewriter, loc, b, a);
    else {
      factor = arith::MulFOp::create(rewriter, loc, a, b);
      divides = true;
    }
    Value result = divides ? arith::DivFOp::create(rewriter, loc, x, factor)
                                 .getResult()
                           : arith::MulFOp::create(rewriter, loc, x, factor)
                                 .getResult();
    rewriter.replaceOp(&outer, result);
    rewriter.eraseOp(innerOp);
    changed = true;
  }
  return changed;
}

/// A quick test, before the analysis: whether some op of the payload other
/// than a constant or an index reads only constant inputs, constants and
/// indices (most payloads have none: an elementwise op of activations, a
/// bias add).
bool hasConstantPart(linalg::GenericOp op) {
  if (op->getNumRegions() != 1 || !op.getRegion().hasOneBlock())
    return false;
  Block &body = op.getRegion().front();
  // (Not the DPS accessors: they build an attribute on each call.)
  unsigned numInputs = getFirstInitNumber(op);
  // (The first such op reads leaves alone: no need to follow chains.)
  auto isConstantValue = [&](Value value) {
    if (auto arg = dyn_cast<BlockArgument>(value)) {
      if (arg.getOwner() != &body || arg.getArgNumber() >= numInputs)
        return false;
      Operation *def = op->getOperand(arg.getArgNumber()).getDefiningOp();
      return def && def->hasTrait<OpTrait::ConstantLike>();
    }
    Operation *def = value.getDefiningOp();
    return def && (def->hasTrait<OpTrait::ConstantLike>() ||
                   isa<linalg::IndexOp>(def));
  };
  for (Operation &inner : body.without_terminator()) {
    if (inner.hasTrait<OpTrait::ConstantLike>() || isa<linalg::IndexOp>(inner) ||
        inner.getNumOperands() == 0 ||
        !llvm::all_of(inner.getOperands(), isConstantValue))
      continue;
    return true;
  }
  return false;
}

/// Whether `op` decompresses stored weights: it reads a constant of 2- to
/// 8-bit integers or 8-bit floats (a weight-only dequantization,
/// docs/weight-only.md). Evaluating it would store the weights wide again.
bool isDecompression(linalg::GenericOp op) {
  return llvm::any_of(op->getOperands(), [](Value operand) {
    Operation *def = operand.getDefiningOp();
    auto type = dyn_cast<ShapedType>(operand.getType());
    if (!def || !def->hasTrait<OpTrait::ConstantLike>() || !type)
      return false;
    Type element = type.getElementType();
    if (isa<FloatType>(element))
      return element.getIntOrFloatBitWidth() == 8;
    return element.isInteger() && element.getIntOrFloatBitWidth() >= 2 &&
           element.getIntOrFloatBitWidth() <= 8;
  });
}

/// Folds the constant part of one op's payload; returns the number of
/// values evaluated (0: the op is unchanged).
unsigned foldPayload(RewriterBase &rewriter, linalg::GenericOp op,
                     int64_t maxElements) {
  if (!hasConstantPart(op) || isDecompression(op))
    return 0;
  auto payload = std::make_unique<ConstantPayload>(op, maxElements);
  if (!payload->analyze())
    return 0;
  if (regroupConstantFactors(rewriter, op, *payload, maxElements)) {
    payload = std::make_unique<ConstantPayload>(op, maxElements);
    payload->analyze();
  }
  Block &body = op.getRegion().front();
  Location loc = op.getLoc();
  // The constants the op reads from outside, to erase those that end up
  // unread.
  llvm::SetVector<Operation *> outerDefs;
  auto noteOuter = [&](Value value) {
    if (Operation *def = value.getDefiningOp();
        def && !op->isAncestor(def) && def->hasTrait<OpTrait::ConstantLike>())
      outerDefs.insert(def);
  };
  for (Value input : op.getDpsInputs())
    noteOuter(input);
  body.walk([&](Operation *inner) {
    for (Value operand : inner->getOperands())
      noteOuter(operand);
  });
  // Every root is evaluated before any is replaced (their programs share
  // values).
  SmallVector<std::pair<Value, DenseElementsAttr>> evaluated;
  for (auto [root, dims] : payload->getRoots()) {
    std::optional<std::vector<ScalarValue>> values =
        payload->evaluate(root, dims);
    if (!values)
      continue;
    auto type = RankedTensorType::get(payload->getShape(dims), root.getType());
    evaluated.push_back({root, buildElements(type, *values)});
  }
  // (Splat inputs become scalars only in an op rebuilt anyway.)
  if (evaluated.empty())
    return 0;
  SmallVector<std::pair<BlockArgument, ScalarValue>> splatLeaves =
      payload->getSplatLeaves();
  unsigned folded = evaluated.size() + splatLeaves.size();

  // Splat inputs read by the rest of the payload, and roots that are the
  // same everywhere: scalars in the payload.
  // (One scalar per value: splat means and betas are often all zero.)
  llvm::SmallDenseMap<Attribute, Value, 4> scalars;
  auto replaceByScalar = [&](Value value, TypedAttr attr) {
    Value &scalar = scalars[attr];
    if (!scalar) {
      rewriter.setInsertionPointToStart(&body);
      scalar = arith::ConstantOp::create(rewriter, value.getLoc(), attr);
    }
    rewriter.replaceAllUsesWith(value, scalar);
  };
  for (auto [arg, splat] : splatLeaves)
    replaceByScalar(arg, getScalarAttr(arg.getType(), splat));
  // The others: new inputs, through the loops they vary with.
  SmallVector<std::pair<Value, AffineMap>> newInputs;
  SmallVector<Value> readers;
  for (auto [root, dense] : evaluated) {
    if (dense.isSplat()) {
      replaceByScalar(root, cast<TypedAttr>(dense.getSplatValue<Attribute>()));
      continue;
    }
    rewriter.setInsertionPoint(op);
    Value constant = arith::ConstantOp::create(rewriter, loc, dense);
    SmallVector<AffineExpr> exprs;
    for (unsigned d = 0; d < op.getNumLoops(); ++d)
      if (payload->getDims(root) & (DimSet(1) << d))
        exprs.push_back(rewriter.getAffineDimExpr(d));
    newInputs.push_back({constant, AffineMap::get(op.getNumLoops(), 0, exprs,
                                                  rewriter.getContext())});
    readers.push_back(root);
  }

  // The new inputs' arguments come after the old inputs'.
  unsigned numInputs = op.getNumDpsInputs();
  for (auto [index, root] : llvm::enumerate(readers)) {
    BlockArgument arg =
        body.insertArgument(numInputs + index, root.getType(), root.getLoc());
    rewriter.replaceAllUsesWith(root, arg);
  }
  // What only the folded values read goes.
  // What only the folded values read goes; the identities the rest now
  // shows (x - 0, x * 1) fold away.
  for (Operation *inner = body.getTerminator()->getPrevNode(); inner;) {
    Operation *previous = inner->getPrevNode();
    if (isOpTriviallyDead(inner))
      rewriter.eraseOp(inner);
    inner = previous;
  }
  for (Operation &inner : llvm::make_early_inc_range(body.without_terminator())) {
    SmallVector<OpFoldResult, 1> results;
    if (inner.getNumResults() != 1 || failed(inner.fold(results)) ||
        results.size() != 1 || !isa<Value>(results[0]))
      continue;
    rewriter.replaceAllUsesWith(inner.getResult(0), cast<Value>(results[0]));
    rewriter.eraseOp(&inner);
  }
  for (Operation *inner = body.getTerminator()->getPrevNode(); inner;) {
    Operation *previous = inner->getPrevNode();
    if (isOpTriviallyDead(inner))
      rewriter.eraseOp(inner);
    inner = previous;
  }

  // Inputs nothing reads any more are dropped, where the loops' sizes do
  // not depend on them.
  SmallVector<OpOperand *> dropped;
  for (OpOperand *input : op.getDpsInputOperands()) {
    if (!op.getMatchingBlockArgument(input).use_empty())
      continue;
    dropped.push_back(input);
    if (!op.canOpOperandsBeDropped(dropped))
      dropped.pop_back();
  }
  SmallVector<Value> inputs;
  SmallVector<AffineMap> maps;
  SmallVector<unsigned> erasedArgs;
  for (OpOperand *input : op.getDpsInputOperands()) {
    if (llvm::is_contained(dropped, input)) {
      erasedArgs.push_back(input->getOperandNumber());
      continue;
    }
    inputs.push_back(input->get());
    maps.push_back(op.getMatchingIndexingMap(input));
  }
  for (auto [value, map] : newInputs) {
    inputs.push_back(value);
    maps.push_back(map);
  }
  for (OpOperand &init : op.getDpsInitsMutable())
    maps.push_back(op.getMatchingIndexingMap(&init));
  for (unsigned arg : llvm::reverse(erasedArgs))
    body.eraseArgument(arg);

  rewriter.setInsertionPoint(op);
  // The op's own attributes (annotations, a library call) are kept.
  SmallVector<NamedAttribute> attrs(op->getDiscardableAttrs());
  auto newOp = linalg::GenericOp::create(
      rewriter, loc, op.getResultTypes(), inputs, op.getDpsInits(), maps,
      op.getIteratorTypesArray(), op.getDoc().value_or(""),
      op.getLibraryCall().value_or(""), /*bodyBuild=*/nullptr, attrs);
  rewriter.inlineRegionBefore(op.getRegion(), newOp.getRegion(),
                              newOp.getRegion().end());
  rewriter.replaceOp(op, newOp->getResults());
  // The constants only the old op read (its statistics, a captured eps).
  for (Operation *def : outerDefs)
    if (isOpTriviallyDead(def))
      rewriter.eraseOp(def);
  return folded;
}

} // namespace

ConstantPayloadStats mlir::amp::foldConstantPayloads(Operation *root,
                                                     int64_t maxElements) {
  ConstantPayloadStats stats;
  SmallVector<linalg::GenericOp> generics;
  walkTensorOps(root, [&](Operation *op) {
    if (auto generic = dyn_cast<linalg::GenericOp>(op))
      generics.push_back(generic);
    return WalkResult::advance();
  });
  IRRewriter rewriter(root->getContext());
  for (linalg::GenericOp op : generics) {
    // A payload without a constant part is seen once, without a rewrite.
    if (unsigned values = foldPayload(rewriter, op, maxElements)) {
      ++stats.ops;
      stats.values += values;
    }
  }
  return stats;
}

//===----------------------------------------------------------------------===//
// --amp-fold-constant-payloads
//===----------------------------------------------------------------------===//

namespace mlir {
namespace amp {
#define GEN_PASS_DEF_AMPFOLDCONSTANTPAYLOADSPASS
#include "amp/Transforms/Passes.h.inc"
} // namespace amp
} // namespace mlir

namespace {
struct AmpFoldConstantPayloadsPass
    : public amp::impl::AmpFoldConstantPayloadsPassBase<
          AmpFoldConstantPayloadsPass> {
  using Base::Base;

  LogicalResult initialize(MLIRContext *ctx) override {
    if (maxElements < 0)
      return emitError(UnknownLoc::get(ctx))
             << "amp-fold-constant-payloads: max-elements must be "
                "non-negative, got "
             << static_cast<int64_t>(maxElements);
    return success();
  }

  void runOnOperation() override {
    ConstantPayloadStats stats =
        amp::foldConstantPayloads(getOperation(), maxElements);
    numOps += stats.ops;
    numValues += stats.values;
  }
};
} // namespace
