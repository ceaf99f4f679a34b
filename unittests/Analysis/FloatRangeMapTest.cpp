//===- FloatRangeMapTest.cpp - attainsBeyond bounds every lookup ----------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// FloatRangeMap::attainsBeyond lets the precision plan skip its range
// lookups: it must be true whenever some lookup attains a bound beyond the
// limit (constants whose ranges are recomputed rather than stored, stored
// results, payload constants), and false when none does (+-FLT_MAX, the
// "lowest"/"highest" sentinel, does not count).
//
//===----------------------------------------------------------------------===//

#include "amp/Analysis/FloatRange.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace mlir;
using namespace mlir::amp;

namespace {

constexpr double kF16Largest = 65504.0;

class FloatRangeMapTest : public ::testing::Test {
protected:
  FloatRangeMapTest() {
    DialectRegistry registry;
    registry.insert<arith::ArithDialect, func::FuncDialect,
                    linalg::LinalgDialect, tensor::TensorDialect,
                    tosa::TosaDialect>();
    ctx.appendDialectRegistry(registry);
    ctx.loadAllAvailableDialects();
  }

  /// The map of the first function of `source`; checks that attainsBeyond
  /// holds below every attained bound that a lookup of a value of that
  /// function shows.
  std::unique_ptr<FloatRangeMap> analyze(const char *source) {
    module = parseSourceString<ModuleOp>(source, &ctx);
    EXPECT_TRUE(module);
    func = *module->getOps<func::FuncOp>().begin();
    auto map = std::make_unique<FloatRangeMap>(func);
    constexpr double sentinel = std::numeric_limits<float>::max();
    auto check = [&](Value value) {
      FloatRange range = map->lookup(value);
      if (!range.isInterval())
        return;
      for (auto [attained, bound] :
           {std::pair(range.isLoAttained(), range.getLo()),
            std::pair(range.isHiAttained(), range.getHi())}) {
        if (attained && bound != 0 && std::abs(bound) != sentinel) {
          EXPECT_TRUE(
              map->attainsBeyond(std::nextafter(std::abs(bound), 0.0)))
              << "a bound of " << bound << " is attained";
        }
      }
    };
    func.walk([&](Operation *op) {
      for (Value result : op->getResults())
        check(result);
    });
    return map;
  }

  MLIRContext ctx;
  OwningOpRef<ModuleOp> module;
  func::FuncOp func;
};

TEST_F(FloatRangeMapTest, SmallConstantsAndUnknownInputs) {
  auto map = analyze(R"mlir(
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c = "tosa.const"() <{values = dense<0.5> : tensor<4xf32>}> : () -> tensor<4xf32>
  %s = tosa.add %x, %c : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %r = tosa.clamp %s {max_val = 6.0 : f32, min_val = 0.0 : f32} : (tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}
)mlir");
  EXPECT_FALSE(map->attainsBeyond(kF16Largest));
  EXPECT_TRUE(map->attainsBeyond(0.25));
}

TEST_F(FloatRangeMapTest, RecomputedSplatConstantCounts) {
  // A splat constant's range is recomputed on lookup, not stored.
  auto map = analyze(R"mlir(
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c = "tosa.const"() <{values = dense<100000.0> : tensor<4xf32>}> : () -> tensor<4xf32>
  %s = tosa.add %x, %c : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %s : tensor<4xf32>
}
)mlir");
  EXPECT_TRUE(map->attainsBeyond(kF16Largest));
  EXPECT_FALSE(map->attainsBeyond(1e6));
}

TEST_F(FloatRangeMapTest, ComputedResultCounts) {
  // 300 * 300 = 90000: small constants, a result beyond f16.
  auto map = analyze(R"mlir(
func.func @f() -> f32 {
  %a = arith.constant 300.0 : f32
  %p = arith.mulf %a, %a : f32
  return %p : f32
}
)mlir");
  EXPECT_TRUE(map->attainsBeyond(kF16Largest));
  EXPECT_FALSE(map->attainsBeyond(90000.0));
}

TEST_F(FloatRangeMapTest, SentinelDoesNotCount) {
  // -FLT_MAX is a max-reduction's "lowest": it maps to the target's own
  // largest value.
  auto map = analyze(R"mlir(
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c = arith.constant dense<-3.40282347e+38> : tensor<4xf32>
  %m = arith.maximumf %x, %c : tensor<4xf32>
  return %m : tensor<4xf32>
}
)mlir");
  EXPECT_FALSE(map->attainsBeyond(kF16Largest));
}

TEST_F(FloatRangeMapTest, PayloadConstantCounts) {
  auto map = analyze(R"mlir(
#id = affine_map<(d0) -> (d0)>
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %big = arith.constant 200000.0 : f32
    %y = arith.minimumf %in, %big : f32
    linalg.yield %y : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}
)mlir");
  EXPECT_TRUE(map->attainsBeyond(kF16Largest));
}

} // namespace
