//===- PtxDecoder.h - Decoding PTX instructions -----------------*- C++ -*-===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Internal to the emulator: the decoder of one instruction (its opcode's
// modifiers consumed as they are recognized, its operands typed), shared by
// PtxDecoder.cpp (scalar, memory, control and synchronization
// instructions) and PtxDecodeTensorCore.cpp (Tensor Core and asynchronous
// copy instructions).
//
//===----------------------------------------------------------------------===//

#ifndef AMP_EMULATOR_PTXDECODER_H
#define AMP_EMULATOR_PTXDECODER_H

#include "PtxText.h"

namespace amp {
namespace emu {

/// The modifiers of an opcode, consumed as the decoder recognizes them.
class Mods {
public:
  explicit Mods(const std::string &opcode) {
    size_t start = 0;
    while (start <= opcode.size()) {
      size_t dot = opcode.find('.', start);
      if (dot == std::string::npos)
        dot = opcode.size();
      parts.push_back(opcode.substr(start, dot - start));
      start = dot + 1;
    }
    used.assign(parts.size(), false);
    used[0] = true;
  }
  const std::string &base() const { return parts[0]; }
  bool take(const char *m) {
    for (size_t i = 1; i < parts.size(); ++i)
      if (!used[i] && parts[i] == m) {
        used[i] = true;
        return true;
      }
    return false;
  }
  bool has(const char *m) const {
    for (size_t i = 1; i < parts.size(); ++i)
      if (parts[i] == m)
        return true;
    return false;
  }
  /// Consumes every modifier that names a type, in order.
  std::vector<Type> takeTypes() {
    std::vector<Type> types;
    for (size_t i = 1; i < parts.size(); ++i) {
      Type t;
      if (!used[i] && parseTypeName(parts[i], t)) {
        used[i] = true;
        types.push_back(t);
      }
    }
    return types;
  }
  Rounding takeRounding() {
    static const std::pair<const char *, Rounding> names[] = {
        {"rn", Rounding::NearestEven},  {"rz", Rounding::Zero},
        {"rm", Rounding::Down},         {"rp", Rounding::Up},
        {"rna", Rounding::NearestAway}, {"rni", Rounding::NearestEven},
        {"rzi", Rounding::Zero},        {"rmi", Rounding::Down},
        {"rpi", Rounding::Up},
    };
    for (const auto &n : names)
      if (take(n.first)) {
        lastRoundingIntegral =
            std::string(n.first).size() == 3 && n.first[2] == 'i';
        return n.second;
      }
    return Rounding::Default;
  }
  bool takeSpace(Space &space) {
    for (size_t i = 1; i < parts.size(); ++i) {
      if (!used[i] && parseSpaceName(parts[i], space)) {
        used[i] = true;
        return true;
      }
    }
    return false;
  }
  /// Consumes modifiers that do not change what a single-threaded model
  /// computes: memory-model qualifiers, cache hints, .sync/.aligned.
  void takeHarmless() {
    static const char *names[] = {
        "sync",
        "uni",
        "volatile",
        "relaxed",
        "acquire",
        "release",
        "acq_rel",
        "weak",
        "mmio",
        "cta",
        "gpu",
        "sys",
        "cluster",
        "ca",
        "cg",
        "cs",
        "lu",
        "cv",
        "wb",
        "wt",
        "nc",
        "L1::evict_normal",
        "L1::evict_unchanged",
        "L1::evict_first",
        "L1::evict_last",
        "L1::no_allocate",
        "L2::64B",
        "L2::128B",
        "L2::256B",
        "L2::cache_hint",
        "L2::evict_first",
        "L2::evict_last",
        "L2::evict_normal",
        "L2::evict_unchanged",
        "level::cache_hint",
        "level::prefetch_size",
        "noftz",
        "sem",
        "scope",
        "aligned",
    };
    for (size_t i = 1; i < parts.size(); ++i)
      for (const char *n : names)
        if (parts[i] == n)
          used[i] = true;
  }
  /// The first modifier not consumed, or empty.
  std::string leftover() const {
    for (size_t i = 1; i < parts.size(); ++i)
      if (!used[i])
        return parts[i];
    return "";
  }
  bool lastRoundingIntegral = false;
  std::vector<std::string> parts;
  std::vector<bool> used;
};

struct ArithmeticForm;

struct Decoder {
  Kernel &k;
  Mods m;
  const std::vector<RawOperand> &raw;
  Instruction &in;
  std::string &unsupported;
  std::string &error;
  const std::function<bool(const RawOperand &, Type, Operand &, std::string &)>
      &conv;
  std::vector<std::pair<int, std::string>> &labels;

  /// Marks the instruction unsupported (not an error until executed).
  bool unsupportedBecause(const std::string &why) {
    in.op = Op::Unsupported;
    unsupported = why;
    return true;
  }
  bool operands(std::initializer_list<Type> types) {
    if (raw.size() != types.size()) {
      error = "'" + m.parts[0] + "' expects " + std::to_string(types.size()) +
              " operands, got " + std::to_string(raw.size());
      return false;
    }
    return operandsAtLeast(types.size(), types);
  }
  /// At least `min` operands, typed by `types` (the last type repeats).
  bool operandsAtLeast(size_t min, std::initializer_list<Type> types) {
    if (raw.size() < min || raw.size() > kMaxOperands) {
      error = "'" + m.parts[0] + "' has a wrong number of operands";
      return false;
    }
    size_t i = 0;
    auto it = types.begin();
    for (; i < raw.size(); ++i) {
      Type t = it != types.end()
                   ? *it
                   : (types.size() ? *(types.end() - 1) : Type::None);
      if (it != types.end())
        ++it;
      std::string why;
      if (!conv(raw[i], t, in.ops[i], why)) {
        error = why;
        return false;
      }
      if (in.ops[i].kind == OperandKind::Label)
        labels.push_back({static_cast<int>(i), raw[i].name});
    }
    in.numOperands = static_cast<uint8_t>(raw.size());
    return true;
  }
  /// Finishes: leftover modifiers make the instruction unsupported.
  bool done() {
    m.takeHarmless();
    std::string rest = m.leftover();
    if (!rest.empty() && in.op != Op::Unsupported)
      return unsupportedBecause("modifier ." + rest + " is not supported");
    return true;
  }
  Type oneType() {
    std::vector<Type> t = m.takeTypes();
    return t.empty() ? Type::None : t.back();
  }

  bool decode();
  bool decodeArithmetic(const ArithmeticForm &form, Type t);
  /// Operands typed by a signature: T the instruction type, W its wide
  /// form, U u32, B b32, P pred (destination first).
  bool operandsOfSignature(const char *signature, Type t,
                           Type wide = Type::None) {
    std::vector<Type> types;
    for (const char *c = signature; *c; ++c)
      types.push_back(*c == 'T'   ? t
                      : *c == 'W' ? wide
                      : *c == 'U' ? Type::U32
                      : *c == 'B' ? Type::B32
                                  : Type::Pred);
    if (raw.size() != types.size()) {
      error = "'" + m.parts[0] + "' expects " + std::to_string(types.size()) +
              " operands, got " + std::to_string(raw.size());
      return false;
    }
    for (size_t i = 0; i < raw.size(); ++i) {
      std::string why;
      if (!conv(raw[i], types[i], in.ops[i], why)) {
        error = why;
        return false;
      }
    }
    in.numOperands = static_cast<uint8_t>(raw.size());
    return true;
  }
  bool decodeLdSt(bool isStore);
  bool decodeCvt();
  bool decodeCpAsync();
  bool decodeMbarrier();
  bool decodeMma();
  bool decodeWgmma();
  bool decodeBarrier();
  bool decodeAtom(bool isRed);
  bool decodeMatrixLoadStore();
};

} // namespace emu
} // namespace amp

#endif // AMP_EMULATOR_PTXDECODER_H
