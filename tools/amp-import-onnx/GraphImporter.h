//===- GraphImporter.h - ONNX graph to one func.func ------------*- C++ -*-===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The importer's state while it walks a graph: the SSA value and the known
// (import-time) value of every ONNX name, and NodeContext, the interface
// through which an op converter reads a node's inputs and attributes and
// defines its outputs. Converters are listed in OpTable.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_IMPORT_ONNX_GRAPHIMPORTER_H
#define AMP_IMPORT_ONNX_GRAPHIMPORTER_H

#include "ConstTensors.h"
#include "Emit.h"
#include "OnnxModel.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringMap.h"

#include <optional>
#include <string>
#include <vector>

namespace amp {
namespace onnximport {

class GraphImporter;

/// The MLIR element type of an ONNX data type, or null if unsupported.
mlir::Type convertDType(mlir::MLIRContext *context, int32_t dtype);
/// The ONNX data type of an MLIR element type (kUndefined if none).
int32_t getDType(mlir::Type type);

/// What a converter sees of the node it converts.
class NodeContext {
public:
  NodeContext(GraphImporter &importer, const Node &node, int64_t opset);

  const Node &node;
  /// The opset of the node's domain.
  const int64_t opset;
  OpBuilder &b;
  Location loc;

  //===--- Inputs ---------------------------------------------------------===//

  /// Whether input `i` is given (not omitted, not "").
  bool hasInput(unsigned i) const;
  unsigned getNumInputs() const { return node.inputs.size(); }
  /// The SSA value of input `i` (constants are materialized on first use).
  Value input(unsigned i);
  RankedTensorType inputType(unsigned i);
  int64_t inputRank(unsigned i) { return inputType(i).getRank(); }
  /// The import-time value of input `i`, or null if it is only known at run
  /// time.
  const Tensor *constInput(unsigned i) const;
  /// Input `i` as integers, if it is known at import time.
  std::optional<std::vector<int64_t>> constInts(unsigned i) const;

  //===--- Attributes -----------------------------------------------------===//

  const Attribute *attr(const char *name) const {
    return node.getAttribute(name);
  }
  int64_t getInt(const char *name, int64_t defaultValue) const;
  float getFloat(const char *name, float defaultValue) const;
  std::string getString(const char *name, const std::string &defaultValue) const;
  std::optional<std::vector<int64_t>> getInts(const char *name) const;
  std::optional<std::vector<float>> getFloats(const char *name) const;

  //===--- Outputs --------------------------------------------------------===//

  unsigned getNumOutputs() const { return node.outputs.size(); }
  bool hasOutput(unsigned i) const;
  void setOutput(unsigned i, Value value);
  /// Defines output `i` by its import-time value (materialized only if
  /// something needs it at run time).
  void setConstOutput(unsigned i, Tensor value);

  //===--- Types and errors -----------------------------------------------===//

  /// The MLIR element type of an ONNX data type, or null.
  Type convertDType(int32_t dtype) const;
  /// The ONNX data type of an MLIR element type.
  int32_t getDType(Type type) const;

  /// Reports an error about this node ("node 'n' (Conv, opset 11): ...").
  mlir::LogicalResult error(const llvm::Twine &message) const;
  /// Reports an unsupported attribute value.
  mlir::LogicalResult unsupported(const char *attrName,
                                  const llvm::Twine &value) const;

  /// Reports an error if a size, pad, stride or similar value `what` read
  /// from the model is beyond any tensor the importer can build (|v| >
  /// 2^31): later arithmetic on it cannot overflow.
  mlir::LogicalResult checkSizes(llvm::ArrayRef<int64_t> values,
                                 const char *what) const;

  /// Reports that the node cannot be imported with a dynamic dimension in
  /// `what` ("the channel dimension", ...) and says how to fix the symbolic
  /// input dimensions with --shape.
  mlir::LogicalResult dynamicUnsupported(const llvm::Twine &what) const;
  /// dynamicUnsupported(what) if any of `dims` of `value` is dynamic.
  mlir::LogicalResult requireStatic(Value value, llvm::ArrayRef<int64_t> dims,
                                    const llvm::Twine &what) const;

  /// Normalizes a possibly negative axis for rank `rank`, or reports an
  /// error.
  mlir::FailureOr<int64_t> normalizeAxis(int64_t axis, int64_t rank) const;

private:
  GraphImporter &importer;
};

/// A converter: defines every output of the node (or reports an error).
using ConvertFn = mlir::LogicalResult (*)(NodeContext &);

/// Whether a converter takes inputs with a dynamic dimension.
enum class DynamicDims {
  /// Only static shapes: a dynamic input is an error that suggests --shape.
  Unsupported,
  /// Dynamic dimensions propagate; the converter itself reports the cases it
  /// cannot import (a dynamic channel or contraction dimension, ...).
  Supported,
};

struct OpConverter {
  const char *opType;
  /// The first opset whose version of the op the converter implements.
  int64_t minOpset;
  ConvertFn convert;
  DynamicDims dynamicDims = DynamicDims::Unsupported;
};

/// Every op of the default domain the importer converts (OpTable.cpp).
llvm::ArrayRef<OpConverter> getOpConverters();
const OpConverter *lookupOpConverter(llvm::StringRef opType);

class GraphImporter {
public:
  /// With `nodeIndexLocs`, every op a node becomes is located at
  /// `NameLoc(node name, kNodeIndexFile:(index + 1):0)`.
  /// With `opaqueUnsupported`, nodes without a converter become gaps (see
  /// ImportOptions::opaqueUnsupported).
  GraphImporter(mlir::MLIRContext &context, const Model &model,
                std::vector<std::string> &errors, bool nodeIndexLocs = false,
                bool opaqueUnsupported = false);

  /// The indices of the nodes left as gaps, in graph order.
  const std::vector<unsigned> &getOpaqueNodes() const { return opaqueNodes; }

  /// Builds the module with one function named `entry`; null on error.
  mlir::OwningOpRef<mlir::ModuleOp> import(const std::string &entry);

private:
  friend class NodeContext;

  mlir::LogicalResult checkOps();
  mlir::LogicalResult checkInputs();
  /// Rejects an input with a dynamic dimension that the node's converter
  /// does not support (or that has more than one).
  mlir::LogicalResult checkDynamicInputs(NodeContext &ctx,
                                         const OpConverter &converter);
  mlir::LogicalResult convertNode(const Node &node);
  mlir::LogicalResult checkInferredShape(const Node &node,
                                         const std::string &name, Value value);
  /// The run-time value of `name`; materializes a known constant.
  Value lookup(const std::string &name);
  Value materialize(const Tensor &tensor);
  void addError(const std::string &message) { errors.push_back(message); }

  mlir::MLIRContext &context;
  const Model &model;
  std::vector<std::string> &errors;
  OpBuilder builder;
  llvm::StringMap<Value> values;
  llvm::StringMap<Tensor> constants;
  /// "--shape (e.g. --shape=x:1x16)": the options that fix every symbolic
  /// input dimension, for the messages about dynamic dimensions.
  std::string shapeHint;
  /// The arguments and results that stand for the gaps' outputs and inputs.
  mlir::LogicalResult addOpaqueArguments(llvm::SmallVectorImpl<Type> &argTypes,
                                         std::vector<std::string> &argNames);
  void addOpaqueResults(llvm::SmallVectorImpl<Value> &results);

  unsigned blobCounter = 0;
  bool nodeIndexLocs;
  bool opaqueUnsupported;
  std::vector<unsigned> opaqueNodes;
};

} // namespace onnximport
} // namespace amp

#endif // AMP_IMPORT_ONNX_GRAPHIMPORTER_H
