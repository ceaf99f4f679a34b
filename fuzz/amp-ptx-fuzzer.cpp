//===- amp-ptx-fuzzer.cpp - Fuzz the PTX emulator's parser and executor ---===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A libFuzzer target: the input bytes are PTX text (seeds: the kernels amp's
// GPU pipeline writes for the test suite's models, fuzz/make-ptx-seeds.sh).
// The emulator must either decode the module or say why not, with a message
// that names a line, and never crash, hang or read out of bounds.
//
// A module that decodes is also run, each kernel on one block (of the size
// it asks for, else one warp) with every parameter pointing at a zeroed
// device buffer, under an instruction budget: a launch may fail with any of the emulator's errors (that is what
// its checks are for), but must fail cleanly. This exercises the executor on
// instructions in orders and with operands no compiler writes.
//
// Built with -fsanitize=fuzzer when AMP_ENABLE_FUZZERS is on; otherwise
// linked with FuzzerMain.cpp, which runs the files named on the command line.
//
//===----------------------------------------------------------------------===//

#include "Emulator.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

using namespace amp::emu;

namespace {
/// Bigger inputs are skipped: they only slow the fuzzer down.
constexpr size_t kMaxInputSize = 1 << 18;
/// Each kernel runs at most this many warp instructions.
constexpr uint64_t kInstructionBudget = 20000;
/// Kernels with more parameters than this are parsed, not run.
constexpr size_t kMaxParams = 32;
/// Every pointer parameter points at a buffer of this size.
constexpr size_t kBufferBytes = 1 << 16;
/// Kernels that declare dynamic shared memory get this much.
constexpr uint32_t kDynamicSharedBytes = 200 * 1024;

bool verbose() {
  static const bool value = std::getenv("AMP_FUZZ_VERBOSE") != nullptr;
  return value;
}

/// Runs each kernel of `module` once on one block.
void runKernels(Device &device, const std::shared_ptr<Module> &module) {
  for (const auto &kernel : module->kernels) {
    if (kernel->params.size() > kMaxParams)
      continue;
    // Every parameter gets 8 bytes holding the address of a zeroed buffer:
    // pointers are valid, integers are large but harmless, since every
    // access is bounds checked.
    uint64_t buffer = device.memory().allocate(kBufferBytes);
    if (!buffer)
      return;
    if (uint8_t *bytes =
            device.memory().translate(buffer, kBufferBytes, nullptr))
      std::memset(bytes, 0, kBufferBytes);
    std::vector<uint64_t> values(kernel->params.size(), buffer);
    std::vector<void *> params;
    for (uint64_t &v : values)
      params.push_back(&v);
    // The block the kernel asks for (wgmma kernels need whole warpgroups),
    // else one warp; dynamic shared memory for kernels that declare it.
    LaunchConfig config;
    config.block.x = 32;
    const auto &want = kernel->reqntid[0] ? kernel->reqntid : kernel->maxntid;
    if (want[0] && uint64_t(want[0]) * std::max(want[1], 1u) *
                           std::max(want[2], 1u) <=
                       DeviceLimits::kMaxThreadsPerBlock) {
      config.block.x = want[0];
      config.block.y = std::max(want[1], 1u);
      config.block.z = std::max(want[2], 1u);
    }
    if (kernel->dynamicSharedAlign) {
      config.dynamicSharedBytes = kDynamicSharedBytes;
      config.maxDynamicSharedBytes = kDynamicSharedBytes;
    }
    LaunchResult result =
        device.launch(*module, *kernel, config, params.data());
    if (verbose())
      std::fprintf(stderr, "kernel %s: %s\n", kernel->name.c_str(),
                   result.ok() ? "ran" : result.message.c_str());
    if (!result.ok() && result.message.empty()) {
      std::fprintf(stderr, "amp-ptx-fuzzer: a launch of %s failed without a "
                           "message\n",
                   kernel->name.c_str());
      std::abort();
    }
    device.memory().free(buffer);
  }
}
} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***) { return 0; }

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > kMaxInputSize)
    return 0;
  std::string text(reinterpret_cast<const char *>(data), size);
  Options options;
  options.checks = CheckMode::Error;
  options.instructionBudget = kInstructionBudget;
  Device device(options);
  std::string error;
  std::shared_ptr<Module> module = device.loadModule(text, error);
  if (verbose())
    std::fprintf(stderr, "%s (%zu bytes)%s%s\n",
                 module ? "decoded" : "rejected", size,
                 error.empty() ? "" : ": ", error.c_str());
  if (!module) {
    if (error.empty()) {
      std::fprintf(stderr,
                   "amp-ptx-fuzzer: the module was rejected without a "
                   "message\n");
      std::abort();
    }
    return 0;
  }
  runKernels(device, module);
  return 0;
}
