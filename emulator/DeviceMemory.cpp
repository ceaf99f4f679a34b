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

/// Alignment of every block. After each block the allocator leaves a gap
/// as large as the block (at least 256 bytes, at most 1 GiB): an access
/// that runs off a block by less than its size lands in a gap, never in
/// the next block.
constexpr uint64_t kAlign = 256;
constexpr uint64_t kMinGap = 256;
constexpr uint64_t kMaxGap = uint64_t(1) << 30;

static std::string hex(uint64_t v) {
  char text[24];
  snprintf(text, sizeof(text), "0x%llx", static_cast<unsigned long long>(v));
  return text;
}

static uint64_t gapAfter(uint64_t size) {
  return std::min(std::max(size, kMinGap), kMaxGap);
}

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
  if (start + size + gapAfter(size) > capacity)
    return 0;
  next = start + size + gapAfter(size);
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
  if (offset >= it->start + it->size + gapAfter(it->size))
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
    if (b && b->live && offset >= b->start &&
        offset + bytes <= b->start + b->size)
      return backing + offset;
    if (why) {
      char text[256];
      if (b && !b->live && offset < b->start + b->size) {
        snprintf(text, sizeof(text),
                 "inside an allocation that was freed (use after free)");
      } else if (b && offset < b->start + b->size) {
        snprintf(text, sizeof(text),
                 "runs past the end of its allocation (%llu bytes at "
                 "0x%llx; the access is at offset %llu)",
                 static_cast<unsigned long long>(b->size),
                 static_cast<unsigned long long>(base + b->start),
                 static_cast<unsigned long long>(offset - b->start));
      } else {
        // Between allocations: name the neighbours.
        std::string where = "out of bounds: not inside any allocation";
        if (b) {
          where += "; " + std::to_string(offset - b->start - b->size) +
                   " bytes past the end of the " + std::to_string(b->size) +
                   "-byte allocation at " + hex(base + b->start);
        }
        auto next = std::upper_bound(
            blocks.begin(), blocks.end(), offset,
            [](uint64_t o, const Block &x) { return o < x.start; });
        if (next != blocks.end())
          where += "; " + std::to_string(next->start - offset) +
                   " bytes before the allocation at " +
                   hex(base + next->start);
        snprintf(text, sizeof(text), "%s", where.c_str());
      }
      *why = text;
    }
    return nullptr;
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
