//===- StrongTyping.cpp - Value types and the checks of the written model -===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The last step of amp-convert-onnx before a model is written: value_info
// from ONNX's shape inference in strict mode, ONNX's checker, and the rules
// of a strongly typed graph that TensorRT and ONNX Runtime rely on.
//
//===----------------------------------------------------------------------===//

#include "WriterSupport.h"

#include "onnx/checker.h"
#include "onnx/defs/schema.h"
#include "onnx/shape_inference/implementation.h"

#include <set>
#include <unordered_map>

using namespace amp::onnxexport;

int amp::onnxexport::getOpset(const onnx::ModelProto &model, const std::string &domain) {
  for (const auto &opset : model.opset_import())
    if (opset.domain() == domain ||
        (domain.empty() && opset.domain() == "ai.onnx"))
      return static_cast<int>(opset.version());
  return 0;
}

void amp::onnxexport::checkResult(onnx::ModelProto &model) {
  onnx::GraphProto &graph = *model.mutable_graph();
  // Shape inference cannot type the outputs of ops without a schema (other
  // domains): their declared types stay, the others are inferred anew.
  std::set<std::string> opaqueOutputs;
  for (const auto &node : graph.node())
    if (!onnx::OpSchemaRegistry::Schema(node.op_type(), getOpset(model, node.domain()),
                                        node.domain()))
      opaqueOutputs.insert(node.output().begin(), node.output().end());
  google::protobuf::RepeatedPtrField<onnx::ValueInfoProto> kept;
  for (const auto &info : graph.value_info())
    if (opaqueOutputs.count(info.name()))
      *kept.Add() = info;
  graph.mutable_value_info()->Swap(&kept);
  try {
    onnx::ShapeInferenceOptions inference(/*check_type=*/true,
                                          /*error_mode=*/1,
                                          /*data_prop=*/true);
    onnx::shape_inference::InferShapes(
        model, onnx::OpSchemaRegistry::Instance(), inference);
    onnx::checker::check_model(model);
  } catch (const std::exception &e) {
    fail(std::string("internal error: the mixed-precision model does not "
                     "check: ") +
         e.what());
  }
  std::unordered_map<std::string, int32_t> types;
  std::unordered_map<std::string, const onnx::NodeProto *> producers;
  for (const auto &info : graph.value_info())
    types[info.name()] = info.type().tensor_type().elem_type();
  for (const auto &info : graph.input())
    types[info.name()] = info.type().tensor_type().elem_type();
  for (const auto &info : graph.output())
    types[info.name()] = info.type().tensor_type().elem_type();
  for (const auto &init : graph.initializer())
    types[init.name()] = init.data_type();
  for (const auto &node : graph.node()) {
    for (const std::string &output : node.output()) {
      producers[output] = &node;
      if (!output.empty() && !types.count(output))
        fail("internal error: shape inference gives no type for '" + output +
             "'");
    }
    if (node.op_type() != "Cast" || !node.domain().empty())
      continue;
    auto prod = producers.find(node.input(0));
    if (prod != producers.end() && prod->second->op_type() == "Cast" &&
        prod->second->name().rfind("amp_cast_", 0) == 0)
      fail("internal error: Cast chain at '" + node.name() + "'");
    if (types.count(node.input(0)) &&
        types[node.input(0)] == types[node.output(0)] &&
        node.name().rfind("amp_cast_", 0) == 0)
      fail("internal error: '" + node.name() + "' casts to its input's type");
  }
}

