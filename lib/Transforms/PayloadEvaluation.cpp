//===- PayloadEvaluation.cpp - The constant part of a payload -------------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// See PayloadEvaluation.h. Every payload value is marked constant or not: a
// constant one reads only constant inputs (dense constants through
// projected permutations), scalar constants and loop indices, through ops
// ScalarEvaluation.h can evaluate; it varies with the loops its leaves
// index. A value is evaluated by a program of steps, run once per point of
// its loops.
//
//===----------------------------------------------------------------------===//

#include "PayloadEvaluation.h"

#include "amp/Utils/LinalgUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Matchers.h"

#include <cstring>

using namespace mlir;
using namespace mlir::amp;
using namespace mlir::amp::payloads;

//===----------------------------------------------------------------------===//
// Elements
//===----------------------------------------------------------------------===//

/// The width of the integer type `type` as evaluated (index: 64 bits).
static unsigned getIntegerWidth(Type type) {
  return type.isIndex() ? 64 : type.getIntOrFloatBitWidth();
}

/// Reads the elements of a dense constant of an evaluable element type.
static std::optional<std::vector<ScalarValue>>
readElements(DenseElementsAttr dense) {
  Type elt = dense.getElementType();
  if (!isEvaluableScalarType(elt) || dense.getNumElements() == 0)
    return std::nullopt;
  std::vector<ScalarValue> out;
  if (isa<FloatType>(elt)) {
    auto values = dense.tryGetValues<APFloat>();
    if (failed(values))
      return std::nullopt;
    if (dense.isSplat())
      return std::vector<ScalarValue>{
          {(*values->begin()).convertToDouble(), 0}};
    out.reserve(dense.getNumElements());
    if (elt.isF32())
      for (float v : dense.getValues<float>())
        out.push_back({v, 0});
    else
      for (double v : dense.getValues<double>())
        out.push_back({v, 0});
    return out;
  }
  unsigned width = getIntegerWidth(elt);
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

DenseElementsAttr mlir::amp::payloads::buildElements(
    RankedTensorType type, ArrayRef<ScalarValue> values) {
  Type elt = type.getElementType();
  bool isFloat = isa<FloatType>(elt);
  auto same = [&](const ScalarValue &a, const ScalarValue &b) {
    if (isFloat)
      return std::memcmp(&a.f, &b.f, sizeof(double)) == 0;
    return a.i == b.i;
  };
  bool splat =
      llvm::all_of(values, [&](auto &v) { return same(v, values[0]); });
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
    unsigned width = getIntegerWidth(elt);
    SmallVector<APInt> v;
    for (const ScalarValue &s : data)
      v.push_back(APInt(width, static_cast<uint64_t>(s.i), /*isSigned=*/true,
                        /*implicitTrunc=*/true));
    attr = DenseElementsAttr::get(splatType, ArrayRef(v));
  }
  return splat ? attr.resizeSplat(type) : attr;
}

TypedAttr mlir::amp::payloads::getScalarAttr(Type type,
                                             const ScalarValue &value) {
  if (isa<FloatType>(type))
    return FloatAttr::get(type, value.f);
  return IntegerAttr::get(type, APInt(getIntegerWidth(type),
                                      static_cast<uint64_t>(value.i), true,
                                      true));
}

//===----------------------------------------------------------------------===//
// ConstantPayload
//===----------------------------------------------------------------------===//

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

bool ConstantPayload::isReadByRest(Value value) const {
  return llvm::any_of(value.getUsers(), [&](Operation *user) {
    return user->getNumResults() != 1 || !isConstant(user->getResult(0));
  });
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
    if (!isReadByRest(value))
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
    if (leaf.elements.size() == 1 && isReadByRest(value))
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
static constexpr int64_t kExactIn16Bits = 256;

/// True if the integer operand of the conversion `op` is one that every
/// 16-bit float type holds exactly.
static bool isExactInEvery16BitType(Operation *op, const ScalarValue &value) {
  if (isa<arith::UIToFPOp>(op)) {
    Type type = op->getOperand(0).getType();
    unsigned width = getIntegerWidth(type);
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
