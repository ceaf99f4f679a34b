//===- ConvToMatmul.cpp - 2-D convolutions as gather + matmul -------------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Rewrites a 2-D convolution on tensors as a contraction the matmul kernels
// take: an im2col linalg.generic that gathers the input patches (a
// "gather": no operands, its payload computes the input position of each
// element from linalg.index and reads it with tensor.extract) and a
// linalg.matmul (NHWC: the batch folds into the rows; NCHW with batch 1)
// or linalg.batch_matmul (NCHW: the filter broadcast over the batch).
//
// The gather is never materialized on the GPU: the matmul kernels evaluate
// a generic that produces an operand wherever they load that operand
// (OperandSource.cpp), so the convolution reads its input tiles straight
// from the activation tensor (an implicit GEMM). Hence the gather folds in
// what surrounds it: a zero (or constant) tensor.pad of the input becomes a
// bounds check, and an elementwise cast between the pad and the
// convolution (mixed precision rounds the padded input) is applied to the
// value read.
//
// FP8 convolutions (f8E4M3FN/f8E5M2 input and filter, f32 output) become the
// matmul form of FP8 mixed precision (docs/fp8.md): B stored K-major (N x
// K) and read with the map (n, k), what the wgmma kernel's FP8 form needs
// (no transpose for FP8 operands): an FHWC filter is already F x K, an
// HWCF filter is transposed (at compile time when it is a constant), and
// the NCHW im2col gather is built as pixels x K.
//
//===----------------------------------------------------------------------===//

#include "amp/Conversion/Passes.h"

#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir {
namespace amp {
#define GEN_PASS_DEF_AMPGPUCONVTOMATMULPASS
#include "amp/Conversion/Passes.h.inc"
} // namespace amp
} // namespace mlir

using namespace mlir;
using namespace mlir::amp;

namespace {

/// The geometry of one 2-D convolution, and what its gather reads.
struct ConvGeometry {
  enum class Layout {
    NhwcHwcf,
    NhwcFhwc,
    NchwFchw,
    DepthwiseNchwChw,
    DepthwiseNhwcHwc
  } layout;
  int64_t n, c, ih, iw, f, kh, kw, oh, ow;
  int64_t sh, sw, dh, dw;
  int64_t padTop = 0, padLeft = 0;
  /// The tensor the gather reads (the convolution's input, or the source
  /// of its padding).
  Value source;
  /// The padding value (null: no padding folded).
  Value padValue;
  bool isNchw() const {
    return layout == Layout::NchwFchw || layout == Layout::DepthwiseNchwChw;
  }
  bool isDepthwise() const {
    return layout == Layout::DepthwiseNchwChw ||
           layout == Layout::DepthwiseNhwcHwc;
  }
  /// An elementwise op of one tensor between the padding and the
  /// convolution (a cast: a unary linalg.generic, or arith.truncf/extf on
  /// tensors), applied to each value read; null if none.
  Operation *elementwise = nullptr;
};

/// Whether `op` is an all-parallel generic with one input and one output,
/// both read with identity maps (an elementwise op on one tensor).
static bool isUnaryElementwise(linalg::GenericOp op) {
  return op && op.hasPureTensorSemantics() && op.getNumDpsInputs() == 1 &&
         op.getNumDpsInits() == 1 &&
         op.getNumParallelLoops() == op.getNumLoops() &&
         llvm::all_of(op.getIndexingMapsArray(),
                      [](AffineMap m) { return m.isIdentity(); }) &&
         op.getRegion().front().getArgument(1).use_empty() &&
         llvm::none_of(op.getRegion().front(), [](Operation &inner) {
           return isa<linalg::IndexOp>(inner);
         });
}

static int64_t attrAt(DenseIntElementsAttr attr, unsigned i) {
  return attr.getValues<int64_t>()[i];
}

/// Reads the geometry of `conv`; failure for dynamic shapes or unsupported
/// kinds.
static FailureOr<ConvGeometry> readGeometry(linalg::LinalgOp conv) {
  ConvGeometry g;
  DenseIntElementsAttr strides, dilations;
  Operation *op = conv.getOperation();
  if (auto c = dyn_cast<linalg::Conv2DNhwcHwcfOp>(op)) {
    g.layout = ConvGeometry::Layout::NhwcHwcf;
    strides = c.getStrides();
    dilations = c.getDilations();
  } else if (auto c = dyn_cast<linalg::Conv2DNhwcFhwcOp>(op)) {
    g.layout = ConvGeometry::Layout::NhwcFhwc;
    strides = c.getStrides();
    dilations = c.getDilations();
  } else if (auto c = dyn_cast<linalg::Conv2DNchwFchwOp>(op)) {
    g.layout = ConvGeometry::Layout::NchwFchw;
    strides = c.getStrides();
    dilations = c.getDilations();
  } else if (auto c = dyn_cast<linalg::DepthwiseConv2DNchwChwOp>(op)) {
    g.layout = ConvGeometry::Layout::DepthwiseNchwChw;
    strides = c.getStrides();
    dilations = c.getDilations();
  } else if (auto c = dyn_cast<linalg::DepthwiseConv2DNhwcHwcOp>(op)) {
    g.layout = ConvGeometry::Layout::DepthwiseNhwcHwc;
    strides = c.getStrides();
    dilations = c.getDilations();
  } else {
    return failure();
  }
  auto inType = cast<RankedTensorType>(conv.getDpsInputs()[0].getType());
  auto wType = cast<RankedTensorType>(conv.getDpsInputs()[1].getType());
  auto outType = cast<RankedTensorType>(conv.getDpsInits()[0].getType());
  if (!inType.hasStaticShape() || !wType.hasStaticShape() ||
      !outType.hasStaticShape())
    return failure();
  g.sh = attrAt(strides, 0);
  g.sw = attrAt(strides, 1);
  g.dh = attrAt(dilations, 0);
  g.dw = attrAt(dilations, 1);
  ArrayRef<int64_t> in = inType.getShape(), w = wType.getShape(),
                    out = outType.getShape();
  bool nchw = g.isNchw();
  g.n = in[0];
  g.c = nchw ? in[1] : in[3];
  g.ih = nchw ? in[2] : in[1];
  g.iw = nchw ? in[3] : in[2];
  g.oh = nchw ? out[2] : out[1];
  g.ow = nchw ? out[3] : out[2];
  switch (g.layout) {
  case ConvGeometry::Layout::NhwcHwcf:
    g.kh = w[0], g.kw = w[1], g.f = w[3];
    break;
  case ConvGeometry::Layout::NhwcFhwc:
    g.f = w[0], g.kh = w[1], g.kw = w[2];
    break;
  case ConvGeometry::Layout::NchwFchw:
    g.f = w[0], g.kh = w[2], g.kw = w[3];
    break;
  case ConvGeometry::Layout::DepthwiseNchwChw:
    g.f = w[0], g.kh = w[1], g.kw = w[2];
    break;
  case ConvGeometry::Layout::DepthwiseNhwcHwc:
    g.kh = w[0], g.kw = w[1], g.f = w[2];
    break;
  }
  g.source = conv.getDpsInputs()[0];

  // Fold a constant padding of the spatial dimensions, also through an
  // elementwise op of one tensor (mixed precision's cast of the padded
  // input).
  Value padded = g.source;
  Operation *elementwise = padded.getDefiningOp();
  if (auto generic = dyn_cast_or_null<linalg::GenericOp>(elementwise);
      generic && isUnaryElementwise(generic))
    padded = generic.getDpsInputs()[0];
  else if (isa_and_nonnull<arith::TruncFOp, arith::ExtFOp>(elementwise))
    padded = elementwise->getOperand(0);
  else
    elementwise = nullptr;
  auto pad = padded.getDefiningOp<tensor::PadOp>();
  if (!pad || !pad.getSourceType().hasStaticShape())
    return g;
  Value padValue = pad.getConstantPaddingValue();
  if (!padValue)
    return g;
  SmallVector<int64_t> low(pad.getStaticLow()), high(pad.getStaticHigh());
  if (llvm::any_of(low, ShapedType::isDynamic) ||
      llvm::any_of(high, ShapedType::isDynamic) ||
      llvm::any_of(low, [](int64_t v) { return v < 0; }) ||
      llvm::any_of(high, [](int64_t v) { return v < 0; }))
    return g;
  unsigned hDim = nchw ? 2 : 1, wDim = nchw ? 3 : 2, cDim = nchw ? 1 : 3;
  if (low[0] || high[0] || low[cDim] || high[cDim])
    return g;
  ArrayRef<int64_t> src = pad.getSourceType().getShape();
  g.padTop = low[hDim];
  g.padLeft = low[wDim];
  g.ih = src[hDim];
  g.iw = src[wDim];
  g.source = pad.getSource();
  g.padValue = padValue;
  g.elementwise = elementwise;
  return g;
}

/// The input element at (n, ch, h, w) (before the padding offsets) as the
/// convolution reads it: through the folded padding (the padding value
/// outside the input) and the folded elementwise op; of type `elt`.
static Value readInput(OpBuilder &b, Location l, const ConvGeometry &g,
                       Type elt, Value n, Value ch, Value h, Value w) {
  auto cst = [&](int64_t v) { return arith::ConstantIndexOp::create(b, l, v); };
  Value inBounds;
  if (g.padValue) {
    h = arith::SubIOp::create(b, l, h, cst(g.padTop));
    w = arith::SubIOp::create(b, l, w, cst(g.padLeft));
    auto within = [&](Value v, int64_t size) {
      Value lo =
          arith::CmpIOp::create(b, l, arith::CmpIPredicate::sge, v, cst(0));
      Value hi = arith::CmpIOp::create(b, l, arith::CmpIPredicate::slt, v,
                                       cst(size));
      return arith::AndIOp::create(b, l, lo, hi).getResult();
    };
    inBounds = arith::AndIOp::create(b, l, within(h, g.ih), within(w, g.iw));
    // Outside the input: read element 0 and use the padding value.
    h = arith::SelectOp::create(b, l, inBounds, h, cst(0));
    w = arith::SelectOp::create(b, l, inBounds, w, cst(0));
  }
  SmallVector<Value> at = g.isNchw() ? SmallVector<Value>{n, ch, h, w}
                                     : SmallVector<Value>{n, h, w, ch};
  Value v = tensor::ExtractOp::create(b, l, g.source, at);
  if (g.padValue)
    v = arith::SelectOp::create(b, l, inBounds, v, g.padValue);
  if (auto generic = dyn_cast_or_null<linalg::GenericOp>(g.elementwise)) {
    Block &body = generic.getRegion().front();
    IRMapping mapping;
    mapping.map(body.getArgument(0), v);
    for (Operation &op : body.without_terminator())
      b.clone(op, mapping);
    v = mapping.lookupOrDefault(body.getTerminator()->getOperand(0));
  } else if (auto trunc = dyn_cast_or_null<arith::TruncFOp>(g.elementwise)) {
    v = arith::TruncFOp::create(b, l, elt, v, trunc.getRoundingmodeAttr(),
                                trunc.getFastmathAttr());
  } else if (isa_and_nonnull<arith::ExtFOp>(g.elementwise)) {
    v = arith::ExtFOp::create(b, l, elt, v);
  }
  return v;
}

/// The gather: a generic of `shape` (element type `elt`) whose element at
/// the loop indices is the input at the position `position` computes from
/// them (n, channel, h, w before the padding offsets), read by readInput.
static Value buildGather(
    RewriterBase &rewriter, Location loc, const ConvGeometry &g,
    ArrayRef<int64_t> shape, Type elt,
    function_ref<std::array<Value, 4>(OpBuilder &, ArrayRef<Value>)>
        position) {
  Value empty = tensor::EmptyOp::create(rewriter, loc, shape, elt);
  SmallVector<AffineMap> maps{
      rewriter.getMultiDimIdentityMap(shape.size())};
  SmallVector<utils::IteratorType> iters(shape.size(),
                                         utils::IteratorType::parallel);
  auto gather = linalg::GenericOp::create(
      rewriter, loc, TypeRange{empty.getType()}, ValueRange{},
      ValueRange{empty}, maps, iters,
      [&](OpBuilder &b, Location l, ValueRange) {
        SmallVector<Value> idx;
        for (unsigned d = 0; d < shape.size(); ++d)
          idx.push_back(linalg::IndexOp::create(b, l, d));
        auto [n, ch, h, w] = position(b, idx);
        linalg::YieldOp::create(b, l, readInput(b, l, g, elt, n, ch, h, w));
      });
  return gather.getResult(0);
}

/// Index arithmetic in a gather's payload.
struct Idx {
  OpBuilder &b;
  Location loc;
  Value div(Value x, int64_t y) {
    return arith::DivUIOp::create(b, loc, x,
                                  arith::ConstantIndexOp::create(b, loc, y));
  }
  Value rem(Value x, int64_t y) {
    return arith::RemUIOp::create(b, loc, x,
                                  arith::ConstantIndexOp::create(b, loc, y));
  }
  Value mulAdd(Value x, int64_t s, Value y, int64_t d) {
    Value a = arith::MulIOp::create(b, loc, x,
                                    arith::ConstantIndexOp::create(b, loc, s));
    Value c = arith::MulIOp::create(b, loc, y,
                                    arith::ConstantIndexOp::create(b, loc, d));
    return arith::AddIOp::create(b, loc, a, c);
  }
};

static bool isFP8(Type t) { return isa<Float8E4M3FNType, Float8E5M2Type>(t); }

/// The maps of an FP8 contraction: A (m, k), B (n, k), C (m, n), with a
/// leading batch dimension for batch matmuls.
static ArrayAttr fp8MatmulMaps(MLIRContext *ctx, bool batch) {
  unsigned n = batch ? 4 : 3, o = batch ? 1 : 0;
  auto d = [&](unsigned i) { return getAffineDimExpr(i, ctx); };
  auto map = [&](AffineExpr x, AffineExpr y) {
    SmallVector<AffineExpr> results;
    if (batch)
      results.push_back(d(0));
    results.append({x, y});
    return AffineMapAttr::get(AffineMap::get(n, 0, results, ctx));
  };
  AffineExpr m = d(o), nn = d(o + 1), k = d(o + 2);
  return ArrayAttr::get(ctx, {map(m, k), map(nn, k), map(m, nn)});
}

/// The transpose of `v` viewed as `rows` x `cols`, folded, when `v` is a
/// dense constant; null otherwise.
static Value foldTransposedConstant(RewriterBase &rewriter, Location loc,
                                    Value v, int64_t rows, int64_t cols) {
  DenseElementsAttr attr;
  if (!matchPattern(v, m_Constant(&attr)))
    return {};
  attr = attr.reshape(RankedTensorType::get(
      {rows, cols}, cast<ShapedType>(attr.getType()).getElementType()));
  auto type = cast<RankedTensorType>(attr.getType());
  auto transposed = RankedTensorType::get(
      {type.getDimSize(1), type.getDimSize(0)}, type.getElementType());
  if (attr.isSplat())
    return arith::ConstantOp::create(
        rewriter, loc, DenseElementsAttr::get(transposed,
                                              attr.getSplatValue<Attribute>()));
  auto intType = IntegerType::get(
      rewriter.getContext(), type.getElementType().getIntOrFloatBitWidth());
  DenseElementsAttr ints = attr.bitcast(intType);
  SmallVector<APInt> values(ints.getValues<APInt>().begin(),
                            ints.getValues<APInt>().end());
  if (values.size() != static_cast<size_t>(rows * cols))
    return {};
  SmallVector<APInt> out(values.size());
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c)
      out[c * rows + r] = values[r * cols + c];
  auto bits = DenseElementsAttr::get(
      RankedTensorType::get(transposed.getShape(), intType), out);
  return arith::ConstantOp::create(rewriter, loc,
                                   bits.bitcast(type.getElementType())
                                       .reshape(transposed));
}

} // namespace

/// A depthwise convolution as a reduction generic over (n, c, oh, ow) rows
/// and (kh, kw) columns that reads the input (padding folded, as the gather)
/// in its payload and the filter as an operand; --amp-gpu-row-reductions
/// computes it, with the ops over its rows that follow (batch norm,
/// activation), in one kernel.
static LogicalResult rewriteDepthwise(RewriterBase &rewriter,
                                      linalg::LinalgOp conv,
                                      const ConvGeometry &g) {
  Location loc = conv.getLoc();
  MLIRContext *ctx = rewriter.getContext();
  Value filter = conv.getDpsInputs()[1];
  Value init = conv.getDpsInits()[0];
  Type in = getElementTypeOrSelf(conv.getDpsInputs()[0].getType());
  Type out = getElementTypeOrSelf(init.getType());
  bool nchw = g.isNchw();
  // Loops: NCHW (n, c, oh, ow, kh, kw); NHWC (n, oh, ow, c, kh, kw).
  auto d = [&](unsigned i) { return getAffineDimExpr(i, ctx); };
  unsigned cLoop = nchw ? 1 : 3, ohLoop = nchw ? 2 : 1, owLoop = nchw ? 3 : 2;
  AffineMap filterMap =
      nchw ? AffineMap::get(6, 0, {d(1), d(4), d(5)}, ctx)
           : AffineMap::get(6, 0, {d(4), d(5), d(3)}, ctx);
  AffineMap outMap = AffineMap::get(6, 0, {d(0), d(1), d(2), d(3)}, ctx);
  SmallVector<utils::IteratorType> iters(4, utils::IteratorType::parallel);
  iters.append(2, utils::IteratorType::reduction);
  rewriter.setInsertionPoint(conv);
  auto generic = linalg::GenericOp::create(
      rewriter, loc, TypeRange{init.getType()}, ValueRange{filter},
      ValueRange{init}, ArrayRef<AffineMap>{filterMap, outMap}, iters,
      [&](OpBuilder &b, Location l, ValueRange args) {
        auto index = [&](unsigned i) {
          return linalg::IndexOp::create(b, l, i).getResult();
        };
        Idx ix{b, l};
        Value h = ix.mulAdd(index(ohLoop), g.sh, index(4), g.dh);
        Value w = ix.mulAdd(index(owLoop), g.sw, index(5), g.dw);
        Value x = readInput(b, l, g, in, index(0), index(cLoop), h, w);
        Value f = args[0];
        if (x.getType() != out)
          x = arith::ExtFOp::create(b, l, out, x);
        if (f.getType() != out)
          f = arith::ExtFOp::create(b, l, out, f);
        Value product = arith::MulFOp::create(b, l, x, f);
        linalg::YieldOp::create(
            b, l, arith::AddFOp::create(b, l, args[1], product).getResult());
      });
  generic->setAttr(kKernelNameAttrName, rewriter.getStringAttr("dwconv2d"));
  rewriter.replaceOp(conv, generic.getResults());
  return success();
}

LogicalResult mlir::amp::rewriteConvAsMatmul(RewriterBase &rewriter,
                                             linalg::LinalgOp conv) {
  if (!conv.hasPureTensorSemantics() || conv.getNumDpsInputs() != 2 ||
      conv.getNumDpsInits() != 1)
    return rewriter.notifyMatchFailure(conv, "not a convolution on tensors");
  Type in = getElementTypeOrSelf(conv.getDpsInputs()[0].getType());
  Type filterType = getElementTypeOrSelf(conv.getDpsInputs()[1].getType());
  Type out = getElementTypeOrSelf(conv.getDpsInits()[0].getType());
  bool fp8 = isFP8(in) && isFP8(filterType);
  if (!(in.isF16() || in.isBF16() || in.isF32() || fp8) ||
      (!fp8 && filterType != in) || !out.isF32())
    return rewriter.notifyMatchFailure(conv, "not 16-bit, FP8 or f32 -> f32");
  FailureOr<ConvGeometry> geometry = readGeometry(conv);
  if (failed(geometry))
    return rewriter.notifyMatchFailure(conv, "unsupported convolution");
  const ConvGeometry &g = *geometry;
  if (g.isDepthwise()) {
    OpBuilder::InsertionGuard guard(rewriter);
    return rewriteDepthwise(rewriter, conv, g);
  }
  Location loc = conv.getLoc();
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(conv);
  Value filter = conv.getDpsInputs()[1];
  Value init = conv.getDpsInits()[0];
  int64_t k = g.c * g.kh * g.kw, p = g.oh * g.ow;
  Operation *matmul;
  Value result;

  if (g.layout != ConvGeometry::Layout::NchwFchw) {
    // A[m, k]: m = (n, oh, ow), k = (kh, kw, c).
    Value a = buildGather(
        rewriter, loc, g, {g.n * p, k}, in,
        [&](OpBuilder &b, ArrayRef<Value> idx) -> std::array<Value, 4> {
          Idx ix{b, loc};
          Value m = idx[0], kk = idx[1];
          Value n = ix.div(m, p), pix = ix.rem(m, p);
          Value oh = ix.div(pix, g.ow), ow = ix.rem(pix, g.ow);
          Value c = ix.rem(kk, g.c), khw = ix.div(kk, g.c);
          Value kh = ix.div(khw, g.kw), kw = ix.rem(khw, g.kw);
          return {n, c, ix.mulAdd(oh, g.sh, kh, g.dh),
                  ix.mulAdd(ow, g.sw, kw, g.dw)};
        });
    // B[k, f]: HWCF collapsed, or FHWC collapsed and transposed. FP8: B[f,
    // k], FHWC collapsed, or HWCF collapsed and transposed.
    Value b;
    bool collapseOnly = (g.layout == ConvGeometry::Layout::NhwcHwcf) != fp8;
    if (collapseOnly && !fp8) {
      b = tensor::CollapseShapeOp::create(
          rewriter, loc, filter,
          ArrayRef<ReassociationIndices>{{0, 1, 2}, {3}});
    } else if (collapseOnly) {
      b = tensor::CollapseShapeOp::create(
          rewriter, loc, filter,
          ArrayRef<ReassociationIndices>{{0}, {1, 2, 3}});
    } else {
      // FHWC [F, K] to [K, F], or (FP8) HWCF [K, F] to [F, K].
      int64_t rows = fp8 ? k : g.f, cols = fp8 ? g.f : k;
      Value collapsed = tensor::CollapseShapeOp::create(
          rewriter, loc, filter,
          fp8 ? ArrayRef<ReassociationIndices>{{0, 1, 2}, {3}}
              : ArrayRef<ReassociationIndices>{{0}, {1, 2, 3}});
      b = foldTransposedConstant(rewriter, loc, filter, rows, cols);
      if (!b) {
        Value empty = tensor::EmptyOp::create(
            rewriter, loc, ArrayRef<int64_t>{cols, rows}, filterType);
        b = linalg::TransposeOp::create(rewriter, loc, collapsed, empty,
                                        ArrayRef<int64_t>{1, 0})
                ->getResult(0);
      }
    }
    Value c = tensor::CollapseShapeOp::create(
        rewriter, loc, init,
        ArrayRef<ReassociationIndices>{{0, 1, 2}, {3}});
    SmallVector<NamedAttribute> attrs;
    if (fp8)
      attrs.push_back(rewriter.getNamedAttr(
          "indexing_maps", fp8MatmulMaps(rewriter.getContext(), false)));
    auto mm = linalg::MatmulOp::create(rewriter, loc, TypeRange{c.getType()},
                                       ValueRange{a, b}, ValueRange{c}, attrs);
    matmul = mm;
    result = tensor::ExpandShapeOp::create(
        rewriter, loc, init.getType(), mm.getResult(0),
        ArrayRef<ReassociationIndices>{{0, 1, 2}, {3}});
  } else {
    // C[n][f, p] = F[f, k] * A[n][k, p]: k = (c, kh, kw), p = (oh, ow).
    Value f2 = tensor::CollapseShapeOp::create(
        rewriter, loc, filter,
        ArrayRef<ReassociationIndices>{{0}, {1, 2, 3}});
    auto position = [&](OpBuilder &b, Value n, Value kk,
                        Value pix) -> std::array<Value, 4> {
      Idx ix{b, loc};
      Value c = ix.div(kk, g.kh * g.kw), khw = ix.rem(kk, g.kh * g.kw);
      Value kh = ix.div(khw, g.kw), kw = ix.rem(khw, g.kw);
      Value oh = ix.div(pix, g.ow), ow = ix.rem(pix, g.ow);
      return {n, c, ix.mulAdd(oh, g.sh, kh, g.dh),
              ix.mulAdd(ow, g.sw, kw, g.dw)};
    };
    if (g.n == 1) {
      // FP8: the gather as B[p, k] (K-major).
      Value a =
          fp8 ? buildGather(rewriter, loc, g, {p, k}, in,
                            [&](OpBuilder &b, ArrayRef<Value> idx) {
                              return position(
                                  b, arith::ConstantIndexOp::create(b, loc, 0),
                                  idx[1], idx[0]);
                            })
              : buildGather(rewriter, loc, g, {k, p}, in,
                            [&](OpBuilder &b, ArrayRef<Value> idx) {
                              return position(
                                  b, arith::ConstantIndexOp::create(b, loc, 0),
                                  idx[0], idx[1]);
                            });
      Value c = tensor::CollapseShapeOp::create(
          rewriter, loc, init,
          ArrayRef<ReassociationIndices>{{0, 1}, {2, 3}});
      SmallVector<NamedAttribute> attrs;
      if (fp8)
        attrs.push_back(rewriter.getNamedAttr(
            "indexing_maps", fp8MatmulMaps(rewriter.getContext(), false)));
      auto mm =
          linalg::MatmulOp::create(rewriter, loc, TypeRange{c.getType()},
                                   ValueRange{f2, a}, ValueRange{c}, attrs);
      matmul = mm;
      result = tensor::ExpandShapeOp::create(
          rewriter, loc, init.getType(), mm.getResult(0),
          ArrayRef<ReassociationIndices>{{0, 1}, {2, 3}});
    } else {
      Value a = fp8 ? buildGather(rewriter, loc, g, {g.n, p, k}, in,
                                  [&](OpBuilder &b, ArrayRef<Value> idx) {
                                    return position(b, idx[0], idx[2], idx[1]);
                                  })
                    : buildGather(rewriter, loc, g, {g.n, k, p}, in,
                                  [&](OpBuilder &b, ArrayRef<Value> idx) {
                                    return position(b, idx[0], idx[1], idx[2]);
                                  });
      Value empty = tensor::EmptyOp::create(
          rewriter, loc, ArrayRef<int64_t>{g.n, g.f, k}, filterType);
      Value fb = linalg::BroadcastOp::create(rewriter, loc, f2, empty,
                                             ArrayRef<int64_t>{0})
                     ->getResult(0);
      Value c = tensor::CollapseShapeOp::create(
          rewriter, loc, init,
          ArrayRef<ReassociationIndices>{{0}, {1}, {2, 3}});
      SmallVector<NamedAttribute> attrs;
      if (fp8)
        attrs.push_back(rewriter.getNamedAttr(
            "indexing_maps", fp8MatmulMaps(rewriter.getContext(), true)));
      auto bmm = linalg::BatchMatmulOp::create(
          rewriter, loc, TypeRange{c.getType()}, ValueRange{fb, a},
          ValueRange{c}, attrs);
      matmul = bmm;
      result = tensor::ExpandShapeOp::create(
          rewriter, loc, init.getType(), bmm.getResult(0),
          ArrayRef<ReassociationIndices>{{0}, {1}, {2, 3}});
    }
  }
  // Its kernel says it is a convolution.
  matmul->setAttr(kKernelNameAttrName, rewriter.getStringAttr("conv2d"));
  rewriter.replaceOp(conv, result);
  return success();
}

namespace {
struct AmpGPUConvToMatmulPass
    : public amp::impl::AmpGPUConvToMatmulPassBase<AmpGPUConvToMatmulPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<linalg::LinalgOp> convs;
    getOperation()->walk([&](linalg::LinalgOp op) {
      if (isa<linalg::Conv2DNhwcHwcfOp, linalg::Conv2DNhwcFhwcOp,
              linalg::Conv2DNchwFchwOp, linalg::DepthwiseConv2DNchwChwOp,
              linalg::DepthwiseConv2DNhwcHwcOp>(op.getOperation()))
        convs.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (linalg::LinalgOp conv : convs) {
      Type in = getElementTypeOrSelf(conv.getDpsInputs()[0].getType());
      if (in.isF32() && !includeF32)
        continue;
      if (succeeded(rewriteConvAsMatmul(rewriter, conv)))
        ++numConvs;
    }
  }
};
} // namespace
