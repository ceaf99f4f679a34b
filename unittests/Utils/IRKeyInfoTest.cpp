//===- IRKeyInfoTest.cpp - Tables keyed by ops and values by address ------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "amp/Utils/IRKeyInfo.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/DenseMap.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::amp;

namespace {

// Objects next to each other in memory get hashes next to each other: within
// an aligned megabyte, the object k 16-byte units further has the hash with
// k flipped in, so objects in one aligned 2^m units share an aligned block
// of 2^m hashes. A walk in program order over ops the parser made in order
// goes through the table's buckets nearly in order.
TEST(IRKeyInfoTest, NeighboursHashToNeighbours) {
  constexpr uintptr_t kMegabyte = uintptr_t(1) << 20;
  for (uintptr_t base : {uintptr_t(0x10000000), uintptr_t(0x5555aa300000)}) {
    const void *first = reinterpret_cast<const void *>(base);
    for (uintptr_t k : {uintptr_t(1), uintptr_t(7), uintptr_t(4095)}) {
      const void *later = reinterpret_cast<const void *>(base + 16 * k);
      EXPECT_EQ(getAddressOrderHash(later) ^ getAddressOrderHash(first), k);
    }
    // A megabyte further, the same offset is mixed elsewhere.
    const void *next = reinterpret_cast<const void *>(base + kMegabyte);
    EXPECT_NE(getAddressOrderHash(next) & 0xffff,
              getAddressOrderHash(first) & 0xffff);
  }
}

// The key infos change buckets only: a table answers as with the default
// hash, through growth and erasure.
TEST(IRKeyInfoTest, TablesAnswerAsWithTheDefaultHash) {
  MLIRContext context;
  context.loadDialect<arith::ArithDialect>();
  OpBuilder builder(&context);
  auto module = ModuleOp::create(builder.getUnknownLoc());
  builder.setInsertionPointToEnd(module.getBody());
  std::vector<Operation *> ops;
  for (int i = 0; i < 5000; ++i)
    ops.push_back(arith::ConstantIntOp::create(builder, builder.getUnknownLoc(),
                                               i, 32));

  llvm::DenseMap<Operation *, int, OpKeyInfo> byOp;
  llvm::DenseMap<Value, int, ValueKeyInfo> byValue;
  llvm::DenseMap<Operation *, int> reference;
  for (auto [i, op] : llvm::enumerate(ops)) {
    byOp[op] = i;
    byValue[op->getResult(0)] = i;
    reference[op] = i;
  }
  for (size_t i = 0; i < ops.size(); i += 2) {
    byOp.erase(ops[i]);
    byValue.erase(ops[i]->getResult(0));
    reference.erase(ops[i]);
  }
  ASSERT_EQ(byOp.size(), reference.size());
  ASSERT_EQ(byValue.size(), reference.size());
  for (auto [i, op] : llvm::enumerate(ops)) {
    auto expected = reference.find(op);
    auto found = byOp.find(op);
    auto foundValue = byValue.find(op->getResult(0));
    if (expected == reference.end()) {
      EXPECT_EQ(found, byOp.end()) << i;
      EXPECT_EQ(foundValue, byValue.end()) << i;
      continue;
    }
    ASSERT_NE(found, byOp.end()) << i;
    ASSERT_NE(foundValue, byValue.end()) << i;
    EXPECT_EQ(found->second, expected->second);
    EXPECT_EQ(foundValue->second, expected->second);
  }
  module->erase();
}

} // namespace
