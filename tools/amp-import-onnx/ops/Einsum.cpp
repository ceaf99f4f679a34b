//===- Einsum.cpp - Einsum as one linalg.generic contraction --------------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The equation is parsed into one loop per distinct subscript (and one per
// dimension of the broadcast '...'): the output's subscripts are parallel
// loops, the others reduction loops. Each operand is read through an
// indexing map of those loops (a repeated subscript reads a diagonal, an
// ellipsis dimension of size 1 is broadcast), and the payload multiplies the
// operands and accumulates into a zero-filled init. With two operands, no
// diagonal and no broadcast, that generic is a contraction in linalg's
// sense (isaContractionOpInterface), which amp's pass colors green like a
// matmul; a one-operand sum is a reduction (red, FP32) and a permutation is
// data movement (gray).
//
//===----------------------------------------------------------------------===//

#include "Converters.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/AffineMap.h"

#include <map>

using namespace mlir;
using namespace amp::onnximport;

namespace {
/// One term of the equation: its subscripts, with '.' standing for the
/// ellipsis (at most one).
struct EinsumTerm {
  std::string letters;
  bool hasEllipsis = false;
};

/// The parsed equation: one term per operand and the output term.
struct EinsumEquation {
  std::vector<EinsumTerm> inputs;
  EinsumTerm output;
  bool explicitOutput = false;
};
} // namespace

/// Parses one term ("ij", "...ij", "b...") or fails.
static FailureOr<EinsumTerm> parseTerm(StringRef text) {
  EinsumTerm term;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (llvm::isAlpha(c)) {
      term.letters.push_back(c);
      continue;
    }
    if (text.substr(i).starts_with("...") && !term.hasEllipsis) {
      term.hasEllipsis = true;
      term.letters.push_back('.');
      i += 2;
      continue;
    }
    return failure();
  }
  return term;
}

/// Parses `equation` (spaces are ignored) or fails.
static FailureOr<EinsumEquation> parseEquation(StringRef equation) {
  std::string text;
  for (char c : equation)
    if (c != ' ')
      text.push_back(c);
  StringRef rest = text;
  EinsumEquation result;
  size_t arrow = rest.find("->");
  StringRef lhs = rest.substr(0, arrow);
  if (arrow != StringRef::npos) {
    result.explicitOutput = true;
    FailureOr<EinsumTerm> out = parseTerm(rest.substr(arrow + 2));
    if (failed(out))
      return failure();
    result.output = *out;
  }
  SmallVector<StringRef> terms;
  lhs.split(terms, ',', /*MaxSplit=*/-1, /*KeepEmpty=*/true);
  for (StringRef t : terms) {
    FailureOr<EinsumTerm> term = parseTerm(t);
    if (failed(term))
      return failure();
    result.inputs.push_back(*term);
  }
  return result;
}

namespace {
/// The loops of the generic: the size of each subscript and of each
/// ellipsis dimension, and which loops the output keeps.
struct EinsumLoops {
  std::map<char, int64_t> letterSizes;
  /// Sizes of the broadcast ellipsis dimensions.
  SmallVector<int64_t> ellipsis;
  /// The loop of each subscript; the ellipsis dimensions are loops
  /// [ellipsisBase, ellipsisBase + ellipsis.size()).
  std::map<char, unsigned> letterLoop;
  unsigned ellipsisBase = 0;
  unsigned numLoops = 0, numParallel = 0;
  SmallVector<int64_t> outShape;
};
} // namespace

/// Sizes the subscripts and the ellipsis from the operands; failure is
/// reported.
static LogicalResult sizeOperands(NodeContext &ctx, const EinsumEquation &eq,
                                  ArrayRef<Value> operands, EinsumLoops &loops,
                                  const Twine &what) {
  for (auto [term, operand] : llvm::zip(eq.inputs, operands)) {
    ArrayRef<int64_t> shape = getShape(operand);
    int64_t numLetters = term.letters.size() - (term.hasEllipsis ? 1 : 0);
    int64_t numEllipsis = shape.size() - numLetters;
    if (numEllipsis < 0 || (!term.hasEllipsis && numEllipsis != 0))
      return ctx.error(what + ": term '" + term.letters +
                       "' does not match an operand of rank " +
                       Twine(shape.size()));
    // Ellipsis dimensions broadcast NumPy-style, aligned on the right.
    if (numEllipsis > static_cast<int64_t>(loops.ellipsis.size()))
      loops.ellipsis.insert(loops.ellipsis.begin(),
                            numEllipsis - loops.ellipsis.size(), 1);
    int64_t d = 0;
    for (char c : term.letters) {
      if (c == '.') {
        int64_t base = loops.ellipsis.size() - numEllipsis;
        for (int64_t e = 0; e < numEllipsis; ++e, ++d) {
          int64_t &size = loops.ellipsis[base + e];
          if (size != shape[d] && size != 1 && shape[d] != 1)
            return ctx.error(what + ": the '...' dimensions do not broadcast");
          if (size == 1)
            size = shape[d];
        }
        continue;
      }
      auto [it, inserted] = loops.letterSizes.try_emplace(c, shape[d]);
      if (!inserted && it->second != shape[d])
        return ctx.error(what + ": subscript '" + Twine(c) + "' has sizes " +
                         Twine(it->second) + " and " + Twine(shape[d]));
      ++d;
    }
  }
  return success();
}

/// The output term of an implicit equation: the ellipsis, then the
/// subscripts that occur once, in alphabetical order.
static EinsumTerm implicitOutput(const EinsumEquation &eq) {
  std::map<char, int> counts;
  bool ellipsis = false;
  for (const EinsumTerm &term : eq.inputs) {
    ellipsis |= term.hasEllipsis;
    for (char c : term.letters)
      if (c != '.')
        ++counts[c];
  }
  EinsumTerm out;
  out.hasEllipsis = ellipsis;
  if (ellipsis)
    out.letters.push_back('.');
  std::string once;
  for (auto [c, n] : counts)
    if (n == 1)
      once.push_back(c);
  llvm::sort(once);
  out.letters += once;
  return out;
}

/// Numbers the loops: the output's dimensions first (parallel), then the
/// summed subscripts (reduction); failure is reported.
static LogicalResult numberLoops(NodeContext &ctx, EinsumEquation &eq,
                                 EinsumLoops &loops, const Twine &what) {
  if (!eq.explicitOutput)
    eq.output = implicitOutput(eq);
  bool inputEllipsis = llvm::any_of(
      eq.inputs, [](const EinsumTerm &t) { return t.hasEllipsis; });
  if (!eq.output.hasEllipsis && !loops.ellipsis.empty() && inputEllipsis &&
      llvm::any_of(loops.ellipsis, [](int64_t s) { return s != 1; }))
    return ctx.error(what + ": the operands have '...' dimensions but the "
                            "output has no '...'");
  unsigned next = 0;
  for (char c : eq.output.letters) {
    if (c == '.') {
      if (!eq.output.hasEllipsis || !inputEllipsis)
        return ctx.error(what + ": the output has '...' but no operand does");
      loops.ellipsisBase = next;
      for (int64_t size : loops.ellipsis)
        loops.outShape.push_back(size);
      next += loops.ellipsis.size();
      continue;
    }
    if (!loops.letterSizes.count(c))
      return ctx.error(what + ": output subscript '" + Twine(c) +
                       "' is not in any operand");
    if (!loops.letterLoop.try_emplace(c, next++).second)
      return ctx.error(what + ": output subscript '" + Twine(c) +
                       "' is repeated");
    loops.outShape.push_back(loops.letterSizes[c]);
  }
  loops.numParallel = next;
  // '...' summed away (all of size 1 here) becomes reduction loops.
  if (!eq.output.hasEllipsis) {
    loops.ellipsisBase = next;
    next += loops.ellipsis.size();
  }
  for (auto [c, size] : loops.letterSizes)
    if (loops.letterLoop.try_emplace(c, next).second)
      ++next;
  loops.numLoops = next;
  return success();
}

/// The indexing map of an operand written as `term`.
static AffineMap operandMap(MLIRContext *context, const EinsumTerm &term,
                            ArrayRef<int64_t> shape, const EinsumLoops &loops) {
  SmallVector<AffineExpr> exprs;
  int64_t numEllipsis =
      shape.size() - (term.letters.size() - (term.hasEllipsis ? 1 : 0));
  int64_t d = 0;
  for (char c : term.letters) {
    if (c != '.') {
      exprs.push_back(getAffineDimExpr(loops.letterLoop.at(c), context));
      ++d;
      continue;
    }
    int64_t base = loops.ellipsis.size() - numEllipsis;
    for (int64_t e = 0; e < numEllipsis; ++e, ++d) {
      bool broadcast = shape[d] == 1 && loops.ellipsis[base + e] != 1;
      exprs.push_back(
          broadcast ? getAffineConstantExpr(0, context)
                    : getAffineDimExpr(loops.ellipsisBase + base + e, context));
    }
  }
  return AffineMap::get(loops.numLoops, 0, exprs, context);
}

LogicalResult amp::onnximport::convertEinsum(NodeContext &ctx) {
  OpBuilder &b = ctx.b;
  Location loc = ctx.loc;
  std::string equation = ctx.getString("equation", "");
  std::string what = "equation '" + equation + "'";
  FailureOr<EinsumEquation> eq = parseEquation(equation);
  if (equation.empty() || failed(eq))
    return ctx.unsupported("equation",
                           "'" + equation + "' (letters, ',', '...' and '->')");
  SmallVector<Value> operands;
  for (unsigned i = 0; i < ctx.getNumInputs(); ++i)
    operands.push_back(ctx.input(i));
  if (operands.size() != eq->inputs.size())
    return ctx.error(what + " has " + Twine(eq->inputs.size()) + " terms for " +
                     Twine(operands.size()) + " operands");
  Type elementType = getElementType(operands.front());
  if (elementType.isInteger(1))
    return ctx.error("bool operands are unsupported");
  for (Value v : operands)
    if (getElementType(v) != elementType)
      return ctx.error("the operands have different element types");
  EinsumLoops loops;
  if (failed(sizeOperands(ctx, *eq, operands, loops, what)) ||
      failed(numberLoops(ctx, *eq, loops, what)))
    return failure();

  MLIRContext *context = b.getContext();
  SmallVector<AffineMap> maps;
  for (auto [term, operand] : llvm::zip(eq->inputs, operands))
    maps.push_back(operandMap(context, term, getShape(operand), loops));
  // The output reads the first numParallel loops.
  SmallVector<AffineExpr> outExprs;
  for (unsigned i = 0; i < loops.numParallel; ++i)
    outExprs.push_back(getAffineDimExpr(i, context));
  maps.push_back(AffineMap::get(loops.numLoops, 0, outExprs, context));
  SmallVector<utils::IteratorType> iterators(loops.numLoops,
                                             utils::IteratorType::reduction);
  for (unsigned i = 0; i < loops.numParallel; ++i)
    iterators[i] = utils::IteratorType::parallel;
  bool reduces = loops.numLoops > loops.numParallel;
  Value init =
      reduces ? zeroTensor(b, loc, loops.outShape, elementType)
              : tensor::EmptyOp::create(b, loc, loops.outShape, elementType)
                    .getResult();
  bool isFloat = isa<FloatType>(elementType);
  auto generic = linalg::GenericOp::create(
      b, loc, init.getType(), operands, ValueRange{init}, maps, iterators,
      [&](OpBuilder &nb, Location nl, ValueRange args) {
        Value product = args.front();
        for (Value v : args.drop_front().drop_back())
          product = isFloat
                        ? arith::MulFOp::create(nb, nl, product, v).getResult()
                        : arith::MulIOp::create(nb, nl, product, v).getResult();
        if (reduces)
          product = isFloat
                        ? arith::AddFOp::create(nb, nl, args.back(), product)
                              .getResult()
                        : arith::AddIOp::create(nb, nl, args.back(), product)
                              .getResult();
        linalg::YieldOp::create(nb, nl, product);
      });
  ctx.setOutput(0, generic.getResult(0));
  return success();
}
