//===- Rearrange.cpp - DepthToSpace and SpaceToDepth ----------------------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Both move blocks of `blocksize` x `blocksize` values between the channel
// dimension and the two spatial ones of an NCHW tensor: a reshape to six
// dimensions, a transpose and a reshape back (the definition of the ONNX
// spec, as TOSA ops; amp colors them gray: data movement).
//
//===----------------------------------------------------------------------===//

#include "Converters.h"

using namespace mlir;
using namespace amp::onnximport;

/// The NCHW input of a rearrangement with static dimensions, and its
/// blocksize; null on error (reported).
static Value getRearrangeInput(NodeContext &ctx, int64_t &blocksize) {
  Value x = ctx.input(0);
  if (getTensorType(x).getRank() != 4) {
    (void)ctx.error("the input must have rank 4 (N, C, H, W)");
    return nullptr;
  }
  if (failed(ctx.requireStatic(x, {0, 1, 2, 3}, "every dimension")))
    return nullptr;
  blocksize = ctx.getInt("blocksize", 0);
  if (blocksize <= 0) {
    (void)ctx.error("blocksize must be positive");
    return nullptr;
  }
  return x;
}

LogicalResult amp::onnximport::convertDepthToSpace(NodeContext &ctx) {
  int64_t bs;
  Value x = getRearrangeInput(ctx, bs);
  if (!x)
    return failure();
  ArrayRef<int64_t> s = getShape(x);
  int64_t n = s[0], c = s[1], h = s[2], w = s[3];
  if (c % (bs * bs) != 0)
    return ctx.error("the channels (" + Twine(c) +
                     ") are not a multiple of blocksize^2");
  std::string mode = ctx.getString("mode", "DCR");
  Value result;
  if (mode == "DCR") {
    result = reshape(ctx.b, ctx.loc, x, {n, bs, bs, c / (bs * bs), h, w});
    result = transpose(ctx.b, ctx.loc, result, {0, 3, 4, 1, 5, 2});
  } else if (mode == "CRD") {
    result = reshape(ctx.b, ctx.loc, x, {n, c / (bs * bs), bs, bs, h, w});
    result = transpose(ctx.b, ctx.loc, result, {0, 1, 4, 2, 5, 3});
  } else {
    return ctx.unsupported("mode", "DCR or CRD");
  }
  ctx.setOutput(0, reshape(ctx.b, ctx.loc, result,
                           {n, c / (bs * bs), h * bs, w * bs}));
  return success();
}

LogicalResult amp::onnximport::convertSpaceToDepth(NodeContext &ctx) {
  int64_t bs;
  Value x = getRearrangeInput(ctx, bs);
  if (!x)
    return failure();
  ArrayRef<int64_t> s = getShape(x);
  int64_t n = s[0], c = s[1], h = s[2], w = s[3];
  if (h % bs != 0 || w % bs != 0)
    return ctx.error("the spatial dimensions (" + Twine(h) + "x" + Twine(w) +
                     ") are not multiples of blocksize");
  Value result = reshape(ctx.b, ctx.loc, x, {n, c, h / bs, bs, w / bs, bs});
  result = transpose(ctx.b, ctx.loc, result, {0, 3, 5, 1, 2, 4});
  ctx.setOutput(0, reshape(ctx.b, ctx.loc, result,
                           {n, c * bs * bs, h / bs, w / bs}));
  return success();
}
