//===- SourceLines.cpp - The source line of a location --------------------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "SourceLines.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Diagnostics.h"

using namespace mlir;
using namespace mlir::amp;

/// Files larger than this are not read (the report of a model that large
/// goes without source lines).
static constexpr uint64_t kMaxFileSize = uint64_t(256) << 20;
/// Longest line shown.
static constexpr size_t kMaxLineLength = 240;

/// The first file location in `loc`.
static std::optional<FileLineColLoc> findFileLocation(Location loc) {
  std::optional<FileLineColLoc> found;
  loc->walk([&](Location nested) {
    if (auto file = dyn_cast<FileLineColLoc>(nested)) {
      found = file;
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return found;
}

SourceLines::File *SourceLines::getFile(StringRef name) {
  auto [it, inserted] = files.try_emplace(name);
  if (!inserted)
    return it->second.get();
  auto buffer = llvm::MemoryBuffer::getFile(name, /*IsText=*/true,
                                            /*RequiresNullTerminator=*/false);
  if (!buffer || (*buffer)->getBufferSize() > kMaxFileSize)
    return nullptr;
  auto file = std::make_unique<File>();
  file->buffer = std::move(*buffer);
  StringRef text = file->buffer->getBuffer();
  file->lineStarts.push_back(0);
  for (size_t i = 0, e = text.size(); i < e; ++i)
    if (text[i] == '\n')
      file->lineStarts.push_back(i + 1);
  it->second = std::move(file);
  return it->second.get();
}

std::optional<std::string> SourceLines::getLine(Location loc) {
  std::optional<FileLineColLoc> fileLoc = findFileLocation(loc);
  if (!fileLoc || fileLoc->getLine() == 0)
    return std::nullopt;
  File *file = getFile(fileLoc->getFilename().getValue());
  if (!file || fileLoc->getLine() > file->lineStarts.size())
    return std::nullopt;
  StringRef text = file->buffer->getBuffer();
  size_t start = file->lineStarts[fileLoc->getLine() - 1];
  StringRef line = text.substr(start).take_until(
      [](char c) { return c == '\n' || c == '\r'; });
  line = line.trim();
  if (line.empty())
    return std::nullopt;
  if (line.size() > kMaxLineLength)
    return (line.take_front(kMaxLineLength - 3) + "...").str();
  return line.str();
}
