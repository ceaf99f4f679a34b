//===- PtxParser.cpp - Parse PTX text -------------------------------------===//
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
//
// The text of each instruction goes to the decoder (PtxDecoder.cpp), which
// resolves its opcode, modifiers and operands.
//
//===----------------------------------------------------------------------===//

#include "PtxText.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <functional>
#include <set>
#include <sstream>
#include <unordered_map>

namespace amp {
namespace emu {

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
  std::vector<int32_t> kernelShared; // module symbols declared in the body
  std::set<int32_t> usedShared;      // module-level shared symbols named
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
      } else if (m == "ptr" || m == "global" || m == "shared" || m == "const" ||
                 m == "local") {
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

/// The most registers one kernel may declare. The emulator keeps each
/// warp's registers in one array (8 bytes x 32 lanes each): 65,536 of them
/// are 16 MiB a warp. amp's kernels declare a few thousand; a declaration
/// such as `.reg .b32 %r<100000000>;` is refused instead of allocated.
constexpr uint64_t kMaxRegisters = 65536;

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
      if (count > kMaxRegisters - k.numRegisters)
        return fail("too many registers: " + name + "<" +
                    std::to_string(count) + "> makes more than " +
                    std::to_string(kMaxRegisters) +
                    " in the kernel, the emulator's limit");
      for (uint64_t i = 0; i < count; ++i) {
        std::string r = name + std::to_string(i);
        scopes[currentScope].registers[r] =
            static_cast<int32_t>(k.numRegisters++);
        k.registers.push_back(r);
        k.registerTypes.push_back(type);
      }
    } else {
      if (k.numRegisters >= kMaxRegisters)
        return fail("too many registers: more than " +
                    std::to_string(kMaxRegisters) +
                    " in the kernel, the emulator's limit");
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
    if (t.kind == Tok::Ident && (t.text == ".shared" || t.text == ".local" ||
                                 t.text == ".global" || t.text == ".const")) {
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

bool Parser::convert(Kernel &k, const RawOperand &raw, Type type, Operand &out,
                     std::string &why) {
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
  if (!decodeInstruction(k, opcode, raw, in, unsupported, err, conv, labels)) {
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
