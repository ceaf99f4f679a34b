//===- GraphGenerator.h - Random valid FP32 graphs for amp ------*- C++ -*-===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A structured generator: it writes random modules that verify, built from
// the op families --amp-mixed-precision handles (linalg named ops, generics,
// map/reduce/softmax, convolutions and pooling; TOSA 1.0 ops; arith, math,
// tensor and vector ops; scf.for/if/while and cf branches; several functions
// and calls between them), over static and dynamic shapes, rank 0 to 4,
// with constants that do and do not fit 16 bits (overflow, flush to zero,
// +-FLT_MAX sentinels, inf, nan, dense_resource blobs), values the user
// already cast to f16/bf16/f64, integers, memrefs, vectors and, optionally,
// unregistered ops.
//
// Every random choice is drawn from an Entropy: a seeded PRNG for the
// standalone driver (amp-graphgen) or the input bytes of a libFuzzer run
// (amp-graph-fuzzer), so a seed or an input reproduces a module exactly.
// The generator emits text; the caller parses and verifies it (a module that
// does not verify is a bug of the generator, never of amp).
//
//===----------------------------------------------------------------------===//

#ifndef AMP_FUZZ_GRAPHGENERATOR_H
#define AMP_FUZZ_GRAPHGENERATOR_H

#include "llvm/ADT/ArrayRef.h"

#include <cstdint>
#include <random>
#include <string>

namespace mlir {
namespace amp {
namespace fuzz {

/// The source of every random choice of the generator.
class Entropy {
public:
  virtual ~Entropy() = default;
  /// Returns a value in [0, bound); 0 when bound is 0 or 1.
  virtual uint64_t below(uint64_t bound) = 0;

  /// True with probability `percent`/100.
  bool chance(unsigned percent) { return below(100) < percent; }
  /// A value in [lo, hi].
  int64_t range(int64_t lo, int64_t hi) {
    return lo + static_cast<int64_t>(below(hi - lo + 1));
  }
  template <typename T>
  const T &pick(llvm::ArrayRef<T> items) {
    return items[below(items.size())];
  }
};

/// Entropy from a seeded 64-bit Mersenne twister.
class SeededEntropy : public Entropy {
public:
  explicit SeededEntropy(uint64_t seed) : engine(seed) {}
  uint64_t below(uint64_t bound) override {
    return bound <= 1 ? 0 : engine() % bound;
  }

private:
  std::mt19937_64 engine;
};

/// Entropy read from a byte string (a fuzzer's input); 0 once exhausted, so
/// that generation always terminates.
class ByteEntropy : public Entropy {
public:
  ByteEntropy(const uint8_t *data, size_t size) : data(data), size(size) {}
  uint64_t below(uint64_t bound) override {
    if (bound <= 1)
      return 0;
    uint64_t value = 0;
    for (uint64_t range = 1; range < bound && pos < size; range <<= 8)
      value = (value << 8) | data[pos++];
    return value % bound;
  }

private:
  const uint8_t *data;
  size_t size;
  size_t pos = 0;
};

/// What the generator may use.
struct GeneratorOptions {
  unsigned maxFunctions = 3;
  unsigned maxOpsPerFunction = 24;
  /// Nesting depth of scf/cf regions.
  unsigned maxDepth = 2;
  bool dynamicShapes = true;
  bool tosa = true;
  /// Unregistered ops ("foo.op"): the module must then be parsed with
  /// unregistered dialects allowed.
  bool unregisteredOps = false;
  /// Only what a JIT can run with defined results: no memref arguments, no
  /// unregistered ops, no scf.while, no dynamic shapes, no integer
  /// conversions of out-of-range values; every function can be called with
  /// the arguments a harness makes (see emitHarness).
  bool executable = false;
};

/// A generated module.
struct GeneratedModule {
  std::string text;
  /// The number of ops written (an estimate of the module's size).
  unsigned numOps = 0;
  /// True if it holds unregistered ops.
  bool usesUnregistered = false;
};

/// Writes one random module.
GeneratedModule generateModule(Entropy &entropy,
                               const GeneratorOptions &options);

} // namespace fuzz
} // namespace amp
} // namespace mlir

#endif // AMP_FUZZ_GRAPHGENERATOR_H
