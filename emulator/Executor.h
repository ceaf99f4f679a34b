//===- Executor.h - Execution state of a kernel launch ----------*- C++ -*-===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The state of one launch (internal to the emulator): CTAs with their shared
// memory, its shadow (for the checks), mbarriers and pending asynchronous
// copies; warps with their registers (32 lanes side by side per register),
// divergence groups and asynchronous-operation state. Executor.cpp runs
// warps and dispatches each instruction to the file of its family (listed
// there).
//
//===----------------------------------------------------------------------===//

#ifndef AMP_EMULATOR_EXECUTOR_H
#define AMP_EMULATOR_EXECUTOR_H

#include "Emulator.h"

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace amp {
namespace emu {

constexpr int kWarpSize = 32;

/// Per-byte state of shared memory for the race and initialization checks
/// (8 bytes a byte: this is read on every shared access).
struct ShadowByte {
  uint16_t writeEpoch = 0;
  uint16_t readEpoch = 0;
  uint16_t writer = 0;
  uint16_t reader = 0;
};
enum : uint16_t {
  kManyReaders = 0xffff,
  kAsyncAgent = 0xfffe, // TMA (ordered by its mbarrier)
};

/// Per-byte state that few bytes have: in-flight asynchronous copies and
/// wgmma reads, live mbarriers. Cta::specialLines counts, per 64-byte line,
/// the bytes with any of it, so that ordinary accesses look at one counter.
struct SpecialByte {
  uint8_t pending = 0;     // in-flight asynchronous writes to this byte
  uint8_t mbarrier = 0;    // part of a live mbarrier object
  uint16_t asyncReads = 0; // in-flight wgmma reads of this byte
  bool any() const { return pending || mbarrier || asyncReads; }
};
constexpr uint32_t kSpecialLine = 64;

struct MBarrier {
  uint32_t expected = 0; // arrivals per phase
  uint32_t pending = 0;  // arrivals still missing in the current phase
  int64_t tx = 0;        // transaction bytes still expected
  uint32_t phase = 0;    // phases completed
  uint32_t initLine = 0;
};

/// A cp.async copy issued by one lane, landing at its wait.
struct AsyncCopy {
  uint8_t lane;
  uint8_t size;
  uint32_t group; // 0: not committed yet
  uint32_t dst;   // shared offset
  uint32_t line;
  uint8_t data[16];
};

/// A TMA load waiting to land (when a thread waits on its mbarrier).
struct TmaCopy {
  uint32_t dst;       // shared offset
  uint32_t mbarrier;  // shared offset of the mbarrier
  uint32_t line;
  std::vector<uint8_t> data; // already swizzled, as it lands
};

/// An entry of a warp's reconvergence stack: a path some lanes still have
/// to run, up to its reconvergence pc.
struct PathEntry {
  uint32_t pc;
  uint32_t mask;
  uint32_t rpc;
};

/// A path waiting at a barrier.
struct Parked {
  PathEntry path; // pc: after the barrier
  uint32_t barrier;
};

struct Cta;

/// An in-flight wgmma group of one warp.
struct WgmmaGroup {
  std::vector<int32_t> registers; // accumulator slots written
  std::vector<std::pair<uint32_t, uint32_t>> reads; // shared [start, end)
  uint32_t line = 0;
};

struct Warp {
  enum class State : uint8_t { Ready, Blocked, Done };

  Cta *cta = nullptr;
  uint32_t index = 0;      // in the CTA
  uint32_t firstThread = 0;
  uint32_t validMask = 0;  // lanes that exist (partial last warp)
  // The current path (the top of the reconvergence stack): its pc, lanes
  // and reconvergence pc; `stack` holds the paths below it.
  uint32_t pc = 0;
  uint32_t active = 0;
  uint32_t rpc = kNoReconvergence;
  uint32_t exited = 0;
  std::vector<PathEntry> stack;
  std::vector<Parked> parked; // paths waiting at a barrier
  State state = State::Ready;
  bool yielded = false;
  uint64_t *regs = nullptr; // numRegisters x 32
  uint8_t *local = nullptr; // localBytes x 32

  // cp.async.
  std::vector<AsyncCopy> copies;
  std::array<uint32_t, kWarpSize> committedGroups{};
  // wgmma.
  std::vector<WgmmaGroup> wgmmaGroups; // committed, not waited for
  WgmmaGroup wgmmaOpen;                // issued, not committed
  bool wgmmaOpenUsed = false;
  std::vector<uint8_t> inflight;       // per register slot: 1 while pending
  uint32_t inflightCount = 0;
  bool fenced = false;                 // wgmma.fence since the last access
  /// The cluster barrier phase this warp last arrived in.
  uint32_t clusterArrivalPhase = 0;
};

struct Cta {
  Dim3 ctaid;
  uint32_t rank = 0;      // in the cluster
  uint32_t linear = 0;    // linear CTA index in the grid
  uint32_t numThreads = 0;
  uint32_t exitedThreads = 0;
  std::vector<uint8_t> shared;
  uint32_t sharedSize = 0;
  std::vector<ShadowByte> shadow;
  std::vector<SpecialByte> special;
  std::vector<uint16_t> specialLines;
  /// Barrier epochs (16-bit, renumbered when they run out): shadow bytes
  /// written before `epochBase` were written by an earlier CTA that used
  /// the same shadow (garbage to this one).
  uint16_t epochBase = 1;
  uint16_t epoch = 1;
  /// Asynchronous state was left behind (after an error): clear all.
  bool dirty = false;
  std::map<uint32_t, MBarrier> mbarriers;
  std::vector<TmaCopy> tma;
  std::vector<Warp> warps;
  std::array<uint32_t, 16> arrived{};
  std::array<uint32_t, 16> expectedCount{};
};

/// One kernel launch in progress.
class Launch {
public:
  Launch(Device &device, const Module &module, const Kernel &kernel,
         const LaunchConfig &config);
  LaunchResult run(void **params);

  // Errors. `fail` reports a failed check at an instruction; it returns
  // false, and aborts the launch in CheckMode::Error.
  bool fail(LaunchError kind, const Warp &w, int lane, const std::string &what,
            bool fatal = false);
  bool aborted() const { return abort; }

  // Operands.
  uint64_t read(const Warp &w, const Operand &op, int lane) const;
  const uint64_t *lanes(const Warp &w, const Operand &op, uint64_t *buffer,
                        uint32_t mask) const;
  void write(Warp &w, const Operand &op, int lane, uint64_t value);
  uint32_t predicateMask(const Warp &w, int32_t slot) const;
  uint64_t special(const Warp &w, Special s, int lane) const;
  uint64_t address(const Warp &w, const Operand &op, int lane) const;

  // Memory. `access` returns the bytes of [address, address + size) in
  // `space` for `lane`, or null after reporting why.
  enum class Access { Read, Write, Atomic, AsyncWrite };
  uint8_t *access(Warp &w, int lane, Space space, uint64_t address,
                  uint32_t size, Access kind, uint32_t align = 0);
  uint8_t *sharedAccess(Warp &w, int lane, Cta &target, uint32_t offset,
                        uint32_t size, Access kind);
  /// Resolves a generic or shared::cluster address to (CTA, offset); false
  /// when it is not shared memory.
  bool sharedTarget(const Warp &w, Space space, uint64_t address, Cta *&cta,
                    uint32_t &offset) const;
  uint8_t *globalBytes(const Warp &w, int lane, uint64_t address,
                       uint32_t size, bool write);

  // Instruction families (each file implements its own).
  void executeScalar(Warp &w, const Instruction &in, uint32_t mask);
  void executeArithmetic(Warp &w, const Instruction &in, uint32_t mask);
  void executeFloat(Warp &w, const Instruction &in, uint32_t mask);
  void executeConversion(Warp &w, const Instruction &in, uint32_t mask);
  void executeMemory(Warp &w, const Instruction &in, uint32_t mask);
  void executeWarpCollective(Warp &w, const Instruction &in, uint32_t mask);
  void executeTensorCore(Warp &w, const Instruction &in, uint32_t mask);
  void executeAsync(Warp &w, const Instruction &in, uint32_t mask);

  // Asynchronous state.
  /// Lands the cp.async copies of the lanes in `mask` whose groups are
  /// older than the newest keepGroups[lane] committed ones.
  void landCopies(Warp &w, uint32_t mask, const uint32_t *keepGroups);
  void landTma(Cta &cta, uint32_t mbarrier);
  void completeTx(Cta &cta, uint32_t mbarrier, int64_t bytes, const Warp &w);
  void arrive(Cta &cta, MBarrier &bar, uint32_t count);
  MBarrier *findMbarrier(Warp &w, int lane, Cta &cta, uint32_t offset);
  void retireWgmma(Warp &w, uint32_t keep);
  bool checkInflight(Warp &w, const Instruction &in, uint32_t mask);
  void finishCta(Cta &cta);

  Device &device;
  const Module &module;
  const Kernel &kernel;
  const LaunchConfig config;
  const Options &opts;
  std::vector<uint8_t> params;
  std::vector<Cta> cluster;
  std::vector<uint64_t> registerFile;
  std::vector<uint8_t> localMemory;
  uint32_t clusterSize = 1;
  Dim3 clusterDims;
  Dim3 clusterId;
  uint32_t dynamicBase = 0; // offset of the dynamic shared memory
  uint64_t syncEvents = 0;  // progress of mbarriers and barriers
  uint64_t warpInstructions = 0;
  uint64_t threadInstructions = 0;
  uint32_t currentPc = 0;   // of the instruction being executed

  /// Where --profile counts go (null without it).
  KernelCounts *profile = nullptr;
  SectorSet readSectors, writtenSectors;
  void countAccess(uint64_t address, uint32_t size, bool write) {
    if (write) {
      profile->requestedWritten += size;
      profile->sectorBytesWritten += writtenSectors.mark(address, size);
    } else {
      profile->requestedRead += size;
      profile->sectorBytesRead += readSectors.mark(address, size);
    }
  }

  /// SIMT floating-point operations of `in` on the lanes of `mask` (an FMA
  /// counts 2, a packed f16x2/bf16x2 operation twice).
  void countFlops(const Instruction &in, uint32_t mask) {
    uint64_t perLane = in.op == Op::FFma ? 2 : 1;
    if (in.type == Type::F16x2 || in.type == Type::BF16x2)
      perLane *= 2;
    profile->simtFlops +=
        perLane * static_cast<uint64_t>(__builtin_popcount(mask));
  }

  // Global-memory translation cache (one block).
  uint64_t cacheStart = 0, cacheEnd = 0;
  uint8_t *cacheBytes = nullptr;

private:
  void runCluster();
  void runWarp(Warp &w, uint64_t budget);
  void initCta(Cta &cta, uint32_t linear, Dim3 ctaid, uint32_t rank);
  void branch(Warp &w, const Instruction &in, uint32_t taken);
  void advance(Warp &w, uint32_t mask);
  void reconverge(Warp &w);
  void exitLanes(Warp &w, uint32_t mask);
  void barrier(Warp &w, const Instruction &in, uint32_t mask);
  void checkBarriers(Cta &cta);
  void releaseBarrier(Cta &cta, uint32_t id);
  /// Starts a new barrier epoch in `cta`.
  void nextEpoch(Cta &cta);
  /// Changes the special state of [offset, offset + size) of `cta`
  /// through `update(SpecialByte &)`, keeping the line counts.
  template <typename F>
  void updateSpecial(Cta &cta, uint32_t offset, uint32_t size, F update) {
    for (uint32_t i = offset; i < offset + size; ++i) {
      // On a copy: reading back a partly written struct stalls the store
      // forwarding of every iteration.
      SpecialByte b = cta.special[i];
      bool before = b.any();
      update(b);
      bool after = b.any();
      cta.special[i] = b;
      if (before != after)
        cta.specialLines[i / kSpecialLine] += after ? 1 : uint16_t(-1);
    }
  }
  void clusterBarrier(Warp &w, const Instruction &in, uint32_t mask);
  void checkClusterBarrier();
  std::string where(const Warp &w, int lane) const;

  bool abort = false;
  unsigned reports = 0;
  LaunchResult result;
  uint32_t clusterArrived = 0;
  uint16_t epochCounter = 0;
  uint32_t clusterPhase = 0;
};

inline uint64_t maskBits(uint64_t v, int bits) {
  return bits >= 64 ? v : v & ((uint64_t(1) << bits) - 1);
}
inline int64_t signExtend(uint64_t v, int bits) {
  if (bits >= 64)
    return static_cast<int64_t>(v);
  uint64_t m = uint64_t(1) << (bits - 1);
  v = maskBits(v, bits);
  return static_cast<int64_t>((v ^ m) - m);
}

} // namespace emu
} // namespace amp

#endif // AMP_EMULATOR_EXECUTOR_H
