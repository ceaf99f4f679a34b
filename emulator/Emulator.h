//===- Emulator.h - A PTX emulator for amp's GPU kernels ---------*- C++ -*-===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The public interface of the emulator: an emulated device (global memory,
// loaded modules) that launches kernels of decoded PTX modules on the CPU.
//
// Execution model: the CTAs of a grid run one cluster at a time; inside a
// cluster, warps run in turn, each until it blocks (a barrier, an mbarrier
// wait that cannot complete yet) or exhausts a time slice; the 32 threads of
// a warp execute in lock step, diverged threads in groups, the group with
// the lowest program counter first (reconverging where they meet again).
// Warp-collective instructions (ldmatrix, mma.sync, wgmma, shfl, vote)
// exchange data between the lanes of a warp as the PTX ISA specifies.
//
// Checks (see Options): out-of-bounds and misaligned accesses to global,
// shared and local memory; shared-memory races between barriers; reads of
// shared memory that an asynchronous copy (cp.async, TMA) has not landed in
// yet; an mbarrier overwritten or misused; wgmma accumulators read before
// wgmma.wait_group; deadlocks; instructions the emulator does not implement.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_EMULATOR_EMULATOR_H
#define AMP_EMULATOR_EMULATOR_H

#include "DeviceMemory.h"
#include "Profile.h"
#include "Ptx.h"

#include <cstdint>
#include <memory>
#include <string>

namespace amp {
namespace emu {

/// What a failed check does.
enum class CheckMode {
  Error, // the launch fails at the first error (the default)
  Warn,  // errors are printed and execution continues
};

struct Options {
  CheckMode checks = CheckMode::Error;
  /// Shared-memory race detection between barriers.
  bool races = true;
  /// At most this many diagnostics per launch are printed in Warn mode.
  unsigned maxReports = 10;
  /// The compute capability emulated (90: sm_90, runs sm_80..sm_90a PTX).
  int smVersion = 90;
  /// Print a line per launch (kernel, grid, thread-instructions, time).
  bool trace = false;
  /// Print statistics when the device is destroyed.
  bool stats = false;
  /// Count per launch what the roofline bound needs (Profile.h) and print
  /// the table when the device is destroyed; also write it as JSON to
  /// `profilePath` when that is not empty.
  bool profile = false;
  std::string profilePath;
  /// Write every loaded module to this folder (module-<n>.ptx) so that line
  /// numbers in messages can be looked up.
  std::string dumpDirectory;
  /// Load DIR/module-<n>.ptx instead of the n-th module a program loads,
  /// where that file exists (to try an edited kernel without rebuilding).
  std::string replaceDirectory;
  /// A launch that executes more warp instructions than this fails with
  /// LaunchFailed (0: no limit). Fuzzing runs arbitrary PTX with it, since
  /// a kernel may loop forever.
  uint64_t instructionBudget = 0;

  /// AMP_EMULATOR_CHECKS=error|warn, AMP_EMULATOR_RACES=0|1,
  /// AMP_EMULATOR_ARCH=sm_80|sm_90, AMP_EMULATOR_TRACE=1,
  /// AMP_EMULATOR_STATS=1, AMP_EMULATOR_DUMP=DIR, AMP_EMULATOR_REPLACE=DIR,
  /// AMP_EMULATOR_PROFILE=1 or =FILE.json.
  static Options fromEnvironment();
};

struct Stats {
  uint64_t launches = 0;
  uint64_t ctas = 0;
  uint64_t warpInstructions = 0;
  uint64_t threadInstructions = 0;
  double seconds = 0; // CPU time spent executing kernels
};

struct Dim3 {
  uint32_t x = 1, y = 1, z = 1;
  uint64_t count() const { return uint64_t(x) * y * z; }
};

struct LaunchConfig {
  Dim3 grid, block, cluster;
  uint32_t dynamicSharedBytes = 0;
  /// The kernel's dynamic shared memory limit (cuFuncSetAttribute
  /// MAX_DYNAMIC_SHARED_SIZE_BYTES); 48 KiB by default.
  uint32_t maxDynamicSharedBytes = 48 * 1024;
};

/// Why a launch failed, as the CUDA error the driver reports.
enum class LaunchError {
  None,
  InvalidValue,       // bad configuration
  IllegalAddress,     // out of bounds, use after free
  MisalignedAddress,
  IllegalInstruction, // unsupported instruction, trap
  LaunchFailed,       // races, async misuse, deadlock
};

struct LaunchResult {
  LaunchError error = LaunchError::None;
  std::string message;
  bool ok() const { return error == LaunchError::None; }
};

/// Emulated device limits (an H100-like part).
struct DeviceLimits {
  static constexpr uint32_t kMaxThreadsPerBlock = 1024;
  static constexpr uint32_t kMaxSharedPerBlockOptin = 232448; // 227 KiB
  static constexpr uint32_t kDefaultSharedPerBlock = 48 * 1024;
  static constexpr uint32_t kSharedPerSM = 233472; // 228 KiB
  static constexpr uint32_t kMultiprocessors = 132;
  static constexpr uint32_t kMaxClusterSize = 8;
};

class Device {
public:
  explicit Device(const Options &options);
  ~Device();

  DeviceMemory &memory() { return mem; }
  /// Prints the statistics if Options::stats asks for them.
  void printStatistics() const;
  const Options &options() const { return opts; }
  Stats &stats() { return counters; }
  Profiler &profiler() { return profile; }

  /// Parses `ptx` and allocates its global variables. Null and `error` on
  /// failure.
  std::shared_ptr<Module> loadModule(const std::string &ptx,
                                     std::string &error);

  /// Runs `kernel` to completion. `params[i]` points to the value of
  /// parameter i (cuLaunchKernel's convention).
  LaunchResult launch(const Module &module, const Kernel &kernel,
                      const LaunchConfig &config, void **params);

private:
  Options opts;
  DeviceMemory mem;
  Stats counters;
  Profiler profile;
  unsigned modulesLoaded = 0;
};

/// Generic-address windows of the shared and local state spaces (the global
/// window is the device memory range, plus registered host memory).
constexpr uint64_t kSharedWindow = 0xffff800000000000ull;
constexpr uint64_t kLocalWindow = 0xffff900000000000ull;
constexpr uint64_t kWindowSize = 1ull << 32;

} // namespace emu
} // namespace amp

#endif // AMP_EMULATOR_EMULATOR_H
