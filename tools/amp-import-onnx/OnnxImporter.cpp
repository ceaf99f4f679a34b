//===- OnnxImporter.cpp - ONNX model bytes to an MLIR module --------------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "OnnxImporter.h"
#include "GraphImporter.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/Verifier.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace amp::onnximport;

void amp::onnximport::registerImportDialects(DialectRegistry &registry) {
  registry.insert<arith::ArithDialect, func::FuncDialect,
                  linalg::LinalgDialect, math::MathDialect,
                  tensor::TensorDialect, tosa::TosaDialect>();
}

OwningOpRef<ModuleOp> amp::onnximport::importOnnxModel(
    MLIRContext &context, ArrayRef<char> bytes, const ImportOptions &options,
    std::vector<std::string> &errors, std::vector<std::string> *warnings) {
  Model model;
  std::string error;
  if (!loadModel(bytes.data(), bytes.size(), options.load, model, error)) {
    errors.push_back(error);
    return nullptr;
  }
  if (warnings)
    warnings->insert(warnings->end(), model.warnings.begin(),
                     model.warnings.end());
  context.loadAllAvailableDialects();
  GraphImporter importer(context, model, errors, options.nodeIndexLocs,
                         options.opaqueUnsupported);
  OwningOpRef<ModuleOp> module = importer.import(options.entry);
  if (options.opaqueNodes)
    for (unsigned index : importer.getOpaqueNodes()) {
      const Node &node = model.nodes[index];
      options.opaqueNodes->push_back(
          {index, node.name + " (" +
                      (node.domain.empty() ? "" : node.domain + ".") +
                      node.opType + ")"});
    }
  if (!module)
    return nullptr;
  // The converters build valid IR for every model they accept; a verifier
  // failure is an importer bug, reported as an error, never written out.
  std::string diagnostics;
  {
    ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
      llvm::raw_string_ostream os(diagnostics);
      os << diag.getLocation() << ": " << diag << "\n";
      return success();
    });
    if (failed(verify(*module))) {
      errors.push_back("internal error: the imported module does not verify:\n" +
                       diagnostics);
      return nullptr;
    }
  }
  return module;
}

std::optional<unsigned> amp::onnximport::getOnnxNodeIndex(Location loc) {
  if (auto fused = dyn_cast<FusedLoc>(loc)) {
    for (Location part : fused.getLocations())
      if (std::optional<unsigned> index = getOnnxNodeIndex(part))
        return index;
    return std::nullopt;
  }
  auto name = dyn_cast<NameLoc>(loc);
  if (!name)
    return std::nullopt;
  auto file = dyn_cast<FileLineColLoc>(name.getChildLoc());
  if (!file || file.getFilename() != kNodeIndexFile || file.getLine() == 0)
    return std::nullopt;
  return file.getLine() - 1;
}

bool amp::onnximport::parseShapeOption(
    StringRef text, std::pair<std::string, std::vector<int64_t>> &result) {
  size_t colon = text.rfind(':');
  if (colon == StringRef::npos || colon == 0)
    return false;
  result.first = text.take_front(colon).str();
  StringRef dims = text.drop_front(colon + 1);
  if (dims.empty())
    return true; // A scalar.
  SmallVector<StringRef> parts;
  dims.split(parts, 'x');
  for (StringRef part : parts) {
    int64_t d;
    if (part.getAsInteger(10, d) || d < 0)
      return false;
    result.second.push_back(d);
  }
  return true;
}

