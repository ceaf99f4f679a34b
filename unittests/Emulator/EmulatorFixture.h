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

/// "%f0, %f1, ..." for `count` registers (a wgmma accumulator).
inline std::string floatRegisterList(int count) {
  std::string regs;
  for (int i = 0; i < count; ++i)
    regs += (i ? ", %f" : "%f") + std::to_string(i);
  return regs;
}

/// Stores of %f0 ... %f<count-1> to [%rd5 + 4 i].
inline std::string floatRegisterStores(int count) {
  std::string stores;
  for (int i = 0; i < count; ++i)
    stores += "  st.global.f32 [%rd5+" + std::to_string(i * 4) + "], %f" +
              std::to_string(i) + ";\n";
  return stores;
}

/// The start of a one-warpgroup wgmma test kernel: the entry (img, bytes,
/// da, db, out), `count` accumulator registers, the copy of the operand
/// image (`imageBytes`) from global to shared memory by 16 bytes a thread,
/// the descriptors in %rd9 (da) and %rd10 (db), and %p2 = false.
inline std::string wgmmaKernelPrologue(int count, size_t imageBytes) {
  return R"(
.visible .entry k(.param .u64 img, .param .u64 bytes, .param .u64 da, .param .u64 db, .param .u64 out)
{
  .reg .pred %p<4>;
  .reg .b32 %r<8>;
  .reg .b64 %rd<16>;
  .reg .f32 %f<)" + std::to_string(count) + R"(>;
  .shared .align 1024 .b8 sm[)" + std::to_string(imageBytes) + R"(];
  mov.u32 %r1, %tid.x;
  ld.param.u64 %rd1, [img];
  ld.param.u64 %rd2, [bytes];
  mul.wide.u32 %rd3, %r1, 16;
  mov.u64 %rd6, sm;
COPY:
  add.s64 %rd7, %rd1, %rd3;
  ld.global.v4.b32 {%r2, %r3, %r4, %r5}, [%rd7];
  add.s64 %rd8, %rd6, %rd3;
  st.shared.v4.b32 [%rd8], {%r2, %r3, %r4, %r5};
  add.s64 %rd3, %rd3, 2048;
  setp.lt.u64 %p1, %rd3, %rd2;
  @%p1 bra COPY;
  bar.sync 0;
  ld.param.u64 %rd9, [da];
  ld.param.u64 %rd10, [db];
  setp.ne.b32 %p2, 0, 0;
)";
}

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
