//===- GenTosa.cpp - TOSA ops for the graph generator ---------------------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The TOSA 1.0 family of the structured generator (GenCore.h), over static
// shapes and only where GeneratorOptions::tosa: elementwise ops (binary,
// mul with its shift, unary, clamp with bounds beyond the range of f16,
// negate with its zero points), matmul, conv2d and depthwise_conv2d (often
// with constant weights), reductions, data movement (reshape, transpose,
// concat, slice with their shape operands) and pooling.
//
//===----------------------------------------------------------------------===//

#include "GenCore.h"

#include "llvm/ADT/StringExtras.h"

using namespace mlir::amp::fuzz::gen;
using llvm::SmallVector;

/// The type of a TOSA op in its generic form: " : (inputs) -> result".
static std::string fnType(llvm::ArrayRef<std::string> inputs,
                          const std::string &result) {
  return " : (" + llvm::join(inputs, ", ") + ") -> " + result;
}

/// Writes an f32 zero point (of a negate, matmul, convolution or average
/// pooling); returns its name.
static std::string zeroPoint(Generator &gen) {
  std::string name = gen.fresh();
  gen.line(name + " = \"tosa.const\"() <{values = dense<0.000000e+00> : "
                  "tensor<1xf32>}> : () -> tensor<1xf32>");
  return name;
}

/// Writes `tosa.const_shape` of `values`; returns its name.
static std::string shapeConst(Generator &gen, llvm::ArrayRef<int64_t> values) {
  std::string name = gen.fresh();
  std::string n = std::to_string(values.size());
  gen.line(name + " = tosa.const_shape {values = dense<[" + joinInts(values) +
           "]> : tensor<" + n + "xindex>} : () -> !tosa.shape<" + n + ">");
  return name;
}

/// The right-hand side of `tosa.clamp x`, with (min, max) bounds that
/// include some beyond the range of f16.
static std::string clampText(Generator &gen, const Val &x) {
  static const std::pair<const char *, const char *> bounds[] = {
      {"0.000000e+00", "6.000000e+00"},  {"0.000000e+00", "3.40282347E+38"},
      {"-1.000000e+00", "1.000000e+05"}, {"-3.40282347E+38", "3.40282347E+38"},
      {"0.000000e+00", "0.000000e+00"},  {"-1.000000e+05", "-7.000000e+04"}};
  auto [lo, hi] = bounds[gen.rng.below(std::size(bounds))];
  std::string t = x.ty.str();
  return "tosa.clamp " + x.name + " {max_val = " + hi +
         " : f32, min_val = " + lo + " : f32}" + fnType({t}, t);
}

static bool emitTosaElementwise(Generator &gen) {
  auto a = gen.pickStaticF32Tensor(1, 4);
  Val x = a ? *a : gen.get(gen.randomTensorType(1, 4, false));
  std::string t = x.ty.str();
  Val r{gen.fresh(), x.ty};
  std::string rhs;
  unsigned kind = gen.rng.below(6);
  if (kind < 2) {
    static const char *ops[] = {"tosa.add", "tosa.sub", "tosa.maximum",
                                "tosa.minimum", "tosa.pow"};
    Val y = gen.get(x.ty);
    rhs = std::string(gen.pickName(ops)) + " " + x.name + ", " + y.name +
          fnType({t, t}, t);
  } else if (kind == 2) {
    Val y = gen.get(x.ty);
    std::string shift = gen.fresh();
    gen.line(shift + " = \"tosa.const\"() <{values = dense<0> : "
                     "tensor<1xi8>}> : () -> tensor<1xi8>");
    rhs = "tosa.mul " + x.name + ", " + y.name + ", " + shift +
          fnType({t, t, "tensor<1xi8>"}, t);
  } else if (kind == 3) {
    static const char *ops[] = {"tosa.exp",     "tosa.log",  "tosa.tanh",
                                "tosa.sigmoid", "tosa.abs",  "tosa.reciprocal",
                                "tosa.rsqrt",   "tosa.ceil", "tosa.floor",
                                "tosa.erf",     "tosa.sin",  "tosa.cos"};
    rhs = std::string(gen.pickName(ops)) + " " + x.name + fnType({t}, t);
  } else if (kind == 4) {
    rhs = clampText(gen, x);
  } else {
    std::string zp = zeroPoint(gen);
    rhs = "tosa.negate " + x.name + ", " + zp + ", " + zp +
          fnType({t, "tensor<1xf32>", "tensor<1xf32>"}, t);
  }
  gen.line(r.name + " = " + rhs);
  gen.add(r);
  return true;
}

static bool emitTosaMatmul(Generator &gen) {
  auto a = gen.pickStaticF32Tensor(3, 3);
  Val lhs = a ? *a : gen.get(Ty::tensor({1, gen.randomDim(), gen.randomDim()}));
  int64_t n = gen.randomDim();
  Ty bTy = Ty::tensor({lhs.ty.shape[0], lhs.ty.shape[2], n});
  Ty cTy = Ty::tensor({lhs.ty.shape[0], lhs.ty.shape[1], n});
  Val rhs = gen.rng.chance(50) ? gen.tensorConst(bTy, true) : gen.get(bTy);
  std::string zp = zeroPoint(gen);
  gen.define(
      cTy,
      "tosa.matmul " + lhs.name + ", " + rhs.name + ", " + zp + ", " + zp +
          fnType({lhs.ty.str(), bTy.str(), "tensor<1xf32>", "tensor<1xf32>"},
                 cTy.str()));
  return true;
}

static bool emitTosaConv(Generator &gen) {
  Generator::ConvShape conv = gen.pickConvInput();
  const Val &in = conv.input;
  std::string zp = zeroPoint(gen);
  std::string attrs = "{acc_type = f32, dilation = array<i64: 1, 1>, pad = "
                      "array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>}";
  // conv2d, or depthwise_conv2d (one filter a channel).
  bool full = gen.rng.chance(70);
  int64_t f = full ? gen.rng.range(1, 4) : conv.c;
  Ty wTy = full ? Ty::tensor({f, conv.kh, conv.kw, conv.c})
                : Ty::tensor({conv.kh, conv.kw, conv.c, 1});
  Ty bTy = Ty::tensor({f});
  Ty oTy = Ty::tensor({in.ty.shape[0], conv.oh, conv.ow, f});
  Val w =
      full && gen.rng.chance(60) ? gen.tensorConst(wTy, true) : gen.get(wTy);
  Val b = gen.get(bTy);
  gen.define(oTy,
             std::string(full ? "tosa.conv2d " : "tosa.depthwise_conv2d ") +
                 in.name + ", " + w.name + ", " + b.name + ", " + zp + ", " +
                 zp + " " + attrs +
                 fnType({in.ty.str(), wTy.str(), bTy.str(), "tensor<1xf32>",
                         "tensor<1xf32>"},
                        oTy.str()));
  return true;
}

static bool emitTosaReduce(Generator &gen) {
  auto a = gen.pickStaticF32Tensor(1, 4);
  if (!a)
    return false;
  unsigned axis = gen.rng.below(a->ty.rank());
  Ty outTy = a->ty;
  outTy.shape[axis] = 1;
  static const char *ops[] = {"tosa.reduce_sum", "tosa.reduce_max",
                              "tosa.reduce_min", "tosa.reduce_product"};
  gen.define(outTy, std::string(gen.pickName(ops)) + " " + a->name +
                        " {axis = " + std::to_string(axis) + " : i32}" +
                        fnType({a->ty.str()}, outTy.str()));
  return true;
}

/// The right-hand side of a reshape, transpose, concat or slice of `a`, and
/// the type of its result.
static std::string dataMovementText(Generator &gen, const Val &a, Ty &outTy) {
  std::string t = a.ty.str();
  unsigned rank = a.ty.rank();
  switch (gen.rng.below(4)) {
  case 0: { // reshape to (1, n)
    outTy = Ty::tensor({1, a.ty.numElements()});
    std::string shape = shapeConst(gen, outTy.shape);
    return "tosa.reshape " + a.name + ", " + shape +
           fnType({t, "!tosa.shape<2>"}, outTy.str());
  }
  case 1: { // transpose (reverse the dims)
    SmallVector<int64_t> shape(a.ty.shape.rbegin(), a.ty.shape.rend()), perms;
    for (unsigned i = 0; i < rank; ++i)
      perms.push_back(rank - 1 - i);
    outTy = Ty::tensor(shape);
    return "tosa.transpose " + a.name +
           " {perms = array<i32: " + joinInts(perms) + ">}" +
           fnType({t}, outTy.str());
  }
  case 2: { // concat along 0
    Val b = gen.get(a.ty);
    outTy = a.ty;
    outTy.shape[0] *= 2;
    return "tosa.concat " + a.name + ", " + b.name + " {axis = 0 : i32}" +
           fnType({t, t}, outTy.str());
  }
  default: { // slice the first element of dim 0
    SmallVector<int64_t> start(rank, 0),
        size(a.ty.shape.begin(), a.ty.shape.end());
    size[0] = 1;
    std::string s = shapeConst(gen, start), z = shapeConst(gen, size);
    outTy = Ty::tensor(size);
    std::string shapeTy = "!tosa.shape<" + std::to_string(rank) + ">";
    return "tosa.slice " + a.name + ", " + s + ", " + z +
           fnType({t, shapeTy, shapeTy}, outTy.str());
  }
  }
}

static bool emitTosaDataMovement(Generator &gen) {
  auto a = gen.pickStaticF32Tensor(1, 4);
  if (!a)
    return false;
  Ty outTy;
  std::string rhs = dataMovementText(gen, *a, outTy);
  gen.define(outTy, rhs);
  return true;
}

static bool emitTosaPool(Generator &gen) {
  auto a = gen.pickTensor([](const Ty &t) {
    return t.isF32() && t.isStatic() && t.rank() == 4 && t.shape[1] % 2 == 0 &&
           t.shape[2] % 2 == 0 && t.shape[1] > 0 && t.shape[2] > 0;
  });
  if (!a)
    return false;
  Ty outTy = Ty::tensor(
      {a->ty.shape[0], a->ty.shape[1] / 2, a->ty.shape[2] / 2, a->ty.shape[3]});
  std::string attrs = "kernel = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, "
                      "0>, stride = array<i64: 2, 2>";
  Val r{gen.fresh(), outTy};
  if (gen.rng.chance(50)) {
    gen.line(r.name + " = tosa.max_pool2d " + a->name + " {" + attrs + "}" +
             fnType({a->ty.str()}, outTy.str()));
  } else {
    std::string zp = zeroPoint(gen);
    gen.line(
        r.name + " = tosa.avg_pool2d " + a->name + ", " + zp + ", " + zp +
        " {acc_type = f32, " + attrs + "}" +
        fnType({a->ty.str(), "tensor<1xf32>", "tensor<1xf32>"}, outTy.str()));
  }
  gen.add(r);
  return true;
}

/// `emit`, where GeneratorOptions::tosa allows TOSA ops.
template <EmitFn emit> static bool ifTosa(Generator &gen) {
  return gen.options.tosa && emit(gen);
}

void mlir::amp::fuzz::gen::registerTosaEmitters(EmitterTable &table) {
  static const Emitter emitters[] = {
      {ifTosa<emitTosaElementwise>, 5},  {ifTosa<emitTosaMatmul>, 3},
      {ifTosa<emitTosaConv>, 3},         {ifTosa<emitTosaReduce>, 2},
      {ifTosa<emitTosaDataMovement>, 3}, {ifTosa<emitTosaPool>, 1},
  };
  table.add(emitters);
}
