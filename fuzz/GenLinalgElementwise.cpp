//===- GenLinalgElementwise.cpp - Other linalg ops for the generator ------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The linalg ops of the structured generator (GenCore.h) that are not
// contractions: elementwise generics (broadcast bias inputs, inputs already
// in 16 bits, two results, payloads that capture values from above),
// reductions as generics and as linalg.reduce, the named elementwise ops,
// linalg.map, softmax, and the data movement ops (transpose, broadcast,
// copy, fill).
//
//===----------------------------------------------------------------------===//

#include "GenCore.h"

#include "llvm/ADT/StringExtras.h"

using namespace mlir::amp::fuzz::gen;
using llvm::SmallVector;

/// Identity indexing map of rank `rank`, as text.
static std::string identityMap(unsigned rank) {
  return affineMap(dimNames(rank), dimNames(rank));
}

/// The iterator types of `parallel` loops then `reduction` loops, as text.
static std::string iterators(unsigned parallel, unsigned reduction = 0) {
  std::vector<std::string> its(parallel, "\"parallel\"");
  its.insert(its.end(), reduction, "\"reduction\"");
  return "[" + llvm::join(its, ", ") + "]";
}

/// The dynamic sizes of `source` at the dimensions `dims`, read with
/// tensor.dim.
static std::vector<std::string> dynamicSizes(Generator &gen, const Val &source,
                                             llvm::ArrayRef<unsigned> dims) {
  std::vector<std::string> sizes;
  for (unsigned d : dims)
    if (source.ty.shape[d] == kDynamic)
      sizes.push_back(gen.dimOf(source, d));
  return sizes;
}

//===----------------------------------------------------------------------===//
// Generics
//===----------------------------------------------------------------------===//

/// Adds up to two inputs to an elementwise generic over the shape of
/// `first`, with their indexing maps: a bias broadcast along the last
/// dimension, a value already in 16 bits, or another value of its type.
static void addElementwiseInputs(Generator &gen, const Val &first,
                                 std::vector<Val> &inputs,
                                 std::vector<std::string> &maps) {
  const Ty &ty = first.ty;
  unsigned rank = ty.rank();
  unsigned extra = gen.rng.below(3);
  for (unsigned i = 0; i < extra; ++i) {
    if (rank > 0 && gen.rng.chance(25)) {
      // A broadcast input along the last dimension (a bias).
      Ty biasTy = Ty::tensor({ty.shape[rank - 1]});
      inputs.push_back(gen.get(biasTy));
      maps.push_back(
          affineMap(dimNames(rank), {"d" + std::to_string(rank - 1)}));
      continue;
    }
    if (gen.rng.chance(15)) {
      // An input already in 16 bits, widened in the payload.
      if (auto low = gen.pick([&](const Val &v) {
            return v.ty.isTensor() && v.ty.shape == ty.shape &&
                   (v.ty.elt == "f16" || v.ty.elt == "bf16");
          })) {
        inputs.push_back(*low);
        maps.push_back(identityMap(rank));
        continue;
      }
    }
    inputs.push_back(gen.get(ty, &first));
    maps.push_back(identityMap(rank));
  }
}

/// Opens the payload of an elementwise generic: its block arguments (one
/// per input, the init, which the payload reads only where `readsInit`, and
/// a second init where `twoResults`), the 16-bit inputs widened to f32.
/// Returns the f32 values the payload may compute from.
static std::vector<std::string>
beginElementwisePayload(Generator &gen, llvm::ArrayRef<Val> inputs,
                        bool readsInit, bool twoResults) {
  std::vector<std::string> blockArgs, pool;
  std::vector<std::pair<std::string, std::string>> widen;
  for (const Val &v : inputs) {
    std::string arg = gen.fresh();
    blockArgs.push_back(arg + ": " + v.ty.elt);
    if (v.ty.elt == "f32")
      pool.push_back(arg);
    else
      widen.push_back({arg, v.ty.elt});
  }
  std::string out = gen.fresh();
  blockArgs.push_back(out + ": f32");
  if (readsInit)
    pool.push_back(out);
  if (twoResults)
    blockArgs.push_back(gen.fresh() + ": f32");
  gen.beginBlock(blockArgs);
  for (auto &[arg, elt] : widen) {
    std::string w = gen.fresh();
    gen.line(w + " = arith.extf " + arg + " : " + elt + " to f32");
    pool.push_back(w);
  }
  for (const std::string &c : gen.capturedScalars())
    pool.push_back(c);
  return pool;
}

static bool emitGenericElementwise(Generator &gen) {
  auto a = gen.pickF32Tensor(0, /*allowEmpty=*/true);
  Val first = a ? *a : gen.get(gen.randomTensorType(0, 3, true, true));
  Ty ty = first.ty;
  unsigned rank = ty.rank();
  std::vector<Val> inputs{first};
  std::vector<std::string> maps{identityMap(rank)};
  addElementwiseInputs(gen, first, inputs, maps);
  bool readsInit = gen.rng.chance(20);
  std::vector<Val> outs{readsInit ? gen.get(ty, &first)
                                  : gen.emptyTensor(ty, &first)};
  maps.push_back(identityMap(rank));
  // Sometimes a second result (a generic with two outputs).
  bool twoResults = gen.rng.chance(15);
  if (twoResults) {
    outs.push_back(gen.emptyTensor(ty, &first));
    maps.push_back(identityMap(rank));
  }

  std::string res = gen.fresh();
  gen.line(res + (twoResults ? ":2" : "") +
           " = linalg.generic {indexing_maps = [" + llvm::join(maps, ", ") +
           "], iterator_types = " + iterators(rank) + "}" +
           insOuts(inputs, outs) + " {");
  std::vector<std::string> pool =
      beginElementwisePayload(gen, inputs, readsInit, twoResults);
  std::string result = gen.scalarExpr(pool, gen.rng.range(1, 4), true);
  if (twoResults) {
    std::string second = gen.scalarExpr(pool, gen.rng.range(0, 2), true);
    gen.line("linalg.yield " + result + ", " + second + " : f32, f32");
    gen.endRegion("} -> (" + ty.str() + ", " + ty.str() + ")");
    gen.add(Val{res + "#0", ty});
    gen.add(Val{res + "#1", ty});
    return true;
  }
  gen.line("linalg.yield " + result + " : f32");
  gen.endRegion("} -> " + ty.str());
  gen.add(Val{res, ty});
  return true;
}

/// The neutral value of a reduction's combiner.
static double neutralValue(const std::string &combiner) {
  return combiner == "arith.addf"       ? 0.0
         : combiner == "arith.mulf"     ? 1.0
         : combiner == "arith.maximumf" ? -kFloatMax
                                        : kFloatMax;
}

static bool emitGenericReduction(Generator &gen) {
  auto a = gen.pickTensor(
      [](const Ty &t) { return t.isF32() && t.rank() >= 1 && t.rank() <= 3; });
  Val in = a ? *a : gen.get(gen.randomTensorType(1, 3, true));
  unsigned rank = in.ty.rank();
  unsigned dim = gen.rng.below(rank);
  SmallVector<int64_t> outShape;
  SmallVector<unsigned> keptDims;
  std::vector<std::string> inDims, outDims;
  // Loops: the parallel dims first, then the reduced one.
  std::vector<unsigned> loopOf(rank);
  unsigned next = 0;
  for (unsigned d = 0; d < rank; ++d)
    if (d != dim) {
      loopOf[d] = next++;
      outShape.push_back(in.ty.shape[d]);
      keptDims.push_back(d);
    }
  loopOf[dim] = next;
  for (unsigned d = 0; d < rank; ++d) {
    inDims.push_back("d" + std::to_string(loopOf[d]));
    if (d != dim)
      outDims.push_back("d" + std::to_string(loopOf[d]));
  }
  Ty outTy = Ty::tensor(outShape);
  static const char *combiners[] = {"arith.addf", "arith.maximumf",
                                    "arith.minimumf", "arith.mulf"};
  std::string combiner = gen.pickName(combiners);
  double neutral = neutralValue(combiner);
  Val init = outTy.isStatic()
                 ? gen.filledTensor(outTy, nullptr, neutral)
                 : gen.filledTensorSized(outTy, dynamicSizes(gen, in, keptDims),
                                         neutral);
  std::vector<std::string> loops = dimNames(rank);
  Val r{gen.fresh(), outTy};
  gen.line(r.name + " = linalg.generic {indexing_maps = [" +
           affineMap(loops, inDims) + ", " + affineMap(loops, outDims) +
           "], iterator_types = " + iterators(rank - 1, 1) + "}" +
           insOuts(in, init) + " {");
  std::string x = gen.fresh(), acc = gen.fresh();
  gen.beginBlock({x + ": f32", acc + ": f32"});
  std::string value = x;
  if (gen.rng.chance(40))
    value = gen.scalarExpr({x}, 1, true);
  std::string combined = gen.fresh();
  gen.line(combined + " = " + combiner + " " + acc + ", " + value + " : f32");
  gen.line("linalg.yield " + combined + " : f32");
  gen.endRegion("} -> " + outTy.str());
  gen.add(r);
  return true;
}

//===----------------------------------------------------------------------===//
// Named ops
//===----------------------------------------------------------------------===//

namespace {
/// An elementwise op over a value: its name and operands.
struct ElementwiseOp {
  std::string name;
  std::vector<Val> operands;
};
} // namespace

/// A unary op of `unary` over `x`, or a binary one of `binary` over `x` and
/// another value of its type.
static ElementwiseOp pickUnaryOrBinary(Generator &gen, const Val &x,
                                       llvm::ArrayRef<const char *> unary,
                                       llvm::ArrayRef<const char *> binary) {
  if (gen.rng.chance(50))
    return {gen.rng.pick(unary), {x}};
  Val y = gen.get(x.ty, &x);
  return {gen.rng.pick(binary), {x, y}};
}

static bool emitNamedElementwise(Generator &gen) {
  auto a = gen.pickF32Tensor(1, /*allowEmpty=*/true);
  Val x = a ? *a : gen.get(gen.randomTensorType(1, 3, true));
  static const char *unary[] = {"exp",   "log",  "abs",        "negf",
                                "floor", "sqrt", "rsqrt",      "tanh",
                                "erf",   "ceil", "reciprocal", "square"};
  static const char *binary[] = {"add", "sub", "mul", "div",
                                 "max", "min", "powf"};
  Val init = gen.emptyTensor(x.ty, &x);
  Val r{gen.fresh(), x.ty};
  ElementwiseOp op = pickUnaryOrBinary(gen, x, unary, binary);
  gen.line(r.name + " = linalg." + op.name + insOuts(op.operands, init) +
           " -> " + x.ty.str());
  gen.add(r);
  return true;
}

static bool emitTranspose(Generator &gen) {
  auto a = gen.pickF32Tensor(2, /*allowEmpty=*/true);
  if (!a)
    return false;
  unsigned rank = a->ty.rank();
  SmallVector<unsigned> perm(rank);
  for (unsigned i = 0; i < rank; ++i)
    perm[i] = i;
  for (unsigned i = rank - 1; i > 0; --i)
    std::swap(perm[i], perm[gen.rng.below(i + 1)]);
  SmallVector<int64_t> shape, permValues;
  for (unsigned p : perm) {
    shape.push_back(a->ty.shape[p]);
    permValues.push_back(p);
  }
  Ty outTy = Ty::tensor(shape);
  Val empty = gen.emptyTensorSized(outTy, dynamicSizes(gen, *a, perm));
  gen.define(outTy, "linalg.transpose" + insOuts(*a, empty) +
                        " permutation = [" + joinInts(permValues) + "]");
  return true;
}

static bool emitBroadcast(Generator &gen) {
  auto a = gen.pickStaticF32Tensor(1, 2);
  if (!a)
    return false;
  SmallVector<int64_t> shape(a->ty.shape.begin(), a->ty.shape.end());
  shape.push_back(gen.randomDim());
  Ty outTy = Ty::tensor(shape);
  Val empty = gen.emptyTensor(outTy);
  gen.define(outTy, "linalg.broadcast" + insOuts(*a, empty) +
                        " dimensions = [" + std::to_string(a->ty.rank()) + "]");
  return true;
}

static bool emitCopyOrFill(Generator &gen) {
  auto a = gen.pickF32Tensor(0, /*allowEmpty=*/true);
  if (!a)
    return false;
  if (gen.rng.chance(50)) {
    Val init = gen.emptyTensor(a->ty, &*a);
    gen.define(a->ty, "linalg.copy" + insOuts(*a, init) + " -> " + a->ty.str());
  } else {
    // Fill an existing value (it only gives the shape).
    gen.add(gen.fill(gen.getScalar(), *a));
  }
  return true;
}

/// linalg.map with a unary or binary op of its own.
static void emitMap(Generator &gen, const Val &a) {
  static const char *unary[] = {"math.exp", "math.tanh", "math.absf",
                                "arith.negf"};
  static const char *binary[] = {"arith.addf", "arith.mulf", "arith.maximumf"};
  Val init = gen.emptyTensor(a.ty, &a);
  Val r{gen.fresh(), a.ty};
  ElementwiseOp op = pickUnaryOrBinary(gen, a, unary, binary);
  gen.line(r.name + " = linalg.map { " + op.name + " }" +
           insOuts(op.operands, init));
  gen.add(r);
}

static bool emitMapReduce(Generator &gen) {
  auto a = gen.pickF32Tensor(1);
  if (!a)
    return false;
  if (gen.rng.chance(50)) {
    emitMap(gen, *a);
    return true;
  }
  unsigned dim = gen.rng.below(a->ty.rank());
  SmallVector<int64_t> shape;
  for (unsigned d = 0; d < a->ty.rank(); ++d)
    if (d != dim)
      shape.push_back(a->ty.shape[d]);
  Ty outTy = Ty::tensor(shape);
  if (!outTy.isStatic())
    return false;
  bool isMax = gen.rng.chance(50);
  Val init = gen.filledTensor(outTy, nullptr, isMax ? -kFloatMax : 0.0);
  gen.define(outTy, "linalg.reduce { " +
                        std::string(isMax ? "arith.maximumf" : "arith.addf") +
                        " }" + insOuts(*a, init) + " dimensions = [" +
                        std::to_string(dim) + "]");
  return true;
}

static bool emitSoftmax(Generator &gen) {
  auto a = gen.pickF32Tensor(1, /*allowEmpty=*/true);
  if (!a)
    return false;
  Val init = gen.emptyTensor(a->ty, &*a);
  gen.define(a->ty, "linalg.softmax dimension(" +
                        std::to_string(gen.rng.below(a->ty.rank())) + ")" +
                        insOuts(*a, init) + " -> " + a->ty.str());
  return true;
}

void mlir::amp::fuzz::gen::registerLinalgElementwiseEmitters(
    EmitterTable &table) {
  static const Emitter emitters[] = {
      {emitGenericElementwise, 6}, {emitGenericReduction, 3},
      {emitNamedElementwise, 3},   {emitTranspose, 2},
      {emitBroadcast, 1},          {emitCopyOrFill, 1},
      {emitMapReduce, 2},          {emitSoftmax, 1},
  };
  table.add(emitters);
}
