//===- Magnitude.cpp - Growth of values relative to the inputs ------------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// See Magnitude.h. One transfer function serves top-level ops (on tensors)
// and the scalar ops of structured ops' payloads; a structured op's results
// are its payload's, with the reduction folded over the reduced extent.
//
//===----------------------------------------------------------------------===//

#include "amp/Analysis/Magnitude.h"

#include "amp/Utils/CastUtils.h"
#include "amp/Utils/FloatConversion.h"
#include "amp/Utils/LinalgUtils.h"
#include "amp/Utils/TypeUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/TypeSwitch.h"

#include <cmath>
#include <cstring>
#include <limits>

using namespace mlir;
using namespace mlir::amp;

namespace {

using Kind = Magnitude::Kind;
using Lookup = function_ref<Magnitude(Value)>;

double saturate(double growth) {
  if (std::isnan(growth))
    return 1;
  return std::min(std::abs(growth), MagnitudeMap::kMaxGrowth);
}

Magnitude plain(double growth) {
  return {saturate(growth), 0, false, Kind::Plain};
}

/// The magnitude of a constant attribute: its largest and smallest element
/// magnitudes.
std::optional<Magnitude> getAttributeMagnitude(Attribute attr) {
  double largest = 0, least = std::numeric_limits<double>::infinity();
  auto note = [&](double v) {
    if (std::isnan(v))
      return;
    largest = std::max(largest, std::abs(v));
    least = std::min(least, std::abs(v));
  };
  if (auto f = dyn_cast<FloatAttr>(attr)) {
    note(f.getValueAsDouble());
  } else if (auto i = dyn_cast<IntegerAttr>(attr)) {
    note(static_cast<double>(i.getValue().getSExtValue()));
  } else if (auto dense = dyn_cast<DenseElementsAttr>(attr)) {
    Type elt = dense.getElementType();
    if (dense.empty())
      return Magnitude{0, 0, true, Kind::Plain};
    if (isFloatType(elt)) {
      DenseFloatStats stats = getDenseFloatStats(dense);
      largest = stats.maxAbs;
      least = stats.minAbs;
    } else if (elt.isIntOrIndex() && !elt.isInteger(1)) {
      if (dense.isSplat())
        note(static_cast<double>(dense.getSplatValue<APInt>().getSExtValue()));
      else
        for (const APInt &v : dense.getValues<APInt>())
          note(static_cast<double>(v.getSExtValue()));
    } else {
      return std::nullopt;
    }
  } else {
    return std::nullopt;
  }
  if (!std::isfinite(least))
    least = 0;
  return Magnitude{saturate(largest), least, true, Kind::Plain};
}

/// The largest magnitude among `values` (data movement, select, max, min):
/// a constant if all are.
Magnitude hull(ArrayRef<Magnitude> values) {
  if (values.empty())
    return plain(1);
  if (values.size() == 1)
    return values.front();
  Magnitude m{0, std::numeric_limits<double>::infinity(), true, Kind::Plain};
  for (const Magnitude &v : values) {
    m.growth = std::max(m.growth, v.growth);
    m.least = std::min(m.least, v.least);
    m.isConstant &= v.isConstant;
  }
  if (!m.isConstant)
    m.least = 0;
  return m;
}

Magnitude add(const Magnitude &a, const Magnitude &b) {
  Magnitude m = plain(a.growth + b.growth);
  // A reduction plus a constant (an epsilon) is still one.
  if (b.isConstant && !a.isConstant)
    m.kind = a.kind;
  else if (a.isConstant && !b.isConstant)
    m.kind = b.kind;
  m.isConstant = a.isConstant && b.isConstant;
  return m;
}

Magnitude multiply(const Magnitude &a, const Magnitude &b) {
  // x * rsqrt(mean(x^2)), x * (1 / sum(x)): a normalization.
  if ((a.kind == Kind::InverseReduction && !b.isConstant) ||
      (b.kind == Kind::InverseReduction && !a.isConstant))
    return plain(1);
  Magnitude m = plain(a.growth * b.growth);
  if (a.isConstant && b.isConstant) {
    m.isConstant = true;
    m.least = a.least * b.least;
  } else if (b.isConstant) {
    m.kind = a.kind;
  } else if (a.isConstant) {
    m.kind = b.kind;
  }
  return m;
}

Magnitude divide(const Magnitude &a, const Magnitude &b) {
  if (a.isConstant && b.kind == Kind::Reduction)
    return {1, 0, false, Kind::InverseReduction};
  if (b.isConstant && b.least > 0) {
    Magnitude m = plain(a.growth / b.least);
    m.kind = a.kind;
    if (a.isConstant) {
      m.isConstant = true;
      m.least = b.growth > 0 ? a.least / b.growth : 0;
    }
    return m;
  }
  // x / sum(...), x / sqrt(var + eps): a normalization.
  if (b.kind == Kind::Reduction)
    return plain(1);
  // Any other divisor: no claim.
  return plain(a.growth);
}

/// rsqrt and reciprocal.
Magnitude invert(const Magnitude &a) {
  if (a.kind == Kind::Reduction)
    return {1, 0, false, Kind::InverseReduction};
  if (a.isConstant && a.least > 0)
    return {saturate(1 / a.least), a.growth > 0 ? 1 / a.growth : 0, true,
            Kind::Plain};
  return plain(1);
}

/// The number of elements `value` has along `axis` (1 if unknown).
int64_t getExtent(Value value, int64_t axis) {
  auto type = dyn_cast<ShapedType>(value.getType());
  if (!type || !type.hasRank() || axis < 0 || axis >= type.getRank() ||
      type.isDynamicDim(axis))
    return 1;
  return type.getDimSize(axis);
}

/// The product of the dimensions of `value` from `from` on (1 if unknown).
int64_t getTrailingElements(Value value, int64_t from) {
  auto type = dyn_cast<ShapedType>(value.getType());
  if (!type || !type.hasRank())
    return 1;
  int64_t n = 1;
  for (int64_t d = from; d < type.getRank(); ++d)
    n *= type.isDynamicDim(d) ? 1 : std::max<int64_t>(type.getDimSize(d), 1);
  return n;
}

/// The transfer function of an op without regions (or whose regions are not
/// read: tensor.pad).
Magnitude transfer(Operation *op, Lookup get) {
  auto operand = [&](unsigned i) { return get(op->getOperand(i)); };
  // The float operands (the int ones when there is none: sitofp).
  auto dataOperands = [&]() {
    SmallVector<Magnitude, 4> floats, ints;
    for (Value v : op->getOperands()) {
      Type elt = getScalarType(v.getType());
      if (isFloatType(elt))
        floats.push_back(get(v));
      else if (elt.isIntOrIndex() && !elt.isInteger(1))
        ints.push_back(get(v));
    }
    return floats.empty() ? ints : floats;
  };
  if (isa<arith::ConstantOp, tosa::ConstOp>(op)) {
    if (std::optional<Magnitude> m = getAttributeMagnitude(getConstantAttr(op)))
      return *m;
    return plain(1);
  }
  return llvm::TypeSwitch<Operation *, Magnitude>(op)
      .Case<arith::AddFOp, arith::SubFOp, arith::AddIOp, arith::SubIOp,
            tosa::AddOp, tosa::SubOp>(
          [&](auto) { return add(operand(0), operand(1)); })
      .Case<arith::MulFOp, arith::MulIOp, tosa::MulOp>(
          [&](auto) { return multiply(operand(0), operand(1)); })
      .Case<arith::DivFOp>([&](auto) { return divide(operand(0), operand(1)); })
      .Case<math::RsqrtOp, tosa::RsqrtOp, tosa::ReciprocalOp>(
          [&](auto) { return invert(operand(0)); })
      .Case<math::SqrtOp>([&](auto) {
        Magnitude m = operand(0);
        m.growth = std::sqrt(m.growth);
        m.least = std::sqrt(m.least);
        return m;
      })
      // Exponentials, logarithms, powers: the result's scale is not the
      // input's (exp(x - max) is at most 1; a softmax divides by a sum of
      // them).
      .Case<math::ExpOp, math::Exp2Op, math::ExpM1Op, math::LogOp, math::Log2Op,
            math::Log10Op, math::Log1pOp, math::PowFOp, math::ErfOp,
            tosa::ExpOp, tosa::LogOp, tosa::PowOp, tosa::ErfOp>(
          [](auto) { return plain(1); })
      .Case<tensor::EmptyOp>([](auto) {
        return Magnitude{0, 0, true, Kind::Plain};
      })
      .Case<linalg::SoftmaxOp>([](auto) { return plain(1); })
      // Reductions and pooling.
      .Case<tosa::ReduceSumOp>([&](tosa::ReduceSumOp r) {
        Magnitude m =
            plain(operand(0).growth * getExtent(r.getInput(), r.getAxis()));
        m.kind = Kind::Reduction;
        return m;
      })
      .Case<tosa::ReduceProductOp>(
          [&](auto) { return plain(operand(0).growth); })
      // Contractions: reduction length times both magnitudes, plus a bias.
      .Case<tosa::MatMulOp>([&](tosa::MatMulOp m) {
        return plain(get(m.getA()).growth * get(m.getB()).growth *
                     getExtent(m.getA(), 2));
      })
      .Case<tosa::Conv2DOp, tosa::Conv3DOp, tosa::TransposeConv2DOp>(
          [&](auto conv) {
            return plain(get(conv.getInput()).growth *
                             get(conv.getWeight()).growth *
                             getTrailingElements(conv.getWeight(), 1) +
                         get(conv.getBias()).growth);
          })
      .Case<tosa::DepthwiseConv2DOp>([&](tosa::DepthwiseConv2DOp conv) {
        // Weights [KH, KW, C, M]: each output sums KH * KW terms.
        return plain(get(conv.getInput()).growth *
                         get(conv.getWeight()).growth *
                         getExtent(conv.getWeight(), 0) *
                         getExtent(conv.getWeight(), 1) +
                     get(conv.getBias()).growth);
      })
      // Everything else (data movement, casts, max/min, select, clamps,
      // tanh and sigmoid): the largest operand.
      .Default([&](Operation *) { return hull(dataOperands()); });
}

/// True if the transfer function of `op` (above) may give a result smaller
/// than the largest of its float operands: products, divisions, inverses
/// and roots, the functions that reset the growth, contractions. The others
/// add their operands or take the largest (hull).
bool mayShrinkByKind(Operation *op) {
  return isa<arith::MulFOp, arith::MulIOp, tosa::MulOp, arith::DivFOp,
             math::RsqrtOp, tosa::RsqrtOp, tosa::ReciprocalOp, math::SqrtOp,
             math::ExpOp, math::Exp2Op, math::ExpM1Op, math::LogOp,
             math::Log2Op, math::Log10Op, math::Log1pOp, math::PowFOp,
             math::ErfOp, tosa::ExpOp, tosa::LogOp, tosa::PowOp, tosa::ErfOp,
             linalg::SoftmaxOp, tosa::MatMulOp, tosa::Conv2DOp,
             tosa::Conv3DOp, tosa::TransposeConv2DOp,
             tosa::DepthwiseConv2DOp>(op);
}

/// True if the payload value `term` is computed from at most one of the
/// payload's input arguments (other than `acc`): a sum of terms, of
/// squares, of exponentials; a contraction (a * b) is not.
bool readsOneInput(Value term, Block &body, BlockArgument acc) {
  SmallVector<Value, 8> work{term};
  llvm::SmallPtrSet<Value, 8> seen;
  std::optional<Value> input;
  while (!work.empty()) {
    Value v = work.pop_back_val();
    if (!seen.insert(v).second)
      continue;
    if (auto arg = dyn_cast<BlockArgument>(v)) {
      if (arg.getOwner() != &body || arg == acc)
        continue;
      if (input && *input != arg)
        return false;
      input = arg;
      continue;
    }
    Operation *def = v.getDefiningOp();
    if (!def || def->getBlock() != &body)
      continue;
    for (Value operand : def->getOperands())
      work.push_back(operand);
  }
  return true;
}

/// The results of a structured op, from its payload.
void evaluateStructured(linalg::LinalgOp op, Lookup get,
                        SmallVectorImpl<Magnitude> &results) {
  Block &body = op->getRegion(0).front();
  // (The loop extents only for a payload that asks: linalg.index, a
  // reduction.)
  std::optional<SmallVector<int64_t>> loopExtents;
  auto getExtents = [&]() -> ArrayRef<int64_t> {
    if (!loopExtents)
      loopExtents = getStaticLoopExtents(op);
    return *loopExtents;
  };
  llvm::SmallDenseMap<Value, Magnitude, 16> local;
  for (OpOperand &operand : op->getOpOperands())
    if (BlockArgument arg = op.getMatchingBlockArgument(&operand))
      local[arg] = get(operand.get());
  auto inner = [&](Value v) -> Magnitude {
    auto it = local.find(v);
    return it != local.end() ? it->second : get(v);
  };
  for (Operation &nested : body.without_terminator()) {
    Magnitude m;
    if (auto index = dyn_cast<linalg::IndexOp>(nested)) {
      ArrayRef<int64_t> extents = getExtents();
      int64_t extent = index.getDim() < extents.size() ? extents[index.getDim()]
                                                       : ShapedType::kDynamic;
      m = ShapedType::isDynamic(extent)
              ? plain(1)
              : plain(std::max<int64_t>(extent - 1, 0));
    } else if (nested.getNumRegions() != 0) {
      SmallVector<Magnitude, 4> operands;
      for (Value v : nested.getOperands())
        operands.push_back(inner(v));
      m = hull(operands);
    } else {
      m = transfer(&nested, inner);
    }
    for (Value result : nested.getResults())
      local[result] = m;
  }

  Operation *yield = body.getTerminator();
  bool reduces = op.getNumReductionLoops() != 0;
  int64_t reduced = 1;
  if (reduces)
    for (auto [extent, type] :
         llvm::zip(getExtents(), op.getIteratorTypesArray()))
      if (type == utils::IteratorType::reduction &&
          !ShapedType::isDynamic(extent))
        reduced *= std::max<int64_t>(extent, 1);
  for (OpResult result : op->getResults()) {
    unsigned i = result.getResultNumber();
    Value yielded = yield->getOperand(i);
    Magnitude value = inner(yielded);
    if (!reduces) {
      results.push_back(value);
      continue;
    }
    // A reduction: the yielded value combines the running value (the init
    // argument) with a term of each iteration.
    OpOperand &initOperand = getInitOperands(op)[i];
    BlockArgument acc = op.getMatchingBlockArgument(&initOperand);
    Magnitude init = get(initOperand.get());
    Operation *combiner = yielded.getDefiningOp();
    if (!combiner || combiner->getNumOperands() != 2 ||
        combiner->getBlock() != &body ||
        !llvm::is_contained(combiner->getOperands(), acc)) {
      results.push_back(plain(value.growth));
      continue;
    }
    Value termValue = combiner->getOperand(0) == acc ? combiner->getOperand(1)
                                                     : combiner->getOperand(0);
    Magnitude term = inner(termValue);
    if (isa<arith::AddFOp, arith::AddIOp>(combiner)) {
      Magnitude m = plain(init.growth + term.growth * reduced);
      if (readsOneInput(termValue, body, acc))
        m.kind = Kind::Reduction;
      results.push_back(m);
    } else if (isa<arith::MulFOp>(combiner)) {
      results.push_back(plain(
          std::pow(std::max(term.growth, 1.0), static_cast<double>(reduced))));
    } else {
      results.push_back(plain(std::max(init.growth, term.growth)));
    }
  }
}

} // namespace

Magnitude MagnitudeMap::known(Value value) const {
  auto it = magnitudes.find(value);
  return it != magnitudes.end() ? it->second : plain(1);
}

void MagnitudeMap::evaluate(Operation *op) {
  auto get = [&](Value v) { return known(v); };
  SmallVector<Magnitude, 2> results;
  if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
      linalgOp && op->getNumRegions() == 1 && !op->getRegion(0).empty()) {
    evaluateStructured(linalgOp, get, results);
  } else if (op->getNumRegions() != 0 && !isa<tensor::PadOp>(op)) {
    // Control flow and other ops with regions: what they read.
    SmallVector<Magnitude, 4> operands;
    for (Value v : op->getOperands())
      if (isFloatType(getScalarType(v.getType())))
        operands.push_back(get(v));
    results.assign(op->getNumResults(), plain(hull(operands).growth));
  } else {
    results.assign(op->getNumResults(), transfer(op, get));
  }
  for (auto [result, m] : llvm::zip(op->getResults(), results))
    magnitudes[result] = m;
}

Magnitude MagnitudeMap::lookup(Value value) {
  if (auto it = magnitudes.find(value); it != magnitudes.end())
    return it->second;
  Operation *def = value.getDefiningOp();
  if (!def)
    return plain(1);
  // An iterative post-order walk up the producers: each op is evaluated
  // once its operands (and the values its payload captures) are. An op is
  // done when its first result has a magnitude; `visiting` holds the ops on
  // the stack (a cycle, in a graph region, reads 1). (No per-op table: one
  // hash lookup per operand and one insertion per result.)
  SmallVector<std::pair<Operation *, bool>, 16> stack{{def, false}};
  llvm::SmallPtrSet<Operation *, 16> visiting;
  auto isDone = [&](Operation *op) {
    return op->getNumResults() != 0 && magnitudes.count(op->getResult(0));
  };
  while (!stack.empty()) {
    auto [op, expanded] = stack.back();
    if (expanded) {
      stack.pop_back();
      evaluate(op);
      visiting.erase(op);
      continue;
    }
    if (isDone(op) || !visiting.insert(op).second) {
      stack.pop_back();
      continue;
    }
    stack.back().second = true;
    auto need = [&](Value v) {
      Operation *producer = v.getDefiningOp();
      if (producer && !magnitudes.count(v) && !visiting.contains(producer))
        stack.push_back({producer, false});
    };
    for (Value v : op->getOperands())
      need(v);
    if (op->getNumRegions() != 0 && isa<linalg::LinalgOp>(op))
      op->walk([&](Operation *inner) {
        for (Value v : inner->getOperands())
          if (Operation *producer = v.getDefiningOp();
              producer && !op->isAncestor(producer))
            need(v);
      });
  }
  return known(value);
}

bool MagnitudeMap::mayShrink(Operation *op, Value input) {
  // (Asked for every reader of every value a gray op touches: the kind
  // first, the interface only for ops with a payload.)
  if (op->getNumRegions() == 0)
    return mayShrinkByKind(op);
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  if (!linalgOp || op->getNumRegions() != 1 || op->getRegion(0).empty())
    // Control flow and other ops with regions take the largest operand.
    return false;
  Block &body = op->getRegion(0).front();
  for (Operation &nested : body.without_terminator())
    if (nested.getNumRegions() != 0 || mayShrinkByKind(&nested))
      return true;
  // Only sums and hulls: a result is at least what its yield reads through
  // float values. Some float yield must read `input`: its arguments, or the
  // payload ops that read it captured (found in the payload, not in the use
  // list of `input`, which a value read by every layer makes long).
  SmallVector<Value, 8> work;
  for (OpOperand &operand : op->getOpOperands())
    if (operand.get() == input)
      if (BlockArgument arg = linalgOp.getMatchingBlockArgument(&operand))
        work.push_back(arg);
  Operation *yield = body.getTerminator();
  for (Operation &nested : body)
    if (llvm::is_contained(nested.getOperands(), input)) {
      if (&nested == yield)
        return false;
      for (Value result : nested.getResults())
        if (isFloatType(getScalarType(result.getType())))
          work.push_back(result);
    }
  llvm::SmallPtrSet<Operation *, 8> seen;
  while (!work.empty()) {
    Value v = work.pop_back_val();
    for (Operation *user : v.getUsers()) {
      if (user == yield)
        return false;
      if (user->getBlock() != &body || !seen.insert(user).second)
        continue;
      for (Value result : user->getResults())
        if (isFloatType(getScalarType(result.getType())))
          work.push_back(result);
    }
  }
  return true;
}

double MagnitudeMap::getResultGrowth(Operation *op) {
  double growth = 0;
  bool any = false;
  for (Value result : op->getResults())
    if (isFloatType(getScalarType(result.getType()))) {
      growth = std::max(growth, lookup(result).growth);
      any = true;
    }
  return any ? growth : 1;
}
