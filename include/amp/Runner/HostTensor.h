//===- HostTensor.h - Tensors in host memory for amp-run --------*- C++ -*-===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The data amp-run passes to and reads from JIT-compiled code: a dense,
// row-major, 64-byte aligned buffer of one of the supported element types,
// with element access through doubles (f16 and bf16 are rounded to nearest,
// ties to even), and a seeded random generator that gives the same numbers on
// every platform.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_RUNNER_HOSTTENSOR_H
#define AMP_RUNNER_HOSTTENSOR_H

#include "mlir/IR/Types.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace mlir {
namespace amp {
namespace runner {

/// The element types amp-run can pass to and read from compiled code.
enum class ElementKind { F64, F32, F16, BF16, I64, I32, I8, I1 };

/// Returns the element kind of `type`, or std::nullopt if amp-run does not
/// support it.
std::optional<ElementKind> getElementKind(Type type);

/// Returns the MLIR spelling of `kind` ("f32", "bf16", "i1", ...).
llvm::StringRef stringifyElementKind(ElementKind kind);

/// Returns the size of one element in memory (i1 takes one byte).
int64_t getElementByteSize(ElementKind kind);

/// Returns true for f64, f32, f16 and bf16.
bool isFloatKind(ElementKind kind);

/// Formats a shape as "1x3x32x32" ("scalar" for rank 0).
std::string formatShape(llvm::ArrayRef<int64_t> shape);

/// A dense row-major tensor in host memory.
class HostTensor {
public:
  HostTensor(ElementKind kind, llvm::ArrayRef<int64_t> shape);

  ElementKind getKind() const { return kind; }
  llvm::ArrayRef<int64_t> getShape() const { return shape; }
  int64_t getNumElements() const { return numElements; }
  int64_t getByteSize() const { return numElements * getElementByteSize(kind); }

  /// The 64-byte aligned data (never null, even for empty tensors).
  void *getData() { return data.get(); }
  const void *getData() const { return data.get(); }

  /// Reads element `index` (row-major) as a double.
  double get(int64_t index) const;
  /// Writes element `index`, rounding `value` to the element type (nearest,
  /// ties to even, for floats; truncation toward zero for integers, and
  /// `value != 0` for i1).
  void set(int64_t index, double value);

  /// Returns a copy converted element by element to `newKind`.
  HostTensor convertTo(ElementKind newKind) const;
  /// Returns a deep copy.
  HostTensor clone() const;

private:
  struct FreeDeleter {
    void operator()(void *ptr) const;
  };

  ElementKind kind;
  llvm::SmallVector<int64_t, 4> shape;
  int64_t numElements;
  std::unique_ptr<void, FreeDeleter> data;
};

/// A small, fast, seeded pseudo-random generator (SplitMix64). Unlike the
/// standard distributions, its numbers are the same on every platform.
class RandomGenerator {
public:
  explicit RandomGenerator(uint64_t seed) : state(seed) {}
  /// Derives a generator for stream `stream` of `seed` (one per tensor), so
  /// that streams do not depend on how many numbers other streams drew.
  RandomGenerator(uint64_t seed, uint64_t stream);

  /// The next 64 random bits.
  uint64_t next();
  /// A double uniformly distributed in [lo, hi).
  double uniform(double lo, double hi);
  /// An integer uniformly distributed in [lo, hi) (hi > lo).
  int64_t uniformInt(int64_t lo, int64_t hi);

private:
  uint64_t state;
};

/// How random inputs are drawn.
struct InputDistribution {
  /// Floats are uniform in [floatLo, floatHi).
  double floatLo = -1.0, floatHi = 1.0;
  /// Integers (i8, i32, i64) are uniform in [intLo, intHi); i1 is 0 or 1.
  /// The default, 0 or 1, is a valid mask and a valid index.
  int64_t intLo = 0, intHi = 2;
};

/// Fills `tensor` with random values of `distribution` from `rng`.
void fillRandom(HostTensor &tensor, RandomGenerator &rng,
                const InputDistribution &distribution);

} // namespace runner
} // namespace amp
} // namespace mlir

#endif // AMP_RUNNER_HOSTTENSOR_H
