//===- ConstTensors.cpp - Import-time values and their arithmetic ---------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "ConstTensors.h"

#include "llvm/ADT/APFloat.h"

#include <cstring>

using namespace amp::onnximport;

bool amp::onnximport::isFloatDType(int32_t dtype) {
  return dtype == kFloat || dtype == kDouble || dtype == kFloat16 ||
         dtype == kBFloat16;
}

bool amp::onnximport::isIntegerDType(int32_t dtype) {
  switch (dtype) {
  case kUInt8: case kInt8: case kUInt16: case kInt16: case kInt32:
  case kInt64: case kBool: case kUInt32: case kUInt64:
    return true;
  default:
    return false;
  }
}

template <typename T> static T load(const Tensor &tensor, int64_t i) {
  T value;
  std::memcpy(&value, tensor.data.data() + i * sizeof(T), sizeof(T));
  return value;
}

template <typename T> static void store(Tensor &tensor, int64_t i, T value) {
  std::memcpy(tensor.data.data() + i * sizeof(T), &value, sizeof(T));
}

static double halfToDouble(uint16_t bits, const llvm::fltSemantics &sem) {
  llvm::APFloat value(sem, llvm::APInt(16, bits));
  return value.convertToDouble();
}

static uint16_t doubleToHalf(double v, const llvm::fltSemantics &sem) {
  llvm::APFloat value(v);
  bool losesInfo;
  value.convert(sem, llvm::APFloat::rmNearestTiesToEven, &losesInfo);
  return static_cast<uint16_t>(value.bitcastToAPInt().getZExtValue());
}

double amp::onnximport::getDouble(const Tensor &tensor, int64_t i) {
  switch (tensor.dtype) {
  case kFloat: return load<float>(tensor, i);
  case kDouble: return load<double>(tensor, i);
  case kFloat16:
    return halfToDouble(load<uint16_t>(tensor, i), llvm::APFloat::IEEEhalf());
  case kBFloat16:
    return halfToDouble(load<uint16_t>(tensor, i), llvm::APFloat::BFloat());
  case kUInt64: return static_cast<double>(load<uint64_t>(tensor, i));
  default: return static_cast<double>(getInt(tensor, i));
  }
}

int64_t amp::onnximport::getInt(const Tensor &tensor, int64_t i) {
  switch (tensor.dtype) {
  case kInt64: return load<int64_t>(tensor, i);
  case kInt32: return load<int32_t>(tensor, i);
  case kInt16: return load<int16_t>(tensor, i);
  case kInt8: return load<int8_t>(tensor, i);
  case kUInt8: return load<uint8_t>(tensor, i);
  case kBool: return load<uint8_t>(tensor, i) != 0;
  case kUInt16: return load<uint16_t>(tensor, i);
  case kUInt32: return load<uint32_t>(tensor, i);
  case kUInt64: return static_cast<int64_t>(load<uint64_t>(tensor, i));
  default: {
    double v = getDouble(tensor, i);
    if (!(v > -9.2e18 && v < 9.2e18))
      return 0; // NaN or out of range: no meaningful integer.
    return static_cast<int64_t>(v);
  }
  }
}

std::vector<int64_t> amp::onnximport::getInts(const Tensor &tensor) {
  std::vector<int64_t> values(tensor.getNumElements());
  for (int64_t i = 0, e = values.size(); i < e; ++i)
    values[i] = getInt(tensor, i);
  return values;
}

std::vector<double> amp::onnximport::getDoubles(const Tensor &tensor) {
  std::vector<double> values(tensor.getNumElements());
  for (int64_t i = 0, e = values.size(); i < e; ++i)
    values[i] = getDouble(tensor, i);
  return values;
}

static Tensor allocate(int32_t dtype, llvm::ArrayRef<int64_t> shape) {
  Tensor tensor;
  tensor.dtype = dtype;
  tensor.shape.assign(shape.begin(), shape.end());
  tensor.data.resize(tensor.getNumElements() * getDTypeSize(dtype));
  return tensor;
}

static void storeDouble(Tensor &tensor, int64_t i, double v) {
  switch (tensor.dtype) {
  case kFloat: store<float>(tensor, i, static_cast<float>(v)); break;
  case kDouble: store<double>(tensor, i, v); break;
  case kFloat16:
    store<uint16_t>(tensor, i, doubleToHalf(v, llvm::APFloat::IEEEhalf()));
    break;
  case kBFloat16:
    store<uint16_t>(tensor, i, doubleToHalf(v, llvm::APFloat::BFloat()));
    break;
  default: break;
  }
}

static void storeInt(Tensor &tensor, int64_t i, int64_t v) {
  switch (tensor.dtype) {
  case kInt64: store<int64_t>(tensor, i, v); break;
  case kInt32: store<int32_t>(tensor, i, static_cast<int32_t>(v)); break;
  case kInt16: store<int16_t>(tensor, i, static_cast<int16_t>(v)); break;
  case kInt8: store<int8_t>(tensor, i, static_cast<int8_t>(v)); break;
  case kUInt8: store<uint8_t>(tensor, i, static_cast<uint8_t>(v)); break;
  case kBool: store<uint8_t>(tensor, i, v != 0); break;
  case kUInt16: store<uint16_t>(tensor, i, static_cast<uint16_t>(v)); break;
  case kUInt32: store<uint32_t>(tensor, i, static_cast<uint32_t>(v)); break;
  case kUInt64: store<uint64_t>(tensor, i, static_cast<uint64_t>(v)); break;
  default: storeDouble(tensor, i, static_cast<double>(v)); break;
  }
}

Tensor amp::onnximport::makeTensor(int32_t dtype, llvm::ArrayRef<int64_t> shape,
                                   llvm::ArrayRef<int64_t> values) {
  Tensor tensor = allocate(dtype, shape);
  for (size_t i = 0; i < values.size(); ++i)
    storeInt(tensor, i, values[i]);
  return tensor;
}

Tensor amp::onnximport::makeTensor(int32_t dtype, llvm::ArrayRef<int64_t> shape,
                                   llvm::ArrayRef<double> values) {
  Tensor tensor = allocate(dtype, shape);
  for (size_t i = 0; i < values.size(); ++i) {
    if (isFloatDType(dtype))
      storeDouble(tensor, i, values[i]);
    else
      storeInt(tensor, i,
               (values[i] > -9.2e18 && values[i] < 9.2e18)
                   ? static_cast<int64_t>(values[i])
                   : 0);
  }
  return tensor;
}

std::optional<std::vector<int64_t>>
amp::onnximport::broadcastShapes(llvm::ArrayRef<int64_t> a,
                                 llvm::ArrayRef<int64_t> b) {
  size_t rank = std::max(a.size(), b.size());
  std::vector<int64_t> result(rank);
  for (size_t i = 0; i < rank; ++i) {
    int64_t da = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
    int64_t db = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
    if (da != db && da != 1 && db != 1)
      return std::nullopt;
    result[i] = da == 1 ? db : da;
  }
  return result;
}

std::vector<int64_t>
amp::onnximport::broadcastIndices(llvm::ArrayRef<int64_t> shape,
                                  llvm::ArrayRef<int64_t> resultShape) {
  int64_t total = 1;
  for (int64_t d : resultShape)
    total *= d;
  std::vector<int64_t> indices(total);
  size_t rank = resultShape.size(), offset = rank - shape.size();
  for (int64_t flat = 0; flat < total; ++flat) {
    int64_t rem = flat, index = 0, stride = 1;
    for (size_t d = rank; d-- > 0;) {
      int64_t coord = rem % resultShape[d];
      rem /= resultShape[d];
      if (d >= offset) {
        int64_t size = shape[d - offset];
        index += (size == 1 ? 0 : coord) * stride;
        stride *= size;
      }
    }
    indices[flat] = index;
  }
  return indices;
}

std::optional<Tensor> amp::onnximport::foldElementwise(
    llvm::ArrayRef<const Tensor *> operands, int32_t resultDType,
    llvm::function_ref<double(llvm::ArrayRef<double>)> floatFn,
    llvm::function_ref<int64_t(llvm::ArrayRef<int64_t>)> intFn) {
  std::vector<int64_t> shape;
  for (const Tensor *operand : operands) {
    auto merged = broadcastShapes(shape, operand->shape);
    if (!merged)
      return std::nullopt;
    shape = *merged;
  }
  int64_t total = 1;
  for (int64_t d : shape)
    total *= d;
  if (total > kMaxFoldElements)
    return std::nullopt;
  std::vector<std::vector<int64_t>> maps;
  for (const Tensor *operand : operands)
    maps.push_back(broadcastIndices(operand->shape, shape));
  // Integer arithmetic when every operand is an integer tensor.
  bool integer = true;
  for (const Tensor *operand : operands)
    integer &= isIntegerDType(operand->dtype);
  Tensor result = allocate(resultDType, shape);
  std::vector<double> fargs(operands.size());
  std::vector<int64_t> iargs(operands.size());
  for (int64_t i = 0; i < total; ++i) {
    if (integer) {
      for (size_t k = 0; k < operands.size(); ++k)
        iargs[k] = getInt(*operands[k], maps[k][i]);
      storeInt(result, i, intFn(iargs));
    } else {
      for (size_t k = 0; k < operands.size(); ++k)
        fargs[k] = getDouble(*operands[k], maps[k][i]);
      double v = floatFn(fargs);
      if (isFloatDType(resultDType))
        storeDouble(result, i, v);
      else
        storeInt(result, i, (v > -9.2e18 && v < 9.2e18) ? (int64_t)v : 0);
    }
  }
  return result;
}

Tensor amp::onnximport::selectElements(const Tensor &source,
                                       llvm::ArrayRef<int64_t> shape,
                                       llvm::ArrayRef<int64_t> sourceIndices) {
  Tensor result = allocate(source.dtype, shape);
  int64_t size = getDTypeSize(source.dtype);
  for (size_t i = 0; i < sourceIndices.size(); ++i)
    std::memcpy(result.data.data() + i * size,
                source.data.data() + sourceIndices[i] * size, size);
  return result;
}

std::vector<int64_t> amp::onnximport::getStrides(llvm::ArrayRef<int64_t> shape) {
  std::vector<int64_t> strides(shape.size(), 1);
  for (size_t d = shape.size(); d-- > 1;)
    strides[d - 1] = strides[d] * shape[d];
  return strides;
}
