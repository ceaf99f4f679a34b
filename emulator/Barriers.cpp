//===- Barriers.cpp - CTA and cluster barriers ----------------------------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// bar.sync, bar.arrive and barrier.sync (named barriers, thread counts) and
// barrier.cluster.arrive/wait, with the barrier epochs from which the race
// check of shared memory counts (PTX ISA, "bar, barrier" and
// "barrier.cluster").
//
//===----------------------------------------------------------------------===//

#include "ScalarOps.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>

namespace amp {
namespace emu {

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

} // namespace emu
} // namespace amp
