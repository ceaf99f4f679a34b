//===- Decisions.cpp - The type each ONNX node computes in, from the plan -===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The MLIR half of amp-convert-onnx: the model is imported with every op
// located at its node, --amp-plan-precision annotates the ops, and each
// node takes the type of its ops. A node whose ops disagree (a
// LayerNormalization whose statistics stay FP32 while its scale runs in
// 16 bits) takes the most precise one: ONNX gives a node one type, and the
// sensitive part decides it.
//
//===----------------------------------------------------------------------===//

#include "Decisions.h"

#include "OnnxImporter.h"

#include "amp/IR/AmpAttrs.h"
#include "amp/IR/AmpDialect.h"
#include "amp/Utils/FloatConversion.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>

using namespace mlir;
using namespace ::amp::onnxexport;
namespace onnximport = ::amp::onnximport;

/// The ONNX type an op annotated by the plan computes in: its compute type
/// (FP8 contractions count as the 16-bit target type, which is what the
/// export writes; Q/DQ pairs are not written yet), or FP32 for an op the
/// plan keeps in FP32 (no amp.precision). An op with 16-bit inputs and an
/// FP32 output (a contraction whose result leaves the 16-bit range) is
/// FP32 too: an ONNX node's output has its inputs' type, and a 16-bit
/// output would overflow where amp's does not.
static int32_t getOpType(Operation *op, FloatType target) {
  auto precision = op->getAttrOfType<mlir::amp::PrecisionAttr>("amp.precision");
  if (!precision)
    return onnximport::kFloat;
  FloatType output = precision.getOutputFloatType();
  if (output && output.isF32())
    return onnximport::kFloat;
  FloatType compute = precision.getComputeFloatType();
  if (!compute || mlir::amp::isFP8Type(compute))
    compute = target;
  if (compute.isF16())
    return onnximport::kFloat16;
  if (compute.isBF16())
    return onnximport::kBFloat16;
  return onnximport::kFloat;
}

/// Whether `op` computes float data (not a constant, not shape arithmetic).
static bool computesFloats(Operation *op) {
  if (op->hasTrait<OpTrait::ConstantLike>() || op->getNumOperands() == 0)
    return false;
  return llvm::any_of(op->getResultTypes(), [](Type type) {
    auto shaped = dyn_cast<ShapedType>(type);
    return isa<FloatType>(shaped ? shaped.getElementType() : type);
  });
}

/// Ops that only move or reshape data. A node's type is that of its other
/// ops: a MatMul imported as reshape, matmul, reshape computes in the
/// matmul's type even where the cut put a cast before the last reshape
/// (the ONNX file casts the MatMul's output instead).
static bool movesDataOnly(Operation *op) {
  static const llvm::StringSet<> kNames = {
      "tosa.reshape",         "tosa.transpose",       "tosa.slice",
      "tensor.expand_shape",  "tensor.collapse_shape", "tensor.extract_slice",
      "tensor.insert_slice",  "tensor.empty",          "linalg.transpose",
      "linalg.broadcast",     "linalg.fill"};
  return kNames.contains(op->getName().getStringRef());
}

/// Rank of a node type when ops disagree: FP32 over bf16 over f16.
static int getPrecisionRank(int32_t type) {
  return type == onnximport::kFloat      ? 3
         : type == onnximport::kBFloat16 ? 2
         : type == onnximport::kFloat16  ? 1
                                         : 0;
}

namespace amp {
namespace onnxexport {

NodeTypes collectNodeTypes(ModuleOp module, FloatType target) {
  // Per node: the most precise type of its computing ops, and of its
  // data-moving ones (which decide only for a node that has nothing else).
  NodeTypes computing, moving;
  module.walk([&](func::FuncOp func) {
    for (Operation &op : func.getBody().getOps()) {
      std::optional<unsigned> index = onnximport::getOnnxNodeIndex(op.getLoc());
      if (!index || !computesFloats(&op))
        continue;
      if (*index >= computing.size()) {
        computing.resize(*index + 1, 0);
        moving.resize(*index + 1, 0);
      }
      int32_t &slot = movesDataOnly(&op) ? moving[*index] : computing[*index];
      int32_t type = getOpType(&op, target);
      if (getPrecisionRank(type) > getPrecisionRank(slot))
        slot = type;
    }
  });
  for (size_t i = 0; i < computing.size(); ++i)
    if (computing[i] == 0)
      computing[i] = moving[i];
  return computing;
}

void alignPlanWithNodes(ModuleOp module, const NodeTypes &types) {
  MLIRContext *ctx = module.getContext();
  module.walk([&](func::FuncOp func) {
    for (Operation &op : func.getBody().getOps()) {
      std::optional<unsigned> index = onnximport::getOnnxNodeIndex(op.getLoc());
      if (!index || *index >= types.size() || !computesFloats(&op))
        continue;
      auto precision =
          op.getAttrOfType<mlir::amp::PrecisionAttr>("amp.precision");
      if (types[*index] == onnximport::kFloat) {
        op.removeAttr("amp.precision");
        op.setAttr("amp.color",
                   mlir::amp::ColorAttr::get(ctx, mlir::amp::Color::red));
        continue;
      }
      if (!precision)
        continue;
      // An ONNX node's outputs have its inputs' type: a 16-bit contraction
      // writes 16 bits, whatever it accumulates in.
      Type type = types[*index] == onnximport::kBFloat16
                      ? Type(BFloat16Type::get(ctx))
                      : Type(Float16Type::get(ctx));
      op.setAttr("amp.precision",
                 mlir::amp::PrecisionAttr::get(ctx, precision.getAccumulate(),
                                               type, type));
    }
  });
}

LogicalResult runPass(ModuleOp module, StringRef pass,
                      const std::string &options, bool warnings,
                      std::string &error) {
  PassManager pm = PassManager::on<ModuleOp>(module.getContext());
  std::string pipeline = (pass + "{" + options + "}").str();
  llvm::raw_string_ostream errorStream(error);
  if (failed(parsePassPipeline(pipeline, pm, errorStream)))
    return failure();
  std::string diagnostics;
  ScopedDiagnosticHandler handler(module.getContext(), [&](Diagnostic &diag) {
    if (diag.getSeverity() == DiagnosticSeverity::Error)
      diagnostics += diag.str() + "\n";
    else if (warnings && diag.getSeverity() == DiagnosticSeverity::Warning)
      llvm::errs() << "amp-convert-onnx: warning: " << diag.str() << "\n";
    return success();
  });
  if (failed(pm.run(module))) {
    error = diagnostics.empty() ? ("--" + pass + " failed").str() : diagnostics;
    return failure();
  }
  return success();
}

bool convertFloatsAsAmp(MLIRContext &context, const float *values, size_t n,
                        int32_t type, uint16_t *bits) {
  FloatType target = type == onnximport::kBFloat16
                         ? FloatType(BFloat16Type::get(&context))
                         : FloatType(Float16Type::get(&context));
  auto sourceType = RankedTensorType::get({static_cast<int64_t>(n)},
                                          Float32Type::get(&context));
  auto source = DenseElementsAttr::getFromRawBuffer(
      sourceType, ArrayRef<char>(reinterpret_cast<const char *>(values),
                                 n * sizeof(float)));
  auto converted = dyn_cast_or_null<DenseElementsAttr>(
      mlir::amp::convertFloatConstant(source, target));
  if (!converted)
    return false;
  if (converted.isSplat()) {
    auto bit = static_cast<uint16_t>(
        converted.getSplatValue<APFloat>().bitcastToAPInt().getZExtValue());
    std::fill(bits, bits + n, bit);
    return true;
  }
  ArrayRef<char> raw = converted.getRawData();
  if (raw.size() != n * sizeof(uint16_t))
    return false;
  std::memcpy(bits, raw.data(), raw.size());
  return true;
}

} // namespace onnxexport
} // namespace amp
