//===- PtxDecodeTensorCore.cpp - Decode Tensor Core and async copies ------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Decoding of the Tensor Core instructions (ldmatrix, stmatrix, mma,
// wgmma) and of the asynchronous copies and their synchronization
// (cp.async, cp.async.bulk.tensor, mbarrier), after the forms of the PTX ISA
// (NVIDIA, "Parallel Thread Execution ISA", versions 8.0-8.7), sections
// "Warp Level Matrix Multiply-Accumulate Instructions", "Asynchronous
// Warpgroup Level Matrix Multiply-Accumulate Instructions", "Data Movement
// and Conversion Instructions: cp.async, cp.async.bulk.tensor" and
// "Parallel Synchronization and Communication Instructions: mbarrier".
//
//===----------------------------------------------------------------------===//

#include "PtxDecoder.h"

#include <string>

namespace amp {
namespace emu {

bool Decoder::decodeMatrixLoadStore() {
  const std::string &b = m.base();
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
  // m64nNk16 for .f16/.bf16 inputs, m64nNk32 for the FP8 inputs .e4m3 and
  // .e5m2 (PTX ISA, "wgmma.mma_async"; .atype and .btype may differ for
  // FP8 only).
  bool shapeFound = false;
  for (int n = 8; n <= 256 && !shapeFound; n += 8)
    for (int k : {16, 32}) {
      std::string s = "m64n" + std::to_string(n) + "k" + std::to_string(k);
      if (m.take(s.c_str())) {
        in.m = 64, in.n = static_cast<uint16_t>(n);
        in.k = static_cast<uint16_t>(k);
        shapeFound = true;
        break;
      }
    }
  if (!shapeFound)
    return unsupportedBecause(
        "wgmma shape (only m64nNk16: f16/bf16, and m64nNk32: e4m3/e5m2)");
  std::vector<Type> t = m.takeTypes();
  if (t.size() != 3)
    return unsupportedBecause("wgmma types");
  in.type = t[0];
  in.type2 = t[1]; // A
  in.type3 = t[2]; // B
  auto isFp8 = [](Type x) { return x == Type::E4M3 || x == Type::E5M2; };
  if (in.k == 32) {
    if (!isFp8(t[1]) || !isFp8(t[2]))
      return unsupportedBecause("wgmma k32 input types other than e4m3/e5m2 "
                                "(integer and tf32 forms)");
    if (in.type != Type::F32 && in.type != Type::F16)
      return unsupportedBecause("wgmma accumulator type");
    // d, a-desc (or a), b-desc, scale-d, imm-scale-a, imm-scale-b: the FP8
    // forms have no imm-trans-a/b (transposes are for .f16/.bf16 only), so
    // A and B in shared memory are K-major.
    if (raw.size() > 6) {
      error = "wgmma with ." + std::string(typeName(t[1])) + "/." +
              typeName(t[2]) +
              " inputs takes no imm-trans operands: FP8 A and B in shared "
              "memory must be K-major (PTX ISA, wgmma.mma_async)";
      return false;
    }
    if (!operands({Type::B32, Type::B64, Type::B64, Type::Pred, Type::S32,
                   Type::S32}))
      return false;
    return done();
  }
  if (t[1] != t[2] || !(t[1] == Type::F16 || t[1] == Type::BF16))
    return unsupportedBecause("wgmma k16 input types other than f16/bf16");
  if (!(in.type == Type::F32 || (in.type == Type::F16 && t[1] == Type::F16)))
    return unsupportedBecause("wgmma accumulator type");
  if (!operandsAtLeast(7, {Type::B32, Type::B64, Type::B64, Type::Pred,
                           Type::S32, Type::S32, Type::S32, Type::S32}))
    return false;
  return done();
}

} // namespace emu
} // namespace amp
