//===- OnnxExport.h - amp's decisions written into an ONNX graph -*- C++ -*-===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The two halves of amp-convert-onnx, as plain data between them:
//
// - Decisions.cpp (MLIR): imports the model with every op located at its
//   node, runs --amp-plan-precision and reads back the type each node
//   computes in (NodeTypes).
// - ModelWriter.cpp (libonnx and protobuf, compiled with exceptions like the
//   importer's loader): retypes the original ModelProto to those types,
//   inserts the Cast nodes, stores initializers in 16 bits where every
//   reader reads them so, fills value_info by strict shape inference and
//   checks the result.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_CONVERT_ONNX_ONNXEXPORT_H
#define AMP_CONVERT_ONNX_ONNXEXPORT_H

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace amp {
namespace onnxexport {

/// Per node of the graph (in the graph's order): the ONNX element type its
/// float inputs and outputs take (1 float, 10 float16, 16 bfloat16), or 0
/// when amp decided nothing for it (a node folded at import, or one that
/// moves no float data); such a node follows its inputs' types.
using NodeTypes = std::vector<int32_t>;

struct ExportOptions {
  /// Folder that the input's external-data locations are relative to.
  std::string modelDir;
  /// Graph inputs and outputs keep their FP32 type (casts at the boundary).
  bool keepIoTypes = true;
  /// Tensors of 1 KB or more go to OUTPATH.data (ONNX external data);
  /// unset: if the input had external data (and, always, if the model
  /// would exceed 2 GB otherwise).
  std::optional<bool> externalData;
  /// Converts `n` FP32 values to the bits of `type` (float16 or bfloat16)
  /// as amp converts its constants, so that the file holds the weights
  /// amp's own build computes with. False if it cannot.
  std::function<bool(const float *values, size_t n, int32_t type,
                     uint16_t *bits)>
      convertFloats;
};

/// What the export did, for the summary and the tests.
struct ExportStats {
  unsigned nodes = 0;
  /// Nodes whose float inputs and outputs are 16 bits.
  unsigned nodesLow = 0;
  /// Cast nodes added, and original Cast nodes whose `to` was changed
  /// instead of adding one after them.
  unsigned castsAdded = 0;
  unsigned castsRetargeted = 0;
  /// Float initializers (and Constant node values) stored in 16 bits in
  /// place, and those kept in FP32 with a 16-bit copy for their 16-bit
  /// readers.
  unsigned initializersConverted = 0;
  unsigned initializersCopied = 0;
  int64_t initializerBytesBefore = 0;
  int64_t initializerBytesAfter = 0;
  /// Nodes amp ran in 16 bits whose op has no 16-bit form at the model's
  /// opset: they stay FP32, with casts around them ("name (OpType)").
  std::vector<std::string> keptFp32;
};

/// Rewrites the serialized model in `data` to `nodeTypes` and writes it to
/// `outPath`. Returns false with a message in `error` if the model cannot be
/// read, or if the result would not pass ONNX's checker and strict shape
/// inference (a bug: nothing is written then).
bool writeMixedModel(const void *data, size_t size, const NodeTypes &nodeTypes,
                     const ExportOptions &options, const std::string &outPath,
                     ExportStats &stats, std::string &error);

} // namespace onnxexport
} // namespace amp

#endif // AMP_CONVERT_ONNX_ONNXEXPORT_H
