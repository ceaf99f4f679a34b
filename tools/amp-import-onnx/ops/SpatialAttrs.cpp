//===- SpatialAttrs.cpp - Windows of convolutions and pools ---------------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "SpatialAttrs.h"

using namespace mlir;
using namespace amp::onnximport;

FailureOr<SpatialAttrs>
amp::onnximport::getSpatialAttrs(NodeContext &ctx, ArrayRef<int64_t> inSize,
                                 ArrayRef<int64_t> kernel, bool isPool) {
  int64_t spatial = inSize.size();
  auto fail = [&](const Twine &message) -> FailureOr<SpatialAttrs> {
    (void)ctx.error(message);
    return failure();
  };
  if (spatial < 1 || spatial > 2)
    return fail("only 1-D and 2-D windows are supported");
  std::vector<int64_t> k;
  if (std::optional<std::vector<int64_t>> attr = ctx.getInts("kernel_shape"))
    k = *attr;
  else if (!isPool)
    k.assign(kernel.begin(), kernel.end());
  else
    return fail("'kernel_shape' is required");
  if (!isPool && k != std::vector<int64_t>(kernel.begin(), kernel.end()))
    return fail("'kernel_shape' differs from the weight's shape");
  auto get = [&](const char *name, int64_t count, int64_t dflt) {
    return ctx.getInts(name).value_or(std::vector<int64_t>(count, dflt));
  };
  std::vector<int64_t> strides = get("strides", spatial, 1);
  std::vector<int64_t> dilations = get("dilations", spatial, 1);
  std::vector<int64_t> pads = get("pads", 2 * spatial, 0);
  if (static_cast<int64_t>(k.size()) != spatial ||
      static_cast<int64_t>(strides.size()) != spatial ||
      static_cast<int64_t>(dilations.size()) != spatial ||
      static_cast<int64_t>(pads.size()) != 2 * spatial)
    return fail("kernel_shape, strides, dilations or pads have the wrong "
                "length for " + Twine(spatial) + " spatial dimensions");
  if (failed(ctx.checkSizes(k, "kernel_shape")) ||
      failed(ctx.checkSizes(strides, "strides")) ||
      failed(ctx.checkSizes(dilations, "dilations")) ||
      failed(ctx.checkSizes(pads, "pads")))
    return failure();
  std::string autoPad = ctx.getString("auto_pad", "NOTSET");
  if (autoPad != "NOTSET" && autoPad != "VALID" && autoPad != "SAME_UPPER" &&
      autoPad != "SAME_LOWER")
    return fail("unknown 'auto_pad' value '" + autoPad + "'");
  bool ceilMode = isPool && ctx.getInt("ceil_mode", 0) != 0;

  SpatialAttrs attrs;
  if (spatial == 1) {
    attrs.inSize.push_back(1);
    attrs.kernel.push_back(1);
    attrs.strides.push_back(1);
    attrs.dilations.push_back(1);
    attrs.padBegin.push_back(0);
    attrs.padEnd.push_back(0);
    attrs.outSize.push_back(1);
  }
  for (int64_t i = 0; i < spatial; ++i) {
    int64_t in = inSize[i], kk = k[i], s = strides[i], d = dilations[i];
    if (kk <= 0 || s <= 0 || d <= 0)
      return fail("kernel sizes, strides and dilations must be positive");
    int64_t eff = (kk - 1) * d + 1;
    int64_t pb = pads[i], pe = pads[i + spatial];
    if (autoPad == "VALID") {
      pb = pe = 0;
    } else if (autoPad != "NOTSET") {
      int64_t out = (in + s - 1) / s;
      int64_t total = std::max<int64_t>(0, (out - 1) * s + eff - in);
      pb = autoPad == "SAME_UPPER" ? total / 2 : total - total / 2;
      pe = total - pb;
    }
    if (pb < 0 || pe < 0)
      return fail("negative pads");
    int64_t num = in + pb + pe - eff;
    if (num < 0)
      return fail("the window is larger than the padded input");
    int64_t out = ceilMode ? (num + s - 1) / s + 1 : num / s + 1;
    if (ceilMode && (out - 1) * s >= in + pb)
      --out;
    attrs.inSize.push_back(in);
    attrs.kernel.push_back(kk);
    attrs.strides.push_back(s);
    attrs.dilations.push_back(d);
    attrs.padBegin.push_back(pb);
    attrs.padEnd.push_back(pe);
    attrs.outSize.push_back(out);
  }
  return attrs;
}

Value amp::onnximport::fitWindowsExactly(OpBuilder &b, Location loc,
                                         Value input, SpatialAttrs &attrs,
                                         int64_t firstSpatialDim) {
  SmallVector<int64_t> starts(getTensorType(input).getRank(), 0);
  SmallVector<int64_t> sizes(getShape(input));
  bool crop = false;
  for (int64_t i = 0; i < 2; ++i) {
    int64_t eff = (attrs.kernel[i] - 1) * attrs.dilations[i] + 1;
    int64_t needed = (attrs.outSize[i] - 1) * attrs.strides[i] + eff -
                     attrs.inSize[i] - attrs.padBegin[i];
    if (needed >= 0) {
      attrs.padEnd[i] = needed;
    } else {
      attrs.padEnd[i] = 0;
      sizes[firstSpatialDim + i] += needed;
      attrs.inSize[i] += needed;
      crop = true;
    }
  }
  return crop ? slice(b, loc, input, starts, sizes) : input;
}
