//===- Executor.cpp - Run a kernel launch warp by warp --------------------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Scheduling (clusters, CTAs, warps, divergence groups), operand access,
// control flow, and the dispatch of the other instructions to their
// families, one file each:
//
//   Arithmetic.cpp       integer and bitwise arithmetic, comparisons,
//                        selection and moves
//   FloatArithmetic.cpp  floating-point arithmetic and functions
//   Conversions.cpp      cvt
//   Memory.cpp           memory access with its checks; ld, st, atom, red,
//                        cvta, isspacep
//   WarpCollectives.cpp  shfl, vote, activemask, redux, elect, mapa,
//                        getctarank
//   Barriers.cpp         bar, barrier.cluster
//   TensorCore.cpp       ldmatrix, stmatrix, mma, wgmma
//   AsyncCopy.cpp        cp.async, TMA, mbarriers
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

//===----------------------------------------------------------------------===//
// Scalar instructions: dispatch to the families
//===----------------------------------------------------------------------===//

void Launch::executeScalar(Warp &w, const Instruction &in, uint32_t mask) {
  switch (in.op) {
  case Op::Nop:
  case Op::Membar:
  case Op::Setmaxnreg:
  case Op::BarWarpSync:
    return;
  case Op::Add:
  case Op::Sub:
  case Op::Mul:
  case Op::Mad:
  case Op::Div:
  case Op::Rem:
  case Op::Abs:
  case Op::Neg:
  case Op::Min:
  case Op::Max:
  case Op::Popc:
  case Op::Clz:
  case Op::Bfind:
  case Op::Brev:
  case Op::Bfe:
  case Op::Bfi:
  case Op::Prmt:
  case Op::Shf:
  case Op::And:
  case Op::Or:
  case Op::Xor:
  case Op::Not:
  case Op::Cnot:
  case Op::Shl:
  case Op::Shr:
  case Op::Lop3:
  case Op::Setp:
  case Op::Set:
  case Op::Selp:
  case Op::Slct:
  case Op::Mov:
    return executeArithmetic(w, in, mask);
  case Op::FAdd:
  case Op::FSub:
  case Op::FMul:
  case Op::FFma:
  case Op::FDiv:
  case Op::FMin:
  case Op::FMax:
  case Op::FCopysign:
  case Op::FAbs:
  case Op::FNeg:
  case Op::FRcp:
  case Op::FSqrt:
  case Op::FRsqrt:
  case Op::FSin:
  case Op::FCos:
  case Op::FLg2:
  case Op::FEx2:
  case Op::FTanh:
  case Op::Testp:
    return executeFloat(w, in, mask);
  case Op::Cvt:
    return executeConversion(w, in, mask);
  case Op::Ld:
  case Op::St:
  case Op::Cvta:
  case Op::Isspacep:
  case Op::Atom:
  case Op::Red:
    return executeMemory(w, in, mask);
  case Op::Shfl:
  case Op::Vote:
  case Op::Activemask:
  case Op::Redux:
  case Op::ElectSync:
  case Op::Mapa:
  case Op::Getctarank:
    return executeWarpCollective(w, in, mask);
  default:
    fail(LaunchError::IllegalInstruction, w, __builtin_ctz(mask),
         "internal error: instruction not dispatched", /*fatal=*/true);
    return;
  }
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
                     std::to_string(
                         cta.expectedCount[id] ? cta.expectedCount[id] : live) +
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
    return invalid("block (" + std::to_string(b.x) + "," + std::to_string(b.y) +
                   "," + std::to_string(b.z) +
                   ") exceeds 1024 threads or the per-dimension limits");
  if (g.y > 65535 || g.z > 65535)
    return invalid("grid y/z above 65535");
  const auto &req = kernel.reqntid;
  if (req[0] && (b.x != req[0] || b.y != req[1] || b.z != req[2]))
    return invalid("the kernel requires a block of (" + std::to_string(req[0]) +
                   "," + std::to_string(req[1]) + "," + std::to_string(req[2]) +
                   ") threads (.reqntid)");
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
