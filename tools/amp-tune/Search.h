//===- Search.h - amp-tune's search over a ranking, without IR --*- C++ -*-===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The two steps both of amp-tune's searches take (which ops to keep in FP32,
// which FP8 contractions to move to 16 bits), written once and over plain
// numbers so that they can be tested with a fake oracle:
//
//  - bisectRanking: over a ranking of n items, finds the boundary between
//    "the first k held back misses the tolerance" and "meets it", assuming
//    that holding back more never hurts;
//  - refineGreedy: from a held set that meets, tries to release items one at
//    a time, keeping each release that still meets, within a trial budget.
//
// An oracle runs one trial: it fails (after its own error message) when the
// trial could not be run, and says otherwise whether the trial met.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_TOOLS_AMP_TUNE_SEARCH_H
#define AMP_TOOLS_AMP_TUNE_SEARCH_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/LogicalResult.h"

#include <vector>

namespace mlir::amp::tune {

/// Item ids (amp-tune's op tags).
using ItemSet = llvm::DenseSet<unsigned>;

/// Where a bisection ended: holding back the first `lo` items misses, the
/// first `hi` meets. `hiChecked` says whether a trial showed that `hi`
/// meets; when it is false, `hi` is the `hi` the search started from,
/// taken to meet without a trial.
struct Bisection {
  unsigned lo = 0, hi = 0;
  bool hiChecked = false;
};

/// Bisects (lo, hi): `meets(k)` runs the trial that holds back the first k
/// items. Takes lo to miss and hi to meet, which the caller knows or
/// checks.
llvm::FailureOr<Bisection>
bisectRanking(unsigned lo, unsigned hi,
              llvm::function_ref<llvm::FailureOr<bool>(unsigned k)> meets);

/// Tries to take each item of `order` out of `held`, in that order: an
/// attempt is `held` without the item, and `meets(attempt, item)` runs its
/// trial; a release that meets is kept. Each item considered costs one of
/// `budget` trials, also when `skip(attempt)` says the attempt is known to
/// miss (so is not run). Returns the items released, in the order they
/// were; `held` is left without them.
llvm::FailureOr<std::vector<unsigned>>
refineGreedy(ItemSet &held, llvm::ArrayRef<unsigned> order, unsigned budget,
             llvm::function_ref<llvm::FailureOr<bool>(const ItemSet &attempt,
                                                      unsigned item)>
                 meets,
             llvm::function_ref<bool(const ItemSet &attempt)> skip = nullptr);

} // namespace mlir::amp::tune

#endif // AMP_TOOLS_AMP_TUNE_SEARCH_H
