//===- DeviceMemory.h - Emulated GPU global memory ---------------*- C++ -*-===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Global memory of the emulated GPU. Device addresses lie in a range of the
// process's address space reserved without access rights, so that host code
// that dereferences a device pointer faults as it would with a real GPU;
// the bytes live in a second, readable mapping at the same offsets.
// Allocations are never reused (a bump allocator with gaps between blocks),
// so that every access can be checked against the block it falls in:
// out-of-bounds and use-after-free accesses are errors, not silent reads of
// a neighbour.
//
// Host memory registered with the driver (cuMemHostRegister, managed
// memory) is accessible to kernels at its host address, as with unified
// addressing.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_EMULATOR_DEVICEMEMORY_H
#define AMP_EMULATOR_DEVICEMEMORY_H

#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace amp {
namespace emu {

class DeviceMemory {
public:
  DeviceMemory();
  ~DeviceMemory();
  DeviceMemory(const DeviceMemory &) = delete;
  DeviceMemory &operator=(const DeviceMemory &) = delete;

  /// Allocates `bytes` (256-byte aligned); 0 on exhaustion.
  uint64_t allocate(uint64_t bytes);
  /// Frees the block starting at `address`; false if there is none.
  bool free(uint64_t address);
  /// Registers host memory that kernels may access at its own address.
  void registerHost(const void *ptr, uint64_t bytes);
  bool unregisterHost(const void *ptr);

  /// The host pointer behind [address, address + bytes), or null when the
  /// range is not entirely inside one live block (`why` says what it is).
  uint8_t *translate(uint64_t address, uint64_t bytes, std::string *why);
  /// Whether `address` is a device address (inside the reserved range).
  bool isDeviceAddress(uint64_t address) const {
    return address >= base && address < base + capacity;
  }
  /// The start and size of the live block containing `address`.
  bool findBlock(uint64_t address, uint64_t &start, uint64_t &size);

  uint64_t bytesInUse() const { return inUse; }
  uint64_t totalBytes() const { return capacity; }

private:
  struct Block {
    uint64_t start;
    uint64_t size;
    bool live;
  };
  const Block *find(uint64_t address) const;

  uint64_t base = 0;     // device addresses
  uint8_t *backing = nullptr; // bytes (same offsets)
  uint64_t capacity = 0;
  uint64_t next = 0;     // bump pointer (offset)
  uint64_t inUse = 0;
  std::vector<Block> blocks; // sorted by start (allocation order)
  std::map<uint64_t, uint64_t> hostRanges; // start -> size
  mutable std::mutex mutex;
};

} // namespace emu
} // namespace amp

#endif // AMP_EMULATOR_DEVICEMEMORY_H
