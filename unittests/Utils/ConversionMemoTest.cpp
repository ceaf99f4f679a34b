//===- ConversionMemoTest.cpp - Tests of the per-function conversion memo -===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Inside a ConversionMemo::Scope the conversion utilities answer repeated
// questions from a table: the answers must be those given without a memo,
// the range summary of a converted constant must still be counted at every
// conversion, and scopes must nest and end.
//
//===----------------------------------------------------------------------===//

#include "amp/Analysis/FloatRange.h"
#include "amp/Utils/ConversionMemo.h"
#include "amp/Utils/FloatConversion.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/APFloat.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::amp;

namespace {

class ConversionMemoTest : public ::testing::Test {
protected:
  MLIRContext ctx;
  Builder b{&ctx};

  DenseElementsAttr makeDense(ArrayRef<float> values) {
    auto type = RankedTensorType::get({(int64_t)values.size()}, b.getF32Type());
    return DenseElementsAttr::get(type, values);
  }
};

TEST_F(ConversionMemoTest, AnswersAsWithoutMemo) {
  // 1e6 overflows f16, 1e-9 flushes to zero: the summary is not empty.
  DenseElementsAttr dense = makeDense({1.0f, 1.0e6f, 1.0e-9f, -2.5f});
  FloatAttr scalar = b.getF32FloatAttr(6.0f);
  auto tensor = RankedTensorType::get({2, 3}, b.getF32Type());
  auto vector = VectorType::get({4}, b.getF32Type());

  RangeSummary plainSummary;
  TypedAttr plainDense =
      convertFloatConstant(dense, b.getF16Type(), &plainSummary);
  TypedAttr plainScalar = convertFloatConstant(scalar, b.getBF16Type());
  RangeSummary plainRange = checkFloatRange(dense, b.getBF16Type());

  ConversionMemo memo;
  ConversionMemo::Scope scope(memo);
  EXPECT_EQ(ConversionMemo::getActive(), &memo);
  for (int round = 0; round < 2; ++round) {
    RangeSummary summary;
    EXPECT_EQ(convertFloatConstant(dense, b.getF16Type(), &summary),
              plainDense);
    EXPECT_EQ(summary.numOverflow, plainSummary.numOverflow);
    EXPECT_EQ(summary.numUnderflow + summary.numNegligible,
              plainSummary.numUnderflow + plainSummary.numNegligible);
    EXPECT_EQ(summary.numValues, 4);
    EXPECT_EQ(convertFloatConstant(scalar, b.getBF16Type()), plainScalar);
    RangeSummary range = checkFloatRange(dense, b.getBF16Type());
    EXPECT_EQ(range.numValues, plainRange.numValues);
    EXPECT_EQ(range.numOverflow, plainRange.numOverflow);
    EXPECT_EQ(cloneWithElementType(tensor, b.getF16Type()),
              RankedTensorType::get({2, 3}, b.getF16Type()));
    EXPECT_EQ(cloneWithElementType(vector, b.getBF16Type()),
              VectorType::get({4}, b.getBF16Type()));
    EXPECT_EQ(cloneWithElementType(b.getF32Type(), b.getF16Type()),
              b.getF16Type());
  }
  EXPECT_EQ(memo.constants.size(), 2u);
  // The three asked for, and the dense constant's tensor<4xf16>.
  EXPECT_EQ(memo.types.size(), 4u);
}

TEST_F(ConversionMemoTest, SummaryIsCountedAtEveryConversion) {
  DenseElementsAttr dense = makeDense({1.0e6f, 2.0f});
  ConversionMemo memo;
  ConversionMemo::Scope scope(memo);
  RangeSummary total;
  (void)convertFloatConstant(dense, b.getF16Type(), &total);
  (void)convertFloatConstant(dense, b.getF16Type(), &total);
  EXPECT_EQ(total.numOverflow, 2);
  EXPECT_EQ(total.numValues, 4);
  // Another target is another entry.
  (void)convertFloatConstant(dense, b.getBF16Type(), &total);
  EXPECT_EQ(memo.constants.size(), 2u);
  EXPECT_EQ(total.numValues, 6);
}

TEST_F(ConversionMemoTest, ScopesNestAndEnd) {
  EXPECT_EQ(ConversionMemo::getActive(), nullptr);
  ConversionMemo outer, inner;
  {
    ConversionMemo::Scope outerScope(outer);
    {
      ConversionMemo::Scope innerScope(inner);
      EXPECT_EQ(ConversionMemo::getActive(), &inner);
      (void)cloneWithElementType(RankedTensorType::get({1}, b.getF32Type()),
                                 b.getF16Type());
    }
    EXPECT_EQ(ConversionMemo::getActive(), &outer);
  }
  EXPECT_EQ(ConversionMemo::getActive(), nullptr);
  EXPECT_EQ(inner.types.size(), 1u);
  EXPECT_TRUE(outer.types.empty());
}

TEST_F(ConversionMemoTest, LargestFiniteAgreesWithAPFloat) {
  for (FloatType type : {FloatType(b.getF16Type()), FloatType(b.getBF16Type()),
                         FloatType(b.getF32Type()), FloatType(b.getF64Type())})
    EXPECT_EQ(getLargestFinite(type),
              llvm::APFloat::getLargest(type.getFloatSemantics())
                  .convertToDouble());
}

TEST_F(ConversionMemoTest, FloatAttrValuesAsWithoutMemo) {
  SmallVector<FloatAttr> attrs = {
      b.getF32FloatAttr(6.0f), b.getF32FloatAttr(-0.1f),
      b.getF16FloatAttr(0.1f), b.getFloatAttr(b.getBF16Type(), 3.0e38),
      b.getF64FloatAttr(1.0e300)};
  SmallVector<double> plain;
  for (FloatAttr attr : attrs)
    plain.push_back(getFloatAttrValue(attr));
  EXPECT_EQ(plain[0], 6.0);
  EXPECT_EQ(plain[1], static_cast<double>(-0.1f));
  EXPECT_EQ(plain[4], 1.0e300);

  ConversionMemo memo;
  ConversionMemo::Scope scope(memo);
  for (int round = 0; round < 2; ++round)
    for (auto [attr, value] : llvm::zip(attrs, plain))
      EXPECT_EQ(getFloatAttrValue(attr), value);
  EXPECT_EQ(memo.floatValues.size(), attrs.size());
}

} // namespace
