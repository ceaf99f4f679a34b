//===- Converters.h - The op converters, by family --------------*- C++ -*-===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// One function per ONNX op (or per group of ops that share a lowering); the
// table in OpTable.cpp maps op types to them. Each family lives in its own
// file: Elementwise.cpp, Shape.cpp, Constant.cpp, Conv.cpp, Pool.cpp,
// MatMul.cpp, Einsum.cpp, Indexing.cpp, GatherScatter.cpp, Recurrent.cpp,
// Normalization.cpp, Reduction.cpp, Resize.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_IMPORT_ONNX_OPS_CONVERTERS_H
#define AMP_IMPORT_ONNX_OPS_CONVERTERS_H

#include "../GraphImporter.h"

#include <limits>

namespace amp {
namespace onnximport {

/// The product of `values`, saturating at INT64_MAX (sizes from a
/// malformed model must not overflow; the caller rejects the result).
inline int64_t product(llvm::ArrayRef<int64_t> values) {
  int64_t result = 1;
  for (int64_t v : values)
    if (__builtin_mul_overflow(result, v, &result))
      return std::numeric_limits<int64_t>::max();
  return result;
}

using mlir::LogicalResult;

// Elementwise.cpp
LogicalResult convertAdd(NodeContext &ctx);
LogicalResult convertSub(NodeContext &ctx);
LogicalResult convertMul(NodeContext &ctx);
LogicalResult convertDiv(NodeContext &ctx);
LogicalResult convertPow(NodeContext &ctx);
LogicalResult convertEqual(NodeContext &ctx);
LogicalResult convertLess(NodeContext &ctx);
LogicalResult convertLessOrEqual(NodeContext &ctx);
LogicalResult convertGreater(NodeContext &ctx);
LogicalResult convertGreaterOrEqual(NodeContext &ctx);
LogicalResult convertAnd(NodeContext &ctx);
LogicalResult convertOr(NodeContext &ctx);
LogicalResult convertXor(NodeContext &ctx);
LogicalResult convertNot(NodeContext &ctx);
LogicalResult convertWhere(NodeContext &ctx);
LogicalResult convertMax(NodeContext &ctx);
LogicalResult convertMin(NodeContext &ctx);
LogicalResult convertSum(NodeContext &ctx);
LogicalResult convertMean(NodeContext &ctx);
LogicalResult convertCast(NodeContext &ctx);
LogicalResult convertMod(NodeContext &ctx);
LogicalResult convertCastLike(NodeContext &ctx);
// Activations and unary math (Activation.cpp).
LogicalResult convertSqrt(NodeContext &ctx);
LogicalResult convertExp(NodeContext &ctx);
LogicalResult convertLog(NodeContext &ctx);
LogicalResult convertErf(NodeContext &ctx);
LogicalResult convertTanh(NodeContext &ctx);
LogicalResult convertSigmoid(NodeContext &ctx);
LogicalResult convertAbs(NodeContext &ctx);
LogicalResult convertNeg(NodeContext &ctx);
LogicalResult convertReciprocal(NodeContext &ctx);
LogicalResult convertFloor(NodeContext &ctx);
LogicalResult convertCeil(NodeContext &ctx);
LogicalResult convertSin(NodeContext &ctx);
LogicalResult convertCos(NodeContext &ctx);
LogicalResult convertRelu(NodeContext &ctx);
LogicalResult convertLeakyRelu(NodeContext &ctx);
LogicalResult convertPRelu(NodeContext &ctx);
LogicalResult convertElu(NodeContext &ctx);
LogicalResult convertSelu(NodeContext &ctx);
LogicalResult convertHardSigmoid(NodeContext &ctx);
LogicalResult convertHardSwish(NodeContext &ctx);
LogicalResult convertSoftplus(NodeContext &ctx);
LogicalResult convertClip(NodeContext &ctx);

// Constant.cpp
LogicalResult convertConstant(NodeContext &ctx);
LogicalResult convertConstantOfShape(NodeContext &ctx);
LogicalResult convertShape(NodeContext &ctx);
LogicalResult convertIdentity(NodeContext &ctx);
LogicalResult convertDropout(NodeContext &ctx);
LogicalResult convertRange(NodeContext &ctx);
LogicalResult convertSize(NodeContext &ctx);

// Shape.cpp
LogicalResult convertReshape(NodeContext &ctx);
LogicalResult convertFlatten(NodeContext &ctx);
LogicalResult convertTranspose(NodeContext &ctx);
LogicalResult convertConcat(NodeContext &ctx);
LogicalResult convertSplit(NodeContext &ctx);
LogicalResult convertSlice(NodeContext &ctx);
LogicalResult convertSqueeze(NodeContext &ctx);
LogicalResult convertUnsqueeze(NodeContext &ctx);
LogicalResult convertExpand(NodeContext &ctx);
LogicalResult convertTile(NodeContext &ctx);
LogicalResult convertPad(NodeContext &ctx);
LogicalResult convertGather(NodeContext &ctx);

// Conv.cpp
LogicalResult convertConv(NodeContext &ctx);
LogicalResult convertConvTranspose(NodeContext &ctx);

// Pool.cpp
LogicalResult convertMaxPool(NodeContext &ctx);
LogicalResult convertAveragePool(NodeContext &ctx);
LogicalResult convertGlobalAveragePool(NodeContext &ctx);
LogicalResult convertGlobalMaxPool(NodeContext &ctx);

// MatMul.cpp
LogicalResult convertMatMul(NodeContext &ctx);
LogicalResult convertGemm(NodeContext &ctx);

// Einsum.cpp
LogicalResult convertEinsum(NodeContext &ctx);

// Indexing.cpp
LogicalResult convertTrilu(NodeContext &ctx);
LogicalResult convertCumSum(NodeContext &ctx);
LogicalResult convertTopK(NodeContext &ctx);

// GatherScatter.cpp
LogicalResult convertGatherElements(NodeContext &ctx);
LogicalResult convertGatherND(NodeContext &ctx);
LogicalResult convertScatterND(NodeContext &ctx);

// Recurrent.cpp
LogicalResult convertLSTM(NodeContext &ctx);
LogicalResult convertGRU(NodeContext &ctx);

// Normalization.cpp
LogicalResult convertBatchNormalization(NodeContext &ctx);
LogicalResult convertInstanceNormalization(NodeContext &ctx);
LogicalResult convertLayerNormalization(NodeContext &ctx);
LogicalResult convertSoftmax(NodeContext &ctx);
LogicalResult convertLogSoftmax(NodeContext &ctx);

// Rearrange.cpp
LogicalResult convertDepthToSpace(NodeContext &ctx);
LogicalResult convertSpaceToDepth(NodeContext &ctx);

// Reduction.cpp
LogicalResult convertReduceMean(NodeContext &ctx);
LogicalResult convertReduceSum(NodeContext &ctx);
LogicalResult convertReduceMax(NodeContext &ctx);
LogicalResult convertReduceMin(NodeContext &ctx);
LogicalResult convertReduceProd(NodeContext &ctx);

// Resize.cpp
LogicalResult convertResize(NodeContext &ctx);
LogicalResult convertUpsample(NodeContext &ctx);

} // namespace onnximport
} // namespace amp

#endif // AMP_IMPORT_ONNX_OPS_CONVERTERS_H
