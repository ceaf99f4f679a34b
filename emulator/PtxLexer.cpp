//===- PtxLexer.cpp - PTX tokens, literals and names ----------------------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The lexer of PTX text, its numeric literals, and the names of types and
// state spaces (PTX ISA, "Syntax": tokens, "Constants", "Types", "State
// Spaces").
//
//===----------------------------------------------------------------------===//

#include "PtxText.h"

#include <cctype>
#include <cstdlib>
#include <cstring>

namespace amp {
namespace emu {

//===----------------------------------------------------------------------===//
// Types and names
//===----------------------------------------------------------------------===//

int typeBits(Type t) {
  switch (t) {
  case Type::Pred:
    return 1;
  case Type::B8:
  case Type::U8:
  case Type::S8:
  case Type::E4M3:
  case Type::E5M2:
    return 8;
  case Type::B16:
  case Type::U16:
  case Type::S16:
  case Type::F16:
  case Type::BF16:
  case Type::E4M3x2:
  case Type::E5M2x2:
    return 16;
  case Type::B32:
  case Type::U32:
  case Type::S32:
  case Type::F32:
  case Type::F16x2:
  case Type::BF16x2:
  case Type::TF32:
    return 32;
  case Type::B64:
  case Type::U64:
  case Type::S64:
  case Type::F64:
    return 64;
  case Type::B128:
    return 128;
  case Type::None:
    return 0;
  }
  return 0;
}

bool isSignedInt(Type t) {
  return t == Type::S8 || t == Type::S16 || t == Type::S32 || t == Type::S64;
}

bool isFloatType(Type t) {
  switch (t) {
  case Type::F16:
  case Type::F16x2:
  case Type::BF16:
  case Type::BF16x2:
  case Type::F32:
  case Type::F64:
  case Type::TF32:
  case Type::E4M3:
  case Type::E5M2:
  case Type::E4M3x2:
  case Type::E5M2x2:
    return true;
  default:
    return false;
  }
}

static const std::pair<const char *, Type> kTypeNames[] = {
    {"pred", Type::Pred},     {"b8", Type::B8},     {"b16", Type::B16},
    {"b32", Type::B32},       {"b64", Type::B64},   {"b128", Type::B128},
    {"u8", Type::U8},         {"u16", Type::U16},   {"u32", Type::U32},
    {"u64", Type::U64},       {"s8", Type::S8},     {"s16", Type::S16},
    {"s32", Type::S32},       {"s64", Type::S64},   {"f16", Type::F16},
    {"f16x2", Type::F16x2},   {"bf16", Type::BF16}, {"bf16x2", Type::BF16x2},
    {"f32", Type::F32},       {"f64", Type::F64},   {"tf32", Type::TF32},
    {"e4m3", Type::E4M3},     {"e5m2", Type::E5M2}, {"e4m3x2", Type::E4M3x2},
    {"e5m2x2", Type::E5M2x2},
};

const char *typeName(Type t) {
  for (const auto &entry : kTypeNames)
    if (entry.second == t)
      return entry.first;
  return "none";
}

bool parseTypeName(const std::string &s, Type &t) {
  for (const auto &entry : kTypeNames)
    if (s == entry.first) {
      t = entry.second;
      return true;
    }
  return false;
}

const char *spaceName(Space s) {
  switch (s) {
  case Space::Generic:
    return "generic";
  case Space::Global:
    return "global";
  case Space::Shared:
    return "shared";
  case Space::SharedCluster:
    return "shared::cluster";
  case Space::Local:
    return "local";
  case Space::Param:
    return "param";
  case Space::Const:
    return "const";
  }
  return "?";
}

bool parseSpaceName(const std::string &s, Space &space) {
  if (s == "global")
    space = Space::Global;
  else if (s == "shared" || s == "shared::cta")
    space = Space::Shared;
  else if (s == "shared::cluster")
    space = Space::SharedCluster;
  else if (s == "local")
    space = Space::Local;
  else if (s == "param" || s == "param::entry" || s == "param::func")
    space = Space::Param;
  else if (s == "const")
    space = Space::Const;
  else
    return false;
  return true;
}

//===----------------------------------------------------------------------===//
// Lexer
//===----------------------------------------------------------------------===//

static bool isIdentStart(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) || c == '_' || c == '$' ||
         c == '%' || c == '.';
}
static bool isIdentChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$' ||
         c == '%' || c == '.';
}

std::vector<Token> lex(const std::string &s) {
  std::vector<Token> tokens;
  uint32_t line = 1;
  size_t i = 0, n = s.size();
  while (i < n) {
    char c = s[i];
    if (c == '\n') {
      ++line;
      ++i;
      continue;
    }
    if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
      continue;
    }
    if (c == '/' && i + 1 < n && s[i + 1] == '/') {
      while (i < n && s[i] != '\n')
        ++i;
      continue;
    }
    if (c == '/' && i + 1 < n && s[i + 1] == '*') {
      i += 2;
      while (i + 1 < n && !(s[i] == '*' && s[i + 1] == '/')) {
        if (s[i] == '\n')
          ++line;
        ++i;
      }
      i += 2;
      continue;
    }
    Token t;
    t.line = line;
    t.offset = static_cast<uint32_t>(i);
    if (c == '"') {
      size_t j = i + 1;
      while (j < n && s[j] != '"') {
        if (s[j] == '\\')
          ++j;
        ++j;
      }
      t.kind = Tok::String;
      t.text = s.substr(i + 1, j - i - 1);
      i = j + 1;
    } else if (std::isdigit(static_cast<unsigned char>(c))) {
      size_t j = i;
      bool hex = c == '0' && j + 1 < n &&
                 (s[j + 1] == 'x' || s[j + 1] == 'X' || s[j + 1] == 'f' ||
                  s[j + 1] == 'F' || s[j + 1] == 'd' || s[j + 1] == 'D');
      while (j < n &&
             (std::isalnum(static_cast<unsigned char>(s[j])) || s[j] == '.' ||
              (!hex && (s[j] == '+' || s[j] == '-') &&
               (s[j - 1] == 'e' || s[j - 1] == 'E'))))
        ++j;
      t.kind = Tok::Number;
      t.text = s.substr(i, j - i);
      i = j;
    } else if (isIdentStart(c)) {
      size_t j = i;
      while (j < n) {
        if (isIdentChar(s[j])) {
          ++j;
        } else if (s[j] == ':' && j + 1 < n && s[j + 1] == ':') {
          j += 2;
        } else {
          break;
        }
      }
      t.kind = Tok::Ident;
      t.text = s.substr(i, j - i);
      i = j;
    } else {
      t.kind = Tok::Punct;
      t.text = std::string(1, c);
      ++i;
    }
    tokens.push_back(std::move(t));
  }
  Token end;
  end.line = line;
  end.offset = static_cast<uint32_t>(n);
  tokens.push_back(end);
  return tokens;
}

//===----------------------------------------------------------------------===//
// Numbers
//===----------------------------------------------------------------------===//

bool parseLiteral(std::string text, bool negative, Literal &lit) {
  if (!text.empty() && (text.back() == 'U' || text.back() == 'u'))
    text.pop_back();
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'f' || text[1] == 'F')) {
    lit.isFloat = lit.isF32Bits = true;
    lit.bits = std::strtoull(text.c_str() + 2, nullptr, 16);
    if (negative)
      lit.bits ^= 0x80000000u;
    return true;
  }
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'd' || text[1] == 'D')) {
    lit.isFloat = lit.isF64Bits = true;
    lit.bits = std::strtoull(text.c_str() + 2, nullptr, 16);
    if (negative)
      lit.bits ^= 0x8000000000000000ull;
    return true;
  }
  if (text.find('.') != std::string::npos ||
      ((text.find('e') != std::string::npos ||
        text.find('E') != std::string::npos) &&
       !(text.size() > 1 && (text[1] == 'x' || text[1] == 'X')))) {
    char *end = nullptr;
    lit.isFloat = true;
    lit.value = std::strtod(text.c_str(), &end);
    if (negative)
      lit.value = -lit.value;
    return end && *end == 0;
  }
  char *end = nullptr;
  uint64_t v;
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'b' || text[1] == 'B'))
    v = std::strtoull(text.c_str() + 2, &end, 2);
  else if (text.size() > 2 && text[0] == '0' &&
           (text[1] == 'x' || text[1] == 'X'))
    v = std::strtoull(text.c_str() + 2, &end, 16);
  else if (text.size() > 1 && text[0] == '0')
    v = std::strtoull(text.c_str() + 1, &end, 8);
  else
    v = std::strtoull(text.c_str(), &end, 10);
  if (!end || *end != 0)
    return false;
  lit.bits = negative ? uint64_t(0) - v : v;
  return true;
}

/// The bits of a literal used as an operand of type `t`.
uint64_t literalBits(const Literal &lit, Type t) {
  auto asDouble = [&]() -> double {
    if (lit.isF32Bits)
      return floatOf(static_cast<uint32_t>(lit.bits));
    if (lit.isF64Bits)
      return doubleOf(lit.bits);
    if (lit.isFloat)
      return lit.value;
    return static_cast<double>(static_cast<int64_t>(lit.bits));
  };
  switch (t) {
  case Type::F32:
    if (lit.isF32Bits)
      return lit.bits & 0xffffffffu;
    return bitsOf(static_cast<float>(asDouble()));
  case Type::F64:
    if (lit.isF64Bits)
      return lit.bits;
    return bitsOf(asDouble());
  case Type::F16:
    if (!lit.isFloat)
      return lit.bits & 0xffff;
    return toHalf(asDouble());
  case Type::BF16:
    if (!lit.isFloat)
      return lit.bits & 0xffff;
    return toBFloat(asDouble());
  default:
    if (lit.isF32Bits)
      return lit.bits & 0xffffffffu;
    if (lit.isF64Bits)
      return lit.bits;
    if (lit.isFloat)
      return static_cast<uint64_t>(static_cast<int64_t>(lit.value));
    return lit.bits;
  }
}

} // namespace emu
} // namespace amp
