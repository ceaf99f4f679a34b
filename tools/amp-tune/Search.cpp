//===- Search.cpp - amp-tune's search over a ranking, without IR ----------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "Search.h"

using namespace mlir::amp::tune;

llvm::FailureOr<Bisection> mlir::amp::tune::bisectRanking(
    unsigned lo, unsigned hi,
    llvm::function_ref<llvm::FailureOr<bool>(unsigned k)> meets) {
  Bisection result{lo, hi, false};
  while (result.hi - result.lo > 1) {
    unsigned mid = result.lo + (result.hi - result.lo) / 2;
    llvm::FailureOr<bool> met = meets(mid);
    if (llvm::failed(met))
      return llvm::failure();
    if (*met) {
      result.hi = mid;
      result.hiChecked = true;
    } else {
      result.lo = mid;
    }
  }
  return result;
}

llvm::FailureOr<std::vector<unsigned>> mlir::amp::tune::refineGreedy(
    ItemSet &held, llvm::ArrayRef<unsigned> order, unsigned budget,
    llvm::function_ref<llvm::FailureOr<bool>(const ItemSet &attempt,
                                             unsigned item)>
        meets,
    llvm::function_ref<bool(const ItemSet &attempt)> skip) {
  std::vector<unsigned> released;
  for (unsigned item : order) {
    if (budget-- == 0)
      break;
    ItemSet attempt = held;
    if (!attempt.erase(item) || (skip && skip(attempt)))
      continue;
    llvm::FailureOr<bool> met = meets(attempt, item);
    if (llvm::failed(met))
      return llvm::failure();
    if (*met) {
      held = std::move(attempt);
      released.push_back(item);
    }
  }
  return released;
}
