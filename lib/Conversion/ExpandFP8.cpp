//===- ExpandFP8.cpp - FP8 conversions as integer arithmetic --------------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// --amp-expand-fp8: arith.truncf to f8E4M3FN / f8E5M2 and arith.extf from
// them, written as arithmetic on the bits in i32, so that code for targets
// without FP8 (the host CPU, SIMT GPU code) lowers through the LLVM dialect,
// which stores FP8 values as i8. The arithmetic is that of
// amp::convertF32ToFP8 / convertFP8ToF32 (lib/Utils/FloatConversion.cpp),
// which convert weights at compile time:
//
//   truncf: a = |x| (bits); a normal result rebiases the exponent and rounds
//   the mantissa to nearest even (a carry ripples into the exponent); a
//   subnormal one rounds the significand, in units of the smallest
//   subnormal; then saturation (E4M3FN: +-448, infinities too; E5M2: to
//   infinity) and NaN.
//   extf: rebias a normal value; normalize a subnormal one (the position of
//   its leading bit from comparisons); zeros, NaNs and E5M2 infinities.
//
//===----------------------------------------------------------------------===//

#include "amp/Conversion/Passes.h"

#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir {
namespace amp {
#define GEN_PASS_DEF_AMPEXPANDFP8PASS
#include "amp/Conversion/Passes.h.inc"
} // namespace amp
} // namespace mlir

using namespace mlir;
using namespace mlir::amp;

namespace {

/// The parameters of an FP8 format, as FloatConversion.cpp has them.
struct Format {
  unsigned mantissaBits;
  int bias;
  /// The encoding of the largest finite value, sign clear.
  int64_t maxFinite;
  /// E5M2: infinities and NaNs with an all-ones exponent.
  bool ieee;
};

std::optional<Format> getFormat(Type type) {
  if (isa<Float8E4M3FNType>(type))
    return Format{3, 7, 0x7e, false};
  if (isa<Float8E5M2Type>(type))
    return Format{2, 15, 0x7b, true};
  return std::nullopt;
}

/// Builds integer arithmetic on values of one shape (a scalar, a vector or a
/// tensor): constants are splats of that shape.
struct BitBuilder {
  ImplicitLocOpBuilder &b;
  /// The shape, as a type whose element type is replaced.
  Type shape;

  Type withElement(Type elt) const {
    if (auto shaped = dyn_cast<ShapedType>(shape))
      return shaped.clone(elt);
    return elt;
  }
  Type i32() const { return withElement(b.getI32Type()); }

  Value constant(int64_t value, unsigned width = 32) const {
    Type elt = b.getIntegerType(width);
    TypedAttr attr = b.getIntegerAttr(elt, value);
    if (auto shaped = dyn_cast<ShapedType>(shape))
      attr = DenseElementsAttr::get(cast<ShapedType>(withElement(elt)), attr);
    return arith::ConstantOp::create(b, attr);
  }
  Value add(Value x, Value y) const { return arith::AddIOp::create(b, x, y); }
  Value add(Value x, int64_t c) const { return add(x, constant(c)); }
  Value sub(Value x, Value y) const { return arith::SubIOp::create(b, x, y); }
  Value sub(int64_t c, Value y) const { return sub(constant(c), y); }
  Value sub(Value x, int64_t c) const { return sub(x, constant(c)); }
  Value andI(Value x, int64_t c) const {
    return arith::AndIOp::create(b, x, constant(c));
  }
  Value orI(Value x, Value y) const { return arith::OrIOp::create(b, x, y); }
  Value orI(Value x, int64_t c) const { return orI(x, constant(c)); }
  Value shl(Value x, Value y) const { return arith::ShLIOp::create(b, x, y); }
  Value shl(Value x, int64_t c) const { return shl(x, constant(c)); }
  Value shr(Value x, Value y) const { return arith::ShRUIOp::create(b, x, y); }
  Value shr(Value x, int64_t c) const { return shr(x, constant(c)); }
  Value minU(Value x, int64_t c) const {
    return arith::MinUIOp::create(b, x, constant(c));
  }
  Value maxU(Value x, int64_t c) const {
    return arith::MaxUIOp::create(b, x, constant(c));
  }
  Value cmp(arith::CmpIPredicate pred, Value x, int64_t c) const {
    return arith::CmpIOp::create(b, pred, x, constant(c));
  }
  Value select(Value cond, Value x, Value y) const {
    return arith::SelectOp::create(b, cond, x, y);
  }
  Value select(Value cond, int64_t x, Value y) const {
    return select(cond, constant(x), y);
  }
};

/// The bits of `f32` (an f32 value of `bits`' shape) rounded to `format`,
/// in the low 8 bits of an i32.
Value truncateBits(const BitBuilder &bb, Value f32, const Format &format) {
  using P = arith::CmpIPredicate;
  Value u = arith::BitcastOp::create(bb.b, bb.i32(), f32);
  Value sign = bb.andI(bb.shr(u, 24), 0x80);
  Value a = bb.andI(u, 0x7fffffff);
  int minExponent = 1 - format.bias;
  int64_t minNormal = static_cast<int64_t>(127 + minExponent) << 23;

  // Normal results: rebias, then round to nearest even.
  unsigned shift = 23 - format.mantissaBits;
  Value lsb = bb.andI(bb.shr(a, shift), 1);
  Value normal = bb.shr(
      bb.add(bb.add(bb.sub(a, static_cast<int64_t>(127 - format.bias) << 23),
                    (int64_t{1} << (shift - 1)) - 1),
             lsb),
      shift);

  // Subnormal results: the significand in units of the smallest subnormal,
  // shifted right by 150 + minExponent - mantissaBits - max(exponent, 1),
  // clamped to [1, 31] (only values that round to zero shift by more; the
  // clamp keeps every shift defined on the path not taken).
  Value exponent = bb.shr(a, 23);
  Value implicit =
      bb.select(bb.cmp(P::ne, exponent, 0), 0x800000, bb.constant(0));
  Value significand = bb.orI(bb.andI(a, 0x7fffff), implicit);
  Value amount =
      bb.sub(150 + minExponent - static_cast<int64_t>(format.mantissaBits),
             bb.maxU(exponent, 1));
  amount = bb.maxU(bb.minU(amount, 31), 1);
  Value half = bb.shl(bb.constant(1), bb.sub(amount, 1));
  Value subLsb = bb.andI(bb.shr(significand, amount), 1);
  Value subnormal =
      bb.shr(bb.add(bb.add(significand, bb.sub(half, 1)), subLsb), amount);

  Value result = bb.select(bb.cmp(P::uge, a, minNormal), normal, subnormal);
  // Beyond the largest finite value (infinities included): E4M3FN
  // saturates, E5M2 becomes infinity.
  result = bb.minU(result, format.ieee ? 0x7c : format.maxFinite);
  Value nan = bb.constant(format.ieee ? 0x7e : 0x7f);
  result = bb.select(bb.cmp(P::ugt, a, 0x7f800000), nan, result);
  return bb.orI(sign, result);
}

/// The f32 bits (an i32) of the FP8 value whose bits are in `v` (an i32).
Value extendBits(const BitBuilder &bb, Value v, const Format &format) {
  using P = arith::CmpIPredicate;
  unsigned m = format.mantissaBits;
  int64_t exponentMask = (int64_t{1} << (7 - m)) - 1;
  Value sign = bb.shl(bb.andI(v, 0x80), 24);
  Value exponent = bb.andI(bb.shr(v, m), exponentMask);
  Value mantissa = bb.andI(v, (int64_t{1} << m) - 1);

  Value normal =
      bb.orI(bb.orI(sign, bb.shl(bb.add(exponent, 127 - format.bias), 23)),
             bb.shl(mantissa, 23 - m));

  // A subnormal m * 2^(1 - bias - mantissaBits) with leading bit `top`.
  Value top = bb.constant(0);
  for (unsigned k = 1; k < m; ++k) {
    Value above = bb.cmp(P::uge, mantissa, int64_t{1} << k);
    top = bb.add(top, arith::ExtUIOp::create(bb.b, bb.i32(), above));
  }
  Value biased = bb.add(top, 127 + 1 - format.bias - static_cast<int64_t>(m));
  Value subnormal =
      bb.orI(bb.orI(sign, bb.shl(biased, 23)),
             bb.andI(bb.shl(mantissa, bb.sub(23, top)), 0x7fffff));
  Value zeroMantissa = bb.cmp(P::eq, mantissa, 0);
  Value result = bb.select(bb.cmp(P::eq, exponent, 0),
                           bb.select(zeroMantissa, sign, subnormal), normal);

  Value quietNaN = bb.orI(sign, 0x7fc00000);
  if (format.ieee) {
    Value nan = bb.orI(quietNaN, bb.shl(mantissa, 23 - m));
    Value special = bb.select(zeroMantissa, bb.orI(sign, 0x7f800000), nan);
    result = bb.select(bb.cmp(P::eq, exponent, exponentMask), special, result);
  } else {
    result = bb.select(bb.cmp(P::eq, bb.andI(v, 0x7f), 0x7f), quietNaN, result);
  }
  return result;
}

/// arith.truncf to FP8 (from f32, f16 or bf16).
struct ExpandTruncFToFP8 : public OpRewritePattern<arith::TruncFOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(arith::TruncFOp op,
                                PatternRewriter &rewriter) const override {
    Type resultType = op.getType();
    std::optional<Format> format = getFormat(getElementTypeOrSelf(resultType));
    if (!format)
      return rewriter.notifyMatchFailure(op, "not a truncation to FP8");
    if (op.getRoundingmode() &&
        *op.getRoundingmode() != arith::RoundingMode::to_nearest_even)
      return rewriter.notifyMatchFailure(op, "rounding mode is not RNE");
    Type sourceElt = getElementTypeOrSelf(op.getIn().getType());
    if (!sourceElt.isF32() && !sourceElt.isF16() && !sourceElt.isBF16())
      return rewriter.notifyMatchFailure(op, "source is not f32/f16/bf16");
    ImplicitLocOpBuilder b(op.getLoc(), rewriter);
    BitBuilder bb{b, resultType};
    Value in = op.getIn();
    if (!sourceElt.isF32()) // Exact.
      in = arith::ExtFOp::create(b, bb.withElement(b.getF32Type()), in);
    Value bits = truncateBits(bb, in, *format);
    Value byte =
        arith::TruncIOp::create(b, bb.withElement(b.getI8Type()), bits);
    rewriter.replaceOpWithNewOp<arith::BitcastOp>(op, resultType, byte);
    return success();
  }
};

/// arith.extf from FP8 (to f32, and through f32 to f64, f16 or bf16).
struct ExpandExtFFromFP8 : public OpRewritePattern<arith::ExtFOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(arith::ExtFOp op,
                                PatternRewriter &rewriter) const override {
    Value in = op.getIn();
    std::optional<Format> format =
        getFormat(getElementTypeOrSelf(in.getType()));
    if (!format)
      return rewriter.notifyMatchFailure(op, "not an extension from FP8");
    Type resultType = op.getType();
    ImplicitLocOpBuilder b(op.getLoc(), rewriter);
    BitBuilder bb{b, resultType};
    Value byte = arith::BitcastOp::create(b, bb.withElement(b.getI8Type()), in);
    Value v = arith::ExtUIOp::create(b, bb.i32(), byte);
    Value bits = extendBits(bb, v, *format);
    Type f32Type = bb.withElement(b.getF32Type());
    Value f32 = arith::BitcastOp::create(b, f32Type, bits);
    Type resultElt = getElementTypeOrSelf(resultType);
    if (resultElt.isF32())
      rewriter.replaceOp(op, f32);
    else if (resultElt.getIntOrFloatBitWidth() > 32)
      rewriter.replaceOpWithNewOp<arith::ExtFOp>(op, resultType, f32);
    else // Every FP8 value is exact in f16 and bf16.
      rewriter.replaceOpWithNewOp<arith::TruncFOp>(op, resultType, f32);
    return success();
  }
};

struct AmpExpandFP8Pass
    : public amp::impl::AmpExpandFP8PassBase<AmpExpandFP8Pass> {
  using Base::Base;
  void runOnOperation() override {
    // The rewrites are local: one walk, no fixpoint.
    SmallVector<Operation *> worklist;
    getOperation()->walk([&](Operation *op) {
      if (auto trunc = dyn_cast<arith::TruncFOp>(op)) {
        if (getFormat(getElementTypeOrSelf(trunc.getType())))
          worklist.push_back(op);
      } else if (auto ext = dyn_cast<arith::ExtFOp>(op)) {
        if (getFormat(getElementTypeOrSelf(ext.getIn().getType())))
          worklist.push_back(op);
      }
    });
    RewritePatternSet patterns(&getContext());
    populateAmpExpandFP8Patterns(patterns);
    GreedyRewriteConfig config;
    config.setStrictness(GreedyRewriteStrictness::ExistingOps);
    if (failed(applyOpPatternsGreedily(worklist, std::move(patterns), config)))
      return signalPassFailure();
    // What is left (a truncf with another rounding mode, from f64) stays.
    int64_t left = 0;
    getOperation()->walk([&](Operation *op) {
      if (auto trunc = dyn_cast<arith::TruncFOp>(op))
        left += getFormat(getElementTypeOrSelf(trunc.getType())).has_value();
      else if (auto ext = dyn_cast<arith::ExtFOp>(op))
        left +=
            getFormat(getElementTypeOrSelf(ext.getIn().getType())).has_value();
    });
    numExpanded += static_cast<int64_t>(worklist.size()) - left;
  }
};

} // namespace

void mlir::amp::populateAmpExpandFP8Patterns(RewritePatternSet &patterns) {
  patterns.add<ExpandTruncFToFP8, ExpandExtFFromFP8>(patterns.getContext());
}
