//===- UpperFormats.cpp - Weight-only formats between the lowest and 16 bits
//-===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Stage (d) of amp-tune's weight-only search (--precisions=int4-g128,int8,
// bf16): stage (c) moved the contractions the lowest format costs too much
// to 16 bits; each upper format, lowest first, takes back as many of them
// as the tolerance allows. The moved contractions keep (c)'s ranking (most
// error per multiply-add first): all of them in the format is tried first,
// then a bisection finds the fewest, first in the ranking, to leave in 16
// bits. What stays in 16 bits goes on to the next format.
//
//===----------------------------------------------------------------------===//

#include "Tuner.h"

#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::amp;
using namespace mlir::amp::tune;

LogicalResult Tuner::searchUpperFormats(const TagSet &red, TuneResult &result) {
  if (config.upperFormats.empty() || result.demotedTags.empty())
    return success();
  TagSet demoted(result.demotedTags.begin(), result.demotedTags.end());
  // In (c)'s ranking order: the most error per multiply-add first.
  std::vector<unsigned> inSixteen;
  for (const Candidate &c : result.fp8Candidates)
    if (demoted.contains(c.tag))
      inSixteen.push_back(c.tag);
  for (auto [index, format] : llvm::enumerate(config.upperFormats)) {
    unsigned n = inSixteen.size();
    if (n == 0)
      break;
    // The last `n - k` of the ranking at this format, the first k in 16
    // bits.
    auto place = [&, index = index](unsigned k) {
      for (unsigned i = 0; i < n; ++i) {
        if (i < k)
          upperFormatOf.erase(inSixteen[i]);
        else
          upperFormatOf[inSixteen[i]] = index;
      }
    };
    auto tryK = [&, format = format.first](unsigned k) -> FailureOr<bool> {
      place(k);
      return meets(red, demoted,
                   llvm::formatv("{0} in FP32, {1} of {2} moved in {3}",
                                 red.size(), n - k, n, format)
                       .str());
    };
    FailureOr<bool> all = tryK(0);
    if (failed(all))
      return failure();
    unsigned keep = 0;
    if (!*all) {
      // k = 0 misses (just run); k = n is (c)'s result, which met.
      FailureOr<Bisection> bisection = bisectRanking(0, n, tryK);
      if (failed(bisection))
        return failure();
      keep = bisection->hi;
    }
    place(keep);
    inSixteen.resize(keep);
  }
  return success();
}
