//===- Memory.cpp - Memory access and memory instructions -----------------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Every access to memory with its checks (bounds, alignment, races,
// uninitialized shared memory, asynchronous data not landed, mbarriers) and
// the memory instructions ld, st, atom, red, cvta and isspacep (PTX ISA,
// "Data Movement and Conversion Instructions", "Parallel Synchronization
// and Communication Instructions").
//
//===----------------------------------------------------------------------===//

#include "ScalarOps.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>

namespace amp {
namespace emu {

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
                                           uint32_t size, Launch::Access kind) {
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
  const uint16_t writer =
      kind == Access::AsyncWrite ? static_cast<uint16_t>(kAsyncAgent) : self;
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
      fail(LaunchError::IllegalAddress, w, lane, "store to a kernel parameter");
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
      return access(w, lane, Space::Local, address - kLocalWindow, size, kind,
                    align);
    return globalBytes(w, lane, address, size, kind != Access::Read);
  }
  return nullptr;
}

namespace {

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

} // namespace

//===----------------------------------------------------------------------===//
// Memory instructions
//===----------------------------------------------------------------------===//

void Launch::executeMemory(Warp &w, const Instruction &in, uint32_t mask) {
  uint64_t bufA[kWarpSize], bufB[kWarpSize], bufC[kWarpSize];
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
  switch (in.op) {
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
        r = (maskBits(old, bits) == 0 ||
             maskBits(old, bits) > maskBits(v, bits))
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
  default:
    fail(LaunchError::IllegalInstruction, w, __builtin_ctz(mask),
         "internal error: instruction not dispatched", /*fatal=*/true);
    return;
  }
}

} // namespace emu
} // namespace amp
