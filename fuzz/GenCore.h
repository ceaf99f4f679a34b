//===- GenCore.h - The structured generator's state and helpers -*- C++ -*-===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// What the op families of the structured generator share. GraphGenerator.cpp
// implements the core declared here: the types and values the generator
// tracks, the Generator (the module and function being written, the scopes
// of visible values, the helpers that find or make operands and write
// payloads), and the emission loop, which picks emitters from a weighted
// table. Each op family lives in a file of its own, Gen<Family>.cpp, and
// adds its emitters with their weights to that table in
// register<Family>Emitters; fuzz/CMakeLists.txt lists the families, in the
// order of the table (GenFamilies.def).
//
//===----------------------------------------------------------------------===//

#ifndef AMP_FUZZ_GENCORE_H
#define AMP_FUZZ_GENCORE_H

#include "GraphGenerator.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace mlir {
namespace amp {
namespace fuzz {
namespace gen {

/// A dynamic size in a shape.
constexpr int64_t kDynamic = -1;

/// FLT_MAX, the largest finite f32 (the neutral value of a min reduction,
/// negated of a max reduction).
constexpr double kFloatMax = 3.4028234663852886e38;

//===----------------------------------------------------------------------===//
// Types and values
//===----------------------------------------------------------------------===//

/// The type of a value: a scalar, or a tensor, vector or memref of a shape.
struct Ty {
  enum Kind { Scalar, Tensor, Vector, MemRef } kind = Scalar;
  llvm::SmallVector<int64_t, 4> shape;
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

  std::string str() const;
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

/// An SSA value the generator wrote, with its type.
struct Val {
  std::string name;
  Ty ty;
};

/// The values of one region (a function body, an scf or cf region); the
/// values of the enclosing scopes are visible too.
struct Scope {
  Scope *parent = nullptr;
  std::vector<Val> vals;
};

/// A generated function, as later functions see it.
struct FuncSig {
  std::string name;
  std::vector<Ty> args, results;
};

//===----------------------------------------------------------------------===//
// Text
//===----------------------------------------------------------------------===//

/// An f32 literal: `%.9e`, or the hexadecimal bits of an inf or a nan.
std::string formatF32(double value);
/// The numbers `values`, as "1, 2, 3".
std::string joinInts(llvm::ArrayRef<int64_t> values);
/// The types `types`, as "tensor<4xf32>, f32".
std::string typeList(llvm::ArrayRef<Ty> types);
/// The operands `vals` with their types, as "%a, %b : tensor<4xf32>, f32".
std::string operandList(llvm::ArrayRef<Val> vals);
/// The operands of a structured op: " ins(... : ...) outs(... : ...)".
std::string insOuts(llvm::ArrayRef<Val> ins, llvm::ArrayRef<Val> outs);
/// A conversion of `v` to `to`: "<op> %v : T to U".
std::string castText(llvm::StringRef op, const Val &v, const Ty &to);
/// The loop names "d0", ..., "d<rank-1>".
std::vector<std::string> dimNames(unsigned rank);
/// An affine map from the loops `dims` to `results`, as text.
std::string affineMap(llvm::ArrayRef<std::string> dims,
                      llvm::ArrayRef<std::string> results);
/// The multi-result name of `n` results named `res`: `res`, or `res:n`.
std::string resultsLhs(const std::string &res, unsigned n);

//===----------------------------------------------------------------------===//
// The generator
//===----------------------------------------------------------------------===//

/// The state of one generated module and the helpers the emitters share.
/// Emitters write through `line`, take names from `fresh`, draw from `rng`
/// and make their results visible with `add` (or `define`); the order of
/// these calls is what a seed reproduces.
class Generator {
public:
  Generator(Entropy &rng, const GeneratorOptions &options)
      : rng(rng), options(options) {}

  GeneratedModule run();

  //===--------------------------------------------------------------------===//
  // Emission
  //===--------------------------------------------------------------------===//

  /// A new SSA name.
  std::string fresh() { return "%v" + std::to_string(nextId++); }
  /// Writes one line of the current function, at the current indentation.
  void line(const std::string &text);
  /// Makes `v` visible to what follows in the current scope.
  void add(const Val &v) { scope->vals.push_back(v); }
  /// Writes `<new name> = <rhs>` and makes it, of type `ty`, visible.
  Val define(const Ty &ty, const std::string &rhs);
  /// Writes `count` random ops into the current scope.
  void emitOps(unsigned count);
  /// Writes `x = <there> v : T to U` and `y = <back> x : U to T` (`via` is
  /// U); returns x and y, not visible.
  std::pair<Val, Val> roundTrip(const Val &v, const Ty &via,
                                llvm::StringRef there, llvm::StringRef back);

  //===--------------------------------------------------------------------===//
  // Values
  //===--------------------------------------------------------------------===//

  /// A random visible value that satisfies `pred`, if any.
  std::optional<Val> pick(const std::function<bool(const Val &)> &pred);
  /// A new argument of the current function.
  Val newArg(const Ty &ty);
  /// `arith.constant <value> : index`; returns its name.
  std::string indexConst(int64_t value);
  /// An f32 constant: `value`, or a random one.
  Val scalarConst(std::optional<double> value = std::nullopt);
  /// A constant tensor (a splat, a list, or a dense_resource blob), written
  /// with arith.constant or tosa.const.
  Val tensorConst(const Ty &ty, bool tosaConst = false);
  /// `tensor.dim v, i`; returns its name.
  std::string dimOf(const Val &v, unsigned i);
  /// `tensor.empty(sizes) : ty` (an init, not visible).
  Val emptyTensorSized(const Ty &ty, llvm::ArrayRef<std::string> sizes);
  /// An empty tensor of `ty`: its dynamic sizes are those of `like` where it
  /// has the same rank and is dynamic there too, else random.
  Val emptyTensor(const Ty &ty, const Val *like = nullptr);
  /// `linalg.fill ins(scalar) outs(dest)` (not visible).
  Val fill(const Val &scalar, const Val &dest);
  /// A visible tensor of `ty` filled with `value`, or with a random scalar.
  Val filledTensor(const Ty &ty, const Val *like = nullptr,
                   std::optional<double> value = std::nullopt);
  /// A tensor of `ty` (dynamic sizes `sizes`) filled with `value`, not
  /// visible (an init).
  Val filledTensorSized(const Ty &ty, llvm::ArrayRef<std::string> sizes,
                        double value);
  /// An f32 scalar: a visible one, an argument, an element or a constant.
  Val getScalar();
  /// A value of `ty`: a visible one, an argument, a constant, a filled
  /// tensor or a cast of a static tensor (dynamic sizes like `like`).
  Val get(const Ty &ty, const Val *like = nullptr);
  /// A random f32 tensor type of rank `minRank` to `maxRank`.
  Ty randomTensorType(unsigned minRank, unsigned maxRank, bool allowDynamic,
                      bool allowEmpty = false);
  int64_t randomDim() {
    static const int64_t dims[] = {1, 2, 3, 4, 4, 8, 5};
    return rng.pick(llvm::ArrayRef<int64_t>(dims));
  }
  /// A random f32 value, ordinary or one that does not fit 16 bits.
  double randomValue();
  /// A visible f32 tensor (or scalar, or vector, where allowed).
  std::optional<Val> pickFloatData(bool allowScalar, bool allowVector);
  /// A visible tensor whose type satisfies `pred`; one without elements
  /// only where `allowEmpty`.
  std::optional<Val> pickTensor(const std::function<bool(const Ty &)> &pred,
                                bool allowEmpty = false);
  /// A visible f32 tensor of rank `minRank` or more.
  std::optional<Val> pickF32Tensor(unsigned minRank, bool allowEmpty = false);
  /// A visible static f32 tensor of rank `minRank` to `maxRank`.
  std::optional<Val>
  pickStaticF32Tensor(unsigned minRank,
                      unsigned maxRank = std::numeric_limits<unsigned>::max());

  /// The input of a 2-D convolution (NHWC, static, at least 3x3) and a
  /// random kernel size with the output size it gives (stride and dilation
  /// 1, no padding).
  struct ConvShape {
    Val input;
    int64_t kh, kw, oh, ow, c;
  };
  ConvShape pickConvInput();

  //===--------------------------------------------------------------------===//
  // Payloads
  //===--------------------------------------------------------------------===//

  /// `count` random scalar ops over `pool` (which grows with their
  /// results); returns the last. Red ops (exp, log) only where `allowRed`.
  std::string scalarExpr(std::vector<std::string> pool, unsigned count,
                         bool allowRed);
  /// Now and then a visible f32 scalar, for a payload to capture.
  std::vector<std::string> capturedScalars();
  /// Writes the block header `^bb0(args):` and indents the block's body.
  void beginBlock(llvm::ArrayRef<std::string> args);
  /// Ends the region of a block: back one indentation, then `closing`.
  void endRegion(const std::string &closing);

  /// A picked name from a table of op names.
  template <size_t N> const char *pickName(const char *const (&names)[N]) {
    return rng.pick(llvm::ArrayRef<const char *>(names));
  }

  Entropy &rng;
  const GeneratorOptions &options;

  //===--------------------------------------------------------------------===//
  // The function being written (emitters of regions change these)
  //===--------------------------------------------------------------------===//

  unsigned indent = 0;
  Scope *scope = nullptr;
  /// Nesting depth of scf/cf regions.
  unsigned depth = 0;
  /// False inside regions where cf branches cannot be written (scf bodies).
  bool atFunctionLevel = true;
  /// cf blocks written so far in the function.
  unsigned blockCounter = 0;

  //===--------------------------------------------------------------------===//
  // The module
  //===--------------------------------------------------------------------===//

  /// The functions written so far and the external declarations, which
  /// later functions may call.
  std::vector<FuncSig> functions;
  bool inNestedModule = false;
  std::vector<std::string> externals;
  bool usesUnregistered = false;

private:
  void emitOne();
  void emitFunction(unsigned index, bool nested);

  /// How many functions run() emits.
  unsigned numFunctions = 0;
  unsigned nextId = 0;
  unsigned numOps = 0;
  std::string *body = nullptr;
  std::vector<Val> args;
  std::string functionText;
  std::vector<std::pair<std::string, std::string>> resources;
};

/// While alive, the generator writes into a nested region: a scope of its
/// own (seeing the enclosing ones) that starts with `blockArgs`, one level
/// deeper. An scf region is indented once more and holds no cf branches; a
/// cf block stays at the level of the function.
class NestedRegion {
public:
  NestedRegion(Generator &gen, std::vector<Val> blockArgs,
               bool scfRegion = true);
  NestedRegion(const NestedRegion &) = delete;
  NestedRegion &operator=(const NestedRegion &) = delete;
  ~NestedRegion();

private:
  Generator &gen;
  Scope inner;
  Scope *outer;
  bool wasAtFunctionLevel;
  bool scfRegion;
};

//===----------------------------------------------------------------------===//
// The registry of emitters
//===----------------------------------------------------------------------===//

/// An emitter writes an op of its family (with the operands it makes) and
/// returns true, or returns false where it does not apply (an option rules
/// it out, no operand fits, the regions are too deep).
using EmitFn = bool (*)(Generator &);

struct Emitter {
  EmitFn emit;
  /// How often a draw picks it, relative to the others.
  unsigned weight;
  /// Tried, in table order, when eight draws found nothing that applies;
  /// the last one of the table always applies.
  bool fallback = false;
};

/// The emitters of all families with their weights. Its order decides which
/// emitter a draw picks, so it is part of what a seed reproduces.
class EmitterTable {
public:
  void add(llvm::ArrayRef<Emitter> family);
  uint64_t getTotalWeight() const { return totalWeight; }
  /// The emitter of the draw `r` in [0, getTotalWeight()).
  const Emitter &pick(uint64_t r) const;
  llvm::ArrayRef<Emitter> getEmitters() const { return emitters; }

private:
  std::vector<Emitter> emitters;
  uint64_t totalWeight = 0;
};

// One register<Family>Emitters per op family, in Gen<Family>.cpp.
#define AMP_GRAPHGEN_FAMILY(Name) void register##Name##Emitters(EmitterTable &);
#include "GenFamilies.def"

} // namespace gen
} // namespace fuzz
} // namespace amp
} // namespace mlir

#endif // AMP_FUZZ_GENCORE_H
