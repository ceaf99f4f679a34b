//===- OpTable.cpp - ONNX op type -> converter ----------------------------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The ops of the default domain amp-import-onnx converts, with the first
// opset each converter handles (every later one up to kMaxOpset is handled
// too: the converters read the attribute-or-input forms of each version).
// docs/onnx.md lists the same ops with their supported attributes.
//
//===----------------------------------------------------------------------===//

#include "GraphImporter.h"
#include "ops/Converters.h"

using namespace amp::onnximport;

/// The converter propagates dynamic dimensions (see DynamicDims).
static constexpr DynamicDims kDynamic = DynamicDims::Supported;

static const OpConverter kConverters[] = {
    // Element-wise arithmetic, comparisons and logic.
    {"Add", 6, convertAdd, kDynamic},
    {"Sub", 6, convertSub, kDynamic},
    {"Mul", 6, convertMul, kDynamic},
    {"Div", 6, convertDiv, kDynamic},
    {"Pow", 7, convertPow, kDynamic},
    {"Equal", 7, convertEqual, kDynamic},
    {"Less", 7, convertLess, kDynamic},
    {"LessOrEqual", 12, convertLessOrEqual, kDynamic},
    {"Greater", 7, convertGreater, kDynamic},
    {"GreaterOrEqual", 12, convertGreaterOrEqual, kDynamic},
    {"And", 7, convertAnd, kDynamic},
    {"Or", 7, convertOr, kDynamic},
    {"Xor", 7, convertXor, kDynamic},
    {"Not", 1, convertNot, kDynamic},
    {"Where", 9, convertWhere, kDynamic},
    {"Max", 6, convertMax, kDynamic},
    {"Min", 6, convertMin, kDynamic},
    {"Sum", 6, convertSum, kDynamic},
    {"Mean", 6, convertMean, kDynamic},
    {"Cast", 6, convertCast, kDynamic},
    {"Mod", 10, convertMod, kDynamic},
    {"CastLike", 15, convertCastLike, kDynamic},
    // Unary math and activations.
    {"Sqrt", 6, convertSqrt, kDynamic},
    {"Exp", 6, convertExp, kDynamic},
    {"Log", 6, convertLog, kDynamic},
    {"Erf", 9, convertErf, kDynamic},
    {"Tanh", 6, convertTanh, kDynamic},
    {"Sigmoid", 6, convertSigmoid, kDynamic},
    {"Abs", 6, convertAbs, kDynamic},
    {"Neg", 6, convertNeg, kDynamic},
    {"Reciprocal", 6, convertReciprocal, kDynamic},
    {"Floor", 6, convertFloor, kDynamic},
    {"Ceil", 6, convertCeil, kDynamic},
    {"Sin", 7, convertSin, kDynamic},
    {"Cos", 7, convertCos, kDynamic},
    {"Relu", 6, convertRelu, kDynamic},
    {"LeakyRelu", 6, convertLeakyRelu, kDynamic},
    {"PRelu", 6, convertPRelu, kDynamic},
    {"Elu", 6, convertElu, kDynamic},
    {"Selu", 6, convertSelu, kDynamic},
    {"HardSigmoid", 6, convertHardSigmoid, kDynamic},
    {"HardSwish", 14, convertHardSwish, kDynamic},
    {"Softplus", 1, convertSoftplus, kDynamic},
    {"Clip", 6, convertClip, kDynamic},
    // Constants and shapes known at import time.
    {"Constant", 1, convertConstant},
    {"ConstantOfShape", 9, convertConstantOfShape},
    {"Shape", 1, convertShape},
    {"Identity", 1, convertIdentity, kDynamic},
    {"Dropout", 6, convertDropout, kDynamic},
    {"Range", 11, convertRange},
    {"Size", 1, convertSize},
    // Data movement.
    {"Reshape", 5, convertReshape},
    {"Flatten", 1, convertFlatten, kDynamic},
    {"Transpose", 1, convertTranspose, kDynamic},
    {"Concat", 4, convertConcat, kDynamic},
    {"Split", 2, convertSplit},
    {"Slice", 1, convertSlice},
    {"Squeeze", 1, convertSqueeze, kDynamic},
    {"Unsqueeze", 1, convertUnsqueeze, kDynamic},
    {"Expand", 8, convertExpand},
    {"Tile", 6, convertTile},
    {"Pad", 2, convertPad},
    {"Gather", 1, convertGather},
    {"ScatterND", 11, convertScatterND},
    {"GatherElements", 11, convertGatherElements},
    {"GatherND", 11, convertGatherND},
    // Position-dependent ops.
    {"Trilu", 14, convertTrilu},
    {"CumSum", 11, convertCumSum},
    {"TopK", 10, convertTopK},
    // Convolutions and pooling.
    {"Conv", 1, convertConv, kDynamic},
    {"ConvTranspose", 1, convertConvTranspose},
    {"MaxPool", 1, convertMaxPool, kDynamic},
    {"AveragePool", 1, convertAveragePool, kDynamic},
    {"GlobalAveragePool", 1, convertGlobalAveragePool, kDynamic},
    {"GlobalMaxPool", 1, convertGlobalMaxPool, kDynamic},
    // Contractions.
    {"MatMul", 1, convertMatMul, kDynamic},
    {"Gemm", 6, convertGemm, kDynamic},
    {"Einsum", 12, convertEinsum},
    // Recurrences (unrolled over the static sequence length).
    {"LSTM", 7, convertLSTM},
    {"GRU", 7, convertGRU},
    // Normalizations.
    {"BatchNormalization", 6, convertBatchNormalization, kDynamic},
    {"InstanceNormalization", 6, convertInstanceNormalization, kDynamic},
    {"LayerNormalization", 17, convertLayerNormalization, kDynamic},
    {"Softmax", 1, convertSoftmax, kDynamic},
    {"LogSoftmax", 1, convertLogSoftmax, kDynamic},
    // Reductions.
    {"ReduceMean", 1, convertReduceMean, kDynamic},
    {"ReduceSum", 1, convertReduceSum, kDynamic},
    {"ReduceMax", 1, convertReduceMax, kDynamic},
    {"ReduceMin", 1, convertReduceMin, kDynamic},
    {"ReduceProd", 1, convertReduceProd, kDynamic},
    // Resampling and rearrangement.
    {"DepthToSpace", 1, convertDepthToSpace},
    {"SpaceToDepth", 1, convertSpaceToDepth},
    {"Resize", 10, convertResize},
    {"Upsample", 7, convertUpsample},
};

llvm::ArrayRef<OpConverter> amp::onnximport::getOpConverters() {
  return kConverters;
}

const OpConverter *amp::onnximport::lookupOpConverter(llvm::StringRef opType) {
  for (const OpConverter &converter : kConverters)
    if (opType == converter.opType)
      return &converter;
  return nullptr;
}
