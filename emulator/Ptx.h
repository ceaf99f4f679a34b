//===- Ptx.h - Decoded PTX modules --------------------------------*- C++ -*-===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A PTX module decoded once for execution: each kernel is a flat array of
// instructions whose opcode, types, modifiers and operands are resolved to
// enums and indices (registers to slots, labels to instruction indices,
// shared variables to offsets), so that execution never looks at text.
//
// Instructions the decoder does not know become `Op::Unsupported` and fail
// with a clear error when (and only when) a thread executes them.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_EMULATOR_PTX_H
#define AMP_EMULATOR_PTX_H

#include "Float.h"

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace amp {
namespace emu {

//===----------------------------------------------------------------------===//
// Types, state spaces, operators
//===----------------------------------------------------------------------===//

enum class Type : uint8_t {
  None,
  Pred,
  B8,
  B16,
  B32,
  B64,
  B128,
  U8,
  U16,
  U32,
  U64,
  S8,
  S16,
  S32,
  S64,
  F16,
  F16x2,
  BF16,
  BF16x2,
  F32,
  F64,
  TF32,
  E4M3,
  E5M2,
  E4M3x2, // a pair of .e4m3 in 16 bits (cvt)
  E5M2x2,
};

/// Width of a type in bits (Pred: 1).
int typeBits(Type t);
bool isSignedInt(Type t);
bool isFloatType(Type t);
const char *typeName(Type t);

enum class Space : uint8_t {
  Generic,
  Global,
  Shared,        // .shared / .shared::cta
  SharedCluster, // .shared::cluster
  Local,
  Param,
  Const,
};
const char *spaceName(Space s);

enum class CmpOp : uint8_t {
  None, Eq, Ne, Lt, Le, Gt, Ge, Lo, Ls, Hi, Hs,
  Equ, Neu, Ltu, Leu, Gtu, Geu, Num, Nan,
};

enum class BoolOp : uint8_t { None, And, Or, Xor };

/// Special registers (%tid.x, ...).
enum class Special : uint8_t {
  TidX, TidY, TidZ, NtidX, NtidY, NtidZ,
  CtaidX, CtaidY, CtaidZ, NctaidX, NctaidY, NctaidZ,
  LaneId, WarpId, NWarpId, SmId, NSmId, GridId,
  LanemaskEq, LanemaskLe, LanemaskLt, LanemaskGe, LanemaskGt,
  Clock, Clock64, GlobalTimer,
  DynamicSmemSize, TotalSmemSize,
  ClusterCtaRank, ClusterNctaRank,
  ClusterIdX, ClusterIdY, ClusterIdZ, NClusterIdX, NClusterIdY, NClusterIdZ,
  ClusterCtaidX, ClusterCtaidY, ClusterCtaidZ,
  ClusterNctaidX, ClusterNctaidY, ClusterNctaidZ,
  IsExplicitCluster,
};

//===----------------------------------------------------------------------===//
// Operations
//===----------------------------------------------------------------------===//

enum class Op : uint16_t {
  Unsupported,
  Nop,
  // Integer and bitwise.
  Add, Sub, Mul, Mad, Div, Rem, Abs, Neg, Min, Max,
  Popc, Clz, Bfind, Brev, Bfe, Bfi, Prmt, Shf,
  And, Or, Xor, Not, Cnot, Shl, Shr, Lop3,
  // Floating point.
  FAdd, FSub, FMul, FFma, FDiv, FAbs, FNeg, FMin, FMax,
  FRcp, FSqrt, FRsqrt, FSin, FCos, FLg2, FEx2, FTanh, FCopysign, Testp,
  // Comparison and selection.
  Setp, Set, Selp, Slct,
  // Data movement and conversion.
  Mov, Ld, St, Cvt, Cvta, Isspacep, Prefetch,
  Shfl, Vote, Activemask, Redux,
  Atom, Red,
  // Control flow and synchronization.
  Bra, Ret, Exit, Trap, Call,
  BarSync, BarArrive, BarWarpSync, Membar, Nanosleep,
  BarrierClusterArrive, BarrierClusterWait,
  // Asynchronous copies.
  CpAsync, CpAsyncCommit, CpAsyncWait, CpAsyncWaitAll,
  CpAsyncBulkTensor, CpAsyncBulkCommit, CpAsyncBulkWait,
  // mbarrier.
  MbarInit, MbarArrive, MbarExpectTx, MbarCompleteTx, MbarTestWait,
  MbarTryWait, MbarPendingCount, MbarInval,
  // Tensor Cores.
  Ldmatrix, Stmatrix, Mma, WgmmaFence, WgmmaCommit, WgmmaWait, Wgmma,
  // Clusters and warpgroups.
  Mapa, Getctarank, ElectSync, Setmaxnreg,
};

/// Instruction flags (a bitmask).
enum Flag : uint32_t {
  kFtz = 1u << 0,
  kSat = 1u << 1,
  kNaN = 1u << 2,       // max.NaN / min.NaN
  kHi = 1u << 3,        // mul.hi / mad.hi
  kWide = 1u << 4,      // mul.wide / mad.wide
  kApprox = 1u << 5,
  kTrans = 1u << 6,     // ldmatrix.trans
  kUni = 1u << 7,       // bra.uni
  kToSpace = 1u << 8,   // cvta.to.<space>
  kWrap = 1u << 9,      // shf.wrap
  kLeft = 1u << 10,     // shf.l
  kParity = 1u << 11,   // mbarrier.{try,test}_wait.parity
  kExpectTx = 1u << 12, // mbarrier.arrive.expect_tx
  kDrop = 1u << 13,     // mbarrier.arrive_drop
  kNoComplete = 1u << 14,
  kZeroFillOob = 1u << 15,
  kStore = 1u << 16,    // cp.async.bulk.tensor global <- shared
  kAligned = 1u << 17,
  kXorsignAbs = 1u << 18,
  kFull = 1u << 19,     // div.full
  kRelu = 1u << 20,     // .relu
  kIgnoreSrc = 1u << 21,
  kCount = 1u << 22,    // bar with an explicit thread count
  kMulticast = 1u << 23,
  kRead = 1u << 24,     // cp.async.bulk.wait_group.read
};

//===----------------------------------------------------------------------===//
// Operands and instructions
//===----------------------------------------------------------------------===//

enum class OperandKind : uint8_t {
  None,
  Reg,     // a register slot
  Imm,     // an immediate (bits in the instruction's type)
  Special, // a special register
  Address, // [base + offset]; base: register, symbol, parameter or none
  Vector,  // {a, b, ...}: elements in Kernel::pool
  Sink,    // _
  Symbol,  // the address of a variable (mov %rd, var)
  Label,   // a branch target (resolved into Instruction::target)
};

struct Operand {
  OperandKind kind = OperandKind::None;
  Special special = Special::TidX;
  bool negate = false;  // !%p
  /// Address: the base symbol's state space (Param for kernel parameters).
  Space symbolSpace = Space::Generic;
  /// Reg: slot; Address: base register slot or -1.
  int32_t reg = -1;
  /// Symbol / Address: index in Module::symbols (kernel parameters:
  /// -(index + 2) into Kernel::params), or -1.
  int32_t symbol = -1;
  /// Imm: the bits; Address: the byte offset.
  int64_t imm = 0;
  /// Vector: first element in Kernel::pool and count. Address of a TMA
  /// operand ([map, {c0, c1}]): the coordinates.
  uint32_t first = 0;
  uint16_t count = 0;
  /// Reg: a second destination (setp p|q): slot or -1.
  int32_t reg2 = -1;
};

constexpr int kMaxOperands = 9;
constexpr uint32_t kNoReconvergence = 0xffffffffu;

struct Instruction {
  Op op = Op::Unsupported;
  Type type = Type::None;  // the instruction type (destination for cvt)
  Type type2 = Type::None; // cvt source; mma/wgmma A/B type
  Type type3 = Type::None; // mma C type
  Space space = Space::Generic;
  Space space2 = Space::Generic; // second space (cp.async source, ...)
  Rounding rounding = Rounding::Default;
  CmpOp cmp = CmpOp::None;
  BoolOp boolOp = BoolOp::None;
  uint8_t vec = 1;          // .v2 / .v4
  uint8_t numOperands = 0;
  uint32_t flags = 0;
  int32_t guard = -1;       // predicate slot, or -1
  bool guardNegated = false;
  uint32_t target = 0;      // branch target
  /// Conditional branches: where the diverged threads meet again (the
  /// first instruction of the branch's immediate post-dominator), or
  /// kNoReconvergence when the paths only meet at the exit.
  uint32_t reconverge = 0;
  /// Shapes: mma m, n, k; ldmatrix: matrices (x1/x2/x4); tensor rank.
  uint16_t m = 0, n = 0, k = 0;
  /// An operator for atom/red/redux/vote/shfl (see Executor.cpp).
  uint8_t subOp = 0;
  uint32_t line = 0;        // line in the module text
  Operand ops[kMaxOperands];
};

/// A kernel parameter.
struct Param {
  std::string name;
  uint32_t offset = 0;
  uint32_t size = 0;
  uint32_t align = 1;
};

/// A variable of the module (.global, .const, .shared, .local).
struct Symbol {
  std::string name;
  Space space = Space::Global;
  uint32_t align = 1;
  uint64_t size = 0;
  bool isExtern = false; // .extern .shared x[]: the dynamic shared memory
  std::vector<uint8_t> init;
  /// Global/const: device address, set when the module is loaded.
  uint64_t address = 0;
};

struct Kernel {
  std::string name;
  std::vector<Param> params;
  uint32_t paramBytes = 0;
  std::vector<Instruction> code;
  std::vector<std::string> text; // source of each instruction (errors)
  std::vector<Operand> pool;     // vector operand elements
  std::vector<std::string> registers; // slot -> name
  std::vector<Type> registerTypes;    // slot -> declared type
  uint32_t numRegisters = 0;
  /// Static shared memory: bytes, and the offset of each shared symbol this
  /// kernel can name (module symbol index -> offset).
  uint32_t staticSharedBytes = 0;
  std::map<int32_t, uint32_t> sharedOffsets;
  /// Alignment the dynamic shared memory (.extern .shared) asks for; 0 when
  /// the kernel declares none.
  uint32_t dynamicSharedAlign = 0;
  /// Per-thread local memory (.local arrays): bytes and symbol offsets.
  uint32_t localBytes = 0;
  std::map<int32_t, uint32_t> localOffsets;
  std::array<uint32_t, 3> maxntid = {0, 0, 0};
  std::array<uint32_t, 3> reqntid = {0, 0, 0};
  std::array<uint32_t, 3> reqnctapercluster = {0, 0, 0};
  bool explicitCluster = false;
  uint32_t firstLine = 0;
};

struct Module {
  std::string target; // sm_80, sm_90a, ...
  int smVersion = 0;  // 80, 90
  bool archSpecific = false; // the "a" suffix (sm_90a)
  std::string version;       // PTX ISA version
  std::vector<Symbol> symbols;
  std::map<std::string, int32_t> symbolIndex;
  std::vector<std::unique_ptr<Kernel>> kernels;
  std::string source;  // the PTX text

  Kernel *findKernel(const std::string &name) const {
    for (const auto &k : kernels)
      if (k->name == name)
        return k.get();
    return nullptr;
  }
};

/// Parses and decodes PTX text. Returns null and sets `error` (with the
/// line) on text that is not PTX this emulator can read.
std::unique_ptr<Module> parseModule(const std::string &text,
                                    std::string &error);

/// Whether the instruction `op` at `index` of `kernel` names an operation
/// whose text was not understood (for messages).
std::string describeInstruction(const Kernel &kernel, uint32_t index);

} // namespace emu
} // namespace amp

#endif // AMP_EMULATOR_PTX_H
