//===- ModelWriter.cpp - Retyping an ONNX graph to amp's decisions --------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The protobuf half of amp-convert-onnx (see OnnxExport.h). Every node of the
// input stays, with its name, attributes and order; what changes:
//
// 1. Each node's float inputs and outputs whose type the op's schema leaves
//    free (a type parameter such as T that allows float16) take the node's
//    type. Inputs the schema fixes to tensor(float) stay FP32.
// 2. Where a reader wants a value in another type than its producer gives,
//    one Cast per value and type is added after the producer. A Cast that
//    would read an original Cast reads that Cast's input instead (no
//    chains), and an original Cast to float whose readers all want 16 bits
//    is retargeted instead.
// 3. A float initializer (or Constant value) is stored in the type its
//    readers want; with readers of two types, it keeps FP32 and gets a
//    16-bit copy.
// 4. Graph outputs keep FP32 (by default): the producer's value is renamed
//    and a Cast writes the output's name.
//
// Then value_info is rebuilt by strict shape inference and the checker runs.
//
//===----------------------------------------------------------------------===//

#include "OnnxExport.h"
#include "WriterSupport.h"
#include "OnnxModel.h"
#include "ProtoIO.h"

#include "onnx/checker.h"
#include "onnx/defs/schema.h"
#include "onnx/onnx_pb.h"
#include "onnx/shape_inference/implementation.h"

#include <algorithm>
#include <cstring>
#include <fstream>
#include <limits>
#include <map>
#include <set>
#include <unordered_map>

using namespace amp::onnxexport;
using namespace amp::onnximport;

namespace {

bool isLowType(int32_t t) { return t == kFloat16 || t == kBFloat16; }

const char *getTypeSuffix(int32_t t) {
  return t == kFloat16 ? "f16" : t == kBFloat16 ? "bf16" : "f32";
}

const char *getTypeStr(int32_t t) {
  return t == kFloat16 ? "tensor(float16)"
         : t == kBFloat16 ? "tensor(bfloat16)"
                          : "tensor(float)";
}

/// Whether slot `index` of a node's inputs (or outputs) is a type parameter
/// that allows `type`. Fixed types (tensor(float)) and slots the schema does
/// not describe are not free.
bool isFreeSlot(const onnx::OpSchema *schema, bool input, int index,
                int32_t type) {
  if (!schema)
    return false;
  const auto &formals = input ? schema->inputs() : schema->outputs();
  if (formals.empty())
    return false;
  size_t i = static_cast<size_t>(index);
  if (i >= formals.size()) {
    if (formals.back().GetOption() != onnx::OpSchema::Variadic)
      return false;
    i = formals.size() - 1;
  }
  const std::string &typeStr = formals[i].GetTypeStr();
  for (const auto &constraint : schema->typeConstraintParams())
    if (constraint.type_param_str == typeStr) {
      for (const std::string &allowed : constraint.allowed_type_strs)
        if (allowed == getTypeStr(type))
          return true;
      return false;
    }
  return false;
}

class Rewriter {
public:
  Rewriter(onnx::ModelProto &model, const NodeTypes &nodeTypes,
           const ExportOptions &options, ExportStats &stats)
      : model(model), graph(*model.mutable_graph()), nodeTypes(nodeTypes),
        options(options), stats(stats) {}

  void run() {
    readTypes();
    assignNodeTypes();
    collectWishes();
    typeConstantFedNodes();
    retargetCasts();
    typeConstants();
    rebuild();
  }

private:
  /// One reader of a float value: node `node`'s input `slot` (or graph
  /// output `slot` when node is -1) wants it in `type`.
  struct Wish {
    int node;
    int slot;
    int32_t type;
  };

  const onnx::OpSchema *getSchema(const onnx::NodeProto &node) const {
    return onnx::OpSchemaRegistry::Schema(
        node.op_type(), getOpset(model, node.domain()), node.domain());
  }

  bool isFloat(const std::string &name) const {
    auto it = origType.find(name);
    return it != origType.end() && it->second == kFloat;
  }

  /// The element type of every value, as shape inference on the input finds
  /// it.
  void readTypes() {
    onnx::ModelProto inferred = model;
    try {
      onnx::ShapeInferenceOptions inference(false, 0, true);
      onnx::shape_inference::InferShapes(
          inferred, onnx::OpSchemaRegistry::Instance(), inference);
    } catch (const std::exception &e) {
      fail(std::string("ONNX shape inference failed on the input: ") +
           e.what());
    }
    const onnx::GraphProto &g = inferred.graph();
    auto note = [&](const onnx::ValueInfoProto &info) {
      if (info.type().has_tensor_type())
        origType[info.name()] = info.type().tensor_type().elem_type();
    };
    for (const auto &info : g.input())
      note(info);
    for (const auto &info : g.output())
      note(info);
    for (const auto &info : g.value_info())
      note(info);
    for (const auto &init : g.initializer()) {
      origType[init.name()] = init.data_type();
      constants[init.name()] = {-1, 0};
    }
    for (int i = 0; i < graph.node_size(); ++i) {
      const onnx::NodeProto &node = graph.node(i);
      for (int j = 0; j < node.output_size(); ++j)
        producer[node.output(j)] = i;
      if (node.op_type() == "Constant" && node.domain().empty() &&
          node.attribute_size() == 1 && node.attribute(0).name() == "value" &&
          node.output_size() == 1)
        constants[node.output(0)] = {i, 0};
    }
    for (const auto &input : graph.input())
      if (!constants.count(input.name()))
        graphInputs.insert(input.name());
  }

  /// Step 1: the type each node computes in and the types of its outputs.
  void assignNodeTypes() {
    stats.nodes = graph.node_size();
    computeTypes.assign(graph.node_size(), kFloat);
    for (const auto &[name, type] : origType)
      if (type == kFloat)
        currentType[name] = kFloat;
    for (int i = 0; i < graph.node_size(); ++i) {
      const onnx::NodeProto &node = graph.node(i);
      const onnx::OpSchema *schema = getSchema(node);
      int32_t type = i < static_cast<int>(nodeTypes.size()) ? nodeTypes[i] : 0;
      if (node.op_type() == "Cast" && node.domain().empty())
        type = 0; // A Cast reads any type; its output is its `to`.
      else if (type == 0 && readsConstantsOnly(node))
        constantFed.insert(i);
      if (type == 0)
        type = followInputs(node);
      if (isLowType(type) && !allowsType(schema, node, type)) {
        stats.keptFp32.push_back((node.name().empty() ? node.output(0)
                                                      : node.name()) +
                                 " (" + node.op_type() + ")");
        type = kFloat;
      }
      computeTypes[i] = type;
      if (isLowType(type))
        ++stats.nodesLow;
      if (node.op_type() == "Cast" && node.domain().empty())
        continue;
      for (int j = 0; j < node.output_size(); ++j)
        if (isFloat(node.output(j)) && isFreeSlot(schema, false, j, type))
          currentType[node.output(j)] = type;
    }
  }

  /// Whether every float input of `node` is a constant or the output of a
  /// node that reads only constants (an Identity of a weight, as torch
  /// exports shared parameters).
  bool readsConstantsOnly(const onnx::NodeProto &node) const {
    bool any = false;
    for (const std::string &input : node.input()) {
      if (input.empty() || !isFloat(input))
        continue;
      auto prod = producer.find(input);
      if (!constants.count(input) &&
          (prod == producer.end() || !constantFed.count(prod->second)))
        return false;
      any = true;
    }
    return any;
  }

  /// A node amp decided nothing for that reads only constants takes the
  /// type all its readers want, as a constant would (last node first, so
  /// that a chain of them follows its last reader).
  void typeConstantFedNodes() {
    for (auto it = constantFed.rbegin(); it != constantFed.rend(); ++it) {
      int i = *it;
      const onnx::NodeProto &node = graph.node(i);
      std::set<int32_t> types;
      for (const std::string &output : node.output())
        if (isFloat(output)) {
          std::set<int32_t> wished = getWishedTypes(output);
          types.insert(wished.begin(), wished.end());
        }
      const onnx::OpSchema *schema = getSchema(node);
      if (types.size() != 1 || !isLowType(*types.begin()) ||
          !allowsType(schema, node, *types.begin()))
        continue;
      int32_t type = *types.begin();
      computeTypes[i] = type;
      ++stats.nodesLow;
      for (int j = 0; j < node.output_size(); ++j)
        if (isFloat(node.output(j)) && isFreeSlot(schema, false, j, type))
          currentType[node.output(j)] = type;
      for (int j = 0; j < node.input_size(); ++j) {
        auto found = wishes.find(node.input(j));
        if (found == wishes.end())
          continue;
        for (Wish &wish : found->second)
          if (wish.node == i && wish.slot == j)
            wish.type = isFreeSlot(schema, true, j, type) ? type : kFloat;
      }
    }
  }

  /// The type a node amp decided nothing for takes: that of its computed
  /// float inputs when they agree, else FP32.
  int32_t followInputs(const onnx::NodeProto &node) const {
    int32_t type = 0;
    for (const std::string &input : node.input()) {
      if (input.empty() || !isFloat(input) || constants.count(input))
        continue;
      int32_t t = currentType.at(input);
      if (type != 0 && t != type)
        return kFloat;
      type = t;
    }
    return type == 0 ? kFloat : type;
  }

  /// Whether every float slot of `node` that is free allows `type` (a slot
  /// whose parameter does not allow it would force FP32 on that part).
  bool allowsType(const onnx::OpSchema *schema, const onnx::NodeProto &node,
                  int32_t type) const {
    if (!schema)
      return false;
    for (int j = 0; j < node.input_size(); ++j)
      if (isFloat(node.input(j)) && !isFreeSlot(schema, true, j, type) &&
          isFreeSlot(schema, true, j, kFloat))
        return false;
    for (int j = 0; j < node.output_size(); ++j)
      if (isFloat(node.output(j)) && !isFreeSlot(schema, false, j, type) &&
          isFreeSlot(schema, false, j, kFloat))
        return false;
    return true;
  }

  /// Step 2: who reads each float value in which type.
  void collectWishes() {
    for (int i = 0; i < graph.node_size(); ++i) {
      const onnx::NodeProto &node = graph.node(i);
      const onnx::OpSchema *schema = getSchema(node);
      bool isCast = node.op_type() == "Cast" && node.domain().empty();
      for (int j = 0; j < node.input_size(); ++j) {
        const std::string &input = node.input(j);
        if (input.empty() || !isFloat(input))
          continue;
        int32_t type = kFloat;
        if (isCast)
          type = currentType[input];
        else if (isFreeSlot(schema, true, j, computeTypes[i]))
          type = computeTypes[i];
        wishes[input].push_back({i, j, type});
      }
    }
    for (int k = 0; k < graph.output_size(); ++k) {
      const std::string &name = graph.output(k).name();
      if (isFloat(name))
        wishes[name].push_back(
            {-1, k, options.keepIoTypes ? kFloat : currentType[name]});
    }
  }

  /// The distinct types the readers of `name` want.
  std::set<int32_t> getWishedTypes(const std::string &name) const {
    std::set<int32_t> types;
    auto it = wishes.find(name);
    if (it != wishes.end())
      for (const Wish &wish : it->second)
        types.insert(wish.type);
    return types;
  }

  /// The original Cast node that computes `name` from a float value, if
  /// any.
  const onnx::NodeProto *getCastProducer(const std::string &name) const {
    auto it = producer.find(name);
    if (it == producer.end())
      return nullptr;
    const onnx::NodeProto &node = graph.node(it->second);
    if (node.op_type() != "Cast" || !node.domain().empty() ||
        node.input_size() != 1 || !currentType.count(node.input(0)))
      return nullptr;
    return &node;
  }

  /// An original Cast to float whose readers all want one 16-bit type
  /// casts to that type instead (unless its input has that type already:
  /// the readers then read the input).
  void retargetCasts() {
    for (int i = 0; i < graph.node_size(); ++i) {
      onnx::NodeProto &node = *graph.mutable_node(i);
      if (node.op_type() != "Cast" || !node.domain().empty() ||
          node.output_size() != 1 || !isFloat(node.output(0)))
        continue;
      std::set<int32_t> types = getWishedTypes(node.output(0));
      if (types.size() != 1 || !isLowType(*types.begin()))
        continue;
      int32_t type = *types.begin();
      if (currentType.count(node.input(0)) &&
          currentType[node.input(0)] == type)
        continue;
      for (auto &attr : *node.mutable_attribute())
        if (attr.name() == "to")
          attr.set_i(type);
      currentType[node.output(0)] = type;
      ++stats.castsRetargeted;
    }
  }

  /// Step 3: initializers and Constant values take the type their readers
  /// want; graph inputs keep theirs (or, without keepIoTypes, take it).
  void typeConstants() {
    for (auto &[name, where] : constants) {
      if (!isFloat(name))
        continue;
      std::set<int32_t> types = getWishedTypes(name);
      if (types.size() == 1 && isLowType(*types.begin()))
        currentType[name] = *types.begin();
    }
    if (!options.keepIoTypes)
      for (const std::string &name : graphInputs) {
        std::set<int32_t> types = getWishedTypes(name);
        if (isFloat(name) && types.size() == 1)
          currentType[name] = *types.begin();
      }
  }

  /// A name for a new value or node that no other has.
  std::string getFreshName(const std::string &base) {
    std::string name = base;
    for (int n = 1; usedNames.count(name); ++n)
      name = base + "_" + std::to_string(n);
    usedNames.insert(name);
    return name;
  }

  void collectUsedNames() {
    for (const auto &node : graph.node()) {
      usedNames.insert(node.name());
      for (const std::string &name : node.input())
        usedNames.insert(name);
      for (const std::string &name : node.output())
        usedNames.insert(name);
    }
    for (const auto &init : graph.initializer())
      usedNames.insert(init.name());
    for (const auto &input : graph.input())
      usedNames.insert(input.name());
  }

  onnx::NodeProto makeCast(const std::string &input, const std::string &output,
                           int32_t type) {
    onnx::NodeProto cast;
    cast.set_op_type("Cast");
    cast.set_name(getFreshName("amp_cast_" + output));
    cast.add_input(input);
    cast.add_output(output);
    onnx::AttributeProto *to = cast.add_attribute();
    to->set_name("to");
    to->set_type(onnx::AttributeProto::INT);
    to->set_i(type);
    ++stats.castsAdded;
    return cast;
  }

  void rebuild();
  void convertConstant(const std::string &name,
                       std::vector<onnx::TensorProto> &copies);
  void retypeListedInput(const std::string &name, const std::string &newName,
                         int32_t type);
  onnx::TensorProto *findConstantTensor(const std::string &name);

  onnx::ModelProto &model;
  onnx::GraphProto &graph;
  const NodeTypes &nodeTypes;
  const ExportOptions &options;
  ExportStats &stats;

  std::unordered_map<std::string, int32_t> origType;
  std::unordered_map<std::string, int32_t> currentType;
  std::unordered_map<std::string, int> producer;
  /// Initializers (node -1) and Constant nodes' values.
  std::map<std::string, std::pair<int, int>> constants;
  std::set<std::string> graphInputs;
  std::vector<int32_t> computeTypes;
  /// Nodes amp decided nothing for that read only constants.
  std::set<int> constantFed;
  std::unordered_map<std::string, std::vector<Wish>> wishes;
  std::set<std::string> usedNames;
  /// The name of each float value in each type it is read in.
  std::unordered_map<std::string, std::map<int32_t, std::string>> nameIn;
  /// (value, type) pairs whose name is that of another value (no Cast).
  std::set<std::pair<std::string, int32_t>> aliases;
};

onnx::TensorProto *Rewriter::findConstantTensor(const std::string &name) {
  auto [node, unused] = constants.at(name);
  if (node >= 0)
    return graph.mutable_node(node)->mutable_attribute(0)->mutable_t();
  for (auto &init : *graph.mutable_initializer())
    if (init.name() == name)
      return &init;
  return nullptr;
}

/// The FP32 values of a float tensor, from raw_data or float_data.
std::vector<float> readFloats(const onnx::TensorProto &tensor) {
  int64_t n = 1;
  for (int64_t d : tensor.dims())
    n *= d;
  std::vector<float> values(static_cast<size_t>(n));
  if (tensor.has_raw_data()) {
    if (tensor.raw_data().size() != values.size() * sizeof(float))
      fail("initializer '" + tensor.name() + "' has the wrong size");
    std::memcpy(values.data(), tensor.raw_data().data(),
                tensor.raw_data().size());
  } else {
    if (tensor.float_data_size() != n)
      fail("initializer '" + tensor.name() + "' has the wrong size");
    std::copy(tensor.float_data().begin(), tensor.float_data().end(),
              values.begin());
  }
  return values;
}

/// Converts the constant `name` to the 16-bit types its readers want: in
/// place when it has no FP32 reader, else into copies (initializers named
/// as nameIn says) appended to `copies`.
void Rewriter::convertConstant(const std::string &name,
                               std::vector<onnx::TensorProto> &copies) {
  onnx::TensorProto *tensor = findConstantTensor(name);
  std::vector<float> values = readFloats(*tensor);
  int64_t bytes = static_cast<int64_t>(values.size() * sizeof(float));
  stats.initializerBytesBefore += bytes;
  int32_t stored = currentType[name];
  if (!isLowType(stored))
    stats.initializerBytesAfter += bytes;
  for (int32_t type : getWishedTypes(name)) {
    if (!isLowType(type))
      continue;
    std::vector<uint16_t> bits(values.size());
    if (!options.convertFloats(values.data(), values.size(), type,
                               bits.data()))
      fail("internal error: cannot convert initializer '" + name + "' to " +
           getTypeSuffix(type));
    onnx::TensorProto converted = *tensor;
    converted.clear_float_data();
    converted.set_data_type(type);
    converted.set_raw_data(std::string(reinterpret_cast<char *>(bits.data()),
                                       bits.size() * sizeof(uint16_t)));
    stats.initializerBytesAfter += bytes / 2;
    if (type == stored) {
      *tensor = std::move(converted);
      ++stats.initializersConverted;
      retypeListedInput(name, name, type);
      continue;
    }
    converted.set_name(nameIn[name][type]);
    copies.push_back(std::move(converted));
    ++stats.initializersCopied;
    retypeListedInput(name, nameIn[name][type], type);
  }
}

/// Models of IR version 3 list every initializer among the graph inputs:
/// the entry of `name` takes `type` (under `newName`, as a new entry, when
/// the initializer was copied).
void Rewriter::retypeListedInput(const std::string &name,
                                 const std::string &newName, int32_t type) {
  for (int i = 0; i < graph.input_size(); ++i) {
    if (graph.input(i).name() != name)
      continue;
    onnx::ValueInfoProto *entry = graph.mutable_input(i);
    if (newName != name) {
      entry = graph.add_input();
      *entry = graph.input(i);
      entry->set_name(newName);
    }
    entry->mutable_type()->mutable_tensor_type()->set_elem_type(type);
    return;
  }
}

/// Step 4: names for every value in every type it is read in, the Casts,
/// and the new node list.
void Rewriter::rebuild() {
  collectUsedNames();
  std::set<std::string> outputs;
  for (const auto &output : graph.output())
    outputs.insert(output.name());

  // Names. A graph output kept FP32 but computed in 16 bits is renamed; the
  // Cast after it writes the output's name.
  std::vector<std::string> floatValues;
  for (const auto &[name, type] : currentType)
    floatValues.push_back(name);
  std::sort(floatValues.begin(), floatValues.end());
  for (const std::string &name : floatValues) {
    int32_t stored = currentType[name];
    auto &names = nameIn[name];
    bool renamed = options.keepIoTypes && outputs.count(name) &&
                   stored != kFloat && !constants.count(name);
    names[stored] = renamed ? getFreshName(name + "_" + getTypeSuffix(stored))
                            : name;
    if (renamed)
      names[kFloat] = name;
    for (int32_t type : getWishedTypes(name))
      if (!names.count(type))
        names[type] = getFreshName(name + "_" + getTypeSuffix(type));
  }
  // A reader of an original Cast's output that wants the Cast's input type
  // reads the input itself.
  for (const std::string &name : floatValues) {
    const onnx::NodeProto *cast = getCastProducer(name);
    if (!cast)
      continue;
    int32_t inputType = currentType[cast->input(0)];
    auto &names = nameIn[name];
    if (inputType != currentType[name] && names.count(inputType)) {
      names[inputType] = nameIn[cast->input(0)][inputType];
      aliases.insert({name, inputType});
    }
  }

  // Constants in the types their readers want.
  std::vector<onnx::TensorProto> copies;
  for (const auto &[name, where] : constants)
    if (isFloat(name))
      convertConstant(name, copies);
  for (onnx::TensorProto &copy : copies)
    *graph.add_initializer() = std::move(copy);

  // The Casts that make a value `name` in every other type it is read in.
  auto castsOf = [&](const std::string &name,
                     google::protobuf::RepeatedPtrField<onnx::NodeProto> &out) {
    if (!currentType.count(name) || constants.count(name))
      return;
    int32_t stored = currentType[name];
    std::string source = nameIn[name][stored];
    // A Cast of a Cast's output casts the first Cast's input instead.
    if (const onnx::NodeProto *cast = getCastProducer(name))
      source = nameIn[cast->input(0)][currentType[cast->input(0)]];
    for (const auto &[type, castName] : nameIn[name])
      if (type != stored && !aliases.count({name, type}))
        *out.Add() = makeCast(source, castName, type);
  };

  google::protobuf::RepeatedPtrField<onnx::NodeProto> nodes;
  for (const std::string &name : graphInputs)
    castsOf(name, nodes);
  for (int i = 0; i < graph.node_size(); ++i) {
    onnx::NodeProto node = graph.node(i);
    for (int j = 0; j < node.input_size(); ++j) {
      auto it = wishes.find(node.input(j));
      if (it == wishes.end())
        continue;
      for (const Wish &wish : it->second)
        if (wish.node == i && wish.slot == j)
          node.set_input(j, nameIn[node.input(j)][wish.type]);
    }
    for (int j = 0; j < node.output_size(); ++j)
      if (currentType.count(node.output(j)))
        node.set_output(j,
                        nameIn[node.output(j)][currentType[node.output(j)]]);
    *nodes.Add() = std::move(node);
    for (const std::string &output : graph.node(i).output())
      castsOf(output, nodes);
  }
  graph.mutable_node()->Swap(&nodes);

  // Graph inputs and outputs take the types they are now read in.
  for (auto &input : *graph.mutable_input())
    if (currentType.count(input.name()) && !constants.count(input.name()))
      input.mutable_type()->mutable_tensor_type()->set_elem_type(
          currentType[input.name()]);
  if (!options.keepIoTypes)
    for (auto &output : *graph.mutable_output())
      if (currentType.count(output.name()))
        output.mutable_type()->mutable_tensor_type()->set_elem_type(
            currentType[output.name()]);
}

void exportModel(const void *data, size_t size, const NodeTypes &nodeTypes,
                 const ExportOptions &options, const std::string &outPath,
                 ExportStats &stats) {
  onnx::ModelProto model;
  std::string error;
  bool hadExternalData = false;
  if (!parseModelProto(data, size, options.modelDir, model, error,
                       &hadExternalData))
    fail(error);
  if (nodeTypes.size() > static_cast<size_t>(model.graph().node_size()))
    fail("internal error: decisions for " + std::to_string(nodeTypes.size()) +
         " nodes, the graph has " +
         std::to_string(model.graph().node_size()));
  for (const onnx::NodeProto &node : model.graph().node())
    for (const onnx::AttributeProto &attr : node.attribute())
      if (attr.has_g() || attr.graphs_size())
        fail("node '" + node.name() + "' (" + node.op_type() +
             ") has a subgraph; models with subgraphs (If, Loop, Scan) are "
             "not converted yet");
  Rewriter(model, nodeTypes, options, stats).run();
  checkResult(model);
  writeModelFile(model, outPath,
                 options.externalData.value_or(hadExternalData));
}

} // namespace

bool amp::onnxexport::writeMixedModel(const void *data, size_t size,
                                      const NodeTypes &nodeTypes,
                                      const ExportOptions &options,
                                      const std::string &outPath,
                                      ExportStats &stats, std::string &error) {
  try {
    exportModel(data, size, nodeTypes, options, outPath, stats);
    return true;
  } catch (const ExportError &e) {
    error = e.message;
  } catch (const std::exception &e) {
    error = std::string("cannot export the model: ") + e.what();
  }
  return false;
}
