//===- GraphGenerator.cpp - Random valid FP32 graphs for amp --------------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The core of the structured generator (GenCore.h). The generator keeps, per
// function, a tree of scopes (function body, scf and cf regions) holding the
// SSA values defined so far with their types. Each step draws an emitter
// from the weighted table the op families register (Gen<Family>.cpp); the
// emitter finds operands of the types it needs among the visible values (or
// makes them: a new function argument, a constant, a filled tensor.empty, a
// cast of a static value to a dynamic type) and writes the op. Payload
// regions (linalg.generic, tensor.pad/generate) are written from a small
// random scalar expression that may capture values from above.
//
//===----------------------------------------------------------------------===//

#include "GenCore.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <cstring>
#include <limits>

using namespace mlir::amp::fuzz;
using namespace mlir::amp::fuzz::gen;
using llvm::SmallVector;

//===----------------------------------------------------------------------===//
// Types and text
//===----------------------------------------------------------------------===//

std::string Ty::str() const {
  if (kind == Scalar)
    return elt;
  std::string s = kind == Tensor   ? "tensor<"
                  : kind == Vector ? "vector<"
                                   : "memref<";
  for (int64_t d : shape)
    s += (d == kDynamic ? std::string("?") : std::to_string(d)) + "x";
  return s + elt + ">";
}

std::string gen::formatF32(double value) {
  float f = static_cast<float>(value);
  if (std::isnan(f) || std::isinf(f)) {
    uint32_t bits;
    std::memcpy(&bits, &f, sizeof(bits));
    std::string text;
    llvm::raw_string_ostream os(text);
    os << llvm::format("0x%08X", bits);
    return text;
  }
  std::string text;
  llvm::raw_string_ostream os(text);
  os << llvm::format("%.9e", static_cast<double>(f));
  return text;
}

std::string gen::joinInts(llvm::ArrayRef<int64_t> values) {
  std::vector<std::string> text;
  for (int64_t v : values)
    text.push_back(std::to_string(v));
  return llvm::join(text, ", ");
}

std::string gen::typeList(llvm::ArrayRef<Ty> types) {
  std::vector<std::string> text;
  for (const Ty &t : types)
    text.push_back(t.str());
  return llvm::join(text, ", ");
}

std::string gen::operandList(llvm::ArrayRef<Val> vals) {
  std::vector<std::string> names, types;
  for (const Val &v : vals) {
    names.push_back(v.name);
    types.push_back(v.ty.str());
  }
  return llvm::join(names, ", ") + " : " + llvm::join(types, ", ");
}

std::string gen::insOuts(llvm::ArrayRef<Val> ins, llvm::ArrayRef<Val> outs) {
  return " ins(" + operandList(ins) + ") outs(" + operandList(outs) + ")";
}

std::string gen::castText(llvm::StringRef op, const Val &v, const Ty &to) {
  return op.str() + " " + v.name + " : " + v.ty.str() + " to " + to.str();
}

std::vector<std::string> gen::dimNames(unsigned rank) {
  std::vector<std::string> dims;
  for (unsigned i = 0; i < rank; ++i)
    dims.push_back("d" + std::to_string(i));
  return dims;
}

std::string gen::affineMap(llvm::ArrayRef<std::string> dims,
                           llvm::ArrayRef<std::string> results) {
  return "affine_map<(" + llvm::join(dims, ", ") + ") -> (" +
         llvm::join(results, ", ") + ")>";
}

std::string gen::resultsLhs(const std::string &res, unsigned n) {
  return res + (n > 1 ? ":" + std::to_string(n) : "");
}

//===----------------------------------------------------------------------===//
// Emission
//===----------------------------------------------------------------------===//

void Generator::line(const std::string &text) {
  body->append(2 * indent, ' ');
  body->append(text);
  body->push_back('\n');
  ++numOps;
}

Val Generator::define(const Ty &ty, const std::string &rhs) {
  Val v{fresh(), ty};
  line(v.name + " = " + rhs);
  add(v);
  return v;
}

std::pair<Val, Val> Generator::roundTrip(const Val &v, const Ty &via,
                                         llvm::StringRef there,
                                         llvm::StringRef back) {
  Val x{fresh(), via}, y{fresh(), v.ty};
  line(x.name + " = " + castText(there, v, via));
  line(y.name + " = " + castText(back, x, v.ty));
  return {x, y};
}

//===----------------------------------------------------------------------===//
// Values
//===----------------------------------------------------------------------===//

/// Interesting FP32 values: ordinary ones, and ones that do not fit f16 or
/// bf16 (overflow, flush to zero), the +-FLT_MAX sentinels, infinities, NaN.
static const double kOrdinary[] = {0.0,   1.0, -1.0, 0.5,  -2.5,
                                   0.125, 3.0, 0.1,  -0.75};
static const double kSpecial[] = {65504.0,
                                  65520.0,
                                  1.0e5,
                                  -7.0e4,
                                  1.0e-8,
                                  -3.0e-9,
                                  1.0e-30,
                                  1.0e38,
                                  kFloatMax,
                                  -kFloatMax,
                                  std::numeric_limits<double>::infinity(),
                                  -std::numeric_limits<double>::infinity(),
                                  std::numeric_limits<double>::quiet_NaN(),
                                  -0.0,
                                  1.0e-40};

double Generator::randomValue() {
  if (rng.chance(15))
    return rng.pick(llvm::ArrayRef<double>(kSpecial));
  if (options.executable || rng.chance(50))
    return rng.pick(llvm::ArrayRef<double>(kOrdinary));
  return static_cast<double>(rng.range(-1000, 1000)) / 64.0;
}

std::optional<Val>
Generator::pick(const std::function<bool(const Val &)> &pred) {
  SmallVector<const Val *> candidates;
  for (Scope *s = scope; s; s = s->parent)
    for (const Val &v : s->vals)
      if (pred(v))
        candidates.push_back(&v);
  for (const Val &v : args)
    if (pred(v))
      candidates.push_back(&v);
  if (candidates.empty())
    return std::nullopt;
  return *candidates[rng.below(candidates.size())];
}

Val Generator::newArg(const Ty &ty) {
  Val v{"%arg" + std::to_string(args.size()), ty};
  args.push_back(v);
  return v;
}

std::string Generator::indexConst(int64_t value) {
  std::string name = fresh();
  line(name + " = arith.constant " + std::to_string(value) + " : index");
  return name;
}

Val Generator::scalarConst(std::optional<double> value) {
  return define(Ty::scalar(), "arith.constant " +
                                  formatF32(value ? *value : randomValue()) +
                                  " : f32");
}

Val Generator::tensorConst(const Ty &ty, bool tosaConst) {
  std::string attr;
  int64_t n = ty.numElements();
  unsigned kind = rng.below(10);
  if (kind < 5 || n > 64 || n == 0) {
    attr = "dense<" + formatF32(randomValue()) + "> : " + ty.str();
  } else if (kind < 9 || options.executable) {
    // A list, nested by dimension.
    std::function<std::string(unsigned)> nest = [&](unsigned dim) {
      if (dim == ty.rank())
        return formatF32(randomValue());
      std::string s = "[";
      for (int64_t i = 0; i < ty.shape[dim]; ++i)
        s += (i ? ", " : "") + nest(dim + 1);
      return s + "]";
    };
    attr = "dense<" + nest(0) + "> : " + ty.str();
  } else {
    // A dense_resource blob: 4-byte alignment, then little-endian floats.
    std::string name = "blob" + std::to_string(resources.size());
    std::string hex = "0x04000000";
    for (int64_t i = 0; i < n; ++i) {
      float f = static_cast<float>(randomValue());
      uint32_t bits;
      std::memcpy(&bits, &f, sizeof(bits));
      for (int b = 0; b < 4; ++b)
        hex += llvm::hexdigit((bits >> (8 * b + 4)) & 0xF) +
               std::string(1, llvm::hexdigit((bits >> (8 * b)) & 0xF));
    }
    resources.push_back({name, hex});
    attr = "dense_resource<" + name + "> : " + ty.str();
  }
  if (tosaConst)
    return define(ty, "\"tosa.const\"() <{values = " + attr + "}> : () -> " +
                          ty.str());
  return define(ty, "arith.constant " + attr);
}

std::string Generator::dimOf(const Val &v, unsigned i) {
  std::string dim = fresh();
  line(dim + " = tensor.dim " + v.name + ", " + indexConst(i) + " : " +
       v.ty.str());
  return dim;
}

Val Generator::emptyTensorSized(const Ty &ty,
                                llvm::ArrayRef<std::string> sizes) {
  Val v{fresh(), ty};
  line(v.name + " = tensor.empty(" + llvm::join(sizes, ", ") +
       ") : " + ty.str());
  return v;
}

Val Generator::emptyTensor(const Ty &ty, const Val *like) {
  std::vector<std::string> sizes;
  for (unsigned i = 0; i < ty.rank(); ++i) {
    if (ty.shape[i] != kDynamic)
      continue;
    if (like && like->ty.isTensor() && like->ty.rank() == ty.rank() &&
        like->ty.shape[i] == kDynamic)
      sizes.push_back(dimOf(*like, i));
    else
      sizes.push_back(indexConst(randomDim()));
  }
  return emptyTensorSized(ty, sizes);
}

Val Generator::fill(const Val &scalar, const Val &dest) {
  Val v{fresh(), dest.ty};
  line(v.name + " = linalg.fill ins(" + scalar.name + " : f32) outs(" +
       dest.name + " : " + dest.ty.str() + ") -> " + dest.ty.str());
  return v;
}

Val Generator::filledTensor(const Ty &ty, const Val *like,
                            std::optional<double> value) {
  Val empty = emptyTensor(ty, like);
  Val scalar = value ? scalarConst(value) : getScalar();
  Val v = fill(scalar, empty);
  add(v);
  return v;
}

Val Generator::filledTensorSized(const Ty &ty,
                                 llvm::ArrayRef<std::string> sizes,
                                 double value) {
  Val empty = emptyTensorSized(ty, sizes);
  Val scalar = scalarConst(value);
  return fill(scalar, empty);
}

Val Generator::getScalar() {
  if (rng.chance(60))
    if (auto v = pick([](const Val &v) {
          return v.ty.kind == Ty::Scalar && v.ty.isF32();
        }))
      return *v;
  switch (rng.below(4)) {
  case 0:
    // amp-run passes ranked tensors only.
    if (!options.executable)
      return newArg(Ty::scalar());
    [[fallthrough]];
  case 1:
    if (auto t = pickTensor([](const Ty &t) {
          return t.isF32() && t.isStatic() && t.numElements() > 0;
        })) {
      std::vector<std::string> indices;
      for (unsigned i = 0; i < t->ty.rank(); ++i)
        indices.push_back(indexConst(rng.below(t->ty.shape[i])));
      return define(Ty::scalar(), "tensor.extract " + t->name + "[" +
                                      llvm::join(indices, ", ") +
                                      "] : " + t->ty.str());
    }
    [[fallthrough]];
  default:
    return scalarConst();
  }
}

Val Generator::get(const Ty &ty, const Val *like) {
  if (ty.kind == Ty::Scalar && ty.isF32())
    return getScalar();
  if (rng.chance(70))
    if (auto v = pick([&](const Val &v) { return v.ty == ty; }))
      return *v;
  if (!ty.isTensor() || !ty.isF32())
    return newArg(ty);
  unsigned choice = rng.below(10);
  if (choice < 2 || (options.executable && choice < 4))
    return newArg(ty);
  if (ty.isStatic()) {
    if (choice < 6 && ty.numElements() <= 256)
      return tensorConst(ty);
    return filledTensor(ty, like);
  }
  if (choice < 6) {
    // A static value cast to the dynamic type.
    Ty fixed = ty;
    for (int64_t &d : fixed.shape)
      if (d == kDynamic)
        d = randomDim();
    Val source = get(fixed);
    return define(ty, castText("tensor.cast", source, ty));
  }
  return filledTensor(ty, like);
}

Ty Generator::randomTensorType(unsigned minRank, unsigned maxRank,
                               bool allowDynamic, bool allowEmpty) {
  unsigned rank = rng.range(minRank, maxRank);
  SmallVector<int64_t, 4> shape;
  for (unsigned i = 0; i < rank; ++i)
    shape.push_back(allowDynamic && options.dynamicShapes &&
                            !options.executable && rng.chance(15)
                        ? kDynamic
                        : randomDim());
  // Now and then a tensor without elements.
  if (allowEmpty && rank > 0 && !options.executable && rng.chance(3))
    shape[rng.below(rank)] = 0;
  return Ty::tensor(shape);
}

std::optional<Val> Generator::pickFloatData(bool allowScalar,
                                            bool allowVector) {
  return pick([&](const Val &v) {
    if (!v.ty.isF32())
      return false;
    return v.ty.isTensor() || (allowScalar && v.ty.kind == Ty::Scalar) ||
           (allowVector && v.ty.kind == Ty::Vector);
  });
}

std::optional<Val>
Generator::pickTensor(const std::function<bool(const Ty &)> &pred,
                      bool allowEmpty) {
  return pick([&](const Val &v) {
    return v.ty.isTensor() && pred(v.ty) &&
           (allowEmpty || !llvm::is_contained(v.ty.shape, 0));
  });
}

std::optional<Val> Generator::pickF32Tensor(unsigned minRank, bool allowEmpty) {
  return pickTensor(
      [minRank](const Ty &t) { return t.isF32() && t.rank() >= minRank; },
      allowEmpty);
}

std::optional<Val> Generator::pickStaticF32Tensor(unsigned minRank,
                                                  unsigned maxRank) {
  return pickTensor([minRank, maxRank](const Ty &t) {
    return t.isF32() && t.isStatic() && t.rank() >= minRank &&
           t.rank() <= maxRank;
  });
}

Generator::ConvShape Generator::pickConvInput() {
  auto a = pickTensor([](const Ty &t) {
    return t.rank() == 4 && t.isF32() && t.isStatic() && t.shape[1] >= 3 &&
           t.shape[2] >= 3;
  });
  Ty inTy =
      a ? a->ty
        : Ty::tensor({1, rng.range(3, 8), rng.range(3, 8), rng.range(1, 4)});
  ConvShape conv;
  conv.input = a ? *a : get(inTy);
  conv.kh = rng.range(1, 3);
  conv.kw = rng.range(1, 3);
  conv.oh = inTy.shape[1] - conv.kh + 1;
  conv.ow = inTy.shape[2] - conv.kw + 1;
  conv.c = inTy.shape[3];
  return conv;
}

//===----------------------------------------------------------------------===//
// Payloads
//===----------------------------------------------------------------------===//

std::vector<std::string> Generator::capturedScalars() {
  std::vector<std::string> result;
  if (rng.chance(30))
    if (auto v = pick([](const Val &v) {
          return v.ty.kind == Ty::Scalar && v.ty.isF32();
        }))
      result.push_back(v->name);
  return result;
}

std::string Generator::scalarExpr(std::vector<std::string> pool, unsigned count,
                                  bool allowRed) {
  static const char *binary[] = {"arith.addf",     "arith.subf",
                                 "arith.mulf",     "arith.maximumf",
                                 "arith.minimumf", "arith.divf"};
  static const char *unaryGray[] = {"arith.negf", "math.tanh", "math.absf",
                                    "math.sqrt", "math.floor"};
  static const char *unaryRed[] = {"math.exp", "math.log", "math.rsqrt"};
  std::string last = pool.back();
  for (unsigned i = 0; i < count; ++i) {
    std::string name = fresh();
    unsigned kind = rng.below(10);
    std::string a = rng.pick(llvm::ArrayRef<std::string>(pool));
    if (kind < 5) {
      std::string b = rng.pick(llvm::ArrayRef<std::string>(pool));
      line(name + " = " + pickName(binary) + " " + a + ", " + b + " : f32");
    } else if (kind < 7) {
      line(name + " = " + pickName(unaryGray) + " " + a + " : f32");
    } else if (kind < 8 && allowRed) {
      line(name + " = " + pickName(unaryRed) + " " + a + " : f32");
    } else if (kind < 9) {
      if (rng.chance(70)) {
        line(name + " = arith.constant " + formatF32(randomValue()) + " : f32");
      } else {
        // A round trip through 16 bits that the user wrote in the payload.
        std::string low = rng.chance(50) ? "f16" : "bf16";
        std::string narrow = fresh();
        line(narrow + " = arith.truncf " + a + " : f32 to " + low);
        line(name + " = arith.extf " + narrow + " : " + low + " to f32");
      }
    } else {
      std::string b = rng.pick(llvm::ArrayRef<std::string>(pool));
      std::string cond = fresh();
      line(cond + " = arith.cmpf ogt, " + a + ", " + b + " : f32");
      line(name + " = arith.select " + cond + ", " + a + ", " + b + " : f32");
    }
    pool.push_back(name);
    last = name;
  }
  return last;
}

void Generator::beginBlock(llvm::ArrayRef<std::string> args) {
  line("^bb0(" + llvm::join(args, ", ") + "):");
  ++indent;
}

void Generator::endRegion(const std::string &closing) {
  --indent;
  line(closing);
}

NestedRegion::NestedRegion(Generator &gen, std::vector<Val> blockArgs,
                           bool scfRegion)
    : gen(gen), inner{gen.scope, std::move(blockArgs)}, outer(gen.scope),
      wasAtFunctionLevel(gen.atFunctionLevel), scfRegion(scfRegion) {
  gen.scope = &inner;
  ++gen.depth;
  if (scfRegion) {
    gen.atFunctionLevel = false;
    ++gen.indent;
  }
}

NestedRegion::~NestedRegion() {
  if (scfRegion)
    --gen.indent;
  --gen.depth;
  gen.scope = outer;
  gen.atFunctionLevel = wasAtFunctionLevel;
}

//===----------------------------------------------------------------------===//
// The emission loop
//===----------------------------------------------------------------------===//

void EmitterTable::add(llvm::ArrayRef<Emitter> family) {
  for (const Emitter &e : family) {
    emitters.push_back(e);
    totalWeight += e.weight;
  }
}

const Emitter &EmitterTable::pick(uint64_t r) const {
  for (const Emitter &e : emitters) {
    if (r < e.weight)
      return e;
    r -= e.weight;
  }
  return emitters.back();
}

/// The emitters of every family, in the order of GenFamilies.def.
static const EmitterTable &getEmitterTable() {
  static const EmitterTable table = [] {
    EmitterTable families;
#define AMP_GRAPHGEN_FAMILY(Name) register##Name##Emitters(families);
#include "GenFamilies.def"
    return families;
  }();
  return table;
}

void Generator::emitOne() {
  const EmitterTable &table = getEmitterTable();
  for (int attempt = 0; attempt < 8; ++attempt)
    if (table.pick(rng.below(table.getTotalWeight())).emit(*this))
      return;
  for (const Emitter &e : table.getEmitters())
    if (e.fallback && e.emit(*this))
      return;
}

void Generator::emitOps(unsigned count) {
  for (unsigned i = 0; i < count; ++i)
    emitOne();
}

//===----------------------------------------------------------------------===//
// Functions and the module
//===----------------------------------------------------------------------===//

void Generator::emitFunction(unsigned index, bool nested) {
  inNestedModule = nested;
  std::string text;
  body = &text;
  indent = 1;
  Scope root;
  scope = &root;
  args.clear();
  depth = 0;
  atFunctionLevel = true;

  // A few arguments to start from.
  unsigned numArgs = rng.range(1, 3);
  for (unsigned i = 0; i < numArgs; ++i) {
    if (rng.chance(20) && !options.executable)
      newArg(Ty::scalar());
    else
      newArg(randomTensorType(rng.chance(10) ? 0 : 1, 4, true, true));
  }
  emitOps(rng.range(1, options.maxOpsPerFunction));

  // Return 1-3 values of the current block's scope or the arguments.
  std::vector<Val> returned;
  unsigned numResults = rng.range(1, 3);
  for (unsigned i = 0; i < numResults; ++i) {
    auto v = pick([&](const Val &v) {
      if (options.executable) // What amp-run can compare: float tensors.
        return v.ty.isTensor() && v.ty.isFloat();
      return v.ty.kind != Ty::MemRef &&
             (v.ty.isFloat() || v.ty.elt == "i32" || v.ty.elt == "i1");
    });
    if (v)
      returned.push_back(*v);
  }
  FuncSig sig;
  sig.name = "f" + std::to_string(index);
  for (const Val &v : returned)
    sig.results.push_back(v.ty);
  if (returned.empty())
    line("return");
  else
    line("return " + operandList(returned));

  std::vector<std::string> argText;
  for (const Val &a : args) {
    argText.push_back(a.name + ": " + a.ty.str());
    sig.args.push_back(a.ty);
  }
  // An executable module has one public function, the last: amp-run's
  // entry.
  bool isPrivate = options.executable ? index + 1 < numFunctions
                                      : index > 0 && rng.chance(30);
  std::string header = "  func.func " +
                       std::string(isPrivate ? "private " : "") + "@" +
                       sig.name + "(" + llvm::join(argText, ", ") + ")";
  if (!sig.results.empty())
    header += " -> (" + typeList(sig.results) + ")";
  std::string function = header + " {\n" + text + "  }\n";
  if (nested) {
    // Nobody calls it: the last function, in a module of its own.
    functionText += "  module @nested {\n" + function + "  }\n";
    return;
  }
  functionText += function;
  functions.push_back(std::move(sig));
  body = nullptr;
}

GeneratedModule Generator::run() {
  numFunctions = rng.range(1, options.maxFunctions);
  bool nestLast = rng.chance(10);
  for (unsigned i = 0; i < numFunctions; ++i)
    emitFunction(i, nestLast && i + 1 == numFunctions);
  GeneratedModule result;
  result.text = "module {\n" + llvm::join(externals, "") + functionText + "}\n";
  if (!resources.empty()) {
    result.text += "\n{-#\n  dialect_resources: {\n    builtin: {\n";
    for (auto [i, r] : llvm::enumerate(resources))
      result.text += "      " + r.first + ": \"" + r.second + "\"" +
                     (i + 1 < resources.size() ? "," : "") + "\n";
    result.text += "    }\n  }\n#-}\n";
  }
  result.numOps = numOps;
  result.usesUnregistered = usesUnregistered;
  return result;
}

GeneratedModule
mlir::amp::fuzz::generateModule(Entropy &entropy,
                                const GeneratorOptions &options) {
  Generator generator(entropy, options);
  return generator.run();
}
