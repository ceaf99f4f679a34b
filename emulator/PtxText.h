//===- PtxText.h - PTX text: tokens, literals, raw operands -----*- C++ -*-===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Internal to the emulator: what the lexer (PtxLexer.cpp), the parser
// (PtxParser.cpp) and the instruction decoder (PtxDecoder.cpp,
// PtxDecodeTensorCore.cpp) share: tokens, literals, type and state-space
// names, and instruction operands as written.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_EMULATOR_PTXTEXT_H
#define AMP_EMULATOR_PTXTEXT_H

#include "Ptx.h"

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace amp {
namespace emu {

//===----------------------------------------------------------------------===//
// Tokens (PtxLexer.cpp)
//===----------------------------------------------------------------------===//

enum class Tok { End, Ident, Number, String, Punct };

struct Token {
  Tok kind = Tok::End;
  std::string text;
  uint32_t line = 0;
  uint32_t offset = 0; // in the source
};

/// The tokens of PTX text, ending with a Tok::End token.
std::vector<Token> lex(const std::string &s);

//===----------------------------------------------------------------------===//
// Literals and names (PtxLexer.cpp)
//===----------------------------------------------------------------------===//

/// A literal: an integer or a float (hex float bits of f32/f64, or decimal).
struct Literal {
  bool isFloat = false;
  bool isF32Bits = false; // 0f...
  bool isF64Bits = false; // 0d...
  uint64_t bits = 0;      // integer value or float bits
  double value = 0;       // decimal float
};

/// Parses a number as PTX writes it (decimal, hex, octal, binary, 0f/0d
/// float bits, decimal floats).
bool parseLiteral(std::string text, bool negative, Literal &lit);
/// The bits of `lit` as a value of type `t`.
uint64_t literalBits(const Literal &lit, Type t);
/// A type modifier without its dot (`f32`), or false.
bool parseTypeName(const std::string &s, Type &t);
/// A state-space modifier without its dot (`shared::cta`), or false.
bool parseSpaceName(const std::string &s, Space &space);

//===----------------------------------------------------------------------===//
// Instruction operands as written
//===----------------------------------------------------------------------===//

struct RawOperand {
  enum Kind { Name, Number, Address, Vector, Sink } kind = Name;
  std::string name;                 // Name; Address base (may be empty)
  std::string name2;                // p|q: the second predicate
  bool negate = false;              // !%p
  Literal lit;                      // Number
  int64_t offset = 0;               // Address
  std::vector<RawOperand> elements; // Vector; Address: TMA coordinates
  uint32_t line = 0;
};

/// Resolves a raw operand for an operand of type `type` (registers, labels,
/// symbols, immediates); false with `why` set when it cannot.
using OperandConverter =
    std::function<bool(const RawOperand &, Type, Operand &, std::string &)>;

/// Decodes one instruction of `k` from its opcode and raw operands
/// (PtxDecoder.cpp). Sets `in.op = Op::Unsupported` and `unsupported` to a
/// reason when the instruction is not one the emulator implements; returns
/// false with `error` set on text that is not a valid instruction. `conv`
/// resolves a raw operand for a type; `labels` receives the label operands
/// (operand index, or -1 for a branch target, and name).
bool decodeInstruction(Kernel &k, const std::string &opcode,
                       const std::vector<RawOperand> &raw, Instruction &in,
                       std::string &unsupported, std::string &error,
                       const OperandConverter &conv,
                       std::vector<std::pair<int, std::string>> &labels);

} // namespace emu
} // namespace amp

#endif // AMP_EMULATOR_PTXTEXT_H
