//===- PtxDecoder.cpp - Decode PTX instructions ---------------------------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// From an opcode with its modifiers and its operands as written to an
// Instruction: integer, float, comparison, data movement, conversion,
// memory, atomic, control-flow, barrier and warp-level instructions. The
// Tensor Core and asynchronous-copy instructions are in
// PtxDecodeTensorCore.cpp. Forms follow the PTX ISA (NVIDIA, "Parallel
// Thread Execution ISA", versions 8.0-8.7), chapter 9.
//
//===----------------------------------------------------------------------===//

#include "PtxDecoder.h"

#include <string>

namespace amp {
namespace emu {

/// Arithmetic whose meaning depends on the type: what a name means on
/// integers and on floats, and its operands (see operandsOfSignature).
struct ArithmeticForm {
  const char *name;
  Op integer;
  Op floating;
  const char *signature;
};

namespace {

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

const ArithmeticForm kArithmetic[] = {
    {"add", Op::Add, Op::FAdd, "TTT"},
    {"sub", Op::Sub, Op::FSub, "TTT"},
    {"mul", Op::Mul, Op::FMul, "TTT"},
    {"div", Op::Div, Op::FDiv, "TTT"},
    {"rem", Op::Rem, Op::Unsupported, "TTT"},
    {"min", Op::Min, Op::FMin, "TTT"},
    {"max", Op::Max, Op::FMax, "TTT"},
    {"mad", Op::Mad, Op::FFma, "TTTT"},
    {"fma", Op::Unsupported, Op::FFma, "TTTT"},
    {"abs", Op::Abs, Op::FAbs, "TT"},
    {"neg", Op::Neg, Op::FNeg, "TT"},
};

/// Float functions and tests.
struct FloatFunction {
  const char *name;
  Op op;
  const char *signature;
};
const FloatFunction kFloatFunctions[] = {
    {"rcp", Op::FRcp, "TT"},
    {"sqrt", Op::FSqrt, "TT"},
    {"rsqrt", Op::FRsqrt, "TT"},
    {"sin", Op::FSin, "TT"},
    {"cos", Op::FCos, "TT"},
    {"lg2", Op::FLg2, "TT"},
    {"ex2", Op::FEx2, "TT"},
    {"tanh", Op::FTanh, "TT"},
    {"copysign", Op::FCopysign, "TTT"},
    {"testp", Op::Testp, "PT"},
};

/// Bitwise and bit-field operations.
struct BitForm {
  const char *name;
  Op op;
  const char *signature;
};
const BitForm kBitForms[] = {
    {"and", Op::And, "TTT"},   {"or", Op::Or, "TTT"},
    {"xor", Op::Xor, "TTT"},   {"not", Op::Not, "TT"},
    {"cnot", Op::Cnot, "TT"},  {"shl", Op::Shl, "TTU"},
    {"shr", Op::Shr, "TTU"},   {"popc", Op::Popc, "UT"},
    {"clz", Op::Clz, "UT"},    {"bfind", Op::Bfind, "UT"},
    {"brev", Op::Brev, "TT"},  {"bfe", Op::Bfe, "TTUU"},
    {"bfi", Op::Bfi, "TTTUU"}, {"prmt", Op::Prmt, "BBBB"},
    {"shf", Op::Shf, "TTTU"},  {"lop3", Op::Lop3, "TTTTB"},
};

template <typename T, size_t N>
const T *lookup(const T (&table)[N], const std::string &name) {
  for (const T &entry : table)
    if (name == entry.name)
      return &entry;
  return nullptr;
}

} // namespace

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
      static const char *classes[] = {"finite",     "infinite", "number",
                                      "notanumber", "normal",   "subnormal"};
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
  if (b == "ldmatrix" || b == "stmatrix")
    return decodeMatrixLoadStore();
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
  // The FP8 forms (PTX ISA, "cvt"): cvt.rn.satfinite{.relu}.f8x2type.f32
  // d, a, b (a to the upper byte of the .b16 d); cvt.rn.satfinite{.relu}
  // .f8x2type.f16x2 d, a; cvt.rn{.relu}.f16x2.f8x2type d, a (the upper byte
  // to the upper half).
  bool toFp8 = in.type == Type::E4M3x2 || in.type == Type::E5M2x2;
  bool fromFp8 = in.type2 == Type::E4M3x2 || in.type2 == Type::E5M2x2;
  if (toFp8 || fromFp8) {
    if (in.rounding != Rounding::NearestEven || (toFp8 && !(in.flags & kSat)))
      return unsupportedBecause(toFp8 ? "cvt to an FP8 pair needs .rn.satfinite"
                                      : "cvt from an FP8 pair needs .rn");
    if (toFp8 && in.type2 == Type::F32) {
      if (!operands({Type::B16, Type::F32, Type::F32}))
        return false;
    } else if (toFp8 && in.type2 == Type::F16x2) {
      if (!operands({Type::B16, Type::B32}))
        return false;
    } else if (fromFp8 && in.type == Type::F16x2) {
      if (!operands({Type::B32, Type::B16}))
        return false;
    } else {
      return unsupportedBecause(std::string("cvt.") + typeName(in.type) + "." +
                                typeName(in.type2));
    }
    return done();
  }
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
  static const char *ops[] = {"add", "min", "max", "inc",  "dec",
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

bool decodeInstruction(Kernel &k, const std::string &opcode,
                       const std::vector<RawOperand> &raw, Instruction &in,
                       std::string &unsupported, std::string &error,
                       const OperandConverter &conv,
                       std::vector<std::pair<int, std::string>> &labels) {
  Decoder d{k, Mods(opcode), raw, in, unsupported, error, conv, labels};
  return d.decode();
}

} // namespace emu
} // namespace amp
