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

namespace {
/// The NCHW input of a rearrangement, its static dimensions and its
/// blocksize.
struct RearrangeInput {
  Value x;
  int64_t n, c, h, w, bs;
};
} // namespace

/// Reads the input and blocksize of a rearrangement; failure is reported.
static FailureOr<RearrangeInput> getRearrangeInput(NodeContext &ctx) {
  Value x = ctx.input(0);
  if (getTensorType(x).getRank() != 4)
    return ctx.error("the input must have rank 4 (N, C, H, W)");
  if (failed(ctx.requireStatic(x, {0, 1, 2, 3}, "every dimension")))
    return failure();
  int64_t bs = ctx.getInt("blocksize", 0);
  if (bs <= 0)
    return ctx.error("blocksize must be positive");
  ArrayRef<int64_t> s = getShape(x);
  return RearrangeInput{x, s[0], s[1], s[2], s[3], bs};
}

LogicalResult amp::onnximport::convertDepthToSpace(NodeContext &ctx) {
  FailureOr<RearrangeInput> in = getRearrangeInput(ctx);
  if (failed(in))
    return failure();
  auto [x, n, c, h, w, bs] = *in;
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
  FailureOr<RearrangeInput> in = getRearrangeInput(ctx);
  if (failed(in))
    return failure();
  auto [x, n, c, h, w, bs] = *in;
  if (h % bs != 0 || w % bs != 0)
    return ctx.error("the spatial dimensions (" + Twine(h) + "x" + Twine(w) +
                     ") are not multiples of blocksize");
  Value result = reshape(ctx.b, ctx.loc, x, {n, c, h / bs, bs, w / bs, bs});
  result = transpose(ctx.b, ctx.loc, result, {0, 3, 5, 1, 2, 4});
  ctx.setOutput(0, reshape(ctx.b, ctx.loc, result,
                           {n, c * bs * bs, h / bs, w / bs}));
  return success();
}
