//===- ObservedRanges.cpp - Value ranges observed on sample inputs --------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "amp/Analysis/ObservedRanges.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Location.h"
#include "mlir/IR/Matchers.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <tuple>

using namespace mlir;
using namespace mlir::amp;

void ObservedRange::add(double x) {
  ++count;
  double a = std::fabs(x);
  if (!std::isfinite(x)) {
    ++nonfinite;
    return;
  }
  maxAbs = std::max(maxAbs, a);
  if (a > kF16Max)
    ++beyondF16;
  if (a > kBF16Max)
    ++beyondBF16;
  if (a != 0 && a < kF16MinNormal)
    ++belowF16Normal;
  if (a != 0 && a < kBF16MinNormal)
    ++belowBF16Normal;
}

void ObservedRange::merge(const ObservedRange &o) {
  maxAbs = std::max(maxAbs, o.maxAbs);
  count += o.count;
  nonfinite += o.nonfinite;
  beyondF16 += o.beyondF16;
  beyondBF16 += o.beyondBF16;
  belowF16Normal += o.belowF16Normal;
  belowBF16Normal += o.belowBF16Normal;
}

llvm::json::Object ObservedRange::toJson(unsigned index) const {
  return llvm::json::Object{{"index", static_cast<int64_t>(index)},
                            {"op", op},
                            {"loc", location},
                            {"result", static_cast<int64_t>(result)},
                            {"max_abs", maxAbs},
                            {"count", count},
                            {"nonfinite", nonfinite},
                            {"beyond_f16", beyondF16},
                            {"beyond_bf16", beyondBF16},
                            {"below_f16_normal", belowF16Normal},
                            {"below_bf16_normal", belowBF16Normal}};
}

/// Whether `type` is a ranked tensor of floats.
static bool isObservedType(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor && isa<FloatType>(tensor.getElementType());
}

void mlir::amp::forEachObservedValue(
    FunctionOpInterface function,
    llvm::function_ref<void(Operation *, unsigned, unsigned)> fn) {
  unsigned index = 0;
  function->walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (op == function.getOperation())
      return;
    // Constants are known without running anything, and a tensor.cast
    // holds the values of its source (amp-run inserts casts of its own when
    // it specializes dynamic shapes: they must not shift the indices).
    // tensor.empty has no values to observe.
    StringRef name = op->getName().getStringRef();
    if (op->hasTrait<OpTrait::ConstantLike>() || name == "tensor.cast" ||
        name == "tensor.empty" || name == "bufferization.alloc_tensor")
      return;
    for (OpResult result : op->getResults())
      if (isObservedType(result.getType()))
        fn(op, result.getResultNumber(), index++);
  });
}

std::string mlir::amp::describeLocation(Location loc) {
  if (auto file = dyn_cast<FileLineColLoc>(loc))
    return llvm::formatv("{0}:{1}:{2}", file.getFilename().getValue(),
                         file.getLine(), file.getColumn())
        .str();
  if (auto name = dyn_cast<NameLoc>(loc))
    return name.getName().str();
  if (auto fused = dyn_cast<FusedLoc>(loc))
    if (!fused.getLocations().empty())
      return describeLocation(fused.getLocations().front());
  if (auto callSite = dyn_cast<CallSiteLoc>(loc))
    return describeLocation(callSite.getCallee());
  return "unknown";
}

bool mlir::amp::isSameLocation(llvm::StringRef recorded,
                               llvm::StringRef current) {
  if (recorded == current)
    return true;
  // "file:line:col": split off line and column, then compare file names.
  auto split = [](llvm::StringRef loc, llvm::StringRef &file,
                  llvm::StringRef &lineCol) {
    size_t col = loc.rfind(':');
    size_t line = col == llvm::StringRef::npos || col == 0
                      ? llvm::StringRef::npos
                      : loc.rfind(':', col - 1);
    if (line == llvm::StringRef::npos)
      return false;
    file = loc.take_front(line);
    lineCol = loc.drop_front(line);
    return true;
  };
  llvm::StringRef fileA, lineColA, fileB, lineColB;
  return split(recorded, fileA, lineColA) && split(current, fileB, lineColB) &&
         lineColA == lineColB &&
         llvm::sys::path::filename(fileA) == llvm::sys::path::filename(fileB);
}

llvm::Expected<ObservedRanges> ObservedRanges::load(llvm::StringRef path) {
  auto buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer)
    return llvm::createStringError(buffer.getError(), "cannot read %s: %s",
                                   path.str().c_str(),
                                   buffer.getError().message().c_str());
  llvm::Expected<llvm::json::Value> json =
      llvm::json::parse((*buffer)->getBuffer());
  if (!json)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "%s: not JSON: %s", path.str().c_str(),
                                   llvm::toString(json.takeError()).c_str());
  auto bad = [&](const llvm::Twine &what) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "%s: not an amp-run --calibrate file: %s",
                                   path.str().c_str(), what.str().c_str());
  };
  const llvm::json::Object *root = json->getAsObject();
  const llvm::json::Object *functions =
      root ? root->getObject("functions") : nullptr;
  if (!functions)
    return bad("no \"functions\" object");
  ObservedRanges ranges;
  // The "arguments" section is optional (files written before it existed).
  const llvm::json::Object *arguments = root->getObject("arguments");
  for (auto [section, key, table] :
       {std::make_tuple(functions, "functions", &ranges.functions),
        std::make_tuple(arguments, "arguments", &ranges.arguments)}) {
    if (!section)
      continue;
    for (const auto &[name, entries] : *section) {
      const llvm::json::Array *list = entries.getAsArray();
      if (!list)
        return bad(llvm::Twine("\"") + key + "\"." + name.str() +
                   " is not an array");
      std::vector<ObservedRange> &out = (*table)[name.str()];
      for (const llvm::json::Value &value : *list) {
        const llvm::json::Object *e = value.getAsObject();
        std::optional<int64_t> index =
            e ? e->getInteger("index") : std::nullopt;
        if (!index || *index < 0)
          return bad("an entry of " + name.str() + " has no index");
        if (out.size() <= static_cast<size_t>(*index))
          out.resize(*index + 1);
        ObservedRange &r = out[*index];
        auto integer = [&](llvm::StringRef key) {
          return e->getInteger(key).value_or(0);
        };
        r.op = e->getString("op").value_or("").str();
        r.location = e->getString("loc").value_or("").str();
        r.result = static_cast<unsigned>(integer("result"));
        r.maxAbs = e->getNumber("max_abs").value_or(0);
        r.count = integer("count");
        r.nonfinite = integer("nonfinite");
        r.beyondF16 = integer("beyond_f16");
        r.beyondBF16 = integer("beyond_bf16");
        r.belowF16Normal = integer("below_f16_normal");
        r.belowBF16Normal = integer("below_bf16_normal");
      }
    }
  }
  return ranges;
}

llvm::json::Value ObservedRanges::toJson(llvm::StringRef model,
                                         int64_t samples) const {
  auto toJson = [](const llvm::StringMap<std::vector<ObservedRange>> &table) {
    llvm::json::Object json;
    // Sorted by function name: the file does not depend on hash order.
    std::vector<llvm::StringRef> names;
    for (const auto &entry : table)
      names.push_back(entry.getKey());
    llvm::sort(names);
    for (llvm::StringRef name : names) {
      llvm::json::Array list;
      const std::vector<ObservedRange> &entries = table.find(name)->second;
      for (unsigned i = 0; i < entries.size(); ++i)
        if (!entries[i].op.empty())
          list.push_back(entries[i].toJson(i));
      json[name] = std::move(list);
    }
    return json;
  };
  llvm::json::Object result{
      {"model", model},
      {"samples", samples},
      {"key", "function, index of the float ranked-tensor result among the "
              "function's non-constant ops in pre-order; op and loc are "
              "checked"},
      {"functions", toJson(functions)}};
  if (!arguments.empty())
    result["arguments"] = toJson(arguments);
  return result;
}

const ObservedRange *ObservedRanges::lookup(llvm::StringRef function,
                                            unsigned index) const {
  auto it = functions.find(function);
  if (it == functions.end() || index >= it->second.size() ||
      it->second[index].op.empty())
    return nullptr;
  return &it->second[index];
}

const ObservedRange *ObservedRanges::lookupArgument(llvm::StringRef function,
                                                    unsigned position) const {
  auto it = arguments.find(function);
  if (it == arguments.end() || position >= it->second.size() ||
      it->second[position].op.empty())
    return nullptr;
  return &it->second[position];
}
