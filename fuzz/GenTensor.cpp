//===- GenTensor.cpp - tensor ops for the graph generator -----------------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The tensor family of the structured generator (GenCore.h): slices
// (extract and insert), reshapes (collapse, expand), concat, pad with a
// captured or a local padding value, from_elements, splat and generate,
// casts to a dynamic shape and bitcasts to i32 and back.
//
//===----------------------------------------------------------------------===//

#include "GenCore.h"

#include "llvm/ADT/StringExtras.h"

using namespace mlir::amp::fuzz::gen;
using llvm::SmallVector;

namespace {
/// A random slice of a static shape, with unit strides.
struct Slice {
  /// Its offsets, sizes and strides: "[o, ...] [s, ...] [1, ...]".
  std::string text;
  /// The type of the slice.
  Ty ty;
};
} // namespace

static Slice randomSlice(Generator &gen, llvm::ArrayRef<int64_t> shape) {
  std::vector<std::string> offsets, sizes, strides;
  SmallVector<int64_t> sliceShape;
  for (int64_t d : shape) {
    int64_t size = gen.rng.range(1, d);
    int64_t offset = gen.rng.range(0, d - size);
    offsets.push_back(std::to_string(offset));
    sizes.push_back(std::to_string(size));
    strides.push_back("1");
    sliceShape.push_back(size);
  }
  Slice slice;
  slice.ty = Ty::tensor(sliceShape);
  slice.text = "[" + llvm::join(offsets, ", ") + "] [" +
               llvm::join(sizes, ", ") + "] [" + llvm::join(strides, ", ") +
               "]";
  return slice;
}

static bool emitExtractSlice(Generator &gen) {
  auto a = gen.pickStaticF32Tensor(1);
  if (!a)
    return false;
  Slice slice = randomSlice(gen, a->ty.shape);
  gen.define(slice.ty, "tensor.extract_slice " + a->name + slice.text + " : " +
                           a->ty.str() + " to " + slice.ty.str());
  return true;
}

static bool emitInsertSlice(Generator &gen) {
  auto dest = gen.pickStaticF32Tensor(1);
  if (!dest)
    return false;
  Slice slice = randomSlice(gen, dest->ty.shape);
  Val src = gen.get(slice.ty);
  gen.define(dest->ty, "tensor.insert_slice " + src.name + " into " +
                           dest->name + slice.text + " : " + slice.ty.str() +
                           " into " + dest->ty.str());
  return true;
}

static bool emitReshape(Generator &gen) {
  auto a = gen.pickStaticF32Tensor(1, 3);
  if (!a)
    return false;
  unsigned rank = a->ty.rank();
  if (rank >= 2 && gen.rng.chance(50)) {
    // Collapse the first two dimensions.
    SmallVector<int64_t> shape{a->ty.shape[0] * a->ty.shape[1]};
    std::vector<std::string> groups{"[0, 1]"};
    for (unsigned d = 2; d < rank; ++d) {
      shape.push_back(a->ty.shape[d]);
      groups.push_back("[" + std::to_string(d) + "]");
    }
    Ty outTy = Ty::tensor(shape);
    gen.define(outTy, "tensor.collapse_shape " + a->name + " [" +
                          llvm::join(groups, ", ") + "] : " + a->ty.str() +
                          " into " + outTy.str());
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
  Ty outTy = Ty::tensor(shape);
  gen.define(outTy, "tensor.expand_shape " + a->name + " [" +
                        llvm::join(groups, ", ") + "] output_shape [" +
                        joinInts(shape) + "] : " + a->ty.str() + " into " +
                        outTy.str());
  return true;
}

static bool emitConcat(Generator &gen) {
  auto a = gen.pickStaticF32Tensor(1);
  if (!a)
    return false;
  Val b = gen.get(a->ty);
  SmallVector<int64_t> shape(a->ty.shape.begin(), a->ty.shape.end());
  shape[0] *= 2;
  Ty outTy = Ty::tensor(shape);
  gen.define(outTy, "tensor.concat dim(0) " + a->name + ", " + b.name + " : (" +
                        a->ty.str() + ", " + a->ty.str() + ") -> " +
                        outTy.str());
  return true;
}

static bool emitPad(Generator &gen) {
  auto a = gen.pickStaticF32Tensor(1);
  if (!a)
    return false;
  std::vector<std::string> blockArgs;
  SmallVector<int64_t> low, high, shape;
  for (int64_t d : a->ty.shape) {
    int64_t l = gen.rng.range(0, 2), h = gen.rng.range(0, 2);
    low.push_back(l);
    high.push_back(h);
    shape.push_back(d + l + h);
    blockArgs.push_back(gen.fresh() + ": index");
  }
  Ty outTy = Ty::tensor(shape);
  // The padding value: captured from above, or a constant in the region.
  bool captured = gen.rng.chance(50);
  Val pad = captured ? gen.getScalar() : Val{};
  Val r{gen.fresh(), outTy};
  gen.line(r.name + " = tensor.pad " + a->name + " low[" + joinInts(low) +
           "] high[" + joinInts(high) + "] {");
  gen.beginBlock(blockArgs);
  std::string value = pad.name;
  if (!captured) {
    value = gen.fresh();
    gen.line(value + " = arith.constant " + formatF32(gen.randomValue()) +
             " : f32");
  }
  gen.line("tensor.yield " + value + " : f32");
  gen.endRegion("} : " + a->ty.str() + " to " + outTy.str());
  gen.add(r);
  return true;
}

static bool emitExtractFromElements(Generator &gen) {
  Val x = gen.getScalar();
  if (gen.rng.chance(50)) {
    Val y = gen.getScalar();
    Ty ty = Ty::tensor({2});
    gen.define(ty, "tensor.from_elements " + x.name + ", " + y.name + " : " +
                       ty.str());
    return true;
  }
  Ty ty = Ty::tensor({});
  gen.define(ty, "tensor.from_elements " + x.name + " : " + ty.str());
  return true;
}

static bool emitSplatOrGenerate(Generator &gen) {
  Ty ty = gen.randomTensorType(1, 3, true);
  Val x = gen.getScalar();
  std::vector<std::string> sizes;
  for (int64_t d : ty.shape)
    if (d == kDynamic)
      sizes.push_back(gen.indexConst(gen.randomDim()));
  Val r{gen.fresh(), ty};
  if (gen.rng.chance(50)) {
    gen.line(r.name + " = tensor.splat " + x.name +
             (sizes.empty() ? "" : "[" + llvm::join(sizes, ", ") + "]") +
             " : " + ty.str());
  } else {
    std::vector<std::string> blockArgs;
    for (unsigned i = 0; i < ty.rank(); ++i)
      blockArgs.push_back(gen.fresh() + ": index");
    gen.line(r.name + " = tensor.generate " + llvm::join(sizes, ", ") + " {");
    gen.beginBlock(blockArgs);
    std::string value = gen.scalarExpr({x.name}, gen.rng.below(3), true);
    gen.line("tensor.yield " + value + " : f32");
    gen.endRegion("} : " + ty.str());
  }
  gen.add(r);
  return true;
}

static bool emitTensorCast(Generator &gen) {
  auto a = gen.pickF32Tensor(1);
  if (!a || gen.options.executable)
    return false;
  Ty outTy = a->ty;
  unsigned d = gen.rng.below(outTy.rank());
  if (outTy.shape[d] == kDynamic)
    return false; // Casting to a static size could be wrong at run time.
  outTy.shape[d] = kDynamic;
  gen.define(outTy, castText("tensor.cast", *a, outTy));
  return true;
}

static bool emitBitcast(Generator &gen) {
  auto a = gen.pickF32Tensor(1);
  if (!a || gen.options.executable)
    return false;
  gen.add(gen.roundTrip(*a, a->ty.withElt("i32"), "tensor.bitcast",
                        "tensor.bitcast")
              .second);
  return true;
}

void mlir::amp::fuzz::gen::registerTensorEmitters(EmitterTable &table) {
  static const Emitter emitters[] = {
      {emitExtractSlice, 2},
      {emitInsertSlice, 1},
      {emitReshape, 2},
      {emitConcat, 1},
      {emitPad, 2},
      {emitExtractFromElements, 1},
      {emitSplatOrGenerate, 1},
      {emitTensorCast, 1},
      {emitBitcast, 1},
  };
  table.add(emitters);
}
