//===- TuneJson.cpp - amp-tune's result as JSON ---------------------------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// `amp-tune --json`: the tolerance, the ranking, what was kept and moved, and
// every trial with its numbers.
//
//===----------------------------------------------------------------------===//

#include "Tuner.h"

#include <cmath>

using namespace mlir;
using namespace mlir::amp;
using namespace mlir::amp::runner;
using namespace mlir::amp::tune;

static llvm::json::Value jsonNumber(double value) {
  if (!std::isfinite(value))
    return nullptr;
  return value;
}

llvm::json::Value mlir::amp::tune::toJson(const TuneResult &result,
                                          StringRef model, StringRef tolerance,
                                          unsigned samples,
                                          const FunctionSignature &inputs) {
  llvm::json::Array arguments;
  for (const TensorSignature &argument : inputs.arguments)
    arguments.push_back(formatShape(argument.shape) + "x" +
                        stringifyElementKind(argument.kind).str());
  llvm::json::Array trials, kept, candidates;
  for (auto [i, t] : llvm::enumerate(result.trials)) {
    llvm::json::Array failures;
    for (const std::string &f : t.failures)
      failures.push_back(f);
    trials.push_back(
        llvm::json::Object{{"trial", static_cast<int64_t>(i + 1)},
                           {"what", t.what},
                           {"kept_fp32", static_cast<int64_t>(t.kept)},
                           {"moved_to_16bit", static_cast<int64_t>(t.demoted)},
                           {"ops_16bit", static_cast<int64_t>(t.low)},
                           {"ops_fp8", static_cast<int64_t>(t.fp8)},
                           {"rel_l2", jsonNumber(t.relL2)},
                           {"cost_us", 1e6 * t.cost},
                           {"meets", t.meets},
                           {"failures", std::move(failures)},
                           {"seconds", t.seconds},
                           {"convert_seconds", t.convertSeconds},
                           {"compile_seconds", t.compileSeconds},
                           {"run_seconds", t.runSeconds}});
  }
  for (auto [i, c] : llvm::enumerate(result.candidates)) {
    llvm::json::Object entry{{"op", c.name},
                             {"loc", c.location},
                             {"index", static_cast<int64_t>(c.tag)},
                             {"error", jsonNumber(c.error)},
                             {"sensitivity", jsonNumber(c.sensitivity)},
                             {"saving_us", 1e6 * c.saving},
                             {"impact", c.impact >= 0
                                            ? jsonNumber(c.impact)
                                            : llvm::json::Value(nullptr)},
                             {"kept_fp32", i < result.kept}};
    candidates.push_back(std::move(entry));
  }
  double share = result.candidates.empty() ? 0.0
                                           : static_cast<double>(result.low) /
                                                 result.candidates.size();
  std::optional<double> relL2;
  if (result.chosen)
    relL2 = result.chosen->relL2;
  // Multiply-adds by precision, in the chosen trial's conversion.
  int64_t fp8Macs = result.chosen ? result.chosen->fp8Macs : 0;
  int64_t lowMacs = result.chosen ? result.chosen->lowMacs : 0;
  int64_t fp32Macs = std::max<int64_t>(0, result.totalMacs - fp8Macs - lowMacs);
  auto macShare = [&](int64_t n) -> llvm::json::Value {
    if (result.totalMacs == 0 || !result.chosen)
      return nullptr;
    return static_cast<double>(n) / static_cast<double>(result.totalMacs);
  };
  std::string lowName = "16bit";
  if (result.lowType)
    llvm::raw_string_ostream(lowName = "") << result.lowType;
  llvm::json::Object macsByPrecision{
      {"total", result.totalMacs}, {lowName, lowMacs}, {"f32", fp32Macs}};
  llvm::json::Object sharesByPrecision{{lowName, macShare(lowMacs)},
                                       {"f32", macShare(fp32Macs)}};
  llvm::json::Array fp8Ops;
  if (!result.subName.empty()) {
    // The level below 16 bits: an FP8 type, or a weight-only format.
    const std::string &fp8Name = result.subName;
    int64_t lowest = fp8Macs;
    for (auto [index, format] : llvm::enumerate(result.upperFormats)) {
      int64_t n = result.chosen ? result.chosen->upperMacs[index] : 0;
      macsByPrecision[format] = n;
      sharesByPrecision[format] = macShare(n);
      lowest -= n;
    }
    macsByPrecision[fp8Name] = lowest;
    sharesByPrecision[fp8Name] = macShare(lowest);
    llvm::DenseSet<unsigned> moved(result.demotedTags.begin(),
                                   result.demotedTags.end());
    // Where a contraction ended: the level below 16 bits, an upper
    // weight-only format, or 16 bits.
    auto getFormat = [&](unsigned tag) -> llvm::json::Value {
      if (auto it = result.upperFormatOf.find(tag);
          it != result.upperFormatOf.end())
        return result.upperFormats[it->second];
      if (moved.contains(tag))
        return lowName;
      return result.subName;
    };
    for (const Candidate &c : result.fp8Candidates)
      fp8Ops.push_back(
          llvm::json::Object{{"op", c.name},
                             {"loc", c.location},
                             {"index", static_cast<int64_t>(c.tag)},
                             {"error", jsonNumber(c.error)},
                             {"sensitivity", jsonNumber(c.sensitivity)},
                             {"moved_to_16bit", moved.contains(c.tag)},
                             {"format", getFormat(c.tag)}});
  }
  const runner::KernelCacheStatistics &compilation = result.compilation;
  return llvm::json::Object{
      {"model", model},
      {"inputs", std::move(arguments)},
      {"rel_l2", relL2 ? jsonNumber(*relL2) : llvm::json::Value(nullptr)},
      {"threads", static_cast<int64_t>(result.threads)},
      {"kernels_compiled", static_cast<int64_t>(compilation.kernelsCompiled)},
      {"kernels_reused", static_cast<int64_t>(compilation.kernelsReused)},
      {"kernels_in_parts", static_cast<int64_t>(compilation.kernelsInParts)},
      {"compile_seconds", compilation.compileSeconds},
      {"tolerance", tolerance},
      {"samples", static_cast<int64_t>(samples)},
      {"candidates", static_cast<int64_t>(result.candidates.size())},
      {"kept_fp32", static_cast<int64_t>(result.kept)},
      {"ops_16bit", static_cast<int64_t>(result.low)},
      {"share_16bit", share},
      {"macs", std::move(macsByPrecision)},
      {"share_macs", std::move(sharesByPrecision)},
      {"cost_us",
       llvm::json::Object{
           {"model", getCostModelName()},
           {"fp32", 1e6 * result.fp32Cost},
           {"tuned", result.chosen
                         ? llvm::json::Value(1e6 * result.chosen->cost)
                         : llvm::json::Value(nullptr)},
           {"nothing_kept", 1e6 * result.lowestCost}}},
      {"moved_to_16bit", static_cast<int64_t>(result.demotedTags.size())},
      {result.fp8Type || result.subName.empty() ? "fp8_ops" : "weight_only_ops",
       std::move(fp8Ops)},
      {"bytes_per_call", result.chosen ? llvm::json::Value(result.chosen->bytes)
                                       : llvm::json::Value(nullptr)},
      {"weight_bytes", result.chosen
                           ? llvm::json::Value(result.chosen->weightBytes)
                           : llvm::json::Value(nullptr)},
      {"seconds", result.seconds},
      {"trials", std::move(trials)},
      {"ops", std::move(candidates)}};
}
