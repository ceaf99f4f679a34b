//===- LowerFP8.cpp - FP8 conversions in kernels as PTX cvt ---------------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// --amp-gpu-lower-fp8: arith.truncf to f8E4M3FN/f8E5M2 and arith.extf from
// them in GPU code become NVVM's FP8 conversions, which are single PTX
// instructions on sm_89+ (PTX ISA, "cvt"):
//
//   truncf f32 -> f8   nvvm.convert.f32x2.to.f8x2  cvt.rn.satfinite.e4m3x2.f32
//                      (two values per instruction: pairs of a vector,
//                      else the value and 0)
//   extf f8 -> f16     nvvm.convert.f8x2.to.f16x2  cvt.rn.f16x2.e4m3x2
//
// The conversions follow amp's definition of FP8 truncf (docs/fp8.md,
// --amp-expand-fp8, the CPU build): round to nearest even; f8E4M3FN has no
// infinity and saturates finite values beyond 448 and infinities to +-448,
// which .satfinite does; f8E5M2 rounds values from 61440 (the midpoint
// above its largest finite value 57344) on to infinities, which .satfinite
// does not (it saturates to 57344), so those get a compare and select,
// unless the operand is provably clamped to +-57344 (the narrowing FP8
// mixed precision writes, min(max(x * s, -FMAX), FMAX)). NaN stays NaN.
// extf is exact (f16 holds every FP8 value; f32, f64 and bf16 through f16).
//
//===----------------------------------------------------------------------===//

#include "amp/Conversion/Passes.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir {
namespace amp {
#define GEN_PASS_DEF_AMPGPULOWERFP8PASS
#include "amp/Conversion/Passes.h.inc"
} // namespace amp
} // namespace mlir

using namespace mlir;
using namespace mlir::amp;

static bool isFP8(Type t) { return isa<Float8E4M3FNType, Float8E5M2Type>(t); }

/// Whether `type` (or its element type) is an FP8 type.
static bool hasFP8Element(Type type) {
  return isFP8(getElementTypeOrSelf(type));
}

//===----------------------------------------------------------------------===//
// Ranges of clamped operands
//===----------------------------------------------------------------------===//

/// An interval of f32 values (NaN aside).
struct Interval {
  double lo = -INFINITY, hi = INFINITY;
};

/// What is known of the values of `v`: constants, and min/max of values
/// with known intervals (the clamp of FP8 narrowing), through a few levels.
static Interval intervalOf(Value v, int depth = 4) {
  FloatAttr cst;
  if (matchPattern(v, m_Constant(&cst)))
    return {cst.getValueAsDouble(), cst.getValueAsDouble()};
  DenseElementsAttr splat;
  if (matchPattern(v, m_Constant(&splat)) && splat.isSplat() &&
      isa<FloatType>(splat.getElementType())) {
    double c = splat.getSplatValue<APFloat>().convertToDouble();
    return {c, c};
  }
  Operation *def = v.getDefiningOp();
  if (!def || depth == 0)
    return {};
  bool isMin = isa<arith::MinimumFOp, arith::MinNumFOp>(def);
  bool isMax = isa<arith::MaximumFOp, arith::MaxNumFOp>(def);
  if (!isMin && !isMax)
    return {};
  Interval a = intervalOf(def->getOperand(0), depth - 1);
  Interval b = intervalOf(def->getOperand(1), depth - 1);
  if (isMin)
    return {std::min(a.lo, b.lo), std::min(a.hi, b.hi)};
  return {std::max(a.lo, b.lo), std::max(a.hi, b.hi)};
}

//===----------------------------------------------------------------------===//
// Patterns
//===----------------------------------------------------------------------===//

/// Whether truncf's result needs infinities set after the cvt: f8E5M2
/// (cvt.satfinite saturates where amp's truncf gives infinities), unless the
/// operand is clamped to the finite range.
static bool needsInfinities(arith::TruncFOp op) {
  if (!isa<Float8E5M2Type>(getElementTypeOrSelf(op.getType())))
    return false;
  Interval range = intervalOf(op.getIn());
  return !(range.lo >= -57344.0 && range.hi <= 57344.0);
}

/// cvt.rn.satfinite of the f32 values `a` and `b` to the FP8 type `fp8`, as
/// vector<2xi8> [cvt(b), cvt(a)] (d[15:8] = cvt(a), d[7:0] = cvt(b)).
static Value convertPair(OpBuilder &b, Location loc, Value hi, Value lo,
                         Type fp8) {
  return NVVM::ConvertF32x2ToF8x2Op::create(
             b, loc, VectorType::get({2}, b.getI8Type()), hi, lo,
             NVVM::FPRoundingMode::RN, NVVM::SaturationMode::SATFINITE,
             /*relu=*/false, fp8)
      .getResult();
}

/// Byte `i` of a converted pair, with f8E5M2's infinities where `x`
/// (f32) is at least 61440 in magnitude (NaN is not) when `infinities`.
static Value pairByte(OpBuilder &b, Location loc, Value pair, int64_t i,
                      Value x, bool infinities) {
  Value bits = vector::ExtractOp::create(b, loc, pair, ArrayRef<int64_t>{i});
  if (!infinities)
    return bits;
  Type i8 = b.getI8Type();
  Value big = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(61440.0));
  Value negBig = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(-61440.0));
  Value over = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGE, x, big);
  Value under =
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLE, x, negBig);
  Value posInf = arith::ConstantIntOp::create(b, loc, i8, 0x7c);
  Value negInf = arith::ConstantIntOp::create(b, loc, i8, 0xfc);
  bits = arith::SelectOp::create(b, loc, over, posInf, bits);
  return arith::SelectOp::create(b, loc, under, negInf, bits);
}

/// Whether `op` is a truncf this pass lowers: to FP8, from f32/f16/bf16,
/// rounding to nearest even.
static bool isLowerableTruncF(arith::TruncFOp op) {
  Type dstElt = getElementTypeOrSelf(op.getType());
  Type srcElt = getElementTypeOrSelf(op.getIn().getType());
  if (!isFP8(dstElt) || !(srcElt.isF32() || srcElt.isF16() || srcElt.isBF16()))
    return false;
  auto mode = op.getRoundingmodeAttr();
  return !mode || mode.getValue() == arith::RoundingMode::to_nearest_even;
}

/// Scalar truncf from f32 to FP8 in one block are converted two per cvt:
/// a truncf whose results are used only after the next one in the block
/// shares its instruction (the computations of several elements before
/// their stores, as the wgmma kernel's FP8 epilogue emits them).
static void pairScalarTruncations(Operation *root) {
  SmallVector<std::pair<arith::TruncFOp, arith::TruncFOp>> pairs;
  root->walk([&](Block *block) {
    arith::TruncFOp pending;
    for (Operation &op : *block) {
      auto trunc = dyn_cast<arith::TruncFOp>(op);
      if (!trunc || !isLowerableTruncF(trunc) ||
          !trunc.getIn().getType().isF32())
        continue;
      if (pending && pending.getType() == trunc.getType() &&
          llvm::all_of(pending->getUsers(), [&](Operation *user) {
            Operation *at = block->findAncestorOpInBlock(*user);
            return at && trunc->isBeforeInBlock(at);
          })) {
        pairs.push_back({pending, trunc});
        pending = {};
        continue;
      }
      pending = trunc;
    }
  });
  for (auto [first, second] : pairs) {
    OpBuilder b(second);
    Location loc = second.getLoc();
    Type fp8 = second.getType();
    Value pair = convertPair(b, loc, second.getIn(), first.getIn(), fp8);
    Value lo = pairByte(b, loc, pair, 0, first.getIn(), needsInfinities(first));
    Value hi =
        pairByte(b, loc, pair, 1, second.getIn(), needsInfinities(second));
    first.replaceAllUsesWith(
        arith::BitcastOp::create(b, loc, fp8, lo).getResult());
    second.replaceAllUsesWith(
        arith::BitcastOp::create(b, loc, fp8, hi).getResult());
    first.erase();
    second.erase();
  }
}

namespace {

/// truncf to FP8: cvt.rn.satfinite pairs (and f8E5M2's infinities).
struct LowerTruncFToFP8 : public OpRewritePattern<arith::TruncFOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(arith::TruncFOp op,
                                PatternRewriter &rewriter) const override {
    if (!isLowerableTruncF(op))
      return rewriter.notifyMatchFailure(op, "not a truncf to FP8 we lower");
    Type dstElt = getElementTypeOrSelf(op.getType());
    Type srcElt = getElementTypeOrSelf(op.getIn().getType());
    Location loc = op.getLoc();
    Type f32 = rewriter.getF32Type();
    Value in = op.getIn();
    auto vecType = dyn_cast<VectorType>(in.getType());
    if (vecType && (vecType.getRank() != 1 || vecType.isScalable()))
      return rewriter.notifyMatchFailure(op, "not a 1-D vector");
    // 16-bit sources through an exact extension to f32.
    if (!srcElt.isF32())
      in = arith::ExtFOp::create(rewriter, loc,
                                 vecType ? Type(vecType.clone(f32)) : f32, in);
    bool infinities = needsInfinities(op);
    Value zero =
        arith::ConstantOp::create(rewriter, loc, rewriter.getF32FloatAttr(0.0));
    if (!vecType) {
      Value pair = convertPair(rewriter, loc, zero, in, dstElt);
      Value bits = pairByte(rewriter, loc, pair, 0, in, infinities);
      rewriter.replaceOpWithNewOp<arith::BitcastOp>(op, dstElt, bits);
      return success();
    }
    // Vectors: two elements per conversion.
    int64_t n = vecType.getNumElements();
    SmallVector<Value> bytes;
    for (int64_t i = 0; i < n; i += 2) {
      Value x0 =
          vector::ExtractOp::create(rewriter, loc, in, ArrayRef<int64_t>{i});
      Value x1 = i + 1 < n ? vector::ExtractOp::create(rewriter, loc, in,
                                                       ArrayRef<int64_t>{i + 1})
                                 .getResult()
                           : zero;
      Value pair = convertPair(rewriter, loc, x1, x0, dstElt);
      bytes.push_back(pairByte(rewriter, loc, pair, 0, x0, infinities));
      if (i + 1 < n)
        bytes.push_back(pairByte(rewriter, loc, pair, 1, x1, infinities));
    }
    Value packed = vector::FromElementsOp::create(
        rewriter, loc, VectorType::get({n}, rewriter.getI8Type()), bytes);
    rewriter.replaceOpWithNewOp<arith::BitcastOp>(op, op.getType(), packed);
    return success();
  }
};

/// extf from FP8: cvt.rn.f16x2 of a pair, then f16 to the destination.
struct LowerExtFFromFP8 : public OpRewritePattern<arith::ExtFOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(arith::ExtFOp op,
                                PatternRewriter &rewriter) const override {
    Type srcElt = getElementTypeOrSelf(op.getIn().getType());
    Type dstElt = getElementTypeOrSelf(op.getType());
    if (!isFP8(srcElt))
      return failure();
    if (!(dstElt.isF16() || dstElt.isF32() || dstElt.isF64() ||
          dstElt.isBF16()))
      return rewriter.notifyMatchFailure(op, "destination type");
    Location loc = op.getLoc();
    auto vecType = dyn_cast<VectorType>(op.getIn().getType());
    if (vecType && (vecType.getRank() != 1 || vecType.isScalable()))
      return rewriter.notifyMatchFailure(op, "not a 1-D vector");
    auto i8 = rewriter.getI8Type();
    Type f16 = rewriter.getF16Type();
    auto pairType = VectorType::get({2}, i8);
    auto halfPair = VectorType::get({2}, f16);
    auto convert = [&](Value pair) -> Value {
      return NVVM::ConvertF8x2ToF16x2Op::create(rewriter, loc, halfPair, pair,
                                                /*relu=*/false, srcElt)
          .getResult();
    };
    Value halves;
    if (!vecType) {
      Value bits = arith::BitcastOp::create(rewriter, loc, i8, op.getIn());
      Value pair = vector::BroadcastOp::create(rewriter, loc, pairType, bits);
      halves = vector::ExtractOp::create(rewriter, loc, convert(pair),
                                         ArrayRef<int64_t>{0});
    } else {
      int64_t n = vecType.getNumElements();
      Value bytes = arith::BitcastOp::create(
          rewriter, loc, VectorType::get({n}, i8), op.getIn());
      SmallVector<Value> out;
      for (int64_t i = 0; i < n; i += 2) {
        Value pair;
        if (i + 1 < n)
          pair = vector::ExtractStridedSliceOp::create(
              rewriter, loc, bytes, ArrayRef<int64_t>{i}, ArrayRef<int64_t>{2},
              ArrayRef<int64_t>{1});
        else
          pair = vector::BroadcastOp::create(
              rewriter, loc, pairType,
              vector::ExtractOp::create(rewriter, loc, bytes,
                                        ArrayRef<int64_t>{i}));
        Value h = convert(pair);
        out.push_back(
            vector::ExtractOp::create(rewriter, loc, h, ArrayRef<int64_t>{0}));
        if (i + 1 < n)
          out.push_back(vector::ExtractOp::create(rewriter, loc, h,
                                                  ArrayRef<int64_t>{1}));
      }
      halves = vector::FromElementsOp::create(rewriter, loc,
                                              VectorType::get({n}, f16), out);
    }
    // f16 holds every FP8 value: the rest is exact.
    Type halfType = halves.getType();
    auto like = [&](Type elt) -> Type {
      if (auto v = dyn_cast<VectorType>(halfType))
        return v.clone(elt);
      return elt;
    };
    Value result = halves;
    if (dstElt.isF32() || dstElt.isF64())
      result = arith::ExtFOp::create(rewriter, loc, op.getType(), result);
    else if (dstElt.isBF16())
      result = arith::TruncFOp::create(
          rewriter, loc, op.getType(),
          arith::ExtFOp::create(rewriter, loc, like(rewriter.getF32Type()),
                                result));
    rewriter.replaceOp(op, result);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

struct AmpGPULowerFP8Pass
    : public amp::impl::AmpGPULowerFP8PassBase<AmpGPULowerFP8Pass> {
  using Base::Base;

  void runOnOperation() override {
    // What cannot be lowered: reported, the kernel cannot be built.
    WalkResult unsupported = getOperation()->walk([&](Operation *op) {
      if (!isa_and_nonnull<arith::ArithDialect, math::MathDialect>(
              op->getDialect()))
        return WalkResult::advance();
      bool fp8 = llvm::any_of(op->getOperandTypes(), hasFP8Element) ||
                 llvm::any_of(op->getResultTypes(), hasFP8Element);
      if (!fp8 || isa<arith::ConstantOp, arith::SelectOp, arith::BitcastOp>(op))
        return WalkResult::advance();
      if (auto trunc = dyn_cast<arith::TruncFOp>(op)) {
        Type src = getElementTypeOrSelf(trunc.getIn().getType());
        auto mode = trunc.getRoundingmodeAttr();
        if (!(src.isF32() || src.isF16() || src.isBF16())) {
          op->emitError() << "amp-gpu-lower-fp8: truncation from " << src
                          << " to FP8 is not supported in GPU code (only "
                             "from f32, f16 and bf16: rounding f64 to f32 "
                             "first would round twice)";
          return WalkResult::interrupt();
        }
        if (mode && mode.getValue() != arith::RoundingMode::to_nearest_even) {
          op->emitError() << "amp-gpu-lower-fp8: truncation to FP8 with "
                             "rounding mode "
                          << arith::stringifyRoundingMode(mode.getValue())
                          << " is not supported (PTX rounds FP8 to nearest "
                             "even only)";
          return WalkResult::interrupt();
        }
        if (auto v = dyn_cast<VectorType>(trunc.getType());
            v && (v.getRank() != 1 || v.isScalable())) {
          op->emitError("amp-gpu-lower-fp8: only scalars and 1-D vectors");
          return WalkResult::interrupt();
        }
        return WalkResult::advance();
      }
      if (auto ext = dyn_cast<arith::ExtFOp>(op)) {
        if (auto v = dyn_cast<VectorType>(ext.getType());
            v && (v.getRank() != 1 || v.isScalable())) {
          op->emitError("amp-gpu-lower-fp8: only scalars and 1-D vectors");
          return WalkResult::interrupt();
        }
        return WalkResult::advance();
      }
      op->emitError() << "amp-gpu-lower-fp8: '" << op->getName()
                      << "' on FP8 values in GPU code: only conversions "
                         "(arith.truncf, arith.extf) are supported; FP8 "
                         "products run on Tensor Cores";
      return WalkResult::interrupt();
    });
    if (unsupported.wasInterrupted())
      return signalPassFailure();

    pairScalarTruncations(getOperation());
    RewritePatternSet patterns(&getContext());
    populateAmpGPULowerFP8Patterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
    getOperation()->walk([&](Operation *op) {
      if (isa<NVVM::ConvertF32x2ToF8x2Op, NVVM::ConvertF8x2ToF16x2Op>(op))
        ++numConversions;
    });
  }
};

} // namespace

void mlir::amp::populateAmpGPULowerFP8Patterns(RewritePatternSet &patterns) {
  patterns.add<LowerTruncFToFP8, LowerExtFFromFP8>(patterns.getContext());
}
