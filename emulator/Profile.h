//===- Profile.h - Per-kernel counts and a roofline bound -------*- C++ -*-===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// What `amp-emulate --profile` reports: for every kernel launch, the global
// memory it reads and writes, the Tensor Core multiply-adds and SIMT
// floating-point operations it executes, and from these a roofline lower
// bound of its time on an H100 SXM and an H200 (machine table in
// Profile.cpp, sources in docs/emulator.md). Launches of one kernel are
// summed; the whole run is summed too, with the device copies and fills.
//
// Memory is counted twice: the bytes the threads ask for (every load and
// store, cp.async and TMA element) and the distinct 32-byte sectors the
// launch touches (what must cross the DRAM interface at least once, with
// an infinite cache). The bound uses the sectors: it is a lower bound of
// the kernel's time, not a prediction.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_EMULATOR_PROFILE_H
#define AMP_EMULATOR_PROFILE_H

#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <unordered_set>
#include <vector>

namespace amp {
namespace emu {

/// Tensor Core input types the profile tells apart (their rates differ).
enum class MmaKind : uint8_t { F16, BF16, TF32, F8, Int8, Count };

/// The counts of one launch (or the sum of several).
struct KernelCounts {
  uint64_t launches = 0;
  uint64_t ctas = 0;
  uint64_t threads = 0;
  /// Bytes of the distinct 32-byte sectors read and written.
  uint64_t sectorBytesRead = 0, sectorBytesWritten = 0;
  /// Bytes the threads asked for.
  uint64_t requestedRead = 0, requestedWritten = 0;
  /// Tensor Core multiply-adds by input type.
  uint64_t mmaMacs[static_cast<int>(MmaKind::Count)] = {};
  /// SIMT floating-point operations (an FMA counts 2; f16x2 twice).
  uint64_t simtFlops = 0;
  uint64_t threadInstructions = 0;

  void add(const KernelCounts &o);
  uint64_t totalMacs() const;
};

/// A GPU the roofline bound is computed for.
struct MachineModel {
  const char *name;
  double dramBytesPerSecond;
  /// Dense Tensor Core multiply-adds per second by MmaKind.
  double macsPerSecond[static_cast<int>(MmaKind::Count)];
  double simtFlopsPerSecond; // FP32, non-tensor
  double launchSeconds;      // per kernel
};

/// The machines of the report (H100 SXM, H200).
const std::vector<MachineModel> &machineModels();

/// The lower bound of one kernel's time (without the launch cost):
/// max(DRAM bytes / bandwidth, MACs / Tensor Core rate, flops / FP32 rate).
double kernelBoundSeconds(const KernelCounts &c, const MachineModel &m);
/// Which of the three terms decides it: "memory", "tensor" or "simt".
const char *boundBy(const KernelCounts &c, const MachineModel &m);

/// Distinct 32-byte sectors one launch touches.
class SectorSet {
public:
  /// Marks [address, address + size); returns the bytes of newly marked
  /// sectors.
  uint64_t mark(uint64_t address, uint32_t size);
  void clear() { sectors.clear(); }

private:
  std::unordered_set<uint64_t> sectors;
};

/// The profile of a run: launches in order, summed by kernel at the end.
/// When the program marks ranges (cuProfilerStart/Stop: amp-compile's
/// harness marks its timed calls), only what happens inside them counts.
class Profiler {
public:
  struct Launch {
    std::string kernel;
    KernelCounts counts;
  };
  void recordLaunch(const std::string &kernel, const KernelCounts &counts) {
    if (active)
      launches.push_back({kernel, counts});
  }
  void recordCopy(uint64_t bytes, bool deviceToDevice);
  void recordFill(uint64_t bytes);
  /// A driver entry point called (host work).
  void countCall(const char *name);
  /// A profiled range (cuProfilerStart..Stop): once one is marked, only
  /// what happens inside ranges counts.
  void start();
  void stop();

  /// The table (stderr) and, when `jsonPath` is not empty, the JSON file.
  void report(const std::string &jsonPath) const;

private:
  std::vector<Launch> launches;
  uint64_t copies = 0, copyBytes = 0, deviceCopies = 0, deviceCopyBytes = 0;
  uint64_t fills = 0, fillBytes = 0;
  std::map<std::string, uint64_t> calls;
  std::mutex callsMutex;
  /// Ranges: none marked yet (everything counts), or inside one.
  bool ranged = false, active = true;
  unsigned ranges = 0;
};

} // namespace emu
} // namespace amp

#endif // AMP_EMULATOR_PROFILE_H
