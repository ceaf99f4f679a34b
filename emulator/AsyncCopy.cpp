//===- AsyncCopy.cpp - cp.async, TMA and mbarriers ------------------------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Asynchronous copies into shared memory land as late as the PTX memory
// model allows, so that a kernel that uses data before waiting for it reads
// the wrong bytes (and, with the checks, fails at the read):
//
//  - cp.async (sm_80): the source is read at issue; the bytes land when the
//    issuing thread's cp.async.wait_group / wait_all covers their group.
//  - cp.async.bulk.tensor (TMA, sm_90): the box is read at issue (zero fill
//    out of bounds, the tensor map's swizzle applied); it lands, and
//    completes its transaction bytes on the mbarrier, when a thread tests or
//    waits on that mbarrier.
//  - mbarrier: expected arrivals, pending arrivals, a transaction count and
//    a phase; a phase completes when both counts reach zero. Waits test the
//    parity of a phase (or the phase a state token was taken in).
//
//===----------------------------------------------------------------------===//

#include "Executor.h"
#include "TensorMap.h"

#include <cstring>

namespace amp {
namespace emu {

uint32_t swizzleAddress(uint32_t address, uint32_t swizzleBytes);

//===----------------------------------------------------------------------===//
// Tensor maps
//===----------------------------------------------------------------------===//

bool encodeTensorMap(TensorMap &map, uint32_t dataType, uint32_t rank,
                     uint64_t globalAddress, const uint64_t *globalDim,
                     const uint64_t *globalStrides, const uint32_t *boxDim,
                     const uint32_t *elementStrides, uint32_t interleave,
                     uint32_t swizzle, uint32_t l2Promotion, uint32_t oobFill,
                     std::string &why) {
  map = TensorMap();
  uint32_t elem = tensorMapElementBytes(dataType);
  if (!elem) {
    why = "unsupported tensor map data type " + std::to_string(dataType);
    return false;
  }
  if (rank < 1 || rank > 5 || (interleave && rank < 3)) {
    why = "tensor rank " + std::to_string(rank) +
          " (1-5; at least 3 with interleave)";
    return false;
  }
  if (interleave > 2 || swizzle > 3 || oobFill > 1 || l2Promotion > 3) {
    why = "unsupported interleave, swizzle, OOB fill or L2 promotion value";
    return false;
  }
  uint64_t addressAlign = interleave == 2 ? 32 : 16;
  if (globalAddress % addressAlign) {
    why = "global address not " + std::to_string(addressAlign) +
          "-byte aligned";
    return false;
  }
  for (uint32_t i = 0; i < rank; ++i) {
    if (globalDim[i] == 0 || globalDim[i] > (uint64_t(1) << 32)) {
      why = "globalDim[" + std::to_string(i) + "] out of range";
      return false;
    }
    if (boxDim[i] == 0 || boxDim[i] > 256) {
      why = "boxDim[" + std::to_string(i) + "] must be in [1, 256]";
      return false;
    }
    if (elementStrides[i] == 0 || elementStrides[i] > 8) {
      why = "elementStrides[" + std::to_string(i) + "] must be in [1, 8]";
      return false;
    }
  }
  for (uint32_t i = 0; i + 1 < rank; ++i) {
    if (globalStrides[i] % (interleave == 2 ? 32 : 16) ||
        globalStrides[i] >= (uint64_t(1) << 40)) {
      why = "globalStrides[" + std::to_string(i) +
            "] must be a multiple of 16 bytes below 2^40";
      return false;
    }
  }
  if (!interleave && (uint64_t(boxDim[0]) * elem) % 16) {
    why = "boxDim[0] * element size must be a multiple of 16 bytes";
    return false;
  }
  uint32_t span = swizzle == 3 ? 128 : swizzle == 2 ? 64 : swizzle == 1 ? 32 : 0;
  if (!interleave && span && uint64_t(boxDim[0]) * elem > span) {
    why = "the inner box dimension (" + std::to_string(boxDim[0] * elem) +
          " bytes) exceeds the swizzle span of " + std::to_string(span) +
          " bytes";
    return false;
  }
  if (interleave) {
    why = "interleaved tensor maps are not supported by the emulator";
    return false;
  }
  map.magic = TensorMap::kMagic;
  map.dataType = static_cast<uint8_t>(dataType);
  map.rank = static_cast<uint8_t>(rank);
  map.interleave = static_cast<uint8_t>(interleave);
  map.swizzle = static_cast<uint8_t>(swizzle);
  map.l2Promotion = static_cast<uint8_t>(l2Promotion);
  map.oobFill = static_cast<uint8_t>(oobFill);
  map.elementBytes = static_cast<uint8_t>(elem);
  map.globalAddress = globalAddress;
  for (uint32_t i = 0; i < rank; ++i) {
    map.globalDim[i] = static_cast<uint32_t>(globalDim[i] - 1) + 1;
    map.boxDim[i] = static_cast<uint16_t>(boxDim[i]);
    map.elementStrides[i] = static_cast<uint8_t>(elementStrides[i]);
    if (i + 1 < rank)
      map.globalStrides[i] = globalStrides[i];
  }
  return true;
}

//===----------------------------------------------------------------------===//
// mbarriers
//===----------------------------------------------------------------------===//

MBarrier *Launch::findMbarrier(Warp &w, int lane, Cta &cta, uint32_t offset) {
  auto it = cta.mbarriers.find(offset);
  if (it == cta.mbarriers.end()) {
    fail(LaunchError::LaunchFailed, w, lane,
         "mbarrier operation on shared offset " + std::to_string(offset) +
             ", where no mbarrier was initialized (mbarrier.init)");
    return nullptr;
  }
  return &it->second;
}

void Launch::arrive(Cta &cta, MBarrier &bar, uint32_t count) {
  ++syncEvents;
  bar.pending -= std::min(bar.pending, count);
  if (bar.pending == 0 && bar.tx == 0) {
    ++bar.phase;
    bar.pending = bar.expected;
    // A phase that several threads arrive on is how warp-specialized
    // kernels hand a buffer back ("empty" barriers: consumers arrive after
    // their last read, the producer waits, then refills it with TMA). The
    // race checks keep one epoch per CTA, not per-thread clocks, so such a
    // phase orders everything before it like a barrier: it hides no race
    // between the threads that arrived and the ones that wait, and may
    // hide one between threads it does not involve.
    if (bar.expected > 1)
      nextEpoch(cta);
  }
}

void Launch::completeTx(Cta &cta, uint32_t offset, int64_t bytes,
                        const Warp &w) {
  auto it = cta.mbarriers.find(offset);
  if (it == cta.mbarriers.end()) {
    fail(LaunchError::LaunchFailed, w, 0,
         "a TMA copy completes on shared offset " + std::to_string(offset) +
             ", which holds no mbarrier");
    return;
  }
  MBarrier &bar = it->second;
  bar.tx -= bytes;
  ++syncEvents;
  if (bar.pending == 0 && bar.tx == 0) {
    ++bar.phase;
    bar.pending = bar.expected;
    // As in arrive(): a phase several threads arrived on (a stage that the
    // producer warpgroup's threads stored, and TMA filled the rest of)
    // orders their stores before the waiters' reads.
    if (bar.expected > 1)
      nextEpoch(cta);
  }
}

void Launch::landTma(Cta &cta, uint32_t mbarrier) {
  for (size_t i = 0; i < cta.tma.size();) {
    TmaCopy &copy = cta.tma[i];
    if (copy.mbarrier != mbarrier) {
      ++i;
      continue;
    }
    updateSpecial(cta, copy.dst, static_cast<uint32_t>(copy.data.size()),
                  [](SpecialByte &b) {
                    if (b.pending)
                      --b.pending;
                  });
    for (size_t b = 0; b < copy.data.size(); ++b) {
      ShadowByte &s = cta.shadow[copy.dst + b];
      s.writer = kAsyncAgent;
      s.writeEpoch = cta.epoch;
    }
    std::memcpy(cta.shared.data() + copy.dst, copy.data.data(),
                copy.data.size());
    int64_t bytes = static_cast<int64_t>(copy.data.size());
    cta.tma.erase(cta.tma.begin() + static_cast<long>(i));
    completeTx(cta, mbarrier, bytes, cta.warps.front());
  }
}

//===----------------------------------------------------------------------===//
// cp.async
//===----------------------------------------------------------------------===//

void Launch::landCopies(Warp &w, uint32_t mask, const uint32_t *keepGroups) {
  uint32_t limit[kWarpSize];
  for (uint32_t m = mask; m; m &= m - 1) {
    int l = __builtin_ctz(m);
    uint32_t committed = w.committedGroups[l];
    limit[l] = committed >= keepGroups[l] ? committed - keepGroups[l] : 0;
  }
  size_t kept = 0;
  bool failed = false;
  for (size_t i = 0; i < w.copies.size(); ++i) {
    AsyncCopy &c = w.copies[i];
    if (failed || !(mask >> c.lane & 1) || c.group == 0 ||
        c.group > limit[c.lane]) {
      w.copies[kept++] = c;
      continue;
    }
    updateSpecial(*w.cta, c.dst, c.size, [](SpecialByte &b) {
      if (b.pending)
        --b.pending;
    });
    // The landing write belongs to the issuing thread: another thread that
    // reads it must be ordered after this thread's wait by a barrier.
    uint8_t *p = sharedAccess(w, c.lane, *w.cta, c.dst, c.size, Access::Write);
    if (p)
      std::memcpy(p, c.data, c.size);
    else
      failed = true;
  }
  w.copies.resize(kept);
}

//===----------------------------------------------------------------------===//
// The instructions
//===----------------------------------------------------------------------===//

void Launch::executeAsync(Warp &w, const Instruction &in, uint32_t mask) {
  auto forLanes = [&](auto &&body) {
    for (uint32_t m = mask; m; m &= m - 1) {
      int l = __builtin_ctz(m);
      if (!body(l))
        return;
    }
  };
  switch (in.op) {
  case Op::CpAsync: {
    const Operand &dstOp = in.ops[0], &srcOp = in.ops[1];
    bool ignoreSrcPredicate =
        in.numOperands > 3 && in.ops[3].kind == OperandKind::Reg &&
        kernel.registerTypes[in.ops[3].reg] == Type::Pred;
    forLanes([&](int l) {
      uint32_t size = static_cast<uint32_t>(read(w, in.ops[2], l));
      if (size != 4 && size != 8 && size != 16) {
        fail(LaunchError::IllegalInstruction, w, l,
             "cp.async size " + std::to_string(size) + " (4, 8 or 16)");
        return false;
      }
      uint32_t srcSize = size;
      if (ignoreSrcPredicate)
        srcSize = (read(w, in.ops[3], l) & 1) ? 0 : size;
      else if (in.numOperands > 3 && in.ops[3].kind != OperandKind::Sink)
        srcSize = static_cast<uint32_t>(read(w, in.ops[3], l));
      if (srcSize > size) {
        fail(LaunchError::IllegalInstruction, w, l,
             "cp.async src-size " + std::to_string(srcSize) +
                 " larger than its copy size " + std::to_string(size));
        return false;
      }
      uint64_t dst = address(w, dstOp, l), src = address(w, srcOp, l);
      Cta *target;
      uint32_t offset;
      if (dst % size || !sharedTarget(w, Space::Shared, dst, target, offset) ||
          target != w.cta || uint64_t(offset) + size > w.cta->sharedSize) {
        fail(LaunchError::IllegalAddress, w, l,
             "cp.async destination " + std::to_string(dst) +
                 " is misaligned or outside the CTA's shared memory");
        return false;
      }
      AsyncCopy c{};
      c.lane = static_cast<uint8_t>(l);
      c.size = static_cast<uint8_t>(size);
      c.group = 0;
      c.dst = offset;
      c.line = in.line;
      if (srcSize) {
        if (src % size) {
          fail(LaunchError::MisalignedAddress, w, l,
               "cp.async source not aligned to its size");
          return false;
        }
        uint8_t *p = access(w, l, in.space2, src, srcSize, Access::Read, 1);
        if (!p)
          return false;
        std::memcpy(c.data, p, srcSize);
      }
      updateSpecial(*w.cta, offset, size,
                    [](SpecialByte &b) { b.pending++; });
      w.copies.push_back(c);
      return true;
    });
    return;
  }
  case Op::CpAsyncCommit:
  case Op::CpAsyncWaitAll: {
    for (uint32_t m = mask; m; m &= m - 1)
      ++w.committedGroups[__builtin_ctz(m)];
    for (AsyncCopy &c : w.copies)
      if (c.group == 0 && (mask >> c.lane & 1))
        c.group = w.committedGroups[c.lane];
    if (in.op == Op::CpAsyncWaitAll) {
      uint32_t keep[kWarpSize] = {};
      landCopies(w, mask, keep);
    }
    return;
  }
  case Op::CpAsyncWait: {
    uint32_t keep[kWarpSize];
    for (uint32_t m = mask; m; m &= m - 1) {
      int l = __builtin_ctz(m);
      keep[l] = static_cast<uint32_t>(read(w, in.ops[0], l));
    }
    landCopies(w, mask, keep);
    return;
  }
  case Op::CpAsyncBulkCommit:
  case Op::CpAsyncBulkWait:
    return; // TMA stores complete at issue
  case Op::CpAsyncBulkTensor: {
    bool store = in.flags & kStore;
    const Operand &mapOp = in.ops[store ? 0 : 1];
    const Operand &smemOp = in.ops[store ? 1 : 0];
    forLanes([&](int l) {
      uint64_t mapAddress = address(w, mapOp, l);
      uint8_t *raw = access(w, l, Space::Generic, mapAddress, 128,
                            Access::Read, 64);
      if (!raw)
        return false;
      TensorMap map;
      std::memcpy(&map, raw, sizeof(map));
      if (map.magic != TensorMap::kMagic) {
        fail(LaunchError::IllegalAddress, w, l,
             "the tensor map operand does not point to a tensor map made by "
             "cuTensorMapEncodeTiled");
        return false;
      }
      if (map.rank != in.k || mapOp.count != in.k) {
        fail(LaunchError::IllegalInstruction, w, l,
             "a " + std::to_string(in.k) + "-d tensor copy with a rank-" +
                 std::to_string(map.rank) + " tensor map");
        return false;
      }
      for (int i = 0; i < map.rank; ++i)
        if (map.elementStrides[i] != 1) {
          fail(LaunchError::IllegalInstruction, w, l,
               "tensor maps with element strides other than 1 are not "
               "supported by the emulator",
               /*fatal=*/true);
          return false;
        }
      int64_t coord[5] = {0, 0, 0, 0, 0};
      for (int i = 0; i < map.rank; ++i)
        coord[i] = signExtend(read(w, kernel.pool[mapOp.first + i], l), 32);
      uint64_t smem = address(w, smemOp, l);
      Cta *target;
      uint32_t offset;
      Space space = store ? in.space2 : in.space;
      uint32_t swz = map.swizzleBytes();
      uint32_t align = swz ? swz * 8 : 128;
      uint64_t bytes = map.boxBytes();
      if (!sharedTarget(w, space, smem, target, offset) ||
          offset + bytes > target->sharedSize) {
        fail(LaunchError::IllegalAddress, w, l,
             "TMA shared memory box at " + std::to_string(smem) + " (" +
                 std::to_string(bytes) +
                 " bytes) is outside the CTA's shared memory");
        return false;
      }
      if (offset % align) {
        fail(LaunchError::MisalignedAddress, w, l,
             "TMA shared memory box at offset " + std::to_string(offset) +
                 " is not " + std::to_string(align) + "-byte aligned");
        return false;
      }
      uint32_t e = map.elementBytes;
      uint32_t rowElems = map.boxDim[0];
      uint64_t rows = bytes / (uint64_t(rowElems) * e);
      std::vector<uint8_t> data(bytes, 0);
      // Walk the box: row r covers the inner dimension at outer indices
      // decoded from r.
      for (uint64_t r = 0; r < rows; ++r) {
        int64_t outer[5] = {0, 0, 0, 0, 0};
        uint64_t rest = r;
        bool inside = true;
        uint64_t base = 0;
        for (int d = 1; d < map.rank; ++d) {
          outer[d] = static_cast<int64_t>(rest % map.boxDim[d]) + coord[d];
          rest /= map.boxDim[d];
          if (outer[d] < 0 || outer[d] >= int64_t(map.globalDim[d]))
            inside = false;
          else
            base += static_cast<uint64_t>(outer[d]) * map.globalStrides[d - 1];
        }
        for (uint32_t c = 0; c < rowElems; ++c) {
          int64_t x = coord[0] + c;
          uint64_t boxOffset = (r * rowElems + c) * e;
          uint32_t smemAddr = swizzleAddress(
              offset + static_cast<uint32_t>(boxOffset), swz);
          uint32_t dataOffset = smemAddr - offset;
          bool valid = inside && x >= 0 && x < int64_t(map.globalDim[0]);
          uint64_t g = map.globalAddress + base + static_cast<uint64_t>(x) * e;
          if (store) {
            if (!valid)
              continue;
            uint8_t *s = sharedAccess(w, l, *target, smemAddr, e, Access::Read);
            uint8_t *d = s ? globalBytes(w, l, g, e, true) : nullptr;
            if (!d)
              return false;
            std::memcpy(d, s, e);
            continue;
          }
          if (!valid) {
            if (map.oobFill == 1) {
              // NaN fill for float types.
              if (e == 2)
                data[dataOffset] = 0xff, data[dataOffset + 1] = 0x7f;
              else if (e == 4)
                std::memcpy(&data[dataOffset], &kCanonicalNaN32, 4);
            }
            continue;
          }
          uint8_t *p = globalBytes(w, l, g, e, false);
          if (!p)
            return false;
          std::memcpy(&data[dataOffset], p, e);
        }
      }
      if (store)
        return true;
      uint32_t bar = static_cast<uint32_t>(address(w, in.ops[2], l)) & 0xffffff;
      if (!target->mbarriers.count(bar)) {
        fail(LaunchError::LaunchFailed, w, l,
             "TMA copy completes on shared offset " + std::to_string(bar) +
                 ", where no mbarrier was initialized");
        return false;
      }
      for (uint64_t b = 0; b < bytes; ++b) {
        const SpecialByte &s = target->special[offset + b];
        const ShadowByte &sh = target->shadow[offset + b];
        if (s.asyncReads) {
          fail(LaunchError::LaunchFailed, w, l,
               "a TMA copy overwrites shared memory that an in-flight "
               "wgmma.mma_async reads (missing wgmma.wait_group before "
               "reusing the buffer)");
          return false;
        }
        if (s.mbarrier) {
          fail(LaunchError::LaunchFailed, w, l,
               "a TMA copy into offset " + std::to_string(offset) + " (" +
                   std::to_string(bytes) +
                   " bytes) overwrites a live mbarrier object at offset " +
                   std::to_string(offset + b));
          return false;
        }
        if (opts.races && sh.readEpoch == target->epoch && s.pending == 0) {
          fail(LaunchError::LaunchFailed, w, l,
               "shared memory race: a TMA copy into offset " +
                   std::to_string(offset + b) +
                   " overwrites data read since the last barrier");
          return false;
        }
      }
      updateSpecial(*target, offset, static_cast<uint32_t>(bytes),
                    [](SpecialByte &b) { b.pending++; });
      target->tma.push_back({offset, bar, in.line, std::move(data)});
      return true;
    });
    return;
  }
  case Op::MbarInit:
  case Op::MbarArrive:
  case Op::MbarExpectTx:
  case Op::MbarCompleteTx:
  case Op::MbarTestWait:
  case Op::MbarTryWait:
  case Op::MbarInval: {
    int addrIndex = (in.op == Op::MbarInit || in.op == Op::MbarExpectTx ||
                     in.op == Op::MbarCompleteTx || in.op == Op::MbarInval)
                        ? 0
                        : 1;
    const Operand &addrOp = in.ops[addrIndex];
    bool allReady = true;
    uint64_t results[kWarpSize];
    forLanes([&](int l) {
      uint64_t a = address(w, addrOp, l);
      Space space = in.space;
      Cta *target;
      uint32_t offset;
      if (!sharedTarget(w, space == Space::Generic ? Space::Generic
                           : space == Space::SharedCluster
                               ? Space::SharedCluster
                               : Space::Shared,
                        a, target, offset) ||
          offset % 8 || offset + 8 > target->sharedSize) {
        fail(LaunchError::IllegalAddress, w, l,
             "mbarrier address " + std::to_string(a) +
                 " is not an 8-byte aligned shared memory address");
        return false;
      }
      if (in.op == Op::MbarInit) {
        uint32_t count = static_cast<uint32_t>(read(w, in.ops[1], l));
        if (count == 0 || count >= (1u << 20)) {
          fail(LaunchError::IllegalInstruction, w, l,
               "mbarrier.init count " + std::to_string(count) +
                   " (1 to 2^20-1)");
          return false;
        }
        for (uint32_t b = 0; b < 8; ++b) {
          if (target->special[offset + b].pending) {
            fail(LaunchError::LaunchFailed, w, l,
                 "mbarrier.init on shared memory an asynchronous copy is "
                 "still writing");
            return false;
          }
          target->shadow[offset + b].writeEpoch = target->epoch;
        }
        updateSpecial(*target, offset, 8,
                      [](SpecialByte &b) { b.mbarrier = 1; });
        MBarrier bar;
        bar.expected = bar.pending = count;
        bar.initLine = in.line;
        target->mbarriers[offset] = bar;
        ++syncEvents;
        return true;
      }
      if (in.op == Op::MbarInval) {
        target->mbarriers.erase(offset);
        updateSpecial(*target, offset, 8,
                      [](SpecialByte &b) { b.mbarrier = 0; });
        return true;
      }
      if (in.op == Op::MbarTestWait || in.op == Op::MbarTryWait)
        landTma(*target, offset);
      MBarrier *bar = findMbarrier(w, l, *target, offset);
      if (!bar)
        return false;
      switch (in.op) {
      case Op::MbarArrive: {
        uint32_t count = 1;
        if (in.flags & kExpectTx) {
          bar->tx += static_cast<int64_t>(read(w, in.ops[2], l) & 0xfffff);
          if (in.numOperands > 3)
            count = static_cast<uint32_t>(read(w, in.ops[3], l));
        } else if (in.numOperands > 2) {
          count = static_cast<uint32_t>(read(w, in.ops[2], l));
        }
        if (count > bar->pending) {
          fail(LaunchError::LaunchFailed, w, l,
               "mbarrier arrive with more arrivals than the phase has "
               "pending (" + std::to_string(count) + " > " +
                   std::to_string(bar->pending) + ")");
          return false;
        }
        uint64_t token = bar->phase;
        if (in.flags & kDrop)
          bar->expected -= std::min(bar->expected, count);
        if (in.flags & kNoComplete) {
          bar->pending -= count;
          if (bar->pending == 0) {
            fail(LaunchError::LaunchFailed, w, l,
                 "mbarrier.arrive.noComplete completed the phase");
            return false;
          }
        } else {
          arrive(*target, *bar, count);
        }
        write(w, in.ops[0], l, token);
        return true;
      }
      case Op::MbarExpectTx:
        bar->tx += static_cast<int64_t>(read(w, in.ops[1], l) & 0xfffff);
        ++syncEvents;
        return true;
      case Op::MbarCompleteTx:
        completeTx(*target, offset,
                   static_cast<int64_t>(read(w, in.ops[1], l) & 0xfffff), w);
        return !aborted();
      default: {
        uint64_t operand = read(w, in.ops[2], l);
        bool done;
        if (in.flags & kParity)
          done = (bar->phase & 1) != (operand & 1);
        else
          done = bar->phase > operand;
        results[l] = done;
        if (!done)
          allReady = false;
        return true;
      }
      }
    });
    if (aborted())
      return;
    if (in.op == Op::MbarTestWait || in.op == Op::MbarTryWait) {
      for (uint32_t m = mask; m; m &= m - 1) {
        int l = __builtin_ctz(m);
        write(w, in.ops[0], l, results[l]);
      }
      if (!allReady)
        w.yielded = true; // let the other warps make progress
    }
    return;
  }
  case Op::MbarPendingCount: {
    forLanes([&](int l) {
      write(w, in.ops[0], l, 0);
      return true;
    });
    return;
  }
  default:
    fail(LaunchError::IllegalInstruction, w, __builtin_ctz(mask),
         "internal error: asynchronous instruction not dispatched",
         /*fatal=*/true);
    return;
  }
}

} // namespace emu
} // namespace amp
