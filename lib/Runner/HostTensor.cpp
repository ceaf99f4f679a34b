//===- HostTensor.cpp - Tensors in host memory for amp-run ----------------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Element access through doubles, conversion between element kinds and the
// seeded random generator. f16 and bf16 values are written through APFloat
// (correct rounding from double) and read with bit manipulation (exact).
//
//===----------------------------------------------------------------------===//

#include "amp/Runner/HostTensor.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/MathExtras.h"

#include <cmath>
#include <cstdlib>
#include <cstring>

using namespace mlir;
using namespace mlir::amp::runner;

//===----------------------------------------------------------------------===//
// Element kinds
//===----------------------------------------------------------------------===//

std::optional<ElementKind> mlir::amp::runner::getElementKind(Type type) {
  if (type.isF64())
    return ElementKind::F64;
  if (type.isF32())
    return ElementKind::F32;
  if (type.isF16())
    return ElementKind::F16;
  if (type.isBF16())
    return ElementKind::BF16;
  if (type.isSignlessInteger(64))
    return ElementKind::I64;
  if (type.isSignlessInteger(32))
    return ElementKind::I32;
  if (type.isSignlessInteger(8))
    return ElementKind::I8;
  if (type.isSignlessInteger(1))
    return ElementKind::I1;
  return std::nullopt;
}

llvm::StringRef mlir::amp::runner::stringifyElementKind(ElementKind kind) {
  switch (kind) {
  case ElementKind::F64:
    return "f64";
  case ElementKind::F32:
    return "f32";
  case ElementKind::F16:
    return "f16";
  case ElementKind::BF16:
    return "bf16";
  case ElementKind::I64:
    return "i64";
  case ElementKind::I32:
    return "i32";
  case ElementKind::I8:
    return "i8";
  case ElementKind::I1:
    return "i1";
  }
  llvm_unreachable("unknown element kind");
}

int64_t mlir::amp::runner::getElementByteSize(ElementKind kind) {
  switch (kind) {
  case ElementKind::F64:
  case ElementKind::I64:
    return 8;
  case ElementKind::F32:
  case ElementKind::I32:
    return 4;
  case ElementKind::F16:
  case ElementKind::BF16:
    return 2;
  case ElementKind::I8:
  case ElementKind::I1:
    return 1;
  }
  llvm_unreachable("unknown element kind");
}

bool mlir::amp::runner::isFloatKind(ElementKind kind) {
  return kind == ElementKind::F64 || kind == ElementKind::F32 ||
         kind == ElementKind::F16 || kind == ElementKind::BF16;
}

std::string mlir::amp::runner::formatShape(llvm::ArrayRef<int64_t> shape) {
  if (shape.empty())
    return "scalar";
  std::string result;
  for (auto [i, dim] : llvm::enumerate(shape)) {
    if (i)
      result += "x";
    result += ShapedType::isDynamic(dim) ? "?" : std::to_string(dim);
  }
  return result;
}

//===----------------------------------------------------------------------===//
// 16-bit floats
//===----------------------------------------------------------------------===//

/// Decodes an IEEE binary16 value (exact).
static double decodeHalf(uint16_t bits) {
  bool negative = bits & 0x8000u;
  unsigned exponent = (bits >> 10) & 0x1fu;
  unsigned mantissa = bits & 0x3ffu;
  double magnitude;
  if (exponent == 0x1f)
    magnitude = mantissa ? std::nan("") : INFINITY;
  else if (exponent == 0)
    magnitude = std::ldexp(static_cast<double>(mantissa), -24);
  else
    magnitude = std::ldexp(static_cast<double>(mantissa | 0x400u),
                           static_cast<int>(exponent) - 25);
  return negative ? -magnitude : magnitude;
}

/// Decodes a bfloat16 value (exact): the upper half of an f32.
static double decodeBFloat(uint16_t bits) {
  uint32_t wide = static_cast<uint32_t>(bits) << 16;
  float value;
  std::memcpy(&value, &wide, sizeof(value));
  return value;
}

/// Rounds `value` to `semantics` (nearest, ties to even) and returns its bits.
static uint16_t encode16(double value, const llvm::fltSemantics &semantics) {
  llvm::APFloat converted(value);
  bool losesInfo = false;
  converted.convert(semantics, llvm::APFloat::rmNearestTiesToEven, &losesInfo);
  return static_cast<uint16_t>(converted.bitcastToAPInt().getZExtValue());
}

//===----------------------------------------------------------------------===//
// HostTensor
//===----------------------------------------------------------------------===//

void HostTensor::FreeDeleter::operator()(void *ptr) const { std::free(ptr); }

HostTensor::HostTensor(ElementKind kind, llvm::ArrayRef<int64_t> shape)
    : kind(kind), shape(shape.begin(), shape.end()) {
  numElements = 1;
  for (int64_t dim : shape)
    numElements *= dim;
  // aligned_alloc wants a size that is a multiple of the alignment.
  size_t bytes = llvm::alignTo(
      std::max<int64_t>(numElements * getElementByteSize(kind), 1), 64);
  data.reset(std::aligned_alloc(64, bytes));
  if (!data)
    llvm::report_fatal_error("amp-run: out of memory allocating a tensor");
  std::memset(data.get(), 0, bytes);
}

double HostTensor::get(int64_t index) const {
  const char *base = static_cast<const char *>(data.get());
  auto load = [&](auto tag) {
    decltype(tag) value;
    std::memcpy(&value, base + index * sizeof(value), sizeof(value));
    return value;
  };
  switch (kind) {
  case ElementKind::F64:
    return load(double());
  case ElementKind::F32:
    return load(float());
  case ElementKind::F16:
    return decodeHalf(load(uint16_t()));
  case ElementKind::BF16:
    return decodeBFloat(load(uint16_t()));
  case ElementKind::I64:
    return static_cast<double>(load(int64_t()));
  case ElementKind::I32:
    return load(int32_t());
  case ElementKind::I8:
    return load(int8_t());
  case ElementKind::I1:
    return load(uint8_t()) & 1;
  }
  llvm_unreachable("unknown element kind");
}

void HostTensor::set(int64_t index, double value) {
  char *base = static_cast<char *>(data.get());
  auto store = [&](auto typed) {
    std::memcpy(base + index * sizeof(typed), &typed, sizeof(typed));
  };
  // Integers: truncation toward zero; NaN and infinities become 0.
  int64_t integer = std::isfinite(value) ? static_cast<int64_t>(value) : 0;
  switch (kind) {
  case ElementKind::F64:
    return store(value);
  case ElementKind::F32:
    return store(static_cast<float>(value));
  case ElementKind::F16:
    return store(encode16(value, llvm::APFloat::IEEEhalf()));
  case ElementKind::BF16:
    return store(encode16(value, llvm::APFloat::BFloat()));
  case ElementKind::I64:
    return store(integer);
  case ElementKind::I32:
    return store(static_cast<int32_t>(integer));
  case ElementKind::I8:
    return store(static_cast<int8_t>(integer));
  case ElementKind::I1:
    return store(static_cast<uint8_t>(value != 0.0));
  }
  llvm_unreachable("unknown element kind");
}

HostTensor HostTensor::convertTo(ElementKind newKind) const {
  if (newKind == kind)
    return clone();
  HostTensor result(newKind, shape);
  for (int64_t i = 0; i < numElements; ++i)
    result.set(i, get(i));
  return result;
}

HostTensor HostTensor::clone() const {
  HostTensor result(kind, shape);
  std::memcpy(result.getData(), getData(), getByteSize());
  return result;
}

//===----------------------------------------------------------------------===//
// Random numbers
//===----------------------------------------------------------------------===//

RandomGenerator::RandomGenerator(uint64_t seed, uint64_t stream) : state(seed) {
  // Mix the stream number in through one SplitMix64 step per word, so that
  // nearby (seed, stream) pairs give unrelated sequences.
  RandomGenerator mixer(seed ^ (stream * 0xd1b54a32d192ed03ull));
  state = mixer.next() ^ stream;
}

uint64_t RandomGenerator::next() {
  uint64_t z = (state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

double RandomGenerator::uniform(double lo, double hi) {
  // 53 random bits give a double uniformly distributed in [0, 1).
  double unit = static_cast<double>(next() >> 11) * 0x1.0p-53;
  return lo + (hi - lo) * unit;
}

int64_t RandomGenerator::uniformInt(int64_t lo, int64_t hi) {
  uint64_t range = static_cast<uint64_t>(hi - lo);
  return lo + static_cast<int64_t>(next() % range);
}

void mlir::amp::runner::fillRandom(HostTensor &tensor, RandomGenerator &rng,
                                   const InputDistribution &distribution) {
  for (int64_t i = 0, e = tensor.getNumElements(); i < e; ++i) {
    if (isFloatKind(tensor.getKind()))
      tensor.set(i, rng.uniform(distribution.floatLo, distribution.floatHi));
    else if (tensor.getKind() == ElementKind::I1)
      tensor.set(i, static_cast<double>(rng.next() >> 63));
    else
      tensor.set(i, static_cast<double>(rng.uniformInt(distribution.intLo,
                                                       distribution.intHi)));
  }
}
