//===- ConstTensors.h - Import-time values and their arithmetic -*- C++ -*-===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Reading and building the import-time tensors of OnnxModel.h, and the
// element-wise arithmetic with which the importer folds the shape
// computations of exported models (Shape -> Gather -> Unsqueeze -> Concat ->
// Reshape) instead of emitting them.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_IMPORT_ONNX_CONSTTENSORS_H
#define AMP_IMPORT_ONNX_CONSTTENSORS_H

#include "OnnxModel.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <optional>

namespace amp {
namespace onnximport {

/// Folding is only done on tensors this small (elements).
constexpr int64_t kMaxFoldElements = 1 << 16;

bool isFloatDType(int32_t dtype);
bool isIntegerDType(int32_t dtype); // bool included

/// Element `i` as a double / an integer (floats are truncated).
double getDouble(const Tensor &tensor, int64_t i);
int64_t getInt(const Tensor &tensor, int64_t i);
std::vector<int64_t> getInts(const Tensor &tensor);
std::vector<double> getDoubles(const Tensor &tensor);

/// A tensor of `dtype` and `shape` holding `values` (converted to dtype).
Tensor makeTensor(int32_t dtype, llvm::ArrayRef<int64_t> shape,
                  llvm::ArrayRef<int64_t> values);
Tensor makeTensor(int32_t dtype, llvm::ArrayRef<int64_t> shape,
                  llvm::ArrayRef<double> values);

/// The NumPy broadcast of two shapes, or nullopt if they do not broadcast.
std::optional<std::vector<int64_t>>
broadcastShapes(llvm::ArrayRef<int64_t> a, llvm::ArrayRef<int64_t> b);

/// For every element of `resultShape`, the flat index into a tensor of
/// `shape` that broadcasts to it.
std::vector<int64_t> broadcastIndices(llvm::ArrayRef<int64_t> shape,
                                      llvm::ArrayRef<int64_t> resultShape);

/// Element-wise function of broadcast operands, in doubles for float results
/// or integers otherwise. Returns nullopt if the shapes do not broadcast or
/// the result is too large to fold.
std::optional<Tensor>
foldElementwise(llvm::ArrayRef<const Tensor *> operands, int32_t resultDType,
                llvm::function_ref<double(llvm::ArrayRef<double>)> floatFn,
                llvm::function_ref<int64_t(llvm::ArrayRef<int64_t>)> intFn);

/// A tensor of `shape` whose element i is element `sourceIndices[i]` of
/// `source` (the import-time form of every data-movement op).
Tensor selectElements(const Tensor &source, llvm::ArrayRef<int64_t> shape,
                      llvm::ArrayRef<int64_t> sourceIndices);

/// Row-major strides of `shape`.
std::vector<int64_t> getStrides(llvm::ArrayRef<int64_t> shape);

} // namespace onnximport
} // namespace amp

#endif // AMP_IMPORT_ONNX_CONSTTENSORS_H
