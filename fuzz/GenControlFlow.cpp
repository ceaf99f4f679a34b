//===- GenControlFlow.cpp - Control flow and calls for the generator ------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The control flow family of the structured generator (GenCore.h): scf.for
// with iter_args, scf.if with results, scf.while with a counter, a cf
// diamond (cond_br to two blocks that branch to a merge block with an
// argument), each with random ops of its own in its regions down to
// GeneratorOptions::maxDepth; and calls of the functions written before or
// of external declarations.
//
//===----------------------------------------------------------------------===//

#include "GenCore.h"

#include "llvm/ADT/StringExtras.h"

using namespace mlir::amp::fuzz::gen;
using mlir::amp::fuzz::Entropy;

/// Types of 1-2 of `candidates`, for the results of a region op.
static std::vector<Ty> pickResultTypes(Entropy &rng,
                                       const std::vector<Ty> &candidates) {
  std::vector<Ty> result;
  unsigned n = 1 + rng.below(2);
  for (unsigned i = 0; i < n && !candidates.empty(); ++i)
    result.push_back(candidates[rng.below(candidates.size())]);
  return result;
}

/// Makes the `types.size()` results of an op named `res` visible.
static void addResults(Generator &gen, const std::string &res,
                       llvm::ArrayRef<Ty> types) {
  unsigned n = types.size();
  for (unsigned i = 0; i < n; ++i)
    gen.add(Val{n > 1 ? res + "#" + std::to_string(i) : res, types[i]});
}

/// `scf.yield` of a value of each of `types`.
static void yieldValues(Generator &gen, llvm::ArrayRef<Ty> types) {
  std::vector<std::string> yields;
  for (const Ty &t : types)
    yields.push_back(gen.get(t).name);
  gen.line("scf.yield " + llvm::join(yields, ", ") + " : " + typeList(types));
}

/// A comparison `pred` of two f32 scalars; returns its name.
static std::string compareScalars(Generator &gen, llvm::StringRef pred) {
  Val a = gen.getScalar(), b = gen.getScalar();
  std::string cond = gen.fresh();
  gen.line(cond + " = arith.cmpf " + pred.str() + ", " + a.name + ", " +
           b.name + " : f32");
  return cond;
}

static bool isF32TensorOrScalar(const Ty &t) {
  return t.isF32() && (t.isTensor() || t.kind == Ty::Scalar);
}

//===----------------------------------------------------------------------===//
// scf
//===----------------------------------------------------------------------===//

static bool emitScfFor(Generator &gen) {
  if (gen.depth >= gen.options.maxDepth)
    return false;
  std::vector<Val> inits;
  unsigned n = 1 + gen.rng.below(2);
  for (unsigned i = 0; i < n; ++i) {
    auto v = gen.pick([](const Val &v) { return isF32TensorOrScalar(v.ty); });
    inits.push_back(v ? *v : gen.getScalar());
  }
  std::string lb = gen.indexConst(0), ub = gen.indexConst(gen.rng.range(1, 3)),
              step = gen.indexConst(1);
  std::string res = gen.fresh();
  std::vector<std::string> iterArgs;
  std::vector<Ty> types;
  std::vector<Val> bodyArgs;
  for (const Val &v : inits) {
    Val arg{gen.fresh(), v.ty};
    iterArgs.push_back(arg.name + " = " + v.name);
    types.push_back(v.ty);
    bodyArgs.push_back(arg);
  }
  std::string iv = gen.fresh();
  gen.line(resultsLhs(res, n) + " = scf.for " + iv + " = " + lb + " to " + ub +
           " step " + step + " iter_args(" + llvm::join(iterArgs, ", ") +
           ") -> (" + typeList(types) + ") {");
  {
    NestedRegion region(gen, bodyArgs);
    gen.emitOps(gen.rng.range(1, 5));
    yieldValues(gen, types);
  }
  gen.line("}");
  addResults(gen, res, types);
  return true;
}

static bool emitScfIf(Generator &gen) {
  if (gen.depth >= gen.options.maxDepth)
    return false;
  // The condition: a comparison of two scalars.
  std::string cond = compareScalars(gen, "olt");
  std::vector<Ty> candidates;
  for (Scope *s = gen.scope; s; s = s->parent)
    for (const Val &v : s->vals)
      if (isF32TensorOrScalar(v.ty))
        candidates.push_back(v.ty);
  candidates.push_back(Ty::scalar());
  std::vector<Ty> resultTypes = pickResultTypes(gen.rng, candidates);
  std::string res = gen.fresh();
  gen.line(resultsLhs(res, resultTypes.size()) + " = scf.if " + cond + " -> (" +
           typeList(resultTypes) + ") {");
  for (int branch = 0; branch < 2; ++branch) {
    {
      NestedRegion region(gen, {});
      gen.emitOps(gen.rng.range(0, 4));
      yieldValues(gen, resultTypes);
    }
    if (branch == 0)
      gen.line("} else {");
  }
  gen.line("}");
  addResults(gen, res, resultTypes);
  return true;
}

static bool emitScfWhile(Generator &gen) {
  if (gen.depth >= gen.options.maxDepth || gen.options.executable)
    return false;
  auto v =
      gen.pick([](const Val &v) { return v.ty.isF32() && v.ty.isTensor(); });
  Val init = v ? *v : gen.get(gen.randomTensorType(1, 2, true));
  Val limit = gen.getScalar();
  std::string t = init.ty.str();
  std::string res = gen.fresh(), arg = gen.fresh(), counter = gen.fresh();
  Val zero = gen.scalarConst(0.0);
  gen.line(res + ":2 = scf.while (" + arg + " = " + init.name + ", " + counter +
           " = " + zero.name + ") : (" + t + ", f32) -> (" + t + ", f32) {");
  ++gen.indent;
  std::string cond = gen.fresh();
  gen.line(cond + " = arith.cmpf olt, " + counter + ", " + limit.name +
           " : f32");
  gen.line("scf.condition(" + cond + ") " + arg + ", " + counter + " : " + t +
           ", f32");
  gen.endRegion("} do {");
  std::string barg = gen.fresh(), bcounter = gen.fresh();
  gen.line("^bb0(" + barg + ": " + t + ", " + bcounter + ": f32):");
  {
    NestedRegion region(gen, {Val{barg, init.ty}, Val{bcounter, Ty::scalar()}});
    gen.emitOps(gen.rng.range(0, 3));
    Val next = gen.get(init.ty);
    Val one = gen.scalarConst(1.0);
    std::string inc = gen.fresh();
    gen.line(inc + " = arith.addf " + bcounter + ", " + one.name + " : f32");
    gen.line("scf.yield " + next.name + ", " + inc + " : " + t + ", f32");
  }
  gen.line("}");
  gen.add(Val{res + "#0", init.ty});
  return true;
}

//===----------------------------------------------------------------------===//
// Calls and cf
//===----------------------------------------------------------------------===//

/// Declares an external function over visible types, to be called (not in
/// a module to execute: nothing defines it).
static void declareExternal(Generator &gen) {
  FuncSig decl;
  decl.name = "ext" + std::to_string(gen.externals.size());
  for (unsigned i = 0, e = gen.rng.range(0, 2); i < e; ++i)
    if (auto v = gen.pickFloatData(true, false))
      decl.args.push_back(v->ty);
  decl.results.push_back(gen.rng.chance(50) ? Ty::scalar()
                                            : gen.randomTensorType(1, 2, true));
  gen.externals.push_back("  func.func private @" + decl.name + "(" +
                          typeList(decl.args) + ") -> (" +
                          typeList(decl.results) + ")\n");
  gen.functions.push_back(std::move(decl));
}

static bool emitCall(Generator &gen) {
  if (gen.inNestedModule)
    return false; // The symbols of the outer module are not visible there.
  if (!gen.options.executable && gen.rng.chance(20))
    declareExternal(gen);
  if (gen.functions.empty())
    return false;
  const FuncSig &callee = gen.functions[gen.rng.below(gen.functions.size())];
  std::vector<std::string> operands;
  for (const Ty &t : callee.args)
    operands.push_back(gen.get(t).name);
  std::string res = gen.fresh();
  unsigned n = callee.results.size();
  std::string call =
      "func.call @" + callee.name + "(" + llvm::join(operands, ", ") + ") : (" +
      typeList(callee.args) + ") -> (" + typeList(callee.results) + ")";
  if (n == 0) {
    gen.line(call);
    return true;
  }
  gen.line(resultsLhs(res, n) + " = " + call);
  addResults(gen, res, callee.results);
  return true;
}

/// Writes the label of a cf block, at the indentation of the function.
static void blockLabel(Generator &gen, const std::string &label) {
  --gen.indent;
  gen.line(label);
  ++gen.indent;
}

static bool emitDiamond(Generator &gen) {
  if (!gen.atFunctionLevel || gen.depth >= gen.options.maxDepth)
    return false;
  std::string cond = compareScalars(gen, "ogt");
  // The merge block takes one value, of a type both branches make.
  Ty ty = gen.rng.chance(50) ? Ty::scalar() : gen.randomTensorType(1, 2, false);
  unsigned id = gen.blockCounter++;
  std::string thenBB = "^bb" + std::to_string(3 * id + 1),
              elseBB = "^bb" + std::to_string(3 * id + 2),
              mergeBB = "^bb" + std::to_string(3 * id + 3);
  gen.line("cf.cond_br " + cond + ", " + thenBB + ", " + elseBB);
  for (const std::string &bb : {thenBB, elseBB}) {
    blockLabel(gen, bb + ":");
    NestedRegion block(gen, {}, /*scfRegion=*/false);
    gen.emitOps(gen.rng.range(0, 3));
    Val v = gen.get(ty);
    gen.line("cf.br " + mergeBB + "(" + v.name + " : " + ty.str() + ")");
  }
  std::string arg = gen.fresh();
  blockLabel(gen, mergeBB + "(" + arg + ": " + ty.str() + "):");
  gen.add(Val{arg, ty});
  return true;
}

void mlir::amp::fuzz::gen::registerControlFlowEmitters(EmitterTable &table) {
  static const Emitter emitters[] = {
      {emitScfFor, 2}, {emitScfIf, 2},   {emitScfWhile, 1},
      {emitCall, 3},   {emitDiamond, 1},
  };
  table.add(emitters);
}
