//===- TestPasses.h - amp's test passes ------------------------*- C++ -*-===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef AMP_TEST_TRANSFORMS_TESTPASSES_H
#define AMP_TEST_TRANSFORMS_TESTPASSES_H

namespace mlir {
namespace amp {
namespace test {

/// --amp-test-precision-patterns (TestPrecisionPatterns.cpp).
void registerTestPrecisionPatternsPass();

} // namespace test
} // namespace amp
} // namespace mlir

#endif // AMP_TEST_TRANSFORMS_TESTPASSES_H
