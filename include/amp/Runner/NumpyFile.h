//===- NumpyFile.h - NumPy .npy and .npz files for amp-run ------*- C++ -*-===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Reading and writing NumPy arrays (the .npy format, versions 1-3, and .npz
// archives of them, stored or deflate-compressed, as numpy.save, savez and
// savez_compressed write them), so that amp-run can take sample inputs from
// files and write what it observed.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_RUNNER_NUMPYFILE_H
#define AMP_RUNNER_NUMPYFILE_H

#include "amp/Runner/HostTensor.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace mlir {
namespace amp {
namespace runner {

/// One array: its name (the .npz member without ".npy", or the file name),
/// NumPy dtype ("<f4", "|b1", ...), shape and C-order data.
struct NumpyArray {
  std::string name;
  std::string dtype;
  llvm::SmallVector<int64_t, 4> shape;
  std::vector<uint8_t> data;
};

/// The element kind of a NumPy dtype (float64/32/16, int64/32/8, bool), or
/// std::nullopt.
std::optional<ElementKind> getNumpyElementKind(llvm::StringRef dtype);
/// The NumPy dtype of an element kind ("<f4", ...); bf16 has none ("").
llvm::StringRef getNumpyDtype(ElementKind kind);
/// A readable name of a dtype for messages ("float32", "bool", ...).
std::string describeNumpyDtype(llvm::StringRef dtype);

/// Parses .npy bytes; `where` names them in errors.
llvm::Expected<NumpyArray> parseNpy(llvm::ArrayRef<uint8_t> bytes,
                                    llvm::StringRef where);
/// Reads a .npy file.
llvm::Expected<NumpyArray> readNpy(llvm::StringRef path);
/// Reads every member of an .npz archive, in archive order.
llvm::Expected<std::vector<NumpyArray>> readNpz(llvm::StringRef path);

/// Writes `tensor` as a .npy file (bf16 as float32).
llvm::Error writeNpy(llvm::StringRef path, const HostTensor &tensor);

/// Converts an array to a tensor of `kind` and `shape`. The array's dtype
/// must be that of `kind` (float32 for an f32 argument, ...; f16 and bf16
/// arguments also take float32 arrays, rounded to nearest) and its shape
/// `shape`; otherwise the error says what differs, naming `what`.
llvm::Expected<HostTensor> toHostTensor(const NumpyArray &array,
                                        ElementKind kind,
                                        llvm::ArrayRef<int64_t> shape,
                                        llvm::StringRef what);

} // namespace runner
} // namespace amp
} // namespace mlir

#endif // AMP_RUNNER_NUMPYFILE_H
