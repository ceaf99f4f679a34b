//===- GenLinalgContraction.cpp - linalg contractions for the generator ---===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The linalg contractions of the structured generator (GenCore.h): matmul
// (also with a transposed B), batch_matmul, matvec and the generic form of
// a matmul; the 2-D convolutions (conv_2d_nhwc_hwcf, depthwise) and
// pooling (max with a -FLT_MAX or -inf init, sum). Accumulators start from
// zero, from the neutral value of the pooling, or from a visible value.
//
//===----------------------------------------------------------------------===//

#include "GenCore.h"

#include <limits>

using namespace mlir::amp::fuzz::gen;
using llvm::SmallVector;

/// A visible f32 tensor of rank `rank`, or a new one (sizes may be dynamic).
static Val pickOrMakeTensor(Generator &gen, unsigned rank) {
  auto a = gen.pickTensor(
      [rank](const Ty &t) { return t.rank() == rank && t.isF32(); });
  return a ? *a : gen.get(gen.randomTensorType(rank, rank, true));
}

/// `<opAndAttrs> ins(...) outs(init) -> T`, the form of a named structured
/// op with one result.
static Val defineNamed(Generator &gen, const std::string &opAndAttrs,
                       llvm::ArrayRef<Val> ins, const Val &init) {
  return gen.define(init.ty,
                    opAndAttrs + insOuts(ins, init) + " -> " + init.ty.str());
}

static bool emitMatmul(Generator &gen) {
  Val lhs = pickOrMakeTensor(gen, 2);
  int64_t m = lhs.ty.shape[0], k = lhs.ty.shape[1];
  int64_t n = gen.randomDim();
  bool transposeB = gen.rng.chance(20);
  Ty bTy = Ty::tensor(transposeB ? SmallVector<int64_t>{n, k}
                                 : SmallVector<int64_t>{k, n});
  Val rhs = gen.get(bTy);
  Ty cTy = Ty::tensor({m, n});
  Val init = gen.rng.chance(30) ? gen.get(cTy, &lhs)
                                : gen.filledTensor(cTy, &lhs, 0.0);
  std::string maps = transposeB
                         ? " indexing_maps = [affine_map<(m, n, k) -> (m, k)>, "
                           "affine_map<(m, n, k) -> (n, k)>, "
                           "affine_map<(m, n, k) -> (m, n)>]"
                         : "";
  defineNamed(gen, "linalg.matmul" + maps, {lhs, rhs}, init);
  return true;
}

static bool emitBatchMatmul(Generator &gen) {
  Val lhs = pickOrMakeTensor(gen, 3);
  int64_t b = lhs.ty.shape[0], m = lhs.ty.shape[1], k = lhs.ty.shape[2];
  int64_t n = gen.randomDim();
  Ty bTy = Ty::tensor({b, k, n}), cTy = Ty::tensor({b, m, n});
  Val rhs = gen.get(bTy);
  Val init = gen.filledTensor(cTy, &lhs, 0.0);
  defineNamed(gen, "linalg.batch_matmul", {lhs, rhs}, init);
  return true;
}

static bool emitMatvec(Generator &gen) {
  Val mat = pickOrMakeTensor(gen, 2);
  Ty xTy = Ty::tensor({mat.ty.shape[1]}), yTy = Ty::tensor({mat.ty.shape[0]});
  Val x = gen.get(xTy);
  Val init;
  if (yTy.shape[0] != kDynamic) {
    init = gen.filledTensor(yTy, nullptr, 0.0);
  } else {
    // The init's size must be the matrix's: take it from the matrix.
    init = gen.filledTensorSized(yTy, {gen.dimOf(mat, 0)}, 0.0);
  }
  defineNamed(gen, "linalg.matvec", {mat, x}, init);
  return true;
}

static bool emitGenericContraction(Generator &gen) {
  Val lhs = pickOrMakeTensor(gen, 2);
  int64_t m = lhs.ty.shape[0], k = lhs.ty.shape[1], n = gen.randomDim();
  Ty bTy = Ty::tensor({k, n}), cTy = Ty::tensor({m, n});
  Val rhs = gen.get(bTy);
  Val init = gen.filledTensor(cTy, &lhs, 0.0);
  Val r{gen.fresh(), cTy};
  gen.line(r.name +
           " = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> "
           "(d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, "
           "affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = "
           "[\"parallel\", \"parallel\", \"reduction\"]}" +
           insOuts({lhs, rhs}, init) + " {");
  std::string x = gen.fresh(), y = gen.fresh(), acc = gen.fresh();
  gen.beginBlock({x + ": f32", y + ": f32", acc + ": f32"});
  std::string mul = gen.fresh(), sum = gen.fresh();
  gen.line(mul + " = arith.mulf " + x + ", " + y + " : f32");
  gen.line(sum + " = arith.addf " + acc + ", " + mul + " : f32");
  gen.line("linalg.yield " + sum + " : f32");
  gen.endRegion("} -> " + cTy.str());
  gen.add(r);
  return true;
}

static bool emitConvolution(Generator &gen) {
  Generator::ConvShape conv = gen.pickConvInput();
  const Val &in = conv.input;
  std::string attrs = " {dilations = dense<1> : tensor<2xi64>, strides = "
                      "dense<1> : tensor<2xi64>}";
  bool full = gen.rng.chance(70);
  int64_t f = full ? gen.rng.range(1, 4) : conv.c;
  Ty wTy = full ? Ty::tensor({conv.kh, conv.kw, conv.c, f})
                : Ty::tensor({conv.kh, conv.kw, conv.c});
  Ty oTy = Ty::tensor({in.ty.shape[0], conv.oh, conv.ow, f});
  Val w = gen.get(wTy);
  Val init = gen.filledTensor(oTy, nullptr, 0.0);
  defineNamed(gen,
              std::string(full ? "linalg.conv_2d_nhwc_hwcf"
                               : "linalg.depthwise_conv_2d_nhwc_hwc") +
                  attrs,
              {in, w}, init);
  return true;
}

static bool emitPooling(Generator &gen) {
  auto a = gen.pickTensor([](const Ty &t) {
    return t.rank() == 4 && t.isF32() && t.isStatic() && t.shape[1] >= 2 &&
           t.shape[2] >= 2;
  });
  if (!a)
    return false;
  int64_t k = 2;
  Ty oTy = Ty::tensor({a->ty.shape[0], a->ty.shape[1] - k + 1,
                       a->ty.shape[2] - k + 1, a->ty.shape[3]});
  bool isMax = gen.rng.chance(60);
  Val init = gen.filledTensor(
      oTy, nullptr,
      isMax ? (gen.rng.chance(50) ? -kFloatMax
                                  : -std::numeric_limits<double>::infinity())
            : 0.0);
  Val window = gen.emptyTensorSized(Ty::tensor({k, k}), {});
  defineNamed(gen,
              std::string("linalg.pooling_nhwc_") + (isMax ? "max" : "sum") +
                  " {dilations = dense<1> : tensor<2xi64>, strides = "
                  "dense<1> : tensor<2xi64>}",
              {*a, window}, init);
  return true;
}

void mlir::amp::fuzz::gen::registerLinalgContractionEmitters(
    EmitterTable &table) {
  static const Emitter emitters[] = {
      {emitMatmul, 6},      {emitBatchMatmul, 2},
      {emitMatvec, 1},      {emitGenericContraction, 2},
      {emitConvolution, 3}, {emitPooling, 2},
  };
  table.add(emitters);
}
