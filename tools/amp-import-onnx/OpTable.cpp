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

static const OpConverter kConverters[] = {
    // Element-wise arithmetic, comparisons and logic.
    {"Add", 6, convertAdd},
    {"Sub", 6, convertSub},
    {"Mul", 6, convertMul},
    {"Div", 6, convertDiv},
    {"Pow", 7, convertPow},
    {"Equal", 7, convertEqual},
    {"Less", 7, convertLess},
    {"LessOrEqual", 12, convertLessOrEqual},
    {"Greater", 7, convertGreater},
    {"GreaterOrEqual", 12, convertGreaterOrEqual},
    {"And", 7, convertAnd},
    {"Or", 7, convertOr},
    {"Xor", 7, convertXor},
    {"Not", 1, convertNot},
    {"Where", 9, convertWhere},
    {"Max", 6, convertMax},
    {"Min", 6, convertMin},
    {"Sum", 6, convertSum},
    {"Mean", 6, convertMean},
    {"Cast", 6, convertCast},
    {"Mod", 10, convertMod},
    {"CastLike", 15, convertCastLike},
    // Unary math and activations.
    {"Sqrt", 6, convertSqrt},
    {"Exp", 6, convertExp},
    {"Log", 6, convertLog},
    {"Erf", 9, convertErf},
    {"Tanh", 6, convertTanh},
    {"Sigmoid", 6, convertSigmoid},
    {"Abs", 6, convertAbs},
    {"Neg", 6, convertNeg},
    {"Reciprocal", 6, convertReciprocal},
    {"Floor", 6, convertFloor},
    {"Ceil", 6, convertCeil},
    {"Sin", 7, convertSin},
    {"Cos", 7, convertCos},
    {"Relu", 6, convertRelu},
    {"LeakyRelu", 6, convertLeakyRelu},
    {"PRelu", 6, convertPRelu},
    {"Elu", 6, convertElu},
    {"Selu", 6, convertSelu},
    {"HardSigmoid", 6, convertHardSigmoid},
    {"HardSwish", 14, convertHardSwish},
    {"Softplus", 1, convertSoftplus},
    {"Clip", 6, convertClip},
    // Constants and shapes known at import time.
    {"Constant", 1, convertConstant},
    {"ConstantOfShape", 9, convertConstantOfShape},
    {"Shape", 1, convertShape},
    {"Identity", 1, convertIdentity},
    {"Dropout", 6, convertDropout},
    {"Range", 11, convertRange},
    {"Size", 1, convertSize},
    // Data movement.
    {"Reshape", 5, convertReshape},
    {"Flatten", 1, convertFlatten},
    {"Transpose", 1, convertTranspose},
    {"Concat", 4, convertConcat},
    {"Split", 2, convertSplit},
    {"Slice", 1, convertSlice},
    {"Squeeze", 1, convertSqueeze},
    {"Unsqueeze", 1, convertUnsqueeze},
    {"Expand", 8, convertExpand},
    {"Tile", 6, convertTile},
    {"Pad", 2, convertPad},
    {"Gather", 1, convertGather},
    {"ScatterND", 11, convertScatterND},
    // Convolutions and pooling.
    {"Conv", 1, convertConv},
    {"ConvTranspose", 1, convertConvTranspose},
    {"MaxPool", 1, convertMaxPool},
    {"AveragePool", 1, convertAveragePool},
    {"GlobalAveragePool", 1, convertGlobalAveragePool},
    {"GlobalMaxPool", 1, convertGlobalMaxPool},
    // Contractions.
    {"MatMul", 1, convertMatMul},
    {"Gemm", 6, convertGemm},
    // Normalizations.
    {"BatchNormalization", 6, convertBatchNormalization},
    {"LayerNormalization", 17, convertLayerNormalization},
    {"Softmax", 1, convertSoftmax},
    {"LogSoftmax", 1, convertLogSoftmax},
    // Reductions.
    {"ReduceMean", 1, convertReduceMean},
    {"ReduceSum", 1, convertReduceSum},
    {"ReduceMax", 1, convertReduceMax},
    {"ReduceMin", 1, convertReduceMin},
    {"ReduceProd", 1, convertReduceProd},
    // Resampling.
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
