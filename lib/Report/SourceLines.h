//===- SourceLines.h - The source line of a location ------------*- C++ -*-===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Reads the lines that file locations point at, for the report to show
// next to each op. Each file is read once; files that cannot be read (or
// are too large to be worth it) give no lines.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_LIB_REPORT_SOURCELINES_H
#define AMP_LIB_REPORT_SOURCELINES_H

#include "mlir/IR/Location.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/MemoryBuffer.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mlir {
namespace amp {

class SourceLines {
public:
  /// The line `loc` points at (the first file location in it), without
  /// leading and trailing blanks and shortened to a readable length.
  std::optional<std::string> getLine(Location loc);

private:
  struct File {
    std::unique_ptr<llvm::MemoryBuffer> buffer;
    /// Offsets of the first character of each line.
    std::vector<size_t> lineStarts;
  };
  /// The file, read on first use; null if it cannot be read.
  File *getFile(StringRef name);

  llvm::StringMap<std::unique_ptr<File>> files;
};

} // namespace amp
} // namespace mlir

#endif // AMP_LIB_REPORT_SOURCELINES_H
