//===- TosaModels.cpp - amp external models for tosa ops ------------------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Colors and rewrites of TOSA 1.0 ops. TOSA zero points are operands whose
// element type must match the data, never data themselves: the conversion
// converts constant ones with the op (isZeroPointOperand), the models rebuild
// any other as a zero constant of the new type. Convolutions and matmul follow
// TOSA 1.0's type rules: a convolution with f16 inputs produces f16 and
// accumulates in its `acc_type` (f16 or f32); a matmul with f16 inputs produces
// its accumulator type (f16 or f32).
//
// tosa.const and float-to-float tosa.cast have no model: constants are folded
// and casts are recognized by the pass itself.
//
// Of the TOSA ops amp models, only tosa.clamp has float attributes (its
// bounds; checked against TosaOps.td of LLVM 22): the other models report
// only discardable ones (getFloatAttributes).
//
//===----------------------------------------------------------------------===//

#include "ModelUtils.h"

#include "amp/ExternalModels/ExternalModels.h"
#include "amp/Utils/FloatConversion.h"
#include "amp/Utils/TypeUtils.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace mlir::amp;

namespace {

/// The accumulator types TOSA 1.0 defines for floating-point inputs of
/// matmul and the convolutions: f16 with f16 or f32, bf16 and f32 with f32.
/// Another pair (say f16 inputs with a bf16 accumulator, which an annotation
/// may ask for) is not valid TOSA, and its lowering produces invalid IR.
bool isTosaAccumulator(FloatType input, FloatType accumulator) {
  if (input.isF16())
    return accumulator.isF16() || accumulator.isF32();
  return accumulator.isF32();
}

/// Product of the dimensions of a static shaped type, or nullopt.
std::optional<int64_t> getNumElements(Type type) {
  auto shaped = dyn_cast<ShapedType>(type);
  if (!shaped || !shaped.hasStaticShape())
    return std::nullopt;
  return shaped.getNumElements();
}

/// Replaces the float zero-point operands at positions >= `numData` that
/// are not of element type `type` yet (the conversion gives constant ones
/// that type itself) by zero constants of that type.
SmallVector<Value> rebuildZeroPoints(RewriterBase &rewriter, Operation *op,
                                     ValueRange operands, unsigned numData,
                                     Type type) {
  SmallVector<Value> result(operands);
  rewriter.setInsertionPoint(op);
  DenseMap<Type, Value> zeros; // One constant per zero-point type.
  for (unsigned i = numData, e = result.size(); i < e; ++i) {
    auto zpType = dyn_cast<RankedTensorType>(result[i].getType());
    if (!zpType || !isFloatType(zpType.getElementType()) ||
        zpType.getElementType() == type)
      continue;
    auto newType = zpType.clone(type);
    Value &zero = zeros[newType];
    if (!zero)
      zero = tosa::ConstOp::create(
          rewriter, op->getLoc(), newType,
          DenseElementsAttr::get(newType,
                                 rewriter.getFloatAttr(type, 0.0).getValue()));
    result[i] = zero;
  }
  return result;
}

/// Whether the zero points of `op` (its operands from `first` on) are zero
/// constants, as TOSA requires of float contractions: the FP8 form has
/// none.
bool hasZeroZeroPoints(Operation *op, unsigned first) {
  return llvm::all_of(op->getOperands().drop_front(first),
                      [](Value zp) { return models::isZeroTensor(zp); });
}

/// The operands of ops whose first `kNumData` operands are data and whose
/// remaining float operands are zero points, of color `kColor`.
template <typename ConcreteModel, typename OpTy, Color kColor,
          unsigned kNumData>
struct ZeroPointOperands
    : public MixedPrecisionOpInterface::ExternalModel<ConcreteModel, OpTy> {
  Color getDefaultColor(Operation *) const { return kColor; }
  void getFloatAttributes(Operation *op,
                          SmallVectorImpl<FloatAttr> &attrs) const {
    amp::detail::getDiscardableFloatAttributes(op, attrs);
  }

  bool isDataOperand(Operation *, OpOperand &operand) const {
    return operand.getOperandNumber() < kNumData &&
           hasFloatElementType(operand.get().getType());
  }

  bool isZeroPointOperand(Operation *, OpOperand &operand) const {
    return operand.getOperandNumber() >= kNumData;
  }
};

/// Such ops rewritten in place, zero points rebuilt in the compute type
/// (tosa.negate, tosa.avg_pool2d).
template <typename OpTy, Color kColor, unsigned kNumData>
struct ZeroPointModel
    : public ZeroPointOperands<ZeroPointModel<OpTy, kColor, kNumData>, OpTy,
                               kColor, kNumData> {
  FailureOr<Operation *> rewriteInPrecision(Operation *op,
                                            RewriterBase &rewriter,
                                            ValueRange operands,
                                            FloatType computeType,
                                            FloatType) const {
    SmallVector<Value> newOperands =
        rebuildZeroPoints(rewriter, op, operands, kNumData, computeType);
    return amp::detail::rewriteResultsInPlace(op, rewriter, newOperands,
                                         computeType);
  }
};

/// What TOSA's contractions share: green, their first `NumData` operands
/// are data and the rest zero points, their accumulator is separate.
template <typename ConcreteModel, typename OpTy, unsigned NumData>
struct ContractionModel
    : public ZeroPointOperands<ConcreteModel, OpTy, Color::green, NumData> {
  bool hasSeparateAccumulator(Operation *) const { return true; }
};

/// Convolutions: input, weight and bias are data, then two zero points.
template <typename OpTy>
struct ConvModel : public ContractionModel<ConvModel<OpTy>, OpTy, 3> {
  Type getConvertedResultElementType(Operation *, FloatType computeType,
                                     FloatType) const {
    return computeType;
  }

  std::optional<int64_t> estimateMacs(Operation *op) const {
    auto conv = cast<OpTy>(op);
    auto weightType = dyn_cast<ShapedType>(conv.getWeight().getType());
    std::optional<int64_t> out = getNumElements(conv.getType());
    std::optional<int64_t> in = getNumElements(conv.getInput().getType());
    std::optional<int64_t> weights = getNumElements(weightType);
    if (!out || !in || !weights || !weightType || weightType.getRank() == 0)
      return std::nullopt;
    int64_t rank = weightType.getRank();
    int64_t outChannels = weightType.getDimSize(0);
    if constexpr (std::is_same_v<OpTy, tosa::DepthwiseConv2DOp>) {
      // weight: [KH, KW, C, M]; each output element reads KH * KW inputs.
      int64_t perOutput = weightType.getDimSize(0) * weightType.getDimSize(1);
      return *out * perOutput;
    } else if constexpr (std::is_same_v<OpTy, tosa::TransposeConv2DOp>) {
      // weight: [OC, KH, KW, IC]; each input element scatters KH * KW * OC.
      int64_t inChannels = weightType.getDimSize(rank - 1);
      return inChannels == 0 ? 0 : *in * (*weights / inChannels);
    } else {
      // weight: [OC, K..., IC]; each output element reads K... * IC inputs.
      return outChannels == 0 ? 0 : *out * (*weights / outChannels);
    }
  }

  FailureOr<Operation *> rewriteInPrecision(Operation *op,
                                            RewriterBase &rewriter,
                                            ValueRange operands,
                                            FloatType computeType,
                                            FloatType accumulateType) const {
    if (!isTosaAccumulator(computeType, accumulateType))
      return failure();
    SmallVector<Value> newOperands =
        rebuildZeroPoints(rewriter, op, operands, 3, computeType);
    rewriter.modifyOpInPlace(op, [&] {
      auto conv = cast<OpTy>(op);
      amp::detail::setChangedOperands(op, newOperands);
      // (Set only if it changes: setting builds a TypeAttr.)
      if (conv.getAccType() != accumulateType)
        conv.setAccType(accumulateType);
      OpResult result = op->getResult(0);
      result.setType(withElementType(result.getType(), computeType));
    });
    return op;
  }

  /// tosa.conv2d runs in FP8 as linalg.conv_2d_nhwc_fhwc (its OHWI weights
  /// are FHWC, K-major), with the padding applied to the FP32 input and the
  /// bias added in the epilogue; the other convolutions have no FP8 form.
  bool getFP8Operands(Operation *op,
                      SmallVectorImpl<FP8Operand> &operands) const {
    if constexpr (std::is_same_v<OpTy, tosa::Conv2DOp>) {
      auto conv = cast<tosa::Conv2DOp>(op);
      auto bias = dyn_cast<RankedTensorType>(conv.getBias().getType());
      auto weight = cast<ShapedType>(conv.getWeight().getType());
      if (!models::isStaticF32Tensor(conv.getInput()) ||
          !models::isStaticF32Tensor(conv.getWeight()) ||
          !models::isStaticF32Tensor(conv.getResult()) || !bias ||
          !models::isStaticF32Tensor(conv.getBias()) || bias.getRank() != 1 ||
          (bias.getDimSize(0) != 1 &&
           bias.getDimSize(0) != weight.getDimSize(0)) ||
          !hasZeroZeroPoints(op, 3))
        return false;
      operands.push_back({0, std::nullopt});
      operands.push_back({1, 0});
      return true;
    } else {
      return false;
    }
  }

  FailureOr<Value> rewriteInFP8(Operation *op, RewriterBase &rewriter,
                                FP8Builder &fp8) const {
    SmallVector<FP8Operand, 2> operands;
    if (!getFP8Operands(op, operands))
      return failure();
    if constexpr (std::is_same_v<OpTy, tosa::Conv2DOp>) {
      auto conv = cast<tosa::Conv2DOp>(op);
      Location loc = op->getLoc();
      rewriter.setInsertionPoint(op);
      // pad = [top, bottom, left, right] on the NHWC input.
      ArrayRef<int64_t> pad = conv.getPad();
      Value input = conv.getInput();
      if (llvm::any_of(pad, [](int64_t p) { return p != 0; })) {
        auto type = cast<RankedTensorType>(input.getType());
        SmallVector<int64_t> low = {0, pad[0], pad[2], 0};
        SmallVector<int64_t> high = {0, pad[1], pad[3], 0};
        SmallVector<int64_t> shape(type.getShape());
        for (int d = 0; d < 4; ++d)
          shape[d] += low[d] + high[d];
        Value zero = arith::ConstantOp::create(rewriter, loc,
                                               rewriter.getF32FloatAttr(0.0f));
        input = tensor::PadOp::create(
            rewriter, loc, type.clone(shape), input,
            getAsIndexOpFoldResult(rewriter.getContext(), low),
            getAsIndexOpFoldResult(rewriter.getContext(), high), zero);
      }
      Value x8 = fp8.narrow(rewriter, 0, input);
      Value w8 = fp8.narrow(rewriter, 1, conv.getWeight());
      if (!x8 || !w8)
        return failure();
      auto resultType = cast<RankedTensorType>(conv.getType());
      Value acc = models::createZeroAccumulator(rewriter, loc, resultType);
      Value result =
          linalg::Conv2DNhwcFhwcOp::create(
              rewriter, loc, TypeRange{resultType}, ValueRange{x8, w8},
              ValueRange{acc}, rewriter.getI64VectorAttr(conv.getStride()),
              rewriter.getI64VectorAttr(conv.getDilation()))
              ->getResult(0);
      Value bias =
          models::isZeroTensor(conv.getBias()) ? Value() : conv.getBias();
      return fp8.rescale(rewriter, result, /*channelDim=*/3, bias);
    } else {
      return failure();
    }
  }
};

/// tosa.matmul: A and B are data, then two zero points. The result has the
/// accumulator type.
struct MatMulModel : public ContractionModel<MatMulModel, tosa::MatMulOp, 2> {
  std::optional<int64_t> estimateMacs(Operation *op) const {
    auto matmul = cast<tosa::MatMulOp>(op);
    auto a = dyn_cast<ShapedType>(matmul.getA().getType());
    std::optional<int64_t> out = getNumElements(matmul.getType());
    if (!a || !a.hasStaticShape() || a.getRank() != 3 || !out)
      return std::nullopt;
    return *out * a.getDimSize(2); // N * H * W * C
  }

  FailureOr<Operation *> rewriteInPrecision(Operation *op,
                                            RewriterBase &rewriter,
                                            ValueRange operands,
                                            FloatType computeType,
                                            FloatType accumulateType) const {
    if (!isTosaAccumulator(computeType, accumulateType))
      return failure();
    SmallVector<Value> newOperands =
        rebuildZeroPoints(rewriter, op, operands, 2, computeType);
    return amp::detail::rewriteResultsInPlace(op, rewriter, newOperands,
                                         accumulateType);
  }

  /// In FP8, tosa.matmul becomes linalg.batch_matmul (TOSA's FP8
  /// accumulators are not f32) with B K-major: [N, W, C].
  bool getFP8Operands(Operation *op,
                      SmallVectorImpl<FP8Operand> &operands) const {
    auto matmul = cast<tosa::MatMulOp>(op);
    if (!models::isStaticF32Tensor(matmul.getA()) ||
        !models::isStaticF32Tensor(matmul.getB()) ||
        !models::isStaticF32Tensor(matmul.getResult()) ||
        !hasZeroZeroPoints(op, 2))
      return false;
    operands.push_back({0, std::nullopt});
    operands.push_back({1, 2});
    return true;
  }

  FailureOr<Value> rewriteInFP8(Operation *op, RewriterBase &rewriter,
                                FP8Builder &fp8) const {
    SmallVector<FP8Operand, 2> operands;
    if (!getFP8Operands(op, operands))
      return failure();
    auto matmul = cast<tosa::MatMulOp>(op);
    rewriter.setInsertionPoint(op);
    Value a8 = fp8.narrow(rewriter, 0, matmul.getA());
    Value b8 = fp8.narrow(rewriter, 1, matmul.getB(), {0, 2, 1});
    if (!a8 || !b8)
      return failure();
    auto resultType = cast<RankedTensorType>(matmul.getType());
    Value acc =
        models::createZeroAccumulator(rewriter, op->getLoc(), resultType);
    auto batch = linalg::BatchMatmulOp::create(
        rewriter, op->getLoc(), TypeRange{resultType}, ValueRange{a8, b8},
        ValueRange{acc});
    batch.setIndexingMapsAttr(
        models::getKMajorMatmulMaps(rewriter.getContext(), /*batch=*/true));
    return fp8.rescale(rewriter, batch->getResult(0), /*channelDim=*/2);
  }
};

/// tosa.clamp: its bounds are attributes of the element type.
struct ClampModel
    : public MixedPrecisionOpInterface::ExternalModel<ClampModel,
                                                      tosa::ClampOp> {
  Color getDefaultColor(Operation *) const { return Color::gray; }

  void getFloatAttributes(Operation *op,
                          SmallVectorImpl<FloatAttr> &attrs) const {
    auto clamp = cast<tosa::ClampOp>(op);
    // In the order of the generic walk (attribute names sorted), so that
    // the first bound that does not fit is the one reported.
    for (Attribute bound : {clamp.getMaxValAttr(), clamp.getMinValAttr()})
      if (auto value = dyn_cast_or_null<FloatAttr>(bound))
        attrs.push_back(value);
    amp::detail::getDiscardableFloatAttributes(op, attrs);
  }

  FailureOr<Operation *> rewriteInPrecision(Operation *op,
                                            RewriterBase &rewriter,
                                            ValueRange operands,
                                            FloatType computeType,
                                            FloatType) const {
    auto clamp = cast<tosa::ClampOp>(op);
    // Bounds beyond the new range clamp to it: a bound of +-FLT_MAX (or any
    // value past the largest finite value) means "no bound" either way.
    TypedAttr minVal = convertFloatConstant(clamp.getMinValAttr(), computeType);
    TypedAttr maxVal = convertFloatConstant(clamp.getMaxValAttr(), computeType);
    if (!minVal || !maxVal)
      return failure();
    FailureOr<Operation *> result = amp::detail::rewriteResultsInPlace(
        op, rewriter, operands, computeType);
    rewriter.modifyOpInPlace(op, [&] {
      clamp.setMinValAttr(minVal);
      clamp.setMaxValAttr(maxVal);
    });
    return result;
  }
};

} // namespace

void mlir::amp::registerTosaExternalModels(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, tosa::TosaDialect *) {
    // Green: convolutions and matmul.
    tosa::Conv2DOp::attachInterface<ConvModel<tosa::Conv2DOp>>(*ctx);
    tosa::Conv3DOp::attachInterface<ConvModel<tosa::Conv3DOp>>(*ctx);
    tosa::DepthwiseConv2DOp::attachInterface<
        ConvModel<tosa::DepthwiseConv2DOp>>(*ctx);
    tosa::TransposeConv2DOp::attachInterface<
        ConvModel<tosa::TransposeConv2DOp>>(*ctx);
    tosa::MatMulOp::attachInterface<MatMulModel>(*ctx);

    // Red: exp/log/pow/rsqrt/reciprocal/erf, sum and product reductions,
    // average pooling, FFTs.
    models::attachElementwiseModelsWithoutFloatAttributes<
        Color::red, tosa::ExpOp, tosa::LogOp, tosa::PowOp, tosa::RsqrtOp,
        tosa::ReciprocalOp, tosa::ErfOp, tosa::ReduceSumOp,
        tosa::ReduceProductOp, tosa::FFT2dOp, tosa::RFFT2dOp>(ctx);
    tosa::AvgPool2dOp::attachInterface<
        ZeroPointModel<tosa::AvgPool2dOp, Color::red, 1>>(*ctx);

    // Gray: elementwise ops, max/min reductions and pooling, data movement.
    models::attachElementwiseModelsWithoutFloatAttributes<
        Color::gray, tosa::AbsOp, tosa::AddOp, tosa::SubOp, tosa::MulOp,
        tosa::MaximumOp, tosa::MinimumOp, tosa::CeilOp, tosa::FloorOp,
        tosa::SigmoidOp, tosa::TanhOp, tosa::CosOp, tosa::SinOp,
        tosa::MaxPool2dOp, tosa::ReduceMaxOp, tosa::ReduceMinOp,
        tosa::ArgMaxOp, tosa::SelectOp, tosa::EqualOp, tosa::GreaterOp,
        tosa::GreaterEqualOp, tosa::ReshapeOp, tosa::TransposeOp,
        tosa::SliceOp, tosa::ConcatOp, tosa::PadOp, tosa::TileOp,
        tosa::ReverseOp, tosa::GatherOp, tosa::ScatterOp, tosa::IdentityOp,
        tosa::ResizeOp, tosa::CastOp>(ctx);
    tosa::NegateOp::attachInterface<
        ZeroPointModel<tosa::NegateOp, Color::gray, 1>>(*ctx);
    tosa::ClampOp::attachInterface<ClampModel>(*ctx);
  });
}
