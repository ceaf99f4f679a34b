//===- ModelLoader.cpp - ONNX protobuf bytes to an importer Model ---------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The one file that uses libonnx and protobuf. It parses a serialized
// ModelProto, validates it with onnx::checker, reads external-data files,
// applies the --shape overrides, runs onnx::shape_inference and copies what
// the converters need into the plain structs of OnnxModel.h. libonnx reports
// problems with C++ exceptions, so this file alone is compiled with
// -fexceptions; every exception becomes an error message here.
//
//===----------------------------------------------------------------------===//

#include "OnnxModel.h"
#include "ProtoIO.h"

#include "onnx/checker.h"
#include "onnx/defs/schema.h"
#include "onnx/onnx_pb.h"
#include "onnx/shape_inference/implementation.h"

#include <google/protobuf/io/coded_stream.h>

#include <cstring>
#include <fstream>
#include <limits>
#include <set>
#include <sstream>

using namespace amp::onnximport;

const char *amp::onnximport::getDTypeName(int32_t dtype) {
  switch (dtype) {
  case kFloat: return "float";
  case kUInt8: return "uint8";
  case kInt8: return "int8";
  case kUInt16: return "uint16";
  case kInt16: return "int16";
  case kInt32: return "int32";
  case kInt64: return "int64";
  case kString: return "string";
  case kBool: return "bool";
  case kFloat16: return "float16";
  case kDouble: return "double";
  case kUInt32: return "uint32";
  case kUInt64: return "uint64";
  case kComplex64: return "complex64";
  case kComplex128: return "complex128";
  case kBFloat16: return "bfloat16";
  default: return "undefined";
  }
}

int64_t amp::onnximport::getDTypeSize(int32_t dtype) {
  switch (dtype) {
  case kUInt8: case kInt8: case kBool: return 1;
  case kUInt16: case kInt16: case kFloat16: case kBFloat16: return 2;
  case kFloat: case kInt32: case kUInt32: return 4;
  case kInt64: case kDouble: case kUInt64: case kComplex64: return 8;
  case kComplex128: return 16;
  default: return 0;
  }
}

int64_t Tensor::getNumElements() const {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

const Attribute *Node::getAttribute(const std::string &attrName) const {
  for (const Attribute &attr : attributes)
    if (attr.name == attrName)
      return &attr;
  return nullptr;
}

namespace {

/// An import error: the message says what is wrong with the model.
struct LoadError {
  std::string message;
};

[[noreturn]] void fail(const std::string &message) { throw LoadError{message}; }

/// Largest tensor the importer accepts (elements): 2^34, far above any
/// model it can run, and small enough that sizes never overflow.
constexpr int64_t kMaxElements = int64_t(1) << 34;

std::string describe(const onnx::TensorProto &proto) {
  return "tensor '" + proto.name() + "'";
}

/// Reads the bytes of an external-data tensor.
std::string readExternalData(const onnx::TensorProto &proto,
                             const std::string &modelDir) {
  std::string location;
  int64_t offset = 0, length = -1;
  for (const onnx::StringStringEntryProto &entry : proto.external_data()) {
    const std::string &key = entry.key();
    try {
      if (key == "location")
        location = entry.value();
      else if (key == "offset")
        offset = std::stoll(entry.value());
      else if (key == "length")
        length = std::stoll(entry.value());
    } catch (const std::exception &) {
      fail(describe(proto) + ": external data '" + key +
           "' is not a number: '" + entry.value() + "'");
    }
  }
  if (location.empty())
    fail(describe(proto) + ": external data without a location");
  if (location.front() == '/' || location.find("..") != std::string::npos)
    fail(describe(proto) + ": external data location '" + location +
         "' must be a relative path inside the model's folder");
  if (modelDir.empty())
    fail(describe(proto) + ": the model has external data ('" + location +
         "') but was not read from a file");
  std::string path = modelDir + "/" + location;
  std::ifstream file(path, std::ios::binary);
  if (!file)
    fail(describe(proto) + ": cannot open external data file '" + path + "'");
  file.seekg(0, std::ios::end);
  int64_t fileSize = static_cast<int64_t>(file.tellg());
  if (offset < 0 || offset > fileSize)
    fail(describe(proto) + ": external data offset " + std::to_string(offset) +
         " is outside '" + path + "' (" + std::to_string(fileSize) + " bytes)");
  if (length < 0)
    length = fileSize - offset;
  if (length > fileSize - offset)
    fail(describe(proto) + ": external data [" + std::to_string(offset) + ", " +
         std::to_string(offset + length) + ") is outside '" + path + "' (" +
         std::to_string(fileSize) + " bytes)");
  std::string bytes(static_cast<size_t>(length), '\0');
  file.seekg(offset);
  file.read(bytes.data(), length);
  if (!file)
    fail(describe(proto) + ": cannot read external data file '" + path + "'");
  return bytes;
}

template <typename T, typename Field>
void copyField(const Field &field, int64_t n, std::vector<char> &out) {
  out.resize(static_cast<size_t>(n) * sizeof(T));
  for (int64_t i = 0; i < n; ++i) {
    T value = static_cast<T>(field.Get(static_cast<int>(i)));
    std::memcpy(out.data() + i * sizeof(T), &value, sizeof(T));
  }
}

Tensor convertTensor(const onnx::TensorProto &proto,
                     const std::string &modelDir) {
  Tensor tensor;
  tensor.name = proto.name();
  tensor.dtype = proto.data_type();
  int64_t n = 1;
  for (int64_t d : proto.dims()) {
    if (d < 0)
      fail(describe(proto) + " has a negative dimension");
    if (d != 0 && n > kMaxElements / d)
      fail(describe(proto) + " is too large");
    n *= d;
    tensor.shape.push_back(d);
  }
  int64_t elemSize = getDTypeSize(tensor.dtype);
  if (elemSize == 0 || tensor.dtype == kComplex64 || tensor.dtype == kComplex128)
    fail(describe(proto) + " has an unsupported element type '" +
         getDTypeName(tensor.dtype) + "'");
  if (proto.has_segment())
    fail(describe(proto) + " is segmented (unsupported)");
  int64_t bytes = n * elemSize;

  if (proto.data_location() == onnx::TensorProto::EXTERNAL) {
    std::string raw = readExternalData(proto, modelDir);
    if (static_cast<int64_t>(raw.size()) != bytes)
      fail(describe(proto) + ": external data has " +
           std::to_string(raw.size()) + " bytes, expected " +
           std::to_string(bytes));
    tensor.data.assign(raw.begin(), raw.end());
    return tensor;
  }
  if (proto.has_raw_data()) {
    const std::string &raw = proto.raw_data();
    if (static_cast<int64_t>(raw.size()) != bytes)
      fail(describe(proto) + " has " + std::to_string(raw.size()) +
           " bytes of raw data, expected " + std::to_string(bytes));
    tensor.data.assign(raw.begin(), raw.end());
    return tensor;
  }
  auto check = [&](int64_t have) {
    if (have != n)
      fail(describe(proto) + " has " + std::to_string(have) +
           " values, expected " + std::to_string(n));
  };
  switch (tensor.dtype) {
  case kFloat:
    check(proto.float_data_size());
    copyField<float>(proto.float_data(), n, tensor.data);
    break;
  case kDouble:
    check(proto.double_data_size());
    copyField<double>(proto.double_data(), n, tensor.data);
    break;
  case kInt64:
    check(proto.int64_data_size());
    copyField<int64_t>(proto.int64_data(), n, tensor.data);
    break;
  case kUInt32:
    check(proto.uint64_data_size());
    copyField<uint32_t>(proto.uint64_data(), n, tensor.data);
    break;
  case kUInt64:
    check(proto.uint64_data_size());
    copyField<uint64_t>(proto.uint64_data(), n, tensor.data);
    break;
  case kInt32:
    check(proto.int32_data_size());
    copyField<int32_t>(proto.int32_data(), n, tensor.data);
    break;
  case kInt16:
    check(proto.int32_data_size());
    copyField<int16_t>(proto.int32_data(), n, tensor.data);
    break;
  case kUInt16: case kFloat16: case kBFloat16:
    check(proto.int32_data_size());
    copyField<uint16_t>(proto.int32_data(), n, tensor.data);
    break;
  case kInt8:
    check(proto.int32_data_size());
    copyField<int8_t>(proto.int32_data(), n, tensor.data);
    break;
  case kUInt8: case kBool:
    check(proto.int32_data_size());
    copyField<uint8_t>(proto.int32_data(), n, tensor.data);
    break;
  default:
    fail(describe(proto) + " has an unsupported element type");
  }
  return tensor;
}

ValueType convertType(const onnx::TypeProto &proto) {
  ValueType type;
  if (!proto.has_tensor_type()) {
    type.isTensor = false;
    return type;
  }
  const onnx::TypeProto_Tensor &tensorType = proto.tensor_type();
  type.dtype = tensorType.elem_type();
  if (!tensorType.has_shape())
    return type;
  type.hasShape = true;
  for (const onnx::TensorShapeProto_Dimension &dim : tensorType.shape().dim()) {
    if (dim.has_dim_value() && dim.dim_value() >= 0) {
      type.dims.push_back(dim.dim_value());
      type.symbols.emplace_back();
    } else {
      type.dims.push_back(-1);
      type.symbols.push_back(dim.has_dim_param() ? dim.dim_param() : "");
    }
  }
  return type;
}

Attribute convertAttribute(const onnx::AttributeProto &proto,
                           const std::string &modelDir) {
  Attribute attr;
  attr.name = proto.name();
  switch (proto.type()) {
  case onnx::AttributeProto::FLOAT:
    attr.kind = Attribute::Float;
    attr.f = proto.f();
    break;
  case onnx::AttributeProto::INT:
    attr.kind = Attribute::Int;
    attr.i = proto.i();
    break;
  case onnx::AttributeProto::STRING:
    attr.kind = Attribute::String;
    attr.s = proto.s();
    break;
  case onnx::AttributeProto::TENSOR:
    attr.kind = Attribute::TensorValue;
    attr.t = convertTensor(proto.t(), modelDir);
    break;
  case onnx::AttributeProto::GRAPH:
  case onnx::AttributeProto::GRAPHS:
    attr.kind = Attribute::Graph;
    break;
  case onnx::AttributeProto::FLOATS:
    attr.kind = Attribute::Floats;
    attr.floats.assign(proto.floats().begin(), proto.floats().end());
    break;
  case onnx::AttributeProto::INTS:
    attr.kind = Attribute::Ints;
    attr.ints.assign(proto.ints().begin(), proto.ints().end());
    break;
  case onnx::AttributeProto::STRINGS:
    attr.kind = Attribute::Strings;
    attr.strings.assign(proto.strings().begin(), proto.strings().end());
    break;
  default:
    attr.kind = Attribute::Other;
    break;
  }
  return attr;
}

/// Replaces the declared shape of the graph inputs named (or numbered) in
/// `options.shapes`.
void applyShapes(onnx::GraphProto &graph, const LoadOptions &options,
                 const std::set<std::string> &initializerNames) {
  std::vector<onnx::ValueInfoProto *> inputs;
  for (onnx::ValueInfoProto &input : *graph.mutable_input())
    if (!initializerNames.count(input.name()))
      inputs.push_back(&input);
  for (const auto &[key, dims] : options.shapes) {
    onnx::ValueInfoProto *target = nullptr;
    for (onnx::ValueInfoProto *input : inputs)
      if (input->name() == key)
        target = input;
    if (!target && !key.empty() &&
        key.find_first_not_of("0123456789") == std::string::npos) {
      size_t index = std::stoul(key);
      if (index < inputs.size())
        target = inputs[index];
    }
    if (!target) {
      std::string names;
      for (onnx::ValueInfoProto *input : inputs)
        names += (names.empty() ? "'" : ", '") + input->name() + "'";
      fail("--shape names input '" + key + "', but the graph's inputs are " +
           (names.empty() ? std::string("none") : names));
    }
    if (!target->type().has_tensor_type())
      fail("--shape: input '" + target->name() + "' is not a tensor");
    onnx::TypeProto_Tensor *tensorType =
        target->mutable_type()->mutable_tensor_type();
    if (tensorType->has_shape() &&
        tensorType->shape().dim_size() != static_cast<int>(dims.size()))
      fail("--shape gives input '" + target->name() + "' " +
           std::to_string(dims.size()) + " dimensions, but it has " +
           std::to_string(tensorType->shape().dim_size()));
    if (tensorType->has_shape()) {
      for (size_t i = 0; i < dims.size(); ++i) {
        const onnx::TensorShapeProto_Dimension &dim =
            tensorType->shape().dim(static_cast<int>(i));
        if (dim.has_dim_value() && dim.dim_value() != dims[i])
          fail("--shape gives input '" + target->name() + "' size " +
               std::to_string(dims[i]) + " in dimension " + std::to_string(i) +
               ", but the model fixes it to " +
               std::to_string(dim.dim_value()));
      }
    }
    onnx::TensorShapeProto *shape = tensorType->mutable_shape();
    shape->clear_dim();
    for (int64_t d : dims)
      shape->add_dim()->set_dim_value(d);
  }
}

void inlineExternalData(onnx::TensorProto &proto, const std::string &modelDir) {
  Tensor tensor = convertTensor(proto, modelDir);
  proto.clear_external_data();
  proto.set_data_location(onnx::TensorProto::DEFAULT);
  proto.set_raw_data(std::string(tensor.data.begin(), tensor.data.end()));
}

/// Parses the bytes and reads every external-data tensor into raw_data, so
/// that the checker and shape inference see the values.
void parse(const void *data, size_t size, const std::string &modelDir,
           onnx::ModelProto &proto, bool *hadExternalData = nullptr) {
  if (size > static_cast<size_t>(std::numeric_limits<int>::max()))
    fail("the model is larger than 2 GB; store its weights as ONNX external "
         "data");
  {
    google::protobuf::io::CodedInputStream stream(
        static_cast<const uint8_t *>(data), static_cast<int>(size));
    stream.SetRecursionLimit(64);
    if (!proto.ParseFromCodedStream(&stream) || !stream.ConsumedEntireMessage())
      fail("not an ONNX model (the bytes do not parse as an ONNX ModelProto; "
           "truncated or another format?)");
  }
  if (!proto.has_graph())
    fail("not an ONNX model (no graph; truncated or another format?)");
  if (proto.ir_version() <= 0)
    fail("not an ONNX model (no IR version; truncated or another format?)");
  onnx::GraphProto &graph = *proto.mutable_graph();
  bool external = false;
  for (onnx::TensorProto &init : *graph.mutable_initializer())
    if (init.data_location() == onnx::TensorProto::EXTERNAL) {
      inlineExternalData(init, modelDir);
      external = true;
    }
  for (onnx::NodeProto &node : *graph.mutable_node())
    for (onnx::AttributeProto &attr : *node.mutable_attribute())
      if (attr.has_t() &&
          attr.t().data_location() == onnx::TensorProto::EXTERNAL) {
        inlineExternalData(*attr.mutable_t(), modelDir);
        external = true;
      }
  if (hadExternalData)
    *hadExternalData = external;
}

void load(const void *data, size_t size, const LoadOptions &options,
          Model &model) {
  onnx::ModelProto proto;
  parse(data, size, options.modelDir, proto);

  model.irVersion = proto.ir_version();
  model.producer = proto.producer_name();
  for (const onnx::OperatorSetIdProto &opset : proto.opset_import()) {
    std::string domain = opset.domain() == "ai.onnx" ? "" : opset.domain();
    model.opsets[domain] = opset.version();
  }
  if (!model.opsets.count(""))
    fail("the model imports no opset of the default ONNX domain");
  model.opset = model.opsets[""];
  if (model.opset < kMinOpset || model.opset > kMaxOpset)
    fail("the model uses opset " + std::to_string(model.opset) +
         " of the default domain; amp-import-onnx supports opsets " +
         std::to_string(kMinOpset) + " to " + std::to_string(kMaxOpset));

  onnx::GraphProto &graph = *proto.mutable_graph();
  model.graphName = graph.name();

  std::set<std::string> initializerNames;
  for (const onnx::TensorProto &init : graph.initializer())
    initializerNames.insert(init.name());

  applyShapes(graph, options, initializerNames);

  try {
    onnx::checker::check_model(proto);
  } catch (const std::exception &e) {
    fail(std::string("invalid ONNX model: ") + e.what());
  }
  try {
    onnx::ShapeInferenceOptions inference(/*check_type=*/false,
                                          /*error_mode=*/0,
                                          /*data_prop=*/true);
    onnx::shape_inference::InferShapes(
        proto, onnx::OpSchemaRegistry::Instance(), inference);
  } catch (const std::exception &e) {
    model.warnings.push_back(std::string("ONNX shape inference failed: ") +
                             e.what());
  }

  for (const onnx::TensorProto &init : graph.initializer())
    model.initializers.push_back(convertTensor(init, options.modelDir));
  for (const onnx::ValueInfoProto &input : graph.input())
    if (!initializerNames.count(input.name()))
      model.inputs.push_back({input.name(), convertType(input.type())});
  for (const onnx::ValueInfoProto &output : graph.output())
    model.outputs.push_back({output.name(), convertType(output.type())});
  for (const onnx::ValueInfoProto &info : graph.value_info())
    model.valueTypes[info.name()] = convertType(info.type());
  for (const ValueInfo &info : model.outputs)
    model.valueTypes[info.name] = info.type;
  for (const onnx::NodeProto &nodeProto : graph.node()) {
    Node node;
    node.opType = nodeProto.op_type();
    node.domain = nodeProto.domain() == "ai.onnx" ? "" : nodeProto.domain();
    node.name = nodeProto.name();
    node.inputs.assign(nodeProto.input().begin(), nodeProto.input().end());
    node.outputs.assign(nodeProto.output().begin(), nodeProto.output().end());
    for (const onnx::AttributeProto &attr : nodeProto.attribute())
      node.attributes.push_back(convertAttribute(attr, options.modelDir));
    model.nodes.push_back(std::move(node));
  }
}

/// Runs `fn`; an exception becomes a message in `error` and false.
template <typename Fn>
bool catchErrors(Fn fn, std::string &error) {
  try {
    fn();
    return true;
  } catch (const LoadError &e) {
    error = e.message;
  } catch (const std::exception &e) {
    error = std::string("cannot read the model: ") + e.what();
  }
  return false;
}

} // namespace

bool amp::onnximport::parseModelProto(const void *data, size_t size,
                                      const std::string &modelDir,
                                      onnx::ModelProto &proto,
                                      std::string &error,
                                      bool *hadExternalData) {
  return catchErrors(
      [&] { parse(data, size, modelDir, proto, hadExternalData); }, error);
}

bool amp::onnximport::loadModel(const void *data, size_t size,
                                const LoadOptions &options, Model &model,
                                std::string &error) {
  return catchErrors([&] { load(data, size, options, model); }, error);
}
