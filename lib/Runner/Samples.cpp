//===- Samples.cpp - Sample inputs of a model for amp-run -----------------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "amp/Runner/Samples.h"
#include "amp/Runner/NumpyFile.h"

#include "mlir/IR/Location.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

using namespace mlir;
using namespace mlir::amp;
using namespace mlir::amp::runner;

static llvm::Error error(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

/// The names an array may have to go to argument `i` of `entry`.
static std::vector<std::string> argumentNames(func::FuncOp entry, unsigned i) {
  std::vector<std::string> names = {
      "arr_" + std::to_string(i), std::to_string(i), "arg" + std::to_string(i)};
  if (auto name = dyn_cast<NameLoc>(entry.getArgument(i).getLoc()))
    names.push_back(name.getName().str());
  return names;
}

/// "argument 1 (%arg1: tensor<2x3xf32>)".
static std::string describeArgument(func::FuncOp entry, unsigned i) {
  std::string type;
  llvm::raw_string_ostream os(type);
  os << entry.getArgument(i).getType();
  return "argument " + std::to_string(i) + " (" + type + ")";
}

/// Makes a sample of `arrays` (read from `where`).
static llvm::Expected<Sample> makeSample(std::vector<NumpyArray> arrays,
                                         llvm::StringRef where,
                                         func::FuncOp entry,
                                         const FunctionSignature &signature) {
  Sample sample;
  sample.name = where.str();
  std::vector<bool> used(arrays.size(), false);
  for (unsigned i = 0; i < signature.arguments.size(); ++i) {
    std::vector<std::string> names = argumentNames(entry, i);
    int found = -1;
    for (unsigned a = 0; a < arrays.size(); ++a)
      if (llvm::is_contained(names, arrays[a].name)) {
        if (found >= 0)
          return error(where + ": arrays '" + arrays[found].name + "' and '" +
                       arrays[a].name + "' both name " +
                       describeArgument(entry, i));
        found = static_cast<int>(a);
      }
    // A single array for a single argument needs no particular name.
    if (found < 0 && arrays.size() == 1 && signature.arguments.size() == 1)
      found = 0;
    if (found < 0)
      return error(where + ": no array for " + describeArgument(entry, i) +
                   " (name it " + names[0] + ")");
    used[found] = true;
    const TensorSignature &arg = signature.arguments[i];
    llvm::Expected<HostTensor> tensor =
        toHostTensor(arrays[found], arg.kind, arg.shape,
                     (where + ": " + describeArgument(entry, i)).str());
    if (!tensor)
      return tensor.takeError();
    sample.inputs.push_back(std::move(*tensor));
  }
  for (unsigned a = 0; a < arrays.size(); ++a)
    if (!used[a])
      return error(where + ": array '" + arrays[a].name +
                   "' is not an argument of @" + entry.getSymName() + " (" +
                   llvm::Twine(signature.arguments.size()) +
                   " arguments: arrays arr_0, arr_1, ... or named after them)");
  return sample;
}

llvm::Expected<std::vector<Sample>>
mlir::amp::runner::loadSamples(llvm::StringRef path, func::FuncOp entry,
                               const FunctionSignature &signature) {
  std::vector<std::string> files;
  bool single = signature.arguments.size() == 1;
  if (llvm::sys::fs::is_directory(path)) {
    std::error_code ec;
    for (llvm::sys::fs::directory_iterator it(path, ec), end; it != end && !ec;
         it.increment(ec)) {
      llvm::StringRef file = it->path();
      if (file.ends_with(".npz") || (single && file.ends_with(".npy")))
        files.push_back(file.str());
    }
    if (ec)
      return error("cannot list " + path + ": " + ec.message());
    llvm::sort(files);
    if (files.empty())
      return error(path + ": no .npz" + (single ? " or .npy" : "") +
                   " samples in the folder");
  } else if (!llvm::sys::fs::exists(path)) {
    return error(path + ": no such file or folder");
  } else {
    files.push_back(path.str());
  }
  std::vector<Sample> samples;
  for (const std::string &file : files) {
    std::vector<NumpyArray> arrays;
    if (llvm::StringRef(file).ends_with(".npy")) {
      if (!single)
        return error(file + ": an .npy file holds one array, but @" +
                     entry.getSymName() + " takes " +
                     llvm::Twine(signature.arguments.size()) +
                     " arguments: use an .npz file");
      llvm::Expected<NumpyArray> array = readNpy(file);
      if (!array)
        return array.takeError();
      arrays.push_back(std::move(*array));
    } else {
      llvm::Expected<std::vector<NumpyArray>> read = readNpz(file);
      if (!read)
        return read.takeError();
      arrays = std::move(*read);
    }
    llvm::Expected<Sample> sample =
        makeSample(std::move(arrays), file, entry, signature);
    if (!sample)
      return sample.takeError();
    samples.push_back(std::move(*sample));
  }
  return samples;
}
