//===- OpNames.h - Check op names given in pass options ---------*- C++ -*-===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Pass options that name ops (green=, ops=, ...) check the names the same
// way: an unknown name is an error that suggests the closest registered name.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_UTILS_OPNAMES_H
#define AMP_UTILS_OPNAMES_H

#include "mlir/IR/MLIRContext.h"
#include "mlir/Support/LLVM.h"

#include <optional>

namespace mlir {
namespace amp {

/// The registered op name of the same dialect closest to `name`, if it is
/// close enough to be a typo (edit distance below 3).
std::optional<StringRef> suggestOpName(MLIRContext *ctx, StringRef name);

/// What checkOpName found.
enum class OpNameStatus {
  /// A registered op.
  Registered,
  /// An op of an unregistered dialect, legitimate with
  /// --allow-unregistered-dialect.
  Unregistered,
  /// No such op.
  Unknown,
};

/// Classifies `name` as a registered op, an acceptable unregistered one, or
/// an unknown one. When it is unknown, `reason` receives the end of an error
/// message: "(no dialect 'foo' is registered)" or "(did you mean 'x.y'?)", or
/// stays empty. With `loadDialect`, the op's dialect is loaded from the
/// registry first (not allowed while passes run in parallel); without it,
/// only loaded dialects count.
OpNameStatus checkOpName(MLIRContext *ctx, StringRef name, std::string &reason,
                         bool loadDialect = true);

} // namespace amp
} // namespace mlir

#endif // AMP_UTILS_OPNAMES_H
