//===- IRKeyInfo.h - Tables keyed by ops and values ------------*- C++ -*-===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The conversion's tables are keyed by ops and values, and filled and read in
// program order. LLVM's pointer hash scatters neighbouring ops over the whole
// table: in a function of a million ops, each access is a cache miss. The
// key infos here hash an op or value by its address in units of 16 bytes,
// mixed with its address in megabytes. The parser makes ops one after the
// other, so ops that are neighbours in the program land in neighbouring
// buckets, and a walk in program order goes through the table nearly in
// order. Addresses a megabyte apart are mixed, so the table is used evenly.
// Only the bucket changes: the tables answer as with the default hash, and
// no code iterates over them (their order would be that of addresses).
//
//===----------------------------------------------------------------------===//

#ifndef AMP_UTILS_IRKEYINFO_H
#define AMP_UTILS_IRKEYINFO_H

#include "mlir/IR/Operation.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/DenseMapInfo.h"

#include <cstdint>

namespace mlir {
namespace amp {

/// The hash of an IR object at `address`: nearby objects, nearby hashes.
inline unsigned getAddressOrderHash(const void *address) {
  auto bits = reinterpret_cast<uintptr_t>(address);
  return static_cast<unsigned>((bits >> 4) ^ (bits >> 20));
}

/// For DenseMap<Operation *, T, OpKeyInfo>.
struct OpKeyInfo : llvm::DenseMapInfo<Operation *> {
  static unsigned getHashValue(const Operation *op) {
    return getAddressOrderHash(op);
  }
};

/// For DenseMap<Value, T, ValueKeyInfo>.
struct ValueKeyInfo : llvm::DenseMapInfo<Value> {
  static unsigned getHashValue(Value value) {
    return getAddressOrderHash(value.getAsOpaquePointer());
  }
};

} // namespace amp
} // namespace mlir

#endif // AMP_UTILS_IRKEYINFO_H
