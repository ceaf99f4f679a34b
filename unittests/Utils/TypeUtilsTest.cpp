//===- TypeUtilsTest.cpp - Element counts of the cost models --------------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// getStaticElementCount, the one element counter of the cut and the
// conversion's byte counts: static dimensions multiply, a dynamic one counts
// as 1, a dimension of size 0 makes an empty tensor (0 elements, it moves
// nothing), scalars and unranked types count 1, and huge counts saturate.
//
//===----------------------------------------------------------------------===//

#include "amp/Utils/TypeUtils.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/MLIRContext.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace mlir::amp;

namespace {

TEST(TypeUtilsTest, StaticElementCount) {
  MLIRContext ctx;
  Type f32 = Float32Type::get(&ctx);
  int64_t dyn = ShapedType::kDynamic;
  EXPECT_EQ(getStaticElementCount(f32), 1);
  EXPECT_EQ(getStaticElementCount(RankedTensorType::get({}, f32)), 1);
  EXPECT_EQ(getStaticElementCount(RankedTensorType::get({2, 3, 4}, f32)), 24);
  EXPECT_EQ(getStaticElementCount(VectorType::get({8, 4}, f32)), 32);
  EXPECT_EQ(getStaticElementCount(MemRefType::get({5, 7}, f32)), 35);
  // A dynamic dimension is at least 1.
  EXPECT_EQ(getStaticElementCount(RankedTensorType::get({dyn, 16}, f32)), 16);
  // An empty tensor moves nothing, whatever its other dimensions.
  EXPECT_EQ(getStaticElementCount(RankedTensorType::get({0, 16}, f32)), 0);
  EXPECT_EQ(getStaticElementCount(RankedTensorType::get({dyn, 0}, f32)), 0);
  EXPECT_EQ(getStaticElementCount(UnrankedTensorType::get(f32)), 1);
  // Saturates rather than overflowing.
  int64_t big = int64_t(1) << 40;
  EXPECT_EQ(getStaticElementCount(RankedTensorType::get({big, big}, f32)),
            kMaxElementCount);
  EXPECT_EQ(getStaticElementCount(RankedTensorType::get({big, big, 0}, f32)),
            0);
}

} // namespace
