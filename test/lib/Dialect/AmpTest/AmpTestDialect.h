//===- AmpTestDialect.h - A user policy defined outside amp -----*- C++ -*-===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef AMP_TEST_LIB_DIALECT_AMPTEST_AMPTESTDIALECT_H
#define AMP_TEST_LIB_DIALECT_AMPTEST_AMPTESTDIALECT_H

#include "amp/IR/AmpInterfaces.h"
#include "mlir/IR/Dialect.h"

#include "AmpTestDialect.h.inc"

#define GET_ATTRDEF_CLASSES
#include "AmpTestAttrs.h.inc"

namespace mlir {
namespace amp {
namespace test {
void registerAmpTestDialect(DialectRegistry &registry);
} // namespace test
} // namespace amp
} // namespace mlir

#endif // AMP_TEST_LIB_DIALECT_AMPTEST_AMPTESTDIALECT_H
