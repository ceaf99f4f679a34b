//===- PlanColors.cpp - Colors and the types of green ops -----------------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The colors of a PrecisionPlan (PlanState.h): annotation (`amp.color`,
// `amp.precision`) > user lists (`green=`, `gray=`, `red=`) > policy >
// the unknown-op policy; then `skip-layers` keeps chosen green ops in FP32,
// and the policy (or an annotation) gives every green op its compute,
// accumulation and output types.
//
//===----------------------------------------------------------------------===//

#include "PlanState.h"

#include "amp/IR/AmpDialect.h"
#include "amp/Utils/CastUtils.h"
#include "amp/Utils/ConversionMemo.h"
#include "amp/Utils/TypeUtils.h"


#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/DialectResourceBlobManager.h"

using namespace mlir;
using namespace mlir::amp;
using namespace mlir::amp::plan;

namespace {
/// The coloring steps, over the plan's state.
class Colorer {
public:
  Colorer(PlanState &state, ColorTally &tally)
      : root(state.root), options(state.options), ops(state.ops),
        infos(state.infos), colorName(state.colorName),
        precisionName(state.precisionName),
        hasAnnotations(state.hasAnnotations),
        uncoloredOps(tally.uncoloredOps),
        elidedConstants(tally.elidedConstants) {}

  LogicalResult colorOp(Operation *op, OpInfo &info);
  void applySkipLayers();
  LogicalResult assignPrecisions();

private:
  static bool isElidedConstant(Operation *op);

  Operation *root;
  const MixedPrecisionOptions &options;
  SmallVector<Operation *> &ops;
  SmallVector<OpInfo> &infos;
  StringAttr colorName, precisionName;
  bool &hasAnnotations;
  llvm::MapVector<OperationName, unsigned> &uncoloredOps;
  unsigned &elidedConstants;
};
} // namespace

LogicalResult Colorer::colorOp(Operation *op, OpInfo &info) {
  OpDecision &d = info.decision;
  if (d.reason == Reason::UnsupportedTypes)
    return success();
  auto iface = getMixedPrecisionInterface(op);

  if (auto color = getAnnotation<ColorAttr>(op, colorName)) {
    d.color = color.getValue();
    d.reason = Reason::Annotation;
    info.pinned = d.color != Color::gray;
    hasAnnotations = true;
    return success();
  }
  if (auto precision = getAnnotation<PrecisionAttr>(op, precisionName)) {
    // A forced precision: green (runs with target inputs) unless it asks
    // an op without an accumulator to compute in another type. With a
    // compute type, exactly that: FP32 (red) or those types.
    bool separate = iface && iface.hasSeparateAccumulator();
    if (FloatType compute = precision.getComputeFloatType()) {
      d.color = compute.isF32() ? Color::red : Color::green;
      // An FP8 compute type is the FP8 stage's (FP8Contractions.h): an op
      // still here runs in the target type.
      info.exact = !compute.isF32() && !isFP8Type(compute);
    } else {
      d.color = separate || precision.getAccumulate() == options.target
                    ? Color::green
                    : Color::red;
    }
    d.reason = Reason::Annotation;
    info.pinned = true;
    hasAnnotations = true;
    return success();
  }
  if (!options.userColors.empty()) {
    auto listed = options.userColors.find(op->getName().getStringRef());
    if (listed != options.userColors.end()) {
      d.color = listed->second;
      d.reason = Reason::UserList;
      return success();
    }
  }
  if (!d.unknown) {
    if (std::optional<ColorDecision> decision = options.policy.getColor(op)) {
      d.color = decision->color;
      d.reason = decision->reason;
      return success();
    }
    d.unknown = true;
  }
  // A constant whose data is not in the file cannot be rebuilt in another
  // type, whatever the policy for unknown ops: it stays FP32 and its readers
  // convert it.
  if (isElidedConstant(op)) {
    d.color = Color::red;
    d.reason = Reason::UnknownOp;
    info.pinned = true;
    if (options.remarks)
      mlir::emitRemark(op->getLoc()) << "this constant's data is not in the file (an "
                          "elided dense_resource): it stays in FP32";
    else
      ++elidedConstants;
    return success();
  }
  switch (options.unknownOps) {
  case UnknownOpPolicy::Error:
    return op->emitError()
           << "'" << op->getName()
           << "' has no mixed-precision color (unknown-ops=error); give it "
              "one with green=, gray=, red= or an amp.color annotation";
  case UnknownOpPolicy::Gray:
    d.color = Color::gray;
    d.reason = Reason::UnknownOp;
    break;
  case UnknownOpPolicy::Red:
    d.color = Color::red;
    d.reason = Reason::UnknownOp;
    // With `remarks`, the op's decision remark says it ("red (unknown
    // op)"); otherwise one summary per function (summarizeUncolored).
    if (!options.remarks)
      ++uncoloredOps[op->getName()];
    break;
  }
  return success();
}

bool Colorer::isElidedConstant(Operation *op) {
  if (!isa<arith::ConstantOp, tosa::ConstOp>(op))
    return false;
  auto resource = dyn_cast<DenseResourceElementsAttr>(getConstantAttr(op));
  return resource && !resource.getRawHandle().getBlob();
}

void Colorer::applySkipLayers() {
  if (options.skippedOps) {
    for (auto [op, info] : llvm::zip(ops, infos)) {
      if (!options.skippedOps->contains(op))
        continue;
      info.decision.color = Color::red;
      info.decision.reason = Reason::SkipLayers;
      info.pinned = true;
    }
    return;
  }
  if (options.skipLayers.empty())
    return;
  SmallVector<size_t> green;
  for (auto [i, info] : llvm::enumerate(infos)) {
    const OpDecision &d = info.decision;
    if (d.color == Color::green && d.reason != Reason::Annotation &&
        d.reason != Reason::UnsupportedTypes)
      green.push_back(i);
  }
  int64_t count = green.size();
  for (int64_t index : options.skipLayers) {
    int64_t position = index < 0 ? count + index : index;
    if (position < 0 || position >= count) {
      if (options.diagnostics)
        root->emitWarning() << "skip-layers index " << index
                            << " is out of range: this function has " << count
                            << " green op" << (count == 1 ? "" : "s");
      continue;
    }
    OpInfo &info = infos[green[position]];
    info.decision.color = Color::red;
    info.decision.reason = Reason::SkipLayers;
    info.pinned = true;
  }
}

LogicalResult Colorer::assignPrecisions() {
  FloatType target = options.target;
  for (auto [op, info] : llvm::zip(ops, infos)) {
    OpDecision &d = info.decision;
    if (d.color != Color::green) {
      d.computeType = d.accumulateType = d.outputType = target;
      continue;
    }
    Precision precision{};
    auto attr = getAnnotation<PrecisionAttr>(op, precisionName);
    if (attr)
      precision = {attr.getAccumulateFloatType(), attr.getOutputFloatType()};
    else
      precision = options.policy.getPrecision(op, target);
    if (!precision.accumulate || !precision.output)
      return op->emitError() << "the precision policy gave no accumulation "
                                "or output type for this op";
    // The types amp computes and casts in: a wider or narrower one (f64,
    // f8) would be another conversion, not mixed precision.
    auto allowed = [](FloatType type) {
      return type.isF32() || type.isF16() || type.isBF16();
    };
    if (!allowed(precision.accumulate) || !allowed(precision.output))
      return op->emitError()
             << (attr ? "amp.precision" : "the precision policy")
             << " asks for accumulate " << precision.accumulate
             << " and output " << precision.output
             << "; each must be f32, f16 or bf16";
    auto iface = getMixedPrecisionInterface(op);
    FloatType compute = attr ? attr.getComputeFloatType() : FloatType();
    // An op annotated with an FP8 compute type that the FP8 stage did not
    // convert (no scale, no FP8 form) runs in the target type.
    if (compute && isFP8Type(compute))
      compute = FloatType();
    if (compute && !allowed(compute))
      return op->emitError() << "amp.precision asks for compute " << compute
                             << "; it must be f32, f16, bf16, f8E4M3FN or "
                                "f8E5M2";
    d.computeType = compute ? compute : target;
    d.accumulateType = precision.accumulate;
    d.outputType = precision.output;
    if (!iface || !iface.hasSeparateAccumulator()) {
      // No separate accumulator: the op computes in its compute type.
      d.accumulateType = d.computeType;
    }
  }
  return success();
}


LogicalResult plan::colorOp(PlanState &state, ColorTally &tally, Operation *op,
                            OpInfo &info) {
  return Colorer(state, tally).colorOp(op, info);
}

void plan::summarizeUncolored(const PlanState &state, const ColorTally &tally) {
  const MixedPrecisionOptions &options = state.options;
  Operation *root = state.root;
  const auto &uncoloredOps = tally.uncoloredOps;
  unsigned elidedConstants = tally.elidedConstants;
  if (!options.diagnostics)
    return;
  if (!uncoloredOps.empty()) {
    unsigned total = 0;
    for (auto &entry : uncoloredOps)
      total += entry.second;
    // At the function's location, without the function printed after it.
    InFlightDiagnostic remark = mlir::emitRemark(root->getLoc());
    remark << total << (total == 1 ? " op" : " ops") << " of "
           << uncoloredOps.size()
           << (uncoloredOps.size() == 1 ? " kind has" : " kinds have")
           << " no mixed-precision color and stay"
           << (total == 1 ? "s" : "") << " in FP32: ";
    llvm::interleaveComma(uncoloredOps, remark, [&](auto &entry) {
      remark << entry.first << " (" << entry.second << ")";
    });
    remark << "; remarks=true lists each, green=, gray=, red= or amp.color "
              "choose a color";
  }
  if (elidedConstants)
    mlir::emitRemark(root->getLoc()) << elidedConstants
                       << (elidedConstants == 1 ? " constant has" :
                                                  " constants have")
                       << " no data in the file (elided dense_resource): "
                          "kept in FP32 and converted where read";
}


void plan::applySkipLayers(PlanState &state) {
  ColorTally unused;
  Colorer(state, unused).applySkipLayers();
}

LogicalResult plan::assignPrecisions(PlanState &state) {
  ColorTally unused;
  return Colorer(state, unused).assignPrecisions();
}
