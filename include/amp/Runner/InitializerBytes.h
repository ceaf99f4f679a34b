//===- InitializerBytes.h - The bytes of a global's initializer -*- C++ -*-===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The data of a dense initializer (DenseElementsAttr, splats expanded, or a
// dense_resource blob) laid out as LLVM lays out the global: row-major,
// whole-byte elements. Used where a weight leaves the LLVM IR: written to a
// file (--amp-externalize-weights) or kept in memory across compilations
// (amp-tune's kernel cache).
//
//===----------------------------------------------------------------------===//

#ifndef AMP_RUNNER_INITIALIZERBYTES_H
#define AMP_RUNNER_INITIALIZERBYTES_H

#include "mlir/IR/BuiltinAttributeInterfaces.h"

#include <string>

namespace mlir {
namespace amp {
namespace runner {

/// The size in bytes of the data of `value`, or failure with the reason in
/// `why` (elements that are not whole bytes, such as the bit-packed i1; an
/// elided dense_resource; a blob of the wrong size; another attribute).
FailureOr<uint64_t> getInitializerByteSize(ElementsAttr value,
                                           std::string &why);

/// Writes the data of `value`, which getInitializerByteSize accepted, to
/// `out` (that many bytes).
void copyInitializerBytes(ElementsAttr value, char *out);

} // namespace runner
} // namespace amp
} // namespace mlir

#endif // AMP_RUNNER_INITIALIZERBYTES_H
