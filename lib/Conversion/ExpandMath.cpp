//===- ExpandMath.cpp - Math in GPU code without libdevice ----------------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// --amp-gpu-expand-math: the NVVM lowering maps math ops (and a few arith
// ops) to libdevice calls (__nv_expf, __nv_fmaf, ...), which only a CUDA
// toolkit provides at compile time; without one, the PTX keeps `.extern
// .func` declarations that nothing can resolve. This pass leaves nothing for
// libdevice: 16-bit math is computed in f32, functions without a PTX
// instruction are expanded with upstream's polynomial approximations and
// math expansions, and the rest become LLVM intrinsics that NVPTX lowers to
// single instructions.
//
//===----------------------------------------------------------------------===//

#include "amp/Conversion/Passes.h"

#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Transforms/DialectConversion.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/MathExtras.h"

namespace mlir {
namespace amp {
#define GEN_PASS_DEF_AMPGPUEXPANDMATHPASS
#include "amp/Conversion/Passes.h.inc"
} // namespace amp
} // namespace mlir

using namespace mlir;
using namespace mlir::amp;

//===----------------------------------------------------------------------===//
// Expansions
//===----------------------------------------------------------------------===//

/// A constant of `type` (a float or integer type, or a shaped type of one)
/// with every element `value`.
static Value splat(ImplicitLocOpBuilder &b, Type type, double value) {
  Type elt = getElementTypeOrSelf(type);
  TypedAttr attr = isa<FloatType>(elt)
                       ? TypedAttr(b.getFloatAttr(elt, value))
                       : TypedAttr(b.getIntegerAttr(elt, int64_t(value)));
  if (auto shaped = dyn_cast<ShapedType>(type))
    attr = DenseElementsAttr::get(shaped, attr);
  return arith::ConstantOp::create(b, attr);
}

namespace {
/// log10(x) = log(x) * log10(e): upstream has no expansion of log10.
struct ExpandLog10 : public OpRewritePattern<math::Log10Op> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(math::Log10Op op,
                                PatternRewriter &rewriter) const override {
    if (!isa<FloatType>(getElementTypeOrSelf(op.getType())))
      return failure();
    ImplicitLocOpBuilder b(op.getLoc(), rewriter);
    Value c = splat(b, op.getType(), llvm::numbers::log10e);
    Value log = math::LogOp::create(b, op.getOperand(), op.getFastmathAttr());
    rewriter.replaceOpWithNewOp<arith::MulFOp>(op, log, c,
                                               op.getFastmathAttr());
    return success();
  }
};

/// exp2(x) = 2^n * exp(f * ln 2) with n = roundeven(x) and f = x - n in
/// [-0.5, 0.5] (exact). Upstream's exp(x * ln 2) rounds the product, an
/// error that grows with |x| (60 ulp near x = -96); here it stays below 1
/// ulp. 2^n is built from exponent bits in two halves, so that every n of
/// the f32 range is exact and only the last product rounds (subnormal and
/// infinite results included).
struct ExpandExp2 : public OpRewritePattern<math::Exp2Op> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(math::Exp2Op op,
                                PatternRewriter &rewriter) const override {
    Type type = op.getType();
    if (!getElementTypeOrSelf(type).isF32())
      return failure();
    ImplicitLocOpBuilder b(op.getLoc(), rewriter);
    Type intType = b.getI32Type();
    if (auto shaped = dyn_cast<ShapedType>(type))
      intType = shaped.clone(intType);
    Value x = op.getOperand();
    // Beyond +-160 the result is 0 or inf anyway; NaN passes through.
    Value clamped = arith::MaximumFOp::create(
        b, arith::MinimumFOp::create(b, x, splat(b, type, 160.0)),
        splat(b, type, -160.0));
    Value n = math::RoundEvenOp::create(b, clamped);
    Value f = arith::SubFOp::create(b, clamped, n);
    Value e = math::ExpOp::create(
        b, arith::MulFOp::create(b, f, splat(b, type, llvm::numbers::ln2)));
    Value ni = arith::FPToSIOp::create(b, intType, n);
    Value n1 = arith::ShRSIOp::create(b, ni, splat(b, intType, 1));
    Value n2 = arith::SubIOp::create(b, ni, n1);
    auto pow2 = [&](Value k) -> Value {
      Value biased = arith::AddIOp::create(b, k, splat(b, intType, 127));
      return arith::BitcastOp::create(
          b, type, arith::ShLIOp::create(b, biased, splat(b, intType, 23)));
    };
    Value result = arith::MulFOp::create(
        b, arith::MulFOp::create(b, e, pow2(n1)), pow2(n2));
    Value isNan = arith::CmpFOp::create(b, arith::CmpFPredicate::UNO, x, x);
    rewriter.replaceOpWithNewOp<arith::SelectOp>(op, isNan, x, result);
    return success();
  }
};

/// arith.remf (C's fmod: the sign of x, |r| < |y|, always exact), which the
/// NVVM lowering leaves as llvm.frem, a libdevice call. Binary long
/// division: t = |y| * 2^k, the largest such t <= |x|, then t is halved
/// down to |y|, taken off the remainder wherever it fits. Each step is
/// exact (t <= r < 2t, so r - t is exact by Sterbenz's lemma; scaling by 2
/// is exact), so the result is fmod's exactly, in one step per binade
/// between the operands (at most 277 for f32). 16-bit operands are
/// computed in f32 (the remainder of two 16-bit values is a 16-bit value,
/// so the truncation after it is exact). An infinite or NaN x, or a NaN or
/// zero y, gives NaN; an infinite y gives x.
struct ExpandRemF : public OpRewritePattern<arith::RemFOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(arith::RemFOp op,
                                PatternRewriter &rewriter) const override {
    auto type = dyn_cast<FloatType>(op.getType());
    if (!type)
      return failure();
    ImplicitLocOpBuilder b(op.getLoc(), rewriter);
    Value x = op.getLhs(), y = op.getRhs();
    if (type.getWidth() < 32) {
      x = arith::ExtFOp::create(b, b.getF32Type(), x);
      y = arith::ExtFOp::create(b, b.getF32Type(), y);
    }
    Value r = remainder(b, x, y);
    if (r.getType() != type)
      r = arith::TruncFOp::create(b, type, r);
    rewriter.replaceOp(op, r);
    return success();
  }

private:
  static Value remainder(ImplicitLocOpBuilder &b, Value x, Value y) {
    using P = arith::CmpFPredicate;
    Type type = x.getType();
    auto cmp = [](ImplicitLocOpBuilder &ib, P predicate, Value l, Value r) {
      return arith::CmpFOp::create(ib, predicate, l, r);
    };
    Value inf = splat(b, type, INFINITY), zero = splat(b, type, 0.0);
    Value two = splat(b, type, 2.0), half = splat(b, type, 0.5);
    Value ax = math::AbsFOp::create(b, x), ay = math::AbsFOp::create(b, y);
    // (Ordered comparisons: false for NaN.)
    Value finiteX = cmp(b, P::OLT, ax, inf);
    Value valid = arith::AndIOp::create(
        b, finiteX,
        arith::AndIOp::create(b, cmp(b, P::OGT, ay, zero),
                              cmp(b, P::OLT, ay, inf)));
    ax = arith::SelectOp::create(b, valid, ax, zero);
    ay = arith::SelectOp::create(b, valid, ay, splat(b, type, 1.0));
    // t = ay * 2^k <= ax < 2t (or t = ay when ax < ay).
    auto up = scf::WhileOp::create(
        b, TypeRange{type}, ValueRange{ay},
        [&](OpBuilder &nested, Location loc, ValueRange args) {
          ImplicitLocOpBuilder ib(loc, nested);
          Value twice = arith::MulFOp::create(ib, args[0], two);
          scf::ConditionOp::create(ib, cmp(ib, P::OLE, twice, ax), args);
        },
        [&](OpBuilder &nested, Location loc, ValueRange args) {
          ImplicitLocOpBuilder ib(loc, nested);
          scf::YieldOp::create(ib, ValueRange{arith::MulFOp::create(
                                       ib, args[0], two)});
        });
    auto down = scf::WhileOp::create(
        b, TypeRange{type, type}, ValueRange{ax, up.getResult(0)},
        [&](OpBuilder &nested, Location loc, ValueRange args) {
          ImplicitLocOpBuilder ib(loc, nested);
          scf::ConditionOp::create(ib, cmp(ib, P::OGE, args[1], ay), args);
        },
        [&](OpBuilder &nested, Location loc, ValueRange args) {
          ImplicitLocOpBuilder ib(loc, nested);
          Value rem = args[0], t = args[1];
          Value fits = cmp(ib, P::OGE, rem, t);
          rem = arith::SelectOp::create(
              ib, fits, arith::SubFOp::create(ib, rem, t), rem);
          scf::YieldOp::create(
              ib, ValueRange{rem, arith::MulFOp::create(ib, t, half)});
        });
    Value r = math::CopySignOp::create(b, down.getResult(0), x);
    // Not valid: x itself for a finite x and an infinite y, else NaN.
    Value keepX = arith::AndIOp::create(
        b, finiteX, cmp(b, P::OEQ, math::AbsFOp::create(b, y), inf));
    Value special =
        arith::SelectOp::create(b, keepX, x, splat(b, type, NAN));
    return arith::SelectOp::create(b, valid, r, special);
  }
};
} // namespace

void mlir::amp::reduceTrigonometricArguments(Operation *root) {
  SmallVector<Operation *> ops;
  root->walk([&](Operation *op) {
    if (isa<math::SinOp, math::CosOp>(op) &&
        getElementTypeOrSelf(op->getOperand(0)).isF32())
      ops.push_back(op);
  });
  // 2*pi = kHi + kMid + kLo, with kHi and kMid short enough (8 and 11
  // significant bits) that j * kHi and j * kMid are exact for the j that
  // f32 arguments give; each step is one FMA.
  constexpr double kInvTwoPi = 0.15915494309189533577;
  constexpr double kHi = 6.28125;
  constexpr double kMid = 1.93500518798828125e-3;
  constexpr double kLo = 3.01991598195675286e-7;
  for (Operation *op : ops) {
    ImplicitLocOpBuilder b(op->getLoc(), op);
    Value x = op->getOperand(0);
    Type type = x.getType();
    Value j = math::RoundEvenOp::create(
        b, arith::MulFOp::create(b, x, splat(b, type, kInvTwoPi)));
    Value negJ = arith::NegFOp::create(b, j);
    Value r = math::FmaOp::create(b, negJ, splat(b, type, kHi), x);
    r = math::FmaOp::create(b, negJ, splat(b, type, kMid), r);
    r = math::FmaOp::create(b, negJ, splat(b, type, kLo), r);
    op->setOperand(0, r);
  }
}

void mlir::amp::populateGPUMathExpansionPatterns(RewritePatternSet &patterns) {
  // Polynomial (or rational) approximations on f32; upstream extends f16
  // and bf16 operands of these to f32 itself.
  populateMathPolynomialApproximationPatterns(patterns);
  // Expansions into the functions above (or into arithmetic). Not `fma`,
  // `ceil`, `round`, `roundeven` (PTX has instructions), `tanh` (the
  // rational approximation above is more accurate than the exp form), nor
  // `exp2` (ExpandExp2 is more accurate for large |x|).
  math::populateExpansionPatterns(patterns, {"sinh", "cosh", "tan", "asinh",
                                             "acosh", "atanh", "powf", "fpowi",
                                             "rsqrt", "clampf"});
  patterns.add<ExpandExp2, ExpandLog10>(patterns.getContext());
}

//===----------------------------------------------------------------------===//
// PTX-native ops to LLVM intrinsics
//===----------------------------------------------------------------------===//

namespace {
/// Replaces a float math op by a call of the LLVM intrinsic `intrinsic` with
/// the same operands and result. The GPU-to-NVVM lowering marks several LLVM
/// dialect intrinsic ops (llvm.intr.fabs, llvm.intr.sqrt, ...) illegal to
/// route them to libdevice, but keeps llvm.call_intrinsic; NVPTX lowers
/// every intrinsic used here to one instruction (or a short inline
/// sequence), never a call.
template <typename OpTy>
struct MathToIntrinsic : public OpRewritePattern<OpTy> {
  MathToIntrinsic(MLIRContext *context, StringRef intrinsic)
      : OpRewritePattern<OpTy>(context), intrinsic(intrinsic) {}

  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    Type type = op->getResult(0).getType();
    if (!LLVM::isCompatibleType(type))
      return rewriter.notifyMatchFailure(op, "not an LLVM-compatible type");
    rewriter.replaceOpWithNewOp<LLVM::CallIntrinsicOp>(
        op, TypeRange{type}, rewriter.getStringAttr(intrinsic),
        op->getOperands(), LLVM::FastmathFlagsAttr{});
    return success();
  }

  std::string intrinsic;
};

/// math.absi -> llvm.intr.abs (INT_MIN stays INT_MIN, as math.absi says).
struct AbsIToIntrinsic : public OpRewritePattern<math::AbsIOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(math::AbsIOp op,
                                PatternRewriter &rewriter) const override {
    if (!LLVM::isCompatibleType(op.getType()))
      return failure();
    rewriter.replaceOpWithNewOp<LLVM::AbsOp>(op, op.getType(), op.getOperand(),
                                             /*is_int_min_poison=*/false);
    return success();
  }
};

/// math.ctlz / math.cttz -> llvm.intr.ctlz / cttz (defined for zero).
template <typename OpTy, typename IntrinsicOpTy>
struct CountZerosToIntrinsic : public OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;

  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    if (!LLVM::isCompatibleType(op.getType()))
      return failure();
    rewriter.replaceOpWithNewOp<IntrinsicOpTy>(op, op.getType(),
                                               op.getOperand(),
                                               /*is_zero_poison=*/false);
    return success();
  }
};

/// math.ctpop -> llvm.intr.ctpop.
struct CtPopToIntrinsic : public OpRewritePattern<math::CtPopOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(math::CtPopOp op,
                                PatternRewriter &rewriter) const override {
    if (!LLVM::isCompatibleType(op.getType()))
      return failure();
    rewriter.replaceOpWithNewOp<LLVM::CtPopOp>(op, op.getType(),
                                               op.getOperand());
    return success();
  }
};

/// math.isnan / isinf / isfinite -> llvm.intr.is.fpclass with the class
/// mask of the test (LLVM's FPClassTest bits).
template <typename OpTy>
struct ClassTestToIntrinsic : public OpRewritePattern<OpTy> {
  ClassTestToIntrinsic(MLIRContext *context, uint32_t mask)
      : OpRewritePattern<OpTy>(context), mask(mask) {}

  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    if (!LLVM::isCompatibleType(op.getOperand().getType()))
      return failure();
    rewriter.replaceOpWithNewOp<LLVM::IsFPClass>(op, op.getType(),
                                                 op.getOperand(), mask);
    return success();
  }

  uint32_t mask;
};
} // namespace

void mlir::amp::populateGPUMathToLLVMIntrinsicPatterns(
    RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  // PTX: fma.rn, sqrt.rn, abs, cvt.rmi / cvt.rpi / cvt.rzi / cvt.rni,
  // copysign; llvm.round is expanded inline by NVPTX (half away from zero).
  patterns.add<MathToIntrinsic<math::FmaOp>>(ctx, "llvm.fma");
  patterns.add<MathToIntrinsic<math::SqrtOp>>(ctx, "llvm.sqrt");
  patterns.add<MathToIntrinsic<math::AbsFOp>>(ctx, "llvm.fabs");
  patterns.add<MathToIntrinsic<math::FloorOp>>(ctx, "llvm.floor");
  patterns.add<MathToIntrinsic<math::CeilOp>>(ctx, "llvm.ceil");
  patterns.add<MathToIntrinsic<math::TruncOp>>(ctx, "llvm.trunc");
  patterns.add<MathToIntrinsic<math::RoundEvenOp>>(ctx, "llvm.roundeven");
  patterns.add<MathToIntrinsic<math::RoundOp>>(ctx, "llvm.round");
  patterns.add<MathToIntrinsic<math::CopySignOp>>(ctx, "llvm.copysign");
  patterns.add<AbsIToIntrinsic, CtPopToIntrinsic,
               CountZerosToIntrinsic<math::CountLeadingZerosOp,
                                     LLVM::CountLeadingZerosOp>,
               CountZerosToIntrinsic<math::CountTrailingZerosOp,
                                     LLVM::CountTrailingZerosOp>>(ctx);
  // FPClassTest: signaling NaN 1, quiet NaN 2, -inf 4, +inf 512; the finite
  // classes are everything but those.
  constexpr uint32_t kNan = 0x3, kInf = 0x204, kAll = 0x3ff;
  patterns.add<ClassTestToIntrinsic<math::IsNaNOp>>(ctx, kNan);
  patterns.add<ClassTestToIntrinsic<math::IsInfOp>>(ctx, kInf);
  patterns.add<ClassTestToIntrinsic<math::IsFiniteOp>>(ctx,
                                                       kAll & ~(kNan | kInf));
}

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

namespace {
struct AmpGPUExpandMathPass
    : public amp::impl::AmpGPUExpandMathPassBase<AmpGPUExpandMathPass> {
  using Base::Base;

  void runOnOperation() override;
};
} // namespace

/// Whether `op` is a math op that PTX has an instruction for (mapped by
/// populateGPUMathToLLVMIntrinsicPatterns, not expanded).
static bool isPTXNative(Operation *op) {
  return isa<math::FmaOp, math::SqrtOp, math::AbsFOp, math::FloorOp,
             math::CeilOp, math::TruncOp, math::RoundEvenOp, math::RoundOp,
             math::CopySignOp, math::AbsIOp, math::CtPopOp,
             math::CountLeadingZerosOp, math::CountTrailingZerosOp,
             math::IsNaNOp, math::IsInfOp, math::IsFiniteOp>(op);
}

/// Counts the math ops under `root` that `filter` accepts.
static int64_t countMathOps(Operation *root,
                            function_ref<bool(Operation *)> filter) {
  int64_t count = 0;
  root->walk([&](Operation *op) {
    if (isa<math::MathDialect>(op->getDialect()) && filter(op))
      ++count;
  });
  return count;
}

void AmpGPUExpandMathPass::runOnOperation() {
  Operation *root = getOperation();
  MLIRContext *ctx = &getContext();
  // 0. Float remainders (llvm.frem would be a libdevice call).
  int64_t remainders = 0;
  root->walk([&](arith::RemFOp) { ++remainders; });
  if (remainders) {
    RewritePatternSet patterns(ctx);
    patterns.add<ExpandRemF>(ctx);
    if (failed(applyPatternsGreedily(root, std::move(patterns))))
      return signalPassFailure();
    numExpanded += remainders;
    WalkResult left = root->walk([&](arith::RemFOp op) {
      op.emitError() << "amp-gpu-expand-math: no expansion for 'arith.remf' "
                        "on "
                     << op.getType() << " (GPU code cannot call libdevice)";
      return WalkResult::interrupt();
    });
    if (left.wasInterrupted())
      return signalPassFailure();
  }
  if (countMathOps(root, [](Operation *) { return true; }) == 0)
    return;
  numExpanded +=
      countMathOps(root, [](Operation *op) { return !isPTXNative(op); });

  // 1. f16/bf16 (any float type but f32 and f64) math in f32.
  {
    // The converter keeps a reference to the supported types.
    SetVector<Type> supported;
    supported.insert(Float32Type::get(ctx));
    supported.insert(Float64Type::get(ctx));
    TypeConverter converter;
    math::populateExtendToSupportedTypesTypeConverter(converter, supported,
                                                      Float32Type::get(ctx));
    ConversionTarget target(*ctx);
    math::populateExtendToSupportedTypesConversionTarget(target, converter);
    RewritePatternSet patterns(ctx);
    math::populateExtendToSupportedTypesPatterns(patterns, converter);
    if (failed(applyPartialConversion(root, target, std::move(patterns))))
      return signalPassFailure();
  }

  // 2. Expansions into arithmetic and PTX-native math.
  reduceTrigonometricArguments(root);
  {
    RewritePatternSet patterns(ctx);
    populateGPUMathExpansionPatterns(patterns);
    if (failed(applyPatternsGreedily(root, std::move(patterns))))
      return signalPassFailure();
  }
  numIntrinsics += countMathOps(root, isPTXNative);

  // 3. PTX-native math to LLVM intrinsics.
  {
    RewritePatternSet patterns(ctx);
    populateGPUMathToLLVMIntrinsicPatterns(patterns);
    if (failed(applyPatternsGreedily(root, std::move(patterns))))
      return signalPassFailure();
  }

  // Anything left would become a libdevice call.
  WalkResult result = root->walk([&](Operation *op) {
    if (!isa<math::MathDialect>(op->getDialect()))
      return WalkResult::advance();
    op->emitError() << "amp-gpu-expand-math: no expansion for '"
                    << op->getName() << "' on " << op->getResultTypes()
                    << " (GPU code cannot call libdevice)";
    return WalkResult::interrupt();
  });
  if (result.wasInterrupted())
    return signalPassFailure();
}
