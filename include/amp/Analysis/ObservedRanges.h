//===- ObservedRanges.h - Value ranges observed on sample inputs -*- C++
//-*-===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The ranges of values that a model's ops produced when it ran in FP32 on
// sample inputs (`amp-run --calibrate=RANGES.json`), and how they are keyed
// so that `--amp-mixed-precision="ranges=RANGES.json"` finds them again.
//
// The key of a value is its function, the index of the value among the
// function's observed values (every float ranked-tensor result of an op in
// pre-order, results in order; not constants, whose values are known, nor
// tensor.empty, which has none, nor tensor.cast, which holds its source's),
// the op's name and its location. The index finds the entry; the name and the
// location check it (the file's directory aside, isSameLocation): an entry
// whose name or location differ is stale (the model changed since the
// calibration) and is ignored with a warning.
//
// The arguments of a function (float ranked tensors) are observed too, keyed
// by their position, in a section of their own ("arguments"): the FP8
// conversion scales a function's inputs with them.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_ANALYSIS_OBSERVEDRANGES_H
#define AMP_ANALYSIS_OBSERVEDRANGES_H

#include "mlir/IR/Operation.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

#include <cstdint>
#include <string>
#include <vector>

namespace mlir {
namespace amp {

/// What was observed of one value over all samples.
struct ObservedRange {
  std::string op;       // op name, checked
  std::string location; // printed location, checked
  unsigned result = 0;
  double maxAbs = 0;                     // over finite elements
  int64_t count = 0;                     // elements seen
  int64_t nonfinite = 0;                 // NaN and infinities
  int64_t beyondF16 = 0, beyondBF16 = 0; // |x| above the largest finite
  int64_t belowF16Normal = 0, belowBF16Normal = 0; // 0 < |x| < smallest normal

  /// Adds the elements of `values` (strided access is the caller's).
  void add(double x);
  void merge(const ObservedRange &other);
  llvm::json::Object toJson(unsigned index) const;
};

/// Calls `fn(op, result, index)` for every observed value of `function`, in
/// the order that defines the indices.
void forEachObservedValue(
    FunctionOpInterface function,
    llvm::function_ref<void(Operation *, unsigned, unsigned)> fn);

/// A stable printed form of `loc` ("file:line:col", a name, or "unknown").
std::string describeLocation(Location loc);

/// Whether a recorded location and the printed location of an op name the
/// same place: equal, or "file:line:col" with equal line and column and the
/// same file name in any directory (a model calibrated as `models/m.mlir`
/// and converted as `./m.mlir`).
bool isSameLocation(llvm::StringRef recorded, llvm::StringRef current);

/// The observed ranges of a model, by function and index.
class ObservedRanges {
public:
  /// Reads a RANGES.json file.
  static llvm::Expected<ObservedRanges> load(llvm::StringRef path);
  /// Writes JSON (with `model` and `samples` for the reader).
  llvm::json::Value toJson(llvm::StringRef model, int64_t samples) const;

  /// The entries of `function`, indexed as forEachObservedValue counts.
  std::vector<ObservedRange> &entries(llvm::StringRef function) {
    return functions[function];
  }
  /// The entries of `function`, or null if the file has none for it.
  const std::vector<ObservedRange> *find(llvm::StringRef function) const {
    auto it = functions.find(function);
    return it == functions.end() ? nullptr : &it->second;
  }
  /// The entry of (function, index), or null.
  const ObservedRange *lookup(llvm::StringRef function, unsigned index) const;
  bool empty() const { return functions.empty(); }

  /// The entries of the arguments of `function`, by position.
  std::vector<ObservedRange> &argumentEntries(llvm::StringRef function) {
    return arguments[function];
  }
  /// The entry of argument `position` of `function`, or null (also for
  /// files written before arguments were observed).
  const ObservedRange *lookupArgument(llvm::StringRef function,
                                      unsigned position) const;

private:
  llvm::StringMap<std::vector<ObservedRange>> functions, arguments;
};

/// The name the entries of function arguments carry in place of an op name.
constexpr llvm::StringLiteral kObservedArgumentName = "argument";

/// The largest finite magnitude and the smallest normal of f16 and bf16.
constexpr double kF16Max = 65504.0, kBF16Max = 3.3895313892515355e38;
constexpr double kF16MinNormal = 6.103515625e-05,
                 kBF16MinNormal = 1.1754943508222875e-38;

} // namespace amp
} // namespace mlir

#endif // AMP_ANALYSIS_OBSERVEDRANGES_H
