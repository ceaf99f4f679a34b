//===- WeightOnly.cpp - Low-bit weights for green contractions ------------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// See WeightOnly.h. Two steps over the candidates in program order: which
// contractions would run in 16 bits (PrecisionPlan::runColors) and ask for
// a format, with a constant weight; then the rewrite by the op's model
// through a WeightOnlyBuilder, which quantizes the weight (once per
// constant, layout and format), builds its dequantization and narrows the
// activations (once per value and layout).
//
//===----------------------------------------------------------------------===//

#include "amp/Transforms/WeightOnly.h"
#include "ContractionSupport.h"

#include "amp/IR/AmpDialect.h"
#include "amp/Utils/CastUtils.h"
#include "amp/Utils/FloatConversion.h"
#include "amp/Utils/LinalgUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/Support/FormatVariadic.h"

#include <map>
#include <tuple>

using namespace mlir;
using namespace mlir::amp;

std::optional<WeightQuantSpec>
mlir::amp::getRequestedWeights(Operation *op,
                               const MixedPrecisionOptions &options) {
  if (!op->getRawDictionaryAttrs().empty())
    if (auto weights = dyn_cast_or_null<WeightsAttr>(op->getDiscardableAttr(
            AmpDialect::WeightsAttrHelper::getNameStr())))
      return weights.getSpec();
  return options.weightOnly;
}

bool mlir::amp::hasWeightsAnnotation(Operation *root) {
  StringRef name = AmpDialect::WeightsAttrHelper::getNameStr();
  return walkTensorOps(root, [&](Operation *op) {
           return !op->getRawDictionaryAttrs().empty() &&
                          op->getDiscardableAttr(name)
                      ? WalkResult::interrupt()
                      : WalkResult::advance();
         })
      .wasInterrupted();
}

namespace {

//===----------------------------------------------------------------------===//
// The IR form
//===----------------------------------------------------------------------===//

/// A constant of `shape` and `elementType` holding `bytes` as they are.
Value createRawConstant(OpBuilder &b, Location loc, ArrayRef<int64_t> shape,
                        Type elementType, ArrayRef<char> bytes) {
  auto type = RankedTensorType::get(shape, elementType);
  return arith::ConstantOp::create(
      b, loc, DenseElementsAttr::getFromRawBuffer(type, bytes));
}

/// The scales of `q` as a constant of `shape`: f16 or f32.
Value createScales(OpBuilder &b, Location loc, const QuantizedWeight &q,
                   ArrayRef<int64_t> shape) {
  if (!q.f16Scales) {
    auto type = RankedTensorType::get(shape, b.getF32Type());
    return arith::ConstantOp::create(
        b, loc, DenseElementsAttr::get(type, ArrayRef(q.scales)));
  }
  std::vector<uint16_t> bits;
  bits.reserve(q.scales.size());
  for (float scale : q.scales) {
    llvm::APFloat f(scale);
    bool losesInfo;
    (void)f.convert(llvm::APFloat::IEEEhalf(),
                    llvm::APFloat::rmNearestTiesToEven, &losesInfo);
    bits.push_back(static_cast<uint16_t>(f.bitcastToAPInt().getZExtValue()));
  }
  return createRawConstant(
      b, loc, shape, b.getF16Type(),
      ArrayRef(reinterpret_cast<const char *>(bits.data()), bits.size() * 2));
}

/// The integer value of the byte `q` at reduction index `k` (flattened):
/// the byte itself, or for int4 its low nibble (k even) or high nibble (k
/// odd), sign-extended when symmetric.
Value unpackInt(OpBuilder &b, Location loc, const WeightQuantSpec &spec,
                Value q, Value k) {
  if (spec.format != WeightFormat::Int4)
    return q;
  Type i8 = q.getType();
  auto constant = [&](int64_t v) -> Value {
    return arith::ConstantOp::create(b, loc, b.getIntegerAttr(i8, v));
  };
  Value four = constant(4);
  Value odd = arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::ne,
      arith::RemUIOp::create(b, loc, k, arith::ConstantIndexOp::create(b, loc, 2)),
      arith::ConstantIndexOp::create(b, loc, 0));
  Value hi, lo;
  if (spec.asymmetric) {
    hi = arith::ShRUIOp::create(b, loc, q, four);
    lo = arith::AndIOp::create(b, loc, q, constant(15));
  } else {
    hi = arith::ShRSIOp::create(b, loc, q, four);
    lo = arith::ShRSIOp::create(b, loc, arith::ShLIOp::create(b, loc, q, four),
                                four);
  }
  return arith::SelectOp::create(b, loc, odd, hi, lo);
}

/// The row-major linear index of dimensions [from, to) of `shape` as an
/// affine expression of the loop dimensions.
AffineExpr linearIndex(ArrayRef<int64_t> shape, int64_t from, int64_t to,
                       MLIRContext *ctx) {
  AffineExpr index = getAffineConstantExpr(0, ctx);
  for (int64_t i = from; i < to; ++i)
    index = index * shape[i] + getAffineDimExpr(i, ctx);
  return index;
}

/// The same index computed in a linalg.generic body from linalg.index.
Value linearIndexValue(OpBuilder &b, Location loc, ArrayRef<int64_t> shape,
                       int64_t from, int64_t to) {
  Value index = linalg::IndexOp::create(b, loc, from);
  for (int64_t i = from + 1; i < to; ++i)
    index = arith::AddIOp::create(
        b, loc,
        arith::MulIOp::create(b, loc, index,
                              arith::ConstantIndexOp::create(b, loc, shape[i])),
        linalg::IndexOp::create(b, loc, i));
  return index;
}

/// The dequantization of `q` into a tensor of `shape` (the weight as the
/// contraction reads it, K-major: dimensions [0, channelDim] are the
/// output channels, the others the reduction) and `type`. The stored
/// constants are 2-D, channels x reduction (flattened row-major), as `q`
/// holds them: packed values, scales and zero points; one linalg.generic
/// computes trunc(((q - z) as f32) * s) (docs/weight-only.md, "The IR").
Value buildDequantization(OpBuilder &b, Location loc, const QuantizedWeight &q,
                          ArrayRef<int64_t> shape, int64_t channelDim,
                          FloatType type) {
  MLIRContext *ctx = b.getContext();
  int64_t rank = shape.size();
  const WeightQuantSpec &spec = q.spec;
  bool int4 = spec.format == WeightFormat::Int4;
  AffineExpr row = linearIndex(shape, 0, channelDim + 1, ctx);
  AffineExpr col = linearIndex(shape, channelDim + 1, rank, ctx);

  // The packed values: int4 holds two per byte.
  Type storedType = spec.format == WeightFormat::E4M3
                        ? Type(Float8E4M3FNType::get(ctx))
                        : Type(b.getI8Type());
  ArrayRef<char> data(reinterpret_cast<const char *>(q.data.data()),
                      q.data.size());
  Value packed = createRawConstant(b, loc, {q.rows, int4 ? q.cols / 2 : q.cols},
                                   storedType, data);
  AffineMap packedMap =
      AffineMap::get(rank, 0, {row, int4 ? col.floorDiv(2) : col}, ctx);

  // Scales (and zero points): per (row, group) for int4, else per row.
  SmallVector<int64_t> scaleShape = {q.rows};
  SmallVector<AffineExpr> scaleRead = {row};
  if (int4) {
    scaleShape.push_back(q.getGroupsPerRow());
    scaleRead.push_back(col.floorDiv(spec.group));
  }
  AffineMap scaleMap = AffineMap::get(rank, 0, scaleRead, ctx);
  SmallVector<Value> inputs = {packed, createScales(b, loc, q, scaleShape)};
  SmallVector<AffineMap> maps = {packedMap, scaleMap};
  if (spec.asymmetric) {
    ArrayRef<char> zeros(reinterpret_cast<const char *>(q.zeros.data()),
                         q.zeros.size());
    inputs.push_back(
        createRawConstant(b, loc, scaleShape, b.getI8Type(), zeros));
    maps.push_back(scaleMap);
  }
  maps.push_back(AffineMap::getMultiDimIdentityMap(rank, ctx));
  Value empty = tensor::EmptyOp::create(b, loc, shape, type);
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{empty.getType()}, inputs, ValueRange{empty}, maps,
      iterators, [&](OpBuilder &b, Location loc, ValueRange args) {
        Type f32 = b.getF32Type();
        Value wide;
        if (spec.format == WeightFormat::E4M3) {
          wide = arith::ExtFOp::create(b, loc, f32, args[0]);
        } else {
          Value v = args[0];
          if (int4)
            v = unpackInt(b, loc, spec, v,
                          linearIndexValue(b, loc, shape, channelDim + 1, rank));
          if (spec.asymmetric)
            v = arith::SubIOp::create(b, loc, v, args[2]);
          wide = arith::SIToFPOp::create(b, loc, f32, v);
        }
        Value scale = args[1];
        if (!scale.getType().isF32())
          scale = arith::ExtFOp::create(b, loc, f32, scale);
        Value w = arith::MulFOp::create(b, loc, wide, scale);
        if (!type.isF32())
          w = arith::TruncFOp::create(b, loc, type, w);
        linalg::YieldOp::create(b, loc, w);
      });
  return generic.getResult(0);
}

//===----------------------------------------------------------------------===//
// The builder
//===----------------------------------------------------------------------===//

/// What the rewrites of one function share.
struct WeightOnlyCache {
  /// (constant op, format, type, layout) -> dequantized weight.
  std::map<std::tuple<Operation *, std::string, const void *,
                      SmallVector<int64_t>>,
           Value>
      weights;
  /// (value, type, layout) -> narrowed activation.
  std::map<std::tuple<const void *, const void *, SmallVector<int64_t>>,
           Value>
      activations;
  /// Dequantized weight -> bytes stored, f16 scales.
  llvm::DenseMap<Value, std::pair<int64_t, bool>> stored;
};

/// The FP8Builder of the weight-only rewrite: `narrow` dequantizes the
/// weight operand and rounds the others to the 16-bit type, `rescale`
/// only adds what the contraction's init or bias adds.
class WeightOnlyBuilder : public FP8Builder {
public:
  WeightOnlyBuilder(Operation *op, FloatType type, unsigned weightOperand,
                    int64_t channelDim, ConstantSource source,
                    WeightQuantSpec spec, WeightOnlyCache &cache,
                    FP8Record &record)
      : op(op), type(type), weightOperand(weightOperand),
        channelDim(channelDim), source(std::move(source)), spec(spec),
        cache(cache), record(record) {}

  FloatType getType() const override { return type; }
  Value narrow(RewriterBase &rewriter, unsigned number, Value value,
               ArrayRef<int64_t> permutation) override;
  Value rescale(RewriterBase &rewriter, Value accumulator, int64_t channelDim,
                Value bias, Value addend) override;

  /// Why the weight could not be stored, if that is what failed.
  std::string failure;

private:
  Value narrowWeight(RewriterBase &rewriter, ArrayRef<int64_t> permutation);
  Value narrowActivation(RewriterBase &rewriter, Value value,
                         ArrayRef<int64_t> permutation);

  Operation *op;
  FloatType type;
  unsigned weightOperand;
  int64_t channelDim;
  ConstantSource source;
  WeightQuantSpec spec;
  WeightOnlyCache &cache;
  FP8Record &record;
};

Value WeightOnlyBuilder::narrow(RewriterBase &rewriter, unsigned number,
                                Value value, ArrayRef<int64_t> permutation) {
  std::optional<SmallVector<int64_t>> perm =
      getNarrowPermutation(op, number, value, permutation);
  if (!perm)
    return {};
  OpBuilder::InsertionGuard guard(rewriter);
  if (number == weightOperand)
    return value == op->getOperand(number) ? narrowWeight(rewriter, *perm)
                                           : Value();
  return narrowActivation(rewriter, value, *perm);
}

Value WeightOnlyBuilder::narrowWeight(RewriterBase &rewriter,
                                      ArrayRef<int64_t> permutation) {
  auto operandType =
      cast<RankedTensorType>(op->getOperand(weightOperand).getType());
  SmallVector<int64_t> shape, fromConstant;
  for (int64_t p : permutation) {
    shape.push_back(operandType.getDimSize(p));
    fromConstant.push_back(source.permutation[p]);
  }
  int64_t rank = shape.size();
  int64_t channel = llvm::find(permutation, channelDim) - permutation.begin();
  if (rank < 2 || channel == rank - 1) {
    failure = "its weight is not read K-major";
    return {};
  }
  // Channels x reduction, each flattened.
  int64_t rows = 1, cols = 1;
  for (int64_t i = 0; i < rank; ++i)
    (i <= channel ? rows : cols) *= shape[i];
  int64_t elements = rows * cols;
  record.weightBytesF32 = elements * 4;
  record.weightBytes16 = elements * type.getIntOrFloatBitWidth() / 8;

  auto key = std::make_tuple(source.constOp, spec.str(),
                             type.getAsOpaquePointer(), fromConstant);
  Value &cached = cache.weights[key];
  if (!cached) {
    failure = checkWeightShape(spec, rows, cols, rows);
    if (!failure.empty())
      return {};
    std::optional<SmallVector<float>> values =
        readPermutedFloats(source.attr, fromConstant);
    if (!values) {
      failure = "its constant cannot be read";
      return {};
    }
    std::optional<QuantizedWeight> q =
        quantizeWeight(*values, rows, cols, rows, spec, failure);
    if (!q)
      return {};
    // Next to the original: it dominates every reader of it.
    rewriter.setInsertionPointAfter(source.constOp);
    cached = buildDequantization(rewriter, source.constOp->getLoc(), *q, shape,
                                 channel, type);
    cache.stored[cached] = {q->getByteSize(), q->f16Scales};
  }
  std::tie(record.weightBytesStored, record.f16Scales) = cache.stored[cached];
  return cached;
}

Value WeightOnlyBuilder::narrowActivation(RewriterBase &rewriter, Value value,
                                          ArrayRef<int64_t> permutation) {
  auto key = std::make_tuple(value.getAsOpaquePointer(),
                             type.getAsOpaquePointer(),
                             SmallVector<int64_t>(permutation));
  Value &cached = cache.activations[key];
  if (cached)
    return cached;
  // Right after the value is defined: one narrowing serves every reader.
  rewriter.setInsertionPointAfterValue(value);
  Location loc = op->getLoc();
  // In place, amp's own cast, which the 16-bit plan folds with its
  // neighbours; permuted, a linalg.generic that reads it permuted.
  if (llvm::equal(permutation, llvm::seq<int64_t>(0, permutation.size()))) {
    cached = createFloatCast(rewriter, loc, value, type, isTosaOp(op));
    return cached;
  }
  FloatType narrowType = type;
  cached = buildPermutedMap(rewriter, loc, value, permutation, narrowType,
                            [&](OpBuilder &b, Location loc, Value x) -> Value {
                              return arith::TruncFOp::create(b, loc,
                                                             narrowType, x);
                            });
  return cached;
}

Value WeightOnlyBuilder::rescale(RewriterBase &rewriter, Value accumulator,
                                 int64_t channelDim, Value bias,
                                 Value addend) {
  if (!bias && !addend)
    return accumulator;
  return buildContractionEpilogue(rewriter, op->getLoc(), accumulator,
                                  channelDim, {}, std::nullopt, bias, addend);
}

/// "'linalg.matmul' keeps its f32 weight: " and the reason.
std::string describeFallback(Operation *op, const WeightQuantSpec &spec,
                             StringRef why) {
  return llvm::formatv("'{0}' keeps its weight, not {1}: {2}", op->getName(),
                       spec.str(), why)
      .str();
}

/// A contraction to rewrite: its plan decision, format and weight.
struct Candidate {
  Operation *op;
  OpDecision decision;
  WeightQuantSpec spec;
  unsigned weightOperand;
  int64_t channelDim;
  ConstantSource source;
  bool annotated;
};

/// The weight of `op` (the FP8 operand with output channels) if it is a
/// constant; otherwise sets `why`.
std::optional<Candidate> findCandidate(Operation *op, const OpDecision &d,
                                       const WeightQuantSpec &spec,
                                       std::string &why) {
  auto iface = getMixedPrecisionInterface(op);
  SmallVector<FP8Operand, 2> operands;
  if (!iface || !iface.getFP8Operands(operands)) {
    why = "it has no weight-only form (matmul, batch_matmul and 2-D "
          "convolutions with static f32 shapes have one)";
    return std::nullopt;
  }
  if (d.accumulateType && !d.accumulateType.isF32()) {
    why = llvm::formatv("it accumulates in {0}, and weight-only contractions "
                        "accumulate in f32",
                        d.accumulateType)
              .str();
    return std::nullopt;
  }
  for (const FP8Operand &operand : operands) {
    if (!operand.channelDim)
      continue;
    std::optional<ConstantSource> source =
        findConstant(op->getOperand(operand.number));
    if (!source) {
      why = llvm::formatv("operand {0}, its weight, is not a constant",
                          operand.number)
                .str();
      return std::nullopt;
    }
    return Candidate{op,     d, spec, operand.number, *operand.channelDim,
                     *source, false};
  }
  why = "it has no weight operand";
  return std::nullopt;
}
} // namespace

//===----------------------------------------------------------------------===//
// The stage
//===----------------------------------------------------------------------===//

bool mlir::amp::hasWeightOnlyForm(Operation *op, const OpDecision &d,
                                  const WeightQuantSpec &spec,
                                  std::string &why) {
  return findCandidate(op, d, spec, why).has_value();
}

namespace {
/// One run of the weight-only stage over `root`: the candidates, their
/// fallbacks (with the remarks about them) and their rewrites.
class WeightOnlyStage : public ContractionStage {
public:
  using ContractionStage::ContractionStage;

private:
  /// The contractions of `colors` that run in 16 bits and ask for low-bit
  /// weights with a constant weight; a fallback for each other one.
  void findCandidates(PrecisionPlan &colors) override;
  /// Rewrites the candidates with their weights quantized.
  void rewriteCandidates() override;
  void summarizeFallbacks() override;

  void fallback(const Candidate &c, const std::string &why);
  /// Rewrites `c`; false (its new ops erased) when its form is not built.
  bool rewrite(IRRewriter &rewriter, InsertedOps &inserted,
               WeightOnlyCache &cache, const Candidate &c);

  std::vector<Candidate> candidates;
  unsigned unremarked = 0;
};
} // namespace

void WeightOnlyStage::fallback(const Candidate &c, const std::string &why) {
  FP8Record record;
  record.type = c.decision.computeType;
  record.weights = c.spec;
  record.why = why;
  result.fallbacks[c.op] = {Reason::NoWeightOnlyForm, record};
  if (!options.diagnostics)
    return;
  if (c.annotated || options.remarks)
    mlir::emitRemark(c.op->getLoc(), describeFallback(c.op, c.spec, why));
  else
    ++unremarked;
}

void WeightOnlyStage::findCandidates(PrecisionPlan &colors) {
  StringRef annotation = AmpDialect::WeightsAttrHelper::getNameStr();
  for (auto [i, op] : llvm::enumerate(colors.getOps())) {
    const OpDecision &d = colors.getDecision(i);
    if (d.reason == Reason::SkipLayers)
      result.skippedOps.insert(op);
    std::optional<WeightQuantSpec> spec = getRequestedWeights(op, options);
    if (!spec)
      continue;
    bool annotated =
        !op->getRawDictionaryAttrs().empty() && op->getDiscardableAttr(annotation);
    // Ops that run in FP32 or FP8 keep their weights; an annotation on one
    // says so.
    bool sixteen = d.color == Color::green &&
                   d.reason != Reason::UnsupportedTypes && d.computeType &&
                   d.computeType.getIntOrFloatBitWidth() == 16;
    if (!sixteen) {
      if (annotated && options.diagnostics)
        mlir::emitRemark(op->getLoc(),
                         describeFallback(op, *spec,
                                          "it does not run in 16 bits"));
      continue;
    }
    std::string why;
    std::optional<Candidate> candidate = findCandidate(op, d, *spec, why);
    if (!candidate) {
      fallback({op, d, *spec, 0, 0, {}, annotated}, why);
      continue;
    }
    candidate->annotated = annotated;
    candidates.push_back(std::move(*candidate));
  }
}

bool WeightOnlyStage::rewrite(IRRewriter &rewriter, InsertedOps &inserted,
                              WeightOnlyCache &cache, const Candidate &c) {
  Operation *op = c.op;
  FP8Record record;
  record.type = c.decision.computeType;
  record.weights = c.spec;
  size_t firstInserted = inserted.ops.size();
  WeightOnlyBuilder builder(op, record.type, c.weightOperand, c.channelDim,
                            c.source, c.spec, cache, record);
  FailureOr<Value> replacement =
      getMixedPrecisionInterface(op).rewriteInFP8(rewriter, builder);
  if (failed(replacement) || !*replacement) {
    eraseUnusedSince(rewriter, inserted, firstInserted, [&](Operation *made) {
      forgetResultsOf(cache.weights, made);
      forgetResultsOf(cache.activations, made);
      for (Value result : made->getResults())
        cache.stored.erase(result);
    });
    fallback(c, builder.failure.empty()
                    ? "its weight-only form could not be built"
                    : builder.failure);
    return false;
  }
  adoptReplacement(rewriter, op, *replacement, inserted, firstInserted, options,
                   result);
  record.converted = true;
  if (options.remarks && options.diagnostics)
    mlir::emitRemark(op->getLoc(),
                     llvm::formatv("'{0}' runs in {1} with {2} weights "
                                   "({3} bytes, {4} in {1})",
                                   op->getName(), record.type, c.spec.str(),
                                   record.weightBytesStored,
                                   record.weightBytes16)
                         .str());
  recordConverted(op, c.decision, std::move(record), result);
  return true;
}

void WeightOnlyStage::rewriteCandidates() {
  WeightOnlyCache cache;
  InsertedOps inserted;
  IRRewriter rewriter(root->getContext(), &inserted);
  for (Candidate &c : candidates)
    if (c.op->getBlock())
      (void)rewrite(rewriter, inserted, cache, c);
}

void WeightOnlyStage::summarizeFallbacks() {
  if (!unremarked || !options.diagnostics)
    return;
  mlir::emitRemark(root->getLoc(),
                   llvm::formatv("{0} contraction{1} keep{2} {3} weights "
                                 "(weight-only= asked for {4}); "
                                 "remarks=true gives a remark for each",
                                 unremarked, unremarked == 1 ? "" : "s",
                                 unremarked == 1 ? "s" : "",
                                 unremarked == 1 ? "its" : "their",
                                 options.weightOnly->str())
                       .str());
}

LogicalResult
mlir::amp::convertWeightOnlyContractions(Operation *root,
                                         const MixedPrecisionOptions &options,
                                         FP8Conversion &result) {
  if (!options.weightOnly && !hasWeightsAnnotation(root))
    return success();
  return WeightOnlyStage(root, options, result).run();
}
