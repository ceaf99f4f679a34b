//===- AmpDialect.cpp - The amp dialect and its annotations ---------------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Dialect initialization and the verifier of `amp.*` annotations on any op.
//
//===----------------------------------------------------------------------===//

#include "amp/IR/AmpDialect.h"

#include <cctype>

#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::amp;

#include "amp/IR/AmpDialect.cpp.inc"

void AmpDialect::initialize() { registerAttributes(); }

//===----------------------------------------------------------------------===//
// Annotation verifier
//===----------------------------------------------------------------------===//

namespace {
/// One annotation amp understands: its name, what its value must be, and how
/// to check that; for scope annotations, which ops may carry it.
struct AnnotationKind {
  StringLiteral name;
  StringLiteral expected;
  bool (*accepts)(Attribute);
  /// Null when any op may carry the annotation.
  bool (*allowedOn)(Operation *) = nullptr;
  StringLiteral allowedOnDescription = "";
};
} // namespace

/// Functions and modules (symbol tables) are the scopes of scope annotations.
static bool isFunctionOrModule(Operation *op) {
  return isa<FunctionOpInterface>(op) || op->hasTrait<OpTrait::SymbolTable>();
}

/// Runtime declarations carry amp.host_only.
static bool isFunction(Operation *op) { return isa<FunctionOpInterface>(op); }

/// GPU kernels before outlining (and the loops and linalg ops that become
/// them) carry amp.kernel.
static bool isKernelOrLoop(Operation *op) {
  StringRef name = op->getName().getStringRef();
  return name == "gpu.launch" || name == "scf.parallel" ||
         op->getName().getDialectNamespace() == "linalg";
}

static const AnnotationKind kAnnotations[] = {
    {"amp.color", "a color attribute (#amp.color<green|gray|red>)",
     [](Attribute a) { return isa<ColorAttr>(a); }},
    {"amp.precision",
     "a precision attribute (#amp.precision<accumulate = T, output = U>)",
     [](Attribute a) { return isa<PrecisionAttr>(a); }},
    {"amp.weights",
     "a weight-only format (#amp.weights<\"int8\">, "
     "#amp.weights<\"int4-g128\">, ...)",
     [](Attribute a) { return isa<WeightsAttr>(a); }},
    {"amp.policy",
     "an attribute implementing PrecisionPolicyAttrInterface (for example "
     "#amp.default_policy)",
     [](Attribute a) { return isa<PrecisionPolicyAttrInterface>(a); }},
    {"amp.layout_config",
     "a layout configuration (#amp.layout_config<filter = ..., skip_layers = "
     "[...], ops = [...]>)",
     [](Attribute a) { return isa<LayoutConfigAttr>(a); }, isFunctionOrModule,
     "a function or a module"},
    {"amp.host_only", "a unit attribute",
     [](Attribute a) { return isa<UnitAttr>(a); }, isFunction, "a function"},
    {"amp.kernel",
     "a non-empty string of letters, digits and underscores (what the kernel "
     "computes, e.g. \"softmax\")",
     [](Attribute a) {
       auto s = dyn_cast<StringAttr>(a);
       return s && !s.getValue().empty() &&
              llvm::all_of(s.getValue(), [](char c) {
                return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
              });
     },
     isKernelOrLoop, "a gpu.launch, an scf.parallel or a linalg op"},
};

LogicalResult AmpDialect::verifyOperationAttribute(Operation *op,
                                                   NamedAttribute attr) {
  StringRef name = attr.getName().getValue();
  const auto *kind = llvm::find_if(
      kAnnotations, [&](const AnnotationKind &k) { return k.name == name; });
  if (kind == std::end(kAnnotations)) {
    std::string known;
    llvm::raw_string_ostream os(known);
    llvm::interleaveComma(kAnnotations, os,
                          [&](const AnnotationKind &k) { os << k.name; });
    return op->emitError() << "unknown amp annotation '" << name
                           << "' (known: " << known << ")";
  }
  if (!kind->accepts(attr.getValue()))
    return op->emitError() << "'" << name << "' must be " << kind->expected
                           << ", got " << attr.getValue();
  if (kind->allowedOn && !kind->allowedOn(op))
    return op->emitError() << "'" << name << "' may only annotate "
                           << kind->allowedOnDescription << ", not '"
                           << op->getName() << "'";
  return success();
}
