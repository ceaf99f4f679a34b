//===- ProtoIO.h - Reading an ONNX ModelProto -------------------*- C++ -*-===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// For the files that work on the protobuf itself (the loader and
// amp-convert-onnx's writer), which are compiled with C++ exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_IMPORT_ONNX_PROTOIO_H
#define AMP_IMPORT_ONNX_PROTOIO_H

#include <cstddef>
#include <string>

namespace onnx {
class ModelProto;
} // namespace onnx

namespace amp {
namespace onnximport {

/// Parses `size` bytes of a serialized ModelProto into `proto` and reads its
/// external data (relative to `modelDir`) into the tensors' raw_data
/// (`hadExternalData`, if given, says whether there was any). Returns false
/// with a message in `error` on a malformed model.
bool parseModelProto(const void *data, size_t size, const std::string &modelDir,
                     onnx::ModelProto &proto, std::string &error,
                     bool *hadExternalData = nullptr);

} // namespace onnximport
} // namespace amp

#endif // AMP_IMPORT_ONNX_PROTOIO_H
