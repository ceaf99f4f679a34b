//===- Conv.cpp - Conv and ConvTranspose ----------------------------------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// ONNX convolutions are NCHW with FCHW weights; TOSA's are NHWC with OHWI
// weights, so the input and output are transposed around tosa.conv2d (and
// the weight transposes fold into the constants later). Depthwise
// convolutions (group == channels) use tosa.depthwise_conv2d; other grouped
// ones are one tosa.conv2d per group and a concat. 1-D convolutions are 2-D
// ones of height 1.
//
//===----------------------------------------------------------------------===//

#include "Converters.h"
#include "SpatialAttrs.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"

using namespace mlir;
using namespace amp::onnximport;

static const int32_t kToNHWC[] = {0, 2, 3, 1};
static const int32_t kToNCHW[] = {0, 3, 1, 2};

/// The accumulator type TOSA wants for `elementType`, or null.
static Type getAccType(OpBuilder &b, Type elementType) {
  if (elementType.isF32() || elementType.isF16() || elementType.isBF16())
    return b.getF32Type();
  return nullptr;
}

/// The element-type checks every convolution shares: a float input whose
/// accumulator type is known, and a weight of the same type.
static LogicalResult checkConvTypes(NodeContext &ctx, Type accType,
                                    Type elementType, Value w) {
  if (!accType)
    return ctx.error("only f32, f16 and bf16 convolutions are supported");
  if (getElementType(w) != elementType)
    return ctx.error("the weight has another element type than the input");
  return success();
}

LogicalResult amp::onnximport::convertConv(NodeContext &ctx) {
  OpBuilder &b = ctx.b;
  Location loc = ctx.loc;
  Value x = ctx.input(0), w = ctx.input(1);
  Type elementType = getElementType(x);
  Type accType = getAccType(b, elementType);
  if (failed(checkConvTypes(ctx, accType, elementType, w)))
    return failure();
  int64_t rank = getTensorType(x).getRank();
  if (rank != 3 && rank != 4)
    return ctx.error("only 1-D and 2-D convolutions are supported (input of "
                     "rank " + Twine(rank) + ")");
  if (getTensorType(w).getRank() != rank)
    return ctx.error("the weight's rank differs from the input's");
  if (failed(
          ctx.requireStatic(x, {1, 2, 3}, "a channel or spatial dimension")) ||
      failed(ctx.requireStatic(w, {0, 1, 2, 3}, "a weight dimension")))
    return failure();
  int64_t group = ctx.getInt("group", 1);
  FailureOr<SpatialAttrs> attrs =
      getSpatialAttrs(ctx, getShape(x).drop_front(2),
                      getShape(w).drop_front(2), /*isPool=*/false);
  if (failed(attrs))
    return failure();
  // 1-D: height 1.
  if (rank == 3) {
    x = reshape(b, loc, x, {getShape(x)[0], getShape(x)[1], 1, getShape(x)[2]});
    w = reshape(b, loc, w, {getShape(w)[0], getShape(w)[1], 1, getShape(w)[2]});
  }
  ArrayRef<int64_t> xs = getShape(x), ws = getShape(w);
  int64_t n = xs[0], c = xs[1], m = ws[0];
  if (group <= 0 || c % group != 0 || m % group != 0 || ws[1] * group != c)
    return ctx.error("the weight shape does not match 'group' = " +
                     Twine(group));
  Value bias;
  if (ctx.hasInput(2)) {
    bias = ctx.input(2);
    if (getShape(bias) != ArrayRef<int64_t>{m})
      return ctx.error("the bias must have one value per output channel");
  } else {
    bias = splatConst(b, loc, RankedTensorType::get({m}, elementType), 0.0);
  }

  // TOSA wants (in - 1 + pads - (k - 1) * d) divisible by the stride.
  Value input = transpose(b, loc, x, kToNHWC);
  input = fitWindowsExactly(b, loc, input, *attrs, /*firstSpatialDim=*/1);
  int64_t oh = attrs->outSize[0], ow = attrs->outSize[1];
  auto padAttr = b.getDenseI64ArrayAttr({attrs->padBegin[0], attrs->padEnd[0],
                                         attrs->padBegin[1], attrs->padEnd[1]});
  auto strideAttr = b.getDenseI64ArrayAttr(attrs->strides);
  auto dilationAttr = b.getDenseI64ArrayAttr(attrs->dilations);
  auto acc = TypeAttr::get(accType);

  Value result;
  if (group == 1) {
    Value weight = transpose(b, loc, w, kToNHWC);
    auto type = RankedTensorType::get({n, oh, ow, m}, elementType);
    result = tosa::Conv2DOp::create(b, loc, type, input, weight, bias, padAttr,
                                    strideAttr, dilationAttr, acc);
  } else if (group == c) {
    int64_t mult = m / c;
    Value weight = reshape(b, loc, w, {c, mult, ws[2], ws[3]});
    weight = transpose(b, loc, weight, {2, 3, 0, 1});
    auto type = RankedTensorType::get({n, oh, ow, m}, elementType);
    result = tosa::DepthwiseConv2DOp::create(b, loc, type, input, weight, bias,
                                             padAttr, strideAttr, dilationAttr,
                                             acc);
  } else {
    int64_t cg = c / group, mg = m / group;
    ArrayRef<int64_t> is = getShape(input);
    SmallVector<Value> parts;
    for (int64_t g = 0; g < group; ++g) {
      Value in = slice(b, loc, input, {0, 0, 0, g * cg},
                       {is[0], is[1], is[2], cg});
      Value wg = slice(b, loc, w, {g * mg, 0, 0, 0}, {mg, cg, ws[2], ws[3]});
      Value bg = slice(b, loc, bias, {g * mg}, {mg});
      auto type = RankedTensorType::get({n, oh, ow, mg}, elementType);
      parts.push_back(tosa::Conv2DOp::create(
          b, loc, type, in, transpose(b, loc, wg, kToNHWC), bg, padAttr,
          strideAttr, dilationAttr, acc));
    }
    result = concat(b, loc, parts, 3);
  }
  result = transpose(b, loc, result, kToNCHW);
  if (rank == 3)
    result = reshape(b, loc, result, {n, m, ow});
  ctx.setOutput(0, result);
  return success();
}

/// A transposed convolution as TOSA's decomposition does it (tosa-to-linalg
/// has no transpose_conv2d): insert stride - 1 zeros between input elements,
/// pad by dilation * (k - 1) - pads (cropping where that is negative), and
/// run a stride-1 tosa.conv2d with the spatially flipped kernel.
LogicalResult amp::onnximport::convertConvTranspose(NodeContext &ctx) {
  OpBuilder &b = ctx.b;
  Location loc = ctx.loc;
  Value x = ctx.input(0), w = ctx.input(1);
  Type elementType = getElementType(x);
  Type accType = getAccType(b, elementType);
  if (failed(checkConvTypes(ctx, accType, elementType, w)))
    return failure();
  int64_t rank = getTensorType(x).getRank();
  if (rank != 3 && rank != 4)
    return ctx.error("only 1-D and 2-D transposed convolutions are supported");
  if (getTensorType(w).getRank() != rank)
    return ctx.error("the weight's rank differs from the input's");
  int64_t group = ctx.getInt("group", 1);
  int64_t spatial = rank - 2;
  auto ints = [&](const char *name, int64_t count, int64_t dflt) {
    return ctx.getInts(name).value_or(std::vector<int64_t>(count, dflt));
  };
  std::vector<int64_t> strides = ints("strides", spatial, 1);
  std::vector<int64_t> dilations = ints("dilations", spatial, 1);
  std::vector<int64_t> outputPadding = ints("output_padding", spatial, 0);
  std::vector<int64_t> pads = ints("pads", 2 * spatial, 0);
  if (static_cast<int64_t>(strides.size()) != spatial ||
      static_cast<int64_t>(dilations.size()) != spatial ||
      static_cast<int64_t>(outputPadding.size()) != spatial ||
      static_cast<int64_t>(pads.size()) != 2 * spatial)
    return ctx.error("strides, dilations, output_padding or pads have the "
                     "wrong length");
  ArrayRef<int64_t> xs0 = getShape(x), ws0 = getShape(w);
  std::string autoPad = ctx.getString("auto_pad", "NOTSET");
  std::optional<std::vector<int64_t>> outputShape = ctx.getInts("output_shape");
  if (failed(ctx.checkSizes(strides, "strides")) ||
      failed(ctx.checkSizes(dilations, "dilations")) ||
      failed(ctx.checkSizes(outputPadding, "output_padding")) ||
      failed(ctx.checkSizes(pads, "pads")) ||
      (outputShape && failed(ctx.checkSizes(*outputShape, "output_shape"))))
    return failure();
  for (int64_t i = 0; i < spatial; ++i) {
    int64_t in = xs0[2 + i], s = strides[i];
    if (s <= 0 || dilations[i] <= 0)
      return ctx.error("strides and dilations must be positive");
    int64_t k = (ws0[2 + i] - 1) * dilations[i] + 1;
    int64_t full = s * (in - 1) + outputPadding[i] + k;
    std::optional<int64_t> total;
    if (outputShape) {
      if (static_cast<int64_t>(outputShape->size()) < spatial)
        return ctx.error("'output_shape' has too few entries");
      total = full - (*outputShape)[outputShape->size() - spatial + i];
    } else if (autoPad == "SAME_UPPER" || autoPad == "SAME_LOWER") {
      total = full - in * s;
    }
    if (total) {
      if (*total < 0) {
        // A larger output_shape: the extra rows are output padding.
        outputPadding[i] -= *total;
        total = 0;
      }
      bool upper = autoPad == "SAME_UPPER";
      pads[i] = upper ? *total / 2 : *total - *total / 2;
      pads[i + spatial] = *total - pads[i];
    }
  }
  if (rank == 3) {
    x = reshape(b, loc, x, {xs0[0], xs0[1], 1, xs0[2]});
    w = reshape(b, loc, w, {ws0[0], ws0[1], 1, ws0[2]});
    strides.insert(strides.begin(), 1);
    dilations.insert(dilations.begin(), 1);
    outputPadding.insert(outputPadding.begin(), 0);
    pads = {0, pads[0], 0, pads[1]};
  }
  ArrayRef<int64_t> xs = getShape(x), ws = getShape(w);
  int64_t n = xs[0], c = xs[1], mg = ws[1], kh = ws[2], kw = ws[3];
  if (group <= 0 || c % group != 0 || ws[0] != c)
    return ctx.error("the weight shape does not match the input channels and "
                     "'group'");
  int64_t m = mg * group, cg = c / group;
  Value bias;
  if (ctx.hasInput(2)) {
    bias = ctx.input(2);
    if (getShape(bias) != ArrayRef<int64_t>{m})
      return ctx.error("the bias must have one value per output channel");
  } else {
    bias = splatConst(b, loc, RankedTensorType::get({m}, elementType), 0.0);
  }

  // Zero insertion: [n, H, W, c] -> [n, (H-1)*sh+1, (W-1)*sw+1, c].
  Value input = transpose(b, loc, x, kToNHWC);
  int64_t sh = strides[0], sw = strides[1], h = xs[2], wd = xs[3];
  if (sh > 1 || sw > 1) {
    input = reshape(b, loc, input, {n, h, 1, wd, 1, c});
    input = pad(b, loc, input, {0, 0, 0, 0, 0, 0},
                {0, 0, sh - 1, 0, sw - 1, 0}, 0.0);
    input = reshape(b, loc, input, {n, h * sh, wd * sw, c});
    input = slice(b, loc, input, {0, 0, 0, 0},
                  {n, (h - 1) * sh + 1, (wd - 1) * sw + 1, c});
  }
  // Padding (negative: cropping).
  int64_t dh = dilations[0], dw = dilations[1];
  int64_t lows[2] = {dh * (kh - 1) - pads[0], dw * (kw - 1) - pads[1]};
  int64_t highs[2] = {dh * (kh - 1) - pads[2] + outputPadding[0],
                      dw * (kw - 1) - pads[3] + outputPadding[1]};
  ArrayRef<int64_t> is = getShape(input);
  SmallVector<int64_t> starts{0, 0, 0, 0}, sizes(is);
  for (int i = 0; i < 2; ++i) {
    if (lows[i] < 0) {
      starts[1 + i] = -lows[i];
      sizes[1 + i] += lows[i];
      lows[i] = 0;
    }
    if (highs[i] < 0) {
      sizes[1 + i] += highs[i];
      highs[i] = 0;
    }
    if (sizes[1 + i] <= 0)
      return ctx.unsupported("pads", "larger than the output");
  }
  input = slice(b, loc, input, starts, sizes);
  input = pad(b, loc, input, {0, lows[0], lows[1], 0},
              {0, highs[0], highs[1], 0}, 0.0);
  is = getShape(input);
  int64_t oh = is[1] - dh * (kh - 1), ow = is[2] - dw * (kw - 1);
  // Kernel: [c, m/g, kh, kw] -> flipped -> [m/g, kh, kw, c] per group.
  Value flipped = tosa::ReverseOp::create(b, loc, w.getType(), w,
                                          b.getI32IntegerAttr(2));
  flipped = tosa::ReverseOp::create(b, loc, w.getType(), flipped,
                                    b.getI32IntegerAttr(3));
  auto zeroPads = b.getDenseI64ArrayAttr({0, 0, 0, 0});
  auto unitStrides = b.getDenseI64ArrayAttr({1, 1});
  auto dilationAttr = b.getDenseI64ArrayAttr({dh, dw});
  SmallVector<Value> parts;
  for (int64_t g = 0; g < group; ++g) {
    Value in = group == 1 ? input
                          : slice(b, loc, input, {0, 0, 0, g * cg},
                                  {n, is[1], is[2], cg});
    Value wg = group == 1 ? flipped
                          : slice(b, loc, flipped, {g * cg, 0, 0, 0},
                                  {cg, mg, kh, kw});
    Value bg = group == 1 ? bias : slice(b, loc, bias, {g * mg}, {mg});
    auto type = RankedTensorType::get({n, oh, ow, mg}, elementType);
    parts.push_back(tosa::Conv2DOp::create(
        b, loc, type, in, transpose(b, loc, wg, {1, 2, 3, 0}), bg, zeroPads,
        unitStrides, dilationAttr, TypeAttr::get(accType)));
  }
  Value result = transpose(b, loc, concat(b, loc, parts, 3), kToNCHW);
  if (rank == 3)
    result = reshape(b, loc, result, {n, m, ow});
  ctx.setOutput(0, result);
  return success();
}
