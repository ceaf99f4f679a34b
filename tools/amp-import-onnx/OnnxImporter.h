//===- OnnxImporter.h - ONNX model bytes to an MLIR module ------*- C++ -*-===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The entry point of the importer, used by amp-import-onnx and by the
// amp-onnx-fuzzer: a serialized ONNX model in, a module with one func.func
// on ranked tensors out (TOSA where TOSA has the op, linalg/tensor/arith/
// math otherwise), or every error found.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_IMPORT_ONNX_ONNXIMPORTER_H
#define AMP_IMPORT_ONNX_ONNXIMPORTER_H

#include "OnnxModel.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>
#include <vector>

namespace mlir {
class DialectRegistry;
class MLIRContext;
} // namespace mlir

namespace amp {
namespace onnximport {

/// A node left as a gap in the function (ImportOptions::opaqueUnsupported).
struct OpaqueNode {
  unsigned index;
  /// "name (OpType)", with the domain for ops outside the default one.
  std::string description;
};

struct ImportOptions {
  /// Name of the function (default: the graph's name).
  std::string entry;
  LoadOptions load;
  /// Locate each op at its node's index as well as its name (see
  /// getOnnxNodeIndex), for tools that map decisions back to the graph.
  bool nodeIndexLocs = false;
  /// Nodes of ops the importer does not know do not stop the import: each
  /// becomes a gap in the function, its outputs extra arguments and its
  /// computed inputs extra results (after the graph's own), and its index
  /// is appended to `*opaqueNodes` (which must then be given).
  bool opaqueUnsupported = false;
  std::vector<OpaqueNode> *opaqueNodes = nullptr;
};

/// Parses a --shape value, NAME:AxBxC (the name may itself contain ':';
/// no dimensions: a scalar).
bool parseShapeOption(llvm::StringRef text,
                      std::pair<std::string, std::vector<int64_t>> &result);

/// The file name of the locations that carry a node's index.
constexpr const char *kNodeIndexFile = "onnx-node";

/// The index (in the graph's node list) of the node `loc` was imported
/// from, if the module was imported with `nodeIndexLocs`.
std::optional<unsigned> getOnnxNodeIndex(mlir::Location loc);

/// Registers the dialects the importer creates.
void registerImportDialects(mlir::DialectRegistry &registry);

/// Imports the serialized model in `bytes`. On failure returns null and
/// fills `errors`; `warnings` gets non-fatal findings.
mlir::OwningOpRef<mlir::ModuleOp>
importOnnxModel(mlir::MLIRContext &context, llvm::ArrayRef<char> bytes,
                const ImportOptions &options, std::vector<std::string> &errors,
                std::vector<std::string> *warnings = nullptr);

} // namespace onnximport
} // namespace amp

#endif // AMP_IMPORT_ONNX_ONNXIMPORTER_H
