//===- Executor.cpp - Run a kernel launch warp by warp --------------------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Scheduling (clusters, CTAs, warps, divergence groups, barriers), operand
// access, memory access with its checks, and the scalar instructions:
// integer, bitwise, floating point, comparisons, moves, loads and stores,
// conversions, atomics and warp-level data exchange (shfl, vote, redux).
//
// Semantics follow the PTX ISA (NVIDIA, "Parallel Thread Execution ISA"),
// chapter 9 (instructions) and 8 (memory consistency; here execution is
// sequential, so every legal program sees the same values as on hardware).
//
//===----------------------------------------------------------------------===//

#include "Executor.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>

namespace amp {
namespace emu {

//===----------------------------------------------------------------------===//
// Setup
//===----------------------------------------------------------------------===//

Launch::Launch(Device &device, const Module &module, const Kernel &kernel,
               const LaunchConfig &config)
    : device(device), module(module), kernel(kernel), config(config),
      opts(device.options()) {}

std::string Launch::where(const Warp &w, int lane) const {
  const Cta &cta = *w.cta;
  uint32_t t = w.firstThread + static_cast<uint32_t>(std::max(lane, 0));
  uint32_t bx = config.block.x, by = config.block.y;
  char text[256];
  snprintf(text, sizeof(text),
           "block (%u,%u,%u), thread (%u,%u,%u) (warp %u, lane %d)",
           cta.ctaid.x, cta.ctaid.y, cta.ctaid.z, t % bx, (t / bx) % by,
           t / (bx * by), w.index, lane);
  return text;
}

bool Launch::fail(LaunchError kind, const Warp &w, int lane,
                  const std::string &what, bool fatal) {
  uint32_t pc = std::min<uint32_t>(currentPc, kernel.code.size() - 1);
  std::string message = what + "\n  in kernel " + kernel.name + ", line " +
                        std::to_string(kernel.code[pc].line) + ": " +
                        describeInstruction(kernel, pc) + "\n  " +
                        where(w, lane);
  if (opts.checks == CheckMode::Error || fatal) {
    if (!abort) {
      abort = true;
      result.error = kind;
      result.message = message;
    }
    return false;
  }
  if (reports < opts.maxReports)
    fprintf(stderr, "amp-emulator: warning: %s\n", message.c_str());
  else if (reports == opts.maxReports)
    fprintf(stderr, "amp-emulator: warning: further reports of this launch "
                    "are not printed\n");
  ++reports;
  if (result.ok() && result.message.empty())
    result.message = message; // the first one, but the launch goes on
  return false;
}

//===----------------------------------------------------------------------===//
// Operands
//===----------------------------------------------------------------------===//

uint64_t Launch::special(const Warp &w, Special s, int lane) const {
  const Cta &cta = *w.cta;
  uint32_t t = w.firstThread + static_cast<uint32_t>(lane);
  const Dim3 &b = config.block, &g = config.grid;
  switch (s) {
  case Special::TidX:
    return t % b.x;
  case Special::TidY:
    return (t / b.x) % b.y;
  case Special::TidZ:
    return t / (b.x * b.y);
  case Special::NtidX:
    return b.x;
  case Special::NtidY:
    return b.y;
  case Special::NtidZ:
    return b.z;
  case Special::CtaidX:
    return cta.ctaid.x;
  case Special::CtaidY:
    return cta.ctaid.y;
  case Special::CtaidZ:
    return cta.ctaid.z;
  case Special::NctaidX:
    return g.x;
  case Special::NctaidY:
    return g.y;
  case Special::NctaidZ:
    return g.z;
  case Special::LaneId:
    return static_cast<uint64_t>(lane);
  case Special::WarpId:
    return w.index;
  case Special::NWarpId:
    return 64;
  case Special::SmId:
    return cta.linear % DeviceLimits::kMultiprocessors;
  case Special::NSmId:
    return DeviceLimits::kMultiprocessors;
  case Special::GridId:
    return device.stats().launches;
  case Special::LanemaskEq:
    return uint64_t(1) << lane;
  case Special::LanemaskLe:
    return (uint64_t(2) << lane) - 1;
  case Special::LanemaskLt:
    return (uint64_t(1) << lane) - 1;
  case Special::LanemaskGe:
    return ~((uint64_t(1) << lane) - 1) & 0xffffffffu;
  case Special::LanemaskGt:
    return ~((uint64_t(2) << lane) - 1) & 0xffffffffu;
  case Special::Clock:
    return threadInstructions & 0xffffffffu;
  case Special::Clock64:
  case Special::GlobalTimer:
    return threadInstructions;
  case Special::DynamicSmemSize:
    return config.dynamicSharedBytes;
  case Special::TotalSmemSize:
    return cta.sharedSize;
  case Special::ClusterCtaRank:
    return cta.rank;
  case Special::ClusterNctaRank:
    return clusterSize;
  case Special::ClusterIdX:
    return clusterId.x;
  case Special::ClusterIdY:
    return clusterId.y;
  case Special::ClusterIdZ:
    return clusterId.z;
  case Special::NClusterIdX:
    return g.x / clusterDims.x;
  case Special::NClusterIdY:
    return g.y / clusterDims.y;
  case Special::NClusterIdZ:
    return g.z / clusterDims.z;
  case Special::ClusterCtaidX:
    return cta.ctaid.x % clusterDims.x;
  case Special::ClusterCtaidY:
    return cta.ctaid.y % clusterDims.y;
  case Special::ClusterCtaidZ:
    return cta.ctaid.z % clusterDims.z;
  case Special::ClusterNctaidX:
    return clusterDims.x;
  case Special::ClusterNctaidY:
    return clusterDims.y;
  case Special::ClusterNctaidZ:
    return clusterDims.z;
  case Special::IsExplicitCluster:
    return clusterSize > 1 || kernel.explicitCluster;
  }
  return 0;
}

/// The address a Symbol operand names.
static uint64_t symbolAddress(const Module &module, const Kernel &kernel,
                              int32_t symbol) {
  if (symbol >= 0)
    return module.symbols[symbol].address;
  if (symbol <= -2)
    return kernel.params[-symbol - 2].offset;
  return 0;
}

uint64_t Launch::read(const Warp &w, const Operand &op, int lane) const {
  switch (op.kind) {
  case OperandKind::Reg: {
    uint64_t v = w.regs[op.reg * kWarpSize + lane];
    return op.negate ? !v : v;
  }
  case OperandKind::Imm:
    return static_cast<uint64_t>(op.imm);
  case OperandKind::Special:
    return special(w, op.special, lane);
  case OperandKind::Symbol:
    return symbolAddress(module, kernel, op.symbol) + op.imm;
  default:
    return 0;
  }
}

const uint64_t *Launch::lanes(const Warp &w, const Operand &op,
                              uint64_t *buffer, uint32_t mask) const {
  if (op.kind == OperandKind::Reg && !op.negate)
    return &w.regs[op.reg * kWarpSize];
  if (op.kind == OperandKind::Imm || op.kind == OperandKind::Symbol) {
    uint64_t v = read(w, op, 0);
    for (int l = 0; l < kWarpSize; ++l)
      buffer[l] = v;
    return buffer;
  }
  for (uint32_t m = mask; m; m &= m - 1) {
    int l = __builtin_ctz(m);
    buffer[l] = read(w, op, l);
  }
  return buffer;
}

void Launch::write(Warp &w, const Operand &op, int lane, uint64_t value) {
  if (op.kind == OperandKind::Reg)
    w.regs[op.reg * kWarpSize + lane] = value;
}

uint32_t Launch::predicateMask(const Warp &w, int32_t slot) const {
  uint32_t mask = 0;
  const uint64_t *p = &w.regs[slot * kWarpSize];
  for (int l = 0; l < kWarpSize; ++l)
    mask |= (p[l] & 1 ? 1u : 0u) << l;
  return mask;
}

uint64_t Launch::address(const Warp &w, const Operand &op, int lane) const {
  uint64_t a = static_cast<uint64_t>(op.imm);
  if (op.reg >= 0)
    a += w.regs[op.reg * kWarpSize + lane];
  if (op.symbol != -1)
    a += symbolAddress(module, kernel, op.symbol);
  return a;
}

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

bool Launch::sharedTarget(const Warp &w, Space space, uint64_t address,
                          Cta *&target, uint32_t &offset) const {
  uint64_t a = address;
  if (space == Space::Generic) {
    if (a < kSharedWindow || a >= kSharedWindow + kWindowSize)
      return false;
    a -= kSharedWindow;
  }
  uint32_t rankField = static_cast<uint32_t>(a >> 24);
  offset = static_cast<uint32_t>(a & 0xffffff);
  if (a >= (uint64_t(1) << 32))
    return false;
  if (rankField == 0) {
    target = w.cta;
    return true;
  }
  uint32_t rank = rankField - 1;
  if (rank >= cluster.size() || (space == Space::Shared))
    return false;
  target = const_cast<Cta *>(&cluster[rank]);
  return true;
}

uint8_t *Launch::globalBytes(const Warp &w, int lane, uint64_t address,
                             uint32_t size, bool write) {
  if (profile)
    countAccess(address, size, write);
  if (address >= cacheStart && address + size <= cacheEnd)
    return cacheBytes + (address - cacheStart);
  std::string why;
  uint8_t *bytes = device.memory().translate(address, size, &why);
  if (!bytes) {
    char text[128];
    snprintf(text, sizeof(text), "%s of %u bytes at global address 0x%llx: ",
             write ? "store" : "load", size,
             static_cast<unsigned long long>(address));
    fail(LaunchError::IllegalAddress, w, lane, text + why);
    return nullptr;
  }
  uint64_t start, blockSize;
  if (device.memory().findBlock(address, start, blockSize)) {
    cacheStart = start;
    cacheEnd = start + blockSize;
    cacheBytes = bytes - (address - start);
  }
  return bytes;
}

/// Reports a failed shared-memory check (kept out of line: the checks pass
/// on almost every access). Returns whether execution goes on.
[[gnu::noinline, gnu::cold]] static bool
sharedProblem(Launch &l, Warp &w, int lane, const char *format, uint32_t a,
              uint32_t b = 0, uint32_t c = 0) {
  char text[256];
  snprintf(text, sizeof(text), format, a, b, c);
  l.fail(LaunchError::LaunchFailed, w, lane, text);
  return !l.aborted();
}

/// The asynchronous-copy, wgmma and mbarrier checks of an access that
/// touches a line with such state. False after reporting a problem.
[[gnu::noinline]] static bool checkSpecial(Launch &l, Warp &w, int lane,
                                           const Cta &target, uint32_t offset,
                                           uint32_t size,
                                           Launch::Access kind) {
  using Access = Launch::Access;
  for (uint32_t i = 0; i < size; ++i) {
    const SpecialByte &b = target.special[offset + i];
    const char *problem = nullptr;
    if (b.pending && kind != Access::AsyncWrite)
      problem = kind == Access::Read
                    ? "read of shared memory at offset %u while an "
                      "asynchronous copy into it has not completed "
                      "(cp.async without a sufficient cp.async.wait_group, "
                      "or TMA data used before its mbarrier wait)"
                    : "write to shared memory at offset %u while an "
                      "asynchronous copy into it has not completed";
    else if (kind != Access::Read && b.asyncReads)
      problem = "write to shared memory at offset %u while a "
                "wgmma.mma_async that reads it is in flight (missing "
                "wgmma.wait_group)";
    else if (kind != Access::Read && b.mbarrier)
      problem = "write to shared memory at offset %u overwrites a live "
                "mbarrier object";
    if (problem)
      return sharedProblem(l, w, lane, problem, offset + i);
  }
  return true;
}

uint8_t *Launch::sharedAccess(Warp &w, int lane, Cta &target, uint32_t offset,
                              uint32_t size, Access kind) {
  if (uint64_t(offset) + size > target.sharedSize) {
    char text[256];
    snprintf(text, sizeof(text),
             "out-of-bounds shared memory %s of %u bytes at offset %u: the "
             "CTA has %u bytes (%u static + %u dynamic)",
             kind == Access::Read ? "load" : "store", size, offset,
             target.sharedSize, kernel.staticSharedBytes,
             config.dynamicSharedBytes);
    fail(LaunchError::IllegalAddress, w, lane, text);
    return nullptr;
  }
  // The rare states, looked at only where a line has any.
  uint32_t firstLine = offset / kSpecialLine;
  uint32_t lastLine = (offset + size - 1) / kSpecialLine;
  bool reported = false; // warn mode: one report per access
  if ((target.specialLines[firstLine] || target.specialLines[lastLine]) &&
      !checkSpecial(*this, w, lane, target, offset, size, kind)) {
    if (abort)
      return nullptr;
    reported = true;
  }
  const uint16_t self = static_cast<uint16_t>(
      (w.cta->rank << 10) | (w.firstThread + static_cast<uint32_t>(lane)));
  const uint16_t epoch = target.epoch, base = target.epochBase;
  const bool races = opts.races;
  ShadowByte *s = target.shadow.data() + offset;
  if (kind == Access::Read) {
    for (uint32_t i = 0; i < size; ++i) {
      ShadowByte &b = s[i];
      if (b.writeEpoch < base && !reported) {
        if (!sharedProblem(*this, w, lane,
                           "read of shared memory at offset %u that no "
                           "thread of this CTA has written",
                           offset + i))
          return nullptr;
        reported = true;
      }
      if (!races)
        continue;
      if (b.writeEpoch == epoch && b.writer != self &&
          b.writer != kAsyncAgent && !reported) {
        if (!sharedProblem(*this, w, lane,
                           "shared memory race: thread %u reads offset %u "
                           "written by thread %u since the last barrier",
                           self & 0x3ff, offset + i, b.writer & 0x3ff))
          return nullptr;
        reported = true;
      }
      b.reader = (b.readEpoch == epoch && b.reader != self)
                     ? static_cast<uint16_t>(kManyReaders)
                     : self;
      b.readEpoch = epoch;
    }
    return target.shared.data() + offset;
  }
  const uint16_t writer = kind == Access::AsyncWrite
                              ? static_cast<uint16_t>(kAsyncAgent)
                              : self;
  bool check = races && kind == Access::Write && !reported;
  for (uint32_t i = 0; i < size; ++i) {
    ShadowByte &b = s[i];
    if (check && b.writeEpoch == epoch && b.writer != writer) {
      if (!sharedProblem(*this, w, lane,
                         "shared memory race: thread %u writes offset %u "
                         "written by thread %u since the last barrier",
                         self & 0x3ff, offset + i, b.writer & 0x3ff))
        return nullptr;
      check = false;
    }
    if (check && b.readEpoch == epoch && b.reader != writer) {
      if (!sharedProblem(*this, w, lane,
                         b.reader == kManyReaders
                             ? "shared memory race: thread %u writes offset "
                               "%u read by several threads since the last "
                               "barrier"
                             : "shared memory race: thread %u writes offset "
                               "%u read by another thread since the last "
                               "barrier",
                         self & 0x3ff, offset + i))
        return nullptr;
      check = false;
    }
    b.writer = writer;
    b.writeEpoch = epoch;
  }
  return target.shared.data() + offset;
}

uint8_t *Launch::access(Warp &w, int lane, Space space, uint64_t address,
                        uint32_t size, Access kind, uint32_t align) {
  if (!align)
    align = size;
  if (align > 1 && address % align) {
    char text[160];
    snprintf(text, sizeof(text),
             "misaligned %s access of %u bytes at %s address 0x%llx (needs "
             "%u-byte alignment)",
             kind == Access::Read ? "load" : "store", size, spaceName(space),
             static_cast<unsigned long long>(address), align);
    fail(LaunchError::MisalignedAddress, w, lane, text);
    return nullptr;
  }
  switch (space) {
  case Space::Shared:
  case Space::SharedCluster: {
    Cta *target;
    uint32_t offset;
    if (!sharedTarget(w, space, address, target, offset)) {
      char text[160];
      snprintf(text, sizeof(text),
               "%s address 0x%llx is not in this CTA's shared memory window",
               spaceName(space), static_cast<unsigned long long>(address));
      fail(LaunchError::IllegalAddress, w, lane, text);
      return nullptr;
    }
    return sharedAccess(w, lane, *target, offset, size, kind);
  }
  case Space::Local: {
    if (address + size > kernel.localBytes) {
      char text[160];
      snprintf(text, sizeof(text),
               "out-of-bounds local memory access of %u bytes at offset "
               "%llu (the thread has %u bytes)",
               size, static_cast<unsigned long long>(address),
               kernel.localBytes);
      fail(LaunchError::IllegalAddress, w, lane, text);
      return nullptr;
    }
    return w.local + static_cast<size_t>(lane) * kernel.localBytes + address;
  }
  case Space::Param: {
    if (address + size > params.size()) {
      fail(LaunchError::IllegalAddress, w, lane,
           "out-of-bounds kernel parameter access");
      return nullptr;
    }
    if (kind != Access::Read) {
      fail(LaunchError::IllegalAddress, w, lane,
           "store to a kernel parameter");
      return nullptr;
    }
    return params.data() + address;
  }
  case Space::Global:
  case Space::Const:
    return globalBytes(w, lane, address, size, kind != Access::Read);
  case Space::Generic:
    if (address >= kSharedWindow && address < kSharedWindow + kWindowSize)
      return access(w, lane, Space::SharedCluster, address - kSharedWindow,
                    size, kind, align);
    if (address >= kLocalWindow && address < kLocalWindow + kWindowSize)
      return access(w, lane, Space::Local, address - kLocalWindow, size,
                    kind, align);
    return globalBytes(w, lane, address, size, kind != Access::Read);
  }
  return nullptr;
}

//===----------------------------------------------------------------------===//
// Divergence and control flow
//===----------------------------------------------------------------------===//

/// Pops finished paths: the current one reached its reconvergence point or
/// has no live lanes left. With nothing left to run the warp is done, or
/// blocked when paths wait at a barrier.
void Launch::reconverge(Warp &w) {
  while (w.pc == w.rpc || (w.active & ~w.exited) == 0) {
    if (w.stack.empty()) {
      w.active = 0;
      w.state = w.parked.empty() ? Warp::State::Done : Warp::State::Blocked;
      return;
    }
    PathEntry e = w.stack.back();
    w.stack.pop_back();
    w.pc = e.pc;
    w.active = e.mask & ~w.exited;
    w.rpc = e.rpc;
  }
}

void Launch::advance(Warp &w, uint32_t) {
  ++w.pc;
  reconverge(w);
}

void Launch::branch(Warp &w, const Instruction &in, uint32_t taken) {
  taken &= w.active;
  uint32_t notTaken = w.active & ~taken;
  if (!notTaken) {
    w.pc = in.target;
  } else if (!taken) {
    ++w.pc;
  } else {
    // Diverge: the current path becomes the join at the reconvergence
    // point; the taken path runs first, then the other.
    w.stack.push_back({in.reconverge, w.active, w.rpc});
    w.stack.push_back({w.pc + 1, notTaken, in.reconverge});
    w.pc = in.target;
    w.active = taken;
    w.rpc = in.reconverge;
  }
  reconverge(w);
}

void Launch::exitLanes(Warp &w, uint32_t mask) {
  w.exited |= mask;
  w.cta->exitedThreads += static_cast<uint32_t>(__builtin_popcount(mask));
  w.active &= ~mask;
  if (w.active)
    ++w.pc;
  reconverge(w);
  ++syncEvents;
  checkBarriers(*w.cta);
  checkClusterBarrier();
}

void Launch::nextEpoch(Cta &cta) {
  if (epochCounter == 0xffff) {
    // Out of epochs: renumber every CTA of the cluster (written in this
    // CTA: epoch 1; the current epoch starts at 2).
    for (Cta &c : cluster) {
      for (ShadowByte &b : c.shadow) {
        b.writeEpoch = b.writeEpoch >= c.epochBase ? 1 : 0;
        b.readEpoch = 0;
      }
      c.epochBase = 1;
      c.epoch = 2;
    }
    epochCounter = 2;
  }
  cta.epoch = ++epochCounter;
}

void Launch::releaseBarrier(Cta &cta, uint32_t id) {
  cta.arrived[id] = 0;
  cta.expectedCount[id] = 0;
  nextEpoch(cta);
  ++syncEvents;
  for (Warp &w : cta.warps) {
    for (size_t i = 0; i < w.parked.size();) {
      if (w.parked[i].barrier != id) {
        ++i;
        continue;
      }
      PathEntry path = w.parked[i].path;
      w.parked.erase(w.parked.begin() + static_cast<long>(i));
      if (w.state == Warp::State::Blocked) {
        w.pc = path.pc;
        w.active = path.mask & ~w.exited;
        w.rpc = path.rpc;
        w.state = Warp::State::Ready;
      } else {
        w.stack.push_back({w.pc, w.active, w.rpc});
        w.pc = path.pc;
        w.active = path.mask & ~w.exited;
        w.rpc = path.rpc;
      }
      reconverge(w);
    }
  }
}

void Launch::checkBarriers(Cta &cta) {
  uint32_t live = cta.numThreads - cta.exitedThreads;
  for (uint32_t id = 0; id < 16; ++id) {
    if (!cta.arrived[id])
      continue;
    uint32_t expected = cta.expectedCount[id] ? cta.expectedCount[id] : live;
    if (cta.arrived[id] >= expected)
      releaseBarrier(cta, id);
  }
}

void Launch::barrier(Warp &w, const Instruction &in, uint32_t mask) {
  Cta &cta = *w.cta;
  int leader = __builtin_ctz(w.active);
  uint32_t id = static_cast<uint32_t>(read(w, in.ops[0], leader));
  if (id >= 16) {
    fail(LaunchError::IllegalInstruction, w, leader,
         "barrier number " + std::to_string(id) + " (0-15 exist)");
    return;
  }
  uint32_t count = 0;
  if (in.flags & kCount) {
    count = static_cast<uint32_t>(read(w, in.ops[1], leader));
    if (count % kWarpSize || count == 0 || count > cta.numThreads + 31) {
      fail(LaunchError::IllegalInstruction, w, leader,
           "barrier thread count " + std::to_string(count) +
               " (a multiple of 32 up to the CTA size)");
      return;
    }
    // A partial last warp counts as a whole warp.
    count = std::min(count, cta.numThreads);
  }
  if ((in.flags & kAligned) && mask != (w.validMask & ~w.exited)) {
    fail(LaunchError::LaunchFailed, w, leader,
         "barrier.sync.aligned executed by a diverged warp");
    return;
  }
  if (cta.arrived[id] && cta.expectedCount[id] != count) {
    fail(LaunchError::LaunchFailed, w, leader,
         "threads arrive at barrier " + std::to_string(id) +
             " with different thread counts");
    return;
  }
  if (mask != w.active) {
    fail(LaunchError::LaunchFailed, w, leader,
         "a barrier under a predicate that differs between the threads of "
         "a warp");
    return;
  }
  cta.expectedCount[id] = count;
  cta.arrived[id] += static_cast<uint32_t>(__builtin_popcount(mask));
  ++syncEvents;
  if (in.op == Op::BarArrive) {
    advance(w, mask);
  } else {
    w.parked.push_back({{w.pc + 1, w.active, w.rpc}, id});
    w.active = 0;
    reconverge(w); // runs another path of the warp, or blocks it
  }
  checkBarriers(cta);
}

void Launch::checkClusterBarrier() {
  if (!clusterArrived)
    return;
  uint32_t live = 0;
  for (const Cta &c : cluster)
    live += c.numThreads - c.exitedThreads;
  if (clusterArrived >= live) {
    clusterArrived = 0;
    ++clusterPhase;
    for (Cta &c : cluster)
      nextEpoch(c);
  }
}

void Launch::clusterBarrier(Warp &w, const Instruction &in, uint32_t mask) {
  // barrier.cluster.arrive: every non-exited thread of the cluster arrives
  // once per phase; barrier.cluster.wait completes when the phase the
  // thread arrived in has completed.
  if (in.op == Op::BarrierClusterArrive) {
    w.clusterArrivalPhase = clusterPhase;
    clusterArrived += static_cast<uint32_t>(__builtin_popcount(mask));
    ++syncEvents;
    checkClusterBarrier();
    advance(w, mask);
    return;
  }
  if (clusterPhase <= w.clusterArrivalPhase) {
    w.yielded = true; // spin until the others arrive
    return;
  }
  advance(w, mask);
}

//===----------------------------------------------------------------------===//
// Scalar instructions
//===----------------------------------------------------------------------===//

namespace {

/// Integer comparison.
bool compareInt(CmpOp c, uint64_t a, uint64_t b, Type t) {
  int bits = typeBits(t);
  if (isSignedInt(t)) {
    int64_t x = signExtend(a, bits), y = signExtend(b, bits);
    switch (c) {
    case CmpOp::Eq:
      return x == y;
    case CmpOp::Ne:
      return x != y;
    case CmpOp::Lt:
      return x < y;
    case CmpOp::Le:
      return x <= y;
    case CmpOp::Gt:
      return x > y;
    case CmpOp::Ge:
      return x >= y;
    default:
      break;
    }
  }
  uint64_t x = maskBits(a, bits), y = maskBits(b, bits);
  switch (c) {
  case CmpOp::Eq:
    return x == y;
  case CmpOp::Ne:
    return x != y;
  case CmpOp::Lt:
  case CmpOp::Lo:
    return x < y;
  case CmpOp::Le:
  case CmpOp::Ls:
    return x <= y;
  case CmpOp::Gt:
  case CmpOp::Hi:
    return x > y;
  case CmpOp::Ge:
  case CmpOp::Hs:
    return x >= y;
  default:
    return false;
  }
}

bool compareFloat(CmpOp c, double x, double y) {
  bool unordered = std::isnan(x) || std::isnan(y);
  switch (c) {
  case CmpOp::Eq:
    return !unordered && x == y;
  case CmpOp::Ne:
    return !unordered && x != y;
  case CmpOp::Lt:
    return !unordered && x < y;
  case CmpOp::Le:
    return !unordered && x <= y;
  case CmpOp::Gt:
    return !unordered && x > y;
  case CmpOp::Ge:
    return !unordered && x >= y;
  case CmpOp::Equ:
    return unordered || x == y;
  case CmpOp::Neu:
    return unordered || x != y;
  case CmpOp::Ltu:
    return unordered || x < y;
  case CmpOp::Leu:
    return unordered || x <= y;
  case CmpOp::Gtu:
    return unordered || x > y;
  case CmpOp::Geu:
    return unordered || x >= y;
  case CmpOp::Num:
    return !unordered;
  case CmpOp::Nan:
    return unordered;
  default:
    return false;
  }
}

/// The value of a float of type `t` held in `bits`.
double floatValue(uint64_t bits, Type t) {
  switch (t) {
  case Type::F16:
    return halfToFloat(static_cast<uint16_t>(bits));
  case Type::BF16:
    return bfloatToFloat(static_cast<uint16_t>(bits));
  case Type::F32:
    return floatOf(static_cast<uint32_t>(bits));
  case Type::F64:
    return doubleOf(bits);
  default:
    return 0;
  }
}

bool isSubnormalBits(uint64_t bits, Type t) {
  switch (t) {
  case Type::F16:
    return isHalfSubnormal(static_cast<uint16_t>(bits));
  case Type::BF16:
    return isBFloatSubnormal(static_cast<uint16_t>(bits));
  case Type::F32:
    return std::fpclassify(floatOf(static_cast<uint32_t>(bits))) ==
           FP_SUBNORMAL;
  default:
    return false;
  }
}

/// Bits of `t` for the exact value `e`, rounded in `mode`.
uint64_t roundExact(const Exact &e, Type t, Rounding mode) {
  switch (t) {
  case Type::F16:
    return toHalf(roundToOdd(e), mode == Rounding::Default
                                     ? Rounding::NearestEven
                                     : mode);
  case Type::BF16:
    return toBFloat(roundToOdd(e), mode == Rounding::Default
                                       ? Rounding::NearestEven
                                       : mode);
  case Type::F32: {
    // Round to odd in a double, then to nearest float: one rounding.
    float r = static_cast<float>(roundToOdd(e));
    return bitsOf(adjustRounding(r, e, mode));
  }
  case Type::F64: {
    double r = e.hi; // hi is the nearest double to the exact value
    return bitsOf(adjustRounding(r, e.lo, mode));
  }
  default:
    return 0;
  }
}

uint64_t canonicalNaN(Type t) {
  switch (t) {
  case Type::F16:
    return kCanonicalNaN16;
  case Type::BF16:
    return kCanonicalNaNBF16;
  case Type::F32:
    return kCanonicalNaN32;
  default:
    return bitsOf(std::numeric_limits<double>::quiet_NaN());
  }
}

uint64_t encodeFloat(double v, Type t) {
  switch (t) {
  case Type::F16:
    return toHalf(v);
  case Type::BF16:
    return toBFloat(v);
  case Type::F32:
    return bitsOf(static_cast<float>(v));
  default:
    return bitsOf(v);
  }
}

/// Flushes subnormal inputs or results of `t` (.ftz).
uint64_t flush(uint64_t bits, Type t) {
  if (!isSubnormalBits(bits, t))
    return bits;
  int b = typeBits(t);
  return bits & (uint64_t(1) << (b - 1)); // keep the sign
}

/// One scalar float operation on `t` (not a pair), on raw bits.
uint64_t floatOp(Op op, Type t, uint32_t flags, Rounding mode, uint64_t ab,
                 uint64_t bb, uint64_t cb) {
  bool ftz = flags & kFtz;
  if (ftz) {
    ab = flush(ab, t);
    bb = flush(bb, t);
    cb = flush(cb, t);
  }
  double a = floatValue(ab, t), b = floatValue(bb, t), c = floatValue(cb, t);
  uint64_t r;
  switch (op) {
  case Op::FAdd:
  case Op::FSub:
  case Op::FMul:
  case Op::FFma: {
    Exact e;
    if (t == Type::F64) {
      if (op == Op::FAdd)
        e = twoSum(a, b);
      else if (op == Op::FSub)
        e = twoSum(a, -b);
      else if (op == Op::FMul)
        e = twoProduct(a, b);
      else {
        double r64 = std::fma(a, b, c);
        // The error of an f64 fma is not computed: only .rn is exact.
        e = {r64, 0.0};
      }
    } else {
      if (op == Op::FAdd)
        e = twoSum(a, b);
      else if (op == Op::FSub)
        e = twoSum(a, -b);
      else if (op == Op::FMul)
        e = {a * b, 0.0}; // exact for inputs of <= 26 bits
      else
        e = exactFmaNarrow(a, b, c);
    }
    if (std::isnan(e.hi))
      return canonicalNaN(t);
    r = roundExact(e, t, mode);
    break;
  }
  case Op::FDiv: {
    if (t == Type::F64) {
      double q = a / b;
      double rem = std::fma(-q, b, a); // exact remainder
      double err = (b > 0) == (rem > 0) ? (rem == 0 ? 0 : 1) : -1;
      if (rem == 0)
        err = 0;
      r = bitsOf(adjustRounding(q, err, mode));
    } else {
      double q = a / b; // a/b in double, rounded once more below
      if (std::isnan(q))
        return canonicalNaN(t);
      double rem = std::fma(-q, b, a);
      Exact e{q, std::isfinite(q) && b != 0 ? rem / b : 0.0};
      r = roundExact(e, t, mode);
    }
    break;
  }
  case Op::FMin:
  case Op::FMax: {
    bool isMax = op == Op::FMax;
    if (std::isnan(a) || std::isnan(b)) {
      if ((flags & kNaN) || (std::isnan(a) && std::isnan(b)))
        return canonicalNaN(t);
      r = std::isnan(a) ? bb : ab;
      break;
    }
    double x = a, y = b;
    uint64_t pick;
    if (x == y && x == 0) {
      bool aNeg = std::signbit(x);
      pick = isMax ? (aNeg ? bb : ab) : (aNeg ? ab : bb);
    } else {
      pick = (isMax ? x > y : x < y) ? ab : bb;
    }
    if (flags & kXorsignAbs) {
      double m = isMax ? std::max(std::fabs(a), std::fabs(b))
                       : std::min(std::fabs(a), std::fabs(b));
      bool sign = std::signbit(a) != std::signbit(b);
      return encodeFloat(sign ? -m : m, t);
    }
    r = pick;
    break;
  }
  case Op::FAbs:
    r = ab & ~(uint64_t(1) << (typeBits(t) - 1));
    return r; // abs/neg never flush the result nor canonicalize
  case Op::FNeg:
    return ab ^ (uint64_t(1) << (typeBits(t) - 1));
  case Op::FRcp:
    r = t == Type::F64 ? bitsOf(1.0 / a)
                       : roundExact({1.0 / a, 0.0}, t, Rounding::NearestEven);
    if (t == Type::F32 && mode != Rounding::Default &&
        mode != Rounding::NearestEven) {
      double q = 1.0 / a;
      double rem = std::fma(-q, a, 1.0);
      r = roundExact({q, std::isfinite(q) && a != 0 ? rem / a : 0.0}, t, mode);
    }
    break;
  case Op::FSqrt: {
    double s = std::sqrt(a);
    if (t == Type::F64) {
      r = bitsOf(s);
    } else {
      double rem = std::fma(-s, s, a);
      r = roundExact({s, s > 0 && std::isfinite(s) ? rem / (2 * s) : 0.0},
                     t, mode == Rounding::Default ? Rounding::NearestEven
                                                  : mode);
    }
    break;
  }
  case Op::FRsqrt:
    r = encodeFloat(1.0 / std::sqrt(a), t);
    break;
  case Op::FSin:
    r = encodeFloat(std::sin(a), t);
    break;
  case Op::FCos:
    r = encodeFloat(std::cos(a), t);
    break;
  case Op::FLg2:
    r = encodeFloat(std::log2(a), t);
    break;
  case Op::FEx2:
    r = encodeFloat(std::exp2(a), t);
    break;
  case Op::FTanh:
    r = encodeFloat(std::tanh(a), t);
    break;
  case Op::FCopysign:
    // copysign.type d, a, b: d = b with the sign of a.
    r = (bb & ~(uint64_t(1) << (typeBits(t) - 1))) |
        (ab & (uint64_t(1) << (typeBits(t) - 1)));
    return r;
  default:
    r = 0;
    break;
  }
  double v = floatValue(r, t);
  if (std::isnan(v) && op != Op::FMin && op != Op::FMax)
    return canonicalNaN(t);
  if (flags & kRelu && (v < 0 || std::isnan(v)))
    return std::isnan(v) ? canonicalNaN(t) : 0;
  if (flags & kSat) {
    if (std::isnan(v) || v <= 0)
      return encodeFloat(0.0, t);
    if (v >= 1)
      return encodeFloat(1.0, t);
  }
  if (ftz)
    r = flush(r, t);
  return r;
}

/// The same on a .f16x2 / .bf16x2 pair (lower and upper halves).
uint64_t floatOpAnyWidth(Op op, Type t, uint32_t flags, Rounding mode,
                         uint64_t a, uint64_t b, uint64_t c) {
  if (t == Type::F16x2 || t == Type::BF16x2) {
    Type e = t == Type::F16x2 ? Type::F16 : Type::BF16;
    uint64_t lo = floatOp(op, e, flags, mode, a & 0xffff, b & 0xffff,
                          c & 0xffff);
    uint64_t hi = floatOp(op, e, flags, mode, (a >> 16) & 0xffff,
                          (b >> 16) & 0xffff, (c >> 16) & 0xffff);
    return (lo & 0xffff) | ((hi & 0xffff) << 16);
  }
  return floatOp(op, t, flags, mode, a, b, c);
}

int64_t saturate(int64_t v, int bits) {
  int64_t lo = -(int64_t(1) << (bits - 1)), hi = (int64_t(1) << (bits - 1)) - 1;
  return std::min(std::max(v, lo), hi);
}

/// Converts one value for cvt.
uint64_t convert(const Instruction &in, uint64_t v) {
  Type dt = in.type, st = in.type2;
  int db = typeBits(dt), sb = typeBits(st);
  bool dstFloat = isFloatType(dt), srcFloat = isFloatType(st);
  Rounding mode = in.rounding;
  if (srcFloat && (in.flags & kFtz))
    v = flush(v, st);
  if (!dstFloat) {
    if (srcFloat) {
      double x = floatValue(v, st);
      Rounding r = mode == Rounding::Default ? Rounding::Zero : mode;
      if (isSignedInt(dt))
        return maskBits(static_cast<uint64_t>(floatToSigned(x, db, r)), db);
      return floatToUnsigned(x, db, r);
    }
    // Integer to integer: extend or truncate; .sat clamps.
    if (in.flags & kSat) {
      if (isSignedInt(st)) {
        int64_t x = signExtend(v, sb);
        if (isSignedInt(dt))
          return maskBits(static_cast<uint64_t>(saturate(x, db)), db);
        if (x < 0)
          return 0;
        uint64_t hi = db >= 64 ? ~uint64_t(0) : (uint64_t(1) << db) - 1;
        return std::min(static_cast<uint64_t>(x), hi);
      }
      uint64_t x = maskBits(v, sb);
      if (isSignedInt(dt)) {
        uint64_t hi = (uint64_t(1) << (db - 1)) - 1;
        return std::min(x, hi);
      }
      uint64_t hi = db >= 64 ? ~uint64_t(0) : (uint64_t(1) << db) - 1;
      return std::min(x, hi);
    }
    uint64_t x = isSignedInt(st) ? static_cast<uint64_t>(signExtend(v, sb))
                                 : maskBits(v, sb);
    return maskBits(x, db);
  }
  // Float destination.
  double x;
  if (srcFloat) {
    x = floatValue(v, st);
  } else {
    bool negative = isSignedInt(st) && signExtend(v, sb) < 0;
    uint64_t magnitude = negative ? uint64_t(0) - static_cast<uint64_t>(
                                                      signExtend(v, sb))
                                  : maskBits(v, sb);
    int mant = dt == Type::F64   ? 53
               : dt == Type::F32 ? 24
               : dt == Type::F16 ? 11
                                 : 8;
    Rounding r = mode == Rounding::Default ? Rounding::NearestEven : mode;
    x = roundIntegerToFloat(magnitude, negative, mant, r);
    mode = Rounding::NearestEven; // exact from here
  }
  if (in.flags & kHi) {
    // cvt.rni.f32.f32 and friends: round to an integral value.
    if (!std::isnan(x) && !std::isinf(x))
      x = std::copysign(roundToIntegral(x, mode), x);
    mode = Rounding::NearestEven;
  }
  if (std::isnan(x))
    return (in.flags & kSat) ? encodeFloat(0.0, dt) : canonicalNaN(dt);
  if ((in.flags & kRelu) && x < 0)
    x = 0;
  if ((in.flags & kSat) && (dt == Type::F32 || dt == Type::F64 ||
                            (srcFloat && dt != Type::F16 && dt != Type::BF16)))
    x = std::min(std::max(x, 0.0), 1.0);
  Rounding r = mode == Rounding::Default ? Rounding::NearestEven : mode;
  uint64_t out;
  switch (dt) {
  case Type::F16:
    out = roundDoubleTo16(x, 10, 5, r, (in.flags & kSat) != 0 && srcFloat);
    break;
  case Type::BF16:
    out = roundDoubleTo16(x, 7, 8, r, (in.flags & kSat) != 0 && srcFloat);
    break;
  case Type::F32: {
    float f = static_cast<float>(x);
    out = bitsOf(adjustRounding(f, Exact{x, 0.0}, r));
    break;
  }
  case Type::F64:
    out = bitsOf(x);
    break;
  case Type::TF32: {
    // 10 explicit fraction bits, in an f32 container (.rna).
    float f = static_cast<float>(x);
    uint32_t b = bitsOf(f);
    if (std::isfinite(f)) {
      b += 0x1000; // round half away on the 13 dropped bits
      b &= ~0x1fffu;
    }
    out = b;
    break;
  }
  default:
    out = 0;
    break;
  }
  if (in.flags & kFtz)
    out = flush(out, dt);
  return out;
}

/// Little-endian loads and stores of 1, 2, 4 or 8 bytes (fixed-size
/// copies compile to plain moves).
uint64_t loadBytes(const uint8_t *p, int bytes) {
  switch (bytes) {
  case 1:
    return *p;
  case 2: {
    uint16_t v;
    std::memcpy(&v, p, 2);
    return v;
  }
  case 4: {
    uint32_t v;
    std::memcpy(&v, p, 4);
    return v;
  }
  default: {
    uint64_t v;
    std::memcpy(&v, p, 8);
    return v;
  }
  }
}

void storeBytes(uint8_t *p, uint64_t v, int bytes) {
  switch (bytes) {
  case 1:
    *p = static_cast<uint8_t>(v);
    return;
  case 2: {
    uint16_t x = static_cast<uint16_t>(v);
    std::memcpy(p, &x, 2);
    return;
  }
  case 4: {
    uint32_t x = static_cast<uint32_t>(v);
    std::memcpy(p, &x, 4);
    return;
  }
  default:
    std::memcpy(p, &v, 8);
    return;
  }
}

/// fmaf with the host's FMA instruction where it has one (libm's fmaf is a
/// call, and the emulator runs a great many of them).
[[gnu::target("fma")]] float fmaHardware(float a, float b, float c) {
  return __builtin_fmaf(a, b, c);
}
float fusedMultiplyAdd(float a, float b, float c) {
  static const bool hasFma = __builtin_cpu_supports("fma");
  return hasFma ? fmaHardware(a, b, c) : std::fma(a, b, c);
}

uint64_t popcount64(uint64_t v) { return static_cast<uint64_t>(__builtin_popcountll(v)); }

} // namespace

void Launch::executeScalar(Warp &w, const Instruction &in, uint32_t mask) {
  uint64_t bufA[kWarpSize], bufB[kWarpSize], bufC[kWarpSize], bufD[kWarpSize];
  uint64_t sink[kWarpSize];
  auto dst = [&](const Operand &op) -> uint64_t * {
    return op.kind == OperandKind::Reg ? &w.regs[op.reg * kWarpSize] : sink;
  };
  auto src = [&](int i, uint64_t *buffer) {
    return lanes(w, in.ops[i], buffer, mask);
  };
  Type t = in.type;
  int bits = typeBits(t);
  bool isSigned = isSignedInt(t);
#define FOR_LANES for (uint32_t m_ = mask; m_; m_ &= m_ - 1) \
    if (int l = __builtin_ctz(m_); true)

  switch (in.op) {
  case Op::Nop:
  case Op::Membar:
  case Op::Setmaxnreg:
  case Op::BarWarpSync:
    return;
  case Op::Add:
  case Op::Sub: {
    const uint64_t *a = src(1, bufA), *b = src(2, bufB);
    uint64_t *d = dst(in.ops[0]);
    bool sub = in.op == Op::Sub;
    if (in.flags & kSat) {
      FOR_LANES {
        int64_t x = signExtend(a[l], bits), y = signExtend(b[l], bits);
        int64_t r = sub ? x - y : x + y;
        d[l] = maskBits(static_cast<uint64_t>(saturate(r, bits)), bits);
      }
      return;
    }
    FOR_LANES d[l] = maskBits(sub ? a[l] - b[l] : a[l] + b[l], bits);
    return;
  }
  case Op::Mul:
  case Op::Mad: {
    const uint64_t *a = src(1, bufA), *b = src(2, bufB);
    const uint64_t *c = in.op == Op::Mad ? src(3, bufC) : nullptr;
    uint64_t *d = dst(in.ops[0]);
    FOR_LANES {
      uint64_t r;
      if (in.flags & kWide) {
        uint64_t p = isSigned ? static_cast<uint64_t>(signExtend(a[l], bits) *
                                                      signExtend(b[l], bits))
                              : maskBits(a[l], bits) * maskBits(b[l], bits);
        r = maskBits(p + (c ? c[l] : 0), 2 * bits);
      } else if (in.flags & kHi) {
        __int128 p;
        if (isSigned)
          p = static_cast<__int128>(signExtend(a[l], bits)) *
              signExtend(b[l], bits);
        else
          p = static_cast<__int128>(
                  static_cast<unsigned __int128>(maskBits(a[l], bits)) *
                  maskBits(b[l], bits));
        r = static_cast<uint64_t>(p >> bits);
        if (c)
          r += c[l];
        r = maskBits(r, bits);
      } else {
        r = maskBits(a[l] * b[l] + (c ? c[l] : 0), bits);
      }
      if ((in.flags & kSat) && c && isSigned && !(in.flags & kWide)) {
        __int128 full = static_cast<__int128>(signExtend(a[l], bits)) *
                            signExtend(b[l], bits) +
                        signExtend(c[l], bits);
        if (in.flags & kHi)
          full = (static_cast<__int128>(signExtend(a[l], bits)) *
                  signExtend(b[l], bits) >> bits) + signExtend(c[l], bits);
        int64_t lo = -(int64_t(1) << (bits - 1)),
                hi = (int64_t(1) << (bits - 1)) - 1;
        int64_t s = full < lo ? lo : full > hi ? hi : static_cast<int64_t>(full);
        r = maskBits(static_cast<uint64_t>(s), bits);
      }
      d[l] = r;
    }
    return;
  }
  case Op::Div:
  case Op::Rem: {
    const uint64_t *a = src(1, bufA), *b = src(2, bufB);
    uint64_t *d = dst(in.ops[0]);
    bool div = in.op == Op::Div;
    FOR_LANES {
      uint64_t r;
      if (isSigned) {
        int64_t x = signExtend(a[l], bits), y = signExtend(b[l], bits);
        if (y == 0)
          r = div ? ~uint64_t(0) : static_cast<uint64_t>(x);
        else if (y == -1)
          r = div ? static_cast<uint64_t>(-static_cast<uint64_t>(x)) : 0;
        else
          r = static_cast<uint64_t>(div ? x / y : x % y);
      } else {
        uint64_t x = maskBits(a[l], bits), y = maskBits(b[l], bits);
        r = y == 0 ? (div ? ~uint64_t(0) : x) : (div ? x / y : x % y);
      }
      d[l] = maskBits(r, bits);
    }
    return;
  }
  case Op::Abs:
  case Op::Neg: {
    const uint64_t *a = src(1, bufA);
    uint64_t *d = dst(in.ops[0]);
    FOR_LANES {
      int64_t x = signExtend(a[l], bits);
      uint64_t r = in.op == Op::Neg ? uint64_t(0) - static_cast<uint64_t>(x)
                   : x < 0          ? uint64_t(0) - static_cast<uint64_t>(x)
                                    : static_cast<uint64_t>(x);
      d[l] = maskBits(r, bits);
    }
    return;
  }
  case Op::Min:
  case Op::Max: {
    const uint64_t *a = src(1, bufA), *b = src(2, bufB);
    uint64_t *d = dst(in.ops[0]);
    bool isMax = in.op == Op::Max;
    FOR_LANES {
      uint64_t r;
      if (isSigned) {
        int64_t x = signExtend(a[l], bits), y = signExtend(b[l], bits);
        int64_t v = isMax ? std::max(x, y) : std::min(x, y);
        if ((in.flags & kRelu) && v < 0)
          v = 0;
        r = static_cast<uint64_t>(v);
      } else {
        uint64_t x = maskBits(a[l], bits), y = maskBits(b[l], bits);
        r = isMax ? std::max(x, y) : std::min(x, y);
      }
      d[l] = maskBits(r, bits);
    }
    return;
  }
  case Op::Popc:
  case Op::Clz:
  case Op::Bfind:
  case Op::Brev: {
    const uint64_t *a = src(1, bufA);
    uint64_t *d = dst(in.ops[0]);
    FOR_LANES {
      uint64_t x = maskBits(a[l], bits);
      uint64_t r = 0;
      if (in.op == Op::Popc) {
        r = popcount64(x);
      } else if (in.op == Op::Clz) {
        r = x ? static_cast<uint64_t>(__builtin_clzll(x) - (64 - bits))
              : static_cast<uint64_t>(bits);
      } else if (in.op == Op::Brev) {
        for (int i = 0; i < bits; ++i)
          if (x >> i & 1)
            r |= uint64_t(1) << (bits - 1 - i);
      } else {
        // bfind: the position of the most significant non-sign bit.
        uint64_t y = x;
        if (isSigned && (x >> (bits - 1) & 1))
          y = maskBits(~x, bits);
        if (!y) {
          r = 0xffffffffu;
        } else {
          r = static_cast<uint64_t>(63 - __builtin_clzll(y));
          if (in.flags & kHi)
            r = static_cast<uint64_t>(bits - 1) - r;
        }
      }
      d[l] = maskBits(r, in.op == Op::Brev ? bits : 32);
    }
    return;
  }
  case Op::Bfe: {
    const uint64_t *a = src(1, bufA), *b = src(2, bufB), *c = src(3, bufC);
    uint64_t *d = dst(in.ops[0]);
    FOR_LANES {
      uint32_t pos = static_cast<uint32_t>(b[l] & 0xff),
               len = static_cast<uint32_t>(c[l] & 0xff);
      uint64_t x = maskBits(a[l], bits);
      uint64_t r = 0;
      if (len) {
        int msb = bits - 1;
        uint32_t top = std::min<uint32_t>(pos + len - 1, static_cast<uint32_t>(msb));
        uint64_t sbit = isSigned ? (x >> top & 1) : 0;
        for (int i = 0; i < bits; ++i) {
          uint64_t bit = (static_cast<uint32_t>(i) < len &&
                          pos + static_cast<uint32_t>(i) <= static_cast<uint32_t>(msb))
                             ? (x >> (pos + i) & 1)
                             : sbit;
          r |= bit << i;
        }
      }
      d[l] = r;
    }
    return;
  }
  case Op::Bfi: {
    const uint64_t *a = src(1, bufA), *b = src(2, bufB), *c = src(3, bufC),
                   *e = src(4, bufD);
    uint64_t *d = dst(in.ops[0]);
    FOR_LANES {
      uint32_t pos = static_cast<uint32_t>(c[l] & 0xff),
               len = static_cast<uint32_t>(e[l] & 0xff);
      uint64_t r = maskBits(b[l], bits);
      for (uint32_t i = 0; i < len && pos + i < static_cast<uint32_t>(bits); ++i) {
        uint64_t bit = a[l] >> i & 1;
        r = (r & ~(uint64_t(1) << (pos + i))) | (bit << (pos + i));
      }
      d[l] = r;
    }
    return;
  }
  case Op::Prmt: {
    const uint64_t *a = src(1, bufA), *b = src(2, bufB), *c = src(3, bufC);
    uint64_t *d = dst(in.ops[0]);
    if (in.subOp) {
      fail(LaunchError::IllegalInstruction, w, __builtin_ctz(mask),
           "prmt modes other than the default are not supported");
      return;
    }
    FOR_LANES {
      uint64_t bytes = (maskBits(a[l], 32)) | (maskBits(b[l], 32) << 32);
      uint32_t sel = static_cast<uint32_t>(c[l]);
      uint32_t r = 0;
      for (int i = 0; i < 4; ++i) {
        uint32_t s = sel >> (4 * i) & 0xf;
        uint32_t byte = static_cast<uint32_t>(bytes >> (8 * (s & 7)) & 0xff);
        if (s & 8)
          byte = (byte & 0x80) ? 0xff : 0;
        r |= byte << (8 * i);
      }
      d[l] = r;
    }
    return;
  }
  case Op::Shf: {
    const uint64_t *a = src(1, bufA), *b = src(2, bufB), *c = src(3, bufC);
    uint64_t *d = dst(in.ops[0]);
    FOR_LANES {
      uint32_t n = static_cast<uint32_t>(c[l]);
      n = (in.flags & kWrap) ? n & 31 : std::min<uint32_t>(n, 32);
      uint64_t pair = maskBits(a[l], 32) | (maskBits(b[l], 32) << 32);
      uint64_t r = (in.flags & kLeft) ? (pair << n) >> 32 : (pair >> n);
      d[l] = maskBits(r, 32);
    }
    return;
  }
  case Op::And:
  case Op::Or:
  case Op::Xor: {
    const uint64_t *a = src(1, bufA), *b = src(2, bufB);
    uint64_t *d = dst(in.ops[0]);
    int w2 = t == Type::Pred ? 1 : bits;
    FOR_LANES {
      uint64_t x = a[l], y = b[l];
      uint64_t r = in.op == Op::And ? x & y : in.op == Op::Or ? x | y : x ^ y;
      d[l] = maskBits(r, w2);
    }
    return;
  }
  case Op::Not:
  case Op::Cnot: {
    const uint64_t *a = src(1, bufA);
    uint64_t *d = dst(in.ops[0]);
    int w2 = t == Type::Pred ? 1 : bits;
    FOR_LANES {
      uint64_t x = maskBits(a[l], w2);
      d[l] = in.op == Op::Not ? maskBits(~x, w2) : (x == 0 ? 1 : 0);
    }
    return;
  }
  case Op::Shl:
  case Op::Shr: {
    const uint64_t *a = src(1, bufA), *b = src(2, bufB);
    uint64_t *d = dst(in.ops[0]);
    FOR_LANES {
      uint64_t n = maskBits(b[l], 32);
      uint64_t r;
      if (in.op == Op::Shl) {
        r = n >= static_cast<uint64_t>(bits) ? 0 : a[l] << n;
      } else if (isSigned) {
        int64_t x = signExtend(a[l], bits);
        r = static_cast<uint64_t>(n >= static_cast<uint64_t>(bits) ? (x < 0 ? -1 : 0)
                                                                   : x >> n);
      } else {
        uint64_t x = maskBits(a[l], bits);
        r = n >= static_cast<uint64_t>(bits) ? 0 : x >> n;
      }
      d[l] = maskBits(r, bits);
    }
    return;
  }
  case Op::Lop3: {
    const uint64_t *a = src(1, bufA), *b = src(2, bufB), *c = src(3, bufC);
    uint64_t *d = dst(in.ops[0]);
    uint32_t lut = static_cast<uint32_t>(read(w, in.ops[4], 0));
    FOR_LANES {
      uint64_t r = 0;
      for (int i = 0; i < 8; ++i)
        if (lut >> i & 1)
          r |= ((i & 4) ? a[l] : ~a[l]) & ((i & 2) ? b[l] : ~b[l]) &
               ((i & 1) ? c[l] : ~c[l]);
      d[l] = maskBits(r, bits);
    }
    return;
  }
  case Op::FAdd:
  case Op::FSub:
  case Op::FMul:
  case Op::FFma:
  case Op::FDiv:
  case Op::FMin:
  case Op::FMax:
  case Op::FCopysign: {
    if (profile && in.op != Op::FCopysign)
      countFlops(in, mask);
    const uint64_t *a = src(1, bufA), *b = src(2, bufB);
    const uint64_t *c = in.op == Op::FFma ? src(3, bufC) : nullptr;
    uint64_t *d = dst(in.ops[0]);
    if (t == Type::F32 && in.flags == 0 &&
        (in.rounding == Rounding::Default ||
         in.rounding == Rounding::NearestEven) &&
        in.op != Op::FDiv && in.op != Op::FMin && in.op != Op::FMax &&
        in.op != Op::FCopysign) {
      // The common case, on the host's own IEEE arithmetic.
      FOR_LANES {
        float x = floatOf(static_cast<uint32_t>(a[l])),
              y = floatOf(static_cast<uint32_t>(b[l]));
        float r = in.op == Op::FAdd   ? x + y
                  : in.op == Op::FSub ? x - y
                  : in.op == Op::FMul ? x * y
                                      : fusedMultiplyAdd(
                                            x, y,
                                            floatOf(static_cast<uint32_t>(c[l])));
        d[l] = std::isnan(r) ? kCanonicalNaN32 : bitsOf(r);
      }
      return;
    }
    FOR_LANES d[l] = floatOpAnyWidth(in.op, t, in.flags, in.rounding, a[l],
                                     b[l], c ? c[l] : 0);
    return;
  }
  case Op::FAbs:
  case Op::FNeg:
  case Op::FRcp:
  case Op::FSqrt:
  case Op::FRsqrt:
  case Op::FSin:
  case Op::FCos:
  case Op::FLg2:
  case Op::FEx2:
  case Op::FTanh: {
    if (profile && in.op != Op::FAbs && in.op != Op::FNeg)
      countFlops(in, mask);
    const uint64_t *a = src(1, bufA);
    uint64_t *d = dst(in.ops[0]);
    FOR_LANES d[l] = floatOpAnyWidth(in.op, t, in.flags, in.rounding, a[l], 0, 0);
    return;
  }
  case Op::Testp: {
    const uint64_t *a = src(1, bufA);
    uint64_t *d = dst(in.ops[0]);
    FOR_LANES {
      double x = floatValue(a[l], t);
      bool r = false;
      switch (in.subOp) {
      case 0:
        r = std::isfinite(x);
        break;
      case 1:
        r = std::isinf(x);
        break;
      case 2:
        r = !std::isnan(x);
        break;
      case 3:
        r = std::isnan(x);
        break;
      case 4:
        r = std::isnormal(x) && !isSubnormalBits(a[l], t);
        break;
      case 5:
        r = isSubnormalBits(a[l], t);
        break;
      }
      d[l] = r;
    }
    return;
  }
  case Op::Setp:
  case Op::Set: {
    Type ct = in.op == Op::Setp ? t : in.type2;
    const uint64_t *a = src(1, bufA), *b = src(2, bufB);
    const uint64_t *c = in.numOperands > 3 ? src(3, bufC) : nullptr;
    uint64_t *d = dst(in.ops[0]);
    uint64_t *q = in.ops[0].reg2 >= 0 ? &w.regs[in.ops[0].reg2 * kWarpSize]
                                      : nullptr;
    bool isFloat = isFloatType(ct);
    bool ftz = in.flags & kFtz;
    FOR_LANES {
      bool r;
      if (isFloat) {
        if (ct == Type::F16x2 || ct == Type::BF16x2) {
          // Not used by setp into one predicate here.
          r = false;
        } else {
          uint64_t x = ftz ? flush(a[l], ct) : a[l];
          uint64_t y = ftz ? flush(b[l], ct) : b[l];
          r = compareFloat(in.cmp, floatValue(x, ct), floatValue(y, ct));
        }
      } else {
        r = compareInt(in.cmp, a[l], b[l], ct);
      }
      bool nr = !r;
      if (c) {
        bool cv = c[l] & 1;
        switch (in.boolOp) {
        case BoolOp::And:
          r = r && cv;
          nr = nr && cv;
          break;
        case BoolOp::Or:
          r = r || cv;
          nr = nr || cv;
          break;
        case BoolOp::Xor:
          r = r != cv;
          nr = nr != cv;
          break;
        default:
          break;
        }
      }
      if (in.op == Op::Setp) {
        d[l] = r;
        if (q)
          q[l] = nr;
      } else {
        Type dt = in.type;
        d[l] = isFloatType(dt) ? (r ? encodeFloat(1.0, dt) : 0)
                               : (r ? maskBits(~uint64_t(0), typeBits(dt)) : 0);
      }
    }
    return;
  }
  case Op::Selp: {
    const uint64_t *a = src(1, bufA), *b = src(2, bufB), *c = src(3, bufC);
    uint64_t *d = dst(in.ops[0]);
    FOR_LANES d[l] = maskBits((c[l] & 1) ? a[l] : b[l], bits);
    return;
  }
  case Op::Slct: {
    const uint64_t *a = src(1, bufA), *b = src(2, bufB), *c = src(3, bufC);
    uint64_t *d = dst(in.ops[0]);
    FOR_LANES {
      bool pick = in.type2 == Type::F32
                      ? floatOf(static_cast<uint32_t>(c[l])) >= 0.0f
                      : signExtend(c[l], 32) >= 0;
      d[l] = maskBits(pick ? a[l] : b[l], bits);
    }
    return;
  }
  case Op::Mov: {
    const Operand &to = in.ops[0], &from = in.ops[1];
    if (from.kind == OperandKind::Vector) {
      // Pack: element 0 in the low bits.
      int n = from.count, width = bits / n;
      uint64_t *d = dst(to);
      FOR_LANES {
        uint64_t v = 0;
        for (int i = 0; i < n; ++i)
          v |= maskBits(read(w, kernel.pool[from.first + i], l), width)
               << (i * width);
        d[l] = v;
      }
      return;
    }
    if (to.kind == OperandKind::Vector) {
      int n = to.count, width = bits / n;
      FOR_LANES {
        uint64_t v = read(w, from, l);
        for (int i = 0; i < n; ++i)
          write(w, kernel.pool[to.first + i], l,
                maskBits(v >> (i * width), width));
      }
      return;
    }
    const uint64_t *a = src(1, bufA);
    uint64_t *d = dst(to);
    int b = t == Type::Pred ? 1 : bits;
    FOR_LANES d[l] = maskBits(a[l], b);
    return;
  }
  case Op::Ld:
  case Op::St: {
    bool store = in.op == Op::St;
    const Operand &addrOp = in.ops[store ? 0 : 1];
    const Operand &value = in.ops[store ? 1 : 0];
    int elemBytes = std::max(1, bits / 8);
    uint32_t total = static_cast<uint32_t>(elemBytes * in.vec);
    FOR_LANES {
      uint64_t a = address(w, addrOp, l);
      uint8_t *p = access(w, l, in.space, a, total,
                          store ? Access::Write : Access::Read);
      if (!p)
        return;
      for (int i = 0; i < in.vec; ++i) {
        const Operand &v = value.kind == OperandKind::Vector
                               ? kernel.pool[value.first + i]
                               : value;
        uint8_t *e = p + i * elemBytes;
        if (store) {
          storeBytes(e, read(w, v, l), elemBytes);
        } else {
          uint64_t x = loadBytes(e, elemBytes);
          if (isSigned)
            x = static_cast<uint64_t>(signExtend(x, bits));
          write(w, v, l, x);
        }
      }
    }
    return;
  }
  case Op::Cvt: {
    if (in.type == Type::F16x2 || in.type == Type::BF16x2) {
      Instruction one = in;
      one.type = in.type == Type::F16x2 ? Type::F16 : Type::BF16;
      const uint64_t *a = src(1, bufA), *b = src(2, bufB);
      uint64_t *d = dst(in.ops[0]);
      FOR_LANES d[l] = (convert(one, a[l]) << 16) | convert(one, b[l]);
      return;
    }
    const uint64_t *a = src(1, bufA);
    uint64_t *d = dst(in.ops[0]);
    if (in.type == Type::F32 && in.type2 == Type::F16 && !in.flags) {
      FOR_LANES d[l] = bitsOf(halfToFloat(static_cast<uint16_t>(a[l])));
      return;
    }
    FOR_LANES {
      uint64_t r = convert(in, a[l]);
      if (isSignedInt(in.type))
        r = maskBits(r, typeBits(in.type));
      d[l] = r;
    }
    return;
  }
  case Op::Cvta: {
    const uint64_t *a = src(1, bufA);
    uint64_t *d = dst(in.ops[0]);
    bool to = in.flags & kToSpace;
    FOR_LANES {
      uint64_t x = a[l];
      uint64_t r = x;
      switch (in.space) {
      case Space::Shared:
      case Space::SharedCluster:
        if (to) {
          if (x < kSharedWindow || x >= kSharedWindow + kWindowSize) {
            fail(LaunchError::IllegalAddress, w, l,
                 "cvta.to.shared of an address outside the shared window");
            return;
          }
          r = x - kSharedWindow;
        } else {
          r = x + kSharedWindow;
        }
        break;
      case Space::Local:
        r = to ? x - kLocalWindow : x + kLocalWindow;
        break;
      case Space::Param:
        fail(LaunchError::IllegalInstruction, w, l,
             "generic addresses of kernel parameters are not supported");
        return;
      default:
        break; // global and const: generic == global
      }
      d[l] = maskBits(r, bits);
    }
    return;
  }
  case Op::Isspacep: {
    const uint64_t *a = src(1, bufA);
    uint64_t *d = dst(in.ops[0]);
    FOR_LANES {
      uint64_t x = a[l];
      bool shared = x >= kSharedWindow && x < kSharedWindow + kWindowSize;
      bool local = x >= kLocalWindow && x < kLocalWindow + kWindowSize;
      bool r = in.space == Space::Shared || in.space == Space::SharedCluster
                   ? shared
               : in.space == Space::Local ? local
                                          : !shared && !local;
      d[l] = r;
    }
    return;
  }
  case Op::Atom:
  case Op::Red: {
    bool isRed = in.op == Op::Red;
    const Operand &addrOp = in.ops[isRed ? 0 : 1];
    const uint64_t *b = src(isRed ? 1 : 2, bufB);
    const uint64_t *c = in.subOp == 9 ? src(3, bufC) : nullptr;
    uint64_t *d = isRed ? sink : dst(in.ops[0]);
    int bytes = std::max(1, bits / 8);
    FOR_LANES {
      uint64_t a = address(w, addrOp, l);
      uint8_t *p = access(w, l, in.space, a, static_cast<uint32_t>(bytes),
                          Access::Atomic);
      if (!p)
        return;
      uint64_t old = 0;
      std::memcpy(&old, p, static_cast<size_t>(bytes));
      uint64_t v = b[l], r = old;
      bool isFloat = isFloatType(t);
      switch (in.subOp) {
      case 0: // add
        r = isFloat ? floatOpAnyWidth(Op::FAdd, t, 0, Rounding::NearestEven,
                                      old, v, 0)
                    : old + v;
        break;
      case 1: // min
      case 2: // max
        if (isFloat) {
          r = floatOpAnyWidth(in.subOp == 1 ? Op::FMin : Op::FMax, t, 0,
                              Rounding::Default, old, v, 0);
        } else if (isSigned) {
          int64_t x = signExtend(old, bits), y = signExtend(v, bits);
          r = static_cast<uint64_t>(in.subOp == 1 ? std::min(x, y)
                                                  : std::max(x, y));
        } else {
          uint64_t x = maskBits(old, bits), y = maskBits(v, bits);
          r = in.subOp == 1 ? std::min(x, y) : std::max(x, y);
        }
        break;
      case 3: // inc
        r = maskBits(old, bits) >= maskBits(v, bits) ? 0 : old + 1;
        break;
      case 4: // dec
        r = (maskBits(old, bits) == 0 || maskBits(old, bits) > maskBits(v, bits))
                ? v
                : old - 1;
        break;
      case 5:
        r = old & v;
        break;
      case 6:
        r = old | v;
        break;
      case 7:
        r = old ^ v;
        break;
      case 8:
        r = v;
        break;
      case 9:
        r = maskBits(old, bits) == maskBits(v, bits) ? c[l] : old;
        break;
      }
      r = maskBits(r, bits);
      std::memcpy(p, &r, static_cast<size_t>(bytes));
      d[l] = maskBits(old, bits);
    }
    return;
  }
  case Op::Shfl: {
    const uint64_t *a = src(1, bufA), *b = src(2, bufB), *c = src(3, bufC);
    uint64_t *d = dst(in.ops[0]);
    uint64_t *p = in.ops[0].reg2 >= 0 ? &w.regs[in.ops[0].reg2 * kWarpSize]
                                      : nullptr;
    uint64_t result[kWarpSize];
    bool valid[kWarpSize];
    FOR_LANES {
      uint32_t bval = static_cast<uint32_t>(b[l]) & 31;
      uint32_t cval = static_cast<uint32_t>(c[l]) & 31;
      uint32_t segmask = (static_cast<uint32_t>(c[l]) >> 8) & 31;
      uint32_t lane = static_cast<uint32_t>(l);
      uint32_t maxLane = (lane & segmask) | (cval & ~segmask);
      uint32_t minLane = lane & segmask;
      int32_t j = 0;
      bool pval = false;
      switch (in.subOp) {
      case 0:
        j = static_cast<int32_t>(lane) - static_cast<int32_t>(bval);
        pval = j >= static_cast<int32_t>(maxLane);
        break;
      case 1:
        j = static_cast<int32_t>(lane + bval);
        pval = j <= static_cast<int32_t>(maxLane);
        break;
      case 2:
        j = static_cast<int32_t>(lane ^ bval);
        pval = j <= static_cast<int32_t>(maxLane);
        break;
      default:
        j = static_cast<int32_t>(minLane | (bval & ~segmask));
        pval = j <= static_cast<int32_t>(maxLane);
        break;
      }
      if (!pval)
        j = l;
      if (!(mask >> j & 1)) {
        fail(LaunchError::LaunchFailed, w, l,
             "shfl.sync reads lane " + std::to_string(j) +
                 ", which does not take part");
        return;
      }
      result[l] = a[j];
      valid[l] = pval;
    }
    FOR_LANES {
      d[l] = maskBits(result[l], 32);
      if (p)
        p[l] = valid[l];
    }
    return;
  }
  case Op::Vote: {
    const uint64_t *a = src(1, bufA);
    uint64_t *d = dst(in.ops[0]);
    uint32_t ballot = 0;
    FOR_LANES ballot |= (a[l] & 1 ? 1u : 0u) << l;
    FOR_LANES {
      switch (in.subOp) {
      case 0:
        d[l] = ballot == mask;
        break;
      case 1:
        d[l] = ballot != 0;
        break;
      case 2:
        d[l] = ballot == mask || ballot == 0;
        break;
      default:
        d[l] = ballot;
        break;
      }
    }
    return;
  }
  case Op::Activemask: {
    uint64_t *d = dst(in.ops[0]);
    FOR_LANES d[l] = w.active;
    return;
  }
  case Op::Redux: {
    const uint64_t *a = src(1, bufA);
    uint64_t *d = dst(in.ops[0]);
    bool first = true;
    uint64_t acc = 0;
    FOR_LANES {
      uint64_t v = maskBits(a[l], bits);
      if (first) {
        acc = v;
        first = false;
        continue;
      }
      switch (in.subOp) {
      case 0:
        acc += v;
        break;
      case 1:
        acc = isSigned ? static_cast<uint64_t>(std::min(signExtend(acc, bits),
                                                        signExtend(v, bits)))
                       : std::min(acc, v);
        break;
      case 2:
        acc = isSigned ? static_cast<uint64_t>(std::max(signExtend(acc, bits),
                                                        signExtend(v, bits)))
                       : std::max(acc, v);
        break;
      case 3:
        acc &= v;
        break;
      case 4:
        acc |= v;
        break;
      default:
        acc ^= v;
        break;
      }
    }
    FOR_LANES d[l] = maskBits(acc, bits);
    return;
  }
  case Op::ElectSync: {
    uint64_t *d = dst(in.ops[0]);
    uint64_t *p = in.ops[0].reg2 >= 0 ? &w.regs[in.ops[0].reg2 * kWarpSize]
                                      : nullptr;
    int leader = __builtin_ctz(mask);
    FOR_LANES {
      d[l] = static_cast<uint64_t>(leader);
      if (p)
        p[l] = l == leader;
    }
    return;
  }
  case Op::Mapa: {
    const uint64_t *a = src(1, bufA), *b = src(2, bufB);
    uint64_t *d = dst(in.ops[0]);
    FOR_LANES {
      uint64_t x = a[l];
      uint32_t rank = static_cast<uint32_t>(b[l]);
      if (rank >= clusterSize) {
        fail(LaunchError::IllegalAddress, w, l,
             "mapa to CTA rank " + std::to_string(rank) +
                 " outside the cluster of " + std::to_string(clusterSize));
        return;
      }
      bool generic = in.space == Space::Generic;
      uint64_t off = generic ? x - kSharedWindow : x;
      off &= 0xffffff;
      uint64_t r = (uint64_t(rank + 1) << 24) | off;
      d[l] = maskBits(generic ? r + kSharedWindow : r, bits);
    }
    return;
  }
  case Op::Getctarank: {
    const uint64_t *a = src(1, bufA);
    uint64_t *d = dst(in.ops[0]);
    FOR_LANES {
      uint64_t x = a[l];
      if (in.space == Space::Generic)
        x -= kSharedWindow;
      uint32_t field = static_cast<uint32_t>(x >> 24) & 0xff;
      d[l] = field ? field - 1 : w.cta->rank;
    }
    return;
  }
  default:
    fail(LaunchError::IllegalInstruction, w, __builtin_ctz(mask),
         "internal error: instruction not dispatched", /*fatal=*/true);
    return;
  }
#undef FOR_LANES
}

//===----------------------------------------------------------------------===//
// Warps
//===----------------------------------------------------------------------===//

void Launch::runWarp(Warp &w, uint64_t budget) {
  const Instruction *code = kernel.code.data();
  uint32_t codeSize = static_cast<uint32_t>(kernel.code.size());
  while (w.state == Warp::State::Ready && budget--) {
    if (w.pc >= codeSize) {
      // Falling off the end of a kernel is a return.
      currentPc = codeSize - 1;
      exitLanes(w, w.active);
      continue;
    }
    currentPc = w.pc;
    const Instruction &in = code[w.pc];
    uint32_t mask = w.active;
    if (in.guard >= 0) {
      uint32_t p = predicateMask(w, in.guard);
      mask &= in.guardNegated ? ~p : p;
    }
    ++warpInstructions;
    threadInstructions += static_cast<uint64_t>(__builtin_popcount(w.active));
    if (opts.instructionBudget && warpInstructions > opts.instructionBudget) {
      fail(LaunchError::LaunchFailed, w, mask ? __builtin_ctz(mask) : 0,
           "the launch ran more than " +
               std::to_string(opts.instructionBudget) +
               " warp instructions (the instruction budget)",
           /*fatal=*/true);
      return;
    }
    if (w.inflightCount && !checkInflight(w, in, mask))
      return;
    switch (in.op) {
    case Op::Bra:
      branch(w, in, mask);
      break;
    case Op::Ret:
    case Op::Exit:
      if (mask)
        exitLanes(w, mask);
      else
        advance(w, mask);
      break;
    case Op::BarSync:
    case Op::BarArrive:
      barrier(w, in, mask);
      break;
    case Op::BarrierClusterArrive:
    case Op::BarrierClusterWait:
      clusterBarrier(w, in, mask);
      if (w.yielded)
        return;
      break;
    case Op::Trap:
      if (mask) {
        fail(LaunchError::IllegalInstruction, w, __builtin_ctz(mask),
             "trap executed", /*fatal=*/true);
        return;
      }
      advance(w, mask);
      break;
    case Op::Nanosleep:
      advance(w, mask);
      w.yielded = true;
      return;
    case Op::Unsupported:
      if (mask) {
        fail(LaunchError::IllegalInstruction, w, __builtin_ctz(mask),
             "the emulator does not implement this instruction",
             /*fatal=*/true);
        return;
      }
      advance(w, mask);
      break;
    case Op::Ldmatrix:
    case Op::Stmatrix:
    case Op::Mma:
    case Op::WgmmaFence:
    case Op::WgmmaCommit:
    case Op::WgmmaWait:
    case Op::Wgmma:
      if (mask)
        executeTensorCore(w, in, mask);
      if (abort)
        return;
      advance(w, mask);
      break;
    case Op::CpAsync:
    case Op::CpAsyncCommit:
    case Op::CpAsyncWait:
    case Op::CpAsyncWaitAll:
    case Op::CpAsyncBulkTensor:
    case Op::CpAsyncBulkCommit:
    case Op::CpAsyncBulkWait:
    case Op::MbarInit:
    case Op::MbarArrive:
    case Op::MbarExpectTx:
    case Op::MbarCompleteTx:
    case Op::MbarTestWait:
    case Op::MbarTryWait:
    case Op::MbarPendingCount:
    case Op::MbarInval:
      if (mask)
        executeAsync(w, in, mask);
      if (abort)
        return;
      advance(w, mask);
      if (w.yielded)
        return;
      break;
    default:
      if (mask)
        executeScalar(w, in, mask);
      if (abort)
        return;
      advance(w, mask);
      break;
    }
    if (abort)
      return;
  }
}

void Launch::initCta(Cta &cta, uint32_t linear, Dim3 ctaid, uint32_t rank) {
  cta.ctaid = ctaid;
  cta.linear = linear;
  cta.rank = rank;
  cta.numThreads = static_cast<uint32_t>(config.block.count());
  cta.exitedThreads = 0;
  cta.arrived.fill(0);
  cta.expectedCount.fill(0);
  uint32_t size = dynamicBase + config.dynamicSharedBytes;
  if (!kernel.dynamicSharedAlign)
    size = std::max(kernel.staticSharedBytes, size);
  if (cta.sharedSize != size || cta.dirty || cta.shadow.size() != size) {
    // Shared memory starts with garbage on hardware: a pattern here (later
    // CTAs find what the previous one left).
    cta.shared.assign(size, 0xa5);
    cta.shadow.assign(size, ShadowByte());
    cta.special.assign(size, SpecialByte());
    cta.specialLines.assign(size / kSpecialLine + 1, 0);
    cta.dirty = false;
  } else {
    for (const auto &entry : cta.mbarriers)
      updateSpecial(cta, entry.first, 8,
                    [](SpecialByte &b) { b.mbarrier = 0; });
  }
  cta.sharedSize = size;
  cta.mbarriers.clear();
  cta.tma.clear();
  nextEpoch(cta);
  cta.epochBase = cta.epoch;
  uint32_t numWarps = (cta.numThreads + kWarpSize - 1) / kWarpSize;
  cta.warps.resize(numWarps);
  size_t regsPerWarp = static_cast<size_t>(kernel.numRegisters) * kWarpSize;
  size_t localPerWarp = static_cast<size_t>(kernel.localBytes) * kWarpSize;
  for (uint32_t i = 0; i < numWarps; ++i) {
    Warp &w = cta.warps[i];
    w.cta = &cta;
    w.index = i;
    w.firstThread = i * kWarpSize;
    uint32_t count =
        std::min<uint32_t>(kWarpSize, cta.numThreads - w.firstThread);
    w.validMask = count == 32 ? 0xffffffffu : (1u << count) - 1;
    w.active = w.validMask;
    w.pc = 0;
    w.exited = 0;
    w.rpc = kNoReconvergence;
    w.stack.clear();
    w.parked.clear();
    w.state = Warp::State::Ready;
    w.yielded = false;
    // Registers start with whatever the previous CTA left, as on hardware.
    w.regs = registerFile.data() +
             (static_cast<size_t>(rank) * numWarps + i) * regsPerWarp;
    w.local = localMemory.data() +
              (static_cast<size_t>(rank) * numWarps + i) * localPerWarp;
    w.copies.clear();
    w.committedGroups.fill(0);
    w.wgmmaGroups.clear();
    w.wgmmaOpen = WgmmaGroup();
    w.wgmmaOpenUsed = false;
    if (w.inflight.size() != kernel.numRegisters || w.inflightCount)
      w.inflight.assign(kernel.numRegisters, 0);
    w.inflightCount = 0;
    w.fenced = false;
    w.clusterArrivalPhase = 0;
  }
}

void Launch::runCluster() {
  constexpr uint64_t kSlice = 4096;
  unsigned idleRounds = 0;
  while (!abort) {
    bool anyReady = false, allYielded = true;
    uint64_t eventsBefore = syncEvents;
    for (Cta &cta : cluster)
      for (Warp &w : cta.warps) {
        if (w.state != Warp::State::Ready)
          continue;
        anyReady = true;
        w.yielded = false;
        runWarp(w, kSlice);
        if (abort)
          return;
        if (!w.yielded)
          allYielded = false;
      }
    if (!anyReady) {
      bool allDone = true;
      for (Cta &cta : cluster)
        for (Warp &w : cta.warps)
          if (w.state != Warp::State::Done)
            allDone = false;
      if (allDone)
        return;
      // Every live warp waits at a barrier that cannot complete.
      for (Cta &cta : cluster)
        for (Warp &w : cta.warps)
          if (w.state == Warp::State::Blocked) {
            currentPc = w.parked.front().path.pc - 1;
            uint32_t id = w.parked.front().barrier;
            uint32_t live = cta.numThreads - cta.exitedThreads;
            fail(LaunchError::LaunchFailed, w,
                 __builtin_ctz(w.parked.front().path.mask),
                 "deadlock: barrier " + std::to_string(id) + " waits for " +
                     std::to_string(cta.expectedCount[id] ? cta.expectedCount[id]
                                                          : live) +
                     " threads, " + std::to_string(cta.arrived[id]) +
                     " arrived and no other thread can run",
                 /*fatal=*/true);
            return;
          }
      return;
    }
    if (allYielded && syncEvents == eventsBefore) {
      if (++idleRounds > 3) {
        for (Cta &cta : cluster)
          for (Warp &w : cta.warps)
            if (w.state == Warp::State::Ready) {
              currentPc = w.pc;
              fail(LaunchError::LaunchFailed, w, __builtin_ctz(w.active),
                   "deadlock: every warp waits (mbarrier or cluster barrier) "
                   "and nothing can complete the wait",
                   /*fatal=*/true);
              return;
            }
        return;
      }
    } else {
      idleRounds = 0;
    }
  }
}

void Launch::finishCta(Cta &cta) {
  for (Warp &w : cta.warps)
    if (!w.copies.empty() || !w.wgmmaGroups.empty() || w.wgmmaOpenUsed ||
        w.inflightCount)
      cta.dirty = true;
  if (!cta.tma.empty())
    cta.dirty = true;
  for (Warp &w : cta.warps) {
    if (!w.copies.empty()) {
      currentPc = static_cast<uint32_t>(kernel.code.size() - 1);
      for (uint32_t i = 0; i < kernel.code.size(); ++i)
        if (kernel.code[i].line == w.copies.front().line)
          currentPc = i;
      fail(LaunchError::LaunchFailed, w, w.copies.front().lane,
           "the thread exits with cp.async copies it never waited for "
           "(cp.async.wait_group / wait_all)");
      return;
    }
    if (!w.wgmmaGroups.empty() || w.wgmmaOpenUsed) {
      fail(LaunchError::LaunchFailed, w, 0,
           "the warp exits with wgmma.mma_async operations it never waited "
           "for (wgmma.wait_group)");
      return;
    }
  }
  if (!cta.tma.empty()) {
    for (uint32_t i = 0; i < kernel.code.size(); ++i)
      if (kernel.code[i].line == cta.tma.front().line)
        currentPc = i;
    fail(LaunchError::LaunchFailed, cta.warps.front(), 0,
         "the CTA exits with TMA copies that no thread waited for on their "
         "mbarrier");
  }
}

LaunchResult Launch::run(void **paramValues) {
  const Dim3 &b = config.block, &g = config.grid;
  auto invalid = [&](const std::string &why) {
    LaunchResult r;
    r.error = LaunchError::InvalidValue;
    r.message = "invalid launch of " + kernel.name + ": " + why;
    return r;
  };
  if (!b.x || !b.y || !b.z || !g.x || !g.y || !g.z)
    return invalid("a zero grid or block dimension");
  if (b.count() > DeviceLimits::kMaxThreadsPerBlock || b.x > 1024 ||
      b.y > 1024 || b.z > 64)
    return invalid("block (" + std::to_string(b.x) + "," +
                   std::to_string(b.y) + "," + std::to_string(b.z) +
                   ") exceeds 1024 threads or the per-dimension limits");
  if (g.y > 65535 || g.z > 65535)
    return invalid("grid y/z above 65535");
  const auto &req = kernel.reqntid;
  if (req[0] && (b.x != req[0] || b.y != req[1] || b.z != req[2]))
    return invalid("the kernel requires a block of (" +
                   std::to_string(req[0]) + "," + std::to_string(req[1]) +
                   "," + std::to_string(req[2]) + ") threads (.reqntid)");
  const auto &maxn = kernel.maxntid;
  if (maxn[0] && b.count() > uint64_t(maxn[0]) * maxn[1] * maxn[2])
    return invalid("the block has " + std::to_string(b.count()) +
                   " threads, the kernel allows " +
                   std::to_string(uint64_t(maxn[0]) * maxn[1] * maxn[2]) +
                   " (.maxntid)");
  if (config.dynamicSharedBytes > config.maxDynamicSharedBytes)
    return invalid(std::to_string(config.dynamicSharedBytes) +
                   " bytes of dynamic shared memory, but the kernel's limit "
                   "is " +
                   std::to_string(config.maxDynamicSharedBytes) +
                   " (raise it with cuFuncSetAttribute("
                   "CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES))");
  uint32_t dynAlign = std::max<uint32_t>(kernel.dynamicSharedAlign, 16);
  dynamicBase = (kernel.staticSharedBytes + dynAlign - 1) / dynAlign * dynAlign;
  if (dynamicBase + config.dynamicSharedBytes >
      DeviceLimits::kMaxSharedPerBlockOptin)
    return invalid("static + dynamic shared memory exceed 227 KiB");
  // Clusters.
  clusterDims = config.cluster;
  if (kernel.reqnctapercluster[0]) {
    Dim3 r{kernel.reqnctapercluster[0], kernel.reqnctapercluster[1],
           kernel.reqnctapercluster[2]};
    if (config.cluster.count() > 1 &&
        (r.x != config.cluster.x || r.y != config.cluster.y ||
         r.z != config.cluster.z))
      return invalid("the cluster dimensions differ from .reqnctapercluster");
    clusterDims = r;
  }
  clusterSize = static_cast<uint32_t>(clusterDims.count());
  if (clusterSize > 1 && (device.options().smVersion < 90))
    return invalid("thread block clusters need sm_90");
  if (clusterSize > 16 || g.x % clusterDims.x || g.y % clusterDims.y ||
      g.z % clusterDims.z)
    return invalid("the grid is not a whole number of clusters of at most "
                   "16 CTAs");
  // Parameters.
  params.assign(kernel.paramBytes, 0);
  for (size_t i = 0; i < kernel.params.size(); ++i) {
    if (!paramValues || !paramValues[i])
      return invalid("parameter " + std::to_string(i) + " is missing");
    std::memcpy(params.data() + kernel.params[i].offset, paramValues[i],
                kernel.params[i].size);
  }
  uint32_t numWarps =
      static_cast<uint32_t>((b.count() + kWarpSize - 1) / kWarpSize);
  registerFile.assign(static_cast<size_t>(clusterSize) * numWarps *
                          kernel.numRegisters * kWarpSize,
                      0);
  localMemory.assign(static_cast<size_t>(clusterSize) * numWarps *
                         kernel.localBytes * kWarpSize,
                     0);
  cluster.clear();
  cluster.resize(clusterSize);
  uint64_t ctas = 0;
  for (uint32_t cz = 0; cz < g.z / clusterDims.z && !abort; ++cz)
    for (uint32_t cy = 0; cy < g.y / clusterDims.y && !abort; ++cy)
      for (uint32_t cx = 0; cx < g.x / clusterDims.x && !abort; ++cx) {
        clusterId = {cx, cy, cz};
        clusterArrived = 0;
        clusterPhase = 0;
        uint32_t rank = 0;
        for (uint32_t z = 0; z < clusterDims.z; ++z)
          for (uint32_t y = 0; y < clusterDims.y; ++y)
            for (uint32_t x = 0; x < clusterDims.x; ++x) {
              Dim3 id{cx * clusterDims.x + x, cy * clusterDims.y + y,
                      cz * clusterDims.z + z};
              uint32_t linear = id.x + g.x * (id.y + g.y * id.z);
              initCta(cluster[rank], linear, id, rank);
              ++rank;
            }
        runCluster();
        for (Cta &cta : cluster)
          if (!abort)
            finishCta(cta);
        ctas += clusterSize;
      }
  Stats &s = device.stats();
  s.ctas += ctas;
  s.warpInstructions += warpInstructions;
  s.threadInstructions += threadInstructions;
  return result;
}

} // namespace emu
} // namespace amp
