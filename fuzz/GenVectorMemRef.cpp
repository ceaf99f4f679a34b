//===- GenVectorMemRef.cpp - vector and memref ops for the generator ------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The vector and memref family of the structured generator (GenCore.h): a
// scalar broadcast to a vector and reduced back, loads from and stores to a
// memref argument. Neither goes into a module to execute.
//
//===----------------------------------------------------------------------===//

#include "GenCore.h"

using namespace mlir::amp::fuzz::gen;

/// A type of rank 1 and four f32 elements, of kind `kind`.
static Ty fourElements(Ty::Kind kind) {
  Ty ty;
  ty.kind = kind;
  ty.shape = {4};
  return ty;
}

static bool emitVector(Generator &gen) {
  if (gen.options.executable)
    return false;
  Val s = gen.getScalar();
  Ty vecTy = fourElements(Ty::Vector);
  Val v = gen.define(vecTy,
                     "vector.broadcast " + s.name + " : f32 to " + vecTy.str());
  if (gen.rng.chance(50))
    gen.define(Ty::scalar(), "vector.reduction <add>, " + v.name + " : " +
                                 vecTy.str() + " into f32");
  return true;
}

static bool emitMemRef(Generator &gen) {
  if (gen.options.executable)
    return false;
  Ty memTy = fourElements(Ty::MemRef);
  Val m = gen.get(memTy);
  std::string c = gen.indexConst(gen.rng.below(4));
  gen.define(Ty::scalar(),
             "memref.load " + m.name + "[" + c + "] : " + memTy.str());
  if (gen.rng.chance(50)) {
    Val y = gen.getScalar();
    gen.line("memref.store " + y.name + ", " + m.name + "[" + c +
             "] : " + memTy.str());
  }
  return true;
}

void mlir::amp::fuzz::gen::registerVectorMemRefEmitters(EmitterTable &table) {
  static const Emitter emitters[] = {
      {emitVector, 1},
      {emitMemRef, 1},
  };
  table.add(emitters);
}
