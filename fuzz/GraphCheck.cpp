//===- GraphCheck.cpp - Check amp on one generated graph ------------------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "GraphCheck.h"

#include "AmpTestDialect.h"
#include "FuzzCommon.h"
#include "amp/IR/AmpAttrs.h"
#include "amp/IR/AmpDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::amp;
using namespace mlir::amp::fuzz;

/// Adds annotations: amp.color on ~4% of the ops, amp.precision on ~3%, and
/// a policy on ~15% of the modules.
static void annotate(ModuleOp module, Entropy &rng) {
  MLIRContext *ctx = module.getContext();
  ctx->getOrLoadDialect<AmpDialect>();
  ctx->getOrLoadDialect<test::AmpTestDialect>();
  Builder b(ctx);
  FloatType floats[] = {b.getF32Type(), b.getF16Type(), b.getBF16Type()};
  if (rng.chance(15)) {
    Attribute policy;
    switch (rng.below(3)) {
    case 0:
      policy = DefaultPolicyAttr::get(ctx, Type(), Type(), rng.below(4096));
      break;
    case 1:
      policy = DefaultPolicyAttr::get(ctx, floats[rng.below(3)],
                                      floats[rng.below(3)], 0);
      break;
    default:
      policy = test::ConvMacThresholdPolicyAttr::get(ctx, rng.below(4096));
      break;
    }
    module->setAttr(AmpDialect::getPolicyAttrName(), policy);
  }
  module.walk([&](Operation *op) {
    if (op == module.getOperation() || isa<FunctionOpInterface>(op))
      return;
    if (rng.chance(4)) {
      Color colors[] = {Color::green, Color::gray, Color::red};
      op->setAttr(AmpDialect::ColorAttrHelper::getNameStr(),
                  ColorAttr::get(ctx, colors[rng.below(3)]));
    } else if (rng.chance(3)) {
      op->setAttr(AmpDialect::PrecisionAttrHelper::getNameStr(),
                  PrecisionAttr::get(ctx, floats[rng.below(3)],
                                     floats[rng.below(3)]));
    }
  });
}

CaseResult mlir::amp::fuzz::runGeneratedCase(Entropy &entropy,
                                             const GeneratorOptions &options,
                                             bool withAnnotations,
                                             bool check) {
  CaseResult result;
  GeneratedModule generated = generateModule(entropy, options);
  result.numOps = generated.numOps;
  result.usesUnregistered = generated.usesUnregistered;
  result.input = generated.text;

  std::unique_ptr<MLIRContext> ctx =
      createFuzzContext(generated.usesUnregistered);
  std::string parseError;
  OwningOpRef<ModuleOp> module;
  {
    ScopedDiagnosticHandler handler(ctx.get(), [&](Diagnostic &diag) {
      if (diag.getSeverity() == DiagnosticSeverity::Error &&
          parseError.empty()) {
        llvm::raw_string_ostream os(parseError);
        os << diag.getLocation() << ": " << diag.str();
      }
      return success();
    });
    module = parseSourceString<ModuleOp>(generated.text,
                                         ParserConfig(ctx.get()), "generated");
  }
  if (!module) {
    result.generatorError = parseError.empty() ? "parse failed" : parseError;
    return result;
  }
  if (withAnnotations) {
    annotate(*module, entropy);
    result.input.clear();
    llvm::raw_string_ostream os(result.input);
    module->print(os);
  }
  if (!check)
    return result;
  for (const OptionSet &set : getOptionSets()) {
    CheckResult checked = checkConversion(*module, set, /*requireSuccess=*/true);
    if (!checked.violation.empty())
      result.violations.push_back({set.name, checked.violation});
  }
  return result;
}
