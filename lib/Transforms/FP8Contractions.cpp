//===- FP8Contractions.cpp - Run green contractions in FP8 ----------------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// See FP8Contractions.h. Three steps, each over the candidates in program
// order:
//  1. which contractions would run in 16 bits (PrecisionPlan::runColors) and
//     ask for FP8 (target-type or an annotation);
//  2. a scale for every FP8 operand (ScaleFinder), or the reason why not;
//     all decided on the function as it was, before anything changes;
//  3. the rewrite, by the op's model (MixedPrecisionOpInterface::
//     rewriteInFP8) through an FP8Builder that folds constants, narrows
//     activations (one narrowing per value, scale and layout, shared) and
//     builds the epilogue.
//
//===----------------------------------------------------------------------===//

#include "amp/Transforms/FP8Contractions.h"
#include "ContractionSupport.h"

#include "amp/IR/AmpDialect.h"
#include "amp/Utils/CastUtils.h"
#include "amp/Utils/LinalgUtils.h"
#include "amp/Utils/FloatConversion.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/bit.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"

#include <cmath>
#include <map>
#include <tuple>

using namespace mlir;
using namespace mlir::amp;

StringRef mlir::amp::stringifyFP8ScaleSource(FP8ScaleSource source) {
  switch (source) {
  case FP8ScaleSource::Constant:
    return "constant";
  case FP8ScaleSource::ConstantPerChannel:
    return "constant per channel";
  case FP8ScaleSource::ObservedRange:
    return "ranges";
  case FP8ScaleSource::StaticRange:
    return "static range";
  }
  llvm_unreachable("unknown FP8ScaleSource");
}

FP8Conversion::~FP8Conversion() {
  for (Operation *op : llvm::reverse(detached))
    op->erase();
}

bool mlir::amp::hasFP8Annotation(Operation *op) {
  if (op->getRawDictionaryAttrs().empty())
    return false;
  auto precision = dyn_cast_or_null<PrecisionAttr>(
      op->getDiscardableAttr(AmpDialect::PrecisionAttrHelper::getNameStr()));
  return precision && precision.getComputeFloatType() &&
         isFP8Type(precision.getComputeFloatType());
}

namespace {

//===----------------------------------------------------------------------===//
// Scales
//===----------------------------------------------------------------------===//

/// How one FP8 operand of a candidate is scaled.
struct OperandPlan {
  FP8OperandScale scale;
  /// One scale, or one per channel (along `channelDim` of the operand).
  SmallVector<float> scales;
  std::optional<int64_t> channelDim;
  /// Set for constants, which are converted at compile time.
  std::optional<ConstantSource> constant;
};

/// Finds scales for the operands of the candidates of one function.
class ScaleFinder {
public:
  ScaleFinder(Operation *root, const MixedPrecisionOptions &options)
      : root(root), options(options) {}

  /// The plan of `operand` of `op` in `type`, or the reason why it has no
  /// scale (in `why`).
  std::optional<OperandPlan> find(Operation *op, const FP8Operand &operand,
                                  FloatType type, std::string &why);

private:
  std::optional<double> getObserved(Value value) const;
  const FloatRangeMap &getRanges() {
    if (!ranges)
      ranges = std::make_unique<FloatRangeMap>(root);
    return *ranges;
  }

  Operation *root;
  const MixedPrecisionOptions &options;
  std::unique_ptr<FloatRangeMap> ranges;
};

/// The scale that maps `maxAbs` to `max`: 1 for zero (nothing to scale).
float scaleFor(double max, double maxAbs) {
  return maxAbs > 0 ? static_cast<float>(max / maxAbs) : 1.0f;
}

std::optional<double> ScaleFinder::getObserved(Value value) const {
  if (auto result = dyn_cast<OpResult>(value))
    return options.observedMaxAbs ? options.observedMaxAbs(result)
                                  : std::nullopt;
  auto arg = cast<BlockArgument>(value);
  return options.observedArgumentMaxAbs ? options.observedArgumentMaxAbs(arg)
                                        : std::nullopt;
}

std::optional<OperandPlan> ScaleFinder::find(Operation *op,
                                             const FP8Operand &operand,
                                             FloatType type, std::string &why) {
  double max = getFP8Max(*getFP8Format(type));
  Value value = op->getOperand(operand.number);
  OperandPlan plan;
  plan.scale.operand = operand.number;
  plan.channelDim = operand.channelDim;

  // A weight: its own values.
  if (std::optional<ConstantSource> constant = findConstant(value)) {
    plan.constant = constant;
    bool perChannel = options.fp8PerChannelScales && operand.channelDim;
    std::optional<unsigned> axis;
    if (perChannel)
      axis = constant->permutation[*operand.channelDim];
    SmallVector<double> maxAbs = getFloatMaxAbs(constant->attr, axis);
    if (maxAbs.empty()) {
      why = "its constant cannot be read";
      return std::nullopt;
    }
    plan.scale.source = perChannel ? FP8ScaleSource::ConstantPerChannel
                                   : FP8ScaleSource::Constant;
    plan.scale.channels = maxAbs.size();
    plan.scale.maxAbs = 0;
    plan.scale.scale = std::numeric_limits<double>::infinity();
    for (double m : maxAbs) {
      plan.scales.push_back(scaleFor(max, m));
      plan.scale.maxAbs = std::max(plan.scale.maxAbs, m);
      plan.scale.scale =
          std::min(plan.scale.scale, static_cast<double>(plan.scales.back()));
    }
    if (!perChannel)
      plan.channelDim.reset();
    return plan;
  }

  // An activation: the range observed on samples, with the margin.
  plan.channelDim.reset();
  if (std::optional<double> observed = getObserved(value)) {
    if (!std::isfinite(*observed)) {
      why = "the range observed on sample inputs (ranges=) is not finite";
      return std::nullopt;
    }
    plan.scale.source = FP8ScaleSource::ObservedRange;
    plan.scale.maxAbs = *observed * options.observedMargin;
    plan.scales.push_back(scaleFor(max, plan.scale.maxAbs));
    plan.scale.scale = plan.scales.front();
    return plan;
  }
  // ... or a static range, proven bounded and reached.
  if (options.rangeAnalysis != RangeAnalysisKind::Off) {
    FloatRange range = getRanges().lookup(value);
    if (range.isInterval() && range.isBounded()) {
      double maxAbs =
          std::max(std::fabs(range.getLo()), std::fabs(range.getHi()));
      std::optional<double> attained = range.getAttainedMaxAbs();
      if (attained && *attained == maxAbs) {
        plan.scale.source = FP8ScaleSource::StaticRange;
        plan.scale.maxAbs = maxAbs;
        plan.scales.push_back(scaleFor(max, maxAbs));
        plan.scale.scale = plan.scales.front();
        return plan;
      }
    }
  }
  why = "no range observed on sample inputs (ranges=) and no static range "
        "proven bounded and reached";
  return std::nullopt;
}

//===----------------------------------------------------------------------===//
// The rewrite
//===----------------------------------------------------------------------===//

/// What the rewrites of one function share: the narrowed activations and
/// the converted weights, and the summary of the weights' conversion.
struct Narrowings {
  /// (value, FP8 type, scale bits, permutation) -> FP8 value.
  std::map<
      std::tuple<const void *, const void *, uint32_t, SmallVector<int64_t>>,
      Value>
      activations;
  /// (constant op, FP8 type, permutation, scales) -> FP8 constant.
  std::map<std::tuple<Operation *, const void *, SmallVector<int64_t>,
                      SmallVector<uint32_t>>,
           Value>
      constants;
};

class FP8BuilderImpl : public FP8Builder {
public:
  FP8BuilderImpl(Operation *op, FloatType type, ArrayRef<OperandPlan> operands,
                 Narrowings &narrowings, RangeSummary &constants)
      : op(op), type(type), operands(operands), narrowings(narrowings),
        constants(constants) {}

  FloatType getType() const override { return type; }
  Value narrow(RewriterBase &rewriter, unsigned number, Value value,
               ArrayRef<int64_t> permutation) override;
  Value rescale(RewriterBase &rewriter, Value accumulator, int64_t channelDim,
                Value bias, Value addend) override;

private:
  const OperandPlan *getPlan(unsigned number) const {
    for (const OperandPlan &plan : operands)
      if (plan.scale.operand == number)
        return &plan;
    return nullptr;
  }
  Value narrowConstant(RewriterBase &rewriter, const OperandPlan &plan,
                       ArrayRef<int64_t> permutation);
  Value narrowActivation(RewriterBase &rewriter, Value value, float scale,
                         ArrayRef<int64_t> permutation);

  Operation *op;
  FloatType type;
  ArrayRef<OperandPlan> operands;
  Narrowings &narrowings;
  RangeSummary &constants;
};

Value FP8BuilderImpl::narrow(RewriterBase &rewriter, unsigned number,
                             Value value, ArrayRef<int64_t> permutation) {
  const OperandPlan *plan = getPlan(number);
  std::optional<SmallVector<int64_t>> full =
      getNarrowPermutation(op, number, value, permutation);
  if (!plan || !full)
    return {};
  Value operand = op->getOperand(number);
  SmallVector<int64_t> perm = std::move(*full);
  OpBuilder::InsertionGuard guard(rewriter);
  if (plan->constant) {
    // A weight is the operand itself, converted at compile time.
    if (value != operand)
      return {};
    return narrowConstant(rewriter, *plan, perm);
  }
  return narrowActivation(rewriter, value, plan->scales.front(), perm);
}

Value FP8BuilderImpl::narrowConstant(RewriterBase &rewriter,
                                     const OperandPlan &plan,
                                     ArrayRef<int64_t> permutation) {
  const ConstantSource &source = *plan.constant;
  // Dimension i of the result is dimension permutation[i] of the operand,
  // which is dimension source.permutation[...] of the constant.
  SmallVector<int64_t> fromConstant;
  for (int64_t p : permutation)
    fromConstant.push_back(source.permutation[p]);
  std::optional<unsigned> axis;
  if (plan.channelDim)
    axis = llvm::find(permutation, *plan.channelDim) - permutation.begin();
  auto key =
      std::make_tuple(source.constOp, type.getAsOpaquePointer(), fromConstant,
                      llvm::map_to_vector(plan.scales, [](float s) {
                        return llvm::bit_cast<uint32_t>(s);
                      }));
  Value &cached = narrowings.constants[key];
  if (cached)
    return cached;
  RangeSummary summary;
  TypedAttr value = convertFloatConstantToFP8(source.attr, type, plan.scales,
                                              axis, fromConstant, &summary);
  if (!value)
    return {};
  constants.merge(summary);
  // Next to the original: it dominates every reader of it.
  rewriter.setInsertionPointAfter(source.constOp);
  cached = arith::ConstantOp::create(rewriter, source.constOp->getLoc(), value);
  return cached;
}

Value FP8BuilderImpl::narrowActivation(RewriterBase &rewriter, Value value,
                                       float scale,
                                       ArrayRef<int64_t> permutation) {
  auto key = std::make_tuple(
      value.getAsOpaquePointer(), type.getAsOpaquePointer(),
      llvm::bit_cast<uint32_t>(scale), SmallVector<int64_t>(permutation));
  Value &cached = narrowings.activations[key];
  if (cached)
    return cached;
  // Right after the value is defined: one narrowing serves every reader.
  rewriter.setInsertionPointAfterValue(value);
  double max = getFP8Max(*getFP8Format(type));
  FloatType fp8 = type;
  cached = buildPermutedMap(
      rewriter, op->getLoc(), value, permutation, fp8,
      [&](OpBuilder &b, Location loc, Value x) -> Value {
        auto f32 = b.getF32Type();
        Value s = arith::ConstantOp::create(b, loc, b.getFloatAttr(f32, scale));
        Value lo = arith::ConstantOp::create(b, loc, b.getFloatAttr(f32, -max));
        Value hi = arith::ConstantOp::create(b, loc, b.getFloatAttr(f32, max));
        Value scaled = arith::MulFOp::create(b, loc, x, s);
        Value clamped = arith::MinimumFOp::create(
            b, loc, arith::MaximumFOp::create(b, loc, scaled, lo), hi);
        return arith::TruncFOp::create(b, loc, fp8, clamped);
      });
  return cached;
}

Value FP8BuilderImpl::rescale(RewriterBase &rewriter, Value accumulator,
                              int64_t channelDim, Value bias, Value addend) {
  // 1 / (s_a * s_b): per tensor, or per channel if an operand has
  // per-channel scales.
  double perTensor = 1.0;
  const OperandPlan *perChannel = nullptr;
  for (const OperandPlan &plan : operands) {
    if (plan.scales.size() > 1)
      perChannel = &plan;
    else
      perTensor *= plan.scales.front();
  }
  SmallVector<float> inverse;
  if (perChannel)
    for (float s : perChannel->scales)
      inverse.push_back(static_cast<float>(1.0 / (perTensor * s)));
  return buildContractionEpilogue(rewriter, op->getLoc(), accumulator,
                                  channelDim, inverse,
                                  static_cast<float>(1.0 / perTensor), bias,
                                  addend);
}

/// "'linalg.matmul' runs in f16, not f8E4M3FN: " and the reason.
std::string describeFallback(Operation *op, FloatType fallback, FloatType type,
                             StringRef why) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "'" << op->getName() << "' runs in " << fallback << ", not " << type
     << ": " << why;
  return text;
}

} // namespace

//===----------------------------------------------------------------------===//
// The stage
//===----------------------------------------------------------------------===//

namespace {
/// One run of the FP8 stage over `root`: the candidates, their fallbacks
/// (with the remarks about them) and their rewrites.
class FP8Stage : public ContractionStage {
public:
  using ContractionStage::ContractionStage;

private:
  /// The green contractions of `colors` that can run in FP8, with the
  /// scales of their operands; a fallback for each that cannot.
  void findCandidates(PrecisionPlan &colors) override;
  /// Rewrites the candidates in FP8.
  void rewriteCandidates() override;
  void summarizeFallbacks() override;

  struct Candidate {
    Operation *op;
    OpDecision decision;
    FloatType type;
    SmallVector<OperandPlan, 2> operands;
  };
  /// The FP8 type of `op`: an annotation's, else the target's; null when
  /// an annotation with another compute type keeps the op out of FP8.
  FloatType fp8TypeOf(Operation *op, PrecisionAttr &precision) const;
  /// `op`, a green contraction, as a candidate with its operands' scales;
  /// nullopt if it stays out of FP8 (its fallback recorded).
  std::optional<Candidate> makeCandidate(Operation *op, const OpDecision &d,
                                         ScaleFinder &finder);
  void fallback(Operation *op, FloatType type, Reason reason,
                const std::string &why, bool remark);
  void remarkConverted(Operation *op, const FP8Record &record,
                       FloatType type) const;

  /// The first few fallbacks worth a remark get one each; the others are
  /// counted in one remark at the end (a model imported whole has
  /// thousands of contractions without a scale), unless `remarks` asks for
  /// every one.
  static constexpr unsigned kRemarkedFallbacks = 4;
  std::vector<Candidate> candidates;
  unsigned remarked = 0, unremarked = 0, unremarkedScales = 0;
};
} // namespace

void FP8Stage::fallback(Operation *op, FloatType type, Reason reason,
                        const std::string &why, bool remark) {
  FP8Record record;
  record.type = type;
  record.why = why;
  result.fallbacks[op] = {reason, record};
  if (!options.diagnostics || !(remark || options.remarks))
    return;
  if (options.remarks || remarked++ < kRemarkedFallbacks) {
    mlir::emitRemark(op->getLoc(),
                     describeFallback(op, options.target, type, why));
    return;
  }
  ++unremarked;
  unremarkedScales += reason == Reason::NoFP8Scale;
}

FloatType FP8Stage::fp8TypeOf(Operation *op, PrecisionAttr &precision) const {
  FloatType type = options.fp8Type;
  if (!op->getRawDictionaryAttrs().empty())
    precision = dyn_cast_or_null<PrecisionAttr>(
        op->getDiscardableAttr(AmpDialect::PrecisionAttrHelper::getNameStr()));
  if (precision && precision.getComputeFloatType())
    type = isFP8Type(precision.getComputeFloatType())
               ? precision.getComputeFloatType()
               : FloatType();
  return type;
}

void FP8Stage::findCandidates(PrecisionPlan &colors) {
  ScaleFinder finder(root, options);
  for (auto [i, op] : llvm::enumerate(colors.getOps())) {
    const OpDecision &d = colors.getDecision(i);
    if (d.reason == Reason::SkipLayers)
      result.skippedOps.insert(op);
    if (d.color != Color::green || d.reason == Reason::UnsupportedTypes)
      continue;
    if (std::optional<Candidate> candidate = makeCandidate(op, d, finder))
      candidates.push_back(std::move(*candidate));
  }
}

std::optional<FP8Stage::Candidate>
FP8Stage::makeCandidate(Operation *op, const OpDecision &d,
                        ScaleFinder &finder) {
  PrecisionAttr precision;
  FloatType type = fp8TypeOf(op, precision);
  if (!type)
    return std::nullopt;
  auto iface = getMixedPrecisionInterface(op);
  SmallVector<FP8Operand, 2> fp8Operands;
  if (!iface || !iface.getFP8Operands(fp8Operands)) {
    fallback(op, type, Reason::NoFP8Form,
             "it has no FP8 form (FP8 runs matmul, batch_matmul and 2-D "
             "convolutions with static f32 shapes)",
             /*remark=*/false);
    return std::nullopt;
  }
  auto f32 = Float32Type::get(root->getContext());
  if (precision && precision.getAccumulateFloatType() != f32) {
    std::string why;
    llvm::raw_string_ostream(why) << "amp.precision asks for accumulate "
                                  << precision.getAccumulateFloatType()
                                  << ", and FP8 contractions accumulate in f32";
    fallback(op, type, Reason::NoFP8Form, why, /*remark=*/true);
    return std::nullopt;
  }
  // (An annotation that asks for FP8 is the op's own word.)
  bool annotated = precision && precision.getComputeFloatType();
  if (options.fp8MinMacs > 0 && !annotated) {
    std::optional<int64_t> macs = iface.estimateMacs();
    if (macs && *macs < options.fp8MinMacs) {
      std::string why;
      llvm::raw_string_ostream(why)
          << "it performs " << *macs
          << " multiply-accumulates, fewer than fp8-min-macs ("
          << options.fp8MinMacs << ")";
      fallback(op, type, Reason::FP8BelowThreshold, why, /*remark=*/false);
      return std::nullopt;
    }
  }
  Candidate candidate{op, d, type, {}};
  for (const FP8Operand &operand : fp8Operands) {
    std::string why;
    std::optional<OperandPlan> plan = finder.find(op, operand, type, why);
    if (!plan) {
      fallback(
          op, type, Reason::NoFP8Scale,
          llvm::formatv("operand {0} has no scale: {1}", operand.number, why)
              .str(),
          /*remark=*/true);
      return std::nullopt;
    }
    candidate.operands.push_back(std::move(*plan));
  }
  return candidate;
}

void FP8Stage::summarizeFallbacks() {
  if (!unremarked)
    return;
  std::string text;
  llvm::raw_string_ostream remark(text);
  remark << unremarked << " more contraction"
         << (unremarked == 1 ? " runs" : "s run") << " in " << options.target
         << ", not in FP8 (";
  unsigned others = unremarked - unremarkedScales;
  if (unremarkedScales)
    remark << unremarkedScales << " for want of a scale, which ranges= "
           << "from amp-run --calibrate gives" << (others ? "; " : "");
  if (others)
    remark << others << " for another reason";
  remark << "); remarks=true gives a remark for each";
  mlir::emitRemark(root->getLoc(), text);
}

void FP8Stage::remarkConverted(Operation *op, const FP8Record &record,
                               FloatType type) const {
  if (!options.remarks || !options.diagnostics)
    return;
  std::string text;
  llvm::raw_string_ostream remark(text);
  remark << "'" << op->getName() << "' runs in " << type;
  for (const FP8OperandScale &scale : record.scales)
    remark << "; operand " << scale.operand << " scale "
           << llvm::format("%g", scale.scale) << " ("
           << stringifyFP8ScaleSource(scale.source)
           << ", |x| <= " << llvm::format("%g", scale.maxAbs) << ")";
  mlir::emitRemark(op->getLoc(), text);
}

void FP8Stage::rewriteCandidates() {
  Narrowings narrowings;
  InsertedOps inserted;
  IRRewriter rewriter(root->getContext(), &inserted);
  for (Candidate &candidate : candidates) {
    Operation *op = candidate.op;
    // (A candidate whose only reader an earlier rewrite removed is gone.)
    if (!op->getBlock())
      continue;
    FP8Record record;
    record.type = candidate.type;
    for (const OperandPlan &plan : candidate.operands)
      record.scales.push_back(plan.scale);
    size_t firstInserted = inserted.ops.size();
    FP8BuilderImpl builder(op, candidate.type, candidate.operands, narrowings,
                           record.constants);
    FailureOr<Value> replacement =
        getMixedPrecisionInterface(op).rewriteInFP8(rewriter, builder);
    if (failed(replacement) || !*replacement) {
      // Nothing of the attempt is used: remove what it made.
      eraseUnusedSince(rewriter, inserted, firstInserted, [&](Operation *made) {
        forgetResultsOf(narrowings.activations, made);
        forgetResultsOf(narrowings.constants, made);
      });
      fallback(op, candidate.type, Reason::NoFP8Form,
               "its FP8 form could not be built", /*remark=*/true);
      continue;
    }
    adoptReplacement(rewriter, op, *replacement, inserted, firstInserted,
                     options, result);
    record.converted = true;
    remarkConverted(op, record, candidate.type);
    OpDecision decision = candidate.decision;
    decision.computeType = candidate.type;
    recordConverted(op, decision, std::move(record), result);
  }
}

LogicalResult
mlir::amp::convertContractionsToFP8(Operation *root,
                                    const MixedPrecisionOptions &options,
                                    FP8Conversion &result) {
  // Without an FP8 target, only annotated ops ask for FP8.
  if (!options.fp8Type) {
    WalkResult found = walkTensorOps(root, [](Operation *op) {
      return hasFP8Annotation(op) ? WalkResult::interrupt()
                                  : WalkResult::advance();
    });
    if (!found.wasInterrupted())
      return success();
  }
  // The contractions that would run in 16 bits, as the plan colors them;
  // their scales, on the function as it is; the rewrites.
  return FP8Stage(root, options, result).run();
}
