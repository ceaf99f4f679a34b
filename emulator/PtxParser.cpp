//===- PtxParser.cpp - Parse and decode PTX text --------------------------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A lexer and a recursive-descent parser for the PTX that LLVM's NVPTX back
// end and inline assembly produce: module directives, variables with
// initializers, kernels with parameters and performance directives, nested
// `{ }` scopes with their own registers and labels (inline asm), and
// instructions, which are decoded into `Instruction`s on the spot.
//
// Grammar and instruction semantics follow the PTX ISA (NVIDIA, "Parallel
// Thread Execution ISA", versions 8.0-8.7).
//
//===----------------------------------------------------------------------===//

#include "Ptx.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <functional>
#include <set>
#include <sstream>
#include <unordered_map>

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
    return true;
  default:
    return false;
  }
}

static const std::pair<const char *, Type> kTypeNames[] = {
    {"pred", Type::Pred}, {"b8", Type::B8},       {"b16", Type::B16},
    {"b32", Type::B32},   {"b64", Type::B64},     {"b128", Type::B128},
    {"u8", Type::U8},     {"u16", Type::U16},     {"u32", Type::U32},
    {"u64", Type::U64},   {"s8", Type::S8},       {"s16", Type::S16},
    {"s32", Type::S32},   {"s64", Type::S64},     {"f16", Type::F16},
    {"f16x2", Type::F16x2}, {"bf16", Type::BF16}, {"bf16x2", Type::BF16x2},
    {"f32", Type::F32},   {"f64", Type::F64},     {"tf32", Type::TF32},
    {"e4m3", Type::E4M3}, {"e5m2", Type::E5M2},
};

const char *typeName(Type t) {
  for (const auto &entry : kTypeNames)
    if (entry.second == t)
      return entry.first;
  return "none";
}

static bool parseTypeName(const std::string &s, Type &t) {
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

static bool parseSpaceName(const std::string &s, Space &space) {
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

static const std::pair<const char *, Special> kSpecialNames[] = {
    {"%tid.x", Special::TidX},
    {"%tid.y", Special::TidY},
    {"%tid.z", Special::TidZ},
    {"%ntid.x", Special::NtidX},
    {"%ntid.y", Special::NtidY},
    {"%ntid.z", Special::NtidZ},
    {"%ctaid.x", Special::CtaidX},
    {"%ctaid.y", Special::CtaidY},
    {"%ctaid.z", Special::CtaidZ},
    {"%nctaid.x", Special::NctaidX},
    {"%nctaid.y", Special::NctaidY},
    {"%nctaid.z", Special::NctaidZ},
    {"%laneid", Special::LaneId},
    {"%warpid", Special::WarpId},
    {"%nwarpid", Special::NWarpId},
    {"%smid", Special::SmId},
    {"%nsmid", Special::NSmId},
    {"%gridid", Special::GridId},
    {"%lanemask_eq", Special::LanemaskEq},
    {"%lanemask_le", Special::LanemaskLe},
    {"%lanemask_lt", Special::LanemaskLt},
    {"%lanemask_ge", Special::LanemaskGe},
    {"%lanemask_gt", Special::LanemaskGt},
    {"%clock", Special::Clock},
    {"%clock64", Special::Clock64},
    {"%globaltimer", Special::GlobalTimer},
    {"%dynamic_smem_size", Special::DynamicSmemSize},
    {"%total_smem_size", Special::TotalSmemSize},
    {"%cluster_ctarank", Special::ClusterCtaRank},
    {"%cluster_nctarank", Special::ClusterNctaRank},
    {"%clusterid.x", Special::ClusterIdX},
    {"%clusterid.y", Special::ClusterIdY},
    {"%clusterid.z", Special::ClusterIdZ},
    {"%nclusterid.x", Special::NClusterIdX},
    {"%nclusterid.y", Special::NClusterIdY},
    {"%nclusterid.z", Special::NClusterIdZ},
    {"%cluster_ctaid.x", Special::ClusterCtaidX},
    {"%cluster_ctaid.y", Special::ClusterCtaidY},
    {"%cluster_ctaid.z", Special::ClusterCtaidZ},
    {"%cluster_nctaid.x", Special::ClusterNctaidX},
    {"%cluster_nctaid.y", Special::ClusterNctaidY},
    {"%cluster_nctaid.z", Special::ClusterNctaidZ},
    {"%is_explicit_cluster", Special::IsExplicitCluster},
};

namespace {

//===----------------------------------------------------------------------===//
// Lexer
//===----------------------------------------------------------------------===//

enum class Tok { End, Ident, Number, String, Punct };

struct Token {
  Tok kind = Tok::End;
  std::string text;
  uint32_t line = 0;
  uint32_t offset = 0; // in the source
};

bool isIdentStart(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) || c == '_' || c == '$' ||
         c == '%' || c == '.';
}
bool isIdentChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' ||
         c == '$' || c == '%' || c == '.';
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
      while (j < n && (std::isalnum(static_cast<unsigned char>(s[j])) ||
                       s[j] == '.' ||
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

/// A literal: an integer or a float (hex float bits of f32/f64, or decimal).
struct Literal {
  bool isFloat = false;
  bool isF32Bits = false; // 0f...
  bool isF64Bits = false; // 0d...
  uint64_t bits = 0;      // integer value or float bits
  double value = 0;       // decimal float
};

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

//===----------------------------------------------------------------------===//
// Raw operands (text level)
//===----------------------------------------------------------------------===//

struct RawOperand {
  enum Kind { Name, Number, Address, Vector, Sink } kind = Name;
  std::string name;    // Name; Address base (may be empty)
  std::string name2;   // p|q: the second predicate
  bool negate = false; // !%p
  Literal lit;         // Number
  int64_t offset = 0;  // Address
  std::vector<RawOperand> elements; // Vector; Address: TMA coordinates
  uint32_t line = 0;
};

//===----------------------------------------------------------------------===//
// Parser
//===----------------------------------------------------------------------===//

struct Scope {
  int parent = -1;
  std::unordered_map<std::string, int32_t> registers;
  std::unordered_map<std::string, uint32_t> labels;
};

struct PendingBranch {
  uint32_t instruction;
  int operand; // -1: Instruction::target
  std::string label;
  int scope;
};

class Parser {
public:
  Parser(const std::string &text, Module &module)
      : tokens(lex(text)), module(module) {}

  bool parse();
  std::string error;

private:
  // Tokens.
  const Token &peek(size_t ahead = 0) const {
    return tokens[std::min(pos + ahead, tokens.size() - 1)];
  }
  const Token &next() {
    const Token &t = tokens[pos];
    if (pos + 1 < tokens.size())
      ++pos;
    return t;
  }
  bool isPunct(char c, size_t ahead = 0) const {
    return peek(ahead).kind == Tok::Punct && peek(ahead).text[0] == c;
  }
  bool isIdent(const char *s, size_t ahead = 0) const {
    return peek(ahead).kind == Tok::Ident && peek(ahead).text == s;
  }
  bool accept(char c) {
    if (!isPunct(c))
      return false;
    next();
    return true;
  }
  bool expect(char c) {
    if (accept(c))
      return true;
    fail(std::string("expected '") + c + "'");
    return false;
  }
  bool fail(const std::string &message) {
    if (error.empty())
      error = "line " + std::to_string(peek().line) + ": " + message +
              (peek().kind == Tok::End ? " at end of input"
                                       : " near '" + peek().text + "'");
    return false;
  }
  void skipLine() {
    uint32_t line = peek().line;
    while (peek().kind != Tok::End && peek().line == line)
      next();
  }
  void skipStatement() {
    while (peek().kind != Tok::End && !isPunct(';'))
      next();
    accept(';');
  }
  bool parseUnsigned(uint64_t &value) {
    if (peek().kind != Tok::Number)
      return fail("expected a number");
    Literal lit;
    if (!parseLiteral(next().text, false, lit) || lit.isFloat)
      return fail("expected an integer");
    value = lit.bits;
    return true;
  }

  // Module level.
  bool parseVariable(bool isExtern, Kernel *kernel);
  bool parseFunction(bool isEntry);
  bool parseParams(Kernel &k);
  bool parseBody(Kernel &k);
  bool parseRegDecl(Kernel &k);
  bool parseInstruction(Kernel &k);
  bool parseRawOperand(RawOperand &op);
  bool resolveLabels(Kernel &k);

  // Decoding.
  int32_t lookupRegister(const std::string &name) const;
  bool convert(Kernel &k, const RawOperand &raw, Type type, Operand &out,
               std::string &why);

  std::vector<Token> tokens;
  size_t pos = 0;
  Module &module;

  // Function state.
  std::vector<Scope> scopes;
  int currentScope = -1;
  std::vector<PendingBranch> branches;
  std::vector<int32_t> kernelShared;  // module symbols declared in the body
  std::set<int32_t> usedShared;       // module-level shared symbols named
  std::unordered_map<std::string, int32_t> localSymbols; // name -> symbol
};

bool Parser::parse() {
  while (peek().kind != Tok::End) {
    const Token &t = peek();
    if (t.kind != Tok::Ident)
      return fail("expected a directive");
    std::string d = t.text;
    if (d == ".version") {
      next();
      module.version = next().text;
    } else if (d == ".target") {
      next();
      module.target = next().text;
      while (accept(','))
        next();
      if (module.target.rfind("sm_", 0) == 0) {
        module.smVersion = std::atoi(module.target.c_str() + 3);
        module.archSpecific = module.target.back() == 'a';
      }
    } else if (d == ".address_size") {
      next();
      uint64_t size;
      if (!parseUnsigned(size))
        return false;
      if (size != 64)
        return fail("only 64-bit PTX (.address_size 64) is supported");
    } else if (d == ".file" || d == ".loc") {
      skipLine();
    } else if (d == ".section") {
      next();
      next();
      if (accept('{')) {
        int depth = 1;
        while (depth && peek().kind != Tok::End) {
          if (isPunct('{'))
            ++depth;
          if (isPunct('}'))
            --depth;
          next();
        }
      }
    } else if (d == ".pragma" || d == ".alias" || d == ".callprototype") {
      skipStatement();
    } else if (d == ".visible" || d == ".weak" || d == ".common") {
      next();
    } else if (d == ".extern") {
      next();
      if (isIdent(".func") || isIdent(".entry")) {
        // A declaration of an external function: skip it (a call to it is
        // reported when executed).
        skipStatement();
        continue;
      }
      if (!parseVariable(true, nullptr))
        return false;
    } else if (d == ".entry") {
      next();
      if (!parseFunction(true))
        return false;
    } else if (d == ".func") {
      next();
      if (!parseFunction(false))
        return false;
    } else if (d == ".global" || d == ".const" || d == ".shared" ||
               d == ".local") {
      if (!parseVariable(false, nullptr))
        return false;
    } else {
      return fail("unsupported directive " + d);
    }
    if (!error.empty())
      return false;
  }
  return error.empty();
}

/// `.space [.align N] [.vN] .type name[[N]...] [= init];`
bool Parser::parseVariable(bool isExtern, Kernel *kernel) {
  Symbol sym;
  sym.isExtern = isExtern;
  std::string spaceText = next().text.substr(1);
  if (!parseSpaceName(spaceText, sym.space))
    return fail("unsupported state space ." + spaceText);
  Type type = Type::B8;
  uint32_t vec = 1;
  bool alignSet = false;
  while (peek().kind == Tok::Ident && peek().text[0] == '.') {
    std::string m = next().text.substr(1);
    if (m == "align") {
      uint64_t a;
      if (!parseUnsigned(a))
        return false;
      sym.align = static_cast<uint32_t>(a);
      alignSet = true;
    } else if (m == "v2" || m == "v4" || m == "v8") {
      vec = static_cast<uint32_t>(std::atoi(m.c_str() + 1));
    } else if (!parseTypeName(m, type)) {
      if (m == "ptr" || m == "attribute")
        continue;
      return fail("unsupported variable qualifier ." + m);
    }
  }
  if (peek().kind != Tok::Ident)
    return fail("expected a variable name");
  sym.name = next().text;
  uint32_t elemBytes = std::max(1, typeBits(type) / 8) * vec;
  if (!alignSet)
    sym.align = elemBytes;
  uint64_t count = 1;
  bool unsized = false;
  while (accept('[')) {
    if (accept(']')) {
      unsized = true;
      continue;
    }
    uint64_t dim = 0;
    if (!parseUnsigned(dim) || !expect(']'))
      return false;
    count *= dim;
  }
  sym.size = unsized ? 0 : count * elemBytes;
  if (accept('=')) {
    std::vector<uint64_t> values;
    bool braces = accept('{');
    while (!isPunct(';') && !isPunct('}') && peek().kind != Tok::End) {
      bool negative = accept('-');
      if (peek().kind == Tok::Number) {
        Literal lit;
        if (!parseLiteral(next().text, negative, lit))
          return fail("bad initializer");
        values.push_back(literalBits(lit, type));
      } else if (peek().kind == Tok::Ident) {
        // generic(sym) / sym: addresses of other variables; not supported.
        return fail("initializers with addresses are not supported");
      } else {
        next();
      }
      accept(',');
    }
    if (braces && !expect('}'))
      return false;
    uint32_t bytes = std::max(1, typeBits(type) / 8);
    sym.init.assign(sym.size, 0);
    for (size_t i = 0; i < values.size() && (i + 1) * bytes <= sym.size; ++i)
      std::memcpy(sym.init.data() + i * bytes, &values[i], bytes);
  }
  if (!expect(';'))
    return false;
  if (unsized && !(sym.isExtern && sym.space == Space::Shared))
    return fail("an unsized array must be .extern .shared");
  int32_t index = static_cast<int32_t>(module.symbols.size());
  if (kernel) {
    localSymbols[sym.name] = index;
    if (sym.space == Space::Shared)
      kernelShared.push_back(index);
  } else {
    module.symbolIndex[sym.name] = index;
  }
  module.symbols.push_back(std::move(sym));
  return true;
}

bool Parser::parseParams(Kernel &k) {
  if (!expect('('))
    return false;
  while (!isPunct(')')) {
    if (!isIdent(".param") && !isIdent(".reg"))
      return fail("expected .param");
    next();
    Param p;
    Type type = Type::B8;
    uint32_t align = 0;
    while (peek().kind == Tok::Ident && peek().text[0] == '.') {
      std::string m = next().text.substr(1);
      if (m == "align") {
        uint64_t a = 0;
        if (!parseUnsigned(a))
          return false;
        align = static_cast<uint32_t>(a);
      } else if (m == "ptr" || m == "global" || m == "shared" ||
                 m == "const" || m == "local") {
        continue;
      } else if (!parseTypeName(m, type)) {
        return fail("unsupported parameter qualifier ." + m);
      }
    }
    p.name = next().text;
    uint32_t elem = std::max(1, typeBits(type) / 8);
    uint64_t count = 1;
    while (accept('[')) {
      uint64_t dim = 0;
      if (!parseUnsigned(dim) || !expect(']'))
        return false;
      count *= dim;
    }
    p.size = static_cast<uint32_t>(elem * count);
    // A pointer's .align is the alignment of what it points to; the
    // parameter itself is aligned to its type.
    p.align = count > 1 && align ? align : elem;
    k.paramBytes = (k.paramBytes + p.align - 1) / p.align * p.align;
    p.offset = k.paramBytes;
    k.paramBytes += p.size;
    k.params.push_back(p);
    if (!accept(','))
      break;
  }
  return expect(')');
}

/// Sets Instruction::reconverge of every conditional branch: the start of
/// its block's immediate post-dominator in the control-flow graph (threads
/// that diverge there execute each path in turn and continue together from
/// that point, as GPUs do), computed with the iterative algorithm of
/// Cooper, Harvey and Kennedy ("A Simple, Fast Dominance Algorithm") on the
/// reverse graph.
static void computeReconvergence(Kernel &k) {
  uint32_t n = static_cast<uint32_t>(k.code.size());
  if (!n)
    return;
  auto ends = [](const Instruction &in) {
    return in.op == Op::Bra || in.op == Op::Ret || in.op == Op::Exit ||
           in.op == Op::Trap;
  };
  std::vector<bool> leader(n + 1, false);
  leader[0] = true;
  for (uint32_t i = 0; i < n; ++i) {
    const Instruction &in = k.code[i];
    if (in.op == Op::Bra && in.target < n)
      leader[in.target] = true;
    if (ends(in))
      leader[i + 1] = true;
  }
  std::vector<uint32_t> blockOf(n), starts;
  for (uint32_t i = 0; i < n; ++i) {
    if (leader[i])
      starts.push_back(i);
    blockOf[i] = static_cast<uint32_t>(starts.size() - 1);
  }
  uint32_t numBlocks = static_cast<uint32_t>(starts.size());
  uint32_t exit = numBlocks; // the virtual exit node
  std::vector<std::vector<uint32_t>> succ(numBlocks + 1), pred(numBlocks + 1);
  for (uint32_t b = 0; b < numBlocks; ++b) {
    uint32_t last = (b + 1 < numBlocks ? starts[b + 1] : n) - 1;
    const Instruction &in = k.code[last];
    uint32_t next = last + 1 < n ? blockOf[last + 1] : exit;
    bool guarded = in.guard >= 0;
    if (in.op == Op::Bra) {
      succ[b].push_back(in.target < n ? blockOf[in.target] : exit);
      if (guarded)
        succ[b].push_back(next);
    } else if (in.op == Op::Ret || in.op == Op::Exit || in.op == Op::Trap) {
      succ[b].push_back(exit);
      if (guarded)
        succ[b].push_back(next);
    } else {
      succ[b].push_back(next);
    }
    for (uint32_t s : succ[b])
      pred[s].push_back(b);
  }
  // Postorder of the reverse graph from the exit.
  std::vector<int> order(numBlocks + 1, -1);
  std::vector<uint32_t> postorder;
  std::vector<std::pair<uint32_t, size_t>> stack{{exit, 0}};
  order[exit] = 0;
  while (!stack.empty()) {
    auto &[node, index] = stack.back();
    if (index < pred[node].size()) {
      uint32_t p = pred[node][index++];
      if (order[p] == -1) {
        order[p] = 0;
        stack.push_back({p, 0});
      }
      continue;
    }
    order[node] = static_cast<int>(postorder.size());
    postorder.push_back(node);
    stack.pop_back();
  }
  const uint32_t undefined = 0xffffffffu;
  std::vector<uint32_t> ipdom(numBlocks + 1, undefined);
  ipdom[exit] = exit;
  auto intersect = [&](uint32_t a, uint32_t b) {
    while (a != b) {
      while (order[a] < order[b])
        a = ipdom[a];
      while (order[b] < order[a])
        b = ipdom[b];
    }
    return a;
  };
  bool changed = true;
  while (changed) {
    changed = false;
    for (auto it = postorder.rbegin(); it != postorder.rend(); ++it) {
      uint32_t b = *it;
      if (b == exit)
        continue;
      uint32_t idom = undefined;
      for (uint32_t s : succ[b]) {
        if (ipdom[s] == undefined)
          continue;
        idom = idom == undefined ? s : intersect(s, idom);
      }
      if (idom != undefined && ipdom[b] != idom) {
        ipdom[b] = idom;
        changed = true;
      }
    }
  }
  for (uint32_t i = 0; i < n; ++i) {
    Instruction &in = k.code[i];
    if (in.op != Op::Bra || in.guard < 0)
      continue;
    uint32_t p = ipdom[blockOf[i]];
    in.reconverge =
        (p == undefined || p == exit) ? kNoReconvergence : starts[p];
  }
}

bool Parser::parseFunction(bool isEntry) {
  auto kernel = std::make_unique<Kernel>();
  Kernel &k = *kernel;
  k.firstLine = peek().line;
  if (!isEntry && isPunct('(')) {
    // Return parameters of a device function.
    int depth = 0;
    do {
      if (isPunct('('))
        ++depth;
      if (isPunct(')'))
        --depth;
      next();
    } while (depth && peek().kind != Tok::End);
  }
  if (peek().kind != Tok::Ident)
    return fail("expected a function name");
  k.name = next().text;
  if (isPunct('(') && !parseParams(k))
    return false;
  // Performance directives.
  while (peek().kind == Tok::Ident && peek().text[0] == '.') {
    std::string d = next().text;
    auto triple = [&](std::array<uint32_t, 3> &out) {
      out = {1, 1, 1};
      for (int i = 0; i < 3; ++i) {
        uint64_t v;
        if (!parseUnsigned(v))
          return false;
        out[i] = static_cast<uint32_t>(v);
        if (!accept(','))
          break;
      }
      return true;
    };
    if (d == ".maxntid") {
      if (!triple(k.maxntid))
        return false;
    } else if (d == ".reqntid") {
      if (!triple(k.reqntid))
        return false;
    } else if (d == ".reqnctapercluster") {
      if (!triple(k.reqnctapercluster))
        return false;
    } else if (d == ".explicitcluster") {
      k.explicitCluster = true;
    } else if (d == ".minnctapersm" || d == ".maxnreg" ||
               d == ".maxnctapersm" || d == ".maxclusterrank") {
      uint64_t v;
      if (!parseUnsigned(v))
        return false;
    } else if (d == ".noreturn") {
    } else if (d == ".pragma") {
      skipStatement();
    } else {
      return fail("unsupported function directive " + d);
    }
  }
  if (accept(';'))
    return true; // a prototype
  if (!isEntry) {
    // Device functions are parsed for their syntax only: calls are not
    // supported (the pipeline inlines everything).
    if (!expect('{'))
      return false;
    int depth = 1;
    while (depth && peek().kind != Tok::End) {
      if (isPunct('{'))
        ++depth;
      if (isPunct('}'))
        --depth;
      next();
    }
    return true;
  }
  scopes.clear();
  branches.clear();
  kernelShared.clear();
  usedShared.clear();
  localSymbols.clear();
  if (!expect('{'))
    return false;
  scopes.push_back(Scope());
  currentScope = 0;
  if (!parseBody(k) || !resolveLabels(k))
    return false;
  computeReconvergence(k);

  // Shared memory layout: variables in declaration order (module-level ones
  // that the kernel names first), each at its alignment; .extern .shared
  // arrays are the dynamic shared memory, after all static variables.
  std::vector<int32_t> shared(usedShared.begin(), usedShared.end());
  shared.insert(shared.end(), kernelShared.begin(), kernelShared.end());
  uint32_t offset = 0;
  for (int32_t index : shared) {
    const Symbol &sym = module.symbols[index];
    if (sym.isExtern) {
      k.dynamicSharedAlign = std::max(
          {k.dynamicSharedAlign, sym.align, static_cast<uint32_t>(16)});
      continue;
    }
    uint32_t align = std::max<uint32_t>(sym.align, 1);
    offset = (offset + align - 1) / align * align;
    k.sharedOffsets[index] = offset;
    offset += static_cast<uint32_t>(sym.size);
  }
  k.staticSharedBytes = offset;
  for (int32_t index : shared) {
    if (module.symbols[index].isExtern) {
      uint32_t a = k.dynamicSharedAlign;
      k.sharedOffsets[index] = (offset + a - 1) / a * a;
    }
  }
  // Shared-memory operands named by symbol: fold the offsets in.
  for (Instruction &in : k.code) {
    for (int i = 0; i < in.numOperands; ++i) {
      Operand &op = in.ops[i];
      if ((op.kind == OperandKind::Address || op.kind == OperandKind::Symbol) &&
          op.symbol >= 0 && op.symbolSpace == Space::Shared) {
        op.imm += k.sharedOffsets[op.symbol];
        op.symbol = -1;
        if (op.kind == OperandKind::Symbol) {
          op.kind = OperandKind::Imm;
        }
      }
      if ((op.kind == OperandKind::Address || op.kind == OperandKind::Symbol) &&
          op.symbol >= 0 && op.symbolSpace == Space::Local) {
        op.imm += k.localOffsets[op.symbol];
        op.symbol = -1;
        if (op.kind == OperandKind::Symbol)
          op.kind = OperandKind::Imm;
      }
    }
  }
  module.kernels.push_back(std::move(kernel));
  return true;
}

bool Parser::parseRegDecl(Kernel &k) {
  next(); // .reg
  Type type = Type::None;
  while (peek().kind == Tok::Ident && peek().text[0] == '.' &&
         peek().text != ".") {
    std::string m = next().text.substr(1);
    Type t;
    if (parseTypeName(m, t))
      type = t;
    else if (m != "v2" && m != "v4")
      return fail("unsupported register type ." + m);
  }
  do {
    if (peek().kind != Tok::Ident)
      return fail("expected a register name");
    std::string name = next().text;
    if (accept('<')) {
      uint64_t count;
      if (!parseUnsigned(count) || !expect('>'))
        return false;
      for (uint64_t i = 0; i < count; ++i) {
        std::string r = name + std::to_string(i);
        scopes[currentScope].registers[r] = static_cast<int32_t>(k.numRegisters++);
        k.registers.push_back(r);
        k.registerTypes.push_back(type);
      }
    } else {
      scopes[currentScope].registers[name] =
          static_cast<int32_t>(k.numRegisters++);
      k.registers.push_back(name);
      k.registerTypes.push_back(type);
    }
  } while (accept(','));
  return expect(';');
}

bool Parser::parseBody(Kernel &k) {
  while (true) {
    const Token &t = peek();
    if (t.kind == Tok::End)
      return fail("unterminated function body");
    if (isPunct('{')) {
      next();
      Scope s;
      s.parent = currentScope;
      scopes.push_back(s);
      currentScope = static_cast<int>(scopes.size()) - 1;
      continue;
    }
    if (isPunct('}')) {
      next();
      if (currentScope == 0)
        return true;
      currentScope = scopes[currentScope].parent;
      continue;
    }
    if (t.kind == Tok::Ident && t.text == ".reg") {
      if (!parseRegDecl(k))
        return false;
      continue;
    }
    if (t.kind == Tok::Ident &&
        (t.text == ".shared" || t.text == ".local" || t.text == ".global" ||
         t.text == ".const")) {
      size_t symbolCount = module.symbols.size();
      if (!parseVariable(false, &k))
        return false;
      Symbol &sym = module.symbols[symbolCount];
      if (sym.space == Space::Local) {
        uint32_t a = std::max<uint32_t>(sym.align, 1);
        k.localBytes = (k.localBytes + a - 1) / a * a;
        k.localOffsets[static_cast<int32_t>(symbolCount)] = k.localBytes;
        k.localBytes += static_cast<uint32_t>(sym.size);
      }
      continue;
    }
    if (t.kind == Tok::Ident && (t.text == ".param" || t.text == ".pragma")) {
      skipStatement();
      continue;
    }
    if (t.kind == Tok::Ident && (t.text == ".loc" || t.text == ".file")) {
      skipLine();
      continue;
    }
    if (t.kind == Tok::Ident && t.text[0] == '.') {
      return fail("unsupported directive " + t.text + " in a function body");
    }
    if (t.kind == Tok::Ident && isPunct(':', 1)) {
      std::string label = next().text;
      next();
      scopes[currentScope].labels[label] = static_cast<uint32_t>(k.code.size());
      continue;
    }
    if (!parseInstruction(k))
      return false;
  }
}

bool Parser::parseRawOperand(RawOperand &op) {
  op.line = peek().line;
  if (accept('!')) {
    op.negate = true;
  }
  if (accept('[')) {
    op.kind = RawOperand::Address;
    if (peek().kind == Tok::Ident) {
      op.name = next().text;
    } else if (peek().kind == Tok::Number) {
      Literal lit;
      if (!parseLiteral(next().text, false, lit))
        return fail("bad address");
      op.offset = static_cast<int64_t>(lit.bits);
    }
    while (isPunct('+') || isPunct('-')) {
      bool negative = next().text == "-";
      if (accept('-'))
        negative = !negative;
      Literal lit;
      if (peek().kind != Tok::Number || !parseLiteral(next().text, false, lit))
        return fail("bad address offset");
      op.offset += negative ? -static_cast<int64_t>(lit.bits)
                            : static_cast<int64_t>(lit.bits);
    }
    if (accept(',')) {
      // [tensorMap, {c0, c1, ...}]
      RawOperand coords;
      if (!parseRawOperand(coords))
        return false;
      if (coords.kind != RawOperand::Vector)
        return fail("expected tensor coordinates");
      op.elements = std::move(coords.elements);
    }
    return expect(']');
  }
  if (accept('{')) {
    op.kind = RawOperand::Vector;
    while (!isPunct('}')) {
      RawOperand e;
      if (!parseRawOperand(e))
        return false;
      op.elements.push_back(std::move(e));
      if (!accept(','))
        break;
    }
    return expect('}');
  }
  bool negative = accept('-');
  if (peek().kind == Tok::Number) {
    op.kind = RawOperand::Number;
    if (!parseLiteral(next().text, negative, op.lit))
      return fail("bad number");
    return true;
  }
  if (peek().kind == Tok::Ident) {
    op.name = next().text;
    if (op.name == "_") {
      op.kind = RawOperand::Sink;
      return true;
    }
    op.kind = RawOperand::Name;
    if (accept('|')) {
      if (peek().kind != Tok::Ident)
        return fail("expected a predicate after '|'");
      op.name2 = next().text;
    }
    return true;
  }
  return fail("expected an operand");
}

int32_t Parser::lookupRegister(const std::string &name) const {
  for (int s = currentScope; s >= 0; s = scopes[s].parent) {
    auto it = scopes[s].registers.find(name);
    if (it != scopes[s].registers.end())
      return it->second;
  }
  return -1;
}

bool Parser::convert(Kernel &k, const RawOperand &raw, Type type,
                     Operand &out, std::string &why) {
  out = Operand();
  out.negate = raw.negate;
  switch (raw.kind) {
  case RawOperand::Sink:
    out.kind = OperandKind::Sink;
    return true;
  case RawOperand::Number:
    out.kind = OperandKind::Imm;
    out.imm = static_cast<int64_t>(literalBits(raw.lit, type));
    return true;
  case RawOperand::Vector: {
    out.kind = OperandKind::Vector;
    out.first = static_cast<uint32_t>(k.pool.size());
    out.count = static_cast<uint16_t>(raw.elements.size());
    std::vector<Operand> elements;
    for (const RawOperand &e : raw.elements) {
      Operand o;
      if (!convert(k, e, type, o, why))
        return false;
      elements.push_back(o);
    }
    k.pool.insert(k.pool.end(), elements.begin(), elements.end());
    return true;
  }
  case RawOperand::Address: {
    out.kind = OperandKind::Address;
    out.imm = raw.offset;
    if (!raw.name.empty()) {
      if (raw.name[0] == '%') {
        out.reg = lookupRegister(raw.name);
        if (out.reg < 0) {
          why = "undeclared register " + raw.name;
          return false;
        }
      } else {
        auto local = localSymbols.find(raw.name);
        auto global = module.symbolIndex.find(raw.name);
        if (local != localSymbols.end()) {
          out.symbol = local->second;
        } else if (global != module.symbolIndex.end()) {
          out.symbol = global->second;
        } else {
          for (size_t i = 0; i < k.params.size(); ++i)
            if (k.params[i].name == raw.name) {
              out.symbol = -static_cast<int32_t>(i) - 2;
              out.symbolSpace = Space::Param;
            }
          if (out.symbol == -1) {
            why = "unknown variable " + raw.name;
            return false;
          }
        }
        if (out.symbol >= 0) {
          out.symbolSpace = module.symbols[out.symbol].space;
          if (out.symbolSpace == Space::Shared && local == localSymbols.end())
            usedShared.insert(out.symbol);
        }
      }
    }
    if (!raw.elements.empty()) {
      out.first = static_cast<uint32_t>(k.pool.size());
      out.count = static_cast<uint16_t>(raw.elements.size());
      std::vector<Operand> coords;
      for (const RawOperand &e : raw.elements) {
        Operand o;
        if (!convert(k, e, Type::S32, o, why))
          return false;
        coords.push_back(o);
      }
      k.pool.insert(k.pool.end(), coords.begin(), coords.end());
    }
    return true;
  }
  case RawOperand::Name: {
    const std::string &name = raw.name;
    if (name[0] == '%') {
      out.reg = lookupRegister(name);
      if (out.reg >= 0) {
        out.kind = OperandKind::Reg;
        if (!raw.name2.empty()) {
          out.reg2 = lookupRegister(raw.name2);
          if (out.reg2 < 0) {
            why = "undeclared register " + raw.name2;
            return false;
          }
        }
        return true;
      }
      for (const auto &s : kSpecialNames)
        if (name == s.first) {
          out.kind = OperandKind::Special;
          out.special = s.second;
          return true;
        }
      why = "undeclared register " + name;
      return false;
    }
    if (name == "WARP_SZ") {
      out.kind = OperandKind::Imm;
      out.imm = 32;
      return true;
    }
    // A register without '%' (inline asm: `P1`, `p`), a variable, a
    // parameter or a label.
    out.reg = lookupRegister(name);
    if (out.reg >= 0) {
      out.kind = OperandKind::Reg;
      if (!raw.name2.empty())
        out.reg2 = lookupRegister(raw.name2);
      return true;
    }
    auto local = localSymbols.find(name);
    auto global = module.symbolIndex.find(name);
    if (local != localSymbols.end() || global != module.symbolIndex.end()) {
      out.kind = OperandKind::Symbol;
      out.symbol = local != localSymbols.end() ? local->second : global->second;
      out.symbolSpace = module.symbols[out.symbol].space;
      if (out.symbolSpace == Space::Shared && local == localSymbols.end())
        usedShared.insert(out.symbol);
      return true;
    }
    for (size_t i = 0; i < k.params.size(); ++i)
      if (k.params[i].name == name) {
        out.kind = OperandKind::Symbol;
        out.symbol = -static_cast<int32_t>(i) - 2;
        out.symbolSpace = Space::Param;
        return true;
      }
    out.kind = OperandKind::Label;
    return true;
  }
  }
  return false;
}

bool Parser::resolveLabels(Kernel &k) {
  for (const PendingBranch &b : branches) {
    bool found = false;
    for (int s = b.scope; s >= 0; s = scopes[s].parent) {
      auto it = scopes[s].labels.find(b.label);
      if (it != scopes[s].labels.end()) {
        k.code[b.instruction].target = it->second;
        found = true;
        break;
      }
    }
    if (!found) {
      error = "line " + std::to_string(k.code[b.instruction].line) +
              ": unknown label " + b.label + " in " + k.name;
      return false;
    }
  }
  return true;
}

} // namespace

//===----------------------------------------------------------------------===//
// Instruction decoding
//===----------------------------------------------------------------------===//

namespace {

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
        {"rn", Rounding::NearestEven}, {"rz", Rounding::Zero},
        {"rm", Rounding::Down},        {"rp", Rounding::Up},
        {"rna", Rounding::NearestAway}, {"rni", Rounding::NearestEven},
        {"rzi", Rounding::Zero},       {"rmi", Rounding::Down},
        {"rpi", Rounding::Up},
    };
    for (const auto &n : names)
      if (take(n.first)) {
        lastRoundingIntegral = std::string(n.first).size() == 3 &&
                               n.first[2] == 'i';
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
        "sync", "uni", "volatile", "relaxed", "acquire", "release",
        "acq_rel", "weak", "mmio", "cta", "gpu", "sys", "cluster", "ca",
        "cg", "cs", "lu", "cv", "wb", "wt", "nc", "L1::evict_normal",
        "L1::evict_unchanged", "L1::evict_first", "L1::evict_last",
        "L1::no_allocate", "L2::64B", "L2::128B", "L2::256B",
        "L2::cache_hint", "L2::evict_first", "L2::evict_last",
        "L2::evict_normal", "L2::evict_unchanged", "level::cache_hint",
        "level::prefetch_size", "noftz", "sem", "scope", "aligned",
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

CmpOp parseCmp(Mods &m) {
  static const std::pair<const char *, CmpOp> names[] = {
      {"eq", CmpOp::Eq},   {"ne", CmpOp::Ne},   {"lt", CmpOp::Lt},
      {"le", CmpOp::Le},   {"gt", CmpOp::Gt},   {"ge", CmpOp::Ge},
      {"lo", CmpOp::Lo},   {"ls", CmpOp::Ls},   {"hi", CmpOp::Hi},
      {"hs", CmpOp::Hs},   {"equ", CmpOp::Equ}, {"neu", CmpOp::Neu},
      {"ltu", CmpOp::Ltu}, {"leu", CmpOp::Leu}, {"gtu", CmpOp::Gtu},
      {"geu", CmpOp::Geu}, {"num", CmpOp::Num}, {"nan", CmpOp::Nan},
  };
  for (const auto &n : names)
    if (m.take(n.first))
      return n.second;
  return CmpOp::None;
}

BoolOp parseBoolOp(Mods &m) {
  if (m.take("and"))
    return BoolOp::And;
  if (m.take("or"))
    return BoolOp::Or;
  if (m.take("xor"))
    return BoolOp::Xor;
  return BoolOp::None;
}

} // namespace

/// Decodes one instruction of `k` from its opcode and raw operands. Sets
/// `in.op = Op::Unsupported` and `unsupported` to a reason when the
/// instruction is not one the emulator implements.
static bool decode(Parser &parser, Kernel &k, const std::string &opcode,
                   const std::vector<RawOperand> &raw, Instruction &in,
                   std::string &unsupported, std::string &error,
                   const std::function<bool(const RawOperand &, Type,
                                            Operand &, std::string &)> &conv,
                   std::vector<std::pair<int, std::string>> &labels);

bool Parser::parseInstruction(Kernel &k) {
  Instruction in;
  in.line = peek().line;
  size_t startOffset = peek().offset;
  if (accept('@')) {
    bool negated = accept('!');
    if (peek().kind != Tok::Ident)
      return fail("expected a guard predicate");
    std::string name = next().text;
    in.guard = lookupRegister(name);
    in.guardNegated = negated;
    if (in.guard < 0)
      return fail("undeclared predicate " + name);
  }
  if (peek().kind != Tok::Ident)
    return fail("expected an instruction");
  std::string opcode = next().text;
  std::vector<RawOperand> raw;
  if (!isPunct(';')) {
    while (true) {
      RawOperand op;
      if (!parseRawOperand(op))
        return false;
      raw.push_back(std::move(op));
      if (!accept(','))
        break;
    }
  }
  size_t endOffset = peek().offset;
  if (!expect(';'))
    return false;
  std::string unsupported, err;
  std::vector<std::pair<int, std::string>> labels;
  auto conv = [&](const RawOperand &r, Type t, Operand &o, std::string &why) {
    return convert(k, r, t, o, why);
  };
  if (!decode(*this, k, opcode, raw, in, unsupported, err, conv, labels)) {
    error = "line " + std::to_string(in.line) + ": " + err;
    return false;
  }
  if (in.op == Op::Unsupported && unsupported.empty())
    unsupported = "unknown instruction";
  uint32_t index = static_cast<uint32_t>(k.code.size());
  for (const auto &l : labels)
    branches.push_back({index, l.first, l.second, currentScope});
  std::string text = module.source.substr(startOffset, endOffset - startOffset);
  // One line of text: collapse whitespace.
  std::string compact;
  bool space = false;
  for (char c : text) {
    if (std::isspace(static_cast<unsigned char>(c))) {
      space = !compact.empty();
      continue;
    }
    if (space)
      compact += ' ';
    space = false;
    compact += c;
  }
  compact += ';';
  if (in.op == Op::Unsupported)
    compact += "  [" + unsupported + "]";
  k.text.push_back(compact);
  k.code.push_back(in);
  return true;
}

//===----------------------------------------------------------------------===//
// The decoder proper
//===----------------------------------------------------------------------===//

namespace {

/// Arithmetic whose meaning depends on the type: what a name means on
/// integers and on floats, and its operands (see operandsOfSignature).
struct ArithmeticForm {
  const char *name;
  Op integer;
  Op floating;
  const char *signature;
};
const ArithmeticForm kArithmetic[] = {
    {"add", Op::Add, Op::FAdd, "TTT"},   {"sub", Op::Sub, Op::FSub, "TTT"},
    {"mul", Op::Mul, Op::FMul, "TTT"},   {"div", Op::Div, Op::FDiv, "TTT"},
    {"rem", Op::Rem, Op::Unsupported, "TTT"},
    {"min", Op::Min, Op::FMin, "TTT"},   {"max", Op::Max, Op::FMax, "TTT"},
    {"mad", Op::Mad, Op::FFma, "TTTT"},
    {"fma", Op::Unsupported, Op::FFma, "TTTT"},
    {"abs", Op::Abs, Op::FAbs, "TT"},    {"neg", Op::Neg, Op::FNeg, "TT"},
};

/// Float functions and tests.
struct FloatFunction {
  const char *name;
  Op op;
  const char *signature;
};
const FloatFunction kFloatFunctions[] = {
    {"rcp", Op::FRcp, "TT"},          {"sqrt", Op::FSqrt, "TT"},
    {"rsqrt", Op::FRsqrt, "TT"},      {"sin", Op::FSin, "TT"},
    {"cos", Op::FCos, "TT"},          {"lg2", Op::FLg2, "TT"},
    {"ex2", Op::FEx2, "TT"},          {"tanh", Op::FTanh, "TT"},
    {"copysign", Op::FCopysign, "TTT"}, {"testp", Op::Testp, "PT"},
};

/// Bitwise and bit-field operations.
struct BitForm {
  const char *name;
  Op op;
  const char *signature;
};
const BitForm kBitForms[] = {
    {"and", Op::And, "TTT"},    {"or", Op::Or, "TTT"},
    {"xor", Op::Xor, "TTT"},    {"not", Op::Not, "TT"},
    {"cnot", Op::Cnot, "TT"},   {"shl", Op::Shl, "TTU"},
    {"shr", Op::Shr, "TTU"},    {"popc", Op::Popc, "UT"},
    {"clz", Op::Clz, "UT"},     {"bfind", Op::Bfind, "UT"},
    {"brev", Op::Brev, "TT"},   {"bfe", Op::Bfe, "TTUU"},
    {"bfi", Op::Bfi, "TTTUU"},  {"prmt", Op::Prmt, "BBBB"},
    {"shf", Op::Shf, "TTTU"},   {"lop3", Op::Lop3, "TTTTB"},
};

template <typename T, size_t N>
const T *lookup(const T (&table)[N], const std::string &name) {
  for (const T &entry : table)
    if (name == entry.name)
      return &entry;
  return nullptr;
}

struct Decoder {
  Kernel &k;
  Mods m;
  const std::vector<RawOperand> &raw;
  Instruction &in;
  std::string &unsupported;
  std::string &error;
  const std::function<bool(const RawOperand &, Type, Operand &,
                           std::string &)> &conv;
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
      Type t = it != types.end() ? *it : (types.size() ? *(types.end() - 1)
                                                      : Type::None);
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
  bool operandsOfSignature(const char *signature, Type t, Type wide = Type::None) {
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
};

bool Decoder::decode() {
  const std::string &b = m.base();
  if (m.take("ftz"))
    in.flags |= kFtz;
  if (m.take("sat"))
    in.flags |= kSat;

  if (const ArithmeticForm *form = lookup(kArithmetic, b)) {
    if (m.take("NaN"))
      in.flags |= kNaN;
    if (m.take("xorsign")) {
      m.take("abs");
      in.flags |= kXorsignAbs;
    }
    if (m.take("relu"))
      in.flags |= kRelu;
    in.rounding = m.takeRounding();
    if (m.take("hi"))
      in.flags |= kHi;
    if (m.take("wide"))
      in.flags |= kWide;
    m.take("lo");
    if (m.take("approx"))
      in.flags |= kApprox;
    if (m.take("full"))
      in.flags |= kFull;
    if (m.take("cc") || m.take("carry"))
      return unsupportedBecause("carry arithmetic is not supported");
    return decodeArithmetic(*form, oneType());
  }
  if (const FloatFunction *function = lookup(kFloatFunctions, b)) {
    if (m.take("approx"))
      in.flags |= kApprox;
    in.rounding = m.takeRounding();
    m.take("full");
    in.type = oneType();
    in.op = function->op;
    if (in.op == Op::Testp) {
      static const char *classes[] = {"finite", "infinite", "number",
                                      "notanumber", "normal", "subnormal"};
      for (int i = 0; i < 6; ++i)
        if (m.take(classes[i]))
          in.subOp = static_cast<uint8_t>(i);
    }
    if (!operandsOfSignature(function->signature, in.type))
      return false;
    return done();
  }
  if (const BitForm *form = lookup(kBitForms, b)) {
    if (form->op == Op::Shf) {
      if (m.take("l"))
        in.flags |= kLeft;
      m.take("r");
      if (m.take("wrap"))
        in.flags |= kWrap;
      m.take("clamp");
    }
    if (form->op == Op::Bfind && m.take("shiftamt"))
      in.flags |= kHi;
    if (form->op == Op::Prmt) {
      static const char *modes[] = {"f4e", "b4e", "rc8", "ecl", "ecr", "rc16"};
      for (int i = 0; i < 6; ++i)
        if (m.take(modes[i]))
          in.subOp = static_cast<uint8_t>(i + 1);
    }
    in.op = form->op;
    in.type = oneType();
    if (!operandsOfSignature(form->signature, in.type))
      return false;
    return done();
  }
  if (b == "setp" || b == "set") {
    in.cmp = parseCmp(m);
    in.boolOp = parseBoolOp(m);
    std::vector<Type> types = m.takeTypes();
    if (b == "setp") {
      in.op = Op::Setp;
      in.type = types.empty() ? Type::None : types.back();
      if (!operandsAtLeast(3, {Type::Pred, in.type, in.type, Type::Pred}))
        return false;
    } else {
      in.op = Op::Set;
      if (types.size() != 2)
        return unsupportedBecause("set needs two types");
      in.type = types[0];  // destination
      in.type2 = types[1]; // comparison
      if (!operandsAtLeast(3, {in.type, in.type2, in.type2, Type::Pred}))
        return false;
    }
    return done();
  }
  if (b == "selp") {
    in.op = Op::Selp;
    in.type = oneType();
    if (!operands({in.type, in.type, in.type, Type::Pred}))
      return false;
    return done();
  }
  if (b == "slct") {
    in.op = Op::Slct;
    std::vector<Type> t = m.takeTypes();
    if (t.size() != 2)
      return unsupportedBecause("slct needs two types");
    in.type = t[0];
    in.type2 = t[1];
    if (!operands({in.type, in.type, in.type, in.type2}))
      return false;
    return done();
  }
  if (b == "mov") {
    in.op = Op::Mov;
    in.type = oneType();
    if (!operands({in.type, in.type}))
      return false;
    return done();
  }
  if (b == "ld" || b == "ldu")
    return decodeLdSt(false);
  if (b == "st")
    return decodeLdSt(true);
  if (b == "cvt")
    return decodeCvt();
  if (b == "cvta") {
    in.op = Op::Cvta;
    if (m.take("to"))
      in.flags |= kToSpace;
    if (!m.takeSpace(in.space))
      return unsupportedBecause("cvta needs a state space");
    in.type = oneType();
    if (!operands({in.type, in.type}))
      return false;
    return done();
  }
  if (b == "isspacep") {
    in.op = Op::Isspacep;
    if (!m.takeSpace(in.space))
      return unsupportedBecause("isspacep needs a state space");
    if (!operands({Type::Pred, Type::U64}))
      return false;
    return done();
  }
  if (b == "prefetch" || b == "prefetchu" || b == "applypriority" ||
      b == "discard" || b == "createpolicy" || b == "pmevent") {
    if (b == "createpolicy") {
      in.op = Op::Mov; // a cache policy: any value will do
      in.type = Type::B64;
      if (!operandsAtLeast(1, {Type::B64}))
        return false;
      in.ops[1] = Operand();
      in.ops[1].kind = OperandKind::Imm;
      in.numOperands = 2;
      return true;
    }
    in.op = Op::Nop;
    return true;
  }
  if (b == "bra") {
    in.op = Op::Bra;
    if (m.take("uni"))
      in.flags |= kUni;
    if (raw.size() != 1 || raw[0].kind != RawOperand::Name) {
      error = "bra needs a label";
      return false;
    }
    labels.push_back({-1, raw[0].name});
    return done();
  }
  if (b == "ret") {
    in.op = Op::Ret;
    return done();
  }
  if (b == "exit") {
    in.op = Op::Exit;
    return done();
  }
  if (b == "trap" || b == "brkpt") {
    in.op = Op::Trap;
    return true;
  }
  if (b == "call")
    return unsupportedBecause("calls are not supported (the amp pipeline "
                              "inlines every device function)");
  if (b == "bar" || b == "barrier")
    return decodeBarrier();
  if (b == "membar" || b == "fence") {
    in.op = Op::Membar;
    return true; // every form orders memory; execution is sequential
  }
  if (b == "nanosleep") {
    in.op = Op::Nanosleep;
    if (!operands({Type::U32}))
      return false;
    return true;
  }
  if (b == "shfl") {
    in.op = Op::Shfl;
    static const char *modes[] = {"up", "down", "bfly", "idx"};
    for (int i = 0; i < 4; ++i)
      if (m.take(modes[i]))
        in.subOp = static_cast<uint8_t>(i);
    in.type = oneType();
    if (!operands({Type::B32, Type::B32, Type::B32, Type::B32, Type::B32}))
      return false;
    return done();
  }
  if (b == "vote") {
    in.op = Op::Vote;
    static const char *modes[] = {"all", "any", "uni", "ballot"};
    for (int i = 0; i < 4; ++i)
      if (m.take(modes[i]))
        in.subOp = static_cast<uint8_t>(i);
    in.type = oneType();
    if (!operands({in.type, Type::Pred, Type::B32}))
      return false;
    return done();
  }
  if (b == "activemask") {
    in.op = Op::Activemask;
    in.type = oneType();
    if (!operands({Type::B32}))
      return false;
    return done();
  }
  if (b == "redux") {
    in.op = Op::Redux;
    static const char *ops[] = {"add", "min", "max", "and", "or", "xor"};
    for (int i = 0; i < 6; ++i)
      if (m.take(ops[i]))
        in.subOp = static_cast<uint8_t>(i);
    in.type = oneType();
    if (!operands({in.type, in.type, Type::B32}))
      return false;
    return done();
  }
  if (b == "atom")
    return decodeAtom(false);
  if (b == "red")
    return decodeAtom(true);
  if (b == "cp")
    return decodeCpAsync();
  if (b == "mbarrier")
    return decodeMbarrier();
  if (b == "ldmatrix" || b == "stmatrix") {
    in.op = b == "ldmatrix" ? Op::Ldmatrix : Op::Stmatrix;
    if (!m.take("m8n8"))
      return unsupportedBecause(b + " shape other than m8n8");
    if (m.take("x1"))
      in.m = 1;
    else if (m.take("x2"))
      in.m = 2;
    else if (m.take("x4"))
      in.m = 4;
    if (m.take("trans"))
      in.flags |= kTrans;
    in.space = Space::Shared;
    Space s;
    if (m.takeSpace(s) && s != Space::Shared)
      return unsupportedBecause(b + " outside shared memory");
    in.type = oneType();
    if (in.type != Type::B16)
      return unsupportedBecause(b + " of a type other than .b16");
    if (b == "ldmatrix") {
      if (!operands({Type::B32, Type::U64}))
        return false;
    } else if (!operands({Type::U64, Type::B32})) {
      return false;
    }
    return done();
  }
  if (b == "mma")
    return decodeMma();
  if (b == "wgmma")
    return decodeWgmma();
  if (b == "mapa") {
    in.op = Op::Mapa;
    m.takeSpace(in.space);
    in.type = oneType();
    if (!operands({in.type, in.type, Type::U32}))
      return false;
    return done();
  }
  if (b == "getctarank") {
    in.op = Op::Getctarank;
    m.takeSpace(in.space);
    in.type = oneType();
    if (!operands({Type::U32, in.type}))
      return false;
    return done();
  }
  if (b == "elect") {
    in.op = Op::ElectSync;
    if (!operands({Type::B32, Type::B32}))
      return false;
    return done();
  }
  if (b == "setmaxnreg") {
    in.op = Op::Setmaxnreg;
    m.take("inc");
    m.take("dec");
    m.takeTypes();
    if (!operands({Type::U32}))
      return false;
    return done();
  }
  return unsupportedBecause("unknown instruction");
}

bool Decoder::decodeArithmetic(const ArithmeticForm &form, Type t) {
  in.type = t;
  if (t == Type::None)
    return unsupportedBecause("missing type");
  if (t == Type::TF32 || t == Type::E4M3 || t == Type::E5M2)
    return unsupportedBecause("arithmetic on ." + std::string(typeName(t)));
  bool isFloat = isFloatType(t);
  in.op = isFloat ? form.floating : form.integer;
  if (in.op == Op::Unsupported)
    return unsupportedBecause(std::string(isFloat ? "float " : "integer ") +
                              form.name);
  if (isFloat)
    return operandsOfSignature(form.signature, t) && done();
  // Integer .wide doubles the width of the destination (and of mad's
  // addend); .hi and .lo keep it.
  Type wide = t;
  if (in.flags & kWide)
    wide = t == Type::S16   ? Type::S32
           : t == Type::U16 ? Type::U32
           : t == Type::S32 ? Type::S64
                            : Type::U64;
  std::string signature = form.signature;
  if (in.flags & kWide) {
    signature[0] = 'W';
    if (signature.size() == 4)
      signature[3] = 'W';
  }
  return operandsOfSignature(signature.c_str(), t, wide) && done();
}

bool Decoder::decodeLdSt(bool isStore) {
  in.op = isStore ? Op::St : Op::Ld;
  if (!m.takeSpace(in.space))
    in.space = Space::Generic;
  if (m.take("v2"))
    in.vec = 2;
  else if (m.take("v4"))
    in.vec = 4;
  else if (m.take("v8"))
    in.vec = 8;
  m.take("global"); // ld.global.nc.global? tolerate repeats
  in.type = oneType();
  if (in.type == Type::None)
    return unsupportedBecause("missing type");
  if (isStore) {
    if (!operands({Type::U64, in.type}))
      return false;
  } else if (!operandsAtLeast(2, {in.type, Type::U64})) {
    return false;
  }
  return done();
}

bool Decoder::decodeCvt() {
  in.op = Op::Cvt;
  in.rounding = m.takeRounding();
  bool integralRounding = m.lastRoundingIntegral;
  if (m.take("relu"))
    in.flags |= kRelu;
  if (m.take("satfinite"))
    in.flags |= kSat;
  std::vector<Type> t = m.takeTypes();
  if (t.size() != 2)
    return unsupportedBecause("cvt needs two types");
  in.type = t[0];
  in.type2 = t[1];
  if (integralRounding && isFloatType(in.type))
    in.flags |= kHi; // .rni etc. with a float destination: round to integer
  if (in.type == Type::F16x2 || in.type == Type::BF16x2) {
    if (!operands({in.type, in.type2, in.type2}))
      return false;
  } else if (!operands({in.type, in.type2})) {
    return false;
  }
  return done();
}

bool Decoder::decodeBarrier() {
  const std::string &b = m.base();
  if (b == "barrier" && m.take("cluster")) {
    if (m.take("arrive")) {
      in.op = Op::BarrierClusterArrive;
    } else if (m.take("wait")) {
      in.op = Op::BarrierClusterWait;
    } else {
      return unsupportedBecause("barrier.cluster needs arrive or wait");
    }
    return done();
  }
  if (m.take("warp")) {
    in.op = Op::BarWarpSync;
    m.take("sync");
    if (!operands({Type::B32}))
      return false;
    return done();
  }
  if (m.take("red"))
    return unsupportedBecause("bar.red");
  if (m.take("sync")) {
    in.op = Op::BarSync;
  } else if (m.take("arrive")) {
    in.op = Op::BarArrive;
  } else if (b == "bar" && m.parts.size() == 1) {
    in.op = Op::BarSync;
  } else {
    return unsupportedBecause("barrier form");
  }
  if (m.take("aligned"))
    in.flags |= kAligned;
  if (raw.empty()) {
    // barrier.sync with no operand: barrier 0.
    in.ops[0].kind = OperandKind::Imm;
    in.ops[0].imm = 0;
    in.numOperands = 1;
    return done();
  }
  if (!operandsAtLeast(1, {Type::U32}))
    return false;
  if (in.numOperands > 1)
    in.flags |= kCount;
  return done();
}

bool Decoder::decodeAtom(bool isRed) {
  in.op = isRed ? Op::Red : Op::Atom;
  if (!m.takeSpace(in.space))
    in.space = Space::Generic;
  static const char *ops[] = {"add", "min", "max", "inc", "dec",
                              "and", "or",  "xor", "exch", "cas"};
  bool found = false;
  for (int i = 0; i < 10; ++i)
    if (m.take(ops[i])) {
      in.subOp = static_cast<uint8_t>(i);
      found = true;
    }
  if (!found)
    return unsupportedBecause("atomic operation");
  m.takeRounding();
  in.type = oneType();
  if (isRed) {
    if (!operands({Type::U64, in.type}))
      return false;
  } else if (in.subOp == 9) {
    if (!operands({in.type, Type::U64, in.type, in.type}))
      return false;
  } else if (!operands({in.type, Type::U64, in.type})) {
    return false;
  }
  return done();
}

bool Decoder::decodeCpAsync() {
  if (!m.take("async"))
    return unsupportedBecause("cp without .async");
  if (m.take("bulk")) {
    if (m.take("commit_group")) {
      in.op = Op::CpAsyncBulkCommit;
      return done();
    }
    if (m.take("wait_group")) {
      in.op = Op::CpAsyncBulkWait;
      if (m.take("read"))
        in.flags |= kRead;
      if (!operands({Type::U32}))
        return false;
      return done();
    }
    if (!m.take("tensor"))
      return unsupportedBecause("cp.async.bulk without .tensor");
    in.op = Op::CpAsyncBulkTensor;
    for (int d = 1; d <= 5; ++d)
      if (m.take((std::to_string(d) + "d").c_str()))
        in.k = static_cast<uint16_t>(d);
    if (!in.k)
      return unsupportedBecause("tensor rank");
    // Destination space first, then source.
    Space first, second;
    if (!m.takeSpace(first) || !m.takeSpace(second))
      return unsupportedBecause("cp.async.bulk.tensor spaces");
    in.space = first;
    in.space2 = second;
    m.take("tile");
    if (m.take("im2col") || m.take("im2col_no_offs"))
      return unsupportedBecause("im2col tensor copies");
    if (m.take("multicast::cluster"))
      in.flags |= kMulticast;
    if (in.space == Space::Global) {
      in.flags |= kStore;
      m.take("bulk_group");
      if (!operandsAtLeast(2, {Type::U64, Type::U64}))
        return false;
    } else {
      if (!m.take("mbarrier::complete_tx::bytes"))
        return unsupportedBecause("completion mechanism");
      if (!operandsAtLeast(3, {Type::U64, Type::U64, Type::U64}))
        return false;
      if (in.flags & kMulticast)
        return unsupportedBecause("TMA multicast");
    }
    return done();
  }
  if (m.take("commit_group")) {
    in.op = Op::CpAsyncCommit;
    return done();
  }
  if (m.take("wait_group")) {
    in.op = Op::CpAsyncWait;
    if (!operands({Type::U32}))
      return false;
    return done();
  }
  if (m.take("wait_all")) {
    in.op = Op::CpAsyncWaitAll;
    return done();
  }
  if (m.take("mbarrier")) {
    return unsupportedBecause("cp.async.mbarrier.arrive");
  }
  in.op = Op::CpAsync;
  Space dst, src;
  if (!m.takeSpace(dst) || !m.takeSpace(src) || dst != Space::Shared ||
      src != Space::Global)
    return unsupportedBecause("cp.async spaces");
  in.space = Space::Shared;
  in.space2 = Space::Global;
  if (!operandsAtLeast(3, {Type::U64, Type::U64, Type::U32, Type::U32}))
    return false;
  return done();
}

bool Decoder::decodeMbarrier() {
  if (m.take("init")) {
    in.op = Op::MbarInit;
  } else if (m.take("arrive")) {
    in.op = Op::MbarArrive;
    if (m.take("expect_tx"))
      in.flags |= kExpectTx;
    if (m.take("noComplete"))
      in.flags |= kNoComplete;
  } else if (m.take("arrive_drop")) {
    in.op = Op::MbarArrive;
    in.flags |= kDrop;
    if (m.take("expect_tx"))
      in.flags |= kExpectTx;
    if (m.take("noComplete"))
      in.flags |= kNoComplete;
  } else if (m.take("expect_tx")) {
    in.op = Op::MbarExpectTx;
  } else if (m.take("complete_tx")) {
    in.op = Op::MbarCompleteTx;
  } else if (m.take("test_wait")) {
    in.op = Op::MbarTestWait;
  } else if (m.take("try_wait")) {
    in.op = Op::MbarTryWait;
  } else if (m.take("pending_count")) {
    in.op = Op::MbarPendingCount;
  } else if (m.take("inval")) {
    in.op = Op::MbarInval;
  } else {
    return unsupportedBecause("mbarrier operation");
  }
  if (m.take("parity"))
    in.flags |= kParity;
  if (!m.takeSpace(in.space))
    in.space = Space::Generic;
  m.takeTypes();
  switch (in.op) {
  case Op::MbarInit:
    if (!operands({Type::U64, Type::U32}))
      return false;
    break;
  case Op::MbarArrive:
    if (!operandsAtLeast(2, {Type::B64, Type::U64}))
      return false;
    break;
  case Op::MbarExpectTx:
  case Op::MbarCompleteTx:
    if (!operands({Type::U64, Type::U32}))
      return false;
    break;
  case Op::MbarTestWait:
  case Op::MbarTryWait:
    if (!operandsAtLeast(3, {Type::Pred, Type::U64, Type::B64, Type::U32}))
      return false;
    break;
  case Op::MbarPendingCount:
    if (!operands({Type::U32, Type::B64}))
      return false;
    break;
  case Op::MbarInval:
    if (!operands({Type::U64}))
      return false;
    break;
  default:
    break;
  }
  return done();
}

bool Decoder::decodeMma() {
  in.op = Op::Mma;
  if (m.take("m16n8k16")) {
    in.m = 16, in.n = 8, in.k = 16;
  } else if (m.take("m16n8k8")) {
    in.m = 16, in.n = 8, in.k = 8;
  } else {
    return unsupportedBecause("mma shape");
  }
  if (!m.take("row") || !m.take("col"))
    return unsupportedBecause("mma layouts other than .row.col");
  std::vector<Type> t = m.takeTypes();
  if (t.size() != 4)
    return unsupportedBecause("mma types");
  in.type = t[0];  // D
  in.type2 = t[1]; // A (== B)
  in.type3 = t[3]; // C
  if (t[1] != t[2] || !(t[1] == Type::F16 || t[1] == Type::BF16))
    return unsupportedBecause("mma input types other than f16/bf16");
  if (!((in.type == Type::F32 && in.type3 == Type::F32) ||
        (t[1] == Type::F16 && (in.type == Type::F16 || in.type == Type::F32) &&
         (in.type3 == Type::F16 || in.type3 == Type::F32))))
    return unsupportedBecause("mma accumulator types");
  if (!operands({Type::B32, Type::B32, Type::B32, Type::B32}))
    return false;
  return done();
}

bool Decoder::decodeWgmma() {
  if (m.take("fence")) {
    in.op = Op::WgmmaFence;
    return done();
  }
  if (m.take("commit_group")) {
    in.op = Op::WgmmaCommit;
    return done();
  }
  if (m.take("wait_group")) {
    in.op = Op::WgmmaWait;
    if (!operands({Type::U32}))
      return false;
    return done();
  }
  if (!m.take("mma_async"))
    return unsupportedBecause("wgmma operation");
  in.op = Op::Wgmma;
  if (m.take("sp"))
    return unsupportedBecause("sparse wgmma");
  bool shapeFound = false;
  for (int n = 8; n <= 256; n += 8) {
    std::string s = "m64n" + std::to_string(n) + "k16";
    if (m.take(s.c_str())) {
      in.m = 64, in.n = static_cast<uint16_t>(n), in.k = 16;
      shapeFound = true;
    }
  }
  if (!shapeFound)
    return unsupportedBecause("wgmma shape (only m64nNk16: f16/bf16)");
  std::vector<Type> t = m.takeTypes();
  if (t.size() != 3)
    return unsupportedBecause("wgmma types");
  in.type = t[0];
  in.type2 = t[1];
  if (t[1] != t[2] || !(t[1] == Type::F16 || t[1] == Type::BF16))
    return unsupportedBecause("wgmma input types other than f16/bf16");
  if (!(in.type == Type::F32 || (in.type == Type::F16 && t[1] == Type::F16)))
    return unsupportedBecause("wgmma accumulator type");
  if (!operandsAtLeast(7, {Type::B32, Type::B64, Type::B64, Type::Pred,
                           Type::S32, Type::S32, Type::S32, Type::S32}))
    return false;
  return done();
}

} // namespace

static bool decode(Parser &, Kernel &k, const std::string &opcode,
                   const std::vector<RawOperand> &raw, Instruction &in,
                   std::string &unsupported, std::string &error,
                   const std::function<bool(const RawOperand &, Type,
                                            Operand &, std::string &)> &conv,
                   std::vector<std::pair<int, std::string>> &labels) {
  Decoder d{k, Mods(opcode), raw, in, unsupported, error, conv, labels};
  return d.decode();
}

std::unique_ptr<Module> parseModule(const std::string &text,
                                    std::string &error) {
  auto module = std::make_unique<Module>();
  module->source = text;
  Parser parser(module->source, *module);
  if (!parser.parse()) {
    error = parser.error;
    return nullptr;
  }
  if (module->kernels.empty()) {
    error = "no .entry in the module";
    return nullptr;
  }
  return module;
}

std::string describeInstruction(const Kernel &kernel, uint32_t index) {
  if (index >= kernel.text.size())
    return "(end of kernel)";
  return kernel.text[index];
}

} // namespace emu
} // namespace amp
