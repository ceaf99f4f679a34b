//===- GraphGenerator.cpp - Random valid FP32 graphs for amp --------------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The generator keeps, per function, a tree of scopes (function body, scf
// and cf regions) holding the SSA values defined so far with their types.
// Each step picks an op family, finds operands of the types it needs among
// the visible values (or makes them: a new function argument, a constant, a
// filled tensor.empty, a cast of a static value to a dynamic type) and
// writes the op. Payload regions (linalg.generic, tensor.pad/generate) are
// written from a small random scalar expression that may capture values
// from above.
//
//===----------------------------------------------------------------------===//

#include "GraphGenerator.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <optional>
#include <vector>

using namespace mlir::amp::fuzz;
using llvm::SmallVector;

namespace {

constexpr int64_t kDynamic = -1;

//===----------------------------------------------------------------------===//
// Types and values
//===----------------------------------------------------------------------===//

struct Ty {
  enum Kind { Scalar, Tensor, Vector, MemRef } kind = Scalar;
  SmallVector<int64_t, 4> shape;
  std::string elt = "f32";

  static Ty scalar(std::string elt = "f32") {
    Ty t;
    t.elt = std::move(elt);
    return t;
  }
  static Ty tensor(llvm::ArrayRef<int64_t> shape, std::string elt = "f32") {
    Ty t;
    t.kind = Tensor;
    t.shape.assign(shape.begin(), shape.end());
    t.elt = std::move(elt);
    return t;
  }

  std::string str() const {
    if (kind == Scalar)
      return elt;
    std::string s = kind == Tensor   ? "tensor<"
                    : kind == Vector ? "vector<"
                                     : "memref<";
    for (int64_t d : shape)
      s += (d == kDynamic ? std::string("?") : std::to_string(d)) + "x";
    return s + elt + ">";
  }
  bool isTensor() const { return kind == Tensor; }
  bool isF32() const { return elt == "f32"; }
  bool isFloat() const {
    return elt == "f32" || elt == "f16" || elt == "bf16" || elt == "f64";
  }
  bool isStatic() const { return !llvm::is_contained(shape, kDynamic); }
  unsigned rank() const { return shape.size(); }
  int64_t numElements() const {
    int64_t n = 1;
    for (int64_t d : shape)
      n *= d;
    return n;
  }
  Ty withElt(std::string e) const {
    Ty t = *this;
    t.elt = std::move(e);
    return t;
  }
  bool operator==(const Ty &o) const {
    return kind == o.kind && shape == o.shape && elt == o.elt;
  }
  bool operator!=(const Ty &o) const { return !(*this == o); }
};

struct Val {
  std::string name;
  Ty ty;
};

struct Scope {
  Scope *parent = nullptr;
  std::vector<Val> vals;
};

/// A generated function, as later functions see it.
struct FuncSig {
  std::string name;
  std::vector<Ty> args, results;
};

/// Interesting FP32 values: ordinary ones, and ones that do not fit f16 or
/// bf16 (overflow, flush to zero), the +-FLT_MAX sentinels, infinities, NaN.
const double kOrdinary[] = {0.0, 1.0, -1.0, 0.5, -2.5, 0.125, 3.0, 0.1, -0.75};
const double kSpecial[] = {65504.0,
                           65520.0,
                           1.0e5,
                           -7.0e4,
                           1.0e-8,
                           -3.0e-9,
                           1.0e-30,
                           1.0e38,
                           3.4028234663852886e38,
                           -3.4028234663852886e38,
                           std::numeric_limits<double>::infinity(),
                           -std::numeric_limits<double>::infinity(),
                           std::numeric_limits<double>::quiet_NaN(),
                           -0.0,
                           1.0e-40};

std::string formatF32(double value) {
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

//===----------------------------------------------------------------------===//
// The generator
//===----------------------------------------------------------------------===//

class Generator {
public:
  Generator(Entropy &rng, const GeneratorOptions &options)
      : rng(rng), options(options) {}

  GeneratedModule run();

private:
  // Emission.
  std::string fresh() { return "%v" + std::to_string(nextId++); }
  void line(const std::string &text) {
    body->append(2 * indent, ' ');
    body->append(text);
    body->push_back('\n');
    ++numOps;
  }
  void add(const Val &v) { scope->vals.push_back(v); }

  // Values.
  std::optional<Val> pick(const std::function<bool(const Val &)> &pred);
  Val newArg(const Ty &ty);
  std::string indexConst(int64_t value);
  Val scalarConst(std::optional<double> value = std::nullopt);
  Val tensorConst(const Ty &ty, bool tosaConst = false);
  Val emptyTensor(const Ty &ty, const Val *like = nullptr);
  Val filledTensor(const Ty &ty, const Val *like = nullptr,
                   std::optional<double> value = std::nullopt);
  Val getScalar();
  Val get(const Ty &ty, const Val *like = nullptr);
  Ty randomTensorType(unsigned minRank, unsigned maxRank, bool allowDynamic,
                      bool allowEmpty = false);
  int64_t randomDim() {
    static const int64_t dims[] = {1, 2, 3, 4, 4, 8, 5};
    return rng.pick(llvm::ArrayRef<int64_t>(dims));
  }
  std::optional<Val> pickFloatData(bool allowScalar, bool allowVector);
  std::optional<Val> pickTensor(const std::function<bool(const Ty &)> &pred,
                                bool allowEmpty = false);
  double randomValue() {
    if (rng.chance(15))
      return rng.pick(llvm::ArrayRef<double>(kSpecial));
    if (options.executable || rng.chance(50))
      return rng.pick(llvm::ArrayRef<double>(kOrdinary));
    return static_cast<double>(rng.range(-1000, 1000)) / 64.0;
  }

  // Payloads.
  std::string scalarExpr(std::vector<std::string> pool, unsigned numOps,
                         bool allowRed);
  std::vector<std::string> capturedScalars();

  // Op families.
  bool emitArithBinary();
  bool emitMathUnary();
  bool emitFma();
  bool emitCmpSelect();
  bool emitUserCasts();
  bool emitF64Detour();
  bool emitIntConversion();
  bool emitConstant();
  bool emitMatmul();
  bool emitBatchMatmul();
  bool emitMatvec();
  bool emitGenericContraction();
  bool emitConvolution();
  bool emitPooling();
  bool emitGenericElementwise();
  bool emitGenericReduction();
  bool emitNamedElementwise();
  bool emitTranspose();
  bool emitBroadcast();
  bool emitCopyOrFill();
  bool emitMapReduce();
  bool emitSoftmax();
  bool emitExtractSlice();
  bool emitInsertSlice();
  bool emitReshape();
  bool emitConcat();
  bool emitPad();
  bool emitExtractFromElements();
  bool emitSplatOrGenerate();
  bool emitTensorCast();
  bool emitBitcast();
  bool emitTosaElementwise();
  bool emitTosaMatmul();
  bool emitTosaConv();
  bool emitTosaReduce();
  bool emitTosaDataMovement();
  bool emitTosaPool();
  bool emitVector();
  bool emitMemRef();
  bool emitUnregistered();
  bool emitScfFor();
  bool emitScfIf();
  bool emitScfWhile();
  bool emitCall();
  bool emitDiamond();

  void emitOps(unsigned count);
  void emitOne();
  void emitFunction(unsigned index, bool nested);
  /// How many functions run() emits.
  unsigned numFunctions = 0;

  Entropy &rng;
  const GeneratorOptions &options;
  unsigned nextId = 0;
  unsigned numOps = 0;
  bool usesUnregistered = false;

  // The function being written.
  std::string *body = nullptr;
  unsigned indent = 0;
  Scope *scope = nullptr;
  Scope *funcScope = nullptr;
  std::vector<Val> args;
  unsigned depth = 0;
  /// False inside regions where cf branches cannot be written (scf bodies).
  bool atFunctionLevel = true;
  unsigned blockCounter = 0;

  std::vector<FuncSig> functions;
  bool inNestedModule = false;
  std::vector<std::string> externals;
  std::string functionText;
  std::vector<std::pair<std::string, std::string>> resources;
};

//===----------------------------------------------------------------------===//
// Values
//===----------------------------------------------------------------------===//

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
  Val v{fresh(), Ty::scalar()};
  line(v.name + " = arith.constant " + formatF32(value ? *value : randomValue()) +
       " : f32");
  add(v);
  return v;
}

Val Generator::tensorConst(const Ty &ty, bool tosaConst) {
  Val v{fresh(), ty};
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
    line(v.name + " = \"tosa.const\"() <{values = " + attr + "}> : () -> " +
         ty.str());
  else
    line(v.name + " = arith.constant " + attr);
  add(v);
  return v;
}

Val Generator::emptyTensor(const Ty &ty, const Val *like) {
  std::vector<std::string> sizes;
  for (unsigned i = 0; i < ty.rank(); ++i) {
    if (ty.shape[i] != kDynamic)
      continue;
    if (like && like->ty.isTensor() && like->ty.rank() == ty.rank() &&
        like->ty.shape[i] == kDynamic) {
      std::string dim = fresh();
      line(dim + " = tensor.dim " + like->name + ", " + indexConst(i) + " : " +
           like->ty.str());
      sizes.push_back(dim);
    } else {
      sizes.push_back(indexConst(randomDim()));
    }
  }
  Val v{fresh(), ty};
  line(v.name + " = tensor.empty(" + llvm::join(sizes, ", ") + ") : " +
       ty.str());
  return v;
}

Val Generator::filledTensor(const Ty &ty, const Val *like,
                            std::optional<double> value) {
  Val empty = emptyTensor(ty, like);
  Val scalar = value ? scalarConst(value) : getScalar();
  Val v{fresh(), ty};
  line(v.name + " = linalg.fill ins(" + scalar.name + " : f32) outs(" +
       empty.name + " : " + ty.str() + ") -> " + ty.str());
  add(v);
  return v;
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
      Val v{fresh(), Ty::scalar()};
      line(v.name + " = tensor.extract " + t->name + "[" +
           llvm::join(indices, ", ") + "] : " + t->ty.str());
      add(v);
      return v;
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
    Val v{fresh(), ty};
    line(v.name + " = tensor.cast " + source.name + " : " + fixed.str() +
         " to " + ty.str());
    add(v);
    return v;
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

std::string Generator::scalarExpr(std::vector<std::string> pool,
                                  unsigned count, bool allowRed) {
  static const char *binary[] = {"arith.addf", "arith.subf", "arith.mulf",
                                 "arith.maximumf", "arith.minimumf",
                                 "arith.divf"};
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
      line(name + " = " + rng.pick(llvm::ArrayRef<const char *>(binary)) +
           " " + a + ", " + b + " : f32");
    } else if (kind < 7) {
      line(name + " = " + rng.pick(llvm::ArrayRef<const char *>(unaryGray)) +
           " " + a + " : f32");
    } else if (kind < 8 && allowRed) {
      line(name + " = " + rng.pick(llvm::ArrayRef<const char *>(unaryRed)) +
           " " + a + " : f32");
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

/// Identity indexing map of rank `rank`, as text.
std::string identityMap(unsigned rank) {
  std::vector<std::string> dims;
  for (unsigned i = 0; i < rank; ++i)
    dims.push_back("d" + std::to_string(i));
  std::string d = llvm::join(dims, ", ");
  return "affine_map<(" + d + ") -> (" + d + ")>";
}

std::string iterators(unsigned parallel, unsigned reduction = 0) {
  std::vector<std::string> its(parallel, "\"parallel\"");
  its.insert(its.end(), reduction, "\"reduction\"");
  return "[" + llvm::join(its, ", ") + "]";
}

//===----------------------------------------------------------------------===//
// arith / math
//===----------------------------------------------------------------------===//

bool Generator::emitArithBinary() {
  auto a = pickFloatData(true, true);
  if (!a)
    return false;
  Val b = get(a->ty, &*a);
  static const char *ops[] = {"arith.addf",     "arith.subf",
                              "arith.mulf",     "arith.divf",
                              "arith.maximumf", "arith.minimumf",
                              "arith.maxnumf",  "arith.remf",
                              "math.powf",      "math.atan2",
                              "math.copysign"};
  Val r{fresh(), a->ty};
  line(r.name + " = " + rng.pick(llvm::ArrayRef<const char *>(ops)) + " " +
       a->name + ", " + (rng.chance(15) ? a->name : b.name) + " : " +
       a->ty.str());
  add(r);
  return true;
}

bool Generator::emitMathUnary() {
  auto a = pickFloatData(true, true);
  if (!a)
    return false;
  static const char *ops[] = {"math.exp",   "math.log",   "math.tanh",
                              "math.sqrt",  "math.rsqrt", "math.absf",
                              "math.sin",   "math.erf",   "math.floor",
                              "math.exp2",  "math.log1p", "math.atan",
                              "math.cbrt",  "arith.negf", "math.ceil",
                              "math.expm1", "math.cos",   "math.roundeven"};
  Val r{fresh(), a->ty};
  line(r.name + " = " + rng.pick(llvm::ArrayRef<const char *>(ops)) + " " +
       a->name + " : " + a->ty.str());
  add(r);
  return true;
}

bool Generator::emitFma() {
  auto a = pickFloatData(true, true);
  if (!a)
    return false;
  Val b = get(a->ty, &*a), c = get(a->ty, &*a);
  Val r{fresh(), a->ty};
  line(r.name + " = math.fma " + a->name + ", " + b.name + ", " + c.name +
       " : " + a->ty.str());
  add(r);
  return true;
}

bool Generator::emitCmpSelect() {
  auto a = pickFloatData(true, true);
  if (!a)
    return false;
  Val b = get(a->ty, &*a);
  static const char *preds[] = {"olt", "ogt", "oeq", "une", "oge", "ule"};
  Ty condTy = a->ty.withElt("i1");
  Val cond{fresh(), condTy};
  line(cond.name + " = arith.cmpf " +
       rng.pick(llvm::ArrayRef<const char *>(preds)) + ", " + a->name + ", " +
       b.name + " : " + a->ty.str());
  Val r{fresh(), a->ty};
  std::string types = a->ty.kind == Ty::Scalar
                          ? a->ty.str()
                          : condTy.str() + ", " + a->ty.str();
  line(r.name + " = arith.select " + cond.name + ", " + a->name + ", " +
       b.name + " : " + types);
  add(r);
  return true;
}

bool Generator::emitUserCasts() {
  auto a = pickFloatData(true, true);
  if (!a)
    return false;
  std::string low = rng.chance(50) ? "f16" : "bf16";
  Ty lowTy = a->ty.withElt(low);
  Val narrow{fresh(), lowTy};
  bool tosa = options.tosa && a->ty.isTensor() && a->ty.isStatic() &&
              a->ty.numElements() > 0 && rng.chance(40);
  if (tosa)
    line(narrow.name + " = tosa.cast " + a->name + " : (" + a->ty.str() +
         ") -> " + lowTy.str());
  else
    line(narrow.name + " = arith.truncf " + a->name + " : " + a->ty.str() +
         " to " + lowTy.str());
  add(narrow);
  if (rng.chance(70)) {
    Val wide{fresh(), a->ty};
    if (tosa)
      line(wide.name + " = tosa.cast " + narrow.name + " : (" + lowTy.str() +
           ") -> " + a->ty.str());
    else
      line(wide.name + " = arith.extf " + narrow.name + " : " + lowTy.str() +
           " to " + a->ty.str());
    add(wide);
  }
  return true;
}

bool Generator::emitF64Detour() {
  auto a = pickFloatData(true, false);
  if (!a)
    return false;
  Ty wideTy = a->ty.withElt("f64");
  Val wide{fresh(), wideTy}, sum{fresh(), wideTy}, back{fresh(), a->ty};
  line(wide.name + " = arith.extf " + a->name + " : " + a->ty.str() + " to " +
       wideTy.str());
  line(sum.name + " = arith.addf " + wide.name + ", " + wide.name + " : " +
       wideTy.str());
  line(back.name + " = arith.truncf " + sum.name + " : " + wideTy.str() +
       " to " + a->ty.str());
  add(wide);
  add(back);
  return true;
}

bool Generator::emitIntConversion() {
  auto a = pickFloatData(true, false);
  if (!a || options.executable)
    return false;
  Ty intTy = a->ty.withElt("i32");
  Val i{fresh(), intTy}, f{fresh(), a->ty};
  line(i.name + " = arith.fptosi " + a->name + " : " + a->ty.str() + " to " +
       intTy.str());
  line(f.name + " = arith.sitofp " + i.name + " : " + intTy.str() + " to " +
       a->ty.str());
  add(i);
  add(f);
  return true;
}

bool Generator::emitConstant() {
  if (rng.chance(40)) {
    scalarConst();
    return true;
  }
  Ty ty = randomTensorType(0, 3, false);
  tensorConst(ty, options.tosa && ty.rank() > 0 && rng.chance(30));
  return true;
}

//===----------------------------------------------------------------------===//
// linalg: contractions, convolutions, pooling
//===----------------------------------------------------------------------===//

bool Generator::emitMatmul() {
  auto a = pickTensor([](const Ty &t) { return t.rank() == 2 && t.isF32(); });
  Val lhs = a ? *a : get(randomTensorType(2, 2, true));
  int64_t m = lhs.ty.shape[0], k = lhs.ty.shape[1];
  int64_t n = randomDim();
  bool transposeB = rng.chance(20);
  Ty bTy = Ty::tensor(transposeB ? SmallVector<int64_t>{n, k}
                                 : SmallVector<int64_t>{k, n});
  Val rhs = get(bTy);
  Ty cTy = Ty::tensor({m, n});
  Val init = rng.chance(30) ? get(cTy, &lhs) : filledTensor(cTy, &lhs, 0.0);
  Val r{fresh(), cTy};
  std::string maps =
      transposeB ? " indexing_maps = [affine_map<(m, n, k) -> (m, k)>, "
                   "affine_map<(m, n, k) -> (n, k)>, "
                   "affine_map<(m, n, k) -> (m, n)>]"
                 : "";
  line(r.name + " = linalg.matmul" + maps + " ins(" + lhs.name + ", " +
       rhs.name + " : " + lhs.ty.str() + ", " + bTy.str() + ") outs(" +
       init.name + " : " + cTy.str() + ") -> " + cTy.str());
  add(r);
  return true;
}

bool Generator::emitBatchMatmul() {
  auto a = pickTensor([](const Ty &t) { return t.rank() == 3 && t.isF32(); });
  Val lhs = a ? *a : get(randomTensorType(3, 3, true));
  int64_t b = lhs.ty.shape[0], m = lhs.ty.shape[1], k = lhs.ty.shape[2];
  int64_t n = randomDim();
  Ty bTy = Ty::tensor({b, k, n}), cTy = Ty::tensor({b, m, n});
  Val rhs = get(bTy);
  Val init = filledTensor(cTy, &lhs, 0.0);
  Val r{fresh(), cTy};
  line(r.name + " = linalg.batch_matmul ins(" + lhs.name + ", " + rhs.name +
       " : " + lhs.ty.str() + ", " + bTy.str() + ") outs(" + init.name + " : " +
       cTy.str() + ") -> " + cTy.str());
  add(r);
  return true;
}

bool Generator::emitMatvec() {
  auto a = pickTensor([](const Ty &t) { return t.rank() == 2 && t.isF32(); });
  Val mat = a ? *a : get(randomTensorType(2, 2, true));
  Ty xTy = Ty::tensor({mat.ty.shape[1]}), yTy = Ty::tensor({mat.ty.shape[0]});
  Val x = get(xTy);
  Val init;
  if (yTy.shape[0] != kDynamic) {
    init = filledTensor(yTy, nullptr, 0.0);
  } else {
    // The init's size must be the matrix's: take it from the matrix.
    std::string dim = fresh();
    line(dim + " = tensor.dim " + mat.name + ", " + indexConst(0) + " : " +
         mat.ty.str());
    Val empty{fresh(), yTy};
    line(empty.name + " = tensor.empty(" + dim + ") : " + yTy.str());
    Val zero = scalarConst(0.0);
    init = Val{fresh(), yTy};
    line(init.name + " = linalg.fill ins(" + zero.name + " : f32) outs(" +
         empty.name + " : " + yTy.str() + ") -> " + yTy.str());
  }
  Val r{fresh(), yTy};
  line(r.name + " = linalg.matvec ins(" + mat.name + ", " + x.name + " : " +
       mat.ty.str() + ", " + xTy.str() + ") outs(" + init.name + " : " +
       yTy.str() + ") -> " + yTy.str());
  add(r);
  return true;
}

bool Generator::emitGenericContraction() {
  auto a = pickTensor([](const Ty &t) { return t.rank() == 2 && t.isF32(); });
  Val lhs = a ? *a : get(randomTensorType(2, 2, true));
  int64_t m = lhs.ty.shape[0], k = lhs.ty.shape[1], n = randomDim();
  Ty bTy = Ty::tensor({k, n}), cTy = Ty::tensor({m, n});
  Val rhs = get(bTy);
  Val init = filledTensor(cTy, &lhs, 0.0);
  Val r{fresh(), cTy};
  line(r.name +
       " = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, "
       "d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) "
       "-> (d0, d1)>], iterator_types = [\"parallel\", \"parallel\", "
       "\"reduction\"]} ins(" +
       lhs.name + ", " + rhs.name + " : " + lhs.ty.str() + ", " + bTy.str() +
       ") outs(" + init.name + " : " + cTy.str() + ") {");
  std::string x = fresh(), y = fresh(), acc = fresh();
  line("^bb0(" + x + ": f32, " + y + ": f32, " + acc + ": f32):");
  ++indent;
  std::string mul = fresh(), sum = fresh();
  line(mul + " = arith.mulf " + x + ", " + y + " : f32");
  line(sum + " = arith.addf " + acc + ", " + mul + " : f32");
  line("linalg.yield " + sum + " : f32");
  --indent;
  line("} -> " + cTy.str());
  add(r);
  return true;
}

bool Generator::emitConvolution() {
  auto a = pickTensor([](const Ty &t) {
    return t.rank() == 4 && t.isF32() && t.isStatic() && t.shape[1] >= 3 &&
           t.shape[2] >= 3;
  });
  Ty inTy = a ? a->ty
              : Ty::tensor({1, rng.range(3, 8), rng.range(3, 8),
                            rng.range(1, 4)});
  Val in = a ? *a : get(inTy);
  int64_t kh = rng.range(1, 3), kw = rng.range(1, 3);
  int64_t oh = inTy.shape[1] - kh + 1, ow = inTy.shape[2] - kw + 1;
  int64_t c = inTy.shape[3];
  std::string attrs = " {dilations = dense<1> : tensor<2xi64>, strides = "
                      "dense<1> : tensor<2xi64>}";
  if (rng.chance(70)) {
    int64_t f = rng.range(1, 4);
    Ty wTy = Ty::tensor({kh, kw, c, f}), oTy = Ty::tensor({inTy.shape[0], oh,
                                                           ow, f});
    Val w = get(wTy);
    Val init = filledTensor(oTy, nullptr, 0.0);
    Val r{fresh(), oTy};
    line(r.name + " = linalg.conv_2d_nhwc_hwcf" + attrs + " ins(" + in.name +
         ", " + w.name + " : " + inTy.str() + ", " + wTy.str() + ") outs(" +
         init.name + " : " + oTy.str() + ") -> " + oTy.str());
    add(r);
  } else {
    Ty wTy = Ty::tensor({kh, kw, c}),
       oTy = Ty::tensor({inTy.shape[0], oh, ow, c});
    Val w = get(wTy);
    Val init = filledTensor(oTy, nullptr, 0.0);
    Val r{fresh(), oTy};
    line(r.name + " = linalg.depthwise_conv_2d_nhwc_hwc" + attrs + " ins(" +
         in.name + ", " + w.name + " : " + inTy.str() + ", " + wTy.str() +
         ") outs(" + init.name + " : " + oTy.str() + ") -> " + oTy.str());
    add(r);
  }
  return true;
}

bool Generator::emitPooling() {
  auto a = pickTensor([](const Ty &t) {
    return t.rank() == 4 && t.isF32() && t.isStatic() && t.shape[1] >= 2 &&
           t.shape[2] >= 2;
  });
  if (!a)
    return false;
  int64_t k = 2;
  Ty oTy = Ty::tensor(
      {a->ty.shape[0], a->ty.shape[1] - k + 1, a->ty.shape[2] - k + 1,
       a->ty.shape[3]});
  bool isMax = rng.chance(60);
  Val init = filledTensor(
      oTy, nullptr,
      isMax ? (rng.chance(50) ? -3.4028234663852886e38
                              : -std::numeric_limits<double>::infinity())
            : 0.0);
  Val window{fresh(), Ty::tensor({k, k})};
  line(window.name + " = tensor.empty() : " + window.ty.str());
  Val r{fresh(), oTy};
  line(r.name + " = linalg.pooling_nhwc_" + (isMax ? "max" : "sum") +
       " {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : "
       "tensor<2xi64>} ins(" +
       a->name + ", " + window.name + " : " + a->ty.str() + ", " +
       window.ty.str() + ") outs(" + init.name + " : " + oTy.str() + ") -> " +
       oTy.str());
  add(r);
  return true;
}

//===----------------------------------------------------------------------===//
// linalg: elementwise, reductions, data movement
//===----------------------------------------------------------------------===//

bool Generator::emitGenericElementwise() {
  auto a = pickTensor([](const Ty &t) { return t.isF32(); }, /*allowEmpty=*/true);
  Val first = a ? *a : get(randomTensorType(0, 3, true, true));
  Ty ty = first.ty;
  unsigned rank = ty.rank();
  std::vector<Val> inputs{first};
  std::vector<std::string> maps{identityMap(rank)};
  unsigned extra = rng.below(3);
  for (unsigned i = 0; i < extra; ++i) {
    if (rank > 0 && rng.chance(25)) {
      // A broadcast input along the last dimension (a bias).
      Ty biasTy = Ty::tensor({ty.shape[rank - 1]});
      inputs.push_back(get(biasTy));
      std::vector<std::string> dims;
      for (unsigned d = 0; d < rank; ++d)
        dims.push_back("d" + std::to_string(d));
      maps.push_back("affine_map<(" + llvm::join(dims, ", ") + ") -> (d" +
                     std::to_string(rank - 1) + ")>");
      continue;
    }
    if (rng.chance(15)) {
      // An input already in 16 bits, widened in the payload.
      if (auto low = pick([&](const Val &v) {
            return v.ty.isTensor() && v.ty.shape == ty.shape &&
                   (v.ty.elt == "f16" || v.ty.elt == "bf16");
          })) {
        inputs.push_back(*low);
        maps.push_back(identityMap(rank));
        continue;
      }
    }
    inputs.push_back(get(ty, &first));
    maps.push_back(identityMap(rank));
  }
  bool readsInit = rng.chance(20);
  Val init = readsInit ? get(ty, &first) : emptyTensor(ty, &first);
  maps.push_back(identityMap(rank));
  // Sometimes a second result (a generic with two outputs).
  bool twoResults = rng.chance(15);
  Val init2;
  if (twoResults) {
    init2 = emptyTensor(ty, &first);
    maps.push_back(identityMap(rank));
  }

  std::vector<std::string> inNames, inTypes;
  for (const Val &v : inputs) {
    inNames.push_back(v.name);
    inTypes.push_back(v.ty.str());
  }
  std::string res = fresh();
  std::string outs = twoResults ? init.name + ", " + init2.name + " : " +
                                      ty.str() + ", " + ty.str()
                                : init.name + " : " + ty.str();
  line(res + (twoResults ? ":2" : "") + " = linalg.generic {indexing_maps = [" +
       llvm::join(maps, ", ") + "], iterator_types = " + iterators(rank) +
       "} ins(" + llvm::join(inNames, ", ") + " : " + llvm::join(inTypes, ", ") +
       ") outs(" + outs + ") {");
  std::vector<std::string> blockArgs, pool;
  std::vector<std::pair<std::string, std::string>> widen;
  for (const Val &v : inputs) {
    std::string arg = fresh();
    blockArgs.push_back(arg + ": " + v.ty.elt);
    if (v.ty.elt == "f32")
      pool.push_back(arg);
    else
      widen.push_back({arg, v.ty.elt});
  }
  std::string out = fresh();
  blockArgs.push_back(out + ": f32");
  if (readsInit)
    pool.push_back(out);
  if (twoResults)
    blockArgs.push_back(fresh() + ": f32");
  line("^bb0(" + llvm::join(blockArgs, ", ") + "):");
  ++indent;
  for (auto &[arg, elt] : widen) {
    std::string w = fresh();
    line(w + " = arith.extf " + arg + " : " + elt + " to f32");
    pool.push_back(w);
  }
  for (const std::string &c : capturedScalars())
    pool.push_back(c);
  std::string result = scalarExpr(pool, rng.range(1, 4), true);
  if (twoResults) {
    std::string second = scalarExpr(pool, rng.range(0, 2), true);
    line("linalg.yield " + result + ", " + second + " : f32, f32");
    --indent;
    line("} -> (" + ty.str() + ", " + ty.str() + ")");
    add(Val{res + "#0", ty});
    add(Val{res + "#1", ty});
    return true;
  }
  line("linalg.yield " + result + " : f32");
  --indent;
  line("} -> " + ty.str());
  add(Val{res, ty});
  return true;
}

bool Generator::emitGenericReduction() {
  auto a = pickTensor(
      [](const Ty &t) { return t.isF32() && t.rank() >= 1 && t.rank() <= 3; });
  Val in = a ? *a : get(randomTensorType(1, 3, true));
  unsigned rank = in.ty.rank();
  unsigned dim = rng.below(rank);
  SmallVector<int64_t> outShape;
  std::vector<std::string> inDims, outDims;
  // Loops: the parallel dims first, then the reduced one.
  std::vector<unsigned> loopOf(rank);
  unsigned next = 0;
  for (unsigned d = 0; d < rank; ++d)
    if (d != dim) {
      loopOf[d] = next++;
      outShape.push_back(in.ty.shape[d]);
    }
  loopOf[dim] = next;
  std::vector<std::string> loops;
  for (unsigned l = 0; l < rank; ++l)
    loops.push_back("d" + std::to_string(l));
  for (unsigned d = 0; d < rank; ++d) {
    inDims.push_back("d" + std::to_string(loopOf[d]));
    if (d != dim)
      outDims.push_back("d" + std::to_string(loopOf[d]));
  }
  Ty outTy = Ty::tensor(outShape);
  static const char *combiners[] = {"arith.addf", "arith.maximumf",
                                    "arith.minimumf", "arith.mulf"};
  std::string combiner = rng.pick(llvm::ArrayRef<const char *>(combiners));
  double neutral = combiner == "arith.addf"       ? 0.0
                   : combiner == "arith.mulf"     ? 1.0
                   : combiner == "arith.maximumf" ? -3.4028234663852886e38
                                                  : 3.4028234663852886e38;
  Val init;
  if (outTy.isStatic()) {
    init = filledTensor(outTy, nullptr, neutral);
  } else {
    std::vector<std::string> sizes;
    for (unsigned d = 0; d < rank; ++d)
      if (d != dim && in.ty.shape[d] == kDynamic) {
        std::string s = fresh();
        line(s + " = tensor.dim " + in.name + ", " + indexConst(d) + " : " +
             in.ty.str());
        sizes.push_back(s);
      }
    Val empty{fresh(), outTy};
    line(empty.name + " = tensor.empty(" + llvm::join(sizes, ", ") + ") : " +
         outTy.str());
    Val c = scalarConst(neutral);
    init = Val{fresh(), outTy};
    line(init.name + " = linalg.fill ins(" + c.name + " : f32) outs(" +
         empty.name + " : " + outTy.str() + ") -> " + outTy.str());
  }
  std::string l = llvm::join(loops, ", ");
  Val r{fresh(), outTy};
  line(r.name + " = linalg.generic {indexing_maps = [affine_map<(" + l +
       ") -> (" + llvm::join(inDims, ", ") + ")>, affine_map<(" + l + ") -> (" +
       llvm::join(outDims, ", ") + ")>], iterator_types = " +
       iterators(rank - 1, 1) + "} ins(" + in.name + " : " + in.ty.str() +
       ") outs(" + init.name + " : " + outTy.str() + ") {");
  std::string x = fresh(), acc = fresh();
  line("^bb0(" + x + ": f32, " + acc + ": f32):");
  ++indent;
  std::string value = x;
  if (rng.chance(40))
    value = scalarExpr({x}, 1, true);
  std::string combined = fresh();
  line(combined + " = " + combiner + " " + acc + ", " + value + " : f32");
  line("linalg.yield " + combined + " : f32");
  --indent;
  line("} -> " + outTy.str());
  add(r);
  return true;
}

bool Generator::emitNamedElementwise() {
  auto a = pickTensor([](const Ty &t) { return t.isF32() && t.rank() >= 1; }, /*allowEmpty=*/true);
  Val x = a ? *a : get(randomTensorType(1, 3, true));
  static const char *unary[] = {"exp",   "log",  "abs",        "negf",
                                "floor", "sqrt", "rsqrt",      "tanh",
                                "erf",   "ceil", "reciprocal", "square"};
  static const char *binary[] = {"add", "sub", "mul", "div", "max", "min",
                                 "powf"};
  Val init = emptyTensor(x.ty, &x);
  Val r{fresh(), x.ty};
  if (rng.chance(50)) {
    line(r.name + " = linalg." + rng.pick(llvm::ArrayRef<const char *>(unary)) +
         " ins(" + x.name + " : " + x.ty.str() + ") outs(" + init.name + " : " +
         x.ty.str() + ") -> " + x.ty.str());
  } else {
    Val y = get(x.ty, &x);
    line(r.name + " = linalg." +
         rng.pick(llvm::ArrayRef<const char *>(binary)) + " ins(" + x.name +
         ", " + y.name + " : " + x.ty.str() + ", " + x.ty.str() + ") outs(" +
         init.name + " : " + x.ty.str() + ") -> " + x.ty.str());
  }
  add(r);
  return true;
}

bool Generator::emitTranspose() {
  auto a = pickTensor([](const Ty &t) { return t.isF32() && t.rank() >= 2; }, /*allowEmpty=*/true);
  if (!a)
    return false;
  unsigned rank = a->ty.rank();
  std::vector<unsigned> perm(rank);
  for (unsigned i = 0; i < rank; ++i)
    perm[i] = i;
  for (unsigned i = rank - 1; i > 0; --i)
    std::swap(perm[i], perm[rng.below(i + 1)]);
  SmallVector<int64_t> shape;
  std::vector<std::string> permText;
  for (unsigned p : perm) {
    shape.push_back(a->ty.shape[p]);
    permText.push_back(std::to_string(p));
  }
  Ty outTy = Ty::tensor(shape);
  std::vector<std::string> sizes;
  for (unsigned p : perm)
    if (a->ty.shape[p] == kDynamic) {
      std::string s = fresh();
      line(s + " = tensor.dim " + a->name + ", " + indexConst(p) + " : " +
           a->ty.str());
      sizes.push_back(s);
    }
  Val empty{fresh(), outTy};
  line(empty.name + " = tensor.empty(" + llvm::join(sizes, ", ") + ") : " +
       outTy.str());
  Val r{fresh(), outTy};
  line(r.name + " = linalg.transpose ins(" + a->name + " : " + a->ty.str() +
       ") outs(" + empty.name + " : " + outTy.str() + ") permutation = [" +
       llvm::join(permText, ", ") + "]");
  add(r);
  return true;
}

bool Generator::emitBroadcast() {
  auto a = pickTensor([](const Ty &t) {
    return t.isF32() && t.rank() >= 1 && t.rank() <= 2 && t.isStatic();
  });
  if (!a)
    return false;
  SmallVector<int64_t> shape(a->ty.shape.begin(), a->ty.shape.end());
  shape.push_back(randomDim());
  Ty outTy = Ty::tensor(shape);
  Val empty = emptyTensor(outTy);
  Val r{fresh(), outTy};
  line(r.name + " = linalg.broadcast ins(" + a->name + " : " + a->ty.str() +
       ") outs(" + empty.name + " : " + outTy.str() + ") dimensions = [" +
       std::to_string(a->ty.rank()) + "]");
  add(r);
  return true;
}

bool Generator::emitCopyOrFill() {
  auto a = pickTensor([](const Ty &t) { return t.isF32(); }, /*allowEmpty=*/true);
  if (!a)
    return false;
  if (rng.chance(50)) {
    Val init = emptyTensor(a->ty, &*a);
    Val r{fresh(), a->ty};
    line(r.name + " = linalg.copy ins(" + a->name + " : " + a->ty.str() +
         ") outs(" + init.name + " : " + a->ty.str() + ") -> " + a->ty.str());
    add(r);
  } else {
    // Fill an existing value (it only gives the shape).
    Val s = getScalar();
    Val r{fresh(), a->ty};
    line(r.name + " = linalg.fill ins(" + s.name + " : f32) outs(" + a->name +
         " : " + a->ty.str() + ") -> " + a->ty.str());
    add(r);
  }
  return true;
}

bool Generator::emitMapReduce() {
  auto a = pickTensor([](const Ty &t) { return t.isF32() && t.rank() >= 1; });
  if (!a)
    return false;
  if (rng.chance(50)) {
    static const char *unary[] = {"math.exp", "math.tanh", "math.absf",
                                  "arith.negf"};
    static const char *binary[] = {"arith.addf", "arith.mulf",
                                   "arith.maximumf"};
    Val init = emptyTensor(a->ty, &*a);
    Val r{fresh(), a->ty};
    if (rng.chance(50)) {
      line(r.name + " = linalg.map { " +
           rng.pick(llvm::ArrayRef<const char *>(unary)) + " } ins(" + a->name +
           " : " + a->ty.str() + ") outs(" + init.name + " : " + a->ty.str() +
           ")");
    } else {
      Val b = get(a->ty, &*a);
      line(r.name + " = linalg.map { " +
           rng.pick(llvm::ArrayRef<const char *>(binary)) + " } ins(" +
           a->name + ", " + b.name + " : " + a->ty.str() + ", " + a->ty.str() +
           ") outs(" + init.name + " : " + a->ty.str() + ")");
    }
    add(r);
    return true;
  }
  unsigned dim = rng.below(a->ty.rank());
  SmallVector<int64_t> shape;
  for (unsigned d = 0; d < a->ty.rank(); ++d)
    if (d != dim)
      shape.push_back(a->ty.shape[d]);
  Ty outTy = Ty::tensor(shape);
  if (!outTy.isStatic())
    return false;
  bool isMax = rng.chance(50);
  Val init = filledTensor(outTy, nullptr, isMax ? -3.4028234663852886e38 : 0.0);
  Val r{fresh(), outTy};
  line(r.name + " = linalg.reduce { " +
       std::string(isMax ? "arith.maximumf" : "arith.addf") + " } ins(" +
       a->name + " : " + a->ty.str() + ") outs(" + init.name + " : " +
       outTy.str() + ") dimensions = [" + std::to_string(dim) + "]");
  add(r);
  return true;
}

bool Generator::emitSoftmax() {
  auto a = pickTensor([](const Ty &t) { return t.isF32() && t.rank() >= 1; }, /*allowEmpty=*/true);
  if (!a)
    return false;
  Val init = emptyTensor(a->ty, &*a);
  Val r{fresh(), a->ty};
  line(r.name + " = linalg.softmax dimension(" +
       std::to_string(rng.below(a->ty.rank())) + ") ins(" + a->name + " : " +
       a->ty.str() + ") outs(" + init.name + " : " + a->ty.str() + ") -> " +
       a->ty.str());
  add(r);
  return true;
}

//===----------------------------------------------------------------------===//
// tensor
//===----------------------------------------------------------------------===//

bool Generator::emitExtractSlice() {
  auto a = pickTensor([](const Ty &t) {
    return t.isF32() && t.rank() >= 1 && t.isStatic();
  });
  if (!a)
    return false;
  std::vector<std::string> offsets, sizes, strides;
  SmallVector<int64_t> shape;
  for (int64_t d : a->ty.shape) {
    int64_t size = rng.range(1, d);
    int64_t offset = rng.range(0, d - size);
    offsets.push_back(std::to_string(offset));
    sizes.push_back(std::to_string(size));
    strides.push_back("1");
    shape.push_back(size);
  }
  Ty outTy = Ty::tensor(shape);
  Val r{fresh(), outTy};
  line(r.name + " = tensor.extract_slice " + a->name + "[" +
       llvm::join(offsets, ", ") + "] [" + llvm::join(sizes, ", ") + "] [" +
       llvm::join(strides, ", ") + "] : " + a->ty.str() + " to " + outTy.str());
  add(r);
  return true;
}

bool Generator::emitInsertSlice() {
  auto dest = pickTensor([](const Ty &t) {
    return t.isF32() && t.rank() >= 1 && t.isStatic();
  });
  if (!dest)
    return false;
  std::vector<std::string> offsets, sizes, strides;
  SmallVector<int64_t> shape;
  for (int64_t d : dest->ty.shape) {
    int64_t size = rng.range(1, d);
    offsets.push_back(std::to_string(rng.range(0, d - size)));
    sizes.push_back(std::to_string(size));
    strides.push_back("1");
    shape.push_back(size);
  }
  Ty srcTy = Ty::tensor(shape);
  Val src = get(srcTy);
  Val r{fresh(), dest->ty};
  line(r.name + " = tensor.insert_slice " + src.name + " into " + dest->name +
       "[" + llvm::join(offsets, ", ") + "] [" + llvm::join(sizes, ", ") +
       "] [" + llvm::join(strides, ", ") + "] : " + srcTy.str() + " into " +
       dest->ty.str());
  add(r);
  return true;
}

bool Generator::emitReshape() {
  auto a = pickTensor([](const Ty &t) {
    return t.isF32() && t.rank() >= 1 && t.rank() <= 3 && t.isStatic();
  });
  if (!a)
    return false;
  unsigned rank = a->ty.rank();
  if (rank >= 2 && rng.chance(50)) {
    // Collapse the first two dimensions.
    SmallVector<int64_t> shape{a->ty.shape[0] * a->ty.shape[1]};
    std::vector<std::string> groups{"[0, 1]"};
    for (unsigned d = 2; d < rank; ++d) {
      shape.push_back(a->ty.shape[d]);
      groups.push_back("[" + std::to_string(d) + "]");
    }
    Ty outTy = Ty::tensor(shape);
    Val r{fresh(), outTy};
    line(r.name + " = tensor.collapse_shape " + a->name + " [" +
         llvm::join(groups, ", ") + "] : " + a->ty.str() + " into " +
         outTy.str());
    add(r);
    return true;
  }
  // Expand the first dimension into (1, d0).
  SmallVector<int64_t> shape{1};
  std::vector<std::string> groups{"[0, 1]"};
  for (unsigned d = 0; d < rank; ++d) {
    shape.push_back(a->ty.shape[d]);
    if (d > 0)
      groups.push_back("[" + std::to_string(d + 1) + "]");
  }
  std::vector<std::string> out;
  for (int64_t d : shape)
    out.push_back(std::to_string(d));
  Ty outTy = Ty::tensor(shape);
  Val r{fresh(), outTy};
  line(r.name + " = tensor.expand_shape " + a->name + " [" +
       llvm::join(groups, ", ") + "] output_shape [" + llvm::join(out, ", ") +
       "] : " + a->ty.str() + " into " + outTy.str());
  add(r);
  return true;
}

bool Generator::emitConcat() {
  auto a = pickTensor([](const Ty &t) {
    return t.isF32() && t.rank() >= 1 && t.isStatic();
  });
  if (!a)
    return false;
  Val b = get(a->ty);
  SmallVector<int64_t> shape(a->ty.shape.begin(), a->ty.shape.end());
  shape[0] *= 2;
  Ty outTy = Ty::tensor(shape);
  Val r{fresh(), outTy};
  line(r.name + " = tensor.concat dim(0) " + a->name + ", " + b.name + " : (" +
       a->ty.str() + ", " + a->ty.str() + ") -> " + outTy.str());
  add(r);
  return true;
}

bool Generator::emitPad() {
  auto a = pickTensor([](const Ty &t) {
    return t.isF32() && t.rank() >= 1 && t.isStatic();
  });
  if (!a)
    return false;
  std::vector<std::string> low, high, blockArgs;
  SmallVector<int64_t> shape;
  for (int64_t d : a->ty.shape) {
    int64_t l = rng.range(0, 2), h = rng.range(0, 2);
    low.push_back(std::to_string(l));
    high.push_back(std::to_string(h));
    shape.push_back(d + l + h);
    blockArgs.push_back(fresh() + ": index");
  }
  Ty outTy = Ty::tensor(shape);
  // The padding value: captured from above, or a constant in the region.
  bool captured = rng.chance(50);
  Val pad = captured ? getScalar() : Val{};
  Val r{fresh(), outTy};
  line(r.name + " = tensor.pad " + a->name + " low[" + llvm::join(low, ", ") +
       "] high[" + llvm::join(high, ", ") + "] {");
  line("^bb0(" + llvm::join(blockArgs, ", ") + "):");
  ++indent;
  std::string value = pad.name;
  if (!captured) {
    value = fresh();
    line(value + " = arith.constant " + formatF32(randomValue()) + " : f32");
  }
  line("tensor.yield " + value + " : f32");
  --indent;
  line("} : " + a->ty.str() + " to " + outTy.str());
  add(r);
  return true;
}

bool Generator::emitExtractFromElements() {
  Val x = getScalar();
  if (rng.chance(50)) {
    Val y = getScalar();
    Val r{fresh(), Ty::tensor({2})};
    line(r.name + " = tensor.from_elements " + x.name + ", " + y.name + " : " +
         r.ty.str());
    add(r);
    return true;
  }
  Val r{fresh(), Ty::tensor({})};
  line(r.name + " = tensor.from_elements " + x.name + " : " + r.ty.str());
  add(r);
  return true;
}

bool Generator::emitSplatOrGenerate() {
  Ty ty = randomTensorType(1, 3, true);
  Val x = getScalar();
  std::vector<std::string> sizes;
  for (int64_t d : ty.shape)
    if (d == kDynamic)
      sizes.push_back(indexConst(randomDim()));
  Val r{fresh(), ty};
  if (rng.chance(50)) {
    line(r.name + " = tensor.splat " + x.name +
         (sizes.empty() ? "" : "[" + llvm::join(sizes, ", ") + "]") + " : " +
         ty.str());
  } else {
    std::vector<std::string> blockArgs;
    for (unsigned i = 0; i < ty.rank(); ++i)
      blockArgs.push_back(fresh() + ": index");
    line(r.name + " = tensor.generate " + llvm::join(sizes, ", ") + " {");
    line("^bb0(" + llvm::join(blockArgs, ", ") + "):");
    ++indent;
    std::string value = scalarExpr({x.name}, rng.below(3), true);
    line("tensor.yield " + value + " : f32");
    --indent;
    line("} : " + ty.str());
  }
  add(r);
  return true;
}

bool Generator::emitTensorCast() {
  auto a = pickTensor([](const Ty &t) { return t.isF32() && t.rank() >= 1; });
  if (!a || options.executable)
    return false;
  Ty outTy = a->ty;
  unsigned d = rng.below(outTy.rank());
  if (outTy.shape[d] == kDynamic)
    return false; // Casting to a static size could be wrong at run time.
  outTy.shape[d] = kDynamic;
  Val r{fresh(), outTy};
  line(r.name + " = tensor.cast " + a->name + " : " + a->ty.str() + " to " +
       outTy.str());
  add(r);
  return true;
}

bool Generator::emitBitcast() {
  auto a = pickTensor([](const Ty &t) { return t.isF32() && t.rank() >= 1; });
  if (!a || options.executable)
    return false;
  Ty intTy = a->ty.withElt("i32");
  Val i{fresh(), intTy}, f{fresh(), a->ty};
  line(i.name + " = tensor.bitcast " + a->name + " : " + a->ty.str() + " to " +
       intTy.str());
  line(f.name + " = tensor.bitcast " + i.name + " : " + intTy.str() + " to " +
       a->ty.str());
  add(f);
  return true;
}

//===----------------------------------------------------------------------===//
// tosa
//===----------------------------------------------------------------------===//

std::string tosaZeroPoint(Generator *, const std::string &name) {
  return name + " = \"tosa.const\"() <{values = dense<0.000000e+00> : "
                "tensor<1xf32>}> : () -> tensor<1xf32>";
}

bool Generator::emitTosaElementwise() {
  if (!options.tosa)
    return false;
  auto a = pickTensor([](const Ty &t) {
    return t.isF32() && t.isStatic() && t.rank() >= 1 && t.rank() <= 4;
  });
  Val x = a ? *a : get(randomTensorType(1, 4, false));
  std::string t = x.ty.str();
  Val r{fresh(), x.ty};
  unsigned kind = rng.below(6);
  if (kind < 2) {
    static const char *ops[] = {"tosa.add", "tosa.sub", "tosa.maximum",
                                "tosa.minimum", "tosa.pow"};
    Val y = get(x.ty);
    line(r.name + " = " + rng.pick(llvm::ArrayRef<const char *>(ops)) + " " +
         x.name + ", " + y.name + " : (" + t + ", " + t + ") -> " + t);
  } else if (kind == 2) {
    Val y = get(x.ty);
    std::string shift = fresh();
    line(shift + " = \"tosa.const\"() <{values = dense<0> : tensor<1xi8>}> : "
                 "() -> tensor<1xi8>");
    line(r.name + " = tosa.mul " + x.name + ", " + y.name + ", " + shift +
         " : (" + t + ", " + t + ", tensor<1xi8>) -> " + t);
  } else if (kind == 3) {
    static const char *ops[] = {"tosa.exp",   "tosa.log",        "tosa.tanh",
                                "tosa.sigmoid", "tosa.abs",      "tosa.reciprocal",
                                "tosa.rsqrt", "tosa.ceil",       "tosa.floor",
                                "tosa.erf",   "tosa.sin",        "tosa.cos"};
    line(r.name + " = " + rng.pick(llvm::ArrayRef<const char *>(ops)) + " " +
         x.name + " : (" + t + ") -> " + t);
  } else if (kind == 4) {
    // (min, max) pairs, including bounds beyond the range of f16.
    static const std::pair<const char *, const char *> bounds[] = {
        {"0.000000e+00", "6.000000e+00"},
        {"0.000000e+00", "3.40282347E+38"},
        {"-1.000000e+00", "1.000000e+05"},
        {"-3.40282347E+38", "3.40282347E+38"},
        {"0.000000e+00", "0.000000e+00"},
        {"-1.000000e+05", "-7.000000e+04"}};
    auto [lo, hi] = bounds[rng.below(std::size(bounds))];
    line(r.name + " = tosa.clamp " + x.name + " {max_val = " + hi +
         " : f32, min_val = " + lo + " : f32} : (" + t + ") -> " + t);
  } else {
    std::string zp = fresh();
    line(tosaZeroPoint(this, zp));
    line(r.name + " = tosa.negate " + x.name + ", " + zp + ", " + zp + " : (" +
         t + ", tensor<1xf32>, tensor<1xf32>) -> " + t);
  }
  add(r);
  return true;
}

bool Generator::emitTosaMatmul() {
  if (!options.tosa)
    return false;
  auto a = pickTensor([](const Ty &t) {
    return t.isF32() && t.isStatic() && t.rank() == 3;
  });
  Val lhs = a ? *a : get(Ty::tensor({1, randomDim(), randomDim()}));
  int64_t n = randomDim();
  Ty bTy = Ty::tensor({lhs.ty.shape[0], lhs.ty.shape[2], n});
  Ty cTy = Ty::tensor({lhs.ty.shape[0], lhs.ty.shape[1], n});
  Val rhs = rng.chance(50) ? tensorConst(bTy, true) : get(bTy);
  std::string zp = fresh();
  line(tosaZeroPoint(this, zp));
  Val r{fresh(), cTy};
  line(r.name + " = tosa.matmul " + lhs.name + ", " + rhs.name + ", " + zp +
       ", " + zp + " : (" + lhs.ty.str() + ", " + bTy.str() +
       ", tensor<1xf32>, tensor<1xf32>) -> " + cTy.str());
  add(r);
  return true;
}

bool Generator::emitTosaConv() {
  if (!options.tosa)
    return false;
  auto a = pickTensor([](const Ty &t) {
    return t.isF32() && t.isStatic() && t.rank() == 4 && t.shape[1] >= 3 &&
           t.shape[2] >= 3;
  });
  Ty inTy = a ? a->ty
              : Ty::tensor({1, rng.range(3, 8), rng.range(3, 8),
                            rng.range(1, 4)});
  Val in = a ? *a : get(inTy);
  int64_t kh = rng.range(1, 3), kw = rng.range(1, 3), c = inTy.shape[3];
  int64_t oh = inTy.shape[1] - kh + 1, ow = inTy.shape[2] - kw + 1;
  std::string zp = fresh();
  line(tosaZeroPoint(this, zp));
  std::string attrs = "{acc_type = f32, dilation = array<i64: 1, 1>, pad = "
                      "array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>}";
  if (rng.chance(70)) {
    int64_t f = rng.range(1, 4);
    Ty wTy = Ty::tensor({f, kh, kw, c}), bTy = Ty::tensor({f}),
       oTy = Ty::tensor({inTy.shape[0], oh, ow, f});
    Val w = rng.chance(60) ? tensorConst(wTy, true) : get(wTy);
    Val b = get(bTy);
    Val r{fresh(), oTy};
    line(r.name + " = tosa.conv2d " + in.name + ", " + w.name + ", " + b.name +
         ", " + zp + ", " + zp + " " + attrs + " : (" + inTy.str() + ", " +
         wTy.str() + ", " + bTy.str() + ", tensor<1xf32>, tensor<1xf32>) -> " +
         oTy.str());
    add(r);
  } else {
    Ty wTy = Ty::tensor({kh, kw, c, 1}), bTy = Ty::tensor({c}),
       oTy = Ty::tensor({inTy.shape[0], oh, ow, c});
    Val w = get(wTy);
    Val b = get(bTy);
    Val r{fresh(), oTy};
    line(r.name + " = tosa.depthwise_conv2d " + in.name + ", " + w.name +
         ", " + b.name + ", " + zp + ", " + zp + " " + attrs + " : (" +
         inTy.str() + ", " + wTy.str() + ", " + bTy.str() +
         ", tensor<1xf32>, tensor<1xf32>) -> " + oTy.str());
    add(r);
  }
  return true;
}

bool Generator::emitTosaReduce() {
  if (!options.tosa)
    return false;
  auto a = pickTensor([](const Ty &t) {
    return t.isF32() && t.isStatic() && t.rank() >= 1 && t.rank() <= 4;
  });
  if (!a)
    return false;
  unsigned axis = rng.below(a->ty.rank());
  Ty outTy = a->ty;
  outTy.shape[axis] = 1;
  static const char *ops[] = {"tosa.reduce_sum", "tosa.reduce_max",
                              "tosa.reduce_min", "tosa.reduce_product"};
  Val r{fresh(), outTy};
  line(r.name + " = " + rng.pick(llvm::ArrayRef<const char *>(ops)) + " " +
       a->name + " {axis = " + std::to_string(axis) + " : i32} : (" +
       a->ty.str() + ") -> " + outTy.str());
  add(r);
  return true;
}

bool Generator::emitTosaDataMovement() {
  if (!options.tosa)
    return false;
  auto a = pickTensor([](const Ty &t) {
    return t.isF32() && t.isStatic() && t.rank() >= 1 && t.rank() <= 4;
  });
  if (!a)
    return false;
  std::string t = a->ty.str();
  unsigned rank = a->ty.rank();
  auto shapeConst = [&](llvm::ArrayRef<int64_t> values) {
    std::string name = fresh();
    std::vector<std::string> text;
    for (int64_t v : values)
      text.push_back(std::to_string(v));
    line(name + " = tosa.const_shape {values = dense<[" +
         llvm::join(text, ", ") + "]> : tensor<" +
         std::to_string(values.size()) + "xindex>} : () -> !tosa.shape<" +
         std::to_string(values.size()) + ">");
    return name;
  };
  switch (rng.below(4)) {
  case 0: { // reshape to (1, n)
    Ty outTy = Ty::tensor({1, a->ty.numElements()});
    std::string shape = shapeConst(outTy.shape);
    Val r{fresh(), outTy};
    line(r.name + " = tosa.reshape " + a->name + ", " + shape + " : (" + t +
         ", !tosa.shape<2>) -> " + outTy.str());
    add(r);
    return true;
  }
  case 1: { // transpose (reverse the dims)
    SmallVector<int64_t> shape(a->ty.shape.rbegin(), a->ty.shape.rend());
    std::vector<std::string> perms;
    for (unsigned i = 0; i < rank; ++i)
      perms.push_back(std::to_string(rank - 1 - i));
    Ty outTy = Ty::tensor(shape);
    Val r{fresh(), outTy};
    line(r.name + " = tosa.transpose " + a->name + " {perms = array<i32: " +
         llvm::join(perms, ", ") + ">} : (" + t + ") -> " + outTy.str());
    add(r);
    return true;
  }
  case 2: { // concat along 0
    Val b = get(a->ty);
    Ty outTy = a->ty;
    outTy.shape[0] *= 2;
    Val r{fresh(), outTy};
    line(r.name + " = tosa.concat " + a->name + ", " + b.name +
         " {axis = 0 : i32} : (" + t + ", " + t + ") -> " + outTy.str());
    add(r);
    return true;
  }
  default: { // slice the first element of dim 0
    SmallVector<int64_t> start(rank, 0), size(a->ty.shape.begin(),
                                              a->ty.shape.end());
    size[0] = 1;
    std::string s = shapeConst(start), z = shapeConst(size);
    Ty outTy = Ty::tensor(size);
    Val r{fresh(), outTy};
    std::string shapeTy = "!tosa.shape<" + std::to_string(rank) + ">";
    line(r.name + " = tosa.slice " + a->name + ", " + s + ", " + z + " : (" +
         t + ", " + shapeTy + ", " + shapeTy + ") -> " + outTy.str());
    add(r);
    return true;
  }
  }
}

bool Generator::emitTosaPool() {
  if (!options.tosa)
    return false;
  auto a = pickTensor([](const Ty &t) {
    return t.isF32() && t.isStatic() && t.rank() == 4 && t.shape[1] % 2 == 0 &&
           t.shape[2] % 2 == 0 && t.shape[1] > 0 && t.shape[2] > 0;
  });
  if (!a)
    return false;
  Ty outTy = Ty::tensor(
      {a->ty.shape[0], a->ty.shape[1] / 2, a->ty.shape[2] / 2, a->ty.shape[3]});
  std::string attrs = "kernel = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, "
                      "0>, stride = array<i64: 2, 2>";
  Val r{fresh(), outTy};
  if (rng.chance(50)) {
    line(r.name + " = tosa.max_pool2d " + a->name + " {" + attrs + "} : (" +
         a->ty.str() + ") -> " + outTy.str());
  } else {
    std::string zp = fresh();
    line(tosaZeroPoint(this, zp));
    line(r.name + " = tosa.avg_pool2d " + a->name + ", " + zp + ", " + zp +
         " {acc_type = f32, " + attrs + "} : (" + a->ty.str() +
         ", tensor<1xf32>, tensor<1xf32>) -> " + outTy.str());
  }
  add(r);
  return true;
}

//===----------------------------------------------------------------------===//
// vector, memref, unregistered
//===----------------------------------------------------------------------===//

bool Generator::emitVector() {
  if (options.executable)
    return false;
  Val s = getScalar();
  Ty vecTy;
  vecTy.kind = Ty::Vector;
  vecTy.shape = {4};
  Val v{fresh(), vecTy};
  line(v.name + " = vector.broadcast " + s.name + " : f32 to " + vecTy.str());
  add(v);
  if (rng.chance(50)) {
    Val r{fresh(), Ty::scalar()};
    line(r.name + " = vector.reduction <add>, " + v.name + " : " +
         vecTy.str() + " into f32");
    add(r);
  }
  return true;
}

bool Generator::emitMemRef() {
  if (options.executable)
    return false;
  Ty memTy;
  memTy.kind = Ty::MemRef;
  memTy.shape = {4};
  Val m = get(memTy);
  std::string c = indexConst(rng.below(4));
  Val x{fresh(), Ty::scalar()};
  line(x.name + " = memref.load " + m.name + "[" + c + "] : " + memTy.str());
  add(x);
  if (rng.chance(50)) {
    Val y = getScalar();
    line("memref.store " + y.name + ", " + m.name + "[" + c + "] : " +
         memTy.str());
  }
  return true;
}

bool Generator::emitUnregistered() {
  if (!options.unregisteredOps || options.executable)
    return false;
  usesUnregistered = true;
  auto a = pickFloatData(true, false);
  Val x = a ? *a : getScalar();
  Val r{fresh(), x.ty};
  if (rng.chance(70)) {
    line(r.name + " = \"foo.op\"(" + x.name + ") : (" + x.ty.str() + ") -> " +
         x.ty.str());
  } else {
    // With a region that captures a value.
    line(r.name + " = \"foo.region\"(" + x.name + ") ({");
    ++indent;
    line("\"foo.yield\"(" + x.name + ") : (" + x.ty.str() + ") -> ()");
    --indent;
    line("}) : (" + x.ty.str() + ") -> " + x.ty.str());
  }
  add(r);
  return true;
}

//===----------------------------------------------------------------------===//
// Control flow and calls
//===----------------------------------------------------------------------===//

/// Types of 1-2 visible values, for the results of a region op.
static std::vector<Ty> pickResultTypes(Generator &, Entropy &rng,
                                       std::vector<Ty> candidates) {
  std::vector<Ty> result;
  unsigned n = 1 + rng.below(2);
  for (unsigned i = 0; i < n && !candidates.empty(); ++i)
    result.push_back(candidates[rng.below(candidates.size())]);
  return result;
}

bool Generator::emitScfFor() {
  if (depth >= options.maxDepth)
    return false;
  std::vector<Val> inits;
  unsigned n = 1 + rng.below(2);
  for (unsigned i = 0; i < n; ++i) {
    auto v = pick([](const Val &v) {
      return v.ty.isF32() && (v.ty.isTensor() || v.ty.kind == Ty::Scalar);
    });
    inits.push_back(v ? *v : getScalar());
  }
  std::string lb = indexConst(0), ub = indexConst(rng.range(1, 3)),
              step = indexConst(1);
  std::string res = fresh();
  std::vector<std::string> iterArgs, types;
  std::vector<Val> bodyArgs;
  for (const Val &v : inits) {
    Val arg{fresh(), v.ty};
    iterArgs.push_back(arg.name + " = " + v.name);
    types.push_back(v.ty.str());
    bodyArgs.push_back(arg);
  }
  std::string iv = fresh();
  line(res + (n > 1 ? ":" + std::to_string(n) : "") + " = scf.for " + iv +
       " = " + lb + " to " + ub + " step " + step + " iter_args(" +
       llvm::join(iterArgs, ", ") + ") -> (" + llvm::join(types, ", ") +
       ") {");
  Scope inner{scope, bodyArgs};
  Scope *outer = scope;
  bool wasTop = atFunctionLevel;
  scope = &inner;
  atFunctionLevel = false;
  ++depth;
  ++indent;
  emitOps(rng.range(1, 5));
  std::vector<std::string> yields;
  for (const Val &arg : bodyArgs)
    yields.push_back(get(arg.ty).name);
  line("scf.yield " + llvm::join(yields, ", ") + " : " +
       llvm::join(types, ", "));
  --indent;
  --depth;
  scope = outer;
  atFunctionLevel = wasTop;
  line("}");
  for (unsigned i = 0; i < n; ++i)
    add(Val{n > 1 ? res + "#" + std::to_string(i) : res, inits[i].ty});
  return true;
}

bool Generator::emitScfIf() {
  if (depth >= options.maxDepth)
    return false;
  // The condition: a comparison of two scalars.
  Val a = getScalar(), b = getScalar();
  std::string cond = fresh();
  line(cond + " = arith.cmpf olt, " + a.name + ", " + b.name + " : f32");
  std::vector<Ty> candidates;
  for (Scope *s = scope; s; s = s->parent)
    for (const Val &v : s->vals)
      if (v.ty.isF32() && (v.ty.isTensor() || v.ty.kind == Ty::Scalar))
        candidates.push_back(v.ty);
  candidates.push_back(Ty::scalar());
  std::vector<Ty> resultTypes = pickResultTypes(*this, rng, candidates);
  std::vector<std::string> types;
  for (const Ty &t : resultTypes)
    types.push_back(t.str());
  std::string res = fresh();
  unsigned n = resultTypes.size();
  line(res + (n > 1 ? ":" + std::to_string(n) : "") + " = scf.if " + cond +
       " -> (" + llvm::join(types, ", ") + ") {");
  Scope *outer = scope;
  bool wasTop = atFunctionLevel;
  atFunctionLevel = false;
  ++depth;
  for (int branch = 0; branch < 2; ++branch) {
    Scope inner{outer, {}};
    scope = &inner;
    ++indent;
    emitOps(rng.range(0, 4));
    std::vector<std::string> yields;
    for (const Ty &t : resultTypes)
      yields.push_back(get(t).name);
    line("scf.yield " + llvm::join(yields, ", ") + " : " +
         llvm::join(types, ", "));
    --indent;
    scope = outer;
    if (branch == 0)
      line("} else {");
  }
  --depth;
  atFunctionLevel = wasTop;
  line("}");
  for (unsigned i = 0; i < n; ++i)
    add(Val{n > 1 ? res + "#" + std::to_string(i) : res, resultTypes[i]});
  return true;
}

bool Generator::emitScfWhile() {
  if (depth >= options.maxDepth || options.executable)
    return false;
  auto v = pick([](const Val &v) { return v.ty.isF32() && v.ty.isTensor(); });
  Val init = v ? *v : get(randomTensorType(1, 2, true));
  Val limit = getScalar();
  std::string t = init.ty.str();
  std::string res = fresh(), arg = fresh(), counter = fresh();
  Val zero = scalarConst(0.0);
  line(res + ":2 = scf.while (" + arg + " = " + init.name + ", " + counter +
       " = " + zero.name + ") : (" + t + ", f32) -> (" + t + ", f32) {");
  ++indent;
  std::string cond = fresh();
  line(cond + " = arith.cmpf olt, " + counter + ", " + limit.name + " : f32");
  line("scf.condition(" + cond + ") " + arg + ", " + counter + " : " + t +
       ", f32");
  --indent;
  line("} do {");
  std::string barg = fresh(), bcounter = fresh();
  line("^bb0(" + barg + ": " + t + ", " + bcounter + ": f32):");
  Scope inner{scope, {Val{barg, init.ty}, Val{bcounter, Ty::scalar()}}};
  Scope *outer = scope;
  bool wasTop = atFunctionLevel;
  scope = &inner;
  atFunctionLevel = false;
  ++depth;
  ++indent;
  emitOps(rng.range(0, 3));
  Val next = get(init.ty);
  Val one = scalarConst(1.0);
  std::string inc = fresh();
  line(inc + " = arith.addf " + bcounter + ", " + one.name + " : f32");
  line("scf.yield " + next.name + ", " + inc + " : " + t + ", f32");
  --indent;
  --depth;
  scope = outer;
  atFunctionLevel = wasTop;
  line("}");
  add(Val{res + "#0", init.ty});
  return true;
}

bool Generator::emitCall() {
  if (inNestedModule)
    return false; // The symbols of the outer module are not visible there.
  if (!options.executable && rng.chance(20)) {
    // Declare an external function over visible types and call it (not in
    // a module to execute: nothing defines it).
    FuncSig decl;
    decl.name = "ext" + std::to_string(externals.size());
    for (unsigned i = 0, e = rng.range(0, 2); i < e; ++i)
      if (auto v = pickFloatData(true, false))
        decl.args.push_back(v->ty);
    decl.results.push_back(rng.chance(50) ? Ty::scalar()
                                          : randomTensorType(1, 2, true));
    std::vector<std::string> argTypes, resultTypes;
    for (const Ty &t : decl.args)
      argTypes.push_back(t.str());
    for (const Ty &t : decl.results)
      resultTypes.push_back(t.str());
    externals.push_back("  func.func private @" + decl.name + "(" +
                        llvm::join(argTypes, ", ") + ") -> (" +
                        llvm::join(resultTypes, ", ") + ")\n");
    functions.push_back(std::move(decl));
  }
  if (functions.empty())
    return false;
  const FuncSig &callee = functions[rng.below(functions.size())];
  std::vector<std::string> operands, argTypes, resultTypes;
  for (const Ty &t : callee.args) {
    operands.push_back(get(t).name);
    argTypes.push_back(t.str());
  }
  for (const Ty &t : callee.results)
    resultTypes.push_back(t.str());
  std::string res = fresh();
  unsigned n = callee.results.size();
  std::string call = "func.call @" + callee.name + "(" +
                     llvm::join(operands, ", ") + ") : (" +
                     llvm::join(argTypes, ", ") + ") -> (" +
                     llvm::join(resultTypes, ", ") + ")";
  if (n == 0) {
    line(call);
    return true;
  }
  line(res + (n > 1 ? ":" + std::to_string(n) : "") + " = " + call);
  for (unsigned i = 0; i < n; ++i)
    add(Val{n > 1 ? res + "#" + std::to_string(i) : res, callee.results[i]});
  return true;
}

bool Generator::emitDiamond() {
  if (!atFunctionLevel || depth >= options.maxDepth)
    return false;
  Val a = getScalar(), b = getScalar();
  std::string cond = fresh();
  line(cond + " = arith.cmpf ogt, " + a.name + ", " + b.name + " : f32");
  // The merge block takes one value, of a type both branches make.
  Ty ty = rng.chance(50) ? Ty::scalar() : randomTensorType(1, 2, false);
  unsigned id = blockCounter++;
  std::string thenBB = "^bb" + std::to_string(3 * id + 1),
              elseBB = "^bb" + std::to_string(3 * id + 2),
              mergeBB = "^bb" + std::to_string(3 * id + 3);
  line("cf.cond_br " + cond + ", " + thenBB + ", " + elseBB);
  Scope *outer = scope;
  ++depth;
  for (const std::string &bb : {thenBB, elseBB}) {
    --indent;
    line(bb + ":");
    ++indent;
    Scope inner{outer, {}};
    scope = &inner;
    emitOps(rng.range(0, 3));
    Val v = get(ty);
    line("cf.br " + mergeBB + "(" + v.name + " : " + ty.str() + ")");
    scope = outer;
  }
  --depth;
  std::string arg = fresh();
  --indent;
  line(mergeBB + "(" + arg + ": " + ty.str() + "):");
  ++indent;
  add(Val{arg, ty});
  return true;
}

//===----------------------------------------------------------------------===//
// Functions and the module
//===----------------------------------------------------------------------===//

void Generator::emitOne() {
  using Emitter = bool (Generator::*)();
  struct Entry {
    Emitter emit;
    unsigned weight;
  };
  static const Entry table[] = {
      {&Generator::emitArithBinary, 6},
      {&Generator::emitMathUnary, 5},
      {&Generator::emitFma, 1},
      {&Generator::emitCmpSelect, 2},
      {&Generator::emitUserCasts, 2},
      {&Generator::emitF64Detour, 1},
      {&Generator::emitIntConversion, 1},
      {&Generator::emitConstant, 2},
      {&Generator::emitMatmul, 6},
      {&Generator::emitBatchMatmul, 2},
      {&Generator::emitMatvec, 1},
      {&Generator::emitGenericContraction, 2},
      {&Generator::emitConvolution, 3},
      {&Generator::emitPooling, 2},
      {&Generator::emitGenericElementwise, 6},
      {&Generator::emitGenericReduction, 3},
      {&Generator::emitNamedElementwise, 3},
      {&Generator::emitTranspose, 2},
      {&Generator::emitBroadcast, 1},
      {&Generator::emitCopyOrFill, 1},
      {&Generator::emitMapReduce, 2},
      {&Generator::emitSoftmax, 1},
      {&Generator::emitExtractSlice, 2},
      {&Generator::emitInsertSlice, 1},
      {&Generator::emitReshape, 2},
      {&Generator::emitConcat, 1},
      {&Generator::emitPad, 2},
      {&Generator::emitExtractFromElements, 1},
      {&Generator::emitSplatOrGenerate, 1},
      {&Generator::emitTensorCast, 1},
      {&Generator::emitBitcast, 1},
      {&Generator::emitTosaElementwise, 5},
      {&Generator::emitTosaMatmul, 3},
      {&Generator::emitTosaConv, 3},
      {&Generator::emitTosaReduce, 2},
      {&Generator::emitTosaDataMovement, 3},
      {&Generator::emitTosaPool, 1},
      {&Generator::emitVector, 1},
      {&Generator::emitMemRef, 1},
      {&Generator::emitUnregistered, 2},
      {&Generator::emitScfFor, 2},
      {&Generator::emitScfIf, 2},
      {&Generator::emitScfWhile, 1},
      {&Generator::emitCall, 3},
      {&Generator::emitDiamond, 1},
  };
  unsigned total = 0;
  for (const Entry &e : table)
    total += e.weight;
  for (int attempt = 0; attempt < 8; ++attempt) {
    uint64_t r = rng.below(total);
    for (const Entry &e : table) {
      if (r < e.weight) {
        if ((this->*e.emit)())
          return;
        break;
      }
      r -= e.weight;
    }
  }
  emitArithBinary() || emitConstant();
}

void Generator::emitOps(unsigned count) {
  for (unsigned i = 0; i < count; ++i)
    emitOne();
}

void Generator::emitFunction(unsigned index, bool nested) {
  inNestedModule = nested;
  std::string text;
  body = &text;
  indent = 1;
  Scope root;
  scope = funcScope = &root;
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
  std::vector<std::string> names, types;
  FuncSig sig;
  sig.name = "f" + std::to_string(index);
  for (const Val &v : returned) {
    names.push_back(v.name);
    types.push_back(v.ty.str());
    sig.results.push_back(v.ty);
  }
  if (returned.empty())
    line("return");
  else
    line("return " + llvm::join(names, ", ") + " : " + llvm::join(types, ", "));

  std::vector<std::string> argText;
  for (const Val &a : args) {
    argText.push_back(a.name + ": " + a.ty.str());
    sig.args.push_back(a.ty);
  }
  // An executable module has one public function, the last: amp-run's
  // entry.
  bool isPrivate = options.executable ? index + 1 < numFunctions
                                      : index > 0 && rng.chance(30);
  std::string header = "  func.func " + std::string(isPrivate ? "private " : "") +
                       "@" + sig.name + "(" + llvm::join(argText, ", ") + ")";
  if (!types.empty())
    header += " -> (" + llvm::join(types, ", ") + ")";
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
  result.text = "module {\n" + llvm::join(externals, "") + functionText +
                "}\n";
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

} // namespace

GeneratedModule mlir::amp::fuzz::generateModule(Entropy &entropy,
                                                const GeneratorOptions &options) {
  Generator generator(entropy, options);
  return generator.run();
}
