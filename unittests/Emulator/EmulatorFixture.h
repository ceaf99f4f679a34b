//===- EmulatorFixture.h - The emulator's unit-test fixture -----*- C++ -*-===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// What the emulator's unit tests share: a device to load PTX on and launch
// it, with helpers for device memory, and the shared-memory layouts of
// wgmma operands written from the PTX ISA's tables.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_UNITTESTS_EMULATOR_EMULATORFIXTURE_H
#define AMP_UNITTESTS_EMULATOR_EMULATORFIXTURE_H

#include "Emulator.h"

#include "gtest/gtest.h"

#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace amp {
namespace emu {
namespace unittest {

inline const char *kHeader = ".version 8.0\n.target sm_90a\n.address_size 64\n";

class Emulator : public ::testing::Test {
public:
  Emulator() : Emulator(Options()) {}
  explicit Emulator(const Options &options) : device(options) {}

  /// Loads a module (header prepended); fails the test on errors.
  std::shared_ptr<Module> load(const std::string &body) {
    std::string error;
    auto m = device.loadModule(std::string(kHeader) + body, error);
    EXPECT_TRUE(m) << error;
    return m;
  }
  uint64_t upload(const void *data, size_t bytes) {
    uint64_t a = device.memory().allocate(bytes);
    std::memcpy(device.memory().translate(a, bytes, nullptr), data, bytes);
    return a;
  }
  template <typename T> uint64_t upload(const std::vector<T> &v) {
    return upload(v.data(), v.size() * sizeof(T));
  }
  uint64_t zeros(size_t bytes) {
    std::vector<uint8_t> z(bytes, 0);
    return upload(z.data(), bytes);
  }
  template <typename T> std::vector<T> download(uint64_t a, size_t n) {
    std::vector<T> v(n);
    std::memcpy(v.data(), device.memory().translate(a, n * sizeof(T), nullptr),
                n * sizeof(T));
    return v;
  }
  /// Runs `kernel` with u64 parameters.
  LaunchResult run(const Module &m, const char *kernel, Dim3 grid, Dim3 block,
                   std::vector<uint64_t> args, uint32_t smem = 0) {
    const Kernel *k = m.findKernel(kernel);
    EXPECT_TRUE(k);
    std::vector<void *> params;
    for (uint64_t &a : args)
      params.push_back(&a);
    LaunchConfig c;
    c.grid = grid;
    c.block = block;
    c.dynamicSharedBytes = smem;
    c.maxDynamicSharedBytes = DeviceLimits::kMaxSharedPerBlockOptin;
    return device.launch(m, *k, c, params.data());
  }

  Device device;
};

inline uint16_t f16(float x) { return toHalf(x); }

/// The 128-byte swizzle of the PTX ISA (and of TMA's SWIZZLE_128B):
/// address bits [4, 7) xor bits [7, 10).
inline uint32_t swizzle128(uint32_t a) { return a ^ (((a >> 7) & 7) << 4); }

/// Byte offset of element (mn, k) of a 16-bit operand in the canonical
/// layouts with 128-byte swizzling, written from the layout tables
/// (K-major: 8 rows of 128 bytes per 1024-byte atom, atoms SBO apart;
/// MN-major: 64 elements along MN per 128-byte row, rows along K, groups of
/// 8 K rows SBO apart, groups of 64 MN elements LBO apart).
inline uint32_t canonical128(bool mnMajor, uint32_t mn, uint32_t k,
                             uint32_t lbo, uint32_t sbo) {
  if (!mnMajor)
    return (mn % 8) * 128 + (mn / 8) * sbo + k * 2;
  return (mn % 64) * 2 + (mn / 64) * lbo + (k % 8) * 128 + (k / 8) * sbo;
}

inline uint64_t descriptor(uint32_t start, uint32_t lbo, uint32_t sbo) {
  return (uint64_t(start >> 4) & 0x3fff) |
         (uint64_t((lbo >> 4) & 0x3fff) << 16) |
         (uint64_t((sbo >> 4) & 0x3fff) << 32) | (uint64_t(1) << 62);
}

} // namespace unittest
} // namespace emu
} // namespace amp

#endif // AMP_UNITTESTS_EMULATOR_EMULATORFIXTURE_H
