//===- FuzzerMain.cpp - Run a fuzz target on files, without libFuzzer -----===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The main() of a fuzz target built without libFuzzer (any compiler): it
// calls LLVMFuzzerTestOneInput on every file named on the command line, and
// on every regular file of every directory named there, in sorted order, and
// says how many it ran. Flags of libFuzzer (arguments starting with '-') are
// ignored, so the same command line works for both builds.
//
//===----------------------------------------------------------------------===//

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerInitialize(int *argc, char ***argv);
extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int main(int argc, char **argv) {
  LLVMFuzzerInitialize(&argc, &argv);
  llvm::SmallVector<std::string> files;
  for (int i = 1; i < argc; ++i) {
    llvm::StringRef arg = argv[i];
    if (arg.starts_with("-"))
      continue;
    if (!llvm::sys::fs::is_directory(arg)) {
      files.push_back(arg.str());
      continue;
    }
    std::error_code ec;
    for (llvm::sys::fs::directory_iterator it(arg, ec), end; it != end && !ec;
         it.increment(ec))
      if (llvm::sys::fs::is_regular_file(it->path()))
        files.push_back(it->path());
  }
  std::sort(files.begin(), files.end());
  for (const std::string &file : files) {
    auto buffer = llvm::MemoryBuffer::getFile(file, /*IsText=*/false,
                                              /*RequiresNullTerminator=*/false);
    if (!buffer) {
      llvm::errs() << "cannot read " << file << ": "
                   << buffer.getError().message() << "\n";
      return 1;
    }
    LLVMFuzzerTestOneInput(
        reinterpret_cast<const uint8_t *>((*buffer)->getBufferStart()),
        (*buffer)->getBufferSize());
  }
  llvm::outs() << "ran " << files.size() << " inputs\n";
  return 0;
}
