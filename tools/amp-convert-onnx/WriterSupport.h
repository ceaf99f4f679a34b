//===- WriterSupport.h - What the writer's files share ----------*- C++ -*-===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// For ModelWriter.cpp, StrongTyping.cpp and ExternalData.cpp, which work on
// the protobuf and
// are compiled with C++ exceptions: an export error is thrown as
// ExportError and becomes writeMixedModel's message.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_CONVERT_ONNX_WRITERSUPPORT_H
#define AMP_CONVERT_ONNX_WRITERSUPPORT_H

#include "onnx/onnx_pb.h"

#include <string>

namespace amp {
namespace onnxexport {

struct ExportError {
  std::string message;
};

[[noreturn]] inline void fail(const std::string &message) {
  throw ExportError{message};
}

/// The version of `domain` the model imports (0 if none).
int getOpset(const onnx::ModelProto &model, const std::string &domain);

/// Rebuilds value_info by strict shape inference and checks the model:
/// ONNX's checker and the rules of a strongly typed graph (no Cast chains,
/// no Cast to its input's type, every value typed). A failure is an
/// internal error of the export (thrown).
void checkResult(onnx::ModelProto &model);

/// Writes `model` to `outPath`; with its tensors of 1 KB or more in
/// OUTPATH.data (ONNX external data) if `externalData`, or if it would not
/// fit in one protobuf message (2 GB) otherwise. Throws on an I/O error.
void writeModelFile(onnx::ModelProto &model, const std::string &outPath,
                    bool externalData);

} // namespace onnxexport
} // namespace amp

#endif // AMP_CONVERT_ONNX_WRITERSUPPORT_H
