//===- ConversionReport.cpp - The JSON report of --amp-mixed-precision ----===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Format (one object):
//   {"target": "f16", ("fallback": "f16" with an FP8 target,)
//    "ops": [{"function", "op", "loc", "color", "reason", "converted",
//             "compute", "accumulate", "output", "range", "fp8"}...],
//    "totals": {"ops", "green", "gray", "red", "unknown", "converted",
//               ("fp8",) "gray_low", "gray_fp32", "casts_inserted",
//               "cast_bytes", "gray_bytes", "red_bytes",
//               "constants_folded", "constant_bytes_before",
//               "constant_bytes_after", "constants_out_of_range"}}
// "compute"/"accumulate"/"output" are present for converted ops only;
// "range" (an object: "lo", "hi", "type" the type the values left, "margin"
// the safety factor for observed ranges, "why" the
// sentence of the remark) only for decisions a range made. "fp8" (an
// object: "type", "converted", and "scales", one per FP8 operand with
// "operand", "from", "max_abs", "scale" and "channels", or "why") only for
// contractions that asked for FP8; the FP8 contractions come first.
// "weights" (an object: "format", "activations" the 16-bit type,
// "converted", and "bytes_f32", "bytes_16", "bytes", "scales" the type of
// the scales, or "why") instead of "fp8" for contractions that asked for a
// weight-only format; then the totals have "weight_only", "weight_bytes_f32",
// "weight_bytes_16" and "weight_bytes".
//
//===----------------------------------------------------------------------===//

#include "ConversionReport.h"

#include "amp/Report/HtmlReport.h"

#include "llvm/Support/JSON.h"

#include <cmath>

using namespace mlir;
using namespace mlir::amp;

std::string mlir::amp::formatLocation(Location loc) {
  return formatReportLocation(loc);
}

static std::string typeString(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  type.print(os);
  return text;
}

/// The "fp8" object of a contraction that asked for FP8.
static void writeFP8(llvm::json::OStream &json, const FP8Record &fp8) {
  json.attributeObject("fp8", [&] {
    json.attribute("type", typeString(fp8.type));
    json.attribute("converted", fp8.converted);
    if (!fp8.converted) {
      json.attribute("why", fp8.why);
      return;
    }
    json.attributeArray("scales", [&] {
      for (const FP8OperandScale &scale : fp8.scales)
        json.object([&] {
          json.attribute("operand", scale.operand);
          json.attribute("from", stringifyFP8ScaleSource(scale.source));
          json.attribute("max_abs", scale.maxAbs);
          json.attribute("scale", scale.scale);
          json.attribute("channels", scale.channels);
        });
    });
  });
}

/// The "weights" object of a contraction that asked for a weight-only
/// format: the bytes of its weight before (f32, and in the 16-bit type it
/// would have had) and after.
static void writeWeights(llvm::json::OStream &json, const FP8Record &record) {
  json.attributeObject("weights", [&] {
    json.attribute("format", record.weights->str());
    json.attribute("activations", typeString(record.type));
    json.attribute("converted", record.converted);
    if (!record.converted) {
      json.attribute("why", record.why);
      return;
    }
    json.attribute("bytes_f32", record.weightBytesF32);
    json.attribute("bytes_16", record.weightBytes16);
    json.attribute("bytes", record.weightBytesStored);
    json.attribute("scales", record.f16Scales ? "f16" : "f32");
  });
}

/// The "range" object of a decision a range made.
static void writeRange(llvm::json::OStream &json, const OpDecision &d) {
  if (!d.range.isInterval() || !d.rangeType)
    return;
  auto bound = [&](StringRef key, double value) {
    if (std::isfinite(value))
      json.attribute(key, value);
    else
      json.attribute(key, nullptr);
  };
  json.attributeObject("range", [&] {
    bound("lo", d.range.getLo());
    bound("hi", d.range.getHi());
    json.attribute("type", typeString(d.rangeType));
    if (d.reason == Reason::ObservedRange)
      json.attribute("margin", d.rangeMargin);
    json.attribute("why", describeRangeReason(d));
  });
}

void mlir::amp::writeConversionReport(llvm::raw_ostream &os, FloatType target,
                                      ArrayRef<FunctionConversion> functions,
                                      FloatType fallback) {
  int64_t numOps = 0, green = 0, gray = 0, red = 0, unknown = 0, grayLow = 0;
  ConversionStats totals;
  llvm::json::OStream json(os, /*IndentSize=*/2);
  json.object([&] {
    json.attribute("target", typeString(target));
    if (fallback)
      json.attribute("fallback", typeString(fallback));
    json.attributeArray("ops", [&] {
      for (const FunctionConversion &function : functions) {
        totals.merge(function.stats);
        for (const OpRecord &record : function.records) {
          const OpDecision &d = record.decision;
          ++numOps;
          unknown += d.unknown;
          switch (d.color) {
          case Color::green:
            ++green;
            break;
          case Color::gray:
            ++gray;
            grayLow += d.lowPrecision;
            break;
          case Color::red:
            ++red;
            break;
          }
          json.object([&] {
            json.attribute("function", function.function);
            json.attribute("op", record.opName.getStringRef());
            json.attribute("loc", formatLocation(record.location));
            json.attribute("color", stringifyColor(d.color));
            json.attribute("reason", stringifyReason(d.reason));
            json.attribute("converted", d.lowPrecision);
            if (d.lowPrecision) {
              json.attribute("compute", typeString(d.computeType));
              json.attribute("accumulate", typeString(d.accumulateType));
              json.attribute("output", typeString(d.outputType));
            }
            if (d.reason == Reason::NarrowedAfterNormalization)
              json.attributeObject("growth", [&] {
                json.attribute("input", d.inputGrowth);
                json.attribute("result", d.resultGrowth);
                json.attribute("why", describeRangeReason(d));
              });
            if (record.fp8 && record.fp8->weights)
              writeWeights(json, *record.fp8);
            else if (record.fp8)
              writeFP8(json, *record.fp8);
            writeRange(json, d);
          });
        }
      }
    });
    json.attributeObject("totals", [&] {
      json.attribute("ops", numOps);
      json.attribute("green", green);
      json.attribute("gray", gray);
      json.attribute("red", red);
      json.attribute("unknown", unknown);
      json.attribute("converted", totals.converted);
      // Contractions converted to FP8, in the reports of FP8 conversions
      // (or of annotated ops).
      if (fallback || totals.fp8)
        json.attribute("fp8", totals.fp8);
      // Contractions with weight-only weights and the bytes of those
      // weights, in f32, in the 16-bit type and as stored.
      if (totals.weightOnly) {
        json.attribute("weight_only", totals.weightOnly);
        json.attribute("weight_bytes_f32", totals.weightBytesF32);
        json.attribute("weight_bytes_16", totals.weightBytes16);
        json.attribute("weight_bytes", totals.weightBytesStored);
      }
      json.attribute("gray_low", grayLow);
      json.attribute("gray_fp32", gray - grayLow);
      json.attribute("casts_inserted", totals.casts);
      json.attribute("cast_bytes", totals.castBytes);
      json.attribute("gray_bytes", totals.grayBytes);
      json.attribute("red_bytes", totals.redBytes);
      json.attribute("constants_folded", totals.foldedConstants);
      json.attribute("constant_bytes_before", totals.constantBytesBefore);
      json.attribute("constant_bytes_after", totals.constantBytesAfter);
      json.attribute("constants_out_of_range",
                     totals.constants.numOverflow +
                         totals.constants.numUnderflow);
      json.attribute("constants_negligible_flushed",
                     totals.constants.numNegligible);
    });
  });
  os << "\n";
}
