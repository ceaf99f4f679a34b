//===- GenArith.cpp - arith and math ops for the graph generator ----------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The arith and math family of the structured generator (GenCore.h):
// elementwise arithmetic and math functions, fma, comparisons with selects
// over f32 scalars, tensors and vectors; the casts a user writes (a round
// trip through f16/bf16, a detour through f64, a conversion to i32 and
// back); and constants, scalar or tensor.
//
//===----------------------------------------------------------------------===//

#include "GenCore.h"

using namespace mlir::amp::fuzz::gen;

/// `<op> a, b : T` of a visible f32 value and another of its type (now and
/// then `a` itself).
static bool emitArithBinary(Generator &gen) {
  auto a = gen.pickFloatData(true, true);
  if (!a)
    return false;
  Val b = gen.get(a->ty, &*a);
  static const char *ops[] = {
      "arith.addf",     "arith.subf",     "arith.mulf",    "arith.divf",
      "arith.maximumf", "arith.minimumf", "arith.maxnumf", "arith.remf",
      "math.powf",      "math.atan2",     "math.copysign"};
  // Two draws in one expression: their order is the compiler's (GCC draws
  // the operand first, clang the op). Kept so, a seed gives the module it
  // always gave with either.
  Val r{gen.fresh(), a->ty};
  gen.line(r.name + " = " + gen.pickName(ops) + " " + a->name + ", " +
           (gen.rng.chance(15) ? a->name : b.name) + " : " + a->ty.str());
  gen.add(r);
  return true;
}

static bool emitMathUnary(Generator &gen) {
  auto a = gen.pickFloatData(true, true);
  if (!a)
    return false;
  static const char *ops[] = {
      "math.exp",   "math.log",  "math.tanh",     "math.sqrt",  "math.rsqrt",
      "math.absf",  "math.sin",  "math.erf",      "math.floor", "math.exp2",
      "math.log1p", "math.atan", "math.cbrt",     "arith.negf", "math.ceil",
      "math.expm1", "math.cos",  "math.roundeven"};
  gen.define(a->ty, std::string(gen.pickName(ops)) + " " + a->name + " : " +
                        a->ty.str());
  return true;
}

static bool emitFma(Generator &gen) {
  auto a = gen.pickFloatData(true, true);
  if (!a)
    return false;
  Val b = gen.get(a->ty, &*a), c = gen.get(a->ty, &*a);
  gen.define(a->ty, "math.fma " + a->name + ", " + b.name + ", " + c.name +
                        " : " + a->ty.str());
  return true;
}

static bool emitCmpSelect(Generator &gen) {
  auto a = gen.pickFloatData(true, true);
  if (!a)
    return false;
  Val b = gen.get(a->ty, &*a);
  static const char *preds[] = {"olt", "ogt", "oeq", "une", "oge", "ule"};
  Ty condTy = a->ty.withElt("i1");
  Val cond{gen.fresh(), condTy};
  gen.line(cond.name + " = arith.cmpf " + gen.pickName(preds) + ", " + a->name +
           ", " + b.name + " : " + a->ty.str());
  std::string types = a->ty.kind == Ty::Scalar
                          ? a->ty.str()
                          : condTy.str() + ", " + a->ty.str();
  gen.define(a->ty, "arith.select " + cond.name + ", " + a->name + ", " +
                        b.name + " : " + types);
  return true;
}

/// A value the user already cast to f16 or bf16 (arith.truncf or
/// tosa.cast), and often back to f32.
static bool emitUserCasts(Generator &gen) {
  auto a = gen.pickFloatData(true, true);
  if (!a)
    return false;
  std::string low = gen.rng.chance(50) ? "f16" : "bf16";
  Ty lowTy = a->ty.withElt(low);
  bool tosa = gen.options.tosa && a->ty.isTensor() && a->ty.isStatic() &&
              a->ty.numElements() > 0 && gen.rng.chance(40);
  auto cast = [&](const Val &v, const Ty &to, llvm::StringRef arithOp) {
    if (tosa)
      return "tosa.cast " + v.name + " : (" + v.ty.str() + ") -> " + to.str();
    return castText(arithOp, v, to);
  };
  Val narrow = gen.define(lowTy, cast(*a, lowTy, "arith.truncf"));
  if (gen.rng.chance(70))
    gen.define(a->ty, cast(narrow, a->ty, "arith.extf"));
  return true;
}

/// A round trip through f64 (which amp leaves alone).
static bool emitF64Detour(Generator &gen) {
  auto a = gen.pickFloatData(true, false);
  if (!a)
    return false;
  Ty wideTy = a->ty.withElt("f64");
  Val wide{gen.fresh(), wideTy}, sum{gen.fresh(), wideTy},
      back{gen.fresh(), a->ty};
  gen.line(wide.name + " = " + castText("arith.extf", *a, wideTy));
  gen.line(sum.name + " = arith.addf " + wide.name + ", " + wide.name + " : " +
           wideTy.str());
  gen.line(back.name + " = " + castText("arith.truncf", sum, a->ty));
  gen.add(wide);
  gen.add(back);
  return true;
}

/// `a` to i32 and back (undefined for values out of range: not in an
/// executable module).
static bool emitIntConversion(Generator &gen) {
  auto a = gen.pickFloatData(true, false);
  if (!a || gen.options.executable)
    return false;
  auto [i, f] =
      gen.roundTrip(*a, a->ty.withElt("i32"), "arith.fptosi", "arith.sitofp");
  gen.add(i);
  gen.add(f);
  return true;
}

static bool emitConstant(Generator &gen) {
  if (gen.rng.chance(40)) {
    gen.scalarConst();
    return true;
  }
  Ty ty = gen.randomTensorType(0, 3, false);
  gen.tensorConst(ty, gen.options.tosa && ty.rank() > 0 && gen.rng.chance(30));
  return true;
}

void mlir::amp::fuzz::gen::registerArithEmitters(EmitterTable &table) {
  static const Emitter emitters[] = {
      {emitArithBinary, 6, /*fallback=*/true},
      {emitMathUnary, 5},
      {emitFma, 1},
      {emitCmpSelect, 2},
      {emitUserCasts, 2},
      {emitF64Detour, 1},
      {emitIntConversion, 1},
      {emitConstant, 2, /*fallback=*/true},
  };
  table.add(emitters);
}
