//===- ReportGraph.cpp - The dataflow graph of a converted module ---------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Finds the report's ops in the converted module, then joins them through
// the ops that are not in the report (see ReportGraph.h). Where a value
// comes from is computed once per value, without recursion (a long chain of
// looked-through ops must not exhaust the stack).
//
//===----------------------------------------------------------------------===//

#include "amp/Report/ReportGraph.h"

#include "SourceLines.h"

#include "amp/Analysis/Layers.h"
#include "amp/Report/HtmlReport.h"
#include "amp/Utils/CastUtils.h"
#include "amp/Utils/TypeUtils.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/StringMap.h"

#include <set>

using namespace mlir;
using namespace mlir::amp;

namespace {

/// A node a value comes from, and the casts on the way.
struct Source {
  int64_t node;
  int64_t castBytes;
  /// The types the casts convert between ("f32->f16"), empty without casts.
  std::string casts;
};

/// No value is traced to more sources than this (a value that mixes more
/// is drawn with the first ones only): keeps the work linear on graphs
/// where many values are combined by ops the report does not hold.
constexpr size_t kMaxSources = 32;

/// The bytes a cast reads and writes (as ConversionStats::castBytes).
int64_t getCastBytes(Operation *cast) {
  Type from = getScalarType(cast->getOperand(0).getType());
  Type to = getScalarType(cast->getResult(0).getType());
  int64_t elements = 1;
  if (auto shaped = dyn_cast<ShapedType>(cast->getResult(0).getType())) {
    if (!shaped.hasStaticShape())
      return 0;
    elements = shaped.getNumElements();
  }
  return elements *
         (from.getIntOrFloatBitWidth() + to.getIntOrFloatBitWidth()) / 8;
}

std::string printType(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  type.print(os);
  return text;
}

/// The operand and result types of `op`: "(f16, f16) -> f32", shortened to
/// a readable length.
std::string describeTypes(Operation *op) {
  std::string text = "(";
  llvm::raw_string_ostream os(text);
  llvm::interleaveComma(op->getOperandTypes(), os,
                        [&](Type type) { type.print(os); });
  os << ") -> ";
  if (op->getNumResults() == 1)
    op->getResult(0).getType().print(os);
  else {
    os << "(";
    llvm::interleaveComma(op->getResultTypes(), os,
                          [&](Type type) { type.print(os); });
    os << ")";
  }
  constexpr size_t kMaxLength = 400;
  if (text.size() > kMaxLength)
    text = text.substr(0, kMaxLength - 3) + "...";
  return text;
}

std::string getFunctionName(Operation *func) {
  if (auto symbol = dyn_cast<SymbolOpInterface>(func))
    return symbol.getName().str();
  return func->getName().getStringRef().str();
}

/// Builds the graph, function by function.
class GraphBuilder {
public:
  GraphBuilder(llvm::json::Array &ops) : ops(ops) {
    for (auto [i, value] : llvm::enumerate(ops)) {
      const llvm::json::Object *op = value.getAsObject();
      if (!op)
        continue;
      pending[makeKey(op->getString("function").value_or(""),
                      op->getString("op").value_or(""),
                      op->getString("loc").value_or(""))]
          .push_back(i);
    }
    layerOf.assign(ops.size(), -1);
  }

  void addFunction(FunctionOpInterface func);
  llvm::json::Object finish();

private:
  static std::string makeKey(StringRef function, StringRef name,
                             StringRef loc) {
    return (function + "\n" + name + "\n" + loc).str();
  }
  /// The report op `op` stands for, if any (each report op once, in order).
  std::optional<int64_t> claim(StringRef function, Operation *op);
  int64_t addIo(const std::string &function, std::string name, Type type,
                StringRef kind);
  ArrayRef<Source> getSources(Value value);
  void addEdges(Value value, int64_t to);
  void annotate(int64_t index, Operation *op);

  llvm::json::Array &ops;
  llvm::StringMap<SmallVector<int64_t, 1>> pending;
  llvm::StringMap<size_t> claimed;
  int64_t matched = 0;

  // The function being added.
  DenseMap<Operation *, int64_t> nodeOf;
  DenseMap<Value, int64_t> argumentNode;
  DenseMap<Value, SmallVector<Source, 1>> sources;
  std::set<std::tuple<int64_t, int64_t, std::string>> edgeSet;

  llvm::json::Array functions, io, layers, edges;
  std::vector<int64_t> layerOf;
  SourceLines sourceLines;
};

} // namespace

std::optional<int64_t> GraphBuilder::claim(StringRef function, Operation *op) {
  if (pending.empty())
    return std::nullopt;
  std::string key = makeKey(function, op->getName().getStringRef(),
                            formatReportLocation(op->getLoc()));
  auto it = pending.find(key);
  if (it == pending.end())
    return std::nullopt;
  size_t &next = claimed[key];
  if (next >= it->second.size())
    return std::nullopt;
  ++matched;
  return it->second[next++];
}

int64_t GraphBuilder::addIo(const std::string &function, std::string name,
                            Type type, StringRef kind) {
  io.push_back(llvm::json::Object{{"function", function},
                                  {"name", std::move(name)},
                                  {"type", printType(type)},
                                  {"kind", kind}});
  return static_cast<int64_t>(ops.size() + io.size() - 1);
}

ArrayRef<Source> GraphBuilder::getSources(Value root) {
  // Depth-first over the values `root` comes from; a value is resolved once
  // the values it depends on are.
  SmallVector<std::pair<Value, bool>> stack{{root, false}};
  while (!stack.empty()) {
    auto [value, expanded] = stack.back();
    if (sources.count(value)) {
      stack.pop_back();
      continue;
    }
    Operation *def = value.getDefiningOp();
    SmallVector<Source, 1> result;
    if (!def) {
      auto it = argumentNode.find(value);
      if (it != argumentNode.end())
        result.push_back({it->second, 0, ""});
      sources[value] = std::move(result);
      stack.pop_back();
      continue;
    }
    if (auto node = nodeOf.find(def); node != nodeOf.end()) {
      result.push_back({node->second, 0, ""});
      sources[value] = std::move(result);
      stack.pop_back();
      continue;
    }
    if (!expanded) {
      stack.back().second = true;
      for (Value operand : def->getOperands())
        if (!sources.count(operand))
          stack.push_back({operand, false});
      continue;
    }
    stack.pop_back();
    if (isFloatCast(def)) {
      int64_t bytes = getCastBytes(def);
      std::string from = printType(getScalarType(def->getOperand(0)));
      std::string to = printType(getScalarType(def->getResult(0)));
      for (const Source &source : sources[getFloatCastSource(def)])
        result.push_back(
            {source.node, source.castBytes + bytes,
             (source.casts.empty() ? from : source.casts) + "->" + to});
    } else {
      for (Value operand : def->getOperands()) {
        for (const Source &source : sources[operand]) {
          if (result.size() >= kMaxSources)
            break;
          if (llvm::none_of(result, [&](const Source &s) {
                return s.node == source.node && s.casts == source.casts;
              }))
            result.push_back(source);
        }
      }
    }
    sources[value] = std::move(result);
  }
  return sources[root];
}

void GraphBuilder::addEdges(Value value, int64_t to) {
  for (const Source &source : getSources(value)) {
    if (!edgeSet.insert({source.node, to, source.casts}).second)
      continue;
    edges.push_back(
        llvm::json::Array{source.node, to, source.castBytes, source.casts});
  }
}

void GraphBuilder::annotate(int64_t index, Operation *op) {
  llvm::json::Object *record = ops[index].getAsObject();
  record->try_emplace("types", describeTypes(op));
  if (std::optional<std::string> line = sourceLines.getLine(op->getLoc()))
    record->try_emplace("source", std::move(*line));
}

void GraphBuilder::addFunction(FunctionOpInterface func) {
  std::string name = getFunctionName(func);
  nodeOf.clear();
  argumentNode.clear();
  sources.clear();
  edgeSet.clear();

  llvm::json::Array inputs, outputs;
  Block &entry = func.getFunctionBody().front();
  for (BlockArgument arg : entry.getArguments()) {
    int64_t node = addIo(name, "%arg" + std::to_string(arg.getArgNumber()),
                         arg.getType(), "input");
    argumentNode[arg] = node;
    inputs.push_back(node);
  }

  // The report's ops, in program order; nested functions are added on
  // their own.
  SmallVector<std::pair<Operation *, int64_t>> nodes;
  func->walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (op == func.getOperation())
      return WalkResult::advance();
    if (isa<FunctionOpInterface>(op))
      return WalkResult::skip();
    if (std::optional<int64_t> index = claim(name, op)) {
      nodeOf[op] = *index;
      nodes.push_back({op, *index});
    }
    return WalkResult::advance();
  });

  int64_t currentLayer = -1;
  for (auto [op, index] : nodes) {
    annotate(index, op);
    if (std::optional<LayerKind> kind = getLayerKind(op)) {
      currentLayer = static_cast<int64_t>(layers.size());
      layers.push_back(
          llvm::json::Object{{"function", name},
                             {"name", op->getName().stripDialect().str()},
                             {"head", index},
                             {"kind", stringifyLayerKind(*kind)}});
    }
    layerOf[index] = currentLayer;
  }
  // Ops before the first layer of a function that has layers form a group
  // of their own, so that collapsing every group leaves only groups.
  if (!nodes.empty() && currentLayer >= 0 && layerOf[nodes[0].second] < 0) {
    int64_t prologue = static_cast<int64_t>(layers.size());
    layers.push_back(llvm::json::Object{{"function", name},
                                        {"name", "input"},
                                        {"head", nodes[0].second},
                                        {"kind", "prologue"}});
    for (auto [op, index] : nodes) {
      if (layerOf[index] >= 0)
        break;
      layerOf[index] = prologue;
    }
  }

  for (auto [op, index] : nodes)
    for (Value operand : op->getOperands())
      addEdges(operand, index);

  // Returned values: the terminators directly in the function's body.
  unsigned result = 0;
  for (Block &block : func.getFunctionBody()) {
    Operation *terminator = block.empty() ? nullptr : &block.back();
    if (!terminator || !terminator->hasTrait<OpTrait::ReturnLike>())
      continue;
    for (Value value : terminator->getOperands()) {
      int64_t node = addIo(name, "result " + std::to_string(result++),
                           value.getType(), "output");
      outputs.push_back(node);
      addEdges(value, node);
    }
  }
  functions.push_back(llvm::json::Object{{"name", name},
                                         {"inputs", std::move(inputs)},
                                         {"outputs", std::move(outputs)}});
}

llvm::json::Object GraphBuilder::finish() {
  llvm::json::Array layerArray;
  for (int64_t layer : layerOf)
    layerArray.push_back(layer);
  return llvm::json::Object{
      {"functions", std::move(functions)},
      {"io", std::move(io)},
      {"layers", std::move(layers)},
      {"layer", std::move(layerArray)},
      {"edges", std::move(edges)},
      {"unmatched", static_cast<int64_t>(ops.size()) - matched}};
}

llvm::json::Object mlir::amp::buildReportGraph(Operation *converted,
                                               llvm::json::Array &ops) {
  GraphBuilder builder(ops);
  auto visit = [&](Operation *op) {
    auto func = dyn_cast<FunctionOpInterface>(op);
    if (func && !func.isExternal())
      builder.addFunction(func);
  };
  converted->walk<WalkOrder::PreOrder>(visit);
  return builder.finish();
}
