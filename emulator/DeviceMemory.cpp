//===- DeviceMemory.cpp - Emulated GPU global memory ----------------------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "DeviceMemory.h"

#include <algorithm>
#include <cstdio>
#include <sys/mman.h>

namespace amp {
namespace emu {

/// Alignment of every block, and the gap left after each (an access that
/// runs off a block lands in a gap, never in the next block).
constexpr uint64_t kAlign = 256;
constexpr uint64_t kGap = 256;

DeviceMemory::DeviceMemory() {
  // As much address space as can be reserved, from 64 GiB down: pages are
  // only backed when touched.
  for (uint64_t size = uint64_t(64) << 30; size >= (uint64_t(1) << 30);
       size /= 2) {
    void *reserved = mmap(nullptr, size, PROT_NONE,
                          MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (reserved == MAP_FAILED)
      continue;
    void *bytes = mmap(nullptr, size, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (bytes == MAP_FAILED) {
      munmap(reserved, size);
      continue;
    }
    base = reinterpret_cast<uint64_t>(reserved);
    backing = static_cast<uint8_t *>(bytes);
    capacity = size;
    break;
  }
  // Address 0 is never a valid block: start one alignment unit in.
  next = kAlign;
}

DeviceMemory::~DeviceMemory() {
  if (capacity) {
    munmap(reinterpret_cast<void *>(base), capacity);
    munmap(backing, capacity);
  }
}

uint64_t DeviceMemory::allocate(uint64_t bytes) {
  std::lock_guard<std::mutex> lock(mutex);
  if (!capacity)
    return 0;
  uint64_t size = std::max<uint64_t>(bytes, 1);
  uint64_t start = (next + kAlign - 1) / kAlign * kAlign;
  if (start + size + kGap > capacity)
    return 0;
  next = start + size + kGap;
  blocks.push_back({start, size, true});
  inUse += size;
  return base + start;
}

const DeviceMemory::Block *DeviceMemory::find(uint64_t address) const {
  if (!isDeviceAddress(address))
    return nullptr;
  uint64_t offset = address - base;
  auto it = std::upper_bound(
      blocks.begin(), blocks.end(), offset,
      [](uint64_t o, const Block &b) { return o < b.start; });
  if (it == blocks.begin())
    return nullptr;
  --it;
  if (offset >= it->start + std::max<uint64_t>(it->size, 1) + kGap)
    return nullptr;
  return &*it;
}

bool DeviceMemory::free(uint64_t address) {
  std::lock_guard<std::mutex> lock(mutex);
  const Block *b = find(address);
  if (!b || !b->live || base + b->start != address)
    return false;
  Block &block = const_cast<Block &>(*b);
  block.live = false;
  inUse -= block.size;
  // Give the pages back; the address range stays reserved (never reused).
  uint64_t page = 4096;
  uint64_t first = (block.start + page - 1) / page * page;
  uint64_t last = (block.start + block.size) / page * page;
  if (last > first)
    madvise(backing + first, last - first, MADV_DONTNEED);
  return true;
}

void DeviceMemory::registerHost(const void *ptr, uint64_t bytes) {
  std::lock_guard<std::mutex> lock(mutex);
  hostRanges[reinterpret_cast<uint64_t>(ptr)] = bytes;
}

bool DeviceMemory::unregisterHost(const void *ptr) {
  std::lock_guard<std::mutex> lock(mutex);
  return hostRanges.erase(reinterpret_cast<uint64_t>(ptr)) > 0;
}

bool DeviceMemory::findBlock(uint64_t address, uint64_t &start,
                             uint64_t &size) {
  std::lock_guard<std::mutex> lock(mutex);
  const Block *b = find(address);
  if (!b || !b->live || address - base >= b->start + b->size)
    return false;
  start = base + b->start;
  size = b->size;
  return true;
}

uint8_t *DeviceMemory::translate(uint64_t address, uint64_t bytes,
                                 std::string *why) {
  std::lock_guard<std::mutex> lock(mutex);
  if (isDeviceAddress(address)) {
    const Block *b = find(address);
    uint64_t offset = address - base;
    if (!b) {
      if (why)
        *why = "not inside any allocation";
      return nullptr;
    }
    if (!b->live) {
      if (why)
        *why = "inside an allocation that was freed";
      return nullptr;
    }
    if (offset < b->start || offset + bytes > b->start + b->size) {
      if (why) {
        char text[160];
        snprintf(text, sizeof(text),
                 "outside its allocation (%llu bytes at 0x%llx; the access "
                 "is at offset %lld)",
                 static_cast<unsigned long long>(b->size),
                 static_cast<unsigned long long>(base + b->start),
                 static_cast<long long>(offset - b->start));
        *why = text;
      }
      return nullptr;
    }
    return backing + offset;
  }
  auto it = hostRanges.upper_bound(address);
  if (it != hostRanges.begin()) {
    --it;
    if (address >= it->first && address + bytes <= it->first + it->second)
      return reinterpret_cast<uint8_t *>(address);
  }
  if (why)
    *why = "not device memory (a host pointer, or garbage)";
  return nullptr;
}

} // namespace emu
} // namespace amp
