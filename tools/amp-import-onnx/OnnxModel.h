//===- OnnxModel.h - An ONNX model as plain C++ data ------------*- C++ -*-===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The importer's view of an ONNX model: the graph, its initializers (decoded
// into little-endian bytes), and the value types ONNX shape inference found.
// ModelLoader.cpp fills it from the protobuf bytes; it is the only file that
// sees libonnx and protobuf (which need C++ exceptions, unlike LLVM), so the
// converters work on these structs only.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_IMPORT_ONNX_ONNXMODEL_H
#define AMP_IMPORT_ONNX_ONNXMODEL_H

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace amp {
namespace onnximport {

/// ONNX's TensorProto::DataType values.
enum DType : int32_t {
  kUndefined = 0,
  kFloat = 1,
  kUInt8 = 2,
  kInt8 = 3,
  kUInt16 = 4,
  kInt16 = 5,
  kInt32 = 6,
  kInt64 = 7,
  kString = 8,
  kBool = 9,
  kFloat16 = 10,
  kDouble = 11,
  kUInt32 = 12,
  kUInt64 = 13,
  kComplex64 = 14,
  kComplex128 = 15,
  kBFloat16 = 16,
};

/// The ONNX name of a data type ("float", "int64", ...).
const char *getDTypeName(int32_t dtype);
/// Bytes per element of a fixed-size data type, 0 for others.
int64_t getDTypeSize(int32_t dtype);

/// A tensor whose contents are known at import time: an initializer, a
/// Constant node's value, or the result of folding shape arithmetic.
/// `data` holds the elements in ONNX's raw_data layout (little endian,
/// row-major, one byte per bool).
struct Tensor {
  std::string name;
  int32_t dtype = kUndefined;
  std::vector<int64_t> shape;
  std::vector<char> data;

  int64_t getNumElements() const;
};

/// A node attribute.
struct Attribute {
  enum Kind { Float, Int, String, TensorValue, Graph, Floats, Ints, Strings, Other };
  std::string name;
  Kind kind = Other;
  float f = 0;
  int64_t i = 0;
  std::string s;
  Tensor t;
  std::vector<float> floats;
  std::vector<int64_t> ints;
  std::vector<std::string> strings;
};

struct Node {
  std::string opType;
  std::string domain;
  std::string name;
  /// Input names; "" is an omitted optional input.
  std::vector<std::string> inputs;
  std::vector<std::string> outputs;
  std::vector<Attribute> attributes;

  const Attribute *getAttribute(const std::string &attrName) const;
};

/// The type of a value: an element type and, if known, a shape whose unknown
/// dimensions are -1 (with their symbolic name, if any, in `symbols`).
struct ValueType {
  int32_t dtype = kUndefined;
  bool hasShape = false;
  std::vector<int64_t> dims;
  std::vector<std::string> symbols;
  /// Not a tensor (a sequence, a map, an optional).
  bool isTensor = true;
};

struct ValueInfo {
  std::string name;
  ValueType type;
};

struct Model {
  int64_t irVersion = 0;
  /// The opset of the default ("" / "ai.onnx") domain.
  int64_t opset = 0;
  /// Every imported opset, by domain.
  std::map<std::string, int64_t> opsets;
  std::string graphName;
  std::string producer;
  /// Graph inputs that are not initializers.
  std::vector<ValueInfo> inputs;
  std::vector<ValueInfo> outputs;
  std::vector<Tensor> initializers;
  std::vector<Node> nodes;
  /// Types found by ONNX shape inference (and declared in value_info).
  std::map<std::string, ValueType> valueTypes;
  /// Non-fatal findings of the loader (e.g. shape inference gave up).
  std::vector<std::string> warnings;
};

struct LoadOptions {
  /// Folder that external-data locations are relative to ("" = none: a
  /// model with external data is an error).
  std::string modelDir;
  /// Shapes of inputs, by input name or by position ("0", "1", ...); they
  /// replace the declared (possibly symbolic) shapes before inference.
  std::vector<std::pair<std::string, std::vector<int64_t>>> shapes;
};

/// The supported opset range of the default domain.
constexpr int64_t kMinOpset = 6;
constexpr int64_t kMaxOpset = 17;

/// Parses `size` bytes of a serialized ModelProto, loads external data,
/// applies `options.shapes`, runs ONNX shape inference and fills `model`.
/// Returns false with a message in `error` on a malformed model.
bool loadModel(const void *data, size_t size, const LoadOptions &options,
               Model &model, std::string &error);

} // namespace onnximport
} // namespace amp

#endif // AMP_IMPORT_ONNX_ONNXMODEL_H
