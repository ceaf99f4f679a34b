//===- ExternalData.cpp - Writing the model, weights apart if need be -----===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A protobuf message cannot exceed 2 GB, so a model with larger weights
// keeps them in a file of its own ("external data": each tensor names the
// file, an offset and a length). The mixed-precision model is written that
// way when the input was, or when it would not fit in one message: every
// tensor of at least 1 KB (onnx.save's default threshold) goes, in graph
// order, to one file beside the model, named after it (model.onnx.data).
//
//===----------------------------------------------------------------------===//

#include "WriterSupport.h"

#include <fstream>
#include <limits>

using namespace amp::onnxexport;

/// Tensors of at least this many bytes are written apart.
static constexpr size_t kExternalThreshold = 1024;

namespace {
/// Appends tensors' bytes to the data file and points the tensors to them.
class DataFile {
public:
  DataFile(const std::string &modelPath) {
    size_t slash = modelPath.find_last_of('/');
    location = (slash == std::string::npos ? modelPath
                                            : modelPath.substr(slash + 1)) +
               ".data";
    path = (slash == std::string::npos ? "" : modelPath.substr(0, slash + 1)) +
           location;
    file.open(path, std::ios::binary | std::ios::trunc);
    if (!file)
      fail("cannot write '" + path + "'");
  }

  void move(onnx::TensorProto &tensor) {
    if (tensor.data_location() == onnx::TensorProto::EXTERNAL ||
        !tensor.has_raw_data() || tensor.raw_data().size() < kExternalThreshold)
      return;
    const std::string &raw = tensor.raw_data();
    file.write(raw.data(), static_cast<std::streamsize>(raw.size()));
    if (!file)
      fail("cannot write '" + path + "'");
    auto add = [&](const std::string &key, const std::string &value) {
      onnx::StringStringEntryProto *entry = tensor.add_external_data();
      entry->set_key(key);
      entry->set_value(value);
    };
    add("location", location);
    add("offset", std::to_string(offset));
    add("length", std::to_string(raw.size()));
    offset += raw.size();
    tensor.clear_raw_data();
    tensor.set_data_location(onnx::TensorProto::EXTERNAL);
  }

  void close() {
    file.close();
    if (!file)
      fail("cannot write '" + path + "'");
  }

private:
  std::string location, path;
  std::ofstream file;
  uint64_t offset = 0;
};
} // namespace

void amp::onnxexport::writeModelFile(onnx::ModelProto &model,
                                     const std::string &outPath,
                                     bool externalData) {
  constexpr size_t kLimit = std::numeric_limits<int>::max();
  if (externalData || model.ByteSizeLong() > kLimit) {
    DataFile data(outPath);
    onnx::GraphProto &graph = *model.mutable_graph();
    for (onnx::TensorProto &init : *graph.mutable_initializer())
      data.move(init);
    for (onnx::NodeProto &node : *graph.mutable_node())
      for (onnx::AttributeProto &attr : *node.mutable_attribute())
        if (attr.has_t())
          data.move(*attr.mutable_t());
    data.close();
    if (model.ByteSizeLong() > kLimit)
      fail("the mixed-precision model is larger than 2 GB even with its "
           "weights in external data");
  }
  std::ofstream file(outPath, std::ios::binary | std::ios::trunc);
  if (!file || !model.SerializeToOstream(&file))
    fail("cannot write '" + outPath + "'");
}
