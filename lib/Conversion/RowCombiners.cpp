//===- RowCombiners.cpp - The combining operations of reductions ----------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The associative, commutative operations the row kernels' reductions
// combine with: which one a reduction's payload applies, the op itself,
// and its identity (where a thread's partial value starts). See
// RowReductions.h.
//
//===----------------------------------------------------------------------===//

#include "RowReductions.h"

#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::amp;
using namespace mlir::amp::detail;

std::optional<Combiner> mlir::amp::detail::combinerOf(Operation *op) {
  return llvm::TypeSwitch<Operation *, std::optional<Combiner>>(op)
      .Case([](arith::AddFOp) { return Combiner::AddF; })
      .Case([](arith::MulFOp) { return Combiner::MulF; })
      .Case([](arith::MaximumFOp) { return Combiner::MaxF; })
      .Case([](arith::MinimumFOp) { return Combiner::MinF; })
      .Case([](arith::MaxNumFOp) { return Combiner::MaxNumF; })
      .Case([](arith::MinNumFOp) { return Combiner::MinNumF; })
      .Case([](arith::AddIOp) { return Combiner::AddI; })
      .Case([](arith::MaxSIOp) { return Combiner::MaxSI; })
      .Case([](arith::MinSIOp) { return Combiner::MinSI; })
      .Case([](arith::MaxUIOp) { return Combiner::MaxUI; })
      .Case([](arith::MinUIOp) { return Combiner::MinUI; })
      .Case([](arith::OrIOp) { return Combiner::OrI; })
      .Case([](arith::AndIOp) { return Combiner::AndI; })
      .Case([](arith::XOrIOp) { return Combiner::XOrI; })
      .Default([](Operation *) { return std::nullopt; });
}

Value mlir::amp::detail::combine(OpBuilder &b, Location loc, Combiner c,
                                Value x, Value y) {
  switch (c) {
  case Combiner::AddF:
    return arith::AddFOp::create(b, loc, x, y);
  case Combiner::MulF:
    return arith::MulFOp::create(b, loc, x, y);
  case Combiner::MaxF:
    return arith::MaximumFOp::create(b, loc, x, y);
  case Combiner::MinF:
    return arith::MinimumFOp::create(b, loc, x, y);
  case Combiner::MaxNumF:
    return arith::MaxNumFOp::create(b, loc, x, y);
  case Combiner::MinNumF:
    return arith::MinNumFOp::create(b, loc, x, y);
  case Combiner::AddI:
    return arith::AddIOp::create(b, loc, x, y);
  case Combiner::MaxSI:
    return arith::MaxSIOp::create(b, loc, x, y);
  case Combiner::MinSI:
    return arith::MinSIOp::create(b, loc, x, y);
  case Combiner::MaxUI:
    return arith::MaxUIOp::create(b, loc, x, y);
  case Combiner::MinUI:
    return arith::MinUIOp::create(b, loc, x, y);
  case Combiner::OrI:
    return arith::OrIOp::create(b, loc, x, y);
  case Combiner::AndI:
    return arith::AndIOp::create(b, loc, x, y);
  case Combiner::XOrI:
    return arith::XOrIOp::create(b, loc, x, y);
  }
  llvm_unreachable("combiner");
}

TypedAttr mlir::amp::detail::identityOf(Builder &b, Combiner c,
                                         Type type) {
  if (auto ft = dyn_cast<FloatType>(type)) {
    const llvm::fltSemantics &sem = ft.getFloatSemantics();
    switch (c) {
    case Combiner::AddF:
      return b.getFloatAttr(type, llvm::APFloat::getZero(sem, true));
    case Combiner::MulF:
      return b.getFloatAttr(type, 1.0);
    case Combiner::MaxF:
    case Combiner::MaxNumF:
      return b.getFloatAttr(type, llvm::APFloat::getInf(sem, true));
    case Combiner::MinF:
    case Combiner::MinNumF:
      return b.getFloatAttr(type, llvm::APFloat::getInf(sem, false));
    default:
      return {};
    }
  }
  auto it = dyn_cast<IntegerType>(type);
  if (!it)
    return {};
  unsigned w = it.getWidth();
  switch (c) {
  case Combiner::AddI:
  case Combiner::OrI:
  case Combiner::XOrI:
  case Combiner::MaxUI:
    return b.getIntegerAttr(type, llvm::APInt::getZero(w));
  case Combiner::AndI:
  case Combiner::MinUI:
    return b.getIntegerAttr(type, llvm::APInt::getAllOnes(w));
  case Combiner::MaxSI:
    return b.getIntegerAttr(type, llvm::APInt::getSignedMinValue(w));
  case Combiner::MinSI:
    return b.getIntegerAttr(type, llvm::APInt::getSignedMaxValue(w));
  default:
    return {};
  }
}
