//===- Decisions.h - amp's plan read back per ONNX node ---------*- C++ -*-===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef AMP_CONVERT_ONNX_DECISIONS_H
#define AMP_CONVERT_ONNX_DECISIONS_H

#include "OnnxExport.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/BuiltinTypes.h"

namespace amp {
namespace onnxexport {

/// Runs `--PASS{options}` (amp-plan-precision, or amp-mixed-precision for
/// a report) on `module`, printing its warnings if `warnings` (a ranges=
/// file without entries for some values). On failure, `error` holds the
/// pass's diagnostics (or the pipeline parser's).
mlir::LogicalResult runPass(mlir::ModuleOp module, llvm::StringRef pass,
                            const std::string &options, bool warnings,
                            std::string &error);

/// The type each node of the graph computes in, read from the plan's
/// annotations of a module imported with node-index locations (nodes past
/// the end, and nodes none of whose ops computes floats, are 0). `target`
/// is the plan's 16-bit target type.
NodeTypes collectNodeTypes(mlir::ModuleOp module, mlir::FloatType target);

/// Makes the plan in `module` say what the exported graph computes: every op
/// of an FP32 node FP32, every op of a 16-bit node reading and writing that
/// type (an ONNX node's outputs have the type of its inputs). After it,
/// --amp-apply-precision builds on the CPU what the ONNX file runs.
void alignPlanWithNodes(mlir::ModuleOp module, const NodeTypes &types);

/// ExportOptions::convertFloats through amp's constant conversion
/// (convertFloatConstant: round to nearest even, clamped to the finite
/// range).
bool convertFloatsAsAmp(mlir::MLIRContext &context, const float *values,
                        size_t n, int32_t type, uint16_t *bits);

} // namespace onnxexport
} // namespace amp

#endif // AMP_CONVERT_ONNX_DECISIONS_H
