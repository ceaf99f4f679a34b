//===- GraphImporter.cpp - ONNX graph to one func.func --------------------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Walks the nodes in graph order (ONNX requires a topological order), calls
// each node's converter, and checks every output it defines against the
// shape ONNX shape inference found. Values known at import time (weights,
// Constant nodes, shape arithmetic) stay host tensors until an op needs them
// at run time; large float ones become dense_resource blobs. A symbolic input
// dimension becomes a dynamic one; only converters marked
// DynamicDims::Supported see it (checkDynamicInputs).
//
//===----------------------------------------------------------------------===//

#include "GraphImporter.h"
#include "OnnxImporter.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/BuiltinDialect.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace amp::onnximport;

/// Float tensors with more elements than this become dense_resource blobs.
static constexpr int64_t kMaxInlineElements = 16;

//===----------------------------------------------------------------------===//
// NodeContext
//===----------------------------------------------------------------------===//

static Location getNodeLoc(MLIRContext &ctx, const Model &model,
                           const Node &node, bool withIndex) {
  std::string name = node.name.empty()
                         ? node.opType + ":" +
                               (node.outputs.empty() ? "" : node.outputs[0])
                         : node.name;
  StringAttr nameAttr = StringAttr::get(&ctx, name);
  if (!withIndex)
    return NameLoc::get(nameAttr);
  unsigned index = static_cast<unsigned>(&node - model.nodes.data());
  return NameLoc::get(nameAttr, FileLineColLoc::get(&ctx, kNodeIndexFile,
                                                    index + 1, 0));
}

NodeContext::NodeContext(GraphImporter &importer, const Node &node,
                         int64_t opset)
    : node(node), opset(opset), b(importer.builder),
      loc(getNodeLoc(importer.context, importer.model, node,
                     importer.nodeIndexLocs)),
      importer(importer) {}

bool NodeContext::hasInput(unsigned i) const {
  return i < node.inputs.size() && !node.inputs[i].empty();
}

Value NodeContext::input(unsigned i) {
  assert(hasInput(i) && "input not given");
  return importer.lookup(node.inputs[i]);
}

RankedTensorType NodeContext::inputType(unsigned i) {
  return getTensorType(input(i));
}

const Tensor *NodeContext::constInput(unsigned i) const {
  if (!hasInput(i))
    return nullptr;
  auto it = importer.constants.find(node.inputs[i]);
  return it == importer.constants.end() ? nullptr : &it->second;
}

std::optional<std::vector<int64_t>> NodeContext::constInts(unsigned i) const {
  const Tensor *tensor = constInput(i);
  if (!tensor || tensor->getNumElements() > kMaxFoldElements)
    return std::nullopt;
  return amp::onnximport::getInts(*tensor);
}

int64_t NodeContext::getInt(const char *name, int64_t defaultValue) const {
  const Attribute *a = attr(name);
  return a && a->kind == Attribute::Int ? a->i : defaultValue;
}

float NodeContext::getFloat(const char *name, float defaultValue) const {
  const Attribute *a = attr(name);
  if (a && a->kind == Attribute::Float)
    return a->f;
  if (a && a->kind == Attribute::Int)
    return static_cast<float>(a->i);
  return defaultValue;
}

std::string NodeContext::getString(const char *name,
                                   const std::string &defaultValue) const {
  const Attribute *a = attr(name);
  return a && a->kind == Attribute::String ? a->s : defaultValue;
}

std::optional<std::vector<int64_t>>
NodeContext::getInts(const char *name) const {
  const Attribute *a = attr(name);
  if (!a)
    return std::nullopt;
  if (a->kind == Attribute::Int)
    return std::vector<int64_t>{a->i};
  if (a->kind != Attribute::Ints)
    return std::nullopt;
  return a->ints;
}

std::optional<std::vector<float>>
NodeContext::getFloats(const char *name) const {
  const Attribute *a = attr(name);
  if (!a || a->kind != Attribute::Floats)
    return std::nullopt;
  return a->floats;
}

bool NodeContext::hasOutput(unsigned i) const {
  return i < node.outputs.size() && !node.outputs[i].empty();
}

void NodeContext::setOutput(unsigned i, Value value) {
  if (hasOutput(i))
    importer.values[node.outputs[i]] = value;
}

void NodeContext::setConstOutput(unsigned i, Tensor value) {
  if (!hasOutput(i))
    return;
  value.name = node.outputs[i];
  importer.values.erase(node.outputs[i]);
  importer.constants[node.outputs[i]] = std::move(value);
}

Type amp::onnximport::convertDType(MLIRContext *context, int32_t dtype) {
  Builder b(context);
  switch (dtype) {
  case kFloat: return b.getF32Type();
  case kDouble: return b.getF64Type();
  case kFloat16: return b.getF16Type();
  case kBFloat16: return b.getBF16Type();
  case kInt64: return b.getI64Type();
  case kInt32: return b.getI32Type();
  case kInt16: return b.getI16Type();
  case kInt8: return b.getI8Type();
  case kBool: return b.getI1Type();
  default: return nullptr;
  }
}

int32_t amp::onnximport::getDType(Type type) {
  if (type.isF32()) return kFloat;
  if (type.isF64()) return kDouble;
  if (type.isF16()) return kFloat16;
  if (type.isBF16()) return kBFloat16;
  if (type.isInteger(64)) return kInt64;
  if (type.isInteger(32)) return kInt32;
  if (type.isInteger(16)) return kInt16;
  if (type.isInteger(8)) return kInt8;
  if (type.isInteger(1)) return kBool;
  return kUndefined;
}

Type NodeContext::convertDType(int32_t dtype) const {
  return amp::onnximport::convertDType(&importer.context, dtype);
}

int32_t NodeContext::getDType(Type type) const {
  return amp::onnximport::getDType(type);
}

LogicalResult NodeContext::error(const Twine &message) const {
  std::string text = "node '" + node.name + "' (" + node.opType + ", opset " +
                     std::to_string(opset) + "): " + message.str();
  importer.addError(text);
  return failure();
}

LogicalResult NodeContext::unsupported(const char *attrName,
                                       const Twine &value) const {
  return error(Twine("unsupported value of attribute '") + attrName +
               "': " + value);
}

LogicalResult NodeContext::checkSizes(ArrayRef<int64_t> values,
                                      const char *what) const {
  constexpr int64_t kLimit = int64_t(1) << 31;
  for (int64_t v : values)
    if (v > kLimit || v < -kLimit)
      return error(Twine("'") + what + "' value " + Twine(v) +
                   " is out of range");
  return success();
}

LogicalResult NodeContext::dynamicUnsupported(const Twine &what) const {
  return error(what + " is dynamic, which " + node.opType +
               " does not support; fix the symbolic input dimensions with " +
               importer.shapeHint);
}

LogicalResult NodeContext::requireStatic(Value value, ArrayRef<int64_t> dims,
                                         const Twine &what) const {
  ArrayRef<int64_t> shape = getShape(value);
  for (int64_t d : dims)
    if (d < static_cast<int64_t>(shape.size()) &&
        ShapedType::isDynamic(shape[d]))
      return dynamicUnsupported(what);
  return success();
}

FailureOr<int64_t> NodeContext::normalizeAxis(int64_t axis,
                                              int64_t rank) const {
  if (axis < -rank || axis >= std::max<int64_t>(rank, 1)) {
    (void)error("axis " + Twine(axis) + " is out of range for rank " + Twine(rank));
    return failure();
  }
  return axis < 0 ? axis + rank : axis;
}

//===----------------------------------------------------------------------===//
// GraphImporter
//===----------------------------------------------------------------------===//

GraphImporter::GraphImporter(MLIRContext &context, const Model &model,
                             std::vector<std::string> &errors,
                             bool nodeIndexLocs, bool opaqueUnsupported)
    : context(context), model(model), errors(errors), builder(&context),
      nodeIndexLocs(nodeIndexLocs), opaqueUnsupported(opaqueUnsupported) {}

static std::string describeShape(ArrayRef<int64_t> shape) {
  std::string text;
  for (size_t i = 0; i < shape.size(); ++i)
    text += (i ? "x" : "") +
            (shape[i] < 0 ? std::string("?") : std::to_string(shape[i]));
  return text.empty() ? "scalar" : text;
}

LogicalResult GraphImporter::checkOps() {
  std::vector<std::string> unsupported;
  for (const Node &node : model.nodes) {
    auto domainIt = model.opsets.find(node.domain);
    int64_t opset = domainIt == model.opsets.end() ? 0 : domainIt->second;
    std::string where = "node '" + node.name + "', " +
                        (node.domain.empty() ? "" : "domain '" + node.domain +
                                                        "', ") +
                        "opset " + std::to_string(opset);
    const OpConverter *converter =
        node.domain.empty() ? lookupOpConverter(node.opType) : nullptr;
    if (opaqueUnsupported && (!converter || opset < converter->minOpset)) {
      opaqueNodes.push_back(static_cast<unsigned>(&node - model.nodes.data()));
      continue;
    }
    if (!converter)
      unsupported.push_back(node.opType + " (" + where + ")");
    else if (opset < converter->minOpset)
      unsupported.push_back(node.opType + " (" + where +
                            "; supported from opset " +
                            std::to_string(converter->minOpset) + ")");
  }
  if (unsupported.empty())
    return success();
  std::string message = std::to_string(unsupported.size()) +
                        " node(s) with unsupported operators:";
  for (const std::string &entry : unsupported)
    message += "\n  " + entry;
  addError(message);
  return failure();
}

LogicalResult GraphImporter::checkInputs() {
  bool ok = true;
  // Symbolic dimensions stay dynamic (`?`). Only one distinct one is
  // accepted: every `?` of the function then has the same size at run time,
  // so a dynamic dimension never needs broadcasting against another.
  std::vector<std::string> symbols;
  for (size_t index = 0; index < model.inputs.size(); ++index) {
    const ValueInfo &input = model.inputs[index];
    const ValueType &type = input.type;
    std::string what = "graph input '" + input.name + "'";
    if (!type.isTensor) {
      addError(what + " is not a tensor (sequences and maps are unsupported)");
      ok = false;
      continue;
    }
    if (!convertDType(&context, type.dtype)) {
      addError(what + " has unsupported element type '" +
               getDTypeName(type.dtype) + "'");
      ok = false;
    }
    if (!type.hasShape) {
      addError(what + " has no shape; give it with --shape=" + input.name +
               ":DIMS");
      ok = false;
      continue;
    }
    if (llvm::all_of(type.dims, [](int64_t d) { return d >= 0; }))
      continue;
    std::string fixed;
    for (size_t d = 0; d < type.dims.size(); ++d) {
      fixed +=
          (d ? "x" : "") +
          (type.dims[d] >= 0 ? std::to_string(type.dims[d]) : std::string("1"));
      if (type.dims[d] >= 0)
        continue;
      std::string symbol = type.symbols[d].empty()
                               ? "an unnamed dimension (" + input.name +
                                     ", dimension " + std::to_string(d) + ")"
                               : "'" + type.symbols[d] + "'";
      if (type.symbols[d].empty() || !llvm::is_contained(symbols, symbol))
        symbols.push_back(symbol);
    }
    shapeHint += (shapeHint.empty() ? "" : " ") + ("--shape=" + input.name) +
                 ":" + fixed;
  }
  // The sizes are placeholders (1): the model may need others.
  if (!shapeHint.empty())
    shapeHint = "--shape (e.g. " + shapeHint + ")";
  if (symbols.size() > 1) {
    std::string list;
    for (size_t i = 0; i < symbols.size(); ++i)
      list += (i ? ", " : "") + symbols[i];
    addError("the graph inputs have " + std::to_string(symbols.size()) +
             " different symbolic dimensions (" + list +
             "); only one (the batch) can stay dynamic: fix their sizes with " +
             shapeHint);
    ok = false;
  }
  return success(ok);
}

Value GraphImporter::materialize(const Tensor &tensor) {
  Type elementType = convertDType(&context, tensor.dtype);
  auto type = RankedTensorType::get(tensor.shape, elementType);
  int64_t n = tensor.getNumElements();
  ElementsAttr attr;
  if (isa<FloatType>(elementType) && n > kMaxInlineElements) {
    std::string blobName = tensor.name;
    for (char &c : blobName)
      if (!llvm::isAlnum(c) && c != '_' && c != '.')
        c = '_';
    if (blobName.empty() || llvm::isDigit(blobName[0]))
      blobName = "w" + blobName;
    AsmResourceBlob blob = HeapAsmResourceBlob::allocateAndCopyWithAlign(
        ArrayRef<char>(tensor.data), alignof(double));
    attr = DenseResourceElementsAttr::get(type, blobName, std::move(blob));
  } else if (elementType.isInteger(1)) {
    SmallVector<bool> bits;
    for (int64_t i = 0; i < n; ++i)
      bits.push_back(tensor.data[i] != 0);
    attr = DenseElementsAttr::get(type, ArrayRef<bool>(bits));
  } else {
    attr = DenseElementsAttr::getFromRawBuffer(type, tensor.data);
  }
  return tosa::ConstOp::create(builder, NameLoc::get(StringAttr::get(
                                            &context, tensor.name)),
                               type, attr);
}

Value GraphImporter::lookup(const std::string &name) {
  auto it = values.find(name);
  if (it != values.end())
    return it->second;
  auto constIt = constants.find(name);
  assert(constIt != constants.end() && "inputs are checked before conversion");
  // Constants go to the top of the function, so that a later use by an
  // earlier-placed op can never happen; they are materialized once.
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToStart(builder.getInsertionBlock());
  Value value = materialize(constIt->second);
  values[name] = value;
  return value;
}

LogicalResult GraphImporter::checkInferredShape(const Node &node,
                                                const std::string &name,
                                                Value value) {
  auto it = model.valueTypes.find(name);
  if (it == model.valueTypes.end() || !it->second.hasShape)
    return success();
  const ValueType &expected = it->second;
  ArrayRef<int64_t> shape;
  std::vector<int64_t> constShape;
  auto constIt = constants.find(name);
  if (constIt != constants.end()) {
    constShape = constIt->second.shape;
    shape = constShape;
  } else if (value) {
    shape = getShape(value);
  }
  bool matches = shape.size() == expected.dims.size();
  for (size_t i = 0; matches && i < shape.size(); ++i)
    matches = expected.dims[i] < 0 || expected.dims[i] == shape[i];
  if (matches)
    return success();
  addError("node '" + node.name + "' (" + node.opType + "): output '" + name +
           "' has shape " + describeShape(shape) +
           " but ONNX shape inference says " + describeShape(expected.dims) +
           " (an importer bug or an inconsistent model)");
  return failure();
}

LogicalResult GraphImporter::checkDynamicInputs(NodeContext &ctx,
                                                const OpConverter &converter) {
  const Node &node = ctx.node;
  for (size_t i = 0; i < node.inputs.size(); ++i) {
    const std::string &name = node.inputs[i];
    auto it = values.find(name);
    if (name.empty() || it == values.end())
      continue;
    ArrayRef<int64_t> shape = getShape(it->second);
    int64_t dynamic = getNumDynamicDims(shape);
    if (dynamic == 0)
      continue;
    std::string what = "input '" + name + "' (" + describeShape(shape) + ")";
    if (converter.dynamicDims == DynamicDims::Unsupported)
      return ctx.error(what + " has a dynamic dimension, and " + node.opType +
                       " is only imported with static shapes: fix the "
                       "symbolic input dimensions with " +
                       shapeHint);
    if (dynamic > 1)
      return ctx.error(what +
                       " has more than one dynamic dimension: fix the "
                       "symbolic input dimensions with " +
                       shapeHint);
  }
  return success();
}

LogicalResult GraphImporter::convertNode(const Node &node) {
  for (size_t i = 0; i < node.inputs.size(); ++i) {
    const std::string &name = node.inputs[i];
    if (!name.empty() && !values.count(name) && !constants.count(name)) {
      addError("node '" + node.name + "' (" + node.opType + "): input '" +
               name + "' is not defined before it (the graph is not in "
               "topological order, or the name is wrong)");
      return failure();
    }
  }
  const OpConverter *converter = lookupOpConverter(node.opType);
  NodeContext ctx(*this, node, model.opsets.at(""));
  if (failed(checkDynamicInputs(ctx, *converter)) ||
      failed(converter->convert(ctx)))
    return failure();
  for (size_t i = 0; i < node.outputs.size(); ++i) {
    const std::string &name = node.outputs[i];
    if (name.empty())
      continue;
    if (!values.count(name) && !constants.count(name))
      return ctx.error("output " + Twine(i) + " ('" + name +
                       "') is not supported");
    auto it = values.find(name);
    if (it != values.end()) {
      // Dynamic dimensions count as 1.
      int64_t elements = 1;
      for (int64_t d : getShape(it->second))
        if (!ShapedType::isDynamic(d) &&
            (d < 0 || __builtin_mul_overflow(elements, d, &elements) ||
             elements > (int64_t(1) << 40)))
          return ctx.error("output '" + name + "' is too large");
      if (elements == 0)
        return ctx.error("output '" + name +
                         "' has no elements (zero-size "
                         "tensors are unsupported)");
    }
    if (failed(checkInferredShape(node, name,
                                  it == values.end() ? Value() : it->second)))
      return failure();
  }
  return success();
}

static std::string getFunctionName(const std::string &graphName) {
  std::string name;
  for (char c : graphName)
    name += llvm::isAlnum(c) || c == '_' ? c : '_';
  if (name.empty())
    return "main";
  if (llvm::isDigit(name[0]))
    name = "m_" + name;
  return name;
}

OwningOpRef<ModuleOp> GraphImporter::import(const std::string &entry) {
  if (failed(checkOps()) || failed(checkInputs()))
    return nullptr;

  Location fileLoc = UnknownLoc::get(&context);
  OwningOpRef<ModuleOp> module = ModuleOp::create(fileLoc);
  builder.setInsertionPointToEnd(module->getBody());

  SmallVector<Type> argTypes;
  for (const ValueInfo &input : model.inputs) {
    SmallVector<int64_t> shape;
    for (int64_t d : input.type.dims)
      shape.push_back(d < 0 ? ShapedType::kDynamic : d);
    argTypes.push_back(
        RankedTensorType::get(shape, convertDType(&context, input.type.dtype)));
  }
  std::vector<std::string> argNames;
  for (const ValueInfo &input : model.inputs)
    argNames.push_back(input.name);
  if (failed(addOpaqueArguments(argTypes, argNames)))
    return nullptr;
  std::string name = entry.empty() ? getFunctionName(model.graphName) : entry;
  auto func = func::FuncOp::create(builder, fileLoc, name,
                                   builder.getFunctionType(argTypes, {}));
  Block *body = func.addEntryBlock();
  builder.setInsertionPointToEnd(body);
  for (size_t i = 0; i < argNames.size(); ++i) {
    body->getArgument(i).setLoc(
        NameLoc::get(StringAttr::get(&context, argNames[i])));
    values[argNames[i]] = body->getArgument(i);
  }
  for (const Tensor &init : model.initializers) {
    if (!convertDType(&context, init.dtype)) {
      addError("initializer '" + init.name + "' has unsupported element type '" +
               getDTypeName(init.dtype) + "'");
      return nullptr;
    }
    if (!values.count(init.name))
      constants[init.name] = init;
  }

  size_t nextOpaque = 0;
  for (const Node &node : model.nodes) {
    if (nextOpaque < opaqueNodes.size() &&
        opaqueNodes[nextOpaque] == &node - model.nodes.data()) {
      ++nextOpaque;
      continue;
    }
    if (failed(convertNode(node)))
      return nullptr;
  }

  SmallVector<Value> results;
  for (const ValueInfo &output : model.outputs) {
    if (!values.count(output.name) && !constants.count(output.name)) {
      addError("graph output '" + output.name + "' is not computed by any node");
      return nullptr;
    }
    auto constIt = constants.find(output.name);
    if (constIt != constants.end() && constIt->second.getNumElements() == 0) {
      addError("graph output '" + output.name + "' has no elements (zero-size "
               "tensors are unsupported)");
      return nullptr;
    }
    Value value = lookup(output.name);
    if (output.type.dtype != kUndefined &&
        getDType(getElementType(value)) != output.type.dtype) {
      addError("graph output '" + output.name + "' is declared " +
               getDTypeName(output.type.dtype) + " but computed as " +
               getDTypeName(getDType(getElementType(value))));
      return nullptr;
    }
    results.push_back(value);
  }
  addOpaqueResults(results);
  func::ReturnOp::create(builder, fileLoc, results);
  func.setType(builder.getFunctionType(argTypes, ValueRange(results).getTypes()));
  return module;
}

LogicalResult
GraphImporter::addOpaqueArguments(SmallVectorImpl<Type> &argTypes,
                                  std::vector<std::string> &argNames) {
  for (unsigned index : opaqueNodes) {
    const Node &node = model.nodes[index];
    for (const std::string &output : node.outputs) {
      if (output.empty())
        continue;
      std::string what = "the output '" + output + "' of node '" + node.name +
                         "' (" + node.opType + ", which amp does not import)";
      auto it = model.valueTypes.find(output);
      if (it == model.valueTypes.end() || !it->second.isTensor ||
          !it->second.hasShape ||
          llvm::any_of(it->second.dims, [](int64_t d) { return d < 0; })) {
        addError(what + " has no static shape from ONNX shape inference; "
                 "amp needs one to analyze the nodes after it (give the "
                 "graph inputs static shapes with --shape, or declare the "
                 "output's shape in value_info)");
        return failure();
      }
      Type element = convertDType(&context, it->second.dtype);
      if (!element) {
        addError(what + " has unsupported element type '" +
                 getDTypeName(it->second.dtype) + "'");
        return failure();
      }
      argTypes.push_back(RankedTensorType::get(it->second.dims, element));
      argNames.push_back(output);
    }
  }
  return success();
}

void GraphImporter::addOpaqueResults(SmallVectorImpl<Value> &results) {
  llvm::SmallPtrSet<void *, 8> seen;
  for (unsigned index : opaqueNodes)
    for (const std::string &input : model.nodes[index].inputs) {
      auto it = values.find(input);
      if (input.empty() || it == values.end() || constants.count(input) ||
          isa<BlockArgument>(it->second) ||
          !seen.insert(it->second.getAsOpaquePointer()).second)
        continue;
      results.push_back(it->second);
    }
}
