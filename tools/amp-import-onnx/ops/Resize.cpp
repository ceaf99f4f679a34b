//===- Resize.cpp - Resize and Upsample (nearest, linear) -----------------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// ONNX's coordinate transformation modes and nearest rounding modes are more
// than tosa.resize expresses, so a resize is a linalg.generic that computes,
// for each output element, the source coordinate of every resized dimension
// (in f64, as the ONNX reference does) and reads the input with
// tensor.extract: one read for nearest, 2^k reads blended for linear over k
// resized dimensions (k <= 2).
//
//===----------------------------------------------------------------------===//

#include "Converters.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <cmath>

using namespace mlir;
using namespace amp::onnximport;

namespace {
struct ResizeSpec {
  std::string mode;          // nearest, linear
  std::string coordinates;   // half_pixel, asymmetric, ...
  std::string nearestMode;   // round_prefer_floor, floor, ...
  std::vector<double> scales;
  std::vector<int64_t> outShape;
};
} // namespace

static Value emitResize(NodeContext &ctx, Value x, const ResizeSpec &spec) {
  OpBuilder &b = ctx.b;
  Location loc = ctx.loc;
  ArrayRef<int64_t> inShape = getShape(x);
  int64_t rank = inShape.size();
  Type elementType = getElementType(x);
  Value init = tensor::EmptyOp::create(b, loc, spec.outShape, elementType);
  MLIRContext *context = b.getContext();
  SmallVector<AffineMap> maps{AffineMap::getMultiDimIdentityMap(rank, context)};
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      b, loc, init.getType(), ValueRange{}, ValueRange{init}, maps, iterators,
      [&](OpBuilder &nb, Location nl, ValueRange) {
        Type f64 = nb.getF64Type();
        Type indexType = nb.getIndexType();
        auto f64Const = [&](double v) -> Value {
          return arith::ConstantOp::create(nb, nl, nb.getF64FloatAttr(v));
        };
        auto indexConst = [&](int64_t v) -> Value {
          return arith::ConstantIndexOp::create(nb, nl, v);
        };
        auto toIndex = [&](Value f) -> Value {
          Value i = arith::FPToSIOp::create(nb, nl, nb.getI64Type(), f);
          return arith::IndexCastOp::create(nb, nl, indexType, i);
        };
        auto clampIndex = [&](Value i, int64_t size) -> Value {
          Value lo = arith::MaxSIOp::create(nb, nl, i, indexConst(0));
          return arith::MinSIOp::create(nb, nl, lo, indexConst(size - 1));
        };
        // Per dimension: the two source indices and the weight of the
        // second (linear), or one index (nearest / not resized).
        SmallVector<Value> low(rank), high(rank), weight(rank);
        SmallVector<int64_t> linearDims;
        for (int64_t d = 0; d < rank; ++d) {
          Value outIndex = linalg::IndexOp::create(nb, nl, d);
          if (spec.outShape[d] == inShape[d] && spec.scales[d] == 1.0) {
            low[d] = outIndex;
            continue;
          }
          Value i = arith::SIToFPOp::create(
              nb, nl, f64,
              arith::IndexCastOp::create(nb, nl, nb.getI64Type(), outIndex));
          double s = spec.scales[d];
          int64_t in = inShape[d], out = spec.outShape[d];
          Value coord;
          const std::string &m = spec.coordinates;
          if (m == "asymmetric") {
            coord = arith::DivFOp::create(nb, nl, i, f64Const(s));
          } else if (m == "align_corners") {
            // ONNX's reference divides by the unrounded resized length.
            double resized = double(in) * s;
            double ratio = resized == 1.0 ? 0.0 : double(in - 1) / (resized - 1);
            coord = arith::MulFOp::create(nb, nl, i, f64Const(ratio));
          } else if (m == "tf_half_pixel_for_nn") {
            coord = arith::DivFOp::create(
                nb, nl, arith::AddFOp::create(nb, nl, i, f64Const(0.5)),
                f64Const(s));
          } else { // half_pixel, pytorch_half_pixel
            coord = arith::SubFOp::create(
                nb, nl,
                arith::DivFOp::create(
                    nb, nl, arith::AddFOp::create(nb, nl, i, f64Const(0.5)),
                    f64Const(s)),
                f64Const(0.5));
            if (m == "pytorch_half_pixel" && out == 1)
              coord = f64Const(0.0);
          }
          if (spec.mode == "nearest") {
            Value rounded;
            const std::string &n = spec.nearestMode;
            if (n == "floor")
              rounded = math::FloorOp::create(nb, nl, coord);
            else if (n == "ceil")
              rounded = math::CeilOp::create(nb, nl, coord);
            else if (n == "round_prefer_ceil")
              rounded = math::FloorOp::create(
                  nb, nl, arith::AddFOp::create(nb, nl, coord, f64Const(0.5)));
            else // round_prefer_floor
              rounded = math::CeilOp::create(
                  nb, nl, arith::SubFOp::create(nb, nl, coord, f64Const(0.5)));
            low[d] = clampIndex(toIndex(rounded), in);
            continue;
          }
          // Linear: clamp the coordinate into [0, in - 1].
          coord = arith::MaximumFOp::create(nb, nl, coord, f64Const(0.0));
          coord = arith::MinimumFOp::create(nb, nl, coord,
                                            f64Const(double(in - 1)));
          Value floorCoord = math::FloorOp::create(nb, nl, coord);
          low[d] = clampIndex(toIndex(floorCoord), in);
          high[d] = clampIndex(
              arith::AddIOp::create(nb, nl, low[d], indexConst(1)), in);
          weight[d] = arith::SubFOp::create(nb, nl, coord, floorCoord);
          linearDims.push_back(d);
        }
        Value result;
        if (linearDims.empty()) {
          result = tensor::ExtractOp::create(nb, nl, x, low);
        } else {
          // Sum over the corners of the weighted reads (in f64).
          Value acc = f64Const(0.0);
          int64_t corners = int64_t(1) << linearDims.size();
          for (int64_t corner = 0; corner < corners; ++corner) {
            SmallVector<Value> indices(low);
            Value w = f64Const(1.0);
            for (size_t j = 0; j < linearDims.size(); ++j) {
              int64_t d = linearDims[j];
              bool upper = (corner >> j) & 1;
              indices[d] = upper ? high[d] : low[d];
              Value wd = upper ? weight[d]
                               : arith::SubFOp::create(nb, nl, f64Const(1.0),
                                                       weight[d]).getResult();
              w = arith::MulFOp::create(nb, nl, w, wd);
            }
            Value v = tensor::ExtractOp::create(nb, nl, x, indices);
            v = arith::ExtFOp::create(nb, nl, f64, v);
            acc = arith::AddFOp::create(nb, nl, acc,
                                        arith::MulFOp::create(nb, nl, v, w));
          }
          result = arith::TruncFOp::create(nb, nl, elementType, acc);
        }
        linalg::YieldOp::create(nb, nl, result);
      });
  return generic.getResult(0);
}

static LogicalResult finishResize(NodeContext &ctx, ResizeSpec &spec) {
  Value x = ctx.input(0);
  Type elementType = getElementType(x);
  if (!isa<FloatType>(elementType) || elementType.isF64())
    return ctx.error("only f32, f16 and bf16 resizes are supported");
  int64_t rank = getTensorType(x).getRank();
  if (spec.mode != "nearest" && spec.mode != "linear")
    return ctx.unsupported("mode", "'" + spec.mode + "' (nearest or linear)");
  static const char *const kCoordinateModes[] = {
      "half_pixel", "pytorch_half_pixel", "align_corners", "asymmetric",
      "tf_half_pixel_for_nn"};
  if (llvm::find(kCoordinateModes, spec.coordinates) ==
      std::end(kCoordinateModes))
    return ctx.unsupported("coordinate_transformation_mode",
                           "'" + spec.coordinates + "'");
  static const char *const kNearestModes[] = {"round_prefer_floor",
                                              "round_prefer_ceil", "floor",
                                              "ceil"};
  if (llvm::find(kNearestModes, spec.nearestMode) == std::end(kNearestModes))
    return ctx.unsupported("nearest_mode", "'" + spec.nearestMode + "'");
  if (static_cast<int64_t>(spec.scales.size()) != rank ||
      static_cast<int64_t>(spec.outShape.size()) != rank)
    return ctx.error("scales or sizes need one entry per dimension");
  int64_t resized = 0;
  for (int64_t d = 0; d < rank; ++d) {
    if (spec.scales[d] <= 0 || spec.outShape[d] <= 0)
      return ctx.error("scales and sizes must be positive");
    if (spec.outShape[d] != getShape(x)[d] || spec.scales[d] != 1.0)
      ++resized;
  }
  if (spec.mode == "linear" && resized > 2)
    return ctx.error("linear resizing of more than 2 dimensions is "
                     "unsupported");
  ctx.setOutput(0, emitResize(ctx, x, spec));
  return success();
}

/// Fills the scales and the output shape from `scales` or `sizes`.
static LogicalResult setScalesOrSizes(NodeContext &ctx, ResizeSpec &spec,
                                      const std::vector<double> *scales,
                                      const std::vector<int64_t> *sizes) {
  ArrayRef<int64_t> in = getShape(ctx.input(0));
  if (sizes && !sizes->empty()) {
    if (failed(ctx.checkSizes(*sizes, "sizes")))
      return failure();
    if (sizes->size() != in.size())
      return ctx.error("'sizes' needs one entry per dimension");
    spec.outShape = *sizes;
    for (size_t d = 0; d < in.size(); ++d)
      spec.scales.push_back(double((*sizes)[d]) / double(in[d]));
    return success();
  }
  if (!scales || scales->size() != in.size())
    return ctx.error("'scales' needs one entry per dimension");
  spec.scales = *scales;
  for (size_t d = 0; d < in.size(); ++d)
    if (!(double(in[d]) * (*scales)[d] < double(int64_t(1) << 31)))
      return ctx.error("'scales' value " + Twine(std::to_string((*scales)[d])) +
                       " is out of range");
  for (size_t d = 0; d < in.size(); ++d)
    spec.outShape.push_back(
        static_cast<int64_t>(std::floor(double(in[d]) * (*scales)[d])));
  return success();
}

LogicalResult amp::onnximport::convertResize(NodeContext &ctx) {
  ResizeSpec spec;
  spec.mode = ctx.getString("mode", "nearest");
  spec.coordinates = ctx.getString("coordinate_transformation_mode",
                                   ctx.opset < 11 ? "asymmetric" : "half_pixel");
  spec.nearestMode = ctx.getString("nearest_mode", "round_prefer_floor");
  if (ctx.opset < 11)
    spec.nearestMode = "floor";
  if (ctx.getInt("exclude_outside", 0) != 0)
    return ctx.unsupported("exclude_outside", "1");
  if (spec.coordinates == "tf_crop_and_resize")
    return ctx.unsupported("coordinate_transformation_mode",
                           "'tf_crop_and_resize'");
  unsigned scalesIndex = ctx.opset < 11 ? 1 : 2;
  std::optional<std::vector<double>> scales;
  std::optional<std::vector<int64_t>> sizes;
  if (ctx.hasInput(scalesIndex)) {
    const Tensor *t = ctx.constInput(scalesIndex);
    if (!t)
      return ctx.error("'scales' must be known at import time");
    if (t->getNumElements() > 0)
      scales = getDoubles(*t);
  }
  if (ctx.opset >= 11 && ctx.hasInput(3)) {
    sizes = ctx.constInts(3);
    if (!sizes)
      return ctx.error("'sizes' must be known at import time");
  }
  if ((!scales || scales->empty()) && (!sizes || sizes->empty()))
    return ctx.error("one of 'scales' and 'sizes' is required");
  if (failed(setScalesOrSizes(ctx, spec, scales ? &*scales : nullptr,
                              sizes ? &*sizes : nullptr)))
    return failure();
  return finishResize(ctx, spec);
}

LogicalResult amp::onnximport::convertUpsample(NodeContext &ctx) {
  ResizeSpec spec;
  spec.mode = ctx.getString("mode", "nearest");
  spec.coordinates = "asymmetric";
  spec.nearestMode = "floor";
  std::vector<double> scales;
  if (ctx.opset < 9) {
    std::optional<std::vector<float>> attr = ctx.getFloats("scales");
    if (!attr)
      return ctx.error("'scales' is required");
    scales.assign(attr->begin(), attr->end());
  } else {
    const Tensor *t = ctx.constInput(1);
    if (!t)
      return ctx.error("'scales' must be known at import time");
    scales = getDoubles(*t);
  }
  if (failed(setScalesOrSizes(ctx, spec, &scales, nullptr)))
    return failure();
  return finishResize(ctx, spec);
}
